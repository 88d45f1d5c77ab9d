// SPDX-License-Identifier: GPL-2.0-only
/*
 * The request check of a step (step_check()), each failure with its
 * reason, and the table of step_ops against the table of specs
 * (common/stepspec.c). The step kinds themselves run in test-step-*.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "guestd.h"
#include "tap.h"

static void test_check(void)
{
	static const struct {
		const char *json, *err;
	} bad[] = {
		{ "[]", "a step must be an object" },
		{ "{}", "a step needs a string 'kind'" },
		{ "{\"kind\":\"nope\"}", "unknown step kind 'nope'" },
		{ "{\"kind\":\"write\",\"path\":\"/x\"}",
		  "step kind 'write' needs key 'value'" },
		{ "{\"kind\":\"write\",\"path\":1,\"value\":\"\"}",
		  "key 'path': expected a string, got an integer" },
		{ "{\"kind\":\"sleep\",\"ms\":-1}",
		  "key 'ms': -1 is out of range 0..3600000" },
		{ "{\"kind\":\"sleep\",\"ms\":1.5}",
		  "key 'ms': expected an integer, got a number" },
		{ "{\"kind\":\"write\",\"path\":\"/x\",\"value\":\"\","
		  "\"append\":\"yes\"}", "key 'append': expected a boolean, got a string" },
		{ "{\"kind\":\"modprobe\",\"module\":\"m\",\"params\":[1]}",
		  "key 'params'[0]: expected a string, got an integer" },
		{ "{\"kind\":\"sleep\",\"ms\":1,\"match\":\"x\"}",
		  "step kind 'sleep' has no key 'match'" },
		{ "{\"kind\":\"sleep\",\"ms\":1,\"timeout_ms\":\"1\"}",
		  "key 'timeout_ms': expected an integer, got a string" },
		{ "{\"kind\":\"delta\",\"of\":\"x\",\"at_least\":-1.5}",
		  "key 'at_least': expected an integer, got a number" },
		{ "{\"kind\":\"sample\",\"as\":\"x\",\"path\":\"/x\"}",
		  "step kind 'sample' needs key 'match'" },
		{ "{\"kind\":\"write\",\"path\":\"/x\",\"value\":\"\","
		  "\"repeat\":-1}", "key 'repeat': -1 is out of range 1..1000000" },
	};
	char err[256];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct json_object *s = json_tokener_parse(bad[i].json);

		err[0] = '\0';
		is_int(step_check(step_table, s, err, sizeof(err)), -EINVAL,
		       bad[i].json);
		is_str(err, bad[i].err, "with the reason");
		json_object_put(s);
	}
	{
		struct json_object *s = json_tokener_parse(
			"{\"kind\":\"read\",\"name\":\"n\",\"timeout_ms\":5,"
			"\"path\":\"/x\",\"match\":\"y\"}");

		is_int(step_check(step_table, s, err, sizeof(err)), 0,
		       "a good step passes the check");
		json_object_put(s);
		s = json_tokener_parse("{\"kind\":\"delta\",\"of\":\"x\","
				       "\"at_least\":-16,\"at_most\":0}");
		is_int(step_check(step_table, s, err, sizeof(err)), 0,
		       "a negative bound is a good delta");
		json_object_put(s);
	}
}

/*
 * Each step kind is declared once, in common/stepspec.c: every spec has a
 * step_ops that runs it, and every step_ops of step_table has a spec.
 */
static void test_spec_table(void)
{
	char what[128];
	size_t n = 0;

	for (size_t i = 0; i < stepspec_count; i++) {
		const char *kind = stepspec_table[i].kind;

		snprintf(what, sizeof(what), "spec '%s' has a step_ops", kind);
		ok(step_find(step_table, kind) != NULL, what);
		for (size_t j = 0; j < i; j++)
			if (strcmp(stepspec_table[j].kind, kind) == 0) {
				snprintf(what, sizeof(what),
					 "spec '%s' is declared twice", kind);
				ok(0, what);
			}
	}
	for (; step_table[n]; n++) {
		const char *kind = step_table[n]->name;

		snprintf(what, sizeof(what), "step_ops '%s' has a spec", kind);
		ok(stepspec_find(kind) != NULL, what);
		snprintf(what, sizeof(what), "step_ops '%s' is listed once", kind);
		ok(step_find(step_table, kind) == step_table[n], what);
	}
	is_int(n, stepspec_count, "as many step_ops as specs");
}

/* The runner keeps the reset hooks a child made due in a bounded set. */
static void test_reset_hooks(void)
{
	size_t n = 0;

	for (size_t i = 0; step_table[i]; i++)
		n += step_table[i]->reset != NULL;
	ok(n <= RUNNER_RESETS_MAX, "at most RUNNER_RESETS_MAX kinds reset");
	ok(step_fault.reset == fault_reset, "fault's reset is fault_reset()");
}

int main(void)
{
	test_check();
	test_spec_table();
	test_reset_hooks();
	return tap_done();
}
