// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/cli/bench-table.c: the median, each goal's
 * verdict (ok, MISSED, "-" when a figure is missing), the goals' table
 * (every row with its figures, the ratio, the goal and the verdict, and
 * what is beside it) and its JSON.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/bench-table.h"
#include "tap.h"

/* @rows as bench_goals_print() writes them, in a static buffer. */
static const char *printed(const struct bench_row *rows, size_t n)
{
	static char buf[8192];
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	bench_goals_print(f, rows, n);
	fclose(f);
	return buf;
}

/* Line @k (0 is the header) of @text, in a static buffer. */
static const char *line(const char *text, unsigned int k)
{
	static char buf[512];
	const char *end;

	while (k-- && text)
		text = (text = strchr(text, '\n')) ? text + 1 : NULL;
	if (!text)
		return "";
	end = strchr(text, '\n');
	snprintf(buf, sizeof(buf), "%.*s", (int)(end ? end - text : 0), text);
	return buf;
}

static void test_median(void)
{
	uint64_t odd[] = { 30, 10, 20 }, even[] = { 4, 1, 3, 2 };

	is_int((int)bench_median(odd, 3), 20, "the median of three");
	ok(odd[0] == 10 && odd[2] == 30, "sorted in place");
	is_int((int)bench_median(even, 4), 2, "of four: the mean of the two");
	is_int((int)bench_median(even, 0), 0, "of none: 0");
}

static void test_verdicts(void)
{
	uint64_t boot[] = { 3566000, 3336000, 3700000 };
	struct bench_row r = {
		.goal_no = 1,
		.id = "boot",
		.what = "boot: create called -> hello",
		.beside = "raw QEMU exec -> hello",
		.beside_us = 2122000,
		.goal = BENCH_GOAL_RATIO,
		.limit = 1.15,
	};

	is_str(bench_row_verdict(&r), "-", "nothing measured: no verdict");
	bench_row_set(&r, boot, 3);
	ok(r.n == 3 && r.median_us == 3566000 && r.min_us == 3336000 &&
		   r.max_us == 3700000,
	   "median, min and max");
	is_str(bench_row_verdict(&r), "MISSED", "1.68x raw: MISSED");
	r.beside_us = 3200000;
	is_str(bench_row_verdict(&r), "ok", "1.11x raw: ok");
	r.beside_us = 3566000 / 1.15 + 1;
	is_str(bench_row_verdict(&r), "ok", "the limit itself holds");
	r.beside_us = 0;
	is_str(bench_row_verdict(&r), "-", "a ratio with nothing beside: -");

	r.goal = BENCH_GOAL_MS;
	r.limit = 500;
	is_str(bench_row_verdict(&r), "MISSED", "3566 ms over 500 ms");
	boot[0] = 500000;
	bench_row_set(&r, boot, 1);
	is_str(bench_row_verdict(&r), "ok", "500 ms of 500 ms: ok");
}

/* The four goals as bench prints them, the build unmeasured. */
static void rows4(struct bench_row *rows)
{
	static uint64_t boot[] = { 3566000 }, rest[] = { 612000, 700000 },
			jobs[] = { 20000000 };

	rows[0] = (struct bench_row){ .goal_no = 1, .id = "boot",
				      .what = "boot: create called -> hello",
				      .beside = "raw QEMU exec -> hello",
				      .beside_us = 2122000,
				      .goal = BENCH_GOAL_RATIO,
				      .limit = 1.15 };
	bench_row_set(&rows[0], boot, 1);
	rows[1] = (struct bench_row){ .goal_no = 2, .id = "restore",
				      .what = "fresh VM: restore called -> hello",
				      .beside = "raw QEMU -incoming exec -> hello",
				      .beside_us = 400000,
				      .goal = BENCH_GOAL_MS,
				      .limit = 500 };
	bench_row_set(&rows[1], rest, 2);
	rows[2] = (struct bench_row){ .goal_no = 3, .id = "jobs",
				      .what = "run -j 2 'bch/*' (wall)",
				      .beside = "run -j 1 'bch/*' (wall)",
				      .beside_us = 40000000,
				      .goal = BENCH_GOAL_RATIO,
				      .limit = 0.6 };
	bench_row_set(&rows[2], jobs, 1);
	rows[3] = (struct bench_row){ .goal_no = 4, .id = "build",
				      .what = "cold kernel build (its manifest)",
				      .goal = BENCH_GOAL_MS,
				      .limit = 480000,
				      .seconds = 1,
				      .note = "no cold build recorded" };
}

