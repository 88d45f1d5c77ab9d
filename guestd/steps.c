// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every step kind shares: finding a kind in a table (steps-table.c
 * holds guestd's), checking a step's keys and values against its spec
 * (common/stepspec.c, the same checks as the host's) before anything runs,
 * typed getters, and the result text.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "guestd.h"

const struct step_ops *step_find(const struct step_ops *const *table,
				 const char *kind)
{
	for (size_t i = 0; table[i]; i++)
		if (strcmp(table[i]->name, kind) == 0)
			return table[i];
	return NULL;
}

/* The first problem stepspec_value_check() finds with key @key. */
struct first_problem {
	const char *key;
	char *err;
	size_t errlen;
	bool found;
};

static void first_problem(void *data, long index, const char *msg)
{
	struct first_problem *fp = data;

	if (fp->found)
		return;
	fp->found = true;
	if (index < 0)
		snprintf(fp->err, fp->errlen, "key '%s': %s", fp->key, msg);
	else
		snprintf(fp->err, fp->errlen, "key '%s'[%ld]: %s", fp->key,
			 index, msg);
}

/*
 * Every key of @keys that @step must have, and each value it has against
 * its type: the checks the host ran before it sent the request
 * (common/stepspec-value.c), run again, trusting nothing.
 */
static int check_keys(const struct stepspec_key *keys, struct json_object *step,
		      const char *kind, char *err, size_t errlen)
{
	struct json_object *v;

	for (size_t i = 0; keys && keys[i].key; i++) {
		struct first_problem fp = { keys[i].key, err, errlen, false };

		if (!json_object_object_get_ex(step, keys[i].key, &v)) {
			if (!keys[i].required)
				continue;
			snprintf(err, errlen, "step kind '%s' needs key '%s'",
				 kind, keys[i].key);
			return -EINVAL;
		}
		if (stepspec_value_check(&keys[i], v, first_problem, &fp) < 0)
			return -EINVAL;
	}
	return 0;
}

/*
 * A kind of @table without a spec (a test's own) takes the common keys
 * only; every kind of step_table has one (guestd/tests/test-steps.c).
 */
static int check_step(const struct step_ops *const *table,
		      struct json_object *step, bool cleanup, char *err,
		      size_t errlen)
{
	const struct stepspec_key *keys = NULL;
	const struct stepspec *spec;
	struct json_object *v;
	const char *kind;
	int r;

	if (!json_object_is_type(step, json_type_object)) {
		snprintf(err, errlen, "a step must be an object");
		return -EINVAL;
	}
	if (!json_object_object_get_ex(step, "kind", &v) ||
	    !json_object_is_type(v, json_type_string)) {
		snprintf(err, errlen, "a step needs a string 'kind'");
		return -EINVAL;
	}
	kind = json_object_get_string(v);
	if (!step_find(table, kind)) {
		snprintf(err, errlen, "unknown step kind '%.64s'", kind);
		return -EINVAL;
	}
	spec = stepspec_find(kind);
	if (spec)
		keys = spec->keys;
	r = check_keys(stepspec_common_keys, step, kind, err, errlen);
	if (r == 0)
		r = check_keys(keys, step, kind, err, errlen);
	if (r == 0 && cleanup)
		r = check_keys(stepspec_cleanup_keys, step, kind, err, errlen);
	if (r < 0)
		return r;
	json_object_object_foreach(step, key, val) {
		(void)val;
		if (!stepspec_key_find(stepspec_common_keys, key) &&
		    !stepspec_key_find(keys, key) &&
		    !(cleanup &&
		      stepspec_key_find(stepspec_cleanup_keys, key))) {
			snprintf(err, errlen,
				 "step kind '%s' has no key '%.64s'", kind,
				 key);
			return -EINVAL;
		}
	}
	return 0;
}

int step_check(const struct step_ops *const *table, struct json_object *step,
	       char *err, size_t errlen)
{
	return check_step(table, step, false, err, errlen);
}

int step_check_cleanup(const struct step_ops *const *table,
		       struct json_object *step, char *err, size_t errlen)
{
	return check_step(table, step, true, err, errlen);
}

const char *step_str(struct json_object *step, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(step, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

bool step_bool(struct json_object *step, const char *key, bool def)
{
	struct json_object *v;

	if (!json_object_object_get_ex(step, key, &v) ||
	    !json_object_is_type(v, json_type_boolean))
		return def;
	return json_object_get_boolean(v);
}

int64_t step_int(struct json_object *step, const char *key, int64_t def)
{
	struct json_object *v;

	if (!json_object_object_get_ex(step, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return def;
	return json_object_get_int64(v);
}

static void vset(char *dst, const char *fmt, va_list ap)
{
	vsnprintf(dst, PROTO_TEXT_MAX, fmt, ap);
}

void step_expected(struct step_result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(res->expected, fmt, ap);
	va_end(ap);
}

bool step_errno_mismatch(struct step_result *res, int want, int err,
			 const char *where)
{
	res->verdict = VERDICT_FAIL;
	if (want)
		step_expected(res, "errno %s", proto_errno_name(want));
	else
		step_expected(res, "success");
	if (!err)
		return false;
	step_got(res, "errno %s from %s (%s)", proto_errno_name(err), where,
		 strerror(err));
	return true;
}

void step_got(struct step_result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(res->got, fmt, ap);
	va_end(ap);
}

void step_error(struct step_result *res, const char *fmt, ...)
{
	va_list ap;

	res->verdict = VERDICT_ERROR;
	va_start(ap, fmt);
	vset(res->reason, fmt, ap);
	va_end(ap);
}

void step_msleep(uint64_t ms)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ms / 1000),
		.tv_nsec = (long)(ms % 1000) * 1000000,
	};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}
