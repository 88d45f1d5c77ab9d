// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary.json, written and read back. Its shape is fixed by issue 3.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonutil.h"
#include "results.h"

#define JSON_FLAGS_PRETTY                                    \
	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
	 JSON_C_TO_STRING_NOSLASHESCAPE)

static struct json_object *str_or_empty(const char *s)
{
	return json_object_new_string(s ? s : "");
}

static struct json_object *boot_object(const struct res_boot *b)
{
	struct json_object *o = json_object_new_object();
	int r;

	if (!o)
		return NULL;
	r = jsonutil_add(o, "index", json_object_new_int64(b->index));
	if (r == 0)
		r = jsonutil_add(o, "vm", json_object_new_string(b->vm));
	if (r == 0)
		r = jsonutil_add(o, "memory_mib", json_object_new_uint64(b->memory_mib));
	if (r == 0)
		r = jsonutil_add(o, "machine", json_object_new_string(b->machine));
	if (r == 0)
		r = jsonutil_add(o, "expected_end",
			json_object_new_string(b->expected_end));
	if (r == 0)
		r = jsonutil_add(o, "ended", json_object_new_string(b->ended));
	if (r == 0 && b->resumed >= 0)
		r = jsonutil_add(o, "resumed", json_object_new_boolean(b->resumed));
	if (r < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static struct json_object *step_object(const struct res_step *st,
				       bool boots)
{
	struct json_object *o = json_object_new_object();
	int r = 0;

	if (!o)
		return NULL;
	r = jsonutil_add(o, "index", json_object_new_int64(st->index));
	if (r == 0)
		r = jsonutil_add(o, "kind", json_object_new_string(st->kind));
	if (r == 0)
		r = jsonutil_add(o, "name", json_object_new_string(st->name));
	if (r == 0)
		r = jsonutil_add(o, "verdict",
			json_object_new_string(
				proto_verdict_name(st->verdict)));
	if (r == 0)
		r = jsonutil_add(o, "duration_us",
			json_object_new_uint64(st->duration_us));
	if (r == 0)
		r = jsonutil_add(o, "expected", str_or_empty(st->expected));
	if (r == 0)
		r = jsonutil_add(o, "got", str_or_empty(st->got));
	if (r == 0)
		r = jsonutil_add(o, "reason", str_or_empty(st->reason));
	if (r == 0 && boots)
		r = jsonutil_add(o, "boot", json_object_new_int64(st->boot));
	if (r == 0 && st->cleanup)
		r = jsonutil_add(o, "cleanup", json_object_new_boolean(true));
	if (r < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static struct json_object *incident_object(const struct res_incident *inc)
{
	struct json_object *o = json_object_new_object();
	int r = 0;

	if (!o)
		return NULL;
	r = jsonutil_add(o, "kind", json_object_new_string(inc->kind));
	if (r == 0)
		r = jsonutil_add(o, "title", json_object_new_string(inc->title));
	if (r == 0)
		r = jsonutil_add(o, "guilty", json_object_new_string(inc->guilty));
	if (r == 0)
		r = jsonutil_add(o, "corrupted", json_object_new_boolean(inc->corrupted));
	if (r == 0)
		r = jsonutil_add(o, "fatal", json_object_new_boolean(inc->fatal));
	if (r == 0) {
		char ts[32];

		/* Microseconds, as the kernel prints them, not %.17g noise. */
		snprintf(ts, sizeof(ts), "%.6f", inc->ts);
		r = jsonutil_add(o, "ts", json_object_new_double_s(inc->ts, ts));
	}
	if (r == 0)
		r = jsonutil_add(o, "step", json_object_new_int64(inc->step));
	if (r == 0)
		r = jsonutil_add(o, "after_step", json_object_new_boolean(inc->after_step));
	if (r == 0)
		r = jsonutil_add(o, "summary", json_object_new_string(inc->summary));
	if (r == 0)
		r = jsonutil_add(o, "bundle", str_or_empty(inc->bundle));
	if (r < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/*
 * @key: an array of @n elements, make(@sc, i) each. The callers add
 * "incidents", "leaks" and "boots" only to a scenario that has them, so
 * summaries without them keep their shape.
 */
static int add_list(struct json_object *o, const char *key, size_t n,
		    struct json_object *(*make)(const struct res_scenario *,
						size_t),
		    const struct res_scenario *sc)
{
	struct json_object *list = json_object_new_array();

	if (!list)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = make(sc, i);

		if (!e || json_object_array_add(list, e) < 0) {
			json_object_put(e);
			json_object_put(list);
			return -ENOMEM;
		}
	}
	return jsonutil_add(o, key, list);
}

static struct json_object *incident_elem(const struct res_scenario *sc,
					 size_t i)
{
	return incident_object(&sc->incidents[i]);
}

static struct json_object *leak_elem(const struct res_scenario *sc, size_t i)
{
	return json_object_new_string(sc->leaks[i]);
}

static struct json_object *boot_elem(const struct res_scenario *sc, size_t i)
{
	return boot_object(&sc->boots[i]);
}

static struct json_object *scenario_object(const struct res_scenario *sc)
{
	struct json_object *o = json_object_new_object();
	struct json_object *steps = json_object_new_array();
	int r = 0;

	if (!o || !steps) {
		json_object_put(o);
		json_object_put(steps);
		return NULL;
	}
	for (size_t i = 0; i < sc->nsteps && r == 0; i++) {
		struct json_object *st;

		if (!sc->steps[i].ran)
			continue;
		st = step_object(&sc->steps[i], sc->boots != NULL);
		if (!st || json_object_array_add(steps, st) < 0) {
			json_object_put(st);
			r = -ENOMEM;
		}
	}
	if (r == 0)
		r = jsonutil_add(o, "name", json_object_new_string(sc->name));
	if (r == 0)
		r = jsonutil_add(o, "verdict",
			json_object_new_string(
				proto_verdict_name(sc->verdict)));
	if (r == 0)
		r = jsonutil_add(o, "duration_ms",
			json_object_new_uint64(sc->duration_ms));
	if (r == 0)
		r = jsonutil_add(o, "reason", str_or_empty(sc->reason));
	if (r == 0)
		r = jsonutil_add(o, "steps", steps);
	else
		json_object_put(steps);
	/* Only a scenario with a cleanup list says how it went. */
	if (r == 0 && sc->has_cleanup)
		r = jsonutil_add(o, "cleanup_failed",
			json_object_new_boolean(sc->cleanup_failed));
	if (r == 0 && sc->cleanup_failed)
		r = jsonutil_add(o, "cleanup_step",
			json_object_new_int64(sc->cleanup_step));
	if (r == 0 && sc->cleanup_failed)
		r = jsonutil_add(o, "cleanup_reason",
				 str_or_empty(sc->cleanup_reason));
	if (r == 0 && sc->nincidents)
		r = add_list(o, "incidents", sc->nincidents, incident_elem, sc);
	if (r == 0 && sc->nleaks)
		r = add_list(o, "leaks", sc->nleaks, leak_elem, sc);
	/* A scenario with boots has "boots", even before its first boot. */
	if (r == 0 && sc->boots)
		r = add_list(o, "boots", sc->nboots, boot_elem, sc);
	/* Only runs name VMs: older summaries and fixtures have neither. */
	if (r == 0 && sc->vm[0])
		r = jsonutil_add(o, "vm", json_object_new_string(sc->vm));
	if (r == 0 && sc->vm[0] && sc->fresh_vm)
		r = jsonutil_add(o, "fresh_vm", json_object_new_string(sc->fresh_vm));
	else if (r == 0 && sc->vm[0] &&
		 json_object_object_add(o, "fresh_vm", NULL) < 0)
		r = -ENOMEM;
	if (r < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct json_object *res_summary_object(const struct res_run *run)
{
	struct json_object *o = json_object_new_object();
	struct json_object *list = json_object_new_array();
	int r = 0;

	if (!o || !list) {
		json_object_put(o);
		json_object_put(list);
		return NULL;
	}
	for (size_t i = 0; i < run->n && r == 0; i++) {
		struct json_object *sc = scenario_object(&run->v[i]);

		if (!sc || json_object_array_add(list, sc) < 0) {
			json_object_put(sc);
			r = -ENOMEM;
		}
	}
	if (r == 0)
		r = jsonutil_add(o, "run_id", json_object_new_string(run->run_id));
	if (r == 0)
		r = jsonutil_add(o, "accelerator",
			json_object_new_string(run->accelerator));
	if (r == 0) {
		if (run->kernel)
			r = jsonutil_add(o, "kernel", json_object_get(run->kernel));
		else
			r = json_object_object_add(o, "kernel", NULL) < 0 ?
				    -ENOMEM :
				    0;
	}
	if (r == 0)
		r = jsonutil_add(o, "scenarios", list);
	else
		json_object_put(list);
	if (r < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
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

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Fetch @key of type @type from @o; absent or mistyped is an error. */
static int get(struct json_object *o, const char *key, enum json_type type,
	       struct json_object **ret, const char *where, char *err,
	       size_t errlen)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, type))
		return fail(err, errlen, "%s.%s: missing or not a %s", where,
			    key, json_type_to_name(type));
	*ret = v;
	return 0;
}

static int get_str(struct json_object *o, const char *key, char *buf,
		   size_t len, const char *where, char *err, size_t errlen)
{
	struct json_object *v;
	int r = get(o, key, json_type_string, &v, where, err, errlen);

	if (r < 0)
		return r;
	if ((size_t)json_object_get_string_len(v) >= len)
		return fail(err, errlen, "%s.%s: too long", where, key);
	memcpy(buf, json_object_get_string(v),
	       json_object_get_string_len(v) + 1);
	return 0;
}

static int get_dup(struct json_object *o, const char *key, char **ret,
		   const char *where, char *err, size_t errlen)
{
	struct json_object *v;
	int r = get(o, key, json_type_string, &v, where, err, errlen);

	if (r < 0)
		return r;
	return res_set_str(ret, json_object_get_string(v));
}

static int get_u64(struct json_object *o, const char *key, uint64_t *ret,
		   const char *where, char *err, size_t errlen)
{
	struct json_object *v;
	int r = get(o, key, json_type_int, &v, where, err, errlen);

	if (r < 0)
		return r;
	if (json_object_get_int64(v) < 0)
		return fail(err, errlen, "%s.%s: negative", where, key);
	*ret = json_object_get_uint64(v);
	return 0;
}

static int get_verdict(struct json_object *o, enum proto_verdict *ret,
		       const char *where, char *err, size_t errlen)
{
	struct json_object *v;
	int r = get(o, "verdict", json_type_string, &v, where, err, errlen);

	if (r < 0)
		return r;
	if (proto_verdict_parse(json_object_get_string(v), ret) < 0)
		return fail(err, errlen, "%s.verdict: unknown verdict '%s'",
			    where, json_object_get_string(v));
	return 0;
}

static int get_bool(struct json_object *o, const char *key, bool *ret,
		    const char *where, char *err, size_t errlen)
{
	struct json_object *v;
	int r = get(o, key, json_type_boolean, &v, where, err, errlen);

	if (r == 0)
		*ret = json_object_get_boolean(v);
	return r;
}

static int parse_step(struct json_object *o, struct res_step *st,
		      const char *where, char *err, size_t errlen)
{
	uint64_t index;
	int r;

	if (!json_object_is_type(o, json_type_object))
		return fail(err, errlen, "%s: not an object", where);
	r = get_u64(o, "index", &index, where, err, errlen);
	if (r == 0 && index > UINT32_MAX)
		r = fail(err, errlen, "%s.index: out of range", where);
	st->index = (uint32_t)index;
	st->ran = true;
	if (r == 0)
		r = get_str(o, "kind", st->kind, sizeof(st->kind), where, err,
			    errlen);
	if (r == 0)
		r = get_str(o, "name", st->name, sizeof(st->name), where, err,
			    errlen);
	if (r == 0)
		r = get_verdict(o, &st->verdict, where, err, errlen);
	if (r == 0)
		r = get_u64(o, "duration_us", &st->duration_us, where, err,
			    errlen);
	if (r == 0)
		r = get_dup(o, "expected", &st->expected, where, err, errlen);
	if (r == 0)
		r = get_dup(o, "got", &st->got, where, err, errlen);
	if (r == 0)
		r = get_dup(o, "reason", &st->reason, where, err, errlen);
	if (r == 0 && json_object_object_get_ex(o, "boot", NULL)) {
		uint64_t boot;

		r = get_u64(o, "boot", &boot, where, err, errlen);
		if (r == 0 && boot > UINT32_MAX)
			r = fail(err, errlen, "%s.boot: out of range", where);
		st->boot = (uint32_t)boot;
	}
	if (r == 0 && json_object_object_get_ex(o, "cleanup", NULL))
		r = get_bool(o, "cleanup", &st->cleanup, where, err, errlen);
	return r;
}

static int parse_boot(struct json_object *o, struct res_boot *b,
		      const char *where, char *err, size_t errlen)
{
	struct json_object *v;
	uint64_t index = 0;
	int r;

	if (!json_object_is_type(o, json_type_object))
		return fail(err, errlen, "%s: not an object", where);
	r = get_u64(o, "index", &index, where, err, errlen);
	if (r == 0 && index > UINT32_MAX)
		r = fail(err, errlen, "%s.index: out of range", where);
	b->index = (uint32_t)index;
	if (r == 0)
		r = get_str(o, "vm", b->vm, sizeof(b->vm), where, err, errlen);
	if (r == 0)
		r = get_u64(o, "memory_mib", &b->memory_mib, where, err,
			    errlen);
	if (r == 0)
		r = get_str(o, "machine", b->machine, sizeof(b->machine), where,
			    err, errlen);
	if (r == 0)
		r = get_str(o, "expected_end", b->expected_end,
			    sizeof(b->expected_end), where, err, errlen);
	if (r == 0)
		r = get_str(o, "ended", b->ended, sizeof(b->ended), where, err,
			    errlen);
	b->resumed = -1;
	if (r == 0 && json_object_object_get_ex(o, "resumed", NULL)) {
		r = get(o, "resumed", json_type_boolean, &v, where, err,
			errlen);
		if (r == 0)
			b->resumed = json_object_get_boolean(v);
	}
	return r;
}

static int parse_boots(struct json_object *o, struct res_scenario *sc,
		       const char *where, char *err, size_t errlen)
{
	struct json_object *a;
	char sub[96];
	int r;

	if (!json_object_object_get_ex(o, "boots", NULL))
		return 0;
	r = get(o, "boots", json_type_array, &a, where, err, errlen);
	if (r < 0)
		return r;
	sc->nboots = json_object_array_length(a);
	sc->boots = calloc(sc->nboots ? sc->nboots : 1, sizeof(*sc->boots));
	if (!sc->boots) {
		sc->nboots = 0;
		return -ENOMEM;
	}
	for (size_t i = 0; i < sc->nboots && r == 0; i++) {
		snprintf(sub, sizeof(sub), "%s.boots[%zu]", where, i);
		r = parse_boot(json_object_array_get_idx(a, i), &sc->boots[i],
			       sub, err, errlen);
	}
	return r;
}

static int parse_incident(struct json_object *o, struct res_incident *inc,
			  const char *where, char *err, size_t errlen)
{
	struct json_object *v;
	int r;

	if (!json_object_is_type(o, json_type_object))
		return fail(err, errlen, "%s: not an object", where);
	r = get_str(o, "kind", inc->kind, sizeof(inc->kind), where, err,
		    errlen);
	if (r == 0)
		r = get_str(o, "title", inc->title, sizeof(inc->title), where,
			    err, errlen);
	if (r == 0)
		r = get_str(o, "guilty", inc->guilty, sizeof(inc->guilty),
			    where, err, errlen);
	if (r == 0)
		r = get_bool(o, "corrupted", &inc->corrupted, where, err,
			     errlen);
	if (r == 0)
		r = get_bool(o, "fatal", &inc->fatal, where, err, errlen);
	if (r == 0 && (!json_object_object_get_ex(o, "ts", &v) ||
		       (!json_object_is_type(v, json_type_double) &&
			!json_object_is_type(v, json_type_int))))
		r = fail(err, errlen, "%s.ts: missing or not a number", where);
	if (r == 0)
		inc->ts = json_object_get_double(v);
	if (r == 0)
		r = get(o, "step", json_type_int, &v, where, err, errlen);
	if (r == 0)
		inc->step = json_object_get_int64(v);
	if (r == 0)
		r = get_bool(o, "after_step", &inc->after_step, where, err,
			     errlen);
	if (r == 0)
		r = get_str(o, "summary", inc->summary, sizeof(inc->summary),
			    where, err, errlen);
	if (r == 0)
		r = get_dup(o, "bundle", &inc->bundle, where, err, errlen);
	return r;
}

static int parse_incidents(struct json_object *o, struct res_scenario *sc,
			   const char *where, char *err, size_t errlen)
{
	struct json_object *list;
	char sub[128];
	size_t n;
	int r = 0;

	if (!json_object_object_get_ex(o, "incidents", &list))
		return 0;
	if (!json_object_is_type(list, json_type_array))
		return fail(err, errlen, "%s.incidents: not an array", where);
	n = json_object_array_length(list);
	for (size_t i = 0; i < n && r == 0; i++) {
		struct res_incident inc = { 0 };

		snprintf(sub, sizeof(sub), "%s.incidents[%zu]", where, i);
		r = parse_incident(json_object_array_get_idx(list, i), &inc,
				   sub, err, errlen);
		if (r == 0)
			r = res_incident_add(sc, &inc);
		free(inc.bundle);
	}
	return r;
}

/* summary.json's "leaks", back (see res_leaks_free()). */
static int parse_leaks(struct json_object *o, struct res_scenario *sc,
		       const char *where, char *err, size_t errlen)
{
	struct json_object *list, *e;
	size_t n;

	if (!json_object_object_get_ex(o, "leaks", &list))
		return 0;
	if (!json_object_is_type(list, json_type_array))
		return fail(err, errlen, "%s.leaks: not an array", where);
	n = json_object_array_length(list);
	sc->leaks = calloc(n ? n : 1, sizeof(*sc->leaks));
	if (!sc->leaks)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		e = json_object_array_get_idx(list, i);
		if (!json_object_is_type(e, json_type_string))
			return fail(err, errlen, "%s.leaks[%zu]: not a string",
				    where, i);
		sc->leaks[i] = strdup(json_object_get_string(e));
		if (!sc->leaks[i])
			return -ENOMEM;
		sc->nleaks = i + 1;
	}
	return 0;
}

/* summary.json's cleanup_failed, cleanup_step and cleanup_reason, back. */
static int parse_cleanup(struct json_object *o, struct res_scenario *sc,
			 const char *where, char *err, size_t errlen)
{
	struct json_object *v;
	int r;

	sc->cleanup_step = -1;
	if (!json_object_object_get_ex(o, "cleanup_failed", NULL))
		return 0;
	sc->has_cleanup = true;
	r = get_bool(o, "cleanup_failed", &sc->cleanup_failed, where, err,
		     errlen);
	if (r < 0 || !sc->cleanup_failed)
		return r;
	r = get(o, "cleanup_step", json_type_int, &v, where, err, errlen);
	if (r < 0)
		return r;
	sc->cleanup_step = json_object_get_int64(v);
	return get_dup(o, "cleanup_reason", &sc->cleanup_reason, where, err,
		       errlen);
}

static int parse_scenario(struct json_object *o, struct res_scenario *sc,
			  const char *where, char *err, size_t errlen)
{
	struct json_object *steps;
	char sub[96];
	int r;

	if (!json_object_is_type(o, json_type_object))
		return fail(err, errlen, "%s: not an object", where);
	r = get_str(o, "name", sc->name, sizeof(sc->name), where, err, errlen);
	if (r == 0)
		r = get_verdict(o, &sc->verdict, where, err, errlen);
	if (r == 0)
		r = get_u64(o, "duration_ms", &sc->duration_ms, where, err,
			    errlen);
	if (r == 0)
		r = get_dup(o, "reason", &sc->reason, where, err, errlen);
	if (r == 0)
		r = get(o, "steps", json_type_array, &steps, where, err,
			errlen);
	if (r == 0)
		r = parse_boots(o, sc, where, err, errlen);
	if (r < 0)
		return r;
	sc->done = true;
	sc->nsteps = json_object_array_length(steps);
	sc->steps = calloc(sc->nsteps ? sc->nsteps : 1, sizeof(*sc->steps));
	if (!sc->steps) {
		sc->nsteps = 0;
		return -ENOMEM;
	}
	for (size_t i = 0; i < sc->nsteps && r == 0; i++) {
		snprintf(sub, sizeof(sub), "%s.steps[%zu]", where, i);
		r = parse_step(json_object_array_get_idx(steps, i),
			       &sc->steps[i], sub, err, errlen);
	}
	for (size_t i = 0; i < sc->nsteps; i++)
		sc->ncleanup += sc->steps[i].cleanup;
	if (r == 0)
		r = parse_cleanup(o, sc, where, err, errlen);
	if (r == 0)
		r = parse_incidents(o, sc, where, err, errlen);
	if (r == 0)
		r = parse_leaks(o, sc, where, err, errlen);
	if (r == 0 && json_object_object_get_ex(o, "vm", NULL))
		r = get_str(o, "vm", sc->vm, sizeof(sc->vm), where, err,
			    errlen);
	if (r == 0 && json_object_object_get_ex(o, "fresh_vm", &steps) &&
	    !json_object_is_type(steps, json_type_null))
		r = get_dup(o, "fresh_vm", &sc->fresh_vm, where, err, errlen);
	return r;
}

int res_run_from_json(const char *text, struct res_run *ret, char *err,
		      size_t errlen)
{
	struct res_run run = { 0 };
	struct json_object *root, *v, *list;
	char where[64];
	int r;

	root = json_tokener_parse(text);
	if (!root || !json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		return fail(err, errlen, "$: not a JSON object");
	}
	r = get_str(root, "run_id", run.run_id, sizeof(run.run_id), "$", err,
		    errlen);
	if (r == 0)
		r = get_str(root, "accelerator", run.accelerator,
			    sizeof(run.accelerator), "$", err, errlen);
	if (r == 0) {
		if (!json_object_object_get_ex(root, "kernel", &v))
			r = fail(err, errlen, "$.kernel: missing");
		else
			run.kernel = json_object_get(v);
	}
	if (r == 0)
		r = get(root, "scenarios", json_type_array, &list, "$", err,
			errlen);
	if (r == 0) {
		run.n = json_object_array_length(list);
		run.v = calloc(run.n ? run.n : 1, sizeof(*run.v));
		if (!run.v) {
			run.n = 0;
			r = -ENOMEM;
		}
	}
	for (size_t i = 0; i < run.n && r == 0; i++) {
		snprintf(where, sizeof(where), "$.scenarios[%zu]", i);
		r = parse_scenario(json_object_array_get_idx(list, i),
				   &run.v[i], where, err, errlen);
	}
	json_object_put(root);
	if (r < 0) {
		res_run_free(&run);
		return r;
	}
	*ret = run;
	return 0;
}
