/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside the run library (spec.h): the plan every round of a run shares
 * (plan.c: the selection, the kernel and image, the cloud image, the run
 * directory, -j auto) and one round (round.c). Not for callers outside
 * hostctl/run/.
 */
#ifndef VLALAB_RUN_PLAN_H
#define VLALAB_RUN_PLAN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/progress.h"
#include "results/results.h"
#include "run/setup.h"
#include "run/spec.h"
#include "scenario/scenario.h"
#include "vm/cloud.h"

/*
 * A flavour that selected scenarios name ("flavour") and the run's kernel
 * is not: its own build and image, on which they run after the others.
 */
struct plan_flavour {
	char name[SCN_FLAVOUR_MAX];
	struct setup su;
	bool su_ok; /* built; else its scenarios are errors */
	char vmlinux[PATH_MAX + 16];
};

/* What every round of a run shares: the selection, the build, the run dir. */
struct run_plan {
	struct scn_errors errs;
	struct scn_set set;
	size_t *idx, n;
	struct scenario **scn;
	struct setup su;
	bool su_ok;
	struct cloud_image cloud;
	bool cloud_ok; /* some VM boots the cloud image */
	/* The results root (store_root()): run ids, latest, history. */
	char results[PATH_MAX];
	char run_dir[PATH_MAX], run_id[64];
	/* hostctl repro: the scenario's steps before the cut, and the cut
	 * (struct res_run's repro_*); 0 for a run. */
	uint32_t repro_steps, repro_until;
	uint64_t start_ms; /* CLOCK_MONOTONIC when the run began */
	/* --exec: the output bytes printed, and whether the bound cut it. */
	uint64_t exec_bytes;
	bool exec_cut;
	char vmlinux[PATH_MAX + 16], tree[PATH_MAX + 32];
	struct progress prog;
	/* The flavours of the scenarios that name one the run's kernel is
	 * not, and per selected scenario its kernel: 0 the run's, k + 1
	 * fl[k]'s (plan_flavours()). */
	struct plan_flavour *fl;
	size_t nfl;
	size_t *grp;
};

/*
 * Load and select the scenarios of @s, build or reuse the kernel and
 * image, and make the run directory. 0, or a negative errno after saying
 * why on stderr (the run library is the top of a run, as setup.c is).
 */
int plan_run(const struct run_spec *s, struct run_plan *p);
void plan_free(struct run_plan *p);

/*
 * @run's results for the selected scenarios, and p->scn: requires that
 * the kernel does not meet, and images that do not fit, make a scenario
 * skip right away, without booting; so does a scenario naming a flavour
 * that this run cannot build (--flavour, --tree, --kernel, --initrd,
 * --image), and one whose flavour's build failed is an error. Each is
 * checked against its own group's build. 0 or -ENOMEM.
 */
int plan_results(const struct run_spec *s, struct run_plan *p,
		 struct res_run *run);

/* --clock auto: icount when one of the scenarios measures (a bench step). */
bool plan_icount(const struct run_spec *s, const struct run_plan *p);

/*
 * -j auto: the host's CPUs, and its available memory against the largest
 * VM the selection boots.
 */
unsigned int plan_jobs_auto(const struct run_plan *p);

/* The build of group @g (0: the run's kernel, k + 1: p->fl[k]), or
 * NULL when that flavour's build failed. */
const struct setup *plan_setup(const struct run_plan *p, size_t g);

/* How one round went (round.c). */
enum round_result {
	ROUND_RAN, /* its verdicts say how it went */
	ROUND_NOT_RUN, /* it could not start, after saying why */
	ROUND_NO_LIBVIRT, /* connecting to libvirt failed */
	ROUND_WRITE_FAILED, /* a result file could not be written */
};

/*
 * One round: run the selection into @dir (events.jsonl, console logs,
 * bundles, summary.json) under the id @run_id, booting every guest with
 * @cmdline (NULL: the default). @run gets the results, with the kernel's
 * manifest, as far as they got. Says why on stderr when it did not run.
 */
enum round_result run_round(const struct run_spec *s, struct run_plan *p,
			    const char *dir, const char *run_id,
			    const char *cmdline, struct res_run *run);

/* ---- exec.c: hostctl run --exec ---- */

/* The synthesized scenario's name, and the output printed at most. */
#define EXEC_SCENARIO "exec/command"
#define EXEC_OUTPUT_MAX (1024 * 1024)

/* The selection of s->exec: one scenario made in memory, its one step
 * an exec step of s->exec. 0, or -errno after saying why. */
int plan_exec(const struct run_spec *s, struct run_plan *p);
/* runner_opts' output hook, @data the plan: the piece on stdout or
 * stderr, escaped, up to EXEC_OUTPUT_MAX bytes in all. */
void exec_output(void *data, const struct proto_output *o);
/* The exec step's got, "exit status N" or "killed by signal N (SIG..)",
 * as an exit code (N, or EXEC_EXIT_SIGNAL + N); -1 for anything else. */
int exec_status(const char *got);
/* The exit code of the exec run @run (enum exec_exit), after a line on
 * stderr for anything but the command's own status; @sig: the signal
 * that cut it short (128 + @sig, as a shell's), or 0. */
int exec_exit(const struct res_run *run, const char *run_dir, int sig);

/* @dir/@name replaced by @text, all or nothing. 0 or -errno. */
int run_write_file(const char *dir, const char *name, const char *text);

#endif
