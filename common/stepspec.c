// SPDX-License-Identifier: GPL-2.0-only
/*
 * The step kinds, declared once (stepspec.h): every kind's keys, and the
 * rules between them; one value against its type is stepspec-value.c's.
 * hostctl/scenario/scenario-schema.c and guestd/steps.c read these
 * tables; nothing else lists a kind's keys.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "brspec.h"
#include "proto.h"
#include "stepspec.h"

#define REPEAT_MAX 1000000
#define DELTA_MAX (INT64_C(1) << 62)

static const char *const since[] = { "step", "scenario", "boot", NULL };
static const char *const read_conds[] = { "equals", "match", "not_match",
					  "length", NULL };
static const char *const delta_conds[] = { "equals", "at_least", "at_most",
					   NULL };

/* Keys every step may have, whatever its kind. */
const struct stepspec_key stepspec_common_keys[] = {
	{ "kind", STEPSPEC_STRING, true, 0, PROTO_KIND_MAX - 1, NULL },
	{ "name", STEPSPEC_STRING, false, 0, PROTO_NAME_MAX - 1, NULL },
	{ "timeout_ms", STEPSPEC_INT, false, 1, PROTO_TIMEOUT_MAX_MS, NULL },
	{ NULL },
};

/*
 * And a step of the cleanup list may be guarded: with "if_exists" it runs
 * only when that path exists.
 */
const struct stepspec_key stepspec_cleanup_keys[] = {
	{ "if_exists", STEPSPEC_ABSPATH, false, 0, PROTO_PATH_MAX - 1, NULL },
	{ NULL },
};

static const struct stepspec_key write_keys[] = {
	{ "path", STEPSPEC_STRING, true, 0, 0, NULL },
	{ "value", STEPSPEC_TEXT, true, 0, 0, NULL },
	{ "append", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "expect_errno", STEPSPEC_ERRNO, false, 0, 0, NULL },
	{ "repeat", STEPSPEC_INT, false, 1, REPEAT_MAX, NULL },
	{ NULL },
};

static const struct stepspec_key read_keys[] = {
	{ "path", STEPSPEC_STRING, true, 0, 0, NULL },
	{ "equals", STEPSPEC_TEXT, false, 0, 0, NULL },
	{ "match", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ "not_match", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ "length", STEPSPEC_INT, false, 0, STEPSPEC_READ_MAX, NULL },
	{ NULL },
};

static const struct stepspec_key modprobe_keys[] = {
	{ "module", STEPSPEC_STRING, true, 0, 0, NULL },
	{ "params", STEPSPEC_PARAMS, false, 0, 0, NULL },
	{ "expect_errno", STEPSPEC_ERRNO, false, 0, 0, NULL },
	{ NULL },
};

static const struct stepspec_key rmmod_keys[] = {
	{ "module", STEPSPEC_STRING, true, 0, 0, NULL },
	{ "expect_errno", STEPSPEC_ERRNO, false, 0, 0, NULL },
	{ NULL },
};

static const struct stepspec_key wait_for_keys[] = {
	{ "path", STEPSPEC_STRING, true, 0, 0, NULL },
	{ "match", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ "not_match", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ "within_ms", STEPSPEC_INT, true, 0, PROTO_TIMEOUT_MAX_MS, NULL },
	{ NULL },
};

static const struct stepspec_key kmsg_expect_keys[] = {
	{ "match", STEPSPEC_REGEX, true, 0, 0, NULL },
	{ "absent", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "since", STEPSPEC_CHOICE, false, 0, 0, since },
	{ "within_ms", STEPSPEC_INT, false, 0, PROTO_TIMEOUT_MAX_MS, NULL },
	{ NULL },
};

static const struct stepspec_key sleep_keys[] = {
	{ "ms", STEPSPEC_INT, true, 0, PROTO_TIMEOUT_MAX_MS, NULL },
	{ NULL },
};

/* The MTD steps (guestd/step-mtd-*.c): pages and blocks of a /dev/mtdN. */
#define MTD_PAGE_MAX (INT64_C(1) << 40)
#define MTD_SEED_MAX INT64_C(4294967295)

static const char *const mtd_modes[] = { "auto", "place", "raw", NULL };

