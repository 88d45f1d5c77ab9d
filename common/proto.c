// SPDX-License-Identifier: GPL-2.0-only
/*
 * Encoding and checked decoding of the guestd <-> hostctl protocol.
 * Events are described by one table of fields per event type, and the run
 * request by one of its own, so the encoder and the decoder cannot
 * disagree on a name, a type or a bound.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "errmsg.h"
#include "jsonutil.h"
#include "proto.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

static const char *const verdict_names[VERDICT__COUNT] = {
	[VERDICT_PASS] = "pass",       [VERDICT_FAIL] = "fail",
	[VERDICT_SKIP] = "skip",       [VERDICT_XFAIL] = "xfail",
	[VERDICT_TIMEOUT] = "timeout", [VERDICT_ERROR] = "error",
	[VERDICT_CRASH] = "crash",     [VERDICT_XPASS] = "xpass",
};

static const char *const event_names[PROTO_EV__COUNT] = {
	[PROTO_EV_HELLO] = "hello",
	[PROTO_EV_SCENARIO_BEGIN] = "scenario_begin",
	[PROTO_EV_STEP_BEGIN] = "step_begin",
	[PROTO_EV_STEP_END] = "step_end",
	[PROTO_EV_SCENARIO_END] = "scenario_end",
	[PROTO_EV_KMSG] = "kmsg",
	[PROTO_EV_HEARTBEAT] = "heartbeat",
	[PROTO_EV_BYE] = "bye",
	[PROTO_EV_AUDIT] = "audit",
	[PROTO_EV_AUDIT_FILE] = "audit_file",
	[PROTO_EV_SUBTEST] = "subtest",
	[PROTO_EV_OUTPUT] = "output",
};

const char *proto_verdict_name(enum proto_verdict v)
{
	if ((unsigned int)v >= VERDICT__COUNT)
		return "error";
	return verdict_names[v];
}

int proto_verdict_parse(const char *s, enum proto_verdict *ret)
{
	for (unsigned int i = 0; i < VERDICT__COUNT; i++) {
		if (strcmp(s, verdict_names[i]) == 0) {
			*ret = i;
			return 0;
		}
	}
	return -EINVAL;
}

bool proto_verdict_ok(enum proto_verdict v)
{
	return v == VERDICT_PASS || v == VERDICT_SKIP || v == VERDICT_XFAIL;
}

const char *proto_event_name(enum proto_event_type t)
{
	if ((unsigned int)t >= PROTO_EV__COUNT)
		return "unknown";
	return event_names[t];
}

/*
 * One field of an event: its JSON name, its type, and where it lives in
 * struct proto_event. Strings are bounded by their array size; integers
 * by [min, max].
 */
enum field_type { F_STR, F_U64, F_I64, F_U32, F_VERDICT };

struct field {
	const char *name;
	enum field_type type;
	size_t offset;
	size_t size; /* F_STR: array size, NUL included */
	int64_t min; /* F_I64 only */
	bool optional; /* may be absent (strings default to "") */
	bool omit_zero; /* left off the wire when 0 or "" */
	bool no_ctl; /* F_STR: a name or a kind, no control character */
};

/* One row per line: clang-format would spread each over four. */
/* clang-format off */
#define EV_OFF(member) offsetof(struct proto_event, u.member)
#define STR(n, m, opt) { n, F_STR, EV_OFF(m), sizeof(((struct proto_event *)0)->u.m), 0, opt, false, false }
#define NAME(n, m, opt) { n, F_STR, EV_OFF(m), sizeof(((struct proto_event *)0)->u.m), 0, opt, false, true }
#define U64(n, m) { n, F_U64, EV_OFF(m), 0, 0, false, false, false }
#define U32(n, m) { n, F_U32, EV_OFF(m), 0, 0, false, false, false }
#define U32_OPT(n, m) { n, F_U32, EV_OFF(m), 0, 0, true, false, false }
#define STR_OMIT(n, m) { n, F_STR, EV_OFF(m), sizeof(((struct proto_event *)0)->u.m), 0, true, true, false }
#define U32_OMIT(n, m) { n, F_U32, EV_OFF(m), 0, 0, true, true, false }
#define U64_OMIT(n, m) { n, F_U64, EV_OFF(m), 0, 0, true, true, false }
#define I64(n, m, lo) { n, F_I64, EV_OFF(m), 0, lo, false, false, false }
#define VERDICT(n, m) { n, F_VERDICT, EV_OFF(m), 0, 0, false, false, false }
/* clang-format on */

