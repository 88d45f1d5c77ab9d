/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hostctl bench's tables (docs/performance.md, "hostctl bench"): the
 * details, one line per measurement, and issue 32's four goals, each row
 * with the figure it is compared with beside it (raw QEMU's, or -j 1's),
 * the ratio, the goal and ok or MISSED; as text and as JSON. Pure: the
 * measuring is verb-bench.c's.
 */
#ifndef VLALAB_HOSTCTL_RESULTS_BENCH_TABLE_H
#define VLALAB_HOSTCTL_RESULTS_BENCH_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Runs of each measurement, at most (--runs). */
#define BENCH_RUNS_MAX 16

/* The median of @n values, sorting them; 0 for none. */
uint64_t bench_median(uint64_t *us, unsigned int n);

/*
 * One line of the details: name, median, min, max in ms, then @raw_us
 * (0: none, "-") with the ratio of the two medians, and the target.
 * Sorts @us.
 */
void bench_detail(FILE *f, const char *what, uint64_t *us, unsigned int n,
		  uint64_t raw_us, const char *target);
/* The details' header line. */
void bench_detail_header(FILE *f);

/* How a goal row is judged. */
enum bench_goal {
	BENCH_GOAL_RATIO, /* median / beside <= limit */
	BENCH_GOAL_MS, /* median <= limit ms */
};

/* One row of the goals' table. */
struct bench_row {
	unsigned int goal_no; /* issue 32's goal: 1..4 */
	const char *id; /* its JSON key: "boot", "restore", ... */
	const char *what; /* what is measured */
	const char *beside; /* what it is compared with; NULL: nothing */
	unsigned int n; /* measurements; 0: none */
	uint64_t median_us, min_us, max_us;
	uint64_t beside_us; /* the median of what is beside; 0: none */
	enum bench_goal goal;
	double limit; /* the ratio's, or ms */
	/* In seconds rather than milliseconds (the kernel build). */
	int seconds;
	/* Why there is no figure (n == 0), or a remark; NULL: none. */
	const char *note;
};

/* @r's figures from @us (sorted). */
void bench_row_set(struct bench_row *r, uint64_t *us, unsigned int n);

/*
 * "ok" when the goal holds, "MISSED" when it does not, "-" when a figure
 * it needs is missing (no measurement, or no beside for a ratio).
 */
const char *bench_row_verdict(const struct bench_row *r);

/* The goals' table, a header and two lines per row (the second says what
 * is beside), into @f. */
void bench_goals_print(FILE *f, const struct bench_row *rows, size_t n);

/* What the JSON says besides the rows. */
struct bench_meta {
	unsigned int runs, jobs;
	const char *accelerator, *machine, *kernel;
	const char *subset; /* the scenarios -j 1 and -j N ran */
	double load_start, load_end; /* one-minute load averages; < 0: none */
};

/*
 * The goals as a JSON object (docs/performance.md), a malloc'd string in
 * *ret. 0 or -ENOMEM.
 */
int bench_goals_json(const struct bench_meta *m, const struct bench_row *rows,
		     size_t n, char **ret);

#endif