static const struct stepspec_key mtd_erase_keys[] = {
	{ "device", STEPSPEC_MTDDEV, true, 0, 0, NULL },
	{ "block", STEPSPEC_INT, false, 0, MTD_PAGE_MAX, NULL },
	{ "expect_errno", STEPSPEC_ERRNO, false, 0, 0, NULL },
	{ NULL },
};

static const struct stepspec_key mtd_write_keys[] = {
	{ "device", STEPSPEC_MTDDEV, true, 0, 0, NULL },
	{ "page", STEPSPEC_INT, true, 0, MTD_PAGE_MAX, NULL },
	{ "pages", STEPSPEC_INT, false, 1, 65536, NULL },
	{ "seed", STEPSPEC_INT, false, 0, MTD_SEED_MAX, NULL },
	{ "mode", STEPSPEC_CHOICE, false, 0, 0, mtd_modes },
	{ "expect_errno", STEPSPEC_ERRNO, false, 0, 0, NULL },
	{ NULL },
};

static const struct stepspec_key mtd_flip_keys[] = {
	{ "device", STEPSPEC_MTDDEV, true, 0, 0, NULL },
	{ "page", STEPSPEC_INT, true, 0, MTD_PAGE_MAX, NULL },
	{ "bits", STEPSPEC_INT, true, 1, 64, NULL },
	{ "ecc_step", STEPSPEC_INT, false, 0, 255, NULL },
	{ "seed", STEPSPEC_INT, false, 0, MTD_SEED_MAX, NULL },
	{ NULL },
};

static const struct stepspec_key mtd_read_keys[] = {
	{ "device", STEPSPEC_MTDDEV, true, 0, 0, NULL },
	{ "page", STEPSPEC_INT, true, 0, MTD_PAGE_MAX, NULL },
	{ "pages", STEPSPEC_INT, false, 1, 65536, NULL },
	{ "seed", STEPSPEC_INT, false, 0, MTD_SEED_MAX, NULL },
	{ "matches", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "expect_errno", STEPSPEC_ERRNO, false, 0, 0, NULL },
	{ "corrected", STEPSPEC_INT, false, 0, MTD_SEED_MAX, NULL },
	{ "max_bitflips", STEPSPEC_INT, false, 0, MTD_SEED_MAX, NULL },
	{ "uncorrectable", STEPSPEC_INT, false, 0, MTD_SEED_MAX, NULL },
	{ NULL },
};

static const struct stepspec_key mtd_stats_keys[] = {
	{ "device", STEPSPEC_MTDDEV, true, 0, 0, NULL },
	{ "corrected", STEPSPEC_INT, false, 0, MTD_SEED_MAX, NULL },
	{ "failed", STEPSPEC_INT, false, 0, MTD_SEED_MAX, NULL },
	{ "badblocks", STEPSPEC_INT, false, 0, MTD_SEED_MAX, NULL },
	{ "ecc_strength", STEPSPEC_INT, false, 0, MTD_SEED_MAX, NULL },
	{ "corrected_delta", STEPSPEC_INT, false, 0, MTD_SEED_MAX, NULL },
	{ "failed_delta", STEPSPEC_INT, false, 0, MTD_SEED_MAX, NULL },
	{ NULL },
};

static const struct stepspec_key mtd_reads_keys[] = {
	{ "device", STEPSPEC_MTDDEV, true, 0, 0, NULL },
	{ "page", STEPSPEC_INT, true, 0, MTD_PAGE_MAX, NULL },
	{ "pages", STEPSPEC_INT, false, 1, 1024, NULL },
	{ "reads", STEPSPEC_INT, true, 1, 1000000, NULL },
	{ "seed", STEPSPEC_INT, false, 0, MTD_SEED_MAX, NULL },
	{ "max_failed", STEPSPEC_INT, false, 0, 1000000, NULL },
	{ "min_corrected", STEPSPEC_INT, false, 0, 1000000, NULL },
	{ NULL },
};

static const char *const marker_actions[] = { "set", "check", NULL };
static const char *const marker_expect[] = { "present", "absent", NULL };

static const struct stepspec_key swap_keys[] = {
	{ "device", STEPSPEC_DEVICE, true, 0, 0, NULL },
	{ "mkswap", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "swapon", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "signature", STEPSPEC_STRING, false, 0, 10, NULL },
	{ "expect_errno", STEPSPEC_ERRNO, false, 0, 0, NULL },
	{ NULL },
};

