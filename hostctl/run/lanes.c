// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lanes of a run (runner-priv.h): hostctl run -j N runs N lanes at
 * once, each a coroutine of the one thread that runs libvirt's event
 * loop, and one spare VM booted ahead that the next lane needing a fresh
 * VM takes (shared-vm.c). A lane's wait yields (vm_set_yield()), and
 * lanes_run() turns the loop once whenever every lane has had its turn,
 * so no callback ever runs in the middle of a lane's work. After each
 * scenario a lane writes its results: its lines, its losses and
 * summary.json's checkpoint.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <libvirt/virterror.h>

#include "crash/verdict.h"
#include "fileio.h"
#include "results/progress.h"
#include "results/rundir.h"
#include "run/runner-priv.h"
#include "vm/confine.h"
#include "vm/domain.h"
#include "vm/vm.h"

/* Scenario @sc ended: its lines go out (progress.h); a KTAP stream that
 * cannot be written stops the run. */
void runner_scenario_out(struct run_ctx *c, const struct res_scenario *sc)
{
	const char *name = NULL;
	int r = progress_result(c->o->progress, sc, &name);

	if (r < 0)
		guest_write_failed(&c->sh->env, name, r);
}

/*
 * summary.json as the run stands, marked incomplete: what a hostctl
 * killed from here on leaves behind. A failure stops the run.
 */
void runner_checkpoint(struct run_ctx *c)
{
	char path[PATH_MAX];
	int r;

	r = res_summary_write(c->o->run_dir, c->run, RES_COMPLETE_NO);
	if (r < 0) {
		snprintf(path, sizeof(path), "%s/" RUNDIR_SUMMARY,
			 c->o->run_dir);
		guest_write_failed(&c->sh->env, path, r);
	}
}

/*
 * Scenario @sc is over: its part of events.jsonl ends (its tail written
 * after the cut), and the guest output it lost (events, kmsg records,
 * console bytes) goes into its result.
 */
static void take_losses(struct run_ctx *c, struct res_scenario *sc)
{
	uint64_t cut = 0;
	int r;

	sc->kmsg_dropped += c->g->kmsg_dropped;
	c->g->kmsg_dropped = 0;
	sc->console_cut_bytes += guest_console_cut(c->g);
	if (!c->g->events)
		return;
	r = boundlog_part_end(c->g->events, &cut);
	sc->events_cut_bytes += cut;
	if (r < 0)
		guest_write_failed(&c->sh->env, c->g->events->path, r);
}

/*
 * Whether lane @c's host failed (several hosts, its connection gone): it
 * is taken out of the run, said once. The scenario @i that just ran on it
 * (SIZE_MAX: none) is pending again for another host, once, or else is
 * an error, its verdict decided as a scenario the host could not run.
 */
static bool host_failed(struct run_ctx *c, size_t i)
{
	struct run_shared *sh = c->sh;
	const char *name = sh->host_names[c->host];
	char what[RES_HOST_MAX + 64];
	struct res_scenario *sc;
	bool left = false;

	if (sh->nhosts < 2 ||
	    (!sh->host_dead[c->host] && vm_host_alive(sh->hosts[c->host])))
		return false;
	sh->host_dead[c->host] = true;
	if (!sh->host_told[c->host]) {
		sh->host_told[c->host] = true;
		progress_clear(c->o->progress);
		fprintf(stderr,
			"hostctl run: libvirt host '%s' failed; it is taken out of the run\n",
			name);
	}
	if (i == SIZE_MAX)
		return true;
	for (unsigned int k = 0; k < sh->nhosts; k++)
		left |= !sh->host_dead[k];
	sc = &c->run->v[i];
	res_scenario_free(sc);
	if (runner_result_init(c->scn[i], sc) < 0)
		snprintf(sc->name, sizeof(sc->name), "%s", c->scn[i]->name);
	if (left && sched_retry(&sh->sched, i))
		return true;
	snprintf(what, sizeof(what), "libvirt host '%s' failed while it ran%s",
		 name, left ? ", on its second host" : ", and no host is left");
	(void)verdict_decide_unrun(c->scn[i], sc, VERDICT_CAUSE_HOST, what);
	snprintf(sc->host, sizeof(sc->host), "%s", name);
	sched_done(&sh->sched, i);
	runner_scenario_out(c, sc);
	if (!sh->env.write_err)
		runner_checkpoint(c);
	return true;
}

