/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hostctl bench's state (verb-bench.c), and its libvirt measurements
 * (bench-vm.c): each a runner run in a child process of its own.
 */
#ifndef VLALAB_HOSTCTL_BENCH_PRIV_H
#define VLALAB_HOSTCTL_BENCH_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli/bench-raw.h"
#include "guest/guest.h"
#include "results/bench-table.h"
#include "run/runner.h"
#include "run/setup.h"
#include "scenario/scenario.h"

/* One bench: what it was asked, and its figures. */
struct bench {
	const char *connect, *machine, *subset;
	struct setup_kernel k;
	enum accel_choice accel;
	unsigned int runs, jobs;
	bool run_all;
	const char *json; /* --json FILE, or NULL */
	struct setup su;
	struct scenario s, fails;
	struct bench_raw raw;
	char accel_used[16];
	/* Boots, restores, and the gaps after a failure: a VM booted then,
	 * one restored then (run -j 1), the spare (run -j N). */
	struct guest_stats boot, rest, gap, rgap, sgap;
	unsigned int restore_lost;
	uint64_t step[BENCH_RUNS_MAX], step_own[BENCH_RUNS_MAX];
	uint64_t raw_boot[BENCH_RUNS_MAX], raw_rest[BENCH_RUNS_MAX];
	uint64_t pair[BENCH_RUNS_MAX];
	unsigned int nstep, nraw_boot, nraw_rest, npair;
	uint64_t wall[BENCH_RUNS_MAX], wall_j[BENCH_RUNS_MAX];
	uint64_t ratio[BENCH_RUNS_MAX];
	unsigned int nwall;
	unsigned int subset_failed; /* timed runs that did not exit 0 */
	int subset_lost; /* a -j run's exit that was no run (2, 3), or 0 */
	double load[2];
};

/*
 * One libvirt boot (run @i of bench/trivial-read) into b->boot, and for a
 * pass the per-step figures; the accelerator it used into b->accel_used.
 * 0, or -errno after saying why.
 */
int bench_time_boot(struct bench *b, unsigned int i);

/*
 * One VM restored from its saved image as run restores it (run @i of
 * bench/trivial-read), into b->rest; one that booted instead is counted
 * in b->restore_lost, not timed. 0, or -errno after saying why.
 */
int bench_time_restore(struct bench *b, unsigned int i);

/*
 * Run @i of a gap: bench/fails, then bench/trivial-read, which the
 * failure sends to a fresh VM (restored with @restore, the spare's with
 * @spare); @stats gets the gap. 0, or -errno after saying why.
 */
int bench_time_gap(struct bench *b, unsigned int i, bool restore, bool spare,
		   struct guest_stats *stats);

/*
 * Where the gaps of @st that restored a VM went, stage by stage
 * (enum guest_gap_stage): a detail line each, under the gap's own.
 */
void bench_gap_stages(FILE *f, const struct guest_stats *st);

#endif