static const struct stepspec_key marker_keys[] = {
	{ "action", STEPSPEC_CHOICE, true, 0, 0, marker_actions },
	{ "expect", STEPSPEC_CHOICE, false, 0, 0, marker_expect },
	{ NULL },
};

static const struct stepspec_key resume_keys[] = {
	{ "device", STEPSPEC_DEVICE, true, 0, 0, NULL },
	{ "hold_snapshot", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ NULL },
};

static const struct stepspec_key bridge_add_keys[] = {
	{ "dev", STEPSPEC_IFNAME, true, 0, 0, NULL },
	{ "vlan_filtering", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "mcast_snooping", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "expect_errno", STEPSPEC_ERRNO, false, 0, 0, NULL },
	{ "expect_extack", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ NULL },
};

static const struct stepspec_key link_del_keys[] = {
	{ "dev", STEPSPEC_IFNAME, true, 0, 0, NULL },
	{ "expect_errno", STEPSPEC_ERRNO, false, 0, 0, NULL },
	{ "expect_extack", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ NULL },
};

static const char *const link_set_one[] = { "master", "nomaster", "up", NULL };

static const struct stepspec_key link_set_keys[] = {
	{ "dev", STEPSPEC_IFNAME, true, 0, 0, NULL },
	{ "master", STEPSPEC_IFNAME, false, 0, 0, NULL },
	{ "nomaster", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "up", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "expect_errno", STEPSPEC_ERRNO, false, 0, 0, NULL },
	{ "expect_extack", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ NULL },
};

static const struct stepspec_key vlan_keys[] = {
	{ "dev", STEPSPEC_IFNAME, true, 0, 0, NULL },
	{ "vid", STEPSPEC_INT, true, 0, BRSPEC_VID_MAX, NULL },
	{ "pvid", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "untagged", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "self", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "expect_errno", STEPSPEC_ERRNO, false, 0, 0, NULL },
	{ "expect_extack", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ NULL },
};

static const struct stepspec_key mdb_keys[] = {
	{ "dev", STEPSPEC_IFNAME, true, 0, 0, NULL },
	{ "port", STEPSPEC_IFNAME, true, 0, 0, NULL },
	{ "group", STEPSPEC_GROUP, true, 0, 0, NULL },
	{ "vid", STEPSPEC_INT, false, 0, BRSPEC_VID_MAX, NULL },
	{ "permanent", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "expect_errno", STEPSPEC_ERRNO, false, 0, 0, NULL },
	{ "expect_extack", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ NULL },
};

static const char *const fault_attrs[] = { "failslab", "fail_page_alloc",
					   "fail_nth", "off", NULL };

static const struct stepspec_key fault_keys[] = {
	{ "attr", STEPSPEC_CHOICE, true, 0, 0, fault_attrs },
	{ "probability", STEPSPEC_INT, false, 0, 100, NULL },
	{ "interval", STEPSPEC_INT, false, 1, 1000000, NULL },
	{ "times", STEPSPEC_INT, false, 1, 1000000, NULL },
	{ "space", STEPSPEC_INT, false, 0, 1LL << 32, NULL },
	{ "verbose", STEPSPEC_INT, false, 0, 2, NULL },
	{ "task_filter", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "ignore_gfp_wait", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "ignore_gfp_highmem", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "min_order", STEPSPEC_INT, false, 0, 10, NULL },
	{ "nth", STEPSPEC_INT, false, 1, 1000000, NULL },
	{ "at", STEPSPEC_STRING, false, 0, PROTO_FAULT_AT_MAX - 1, NULL },
	{ "max_tries", STEPSPEC_INT, false, 1, PROTO_FAULT_TRIES_MAX, NULL },
	{ "expect_injected", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ NULL },
};

static const char *const expect_one[] = { "has", "lacks", "exactly", NULL };

static const struct stepspec_key vlan_expect_keys[] = {
	{ "dev", STEPSPEC_IFNAME, true, 0, 0, NULL },
	{ "has", STEPSPEC_VLANS, false, 0, 0, NULL },
	{ "lacks", STEPSPEC_VIDS, false, 0, 0, NULL },
	{ "exactly", STEPSPEC_VLANS, false, 0, 0, NULL },
	{ "within_ms", STEPSPEC_INT, false, 0, PROTO_TIMEOUT_MAX_MS, NULL },
	{ NULL },
};

