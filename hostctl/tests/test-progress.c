// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/results/progress.c: the streamed KTAP, the plain
 * line per scenario, and a stream that cannot be written.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* --color=auto on a terminal (a pty): colour unless NO_COLOR is set
 * and not empty (https://no-color.org). */
static void test_color_tty(void)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	FILE *tty = NULL;

	if (m >= 0 && grantpt(m) == 0 && unlockpt(m) == 0)
		tty = fopen(ptsname(m), "w");
	if (!tty) {
		ok(0, "a pty for --color=auto");
		if (m >= 0)
			close(m);
		return;
	}
	unsetenv("NO_COLOR");
	ok(progress_color_on(PROGRESS_COLOR_AUTO, tty),
	   "--color=auto: colour on a terminal");
	setenv("NO_COLOR", "", 1);
	ok(progress_color_on(PROGRESS_COLOR_AUTO, tty),
	   "--color=auto: an empty NO_COLOR is unset");
	setenv("NO_COLOR", "1", 1);
	ok(!progress_color_on(PROGRESS_COLOR_AUTO, tty) &&
	   progress_color_on(PROGRESS_COLOR_ALWAYS, tty),
	   "--color=auto: none with NO_COLOR, but always is always");
	unsetenv("NO_COLOR");
	fclose(tty);
	close(m);
}

/* --color: the verdict word of each text result line in its colour,
 * the rest of the lines as res_text_scenario() prints them. */
static void test_color(void)
{
	struct res_scenario sc[2] = {
		{ .name = "a/one",
		  .done = true,
		  .verdict = VERDICT_FAIL,
		  .duration_ms = 4149 },
		{ .name = "a/two", .done = true, .verdict = VERDICT_CRASH },
	};
	char *out = NULL;
	size_t len = 0;
	struct progress p = { .f = open_memstream(&out, &len),
			      .results = true,
			      .color = true };
	struct res_run run = { .run_id = "r",
			       .accelerator = "tcg",
			       .complete = RES_COMPLETE_YES,
			       .v = sc,
			       .n = 2 };
	char *plain = NULL;
	size_t plen = 0;
	FILE *pf = open_memstream(&plain, &plen);
	const char *name = NULL;
	enum progress_color c;

	progress_result(&p, &sc[0], &name);
	progress_result(&p, &sc[1], &name);
	fclose(p.f);
	is_str(out,
	       "\033[31mFAIL\033[0m    a/one (4.149 s)\n"
	       "\033[1;31mCRASH\033[0m   a/two (0.000 s)\n",
	       "--color: the verdict word coloured, fail red, crash bold red");
	free(out);

	/* The totals: their closing word coloured, the rest as printed. */
	out = NULL;
	p.f = open_memstream(&out, &len);
	progress_totals(&p, &run, p.f);
	fclose(p.f);
	p.color = false;
	progress_totals(&p, &run, pf);
	fclose(pf);
	ok(plain && strstr(plain, " -> FAILED\n") && !strchr(plain, '\033'),
	   "--color off: the totals as res_text_totals() prints them");
	ok(out && plain && strlen(out) == strlen(plain) + 11 &&
	   strstr(out, " -> \033[1;31mFAILED\033[0m\n") &&
	   strncmp(out, plain, strlen(plain) - strlen("FAILED\n")) == 0,
	   "--color: FAILED in bold red at the end of the totals");
	free(out);
	free(plain);
	ok(progress_color_parse("always", &c) == 0 &&
	   c == PROGRESS_COLOR_ALWAYS && progress_color_parse("yes", &c) < 0,
	   "--color: always parses, yes does not");
	ok(progress_color_on(PROGRESS_COLOR_ALWAYS, stdin) &&
	   !progress_color_on(PROGRESS_COLOR_NEVER, stdin),
	   "--color: always and never whatever the stream");
	p.f = fopen("/dev/null", "w");
	ok(p.f && !progress_color_on(PROGRESS_COLOR_AUTO, p.f),
	   "--color=auto: none off a terminal");
	if (p.f)
		fclose(p.f);
	test_color_tty();
}

int main(void)
{
	test_stream();
	test_color();
	return tap_done();
}