static const struct field hello_fields[] = {
	I64("version", hello.version, 0),
	STR("release", hello.release, false),
	STR("proc_version", hello.proc_version, false),
	STR("cmdline", hello.cmdline, false),
	STR("config_digest", hello.config_digest, false),
	U64("boot_ms", hello.boot_ms),
	U64_OMIT("clock_t0_us", hello.clock_t0_us),
	U64_OMIT("clock_ts_us", hello.clock_ts_us),
	U64_OMIT("clock_t1_us", hello.clock_t1_us),
	{ "boot_id", F_STR, EV_OFF(hello.boot_id),
	  sizeof(((struct proto_event *)0)->u.hello.boot_id), 0, true, true,
	  true },
	U32_OMIT("restored", hello.restored),
};

static const struct field scenario_begin_fields[] = {
	NAME("scenario", scenario_begin.scenario, false),
	U32("nsteps", scenario_begin.nsteps),
	U32_OPT("ncleanup", scenario_begin.ncleanup),
};

static const struct field step_begin_fields[] = {
	NAME("scenario", step_begin.scenario, false),
	U32("step", step_begin.step),
	NAME("kind", step_begin.kind, false),
	NAME("name", step_begin.name, true),
};

static const struct field step_end_fields[] = {
	NAME("scenario", step_end.scenario, false),
	U32("step", step_end.step),
	VERDICT("verdict", step_end.verdict),
	U64("duration_us", step_end.duration_us),
	STR("expected", step_end.expected, true),
	STR("got", step_end.got, true),
	STR("reason", step_end.reason, true),
	U32_OMIT("bench_runs", step_end.bench.runs),
	U64_OMIT("bench_median", step_end.bench.median),
	U64_OMIT("bench_min", step_end.bench.min),
	U64_OMIT("bench_max", step_end.bench.max),
	U64_OMIT("bench_cv_ppm", step_end.bench.cv_ppm),
	U32_OMIT("stack_max_bytes", step_end.stack.max_bytes),
	U32_OMIT("stack_frames", step_end.stack.frames),
	STR_OMIT("stack_functions", step_end.stack.functions),
};

static const struct field scenario_end_fields[] = {
	NAME("scenario", scenario_end.scenario, false),
	VERDICT("verdict", scenario_end.verdict),
	U64("duration_us", scenario_end.duration_us),
	STR("reason", scenario_end.reason, true),
};

static const struct field kmsg_fields[] = {
	NAME("scenario", kmsg.scenario, true),
	I64("step", kmsg.step, -1),
	U64("seq", kmsg.seq),
	U64("ts_us", kmsg.ts_us),
	U32("prio", kmsg.prio),
	STR("msg", kmsg.msg, false),
};

static const struct field audit_fields[] = {
	NAME("scenario", audit.scenario, false),
	STR("phase", audit.phase, false),
	U64("tainted", audit.tainted),
	U64("warns", audit.warns),
	U64("bugs", audit.bugs),
	U32("nfiles", audit.nfiles),
};

static const struct field audit_file_fields[] = {
	NAME("scenario", audit_file.scenario, false),
	STR("phase", audit_file.phase, false),
	STR("path", audit_file.path, false),
	STR("err", audit_file.err, true),
	U64("size", audit_file.size),
	STR("hash", audit_file.hash, false),
	STR("head", audit_file.head, true),
};

static const struct field subtest_fields[] = {
	NAME("scenario", subtest.scenario, false),
	U32("step", subtest.step),
	U32("index", subtest.index),
	NAME("name", subtest.name, false),
	VERDICT("verdict", subtest.verdict),
	STR("reason", subtest.reason, true),
};

static const struct field output_fields[] = {
	NAME("scenario", output.scenario, false),
	U32("step", output.step),
	NAME("stream", output.stream, false),
	STR("data", output.data, false),
};

static const struct {
	const struct field *fields;
	size_t n;
} event_fields[PROTO_EV__COUNT] = {
	[PROTO_EV_HELLO] = { hello_fields, ARRAY_SIZE(hello_fields) },
	[PROTO_EV_SCENARIO_BEGIN] = { scenario_begin_fields,
				      ARRAY_SIZE(scenario_begin_fields) },
	[PROTO_EV_STEP_BEGIN] = { step_begin_fields,
				  ARRAY_SIZE(step_begin_fields) },
	[PROTO_EV_STEP_END] = { step_end_fields, ARRAY_SIZE(step_end_fields) },
	[PROTO_EV_SCENARIO_END] = { scenario_end_fields,
				    ARRAY_SIZE(scenario_end_fields) },
	[PROTO_EV_KMSG] = { kmsg_fields, ARRAY_SIZE(kmsg_fields) },
	[PROTO_EV_HEARTBEAT] = { NULL, 0 },
	[PROTO_EV_BYE] = { NULL, 0 },
	[PROTO_EV_AUDIT] = { audit_fields, ARRAY_SIZE(audit_fields) },
	[PROTO_EV_AUDIT_FILE] = { audit_file_fields,
				  ARRAY_SIZE(audit_file_fields) },
	[PROTO_EV_SUBTEST] = { subtest_fields, ARRAY_SIZE(subtest_fields) },
	[PROTO_EV_OUTPUT] = { output_fields, ARRAY_SIZE(output_fields) },
};