static const struct stepspec_key mdb_expect_keys[] = {
	{ "dev", STEPSPEC_IFNAME, true, 0, 0, NULL },
	{ "has", STEPSPEC_MDBS, false, 0, 0, NULL },
	{ "lacks", STEPSPEC_MDB_KEYS, false, 0, 0, NULL },
	{ "exactly", STEPSPEC_MDBS, false, 0, 0, NULL },
	{ "within_ms", STEPSPEC_INT, false, 0, PROTO_TIMEOUT_MAX_MS, NULL },
	{ NULL },
};

static const struct stepspec_key bridge_check_keys[] = {
	{ "vlan", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "mdb", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ NULL },
};

static const struct stepspec_key sample_keys[] = {
	{ "as", STEPSPEC_STRING, true, 0, STEPSPEC_SAMPLE_NAME_MAX - 1, NULL },
	{ "path", STEPSPEC_STRING, true, 0, 0, NULL },
	{ "match", STEPSPEC_REGEX1, true, 0, 0, NULL },
	{ NULL },
};

static const struct stepspec_key bench_keys[] = {
	{ "path", STEPSPEC_ABSPATH, true, 0, PROTO_PATH_MAX - 1, NULL },
	{ "match", STEPSPEC_REGEX1, false, 0, 0, NULL },
	{ "runs", STEPSPEC_INT, true, 1, PROTO_BENCH_RUNS_MAX, NULL },
	{ "warmup", STEPSPEC_INT, false, 0, STEPSPEC_BENCH_WARMUP_MAX, NULL },
	{ "min", STEPSPEC_INT, false, 0, STEPSPEC_BENCH_VALUE_MAX, NULL },
	{ "max", STEPSPEC_INT, false, 0, STEPSPEC_BENCH_VALUE_MAX, NULL },
	{ NULL },
};

static const char *const stack_tracer_actions[] = { "start", "stop", NULL };

static const struct stepspec_key stack_tracer_keys[] = {
	{ "action", STEPSPEC_CHOICE, true, 0, 0, stack_tracer_actions },
	{ "min_bytes", STEPSPEC_INT, false, 0, PROTO_STACK_BYTES_MAX, NULL },
	{ "max_bytes", STEPSPEC_INT, false, 0, PROTO_STACK_BYTES_MAX, NULL },
	{ NULL },
};

static const struct stepspec_key delta_keys[] = {
	{ "of", STEPSPEC_STRING, true, 0, STEPSPEC_SAMPLE_NAME_MAX - 1, NULL },
	{ "equals", STEPSPEC_INT, false, -DELTA_MAX, DELTA_MAX, NULL },
	{ "at_least", STEPSPEC_INT, false, -DELTA_MAX, DELTA_MAX, NULL },
	{ "at_most", STEPSPEC_INT, false, -DELTA_MAX, DELTA_MAX, NULL },
	{ "within_ms", STEPSPEC_INT, false, 0, PROTO_TIMEOUT_MAX_MS, NULL },
	{ NULL },
};

