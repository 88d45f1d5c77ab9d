// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/results/results.c: whether a run is green, and its
 * exit code (the kernel's fault or the lab's).
 */
#include <stdbool.h>
#include <stddef.h>

#include "results/results.h"
#include "tap.h"

/* A run is green when every scenario ended, with no verdict of a fault. */
static void test_run_ok(void)
{
	struct res_scenario sc[2] = {
		{ .name = "a/one", .done = true, .verdict = VERDICT_FAIL },
		{ .name = "a/two", .done = true, .verdict = VERDICT_SKIP },
	};
	struct res_run run = { .run_id = "r", .v = sc, .n = 2 };

	ok(!res_run_ok(&run), "a fail makes the run red");
	sc[0].verdict = VERDICT_XFAIL;
	ok(res_run_ok(&run), "xfail and skip keep it green");
	sc[1].done = false;
	ok(!res_run_ok(&run), "an unfinished scenario is red");
}

/* Exit codes: the kernel's fault (1) or the lab's (3), never hidden. */
static void test_outcome(void)
{
	struct res_scenario sc[3] = {
		{ .name = "a/one", .done = true, .verdict = VERDICT_PASS },
		{ .name = "a/two", .done = true, .verdict = VERDICT_SKIP },
		{ .name = "a/three", .done = true, .verdict = VERDICT_XFAIL },
	};
	struct res_run run = { .run_id = "r", .v = sc, .n = 3 };
	static const enum proto_verdict kernel[] = {
		VERDICT_FAIL, VERDICT_TIMEOUT, VERDICT_CRASH, VERDICT_XPASS
	};

	is_int(res_run_outcome(&run), RES_OUTCOME_OK, "pass, skip, xfail: ok");
	sc[1].verdict = VERDICT_ERROR;
	is_int(res_run_outcome(&run), RES_OUTCOME_LAB, "error: the lab's");
	for (size_t i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++) {
		sc[2].verdict = kernel[i];
		okf(res_run_outcome(&run) == RES_OUTCOME_KERNEL,
		    "%s beside an error: the kernel's",
		    proto_verdict_name(kernel[i]));
	}
	sc[1].verdict = VERDICT_PASS;
	sc[2].verdict = VERDICT_PASS;
	sc[2].done = false;
	is_int(res_run_outcome(&run), RES_OUTCOME_LAB, "no verdict: the lab's");
}

int main(void)
{
	test_run_ok();
	test_outcome();
	return tap_done();
}