/*
 * A scenario returned: a gap to a fresh VM may begin, judged, decided and
 * its VM torn down so far (the teardown's own time beside).
 */
static void gap_begin(struct run_ctx *c)
{
	const struct guest_stats *st = c->stats;

	memset(c->gap_stage_us, 0, sizeof(c->gap_stage_us));
	runner_gap_stage(c, GUEST_GAP_SCENARIO);
	if (st && !c->g->vm && st->boots > 0 && st->boots <= 16)
		c->gap_stage_us[GUEST_GAP_TEARDOWN] =
			st->teardown_us[st->boots - 1];
}

/* Each lane's stack, of which only what it touches is ever memory. */
#define RUNNER_LANE_STACK (8 << 20)

/*
 * A lane: the scenario the scheduler gives it, one after another on its
 * VM, until none is left or the run stops.
 */
static void lane_run(struct run_ctx *c)
{
	struct run_shared *sh = c->sh;

	while (!sh->env.write_err && !sh->stop && !host_failed(c, SIZE_MAX)) {
		uint64_t t0;
		/* A VM it has is a clean one (runner_scenario()). */
		size_t i = sched_next(
			&sh->sched,
			c->g->vm ? sched_vm(c->g->cloud, c->g->nic) : 0);

		/* Over several hosts, a running scenario may come back. */
		if (i == SCHED_NONE &&
		    (sh->nhosts < 2 || !sched_running(&sh->sched)))
			break;
		if (i == SCHED_NONE || i == SCHED_WAIT) {
			/* Its resource is another lane's: the loop turns. */
			if (vm_loop_step() < 0)
				break;
			continue;
		}
		snprintf(c->run->v[i].host, sizeof(c->run->v[i].host), "%s",
			 sh->host_names[c->host]);
		t0 = vm_now_us();
		runner_scenario(c, i);
		c->run->v[i].wall_ms = (vm_now_us() - t0) / 1000;
		gap_begin(c);
		take_losses(c, &c->run->v[i]);
		if (host_failed(c, i))
			break;
		sched_done(&sh->sched, i);
		runner_scenario_out(c, &c->run->v[i]);
		if (!sh->env.write_err)
			runner_checkpoint(c);
		if (sh->env.write_err)
			sh->stop = STOP_WRITE;
	}
	guest_stop(c->g, true);
}

/* The spare's wait ends: a lane took its VM, or it is needed no more. */
static bool spare_done(void *arg)
{
	struct run_ctx *c = arg;

	return c->g->vm != c->spare_vm || !c->sh->lanes_left || c->sh->stop ||
	       !sched_pending(&c->sh->sched);
}

/*
 * The spare: while scenarios are pending, one VM booted and up ahead of
 * the lane that will need a fresh one (take_spare()), so that a failure
 * does not cost a boot, and paused while it waits. Two boots in a row
 * that fail end it.
 */
static void spare_run(struct run_ctx *c)
{
	struct run_shared *sh = c->sh;
	char *why = NULL;
	int r;

	while (sh->lanes_left && !sh->stop && c->boot_failures < 2 &&
	       sched_pending(&sh->sched)) {
		if (shared_vm_boot(c, &why) < 0) {
			free(why);
			why = NULL;
			c->boot_failures++;
			continue;
		}
		c->boot_failures = 0;
		/* A lane waiting for its hello may have taken it already. */
		if (!c->g->vm)
			continue;
		c->spare_vm = c->g->vm;
		/* Paused until a lane takes it (take_spare() resumes it):
		 * idle under icount, it would take a core from the lanes. */
		(void)vm_pause(c->g->vm, true);
		r = vm_wait(c->g->vm, spare_done, c, UINT64_MAX / 2000);
		if (r == -EINTR)
			break;
		if (r < 0)
			guest_destroy(c->g); /* it died idle: the next */
	}
	/* Its shutdown needs it running. */
	if (c->g->vm)
		(void)vm_pause(c->g->vm, false);
	guest_stop(c->g, true);
}