/*
 * @obj as one line, '\n' included, in a malloc'd string: 0, -E2BIG when the
 * line would exceed PROTO_LINE_MAX (the other side would refuse it), or
 * -ENOMEM.
 */
static int to_line(struct json_object *obj, char **ret_line, size_t *ret_len)
{
	const char *s;
	size_t len;
	char *line;

	s = json_object_to_json_string_length(obj, JSON_FLAGS, &len);
	if (!s)
		return -ENOMEM;
	if (len + 1 > PROTO_LINE_MAX)
		return -E2BIG;
	line = malloc(len + 2);
	if (!line)
		return -ENOMEM;
	memcpy(line, s, len);
	line[len] = '\n';
	line[len + 1] = '\0';
	*ret_line = line;
	*ret_len = len + 1;
	return 0;
}

static int encode_field(struct json_object *obj, const struct proto_event *ev,
			const struct field *f)
{
	const char *p = (const char *)ev + f->offset;

	if (f->omit_zero && ((f->type == F_U64 && !*(const uint64_t *)p) ||
			     (f->type == F_U32 && !*(const uint32_t *)p) ||
			     (f->type == F_STR && !*p)))
		return 0;
	switch (f->type) {
	case F_STR:
		return jsonutil_add(
			obj, f->name,
			json_object_new_string_len(p, strnlen(p, f->size)));
	case F_U64:
		return jsonutil_add(
			obj, f->name,
			json_object_new_uint64(*(const uint64_t *)p));
	case F_I64:
		return jsonutil_add(obj, f->name,
				    json_object_new_int64(*(const int64_t *)p));
	case F_U32:
		return jsonutil_add(
			obj, f->name,
			json_object_new_uint64(*(const uint32_t *)p));
	case F_VERDICT:
		return jsonutil_add(obj, f->name,
				    json_object_new_string(proto_verdict_name(
					    *(const enum proto_verdict *)p)));
	}
	return -EINVAL;
}

int proto_event_encode(const struct proto_event *ev, char **ret_line,
		       size_t *ret_len)
{
	struct json_object *obj;
	int r;

	if ((unsigned int)ev->type >= PROTO_EV__COUNT)
		return -EINVAL;
	obj = json_object_new_object();
	if (!obj)
		return -ENOMEM;
	r = jsonutil_add(obj, "ev",
			 json_object_new_string(event_names[ev->type]));
	if (r == 0)
		r = jsonutil_add(obj, "t_us", json_object_new_uint64(ev->t_us));
	for (size_t i = 0; r == 0 && i < event_fields[ev->type].n; i++)
		r = encode_field(obj, ev, &event_fields[ev->type].fields[i]);
	if (r == 0)
		r = to_line(obj, ret_line, ret_len);
	json_object_put(obj);
	return r;
}

/*
 * json-c parses integers into int64 and anything above INT64_MAX into
 * uint64; doubles and strings are not integers here.
 */
static int get_uint(struct json_object *v, uint64_t max, uint64_t *ret)
{
	int64_t i;

	if (!json_object_is_type(v, json_type_int))
		return -EPROTO;
	i = json_object_get_int64(v);
	if (i < 0)
		return -ERANGE;
	if (i == INT64_MAX) {
		uint64_t u = json_object_get_uint64(v);

		if (u > max)
			return -ERANGE;
		*ret = u;
		return 0;
	}
	if ((uint64_t)i > max)
		return -ERANGE;
	*ret = (uint64_t)i;
	return 0;
}

/*
 * The first control character of the @len bytes at @s: a C0 control byte,
 * DEL, or a C1 control (U+0080..U+009F, in UTF-8 C2 80..C2 9F). Its offset
 * in *@ret_at and its code point in *@ret_cp; false when there is none.
 */
static bool find_control(const char *s, size_t len, size_t *ret_at,
			 unsigned int *ret_cp)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len; i++) {
		if (p[i] < 0x20 || p[i] == 0x7f) {
			*ret_cp = p[i];
		} else if (p[i] == 0xc2 && i + 1 < len && p[i + 1] >= 0x80 &&
			   p[i + 1] < 0xa0) {
			*ret_cp = p[i + 1];
		} else {
			continue;
		}
		*ret_at = i;
		return true;
	}
	return false;
}