/* Add a finding about @key ("" or NULL: the step) to @out. */
static void problem(struct stepspec_problems *out, const char *key,
		    bool warning, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void problem(struct stepspec_problems *out, const char *key,
		    bool warning, const char *fmt, ...)
{
	struct stepspec_problem *p;
	va_list ap;

	if (out->n == STEPSPEC_PROBLEMS_MAX)
		return;
	p = &out->v[out->n++];
	snprintf(p->key, sizeof(p->key), "%s", key ? key : "");
	p->warning = warning;
	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
}

/* @key's value when @step has it as an integer. */
static bool int_key(struct json_object *step, const char *key, int64_t *ret)
{
	struct json_object *v;

	if (!json_object_object_get_ex(step, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return false;
	*ret = json_object_get_int64(v);
	return true;
}

/* A bound pair with nothing between its ends would fail every run. */
static void check_bounds(struct json_object *step, const char *min_key,
			 const char *max_key, struct stepspec_problems *out)
{
	int64_t lo, hi;

	if (int_key(step, min_key, &lo) && int_key(step, max_key, &hi) &&
	    lo > hi)
		problem(out, min_key, false,
			"%" PRId64 " is above '%s' %" PRId64, lo, max_key, hi);
}

static void check_bench(struct json_object *step, struct stepspec_problems *out)
{
	check_bounds(step, "min", "max", out);
}

/* Only a stop measures: the bounds are on what it reads. */
static void check_stack_tracer(struct json_object *step,
			       struct stepspec_problems *out)
{
	struct json_object *v;

	if (json_object_object_get_ex(step, "action", &v) &&
	    json_object_is_type(v, json_type_string) &&
	    strcmp(json_object_get_string(v), "stop") != 0) {
		if (json_object_object_get_ex(step, "min_bytes", NULL))
			problem(out, "min_bytes", false,
				"'min_bytes' goes with action 'stop'");
		if (json_object_object_get_ex(step, "max_bytes", NULL))
			problem(out, "max_bytes", false,
				"'max_bytes' goes with action 'stop'");
	}
	check_bounds(step, "min_bytes", "max_bytes", out);
}

/* Which keys go with each fault attr (guestd/step-fault.c plans them). */
#define FAULT_ATTR_KEYS_MAX 12

static const struct {
	const char *attr;
	const char *const keys[FAULT_ATTR_KEYS_MAX]; /* NULL-terminated */
} fault_attr_keys[] = {
	{ "failslab",
	  { "probability", "interval", "times", "space", "verbose",
	    "task_filter", "ignore_gfp_wait" } },
	{ "fail_page_alloc",
	  { "probability", "interval", "times", "space", "verbose",
	    "task_filter", "ignore_gfp_wait", "ignore_gfp_highmem",
	    "min_order" } },
	{ "fail_nth", { "nth", "at", "max_tries" } },
	{ "off", { "expect_injected" } },
};

const char *const *stepspec_fault_keys(const char *attr)
{
	for (size_t i = 0;
	     i < sizeof(fault_attr_keys) / sizeof(fault_attr_keys[0]); i++)
		if (strcmp(fault_attr_keys[i].attr, attr) == 0)
			return fault_attr_keys[i].keys;
	return NULL;
}

/*
 * fail_nth takes "at" (a function the failed call's stack must hold, found
 * by guestd's search) or a bare "nth", which is valid but fragile: the
 * order of a step's allocations moves with caches and timing.
 */
static void check_fail_nth(struct json_object *step,
			   struct stepspec_problems *out)
{
	bool nth = json_object_object_get_ex(step, "nth", NULL);
	struct json_object *at;

	if (!json_object_object_get_ex(step, "at", &at)) {
		if (!nth)
			problem(out, NULL, false,
				"attr 'fail_nth' needs key 'at' (or 'nth')");
		else
			problem(out, NULL, true,
				"a bare 'nth' fails whichever "
				"call comes nth, which moves with caches and "
				"timing; aim it with 'at' instead");
		if (json_object_object_get_ex(step, "max_tries", NULL))
			problem(out, "max_tries", false,
				"'max_tries' goes with 'at'");
		return;
	}
	if (nth)
		problem(out, NULL, false, "'nth' and 'at' together");
	if (json_object_is_type(at, json_type_string))
		for (const char *c = json_object_get_string(at); *c; c++)
			if (!isalnum((unsigned char)*c) && *c != '_' &&
			    *c != '.') {
				problem(out, "at", false,
					"not a function name "
					"([A-Za-z0-9_.])");
				break;
			}
}

static void check_fault(struct json_object *step, struct stepspec_problems *out)
{
	const char *const *keys;
	struct json_object *v;
	const char *attr;

	if (!json_object_object_get_ex(step, "attr", &v) ||
	    !json_object_is_type(v, json_type_string))
		return;
	attr = json_object_get_string(v);
	keys = stepspec_fault_keys(attr);
	if (!keys)
		return; /* the choice check reported it */
	json_object_object_foreach(step, key, val) {
		bool ok = !!stepspec_key_find(stepspec_common_keys, key) ||
			  strcmp(key, "attr") == 0;

		(void)val;
		for (size_t i = 0; !ok && keys[i]; i++)
			ok = strcmp(keys[i], key) == 0;
		if (ok || !stepspec_key_find(fault_keys, key))
			continue;
		problem(out, key, false, "'%s' does not go with attr '%s'", key,
			attr);
	}
	if (strcmp(attr, "fail_nth") == 0)
		check_fail_nth(step, out);
}

/* master enslaves, nomaster releases: one step can't do both. */
static void check_link_set(struct json_object *step,
			   struct stepspec_problems *out)
{
	struct json_object *v;

	if (json_object_object_get_ex(step, "master", NULL) &&
	    json_object_object_get_ex(step, "nomaster", &v) &&
	    json_object_is_type(v, json_type_boolean) &&
	    json_object_get_boolean(v))
		problem(out, NULL, false, "'master' and 'nomaster' together");
}

static bool bool_false(struct json_object *step, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(step, key, &v) &&
	       json_object_is_type(v, json_type_boolean) &&
	       !json_object_get_boolean(v);
}

/* Both tables off would compare nothing and always pass. */
static void check_bridge_check(struct json_object *step,
			       struct stepspec_problems *out)
{
	if (bool_false(step, "vlan") && bool_false(step, "mdb"))
		problem(out, NULL, false,
			"'vlan' and 'mdb' both false: nothing to check");
}

static const char *const mtd_read_needs[] = { "matches", "seed", NULL };

static const struct stepspec_key readlink_keys[] = {
	{ "path", STEPSPEC_STRING, true, 0, 0, NULL },
	{ "equals", STEPSPEC_STRING, false, 0, 0, NULL },
	{ "match", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ "expect_errno", STEPSPEC_ERRNO, false, 0, 0, NULL },
	{ NULL },
};

static const char *const readlink_conds[] = { "equals", "match", "expect_errno",
					      NULL };

/* A link readlink(2) fails on has no target to compare. */
static void check_readlink(struct json_object *step,
			   struct stepspec_problems *out)
{
	if (json_object_object_get_ex(step, "expect_errno", NULL) &&
	    (json_object_object_get_ex(step, "equals", NULL) ||
	     json_object_object_get_ex(step, "match", NULL)))
		problem(out, NULL, false,
			"'expect_errno' with 'equals' or 'match': a failed readlink has no target");
}

static const struct stepspec_key trace_cmd_keys[] = {
	{ "filter", STEPSPEC_STRING, true, 1, STEPSPEC_TRACE_FILTER_MAX - 1,
	  NULL },
	{ "module", STEPSPEC_STRING, true, 1, STEPSPEC_MODULE_NAME_MAX - 1,
	  NULL },
	{ "expect", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ "all_match", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ NULL },
};

static const char *const trace_cmd_conds[] = { "expect", "all_match", NULL };

/*
 * trace-cmd takes both as words of its command line: neither may start
 * with '-' (an option), and each keeps to the characters of its kind.
 */
static void check_trace_cmd(struct json_object *step,
			    struct stepspec_problems *out)
{
	struct json_object *v;

	if (json_object_object_get_ex(step, "filter", &v) &&
	    json_object_is_type(v, json_type_string) &&
	    !stepspec_trace_cmd_word_ok(json_object_get_string(v),
					STEPSPEC_TRACE_FILTER_CHARS))
		problem(out, "filter", false,
			"'%s' is not a function filter: [A-Za-z0-9_-] and '" STEPSPEC_TRACE_FILTER_CHARS
			"', not starting with '-'",
			json_object_get_string(v));
	if (json_object_object_get_ex(step, "module", &v) &&
	    json_object_is_type(v, json_type_string) &&
	    !stepspec_trace_cmd_word_ok(json_object_get_string(v), ""))
		problem(out, "module", false,
			"'%s' is not a module name: [A-Za-z0-9_-], not starting with '-'",
			json_object_get_string(v));
}

static const char *const ks_formats[] = { "ktap", "ftracetest", NULL };

static const struct stepspec_key kselftest_keys[] = {
	{ "program", STEPSPEC_STRING, true, 0,
	  STEPSPEC_KSELFTEST_PROGRAM_MAX - 1, NULL },
	{ "args", STEPSPEC_ARGS, false, 0, STEPSPEC_ARGS_MAX, NULL },
	{ "format", STEPSPEC_CHOICE, false, 0, 0, ks_formats },
	{ "allow_skip", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ "min_tests", STEPSPEC_INT, false, 1, PROTO_SUBTESTS_MAX, NULL },
	{ NULL },
};

static void check_kselftest(struct json_object *step,
			    struct stepspec_problems *out)
{
	struct json_object *v;

	if (json_object_object_get_ex(step, "program", &v) &&
	    json_object_is_type(v, json_type_string) &&
	    !stepspec_kselftest_program_ok(json_object_get_string(v)))
		problem(out, "program", false,
			"'%s' is not DIR/FILE below " STEPSPEC_KSELFTEST_ROOT
			" (relative, no '.' or '..', [A-Za-z0-9._+-])",
			json_object_get_string(v));
}

/*
 * addr_add and connect (guestd/step-addr.c, guestd/step-connect.c): an
 * IPv4 address on an interface, and a TCP connect whose outcome is the
 * verdict, for the tests that the guest's network reaches nothing.
 */
static const struct stepspec_key addr_add_keys[] = {
	{ "dev", STEPSPEC_IFNAME, true, 0, 0, NULL },
	{ "addr", STEPSPEC_STRING, true, 0, STEPSPEC_ADDR_MAX - 1, NULL },
	{ "gateway", STEPSPEC_STRING, false, 0, STEPSPEC_ADDR_MAX - 1, NULL },
	{ "expect_errno", STEPSPEC_ERRNO, false, 0, 0, NULL },
	{ NULL },
};

static const char *const connect_expect[] = { "connect", "fail", NULL };

static const struct stepspec_key connect_keys[] = {
	{ "addr", STEPSPEC_STRING, true, 0, STEPSPEC_ADDR_MAX - 1, NULL },
	{ "port", STEPSPEC_INT, true, 1, 65535, NULL },
	{ "expect", STEPSPEC_CHOICE, true, 0, 0, connect_expect },
	{ "within_ms", STEPSPEC_INT, false, 1, PROTO_TIMEOUT_MAX_MS, NULL },
	{ NULL },
};

/* exec (guestd/step-exec.c): a command line for /bin/sh -c, hostctl run
 * --exec's one step; a non-zero exit fails it. */
static const struct stepspec_key exec_keys[] = {
	{ "command", STEPSPEC_STRING, true, 0, STEPSPEC_COMMAND_MAX - 1, NULL },
	{ NULL },
};

static const char *step_string(struct json_object *step, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(step, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static void check_addr_add(struct json_object *step,
			   struct stepspec_problems *out)
{
	const char *addr = step_string(step, "addr");
	const char *gw = step_string(step, "gateway");
	unsigned int prefix;
	struct in_addr a;

	if (addr && stepspec_ipv4_prefix(addr, &a, &prefix) < 0)
		problem(out, "addr", false,
			"'%s' is not an IPv4 address with a prefix length (10.0.2.15/24)",
			addr);
	if (gw && inet_pton(AF_INET, gw, &a) != 1)
		problem(out, "gateway", false, "'%s' is not an IPv4 address",
			gw);
}

static void check_connect(struct json_object *step,
			  struct stepspec_problems *out)
{
	const char *addr = step_string(step, "addr");
	struct sockaddr_storage ss;
	socklen_t len;

	if (addr && stepspec_ip_addr(addr, &ss, &len) < 0)
		problem(out, "addr", false,
			"'%s' is not an IPv4 or IPv6 address", addr);
}

/* The step kinds guestd runs: docs/scenarios.md, "Steps". */
const struct stepspec stepspec_table[] = {
	{ "write", write_keys, NULL, NULL, NULL, NULL },
	{ "read", read_keys, read_conds, NULL, NULL, NULL },
	{ "modprobe", modprobe_keys, NULL, NULL, NULL, NULL },
	{ "rmmod", rmmod_keys, NULL, NULL, NULL, NULL },
	{ "wait_for", wait_for_keys, NULL, NULL, "within_ms", NULL },
	{ "kmsg_expect", kmsg_expect_keys, NULL, NULL, "within_ms", NULL },
	{ "sleep", sleep_keys, NULL, NULL, "ms", NULL },
	{ "mtd_erase", mtd_erase_keys, NULL, NULL, NULL, NULL },
	{ "mtd_write", mtd_write_keys, NULL, NULL, NULL, NULL },
	{ "mtd_flip", mtd_flip_keys, NULL, NULL, NULL, NULL },
	{ "mtd_read", mtd_read_keys, NULL, mtd_read_needs, NULL, NULL },
	{ "mtd_stats", mtd_stats_keys, NULL, NULL, NULL, NULL },
	{ "mtd_reads", mtd_reads_keys, NULL, NULL, NULL, NULL },
	{ "fork_write", write_keys, NULL, NULL, NULL, NULL },
	{ "bridge_add", bridge_add_keys, NULL, NULL, NULL, NULL },
	{ "link_del", link_del_keys, NULL, NULL, NULL, NULL },
	{ "link_set", link_set_keys, link_set_one, NULL, NULL, check_link_set },
	{ "vlan_add", vlan_keys, NULL, NULL, NULL, NULL },
	{ "vlan_del", vlan_keys, NULL, NULL, NULL, NULL },
	{ "mdb_add", mdb_keys, NULL, NULL, NULL, NULL },
	{ "mdb_del", mdb_keys, NULL, NULL, NULL, NULL },
	{ "fault", fault_keys, NULL, NULL, NULL, check_fault },
	{ "vlan_expect", vlan_expect_keys, expect_one, NULL, "within_ms",
	  NULL },
	{ "mdb_expect", mdb_expect_keys, expect_one, NULL, "within_ms", NULL },
	{ "bridge_check", bridge_check_keys, NULL, NULL, NULL,
	  check_bridge_check },
	{ "sample", sample_keys, NULL, NULL, NULL, NULL },
	{ "delta", delta_keys, delta_conds, NULL, "within_ms", NULL },
	{ "bench", bench_keys, NULL, NULL, NULL, check_bench },
	{ "stack_tracer", stack_tracer_keys, NULL, NULL, NULL,
	  check_stack_tracer },
	{ "swap", swap_keys, NULL, NULL, NULL, NULL },
	{ "marker", marker_keys, NULL, NULL, NULL, NULL },
	{ "resume", resume_keys, NULL, NULL, NULL, NULL },
	{ "readlink", readlink_keys, readlink_conds, NULL, NULL,
	  check_readlink },
	{ "kselftest", kselftest_keys, NULL, NULL, NULL, check_kselftest },
	{ "trace_cmd", trace_cmd_keys, trace_cmd_conds, NULL, NULL,
	  check_trace_cmd },
	{ "addr_add", addr_add_keys, NULL, NULL, NULL, check_addr_add },
	{ "connect", connect_keys, NULL, NULL, "within_ms", check_connect },
	{ "exec", exec_keys, NULL, NULL, NULL, NULL },
};

const size_t stepspec_count =
	sizeof(stepspec_table) / sizeof(stepspec_table[0]);

const struct stepspec *stepspec_find(const char *kind)
{
	for (size_t i = 0; i < stepspec_count; i++)
		if (strcmp(stepspec_table[i].kind, kind) == 0)
			return &stepspec_table[i];
	return NULL;
}

const struct stepspec_key *stepspec_key_find(const struct stepspec_key *keys,
					     const char *key)
{
	for (; keys && keys->key; keys++)
		if (strcmp(keys->key, key) == 0)
			return keys;
	return NULL;
}

int stepspec_check_rules(const struct stepspec *spec, struct json_object *step,
			 uint64_t step_timeout_ms,
			 struct stepspec_problems *out)
{
	size_t first = out->n;
	struct json_object *v;
	uint64_t timeout = step_timeout_ms;

	if (spec->need_one) {
		bool any = false;
		char list[256] = "";

		for (const char *const *k = spec->need_one; *k; k++) {
			any |= json_object_object_get_ex(step, *k, NULL);
			if (list[0])
				strcat(list, ", ");
			strncat(list, *k, sizeof(list) - strlen(list) - 3);
		}
		if (!any)
			problem(out, NULL, false,
				"a '%s' step needs at least one of: %s",
				spec->kind, list);
	}
	if (spec->check)
		spec->check(step, out);
	for (const char *const *n = spec->needs; n && n[0]; n += 2)
		if (json_object_object_get_ex(step, n[0], NULL) &&
		    !json_object_object_get_ex(step, n[1], NULL))
			problem(out, n[0], false, "needs key '%s' too", n[1]);

	if (json_object_object_get_ex(step, "timeout_ms", &v) &&
	    json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) > 0)
		timeout = json_object_get_int64(v);
	if (spec->below_timeout &&
	    json_object_object_get_ex(step, spec->below_timeout, &v) &&
	    json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) >= 0 &&
	    json_object_get_int64(v) <= PROTO_TIMEOUT_MAX_MS &&
	    (uint64_t)json_object_get_int64(v) >= timeout)
		problem(out, spec->below_timeout, false,
			"%" PRId64
			" is not below the step's timeout_ms %" PRIu64,
			json_object_get_int64(v), timeout);

	for (size_t i = first; i < out->n; i++)
		if (!out->v[i].warning)
			return -EINVAL;
	return 0;
}
