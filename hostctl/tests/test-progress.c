// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/results/progress.c: the streamed KTAP, the plain
 * line per scenario, and a stream that cannot be written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/progress.h"
#include "results/results.h"
#include "tap.h"

/*
 * A streamed run (progress.h) writes the KTAP res_ktap() writes, each
 * scenario as it ends, and a plain line per scenario; a stream that
 * cannot be written is an error, never silence.
 */
static void test_stream(void)
{
	struct res_scenario sc[3] = {
		{ .name = "a/one",
		  .done = true,
		  .verdict = VERDICT_FAIL,
		  .duration_ms = 4149,
		  .reason = "bad" },
		{ .name = "a/two", .done = true, .verdict = VERDICT_SKIP },
		{ .name = "b/three",
		  .done = true,
		  .verdict = VERDICT_PASS,
		  .duration_ms = 12050 },
	};
	struct res_run run = { .run_id = "r",
			       .accelerator = "tcg",
			       .complete = RES_COMPLETE_YES,
			       .v = sc,
			       .n = 3 };
	char *batch = NULL, *stream = NULL, *plain = NULL;
	size_t blen = 0, slen = 0, plen = 0;
	FILE *b = open_memstream(&batch, &blen);
	struct progress p = {
		.ktap = { open_memstream(&stream, &slen) },
		.ktap_name = { "stream" },
		.plain = open_memstream(&plain, &plen),
	};
	const char *name = NULL;
	char *one_line;
	int r;

	res_ktap(&run, b);
	fclose(b);
	r = progress_begin(&p, &run, &name);
	one_line = r == 0 ? strdup(stream) : NULL;
	for (size_t i = 0; r == 0 && i < run.n; i++)
		r = progress_result(&p, &sc[i], &name);
	if (r == 0)
		r = progress_end(&p, &run, &name);
	fclose(p.ktap[0]);
	fclose(p.plain);
	ok(r == 0, "stream written");
	ok(one_line && strcmp(one_line, "KTAP version 1\n# vlalab run r\n"
					"1..3\n") == 0,
	   "the plan goes out before any scenario ends");
	ok(batch && stream && strcmp(batch, stream) == 0,
	   "streamed KTAP is res_ktap()'s");
	ok(plain && strcmp(plain, "[1/3] a/one fail 4.1 s\n"
				  "[2/3] a/two skip 0.0 s\n"
				  "[3/3] b/three pass 12.0 s\n") == 0,
	   "a plain line per scenario");
	free(one_line);
	free(batch);
	free(stream);
	free(plain);

	/* A stream that cannot take the bytes (a full disk). */
	p.ktap[0] = fopen("/dev/full", "w");
	p.plain = NULL;
	name = NULL;
	if (!p.ktap[0]) {
		ok(0, "open /dev/full");
		return;
	}
	r = progress_begin(&p, &run, &name);
	is_int(r, -ENOSPC, "a full disk is -ENOSPC");
	ok(name && !strcmp(name, "stream"), "naming the stream");
	fclose(p.ktap[0]);
}

int main(void)
{
	test_stream();
	return tap_done();
}