static int decode_field(struct json_object *obj, struct proto_event *ev,
			const struct field *f, char *err, size_t errlen)
{
	char *p = (char *)ev + f->offset;
	struct json_object *v;
	uint64_t u;
	unsigned int cp;
	const char *s;
	size_t len, at;
	int r;

	if (!json_object_object_get_ex(obj, f->name, &v) || !v) {
		if (f->optional)
			return 0;
		return errmsg(err, errlen, -EPROTO, "%s: missing field '%s'",
			      event_names[ev->type], f->name);
	}

	switch (f->type) {
	case F_STR:
		if (!json_object_is_type(v, json_type_string))
			break;
		s = json_object_get_string(v);
		len = (size_t)json_object_get_string_len(v);
		if (len >= f->size)
			return errmsg(err, errlen, -E2BIG,
				      "%s: field '%s' is %zu bytes, limit %zu",
				      event_names[ev->type], f->name, len,
				      f->size - 1);
		if (memchr(s, '\0', len))
			return errmsg(err, errlen, -EPROTO,
				      "%s: field '%s' contains a NUL byte",
				      event_names[ev->type], f->name);
		/* Names and kinds reach terminals and KTAP lines: no
		 * control character, escaped (\u001b) or not. */
		if (f->no_ctl && find_control(s, len, &at, &cp))
			return errmsg(err, errlen, -EPROTO,
				      "%s: field '%s' holds control character "
				      "U+%04X at byte %zu",
				      event_names[ev->type], f->name, cp, at);
		memcpy(p, s, len);
		p[len] = '\0';
		return 0;
	case F_U64:
	case F_U32:
		r = get_uint(v, f->type == F_U32 ? UINT32_MAX : UINT64_MAX, &u);
		if (r == -ERANGE)
			return errmsg(err, errlen, -EPROTO,
				      "%s: field '%s' is out of range",
				      event_names[ev->type], f->name);
		if (r < 0)
			break;
		if (f->type == F_U32)
			*(uint32_t *)p = (uint32_t)u;
		else
			*(uint64_t *)p = u;
		return 0;
	case F_I64:
		if (!json_object_is_type(v, json_type_int))
			break;
		/* A value above INT64_MAX saturates: out of range too. */
		if (json_object_get_int64(v) < f->min ||
		    json_object_get_int64(v) == INT64_MAX)
			return errmsg(err, errlen, -EPROTO,
				      "%s: field '%s' is out of range",
				      event_names[ev->type], f->name);
		*(int64_t *)p = json_object_get_int64(v);
		return 0;
	case F_VERDICT:
		if (!json_object_is_type(v, json_type_string))
			break;
		if (proto_verdict_parse(json_object_get_string(v),
					(enum proto_verdict *)p) < 0 ||
		    *(enum proto_verdict *)p == VERDICT_XPASS)
			return errmsg(err, errlen, -EPROTO,
				      "%s: unknown verdict '%.64s'",
				      event_names[ev->type],
				      json_object_get_string(v));
		return 0;
	}
	return errmsg(err, errlen, -EPROTO, "%s: field '%s' has type %s",
		      event_names[ev->type], f->name,
		      json_type_to_name(json_object_get_type(v)));
}

static bool field_known(enum proto_event_type t, const char *key)
{
	if (strcmp(key, "ev") == 0 || strcmp(key, "t_us") == 0)
		return true;
	for (size_t i = 0; i < event_fields[t].n; i++)
		if (strcmp(key, event_fields[t].fields[i].name) == 0)
			return true;
	return false;
}

/* A subtest is one of a program's tests: it passed, failed or was skipped
 * (xfail: failed as its test expected), within the bound of a step. */
static int check_subtest(const struct proto_subtest *st, char *err,
			 size_t errlen)
{
	if (st->index >= PROTO_SUBTESTS_MAX)
		return errmsg(err, errlen, -EPROTO,
			      "subtest: index %u is not below %d", st->index,
			      PROTO_SUBTESTS_MAX);
	if (st->verdict != VERDICT_PASS && st->verdict != VERDICT_FAIL &&
	    st->verdict != VERDICT_SKIP && st->verdict != VERDICT_XFAIL)
		return errmsg(
			err, errlen, -EPROTO,
			"subtest: verdict '%s' is not pass, fail, skip or xfail",
			proto_verdict_name(st->verdict));
	if (!st->name[0])
		return errmsg(err, errlen, -EPROTO, "subtest: an empty name");
	return 0;
}

/* A bench step's numbers: bounded runs, min <= median <= max, and none
 * without runs. */
static int check_bench(const struct proto_bench *b, char *err, size_t errlen)
{
	if (b->runs > PROTO_BENCH_RUNS_MAX)
		return errmsg(err, errlen, -EPROTO,
			      "step_end: bench_runs %u is above %d", b->runs,
			      PROTO_BENCH_RUNS_MAX);
	if (!b->runs && (b->median || b->min || b->max || b->cv_ppm))
		return errmsg(err, errlen, -EPROTO,
			      "step_end: bench figures without bench_runs");
	if (b->min > b->median || b->median > b->max)
		return errmsg(
			err, errlen, -EPROTO,
			"step_end: bench_min <= bench_median <= bench_max does not hold");
	return 0;
}

