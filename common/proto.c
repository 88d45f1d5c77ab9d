// SPDX-License-Identifier: GPL-2.0-only
/*
 * Encoding and checked decoding of the guestd <-> hostctl protocol.
 * Events are described by one table of fields per event type, so the
 * encoder and the decoder cannot disagree on a name or a type.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

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
};

/* One row per line: clang-format would spread each over four. */
/* clang-format off */
#define EV_OFF(member) offsetof(struct proto_event, u.member)
#define STR(n, m, opt) { n, F_STR, EV_OFF(m), sizeof(((struct proto_event *)0)->u.m), 0, opt }
#define U64(n, m) { n, F_U64, EV_OFF(m), 0, 0, false }
#define U32(n, m) { n, F_U32, EV_OFF(m), 0, 0, false }
#define U32_OPT(n, m) { n, F_U32, EV_OFF(m), 0, 0, true }
#define I64(n, m, lo) { n, F_I64, EV_OFF(m), 0, lo, false }
#define VERDICT(n, m) { n, F_VERDICT, EV_OFF(m), 0, 0, false }
/* clang-format on */

static const struct field hello_fields[] = {
	I64("version", hello.version, 0),
	STR("release", hello.release, false),
	STR("proc_version", hello.proc_version, false),
	STR("cmdline", hello.cmdline, false),
	STR("config_digest", hello.config_digest, false),
	U64("boot_ms", hello.boot_ms),
};

static const struct field scenario_begin_fields[] = {
	STR("scenario", scenario_begin.scenario, false),
	U32("nsteps", scenario_begin.nsteps),
	U32_OPT("ncleanup", scenario_begin.ncleanup),
};

static const struct field step_begin_fields[] = {
	STR("scenario", step_begin.scenario, false),
	U32("step", step_begin.step),
	STR("kind", step_begin.kind, false),
	STR("name", step_begin.name, true),
};

static const struct field step_end_fields[] = {
	STR("scenario", step_end.scenario, false),
	U32("step", step_end.step),
	VERDICT("verdict", step_end.verdict),
	U64("duration_us", step_end.duration_us),
	STR("expected", step_end.expected, true),
	STR("got", step_end.got, true),
	STR("reason", step_end.reason, true),
};

static const struct field scenario_end_fields[] = {
	STR("scenario", scenario_end.scenario, false),
	VERDICT("verdict", scenario_end.verdict),
	U64("duration_us", scenario_end.duration_us),
	STR("reason", scenario_end.reason, true),
};

static const struct field kmsg_fields[] = {
	STR("scenario", kmsg.scenario, true),
	I64("step", kmsg.step, -1),
	U64("seq", kmsg.seq),
	U64("ts_us", kmsg.ts_us),
	U32("prio", kmsg.prio),
	STR("msg", kmsg.msg, false),
};

static const struct field audit_fields[] = {
	STR("scenario", audit.scenario, false),
	STR("phase", audit.phase, false),
	U64("tainted", audit.tainted),
	U64("warns", audit.warns),
	U64("bugs", audit.bugs),
	U32("nfiles", audit.nfiles),
};

static const struct field audit_file_fields[] = {
	STR("scenario", audit_file.scenario, false),
	STR("phase", audit_file.phase, false),
	STR("path", audit_file.path, false),
	STR("err", audit_file.err, true),
	U64("size", audit_file.size),
	STR("hash", audit_file.hash, false),
	STR("head", audit_file.head, true),
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
};

