// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every step kind shares: finding a kind in a table (steps-table.c
 * holds guestd's), checking a step's keys and types against its spec
 * (common/stepspec.c) before anything runs, typed getters, and the result
 * text.
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

/*
 * guestd checks a key's JSON type only, coarser than the spec's type: the
 * host checked the rest before it sent the request.
 */
enum key_json { KEY_STRING, KEY_BOOL, KEY_INT, KEY_STRINGS, KEY_SIGNED };

static enum key_json key_json(const struct stepspec_key *k)
{
	switch (k->type) {
	case STEPSPEC_BOOL:
		return KEY_BOOL;
	case STEPSPEC_INT:
		return k->min < 0 ? KEY_SIGNED : KEY_INT;
	case STEPSPEC_PARAMS:
	case STEPSPEC_VLANS:
	case STEPSPEC_VIDS:
	case STEPSPEC_MDBS:
	case STEPSPEC_MDB_KEYS:
	case STEPSPEC_ARGS:
		return KEY_STRINGS;
	case STEPSPEC_STRING:
	case STEPSPEC_TEXT:
	case STEPSPEC_REGEX:
	case STEPSPEC_REGEX1:
	case STEPSPEC_ERRNO:
	case STEPSPEC_CHOICE:
	case STEPSPEC_MTDDEV:
	case STEPSPEC_IFNAME:
	case STEPSPEC_GROUP:
	case STEPSPEC_DEVICE:
	case STEPSPEC_ABSPATH:
	case STEPSPEC__COUNT:
		break;
	}
	return KEY_STRING;
}

static const char *key_type_name(enum key_json t)
{
	switch (t) {
	case KEY_STRING:
		return "a string";
	case KEY_BOOL:
		return "a boolean";
	case KEY_INT:
		return "an integer";
	case KEY_STRINGS:
		return "an array of strings";
	case KEY_SIGNED:
		return "an integer";
	}
	return "?";
}

static bool key_type_ok(struct json_object *v, enum key_json t)
{
	switch (t) {
	case KEY_STRING:
		return json_object_is_type(v, json_type_string);
	case KEY_BOOL:
		return json_object_is_type(v, json_type_boolean);
	case KEY_INT:
		return json_object_is_type(v, json_type_int) &&
		       json_object_get_int64(v) >= 0;
	case KEY_STRINGS:
		if (!json_object_is_type(v, json_type_array))
			return false;
		for (size_t i = 0; i < json_object_array_length(v); i++)
			if (!json_object_is_type(json_object_array_get_idx(v,
									   i),
						 json_type_string))
				return false;
		return true;
	case KEY_SIGNED:
		return json_object_is_type(v, json_type_int);
	}
	return false;
}

static int check_keys(const struct stepspec_key *keys, struct json_object *step,
		      const char *kind, char *err, size_t errlen)
{
	struct json_object *v;

	for (size_t i = 0; keys && keys[i].key; i++) {
		enum key_json t = key_json(&keys[i]);

		if (!json_object_object_get_ex(step, keys[i].key, &v)) {
			if (!keys[i].required)
				continue;
			snprintf(err, errlen, "step kind '%s' needs key '%s'",
				 kind, keys[i].key);
			return -EINVAL;
		}
		if (!key_type_ok(v, t)) {
			snprintf(err, errlen, "key '%s' must be %s%s",
				 keys[i].key, key_type_name(t),
				 t == KEY_INT ? " >= 0" : "");
			return -EINVAL;
		}
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
	if (json_object_object_get_ex(step, "name", &v) &&
	    json_object_get_string_len(v) >= PROTO_NAME_MAX) {
		snprintf(err, errlen, "step name is longer than %d bytes",
			 PROTO_NAME_MAX - 1);
		return -EINVAL;
	}
	if (cleanup && json_object_object_get_ex(step, "if_exists", &v) &&
	    (json_object_get_string(v)[0] != '/' ||
	     json_object_get_string_len(v) >= PROTO_TEXT_MAX)) {
		snprintf(err, errlen,
			 "'if_exists' must be an absolute path "
			 "under %d bytes",
			 PROTO_TEXT_MAX);
		return -EINVAL;
	}
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