/* A stack_tracer step's figures: bounded, and none without max_bytes. */
static int check_stack(const struct proto_stack *st, char *err, size_t errlen)
{
	if (st->max_bytes > PROTO_STACK_BYTES_MAX)
		return errmsg(err, errlen, -EPROTO,
			      "step_end: stack_max_bytes %u is above %d",
			      st->max_bytes, PROTO_STACK_BYTES_MAX);
	if (st->frames > PROTO_STACK_FRAMES_MAX)
		return errmsg(err, errlen, -EPROTO,
			      "step_end: stack_frames %u is above %d",
			      st->frames, PROTO_STACK_FRAMES_MAX);
	if (!st->max_bytes && (st->frames || st->functions[0]))
		return errmsg(
			err, errlen, -EPROTO,
			"step_end: stack figures without stack_max_bytes");
	return 0;
}

static int decode_object(struct json_object *obj, struct proto_event *ret,
			 char *err, size_t errlen)
{
	struct json_object *v;
	const char *name;
	unsigned int t;
	int r;

	if (!json_object_is_type(obj, json_type_object))
		return errmsg(err, errlen, -EBADMSG, "not a JSON object");
	if (!json_object_object_get_ex(obj, "ev", &v) ||
	    !json_object_is_type(v, json_type_string))
		return errmsg(err, errlen, -EPROTO, "no string field 'ev'");
	name = json_object_get_string(v);
	for (t = 0; t < PROTO_EV__COUNT; t++)
		if (strcmp(name, event_names[t]) == 0)
			break;
	if (t == PROTO_EV__COUNT)
		return errmsg(err, errlen, -EPROTO, "unknown event '%.64s'",
			      name);

	memset(ret, 0, sizeof(*ret));
	ret->type = t;
	if (!json_object_object_get_ex(obj, "t_us", &v))
		return errmsg(err, errlen, -EPROTO, "%s: missing field 't_us'",
			      name);
	r = get_uint(v, UINT64_MAX, &ret->t_us);
	if (r < 0)
		return errmsg(err, errlen, -EPROTO,
			      "%s: field 't_us' is not "
			      "an unsigned integer",
			      name);

	json_object_object_foreach(obj, key, val) {
		(void)val;
		if (!field_known(t, key))
			return errmsg(err, errlen, -EPROTO,
				      "%s: unknown field '%.64s'", name, key);
	}
	for (size_t i = 0; i < event_fields[t].n; i++) {
		r = decode_field(obj, ret, &event_fields[t].fields[i], err,
				 errlen);
		if (r < 0)
			return r;
	}
	if (t == PROTO_EV_KMSG && ret->u.kmsg.prio > 7)
		return errmsg(err, errlen, -EPROTO, "kmsg: prio %u is not 0..7",
			      ret->u.kmsg.prio);
	if (t == PROTO_EV_SCENARIO_BEGIN &&
	    ret->u.scenario_begin.ncleanup > PROTO_CLEANUP_MAX)
		return errmsg(err, errlen, -EPROTO,
			      "scenario_begin: ncleanup %u is above %d",
			      ret->u.scenario_begin.ncleanup,
			      PROTO_CLEANUP_MAX);
	if (t == PROTO_EV_AUDIT && ret->u.audit.nfiles > PROTO_AUDIT_FILES_MAX)
		return errmsg(err, errlen, -EPROTO,
			      "audit: nfiles %u is above %d",
			      ret->u.audit.nfiles, PROTO_AUDIT_FILES_MAX);
	if (t == PROTO_EV_SUBTEST)
		return check_subtest(&ret->u.subtest, err, errlen);
	if (t == PROTO_EV_OUTPUT && strcmp(ret->u.output.stream, "stdout") &&
	    strcmp(ret->u.output.stream, "stderr"))
		return errmsg(err, errlen, -EPROTO,
			      "output: stream '%s' is not stdout or stderr",
			      ret->u.output.stream);
	if (t == PROTO_EV_STEP_END) {
		r = check_bench(&ret->u.step_end.bench, err, errlen);
		if (r == 0)
			r = check_stack(&ret->u.step_end.stack, err, errlen);
		return r;
	}
	return 0;
}

/*
 * Parse one protocol line (without its '\n'): bounded, no control byte, one
 * JSON value and nothing after it. Returns 0 and a new reference in
 * *ret_obj, or a negative errno with the reason in @err.
 *
 * The encoder writes no whitespace and escapes every control byte of a
 * string, so a line with one was not written by it. Refusing them keeps
 * decoding and encoding in step: json-c takes a raw control byte inside a
 * string, which the encoder writes as \u00XX, six bytes for one, so a line
 * under the bound could decode to an event that encodes over it. Without
 * them, each character's encoding is no longer than its form in the line.
 *
 * json-c's strict mode, for the same reason: leniently it takes numbers
 * no encoder writes ("0100", "100e", "1.5e") and may write them back in
 * another form ("0100e" as "0100", which reads back as 100), so a request
 * would not read back as itself (fuzz-run's finding, docs/reliability.md).
 */