static int to_line(struct json_object *obj, char **ret_line, size_t *ret_len)
{
	const char *s;
	size_t len;
	char *line;

	s = json_object_to_json_string_length(obj, JSON_FLAGS, &len);
	if (!s)
		return -ENOMEM;
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

static int fail(char *err, size_t errlen, int r, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int r, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
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

static int decode_field(struct json_object *obj, struct proto_event *ev,
			const struct field *f, char *err, size_t errlen)
{
	char *p = (char *)ev + f->offset;
	struct json_object *v;
	uint64_t u;
	const char *s;
	size_t len;
	int r;

	if (!json_object_object_get_ex(obj, f->name, &v) || !v) {
		if (f->optional)
			return 0;
		return fail(err, errlen, -EPROTO, "%s: missing field '%s'",
			    event_names[ev->type], f->name);
	}

	switch (f->type) {
	case F_STR:
		if (!json_object_is_type(v, json_type_string))
			break;
		s = json_object_get_string(v);
		len = (size_t)json_object_get_string_len(v);
		if (len >= f->size)
			return fail(err, errlen, -E2BIG,
				    "%s: field '%s' is %zu bytes, limit %zu",
				    event_names[ev->type], f->name, len,
				    f->size - 1);
		if (memchr(s, '\0', len))
			return fail(err, errlen, -EPROTO,
				    "%s: field '%s' contains a NUL byte",
				    event_names[ev->type], f->name);
		memcpy(p, s, len);
		p[len] = '\0';
		return 0;
	case F_U64:
	case F_U32:
		r = get_uint(v, f->type == F_U32 ? UINT32_MAX : UINT64_MAX, &u);
		if (r == -ERANGE)
			return fail(err, errlen, -EPROTO,
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
			return fail(err, errlen, -EPROTO,
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
			return fail(err, errlen, -EPROTO,
				    "%s: unknown verdict '%.64s'",
				    event_names[ev->type],
				    json_object_get_string(v));
		return 0;
	}
	return fail(err, errlen, -EPROTO, "%s: field '%s' has type %s",
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

static int decode_object(struct json_object *obj, struct proto_event *ret,
			 char *err, size_t errlen)
{
	struct json_object *v;
	const char *name;
	unsigned int t;
	int r;

	if (!json_object_is_type(obj, json_type_object))
		return fail(err, errlen, -EBADMSG, "not a JSON object");
	if (!json_object_object_get_ex(obj, "ev", &v) ||
	    !json_object_is_type(v, json_type_string))
		return fail(err, errlen, -EPROTO, "no string field 'ev'");
	name = json_object_get_string(v);
	for (t = 0; t < PROTO_EV__COUNT; t++)
		if (strcmp(name, event_names[t]) == 0)
			break;
	if (t == PROTO_EV__COUNT)
		return fail(err, errlen, -EPROTO, "unknown event '%.64s'",
			    name);

	memset(ret, 0, sizeof(*ret));
	ret->type = t;
	if (!json_object_object_get_ex(obj, "t_us", &v))
		return fail(err, errlen, -EPROTO, "%s: missing field 't_us'",
			    name);
	r = get_uint(v, UINT64_MAX, &ret->t_us);
	if (r < 0)
		return fail(err, errlen, -EPROTO,
			    "%s: field 't_us' is not "
			    "an unsigned integer",
			    name);

	json_object_object_foreach(obj, key, val) {
		(void)val;
		if (!field_known(t, key))
			return fail(err, errlen, -EPROTO,
				    "%s: unknown field '%.64s'", name, key);
	}
	for (size_t i = 0; i < event_fields[t].n; i++) {
		r = decode_field(obj, ret, &event_fields[t].fields[i], err,
				 errlen);
		if (r < 0)
			return r;
	}
	if (t == PROTO_EV_KMSG && ret->u.kmsg.prio > 7)
		return fail(err, errlen, -EPROTO, "kmsg: prio %u is not 0..7",
			    ret->u.kmsg.prio);
	if (t == PROTO_EV_SCENARIO_BEGIN &&
	    ret->u.scenario_begin.ncleanup > PROTO_CLEANUP_MAX)
		return fail(err, errlen, -EPROTO,
			    "scenario_begin: ncleanup %u is above %d",
			    ret->u.scenario_begin.ncleanup, PROTO_CLEANUP_MAX);
	if (t == PROTO_EV_AUDIT && ret->u.audit.nfiles > PROTO_AUDIT_FILES_MAX)
		return fail(err, errlen, -EPROTO,
			    "audit: nfiles %u is above %d", ret->u.audit.nfiles,
			    PROTO_AUDIT_FILES_MAX);
	return 0;
}

int proto_event_decode(const char *line, size_t len, struct proto_event *ret,
		       char *err, size_t errlen)
{
	struct json_tokener *tok;
	struct json_object *obj;
	enum json_tokener_error jerr;
	int r;

	if (len >= PROTO_LINE_MAX)
		return fail(err, errlen, -E2BIG, "line of %zu bytes, limit %d",
			    len, PROTO_LINE_MAX - 1);
	if (memchr(line, '\0', len))
		return fail(err, errlen, -EBADMSG, "line contains a NUL byte");

	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	obj = json_tokener_parse_ex(tok, line, (int)len);
	jerr = json_tokener_get_error(tok);
	if (jerr == json_tokener_continue) {
		r = fail(err, errlen, -EBADMSG, "truncated JSON");
		goto out;
	}
	if (jerr != json_tokener_success) {
		r = fail(err, errlen, -EBADMSG, "bad JSON at byte %zu: %s",
			 json_tokener_get_parse_end(tok),
			 json_tokener_error_desc(jerr));
		goto out;
	}
	if (json_tokener_get_parse_end(tok) != len) {
		r = fail(err, errlen, -EBADMSG,
			 "trailing bytes after the JSON object");
		goto out;
	}
	r = decode_object(obj, ret, err, errlen);
out:
	json_object_put(obj);
	json_tokener_free(tok);
	return r;
}

int proto_run_encode(const char *scenario, uint64_t timeout_ms,
		     uint64_t step_timeout_ms, const char *steps_json,
		     char **ret_line, size_t *ret_len)
{
	return proto_run_encode_audit(scenario, timeout_ms, step_timeout_ms,
				      steps_json, NULL, ret_line, ret_len);
}

/* Parse @json as an array: a new reference, or NULL. */
static struct json_object *parse_array(const char *json)
{
	struct json_object *a = json_tokener_parse(json);

	if (a && !json_object_is_type(a, json_type_array)) {
		json_object_put(a);
		return NULL;
	}
	return a;
}

int proto_run_encode_audit(const char *scenario, uint64_t timeout_ms,
			   uint64_t step_timeout_ms, const char *steps_json,
			   const char *state_files_json, char **ret_line,
			   size_t *ret_len)
{
	const struct proto_run run = {
		.scenario = scenario,
		.timeout_ms = timeout_ms,
		.step_timeout_ms = step_timeout_ms,
		.steps_json = steps_json,
		.state_files_json = state_files_json,
	};

	return proto_run_encode_req(&run, ret_line, ret_len);
}

/* Add the JSON array @json under @key; NULL @json adds nothing. */
static int add_array(struct json_object *obj, const char *key, const char *json)
{
	struct json_object *a;

	if (!json)
		return 0;
	a = parse_array(json);
	if (!a)
		return -EINVAL;
	return jsonutil_add(obj, key, a);
}

int proto_run_encode_req(const struct proto_run *run, char **ret_line,
			 size_t *ret_len)
{
	struct json_object *obj;
	int r;

	obj = json_object_new_object();
	if (!obj)
		return -ENOMEM;
	r = jsonutil_add(obj, "req", json_object_new_string("run"));
	if (r == 0)
		r = jsonutil_add(obj, "scenario",
				 json_object_new_string(run->scenario));
	if (r == 0)
		r = jsonutil_add(obj, "timeout_ms",
				 json_object_new_uint64(run->timeout_ms));
	if (r == 0)
		r = jsonutil_add(obj, "step_timeout_ms",
				 json_object_new_uint64(run->step_timeout_ms));
	if (r == 0)
		r = run->steps_json ? add_array(obj, "steps", run->steps_json) :
				      -EINVAL;
	if (r == 0)
		r = add_array(obj, "state_files", run->state_files_json);
	if (r == 0)
		r = add_array(obj, "cleanup", run->cleanup_json);
	if (r == 0 && run->cleanup_json)
		r = jsonutil_add(
			obj, "cleanup_timeout_ms",
			json_object_new_uint64(run->cleanup_timeout_ms));
	if (r == 0)
		r = to_line(obj, ret_line, ret_len);
	if (r == 0 && *ret_len > PROTO_LINE_MAX) {
		free(*ret_line);
		r = -E2BIG;
	}
	json_object_put(obj);
	return r;
}

int proto_shutdown_encode(char **ret_line, size_t *ret_len)
{
	struct json_object *obj;
	int r;

	obj = json_object_new_object();
	if (!obj)
		return -ENOMEM;
	r = jsonutil_add(obj, "req", json_object_new_string("shutdown"));
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
