// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary.json, written and read back. Its shape is fixed by issue 3.
 * Each of its objects (the run, a scenario, a step, a boot, an incident)
 * is one table of fields, which drives both the writer and the reader, as
 * common/proto.c's tables do for the protocol: the two cannot disagree on
 * a name, a type, an order or when a field is there.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errmsg.h"
#include "fileio.h"
#include "jsonutil.h"
#include "results/results.h"
#include "results/rundir.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define JSON_FLAGS_PRETTY                                    \
	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
	 JSON_C_TO_STRING_NOSLASHESCAPE)

/* How a field's member is written, and checked when read. */
enum ftype {
	F_STR, /* char[]: read back within its size */
	F_TEXT, /* char *: NULL is written "", and "" read back as NULL */
	F_TEXT_NULL, /* char *: NULL is written null, and read back from it */
	F_U32, /* uint32_t */
	F_U64, /* uint64_t */
	F_INDEX, /* int64_t: a step's index, -1 for none */
	F_BOOL, /* bool */
	F_TRI, /* int: 1 or 0 as a boolean, -1 not written */
	F_COMPLETE, /* enum res_complete: a boolean, unknown not written */
	F_VERDICT, /* enum proto_verdict, by its name */
	F_TS, /* double: kernel seconds, written to the microsecond */
	F_JSON, /* struct json_object *, any JSON; NULL is null */
	F_LIST, /* an array of @elem records: a pointer, @count elements */
	F_STRS, /* char **: an array of @count strings */
};

/*
 * When a field is written. The reader takes a field that is not there as
 * the value that is not written: "", false, -1, no list.
 */
enum fwhen {
	ALWAYS, /* always; the reader requires it */
	IF_SET, /* when not empty ("", false, -1, no elements) */
	IF_EXISTS, /* F_LIST: when the pointer is set, even to no elements */
	IF_FLAG, /* when the bool member @cond (read before it) is true;
		  * the reader reads it then only, and requires it then */
	SETS_FLAG, /* when the bool member @cond is true; being there sets it */
	IF_FILLED, /* when the char[] member @cond is not "" */
	IF_UP_LIST, /* when the enclosing record's list member @cond is set */
	IF_SOME, /* F_LIST: when its element record's @only lets one through */
};

struct record;

struct field {
	const char *name;
	enum ftype type;
	size_t off; /* the member */
	size_t size; /* the member's size: F_STR's bound */
	enum fwhen when;
	size_t cond; /* the member @when tests */
	size_t count; /* F_LIST, F_STRS: the size_t member that counts it */
	const struct record *elem; /* F_LIST: its elements */
	/*
	 * F_LIST: the reader adds the elements to those already read into
	 * the member (by an earlier field over the same list).
	 */
	bool append;
};

/* One JSON object: its fields, in the order they are written. */
struct record {
	const struct field *fields;
	size_t n;
	size_t size;
	/*
	 * A bool member (or NO_MEMBER): as a list's element, only records
	 * with it set are written, and the reader sets it on each it reads.
	 */
	size_t only;
	/* Only records with @only false instead; the reader leaves it so. */
	bool only_unset;
	/* What the reader derives once a record is read, or NULL. */
	void (*read_done)(void *rec);
};

#define NO_MEMBER SIZE_MAX

/* One row per line: clang-format would spread each over several. */
/* clang-format off */
#define FIELD(t, n, ty, m, ...) \
	{ .name = n, .type = ty, .off = offsetof(t, m), .size = sizeof(((t *)0)->m), __VA_ARGS__ }
#define RUN(n, ty, m, ...) FIELD(struct res_run, n, ty, m, __VA_ARGS__)
#define SCN(n, ty, m, ...) FIELD(struct res_scenario, n, ty, m, __VA_ARGS__)
#define STEP(n, ty, m, ...) FIELD(struct res_step, n, ty, m, __VA_ARGS__)
#define BOOT(n, ty, m, ...) FIELD(struct res_boot, n, ty, m, __VA_ARGS__)
#define INC(n, ty, m, ...) FIELD(struct res_incident, n, ty, m, __VA_ARGS__)
#define SCN_AT(m) offsetof(struct res_scenario, m)
#define RECORD(t, f, only_, done_) \
	{ .fields = f, .n = ARRAY_SIZE(f), .size = sizeof(t), .only = only_, .read_done = done_ }

