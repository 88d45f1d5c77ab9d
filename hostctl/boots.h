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
#include <stdio.h>

#include "domain.h"
#include "postmortem.h"
#include "results.h"
#include "scenario.h"

struct vm_host;
struct progress;

struct boots_env {
	struct vm_host *host;
	enum domain_accel accel;
	const char *run_dir;
	const char *run_id;
	const char *kernel, *initrd;
	const char *cmdline; /* NULL: domain_default_cmdline */
	const char *firmware; /* or NULL */
	FILE *events; /* events.jsonl */
	struct progress *progress;
	bool keep; /* keep the disk images after the run */
	unsigned int *vmno; /* the runner's VM counter, for unique labels */
	/* "@what: <title>\nconsole ...": the runner's crash reason. */
	char *(*console_reason)(const char *what, const char *console);
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

/*
 * The marker rule across boots: every marker check that found a token
 * must find the one the latest marker set before it reported. A check
 * that saw another token is turned into a fail. Returns the index of the
 * first such step, or -1. Pure: reads and writes @sc only.
 */
ssize_t boots_check_markers(struct res_scenario *sc);

/*
 * @base followed by @args, space-separated, into @buf. Returns 0 or
 * -ENAMETOOLONG.
 */
int boots_cmdline(const char *base, char *const *args, size_t nargs,
		  char *buf, size_t len);

#endif