static int parse_line(const char *line, size_t len,
		      struct json_object **ret_obj, char *err, size_t errlen)
{
	struct json_tokener *tok;
	struct json_object *obj;
	enum json_tokener_error jerr;
	int r = 0;

	if (len >= PROTO_LINE_MAX)
		return errmsg(err, errlen, -E2BIG,
			      "line of %zu bytes, limit %d", len,
			      PROTO_LINE_MAX - 1);
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)line[i] < 0x20)
			return errmsg(err, errlen, -EBADMSG,
				      "control byte 0x%02x at byte %zu",
				      (unsigned char)line[i], i);

	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	obj = json_tokener_parse_ex(tok, line, (int)len);
	jerr = json_tokener_get_error(tok);
	if (jerr == json_tokener_continue)
		r = errmsg(err, errlen, -EBADMSG, "truncated JSON");
	else if (jerr != json_tokener_success)
		r = errmsg(err, errlen, -EBADMSG, "bad JSON at byte %zu: %s",
			   json_tokener_get_parse_end(tok),
			   json_tokener_error_desc(jerr));
	else if (json_tokener_get_parse_end(tok) != len)
		r = errmsg(err, errlen, -EBADMSG,
			   "trailing bytes after the JSON object");
	json_tokener_free(tok);
	if (r < 0) {
		json_object_put(obj);
		return r;
	}
	*ret_obj = obj;
	return 0;
}

int proto_event_decode(const char *line, size_t len, struct proto_event *ret,
		       char *err, size_t errlen)
{
	struct json_object *obj;
	int r;

	r = parse_line(line, len, &obj, err, errlen);
	if (r < 0)
		return r;
	r = decode_object(obj, ret, err, errlen);
	json_object_put(obj);
	return r;
}

static const char *const request_names[] = {
	[PROTO_REQ_RUN] = "run",
	[PROTO_REQ_SHUTDOWN] = "shutdown",
	[PROTO_REQ_ACK] = "ack",
	[PROTO_REQ_RESTORED] = "restored",
};

int proto_request_decode(const char *line, size_t len,
			 enum proto_request_type *ret_type,
			 struct json_object **ret_obj, char *err, size_t errlen)
{
	struct json_object *obj, *v;
	const char *name;
	int r;

	r = parse_line(line, len, &obj, err, errlen);
	if (r < 0)
		return r;
	if (!json_object_is_type(obj, json_type_object) ||
	    !json_object_object_get_ex(obj, "req", &v) ||
	    !json_object_is_type(v, json_type_string)) {
		json_object_put(obj);
		return errmsg(err, errlen, -EBADMSG,
			      "not a JSON object with a string 'req'");
	}
	name = json_object_get_string(v);
	for (size_t t = 0; t < ARRAY_SIZE(request_names); t++) {
		if (strcmp(name, request_names[t]) == 0) {
			*ret_type = t;
			*ret_obj = obj;
			return 0;
		}
	}
	r = errmsg(err, errlen, -EPROTO, "unknown request '%.64s'", name);
	json_object_put(obj);
	return r;
}

/*
 * One field of the run request: its JSON name, its type, where it lives
 * in struct proto_run, and its bounds. "req" comes before them all.
 */
enum run_type {
	R_NAME, /* const char *, min..max bytes */
	R_MS, /* uint64_t, min..max, def when absent */
	R_STEPS, /* a JSON array of min..max steps */
	R_PATHS, /* a JSON array of at most max absolute paths */
};

struct run_field {
	const char *name;
	enum run_type type;
	size_t offset;
	bool required;
	uint64_t min, max;
	uint64_t def; /* R_MS: the value when absent */
	const char *with; /* only together with this list */
};

/* clang-format off */
#define RUN_OFF(m) offsetof(struct proto_run, m)
#define RUN_NAME(n, m, max) { n, R_NAME, RUN_OFF(m), true, 1, (max) - 1, 0, NULL }
#define RUN_MS(n, m, def, with) { n, R_MS, RUN_OFF(m), false, 1, PROTO_TIMEOUT_MAX_MS, def, with }
#define RUN_STEPS(n, m, req, max) { n, R_STEPS, RUN_OFF(m), req, 1, max, 0, NULL }
#define RUN_PATHS(n, m, max) { n, R_PATHS, RUN_OFF(m), false, 0, max, 0, NULL }
/* clang-format on */

