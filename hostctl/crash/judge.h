/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The crash hook of the runner and of boots.c: after each scenario (each
 * boot of a scenario with boots), read the VM's console,
 * join its reports to the scenario's steps, add a hang the host detected,
 * write a post-mortem bundle when the guest died or hung, and apply the
 * expect_incident and xfail rules to the verdict.
 */
#ifndef VLALAB_JUDGE_H
#define VLALAB_JUDGE_H

#include <stdbool.h>
#include <stdint.h>

#include "crash/incident.h"
#include "crash/postmortem.h"
#include "results/results.h"
#include "scenario/scenario.h"
#include "vm/vm.h"

struct judge_in {
	const struct pm_opts *pm;
	struct vm *vm;
	const char *label; /* "vm3" */
	const char *console; /* its console log */
	const struct incident_timeline *tl;
	unsigned int *bundles; /* bundles written so far in this run */
	const struct scenario *s;
	struct res_scenario *sc;
	struct res_run *run; /* for reports that came after their scenario */
	bool survived; /* the guest still runs */
	const char *hang; /* a hang the host detected, or NULL */
	int64_t open_step; /* the step open when it died or hung, or -1 */
};

/*
 * Judging a scenario, in two halves (runner.c): judge_incidents() after
 * each boot, on that boot's VM and console (incidents and bundle),
 * judge_verdict() once after the last, with @in->survived saying whether
 * the last boot's guest was alive.
 */
void judge_incidents(const struct judge_in *in);
void judge_verdict(const struct judge_in *in);

#endif
