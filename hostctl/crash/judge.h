/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The crash hook of the runner: after each scenario (each boot of a
 * scenario with boots), read the VM's console, join its reports to the
 * scenario's steps, add a hang the host detected, and write a post-mortem
 * bundle when the guest died or hung. The expect_incident and xfail rules
 * are verdict_decide()'s (verdict.c).
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
 * The crash judge after each boot (run-scenario.c), on that boot's VM and
 * console: incidents and bundle. Its rules (expect_incident, xfail) apply
 * once after the last boot, in verdict_decide() (verdict.c), with
 * whether the last boot's guest survived.
 */
void judge_incidents(const struct judge_in *in);

#endif