/* Lane @l runs now: the VMs it starts are its host's. */
static void lane_enter(struct run_shared *sh, struct run_ctx *l)
{
	sh->env.host = sh->hosts[l->host];
	sh->env.host_name = sh->host_names[l->host];
}

/* vm.c's yield: the lane running hands the loop back to the scheduler. */
static void lane_yield(void *data)
{
	struct run_shared *sh = data;

	swapcontext(&sh->cur->uc, &sh->main_uc);
}

/* The lanes' coroutines start here; makecontext() passes no pointer. */
static struct run_shared *lanes_sh;

static void lane_entry(void)
{
	struct run_ctx *c = lanes_sh->cur;

	if (c->is_spare) {
		spare_run(c);
	} else {
		lane_run(c);
		lanes_sh->lanes_left--;
	}
	c->finished = true;
}

/* Lane @l's coroutine, to start in lane_entry(). 0, or a negative errno. */
static int lane_prepare(struct run_shared *sh, struct run_ctx *l)
{
	l->stack = mmap(NULL, RUNNER_LANE_STACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
			-1, 0);
	if (l->stack == MAP_FAILED) {
		l->stack = NULL;
		return -errno;
	}
	if (getcontext(&l->uc) < 0)
		return -errno;
	l->uc.uc_stack.ss_sp = l->stack;
	l->uc.uc_stack.ss_size = RUNNER_LANE_STACK;
	l->uc.uc_link = &sh->main_uc;
	makecontext(&l->uc, lane_entry, 0);
	return 0;
}

/*
 * Run the @n coroutines of @lanes (the lanes, and the spare last if there
 * is one): one lane alone runs on this stack; several as coroutines of
 * this thread, each until its wait yields (vm_set_yield()), and the event
 * loop turns once whenever each has had its turn. One thread, one loop:
 * every callback runs between the lanes' turns, never during one.
 */
void lanes_run(struct run_shared *sh, struct run_ctx *lanes, unsigned int n)
{
	unsigned int k, alive, all = n;
	int r;

	for (k = 0; n > 1 && k < n; k++) {
		r = lane_prepare(sh, &lanes[k]);
		if (r < 0) {
			fprintf(stderr,
				"hostctl run: no stack for lane %u: %s; one lane, no spare VM\n",
				k + 1, strerror(-r));
			n = 1;
			sh->spare = NULL;
		}
	}
	if (n == 1) {
		lane_enter(sh, &lanes[0]);
		lane_run(&lanes[0]);
		goto out;
	}
	lanes_sh = sh;
	vm_set_yield(lane_yield, sh);
	do {
		alive = 0;
		for (k = 0; k < n; k++) {
			if (lanes[k].finished)
				continue;
			sh->cur = &lanes[k];
			lane_enter(sh, &lanes[k]);
			swapcontext(&sh->main_uc, &lanes[k].uc);
			alive += !lanes[k].finished;
		}
		if (alive && vm_loop_once() < 0) {
			/* Every wait ends; the lanes stop as for a signal. */
			fprintf(stderr,
				"hostctl run: libvirt's event loop failed: %s\n",
				virGetLastErrorMessage());
			vm_interrupt();
		}
	} while (alive);
	vm_set_yield(NULL, NULL);
	lanes_sh = NULL;
out:
	for (k = 0; k < all; k++)
		if (lanes[k].stack)
			munmap(lanes[k].stack, RUNNER_LANE_STACK);
}
