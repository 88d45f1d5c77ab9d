/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Stored runs compared: the one-line listing of a run (hostctl runs), the
 * difference between two (hostctl diff) and each scenario's flip rate
 * over several (hostctl flakes). Pure: runs in, text out, so golden
 * tests drive them from summary.json files.
 */
#ifndef VLALAB_HISTORY_H
#define VLALAB_HISTORY_H

#include <stdint.h>
#include <stdio.h>

#include "results/results.h"

/*
 * One line for a stored run: its date (from the run id), the kernel's
 * key (12 digits), the series (patches, those left out), the counts;
 * for a repro's run, "repro to step N of M"; for hostctl run --exec's
 * run, "exec 'CMD'" (the command's first HIST_EXEC_SHOWN bytes, escaped
 * for a terminal, "..." after a longer one).
 */
#define HIST_EXEC_SHOWN 60
void hist_run_line(const struct res_run *run, FILE *f);

struct hist_diff_opts {
	unsigned int pct; /* a duration change beyond this many percent... */
	uint64_t min_ms; /* ...and this many milliseconds is reported */
};

#define HIST_DIFF_PCT_DEFAULT 50
#define HIST_DIFF_MIN_MS_DEFAULT 1000

/*
 * What changed from run @a to run @b: scenarios whose verdict changed,
 * new and removed ones, durations beyond @o. Returns the number of
 * regressions: a scenario that was pass, skip or xfail in @a and is
 * anything else in @b, or a new one that is not pass, skip or xfail.
 */
size_t hist_diff(const struct res_run *a, const struct res_run *b,
		 const struct hist_diff_opts *o, FILE *f);

/*
 * Each scenario's flip rate over @n runs, oldest first: a flip is a
 * verdict that differs from the scenario's verdict in the previous run
 * on the same kernel (runs on another kernel are a change, not a
 * flake). Prints the scenarios that flipped, most often first, with a
 * strip of their verdicts, then a total line. Returns the number of
 * scenarios that flipped, or -ENOMEM.
 */
int hist_flakes(const struct res_run *runs, size_t n, FILE *f);

/* The flips of scenario @name over @runs, and the pairs compared. */
void hist_flips(const struct res_run *runs, size_t n, const char *name,
		size_t *ret_flips, size_t *ret_pairs);

/* Scenario @name in @run, or NULL. */
const struct res_scenario *hist_find(const struct res_run *run,
				     const char *name);

#endif