#define SUB(n, ty, m, ...) FIELD(struct res_subtest, n, ty, m, __VA_ARGS__)
#define STEP_AT(m) offsetof(struct res_step, m)

static const struct field subtest_fields[] = {
	SUB("name", F_STR, name),
	SUB("verdict", F_VERDICT, verdict),
	SUB("reason", F_TEXT, reason, .when = IF_SET),
};

static const struct record subtest_record =
	RECORD(struct res_subtest, subtest_fields, NO_MEMBER, NULL);

static const struct field step_fields[] = {
	STEP("index", F_U32, index),
	STEP("kind", F_STR, kind),
	STEP("name", F_STR, name),
	STEP("verdict", F_VERDICT, verdict),
	STEP("duration_us", F_U64, duration_us),
	STEP("expected", F_TEXT, expected),
	STEP("got", F_TEXT, got),
	STEP("reason", F_TEXT, reason),
	/* In a scenario with boots, the boot it ran in. */
	STEP("boot", F_U32, boot, .when = IF_UP_LIST, .cond = SCN_AT(boots)),
	STEP("cleanup", F_BOOL, cleanup, .when = IF_SET),
	/* A bench step's figures (struct proto_bench). */
	STEP("bench_runs", F_U32, bench.runs, .when = IF_SET),
	STEP("bench_median", F_U64, bench.median, .when = IF_SET),
	STEP("bench_min", F_U64, bench.min, .when = IF_SET),
	STEP("bench_max", F_U64, bench.max, .when = IF_SET),
	STEP("bench_cv_ppm", F_U64, bench.cv_ppm, .when = IF_SET),
	/* A stack_tracer step's figures (struct proto_stack). */
	STEP("stack_max_bytes", F_U32, stack.max_bytes, .when = IF_SET),
	STEP("stack_frames", F_U32, stack.frames, .when = IF_SET),
	STEP("stack_functions", F_STR, stack.functions, .when = IF_SET),
	/* The tests of the program a kselftest step ran. */
	STEP("subtests", F_LIST, subtests, .when = IF_SET, .count = STEP_AT(nsubtests), .elem = &subtest_record),
};

/* Steps that never began are left out. */
static const struct record step_record = RECORD(struct res_step, step_fields,
	offsetof(struct res_step, ran), NULL);

/*
 * The steps that never began (after a failure, a crash, a timeout, a stop
 * or a repro cut), as the scenario file has them: the reader puts them
 * back among the steps, not ran, as the run held them.
 */
static const struct field unbegun_fields[] = {
	STEP("index", F_U32, index),
	STEP("kind", F_STR, kind),
	STEP("name", F_STR, name),
	STEP("boot", F_U32, boot, .when = IF_UP_LIST, .cond = SCN_AT(boots)),
	STEP("cleanup", F_BOOL, cleanup, .when = IF_SET),
};

static const struct record unbegun_record = {
	.fields = unbegun_fields, .n = ARRAY_SIZE(unbegun_fields),
	.size = sizeof(struct res_step), .only = offsetof(struct res_step, ran),
	.only_unset = true,
};

static const struct field boot_fields[] = {
	BOOT("index", F_U32, index),
	BOOT("vm", F_STR, vm),
	BOOT("memory_mib", F_U64, memory_mib),
	BOOT("machine", F_STR, machine),
	BOOT("expected_end", F_STR, expected_end),
	BOOT("ended", F_STR, ended),
	/* Only for a boot after a power-off. */
	BOOT("resumed", F_TRI, resumed, .when = IF_SET),
};

