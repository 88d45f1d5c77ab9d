/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenarios with VMs of their own: a persistent disk attached to every
 * boot, and ordered boots, each with its memory, machine, kernel
 * arguments, extra disks, steps and expected end. A boot that ends with
 * the guest powering itself off may be resumed by the next one: the
 * guest's guestd then carries on with the same session (docs/scenarios.md,
 * "Several boots").
 */
#ifndef VLALAB_BOOTS_H
#define VLALAB_BOOTS_H

#include <stdbool.h>

#include "bootcheck.h"
#include "postmortem.h"
#include "results.h"
#include "scenario.h"

struct guest_env;

struct boots_env {
	/* The run's guests (guest.h): host, accelerator, files, progress and
	 * the VM counter that keeps labels unique. */
	struct guest_env *genv;
	bool keep; /* keep the disk images after the run */
	/* Post-mortem bundles (judge.c): the runner's options (the memory is
	 * each boot's own) and its count of bundles written; NULL: none. */
	const struct pm_opts *pm;
	unsigned int *bundles;
};

/*
 * Run scenario @s, which has boots (s->nboots > 0), on fresh VMs, and
 * record its verdict in @sc (from runner_result_init()). Each boot's
 * console goes through the crash judge before its VM goes (incidents, a
 * bundle for a guest that died or hung), and expect_incident and xfail
 * apply once the last boot is done or a boot ended the scenario (judge.h).
 * Returns 0, or
 * -EINTR when a signal interrupted it (@sc is then error).
 */
int boots_run(const struct boots_env *env, const struct scenario *s,
	      struct res_scenario *sc);

#endif