static void test_table(void)
{
	struct bench_row rows[4];
	const char *t;

	rows4(rows);
	t = printed(rows, 4);
	tap_diag("table", t);
	ok(strstr(line(t, 0), "goal") && strstr(line(t, 0), "beside") &&
		   strstr(line(t, 0), "ratio") && strstr(line(t, 0), "verdict"),
	   "a header names the columns");
	is_str(line(t, 1),
	       "1    boot: create called -> hello              3566 ms    3566 ms    3566 ms    2122 ms   1.68x  <= 1.15x     MISSED",
	       "goal 1: figures, beside, ratio, goal, verdict");
	is_str(line(t, 2), "     beside: raw QEMU exec -> hello",
	       "what is beside, on the next line");
	is_str(line(t, 3),
	       "2    fresh VM: restore called -> hello          656 ms     612 ms     700 ms     400 ms   1.64x  <= 500 ms    MISSED",
	       "goal 2: an absolute goal, judged on the median");
	is_str(line(t, 5),
	       "3    run -j 2 'bch/*' (wall)                  20000 ms   20000 ms   20000 ms   40000 ms   0.50x  <= 0.60x     ok",
	       "goal 3: -j 2 beside -j 1");
	is_str(line(t, 7),
	       "4    cold kernel build (its manifest)                -          -          -          -       -  <= 480 s     -",
	       "goal 4 unmeasured: dashes, no verdict");
	is_str(line(t, 8), "     beside: nothing; no cold build recorded",
	       "and why");

	{
		static uint64_t b[] = { 842500000 };

		bench_row_set(&rows[3], b, 1);
		rows[3].note = NULL;
		t = printed(rows + 3, 1);
		ok(strstr(line(t, 1), "842.5 s") &&
			   strstr(line(t, 1), "MISSED"),
		   "a build in seconds, 14 min: MISSED");
	}
}

static void test_json(void)
{
	struct bench_row rows[4];
	struct bench_meta m = { .runs = 1, .jobs = 2, .accelerator = "tcg",
				.machine = "q35", .kernel = "6.1.192",
				.subset = "bch/*", .load_start = 0.5,
				.load_end = -1 };
	struct json_object *o, *a, *r, *v;
	char *text = NULL;

	rows4(rows);
	is_int(bench_goals_json(&m, rows, 4, &text), 0, "the JSON");
	o = text ? json_tokener_parse(text) : NULL;
	ok(o, "parses");
	if (!o)
		return;
	ok(json_object_object_get_ex(o, "rows", &a) &&
		   json_object_array_length(a) == 4,
	   "four rows");
	ok(json_object_object_get_ex(o, "load_end", &v) && !v,
	   "an unknown load is null");
	r = json_object_array_get_idx(a, 0);
	ok(json_object_object_get_ex(r, "median_ms", &v) &&
		   json_object_get_double(v) == 3566.0 &&
		   json_object_object_get_ex(r, "beside_ms", &v) &&
		   json_object_get_double(v) == 2122.0 &&
		   json_object_object_get_ex(r, "ratio", &v) &&
		   json_object_get_double(v) == 1.68 &&
		   !strcmp(json_object_get_string(
				   json_object_object_get(r, "verdict")),
			   "MISSED"),
	   "row 1: median, beside, ratio, verdict");
	r = json_object_array_get_idx(a, 3);
	ok(json_object_object_get_ex(r, "median_ms", &v) && !v &&
		   json_object_object_get_ex(r, "ratio", &v) && !v &&
		   !strcmp(json_object_get_string(
				   json_object_object_get(r, "verdict")),
			   "-") &&
		   !strcmp(json_object_get_string(
				   json_object_object_get(r, "note")),
			   "no cold build recorded"),
	   "row 4 unmeasured: nulls, '-', and why");
	json_object_put(o);
	free(text);
}

int main(void)
{
	test_median();
	test_verdicts();
	test_table();
	test_json();
	return tap_done();
}
