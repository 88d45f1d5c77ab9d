/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of a run share (runner.h says what a run is): its shared
 * state, its lanes, and the calls between them, which go one way only:
 * runner.c sets a run up and ends it; lanes.c runs the lanes (coroutines)
 * and the spare, and writes each scenario's results as it ends;
 * run-scenario.c runs one scenario, boot by boot; shared-vm.c boots the
 * VM the scenarios without boots share.
 */
#ifndef VLALAB_RUNNER_PRIV_H
#define VLALAB_RUNNER_PRIV_H

#include <stdbool.h>
#include <stdint.h>
#include <ucontext.h>

#include "crash/postmortem.h"
#include "guest/guest.h"
#include "run/runner.h"
#include "run/schedule.h"
#include "vm/owner.h"

/* Why a run stops booting VMs. */
#define STOP_VERSION GUEST_WHY_VERSION
#define STOP_SIGNAL GUEST_WHY_SIGNAL
#define STOP_WRITE GUEST_WHY_WRITE

/* What the lanes of a run share (one lane without -j). */
struct run_shared {
	struct guest_env env; /* env.accel: the accelerator now */
	struct owner owner; /* this hostctl, on each of its domains */
	bool probing; /* the verdict is not cached yet */
	char host_key[1024];
	const char *stop; /* why no more VMs boot, or NULL */
	unsigned int bundles; /* post-mortem bundles written */
	struct sched sched; /* which scenario a free lane takes */
	/* The hosts a lane runs on (runner_opts.hosts; one without), their
	 * names in results; env.host is the running lane's. */
	struct vm_host *hosts[RUN_HOSTS_MAX];
	const char *host_names[RUN_HOSTS_MAX];
	unsigned int nhosts;
	/* Taken out of the run: its connection failed, or two boots in a
	 * row on one of its lanes (shared-vm.c); said once. */
	bool host_dead[RUN_HOSTS_MAX], host_told[RUN_HOSTS_MAX];
	/* The lanes' coroutines: the scheduler's context, the lane running. */
	ucontext_t main_uc;
	struct run_ctx *cur;
	unsigned int lanes_left; /* lanes that have not ended */
	/* The spare (runner_opts.spare): a VM booted ahead, or NULL. */
	struct run_ctx *spare;
	/* Fresh VMs restored (runner_opts.restore), restores that failed
	 * and booted instead (the first is told), images made. */
	unsigned int restored, restore_failed, images_made;
};

/* One lane: its VM, one at a time, and the scenarios it runs on it. */
struct run_ctx {
	const struct runner_opts *o;
	struct scenario *const *scn;
	struct res_run *run;
	struct guest_stats *stats;
	struct run_shared *sh;
	unsigned int host; /* the one it runs on, in sh->hosts */
	/* The VM running now, shared or a scenario's own: one of guests[],
	 * or the spare's, which a lane that needs a fresh VM takes. */
	struct guest *g;
	unsigned int ran; /* scenarios the shared VM ran */
	unsigned int boot_failures; /* shared VMs in a row that did not boot */
	/* Crashes and hangs (judge.c): post-mortem options. */
	struct pm_opts pm;
	char fresh[PROTO_NAME_MAX + 128]; /* why the next VM is a fresh one */
	uint64_t end_us; /* when its last boot's steps ended (guest_stats) */
	/* The stages of the gap from then to its next fresh VM, so far
	 * (runner_gap_stage()). */
	uint64_t gap_stage_us[8];
	/* Its log in events.jsonl (c->g->events): the run's for the first
	 * lane, its own of the same file (boundlog_open_more()) for others. */
	struct boundlog events;
	bool events_open;
	struct boundlog *evlog; /* the log its guest writes to, or NULL */
	struct vm *spare_vm; /* the spare's: the VM it waits on */
	bool is_spare; /* the spare's coroutine, no lane */
	/* A lane of several: its coroutine, its stack, whether it ended. */
	ucontext_t uc;
	void *stack;
	bool finished;
};

/*
 * shared-vm.c: guest_start(), and on success events.jsonl's line that names
 * the libvirt host the VM runs on, {"vm":"vmN","host":"libvirt","uri":U}.
 */
int runner_guest_start(struct guest *g, const char *xml, enum scn_boot_end end,
		       const char *what, char *err, size_t errlen);

/*
 * shared-vm.c: stage @stage of lane @c's gap to a fresh VM is done now:
 * when, from its last scenario's end (guest_stats.gap_stage_us[]).
 */
void runner_gap_stage(struct run_ctx *c, enum guest_gap_stage stage);

/* shared-vm.c: a hello bound for this run's kernel (boot_scale). */
uint64_t runner_scaled(const struct runner_opts *o, uint64_t ms);
/* shared-vm.c: the accelerator and clock that ran, for the results. */
void runner_note_accel(struct run_ctx *c);
/*
 * The accelerator now in env.accel is the run's verdict: cached for the
 * next runs on this host (when it was being probed), probing over.
 * Every VM that may be the probe's (the shared VM, a scenario's own)
 * settles it the same way: KVM when its guest said hello within
 * RUNNER_HELLO_KVM_MS, TCG when it did not or QEMU died at its start.
 */
void runner_accel_settled(struct run_ctx *c);
/* KVM turned out unusable here: TCG from now on, and cached so. */
void runner_accel_fall_back(struct run_ctx *c);
/*
 * shared-vm.c: boot a fresh shared VM and wait for its hello, falling
 * back from KVM to TCG when KVM turns out unusable. On failure, returns a
 * negative errno with a malloc'd reason in *why.
 */
int shared_vm_boot(struct run_ctx *c, char **why);
/*
 * shared-vm.c: a VM for the implicit boot of scenario @i: the shared one
 * while it may go on, else a fresh one (the spare's, when one is up).
 * Returns 0, or a negative errno with a malloc'd reason in *why (NULL:
 * out of memory).
 */
int shared_vm_take(struct run_ctx *c, size_t i, char **why);

/*
 * run-scenario.c: run scenario @i, boot by boot: its implicit boot on the
 * shared VM, or each of its boots on a VM of its own.
 */
void runner_scenario(struct run_ctx *c, size_t i);

/* lanes.c: scenario @sc ended: its lines go out (progress.h); a KTAP
 * stream that cannot be written stops the run. */
void runner_scenario_out(struct run_ctx *c, const struct res_scenario *sc);
/* lanes.c: summary.json as the run stands, marked incomplete. */
void runner_checkpoint(struct run_ctx *c);
/* lanes.c: run the @n lanes of @lanes, the spare last if there is one. */
void lanes_run(struct run_shared *sh, struct run_ctx *lanes, unsigned int n);

#endif