static const struct record boot_record =
	RECORD(struct res_boot, boot_fields, NO_MEMBER, NULL);

static const struct field incident_fields[] = {
	INC("kind", F_STR, kind),
	INC("title", F_STR, title),
	INC("guilty", F_STR, guilty),
	INC("corrupted", F_BOOL, corrupted),
	INC("fatal", F_BOOL, fatal),
	INC("ts", F_TS, ts),
	INC("step", F_INDEX, step),
	INC("after_step", F_BOOL, after_step),
	INC("summary", F_STR, summary),
	INC("bundle", F_TEXT, bundle),
};

static const struct record incident_record =
	RECORD(struct res_incident, incident_fields, NO_MEMBER, NULL);

static const struct field scenario_fields[] = {
	SCN("name", F_STR, name),
	SCN("verdict", F_VERDICT, verdict),
	SCN("duration_ms", F_U64, duration_ms),
	SCN("wall_ms", F_U64, wall_ms, .when = IF_SET),
	SCN("reason", F_TEXT, reason),
	SCN("steps", F_LIST, steps, .count = SCN_AT(nsteps), .elem = &step_record),
	/* Only a scenario with steps that never began. */
	SCN("steps_not_run", F_LIST, steps, .when = IF_SOME, .count = SCN_AT(nsteps), .elem = &unbegun_record, .append = true),
	/* Only a scenario with a cleanup list says how it went. */
	SCN("cleanup_failed", F_BOOL, cleanup_failed, .when = SETS_FLAG, .cond = SCN_AT(has_cleanup)),
	SCN("cleanup_step", F_INDEX, cleanup_step, .when = IF_FLAG, .cond = SCN_AT(cleanup_failed)),
	SCN("cleanup_reason", F_TEXT, cleanup_reason, .when = IF_FLAG, .cond = SCN_AT(cleanup_failed)),
	SCN("incidents", F_LIST, incidents, .when = IF_SET, .count = SCN_AT(nincidents), .elem = &incident_record),
	SCN("leaks", F_STRS, leaks, .when = IF_SET, .count = SCN_AT(nleaks)),
	/* A scenario with boots has "boots", even before its first boot. */
	SCN("boots", F_LIST, boots, .when = IF_EXISTS, .count = SCN_AT(nboots), .elem = &boot_record),
	/* Only runs name VMs: older summaries and fixtures have neither. */
	SCN("vm", F_STR, vm, .when = IF_SET),
	SCN("fresh_vm", F_TEXT_NULL, fresh_vm, .when = IF_FILLED, .cond = SCN_AT(vm)),
	/* Only a scenario run on another flavour than the run's kernel. */
	SCN("flavour", F_STR, flavour, .when = IF_SET),
	/* Only a scenario that ran on a host: older summaries have none. */
	SCN("host", F_STR, host, .when = IF_SET),
	/* Only when guest output was lost. */
	SCN("events_cut_bytes", F_U64, events_cut_bytes, .when = IF_SET),
	SCN("kmsg_dropped", F_U64, kmsg_dropped, .when = IF_SET),
	SCN("console_cut_bytes", F_U64, console_cut_bytes, .when = IF_SET),
};
/* clang-format on */