/* In the order they go out. */
static const struct run_field run_fields[] = {
	RUN_NAME("scenario", scenario, PROTO_NAME_MAX),
	RUN_MS("timeout_ms", timeout_ms, PROTO_TIMEOUT_DEFAULT_MS, NULL),
	RUN_MS("step_timeout_ms", step_timeout_ms,
	       PROTO_STEP_TIMEOUT_DEFAULT_MS, NULL),
	RUN_STEPS("steps", steps, true, PROTO_STEPS_MAX),
	RUN_PATHS("state_files", state_files, PROTO_AUDIT_FILES_MAX),
	RUN_STEPS("cleanup", cleanup, false, PROTO_CLEANUP_MAX),
	RUN_MS("cleanup_timeout_ms", cleanup_timeout_ms,
	       PROTO_CLEANUP_TIMEOUT_DEFAULT_MS, "cleanup"),
};

static const struct run_field *run_field_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(run_fields); i++)
		if (strcmp(run_fields[i].name, name) == 0)
			return &run_fields[i];
	return NULL;
}

/* The list a field points to; for a field of another type, NULL. */
static struct json_object *run_list(const struct proto_run *run,
				    const struct run_field *f)
{
	if (f->type != R_STEPS && f->type != R_PATHS)
		return NULL;
	return *(struct json_object *const *)((const char *)run + f->offset);
}

/* Whether @f goes with a list that @run lacks. */
static bool run_without(const struct proto_run *run, const struct run_field *f)
{
	return f->with && !run_list(run, run_field_find(f->with));
}

static int encode_run_field(struct json_object *obj,
			    const struct proto_run *run,
			    const struct run_field *f)
{
	const char *p = (const char *)run + f->offset;
	struct json_object *list;

	switch (f->type) {
	case R_NAME:
		if (!*(const char *const *)p)
			return -EINVAL;
		return jsonutil_add(
			obj, f->name,
			json_object_new_string(*(const char *const *)p));
	case R_MS:
		if (run_without(run, f))
			return 0;
		return jsonutil_add(
			obj, f->name,
			json_object_new_uint64(*(const uint64_t *)p));
	case R_STEPS:
	case R_PATHS:
		list = run_list(run, f);
		if (!list)
			return f->required ? -EINVAL : 0;
		if (!json_object_is_type(list, json_type_array))
			return -EINVAL;
		return jsonutil_add(obj, f->name, json_object_get(list));
	}
	return -EINVAL;
}

int proto_run_encode(const struct proto_run *run, char **ret_line,
		     size_t *ret_len)
{
	struct json_object *obj;
	int r;

	obj = json_object_new_object();
	if (!obj)
		return -ENOMEM;
	r = jsonutil_add(obj, "req",
			 json_object_new_string(request_names[PROTO_REQ_RUN]));
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(run_fields); i++)
		r = encode_run_field(obj, run, &run_fields[i]);
	if (r == 0)
		r = to_line(obj, ret_line, ret_len);
	json_object_put(obj);
	return r;
}

/*
 * An absolute path of 2..PROTO_PATH_MAX - 1 bytes: 0, -E2BIG for a longer
 * one, -EPROTO for anything else.
 */
static int run_path_check(struct json_object *v)
{
	if (!json_object_is_type(v, json_type_string) ||
	    json_object_get_string_len(v) < 2 ||
	    json_object_get_string(v)[0] != '/')
		return -EPROTO;
	return json_object_get_string_len(v) < PROTO_PATH_MAX ? 0 : -E2BIG;
}

static int decode_run_list(struct json_object *v, const struct run_field *f,
			   struct json_object **ret, char *err, size_t errlen)
{
	size_t n = json_object_is_type(v, json_type_array) ?
			   json_object_array_length(v) :
			   0;
	int r;

	if (f->type == R_PATHS) {
		if (!json_object_is_type(v, json_type_array) || n > f->max)
			return errmsg(
				err, errlen, n > f->max ? -E2BIG : -EPROTO,
				"'%s' must be an array of at most %" PRIu64
				" paths",
				f->name, f->max);
		for (size_t i = 0; i < n; i++) {
			r = run_path_check(json_object_array_get_idx(v, i));
			if (r < 0)
				return errmsg(
					err, errlen, r,
					"%s[%zu] must be an absolute path "
					"of under %d bytes",
					f->name, i, PROTO_PATH_MAX);
		}
	} else {
		if (!json_object_is_type(v, json_type_array))
			return errmsg(err, errlen, -EPROTO,
				      "'%s' must be an array", f->name);
		if (n < f->min || n > f->max)
			return errmsg(err, errlen,
				      n > f->max ? -E2BIG : -EPROTO,
				      "'%s' must hold %" PRIu64 "..%" PRIu64
				      " steps, not %zu",
				      f->name, f->min, f->max, n);
	}
	*ret = v;
	return 0;
}

