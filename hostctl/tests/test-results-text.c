// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/results/results-text.c: a run's KTAP (res_ktap()),
 * its header, plan, a failed step, a failed scenario and a skip with its
 * reason.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"
#include "tap.h"

static void test_ktap(void)
{
	struct res_step st = {
		.index = 0, .kind = "read", .ran = true, .verdict = VERDICT_FAIL
	};
	struct res_scenario sc[2] = {
		{ .name = "a/one",
		  .done = true,
		  .verdict = VERDICT_FAIL,
		  .steps = &st,
		  .nsteps = 1 },
		{ .name = "a/two", .done = true, .verdict = VERDICT_SKIP },
	};
	struct res_run run = {
		.run_id = "r", .accelerator = "tcg", .v = sc, .n = 2
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sc[1].reason = "CONFIG_X is not set";
	res_ktap(&run, f);
	fclose(f);
	ok(strncmp(buf, "KTAP version 1\n", 15) == 0, "KTAP header");
	ok(strstr(buf, "\n1..2\n") != NULL, "plan");
	ok(strstr(buf, "    not ok 1 1-read\n") != NULL, "failed step");
	ok(strstr(buf, "\nnot ok 1 a/one\n") != NULL, "failed scenario");
	ok(strstr(buf, "\nok 2 a/two # SKIP CONFIG_X is not set\n") != NULL,
	   "skip directive");
	free(buf);
}

int main(void)
{
	test_ktap();
	return tap_done();
}