static int step_cmp(const void *a, const void *b)
{
	const struct res_step *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/*
 * A read scenario is done, its steps (those that began and those that did
 * not) are in the order of their indices, and its cleanup steps are the
 * ones marked so (they come last).
 */
static void scenario_read_done(void *rec)
{
	struct res_scenario *sc = rec;

	sc->done = true;
	if (sc->nsteps > 1)
		qsort(sc->steps, sc->nsteps, sizeof(*sc->steps), step_cmp);
	for (size_t i = 0; i < sc->nsteps; i++)
		sc->ncleanup += sc->steps[i].cleanup;
}

static const struct record scenario_record = RECORD(
	struct res_scenario, scenario_fields, NO_MEMBER, scenario_read_done);

static const struct field run_fields[] = {
	RUN("run_id", F_STR, run_id),
	/* Older summaries have none: read as unknown, and not written. */
	RUN("complete", F_COMPLETE, complete, .when = IF_SET),
	RUN("accelerator", F_STR, accelerator),
	RUN("clock", F_STR, clock, .when = IF_SET),
	/* Only a hostctl repro's run (res_run). */
	RUN("repro_until_step", F_U32, repro_until_step, .when = IF_SET),
	RUN("repro_steps", F_U32, repro_steps, .when = IF_SET),
	RUN("exec", F_STR, exec, .when = IF_SET),
	/* Only once a run ended: older summaries have none. */
	RUN("duration_ms", F_U64, duration_ms, .when = IF_SET),
	RUN("kernel", F_JSON, kernel),
	RUN("scenarios", F_LIST, v, .count = offsetof(struct res_run, n),
	    .elem = &scenario_record),
};

static const struct record run_record =
	RECORD(struct res_run, run_fields, NO_MEMBER, NULL);

#define MEMBER(rec, off, type) (*(type *)((char *)(rec) + (off)))
#define CMEMBER(rec, off, type) (*(type const *)((const char *)(rec) + (off)))

/* ---- writing ---- */

/* Whether @e, an element of a list of @rt records, is written. */
static bool elem_written(const struct record *rt, const void *e)
{
	return rt->only == NO_MEMBER ||
	       CMEMBER(e, rt->only, bool) != rt->only_unset;
}

/* Whether the list @f of @rec has an element that is written. */
static bool some_written(const struct field *f, const void *rec)
{
	const char *v = CMEMBER(rec, f->off, const char *);

	for (size_t i = 0; i < CMEMBER(rec, f->count, size_t); i++)
		if (elem_written(f->elem, v + i * f->elem->size))
			return true;
	return false;
}

static bool is_set(const struct field *f, const void *rec)
{
	switch (f->type) {
	case F_STR:
		return *((const char *)rec + f->off) != '\0';
	case F_TEXT:
		return CMEMBER(rec, f->off, const char *) != NULL;
	case F_BOOL:
		return CMEMBER(rec, f->off, bool);
	case F_TRI:
		return CMEMBER(rec, f->off, int) >= 0;
	case F_U32:
		return CMEMBER(rec, f->off, uint32_t) != 0;
	case F_U64:
		return CMEMBER(rec, f->off, uint64_t) != 0;
	case F_COMPLETE:
		return CMEMBER(rec, f->off, enum res_complete) !=
		       RES_COMPLETE_UNKNOWN;
	case F_LIST:
	case F_STRS:
		return CMEMBER(rec, f->count, size_t) > 0;
	default:
		return true;
	}
}

/* @up: the record whose list holds @rec, or NULL. */
static bool written(const struct field *f, const void *rec, const void *up)
{
	switch (f->when) {
	case ALWAYS:
		return true;
	case IF_SET:
		return is_set(f, rec);
	case IF_EXISTS:
		return CMEMBER(rec, f->off, void *) != NULL;
	case IF_FLAG:
	case SETS_FLAG:
		return CMEMBER(rec, f->cond, bool);
	case IF_FILLED:
		return *((const char *)rec + f->cond) != '\0';
	case IF_UP_LIST:
		return up && CMEMBER(up, f->cond, void *) != NULL;
	case IF_SOME:
		return some_written(f, rec);
	}
	return false;
}

static int add_null(struct json_object *o, const char *key)
{
	return json_object_object_add(o, key, NULL) < 0 ? -ENOMEM : 0;
}

static struct json_object *record_object(const struct record *rt,
					 const void *rec, const void *up);

static struct json_object *list_array(const struct field *f, const void *rec)
{
	struct json_object *a = json_object_new_array();
	size_t n = CMEMBER(rec, f->count, size_t);
	const struct record *rt = f->elem;
	int r = a ? 0 : -ENOMEM;

	for (size_t i = 0; i < n && r == 0; i++) {
		const char *e;
		struct json_object *o;

		if (f->type == F_STRS) {
			o = json_object_new_string(
				CMEMBER(rec, f->off, char **)[i]);
		} else {
			e = CMEMBER(rec, f->off, char *) + i * rt->size;
			if (!elem_written(rt, e))
				continue;
			o = record_object(rt, e, rec);
		}
		if (!o || json_object_array_add(a, o) < 0) {
			json_object_put(o);
			r = -ENOMEM;
		}
	}
	if (r < 0) {
		json_object_put(a);
		return NULL;
	}
	return a;
}

static int write_field(struct json_object *o, const struct field *f,
		       const void *rec)
{
	const char *p = (const char *)rec + f->off, *s;
	struct json_object *v;
	char ts[32];

	switch (f->type) {
	case F_STR:
		v = json_object_new_string(p);
		break;
	case F_TEXT:
		s = *(char *const *)p;
		v = json_object_new_string(s ? s : "");
		break;
	case F_TEXT_NULL:
		s = *(char *const *)p;
		if (!s)
			return add_null(o, f->name);
		v = json_object_new_string(s);
		break;
	case F_U32:
		v = json_object_new_int64(*(const uint32_t *)p);
		break;
	case F_U64:
		v = json_object_new_uint64(*(const uint64_t *)p);
		break;
	case F_INDEX:
		v = json_object_new_int64(*(const int64_t *)p);
		break;
	case F_BOOL:
		v = json_object_new_boolean(*(const bool *)p);
		break;
	case F_TRI:
		v = json_object_new_boolean(*(const int *)p);
		break;
	case F_COMPLETE:
		v = json_object_new_boolean(*(const enum res_complete *)p ==
					    RES_COMPLETE_YES);
		break;
	case F_VERDICT:
		v = json_object_new_string(
			proto_verdict_name(*(const enum proto_verdict *)p));
		break;
	case F_TS:
		/* Microseconds, as the kernel prints them, not %.17g noise. */
		snprintf(ts, sizeof(ts), "%.6f", *(const double *)p);
		v = json_object_new_double_s(*(const double *)p, ts);
		break;
	case F_JSON:
		if (!*(struct json_object *const *)p)
			return add_null(o, f->name);
		v = json_object_get(*(struct json_object *const *)p);
		break;
	case F_LIST:
	case F_STRS:
		v = list_array(f, rec);
		break;
	default:
		return -EINVAL;
	}
	return jsonutil_add(o, f->name, v);
}

static struct json_object *record_object(const struct record *rt,
					 const void *rec, const void *up)
{
	struct json_object *o = json_object_new_object();
	int r = o ? 0 : -ENOMEM;

	for (size_t i = 0; i < rt->n && r == 0; i++)
		if (written(&rt->fields[i], rec, up))
			r = write_field(o, &rt->fields[i], rec);
	if (r < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct json_object *res_summary_object(const struct res_run *run)
{
	return record_object(&run_record, run, NULL);
}

int res_summary_json(const struct res_run *run, char **ret)
{
	struct json_object *o = res_summary_object(run);
	const char *s;
	char *out;

	if (!o)
		return -ENOMEM;
	s = json_object_to_json_string_ext(o, JSON_FLAGS_PRETTY);
	if (!s || asprintf(&out, "%s\n", s) < 0) {
		json_object_put(o);
		return -ENOMEM;
	}
	json_object_put(o);
	*ret = out;
	return 0;
}

int res_summary_write(const char *dir, struct res_run *run,
		      enum res_complete complete)
{
	char path[PATH_MAX];
	char *text;
	int r;

	if (snprintf(path, sizeof(path), "%s/" RUNDIR_SUMMARY, dir) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	run->complete = complete;
	r = res_summary_json(run, &text);
	if (r < 0)
		return r;
	r = fileio_write_atomic(path, text, strlen(text));
	free(text);
	return r;
}

/* ---- reading ---- */

/* The JSON type a field's value must have, for the reader's message. */
static const char *type_name(enum ftype t)
{
	switch (t) {
	case F_STR:
	case F_TEXT:
	case F_TEXT_NULL:
	case F_VERDICT:
		return "string";
	case F_U32:
	case F_U64:
	case F_INDEX:
		return "int";
	case F_BOOL:
	case F_TRI:
	case F_COMPLETE:
		return "boolean";
	case F_TS:
		return "number";
	case F_LIST:
	case F_STRS:
		return "array";
	case F_JSON:
		break;
	}
	return "value";
}

static bool type_ok(enum ftype t, struct json_object *v)
{
	switch (t) {
	case F_STR:
	case F_TEXT:
	case F_VERDICT:
		return json_object_is_type(v, json_type_string);
	case F_TEXT_NULL:
		return !v || json_object_is_type(v, json_type_string);
	case F_U32:
	case F_U64:
	case F_INDEX:
		return json_object_is_type(v, json_type_int);
	case F_BOOL:
	case F_TRI:
	case F_COMPLETE:
		return json_object_is_type(v, json_type_boolean);
	case F_TS:
		return json_object_is_type(v, json_type_double) ||
		       json_object_is_type(v, json_type_int);
	case F_LIST:
	case F_STRS:
		return json_object_is_type(v, json_type_array);
	case F_JSON:
		return true;
	}
	return false;
}

static int read_record(struct json_object *o, const struct record *rt,
		       void *rec, const char *where, char *err, size_t errlen);

/* Allocate the list @f of @rec for @a's elements, and read them. */
static int read_list(struct json_object *a, const struct field *f, void *rec,
		     const char *where, char *err, size_t errlen)
{
	size_t n = json_object_array_length(a);
	size_t size = f->type == F_STRS ? sizeof(char *) : f->elem->size;
	size_t had = f->append ? MEMBER(rec, f->count, size_t) : 0;
	char sub[160], *v;
	int r = 0;

	/* One zeroed element more: an empty list is not NULL. */
	v = realloc(f->append ? MEMBER(rec, f->off, char *) : NULL,
		    (had + n + 1) * size);
	if (!v)
		return -ENOMEM;
	memset(v + had * size, 0, (n + 1) * size);
	MEMBER(rec, f->off, char *) = v;
	MEMBER(rec, f->count, size_t) = had + n;
	v += had * size;
	for (size_t i = 0; i < n && r == 0; i++) {
		struct json_object *e = json_object_array_get_idx(a, i);

		snprintf(sub, sizeof(sub), "%s.%s[%zu]", where, f->name, i);
		if (f->type == F_LIST) {
			r = read_record(e, f->elem, v + i * size, sub, err,
					errlen);
			continue;
		}
		if (!json_object_is_type(e, json_type_string))
			return errmsg(err, errlen, -EINVAL, "%s: not a string",
				      sub);
		((char **)v)[i] = strdup(json_object_get_string(e));
		if (!((char **)v)[i])
			return -ENOMEM;
	}
	return r;
}

/* @v: the value of @f, of the right type. */
static int read_field(struct json_object *v, const struct field *f, void *rec,
		      const char *where, char *err, size_t errlen)
{
	char *p = (char *)rec + f->off;
	size_t len;
	int64_t i;

	switch (f->type) {
	case F_STR:
		len = (size_t)json_object_get_string_len(v);
		if (len >= f->size)
			return errmsg(err, errlen, -EINVAL, "%s.%s: too long",
				      where, f->name);
		memcpy(p, json_object_get_string(v), len + 1);
		return 0;
	case F_TEXT:
	case F_TEXT_NULL:
		return v ? res_set_str((char **)p, json_object_get_string(v)) :
			   0;
	case F_U32:
	case F_U64:
		if (json_object_get_int64(v) < 0)
			return errmsg(err, errlen, -EINVAL, "%s.%s: negative",
				      where, f->name);
		if (f->type == F_U64) {
			*(uint64_t *)p = json_object_get_uint64(v);
			return 0;
		}
		i = json_object_get_int64(v);
		if (i > UINT32_MAX)
			return errmsg(err, errlen, -EINVAL,
				      "%s.%s: out of range", where, f->name);
		*(uint32_t *)p = (uint32_t)i;
		return 0;
	case F_INDEX:
		*(int64_t *)p = json_object_get_int64(v);
		return 0;
	case F_BOOL:
		*(bool *)p = json_object_get_boolean(v);
		return 0;
	case F_TRI:
		*(int *)p = json_object_get_boolean(v);
		return 0;
	case F_COMPLETE:
		*(enum res_complete *)p = json_object_get_boolean(v) ?
						  RES_COMPLETE_YES :
						  RES_COMPLETE_NO;
		return 0;
	case F_VERDICT:
		if (proto_verdict_parse(json_object_get_string(v),
					(enum proto_verdict *)p) < 0)
			return errmsg(err, errlen, -EINVAL,
				      "%s.%s: unknown verdict '%s'", where,
				      f->name, json_object_get_string(v));
		return 0;
	case F_TS:
		*(double *)p = json_object_get_double(v);
		return 0;
	case F_JSON:
		*(struct json_object **)p = json_object_get(v);
		return 0;
	case F_LIST:
	case F_STRS:
		return read_list(v, f, rec, where, err, errlen);
	}
	return -EINVAL;
}

/* The value a field that is not there stands for. */
static void read_absent(const struct field *f, void *rec)
{
	if (f->type == F_TRI)
		MEMBER(rec, f->off, int) = -1;
	else if (f->type == F_INDEX)
		MEMBER(rec, f->off, int64_t) = -1;
}

/*
 * Whether the reader reads @f, which is @there or not: a field written
 * always must be there, an IF_FLAG one must be when its flag is set and
 * is not read otherwise, and the others are read when they are there.
 */
static bool wanted(const struct field *f, const void *rec, bool there)
{
	if (f->when == ALWAYS)
		return true;
	if (f->when == IF_FLAG)
		return CMEMBER(rec, f->cond, bool);
	return there;
}

static int read_record(struct json_object *o, const struct record *rt,
		       void *rec, const char *where, char *err, size_t errlen)
{
	int r;

	if (!json_object_is_type(o, json_type_object))
		return errmsg(err, errlen, -EINVAL, "%s: not an object", where);
	for (size_t i = 0; i < rt->n; i++) {
		const struct field *f = &rt->fields[i];
		struct json_object *v = NULL;
		bool there = json_object_object_get_ex(o, f->name, &v);

		if (!wanted(f, rec, there)) {
			read_absent(f, rec);
			continue;
		}
		if (f->when == SETS_FLAG)
			MEMBER(rec, f->cond, bool) = true;
		if (!there && f->type == F_JSON)
			return errmsg(err, errlen, -EINVAL, "%s.%s: missing",
				      where, f->name);
		if (!there || !type_ok(f->type, v))
			return errmsg(err, errlen, -EINVAL,
				      "%s.%s: missing or not a %s", where,
				      f->name, type_name(f->type));
		r = read_field(v, f, rec, where, err, errlen);
		if (r < 0)
			return r;
	}
	if (rt->only != NO_MEMBER)
		MEMBER(rec, rt->only, bool) = !rt->only_unset;
	if (rt->read_done)
		rt->read_done(rec);
	return 0;
}

int res_run_from_json(const char *text, struct res_run *ret, char *err,
		      size_t errlen)
{
	struct res_run run = { 0 };
	struct json_object *root;
	int r;

	root = json_tokener_parse(text);
	if (!root || !json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		return errmsg(err, errlen, -EINVAL, "$: not a JSON object");
	}
	r = read_record(root, &run_record, &run, "$", err, errlen);
	json_object_put(root);
	if (r < 0) {
		res_run_free(&run);
		return r;
	}
	*ret = run;
	return 0;
}