static int decode_run_field(struct json_object *req, struct proto_run *run,
			    const struct run_field *f, char *err, size_t errlen)
{
	char *p = (char *)run + f->offset;
	struct json_object *v;
	bool present;
	uint64_t u;
	size_t len;

	present = json_object_object_get_ex(req, f->name, &v);
	if (!present && !f->required) {
		if (f->type == R_MS)
			*(uint64_t *)p = f->def;
		return 0;
	}
	switch (f->type) {
	case R_NAME:
		len = present && json_object_is_type(v, json_type_string) ?
			      (size_t)json_object_get_string_len(v) :
			      0;
		if (len < f->min || len > f->max ||
		    memchr(json_object_get_string(v), '\0', len))
			return errmsg(err, errlen,
				      len > f->max ? -E2BIG : -EPROTO,
				      "'%s' must be a string of %" PRIu64
				      "..%" PRIu64 " bytes",
				      f->name, f->min, f->max);
		*(const char **)p = json_object_get_string(v);
		return 0;
	case R_MS:
		if (get_uint(v, f->max, &u) < 0 || u < f->min)
			return errmsg(err, errlen, -EPROTO,
				      "'%s' must be an integer in %" PRIu64
				      "..%" PRIu64,
				      f->name, f->min, f->max);
		if (run_without(run, f))
			return errmsg(err, errlen, -EPROTO, "'%s' without '%s'",
				      f->name, f->with);
		*(uint64_t *)p = u;
		return 0;
	case R_STEPS:
	case R_PATHS:
		if (!present)
			return errmsg(err, errlen, -EPROTO,
				      "'%s' must be an array", f->name);
		return decode_run_list(v, f, (struct json_object **)p, err,
				       errlen);
	}
	return -EINVAL;
}

int proto_run_decode(struct json_object *req, struct proto_run *ret, char *err,
		     size_t errlen)
{
	struct json_object *v;
	int r;

	memset(ret, 0, sizeof(*ret));
	if (!json_object_is_type(req, json_type_object))
		return errmsg(err, errlen, -EBADMSG, "not a JSON object");
	if (!json_object_object_get_ex(req, "req", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    strcmp(json_object_get_string(v), request_names[PROTO_REQ_RUN]))
		return errmsg(err, errlen, -EPROTO, "'req' must be \"%s\"",
			      request_names[PROTO_REQ_RUN]);
	for (size_t i = 0; i < ARRAY_SIZE(run_fields); i++) {
		r = decode_run_field(req, ret, &run_fields[i], err, errlen);
		if (r < 0)
			return r;
	}
	json_object_object_foreach(req, key, val) {
		(void)val;
		if (strcmp(key, "req") && !run_field_find(key))
			return errmsg(err, errlen, -EPROTO,
				      "unknown key '%.64s'", key);
	}
	return 0;
}

int proto_shutdown_encode(char **ret_line, size_t *ret_len)
{
	struct json_object *obj;
	int r;

	obj = json_object_new_object();
	if (!obj)
		return -ENOMEM;
	r = jsonutil_add(
		obj, "req",
		json_object_new_string(request_names[PROTO_REQ_SHUTDOWN]));
	if (r == 0)
		r = to_line(obj, ret_line, ret_len);
	json_object_put(obj);
	return r;
}

int proto_linebuf_init(struct proto_linebuf *lb)
{
	lb->buf = malloc(PROTO_LINE_MAX);
	lb->len = 0;
	return lb->buf ? 0 : -ENOMEM;
}

void proto_linebuf_free(struct proto_linebuf *lb)
{
	free(lb->buf);
	lb->buf = NULL;
	lb->len = 0;
}

int proto_linebuf_feed(struct proto_linebuf *lb, const char *data, size_t len,
		       proto_line_cb cb, void *userdata)
{
	while (len > 0) {
		const char *nl = memchr(data, '\n', len);
		size_t chunk = nl ? (size_t)(nl - data) : len;
		int r;

		/* Room for the chunk and a NUL: at most PROTO_LINE_MAX - 1. */
		if (lb->len + chunk > PROTO_LINE_MAX - 1) {
			size_t keep = PROTO_LINE_MAX - 1 - lb->len;

			memcpy(lb->buf + lb->len, data, keep);
			lb->len += keep;
			lb->buf[lb->len] = '\0';
			return -E2BIG;
		}
		memcpy(lb->buf + lb->len, data, chunk);
		lb->len += chunk;
		if (!nl)
			return 0;
		lb->buf[lb->len] = '\0';
		r = cb(lb->buf, lb->len, userdata);
		lb->len = 0;
		if (r < 0)
			return r;
		data += chunk + 1;
		len -= chunk + 1;
	}
	return 0;
}

uint64_t proto_fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

/* Linux errno values are below 200; glibc names every one it knows. */
#define ERRNO_MAX 200

int proto_errno_parse(const char *name, int *ret)
{
	for (int e = 1; e < ERRNO_MAX; e++) {
		const char *n = strerrorname_np(e);

		if (n && strcmp(n, name) == 0) {
			*ret = e;
			return 0;
		}
	}
	return -EINVAL;
}

const char *proto_errno_name(int err)
{
	const char *n = strerrorname_np(err);

	return n ? n : "E?";
}
