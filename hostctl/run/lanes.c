// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lanes of a run (runner-priv.h): hostctl run -j N runs N lanes at
 * once, each a coroutine of the one thread that runs libvirt's event
 * loop, and one spare VM booted ahead that the next lane needing a fresh
 * VM takes. A lane's wait yields (vm_set_yield()), and lanes_run() turns
 * the loop once whenever every lane has had its turn, so no callback
 * ever runs in the middle of a lane's work. Here too: the shared VM of
 * the scenarios without boots, booted fresh (KVM falling back to TCG)
 * or taken from the spare.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <libvirt/virterror.h>

#include "run/runner-priv.h"
#include "vm/confine.h"
#include "vm/domain.h"
#include "vm/vm.h"

/* Each lane's stack, of which only what it touches is ever memory. */
#define RUNNER_LANE_STACK (8 << 20)

static void cache_verdict(struct run_ctx *c)
{
	if (!c->sh->probing)
		return;
	/* A failed write only costs a probe next time. */
	accel_cache_write(c->o->cache_dir, c->sh->host_key, c->sh->env.accel);
	c->sh->probing = false;
}

/*
 * Boot a fresh shared VM and wait for its hello, falling back from KVM
 * to TCG when KVM turns out unusable. On failure, returns a negative
 * errno with a malloc'd reason in *why.
 */
static int boot_shared(struct run_ctx *c, char **why)
{
	struct guest *g = c->g;
	char err[1024], what[1200];
	struct domain_config dc = { 0 };
	struct vm *vm;
	uint64_t bound;
	char *xml;
	int r;

	for (;;) {
		c->sh->env.firmware = runner_firmware();
		guest_name(g);
		if (g->cloud && guest_cloud_overlay(g, err, sizeof(err)) < 0) {
			*why = strdup(err);
			return -EIO;
		}
		guest_domain(g, &dc);
		r = confine_domain(&dc, err, sizeof(err));
		if (r < 0) {
			*why = strdup(err);
			return r;
		}
		r = domain_xml(&dc, &xml);
		if (r < 0) {
			*why = strdup("generating the domain XML failed");
			return r;
		}
		guest_fresh(g);
		r = guest_start(g, xml, SCN_END_RUNNING, "booting", err,
				sizeof(err));
		free(xml);
		if (r < 0 && c->sh->env.accel == DOMAIN_ACCEL_KVM &&
		    c->o->accel == ACCEL_AUTO) {
			/* QEMU under nested KVM can die at once, too. */
			c->sh->env.accel = DOMAIN_ACCEL_TCG;
			c->sh->probing = true;
			cache_verdict(c);
			continue;
		}
		if (r < 0) {
			*why = strdup(err);
			return r;
		}
		bound = c->sh->env.accel == DOMAIN_ACCEL_KVM ?
				RUNNER_HELLO_KVM_MS :
			c->sh->env.icount ? RUNNER_HELLO_ICOUNT_MS :
					    RUNNER_HELLO_TCG_MS;
		bound = runner_scaled(c->o, bound);
		if (g->cloud)
			bound *= RUNNER_CLOUD_BOOT_SCALE;
		r = guest_wait_up(g, bound);
		if (r == 0) {
			cache_verdict(c);
			return 0;
		}
		if (r == -ETIMEDOUT && c->sh->env.accel == DOMAIN_ACCEL_KVM &&
		    c->o->accel == ACCEL_AUTO) {
			/* Nested KVM that hangs after the firmware: use TCG. */
			guest_destroy(g);
			c->sh->env.accel = DOMAIN_ACCEL_TCG;
			c->sh->probing = true;
			cache_verdict(c);
			continue;
		}
		vm = g->vm;
		if (r == -ETIMEDOUT)
			snprintf(what, sizeof(what),
				 "no hello from %s (%s) within %" PRIu64 " s",
				 g->label, domain_accel_name(c->sh->env.accel),
				 bound / 1000);
		else
			snprintf(what, sizeof(what), "%s died before hello: %s",
				 g->label, vm_dead_reason(vm));
		if (vm_proto_error(vm) == -EPROTONOSUPPORT)
			c->sh->stop = STOP_VERSION;
		if (r == -EINTR) {
			/* A signal, or a result file that failed. */
			c->sh->stop = c->sh->env.write_err ? STOP_WRITE :
							     STOP_SIGNAL;
			snprintf(what, sizeof(what), "%s: %s", g->label,
				 c->sh->stop);
		}
		if (vm_proto_error(vm))
			snprintf(what, sizeof(what), "%s: %s", g->label,
				 vm_dead_reason(vm));
		if (!vm_proto_error(vm) && r != -EINTR)
			vm_console_drain(vm);
		*why = vm_proto_error(vm) || r == -EINTR ?
			       strdup(what) :
			       guest_console_reason(what, g->console);
		guest_destroy(g);
		return r == -ETIMEDOUT ? r : -EIO;
	}
}

/* A lane waits for the spare's VM @vm to be up. */
struct spare_wait {
	struct run_ctx *sp;
	struct vm *vm;
};

/*
 * Up, or no more the spare's VM (the spare's coroutine destroyed it, so
 * that it must not be looked at): checked before vm_wait() reads @vm.
 */
static bool spare_up(void *arg)
{
	struct spare_wait *w = arg;

	return w->sp->g->vm != w->vm || w->sp->g->sess.hello_seen;
}

/*
 * The spare's VM, when it is up or booting, becomes lane @c's (it waits
 * for the hello of one booting): their guests swap
 * (each guest stays where its VM's callbacks find it), and the spare
 * boots the next. Returns whether the lane got it.
 */
static bool take_spare(struct run_ctx *c)
{
	struct run_ctx *sp = c->sh->spare;
	struct guest *mine = c->g;
	struct spare_wait w;

	if (!sp || !sp->g->vm || vm_dead(sp->g->vm))
		return false;
	/* Still booting: the rest of its boot is shorter than a whole one. */
	w.sp = sp;
	w.vm = sp->g->vm;
	if (!sp->g->sess.hello_seen &&
	    vm_wait(w.vm, spare_up, &w, runner_scaled(c->o, RUNNER_HELLO_TCG_MS)) < 0)
		return false;
	if (sp->g->vm != w.vm || !sp->g->sess.hello_seen || vm_dead(w.vm))
		return false;
	c->g = sp->g;
	sp->g = mine;
	sp->g->cloud = c->o->all_cloud;
	sp->g->nic = false;
	c->g->events = c->evlog;
	sp->g->events = sp->evlog;
	runner_note_accel(c);
	return true;
}

/*
 * A VM for the implicit boot of scenario @i: the shared one while it may
 * go on, else a fresh one (the spare's, when one is up). Returns 0, or a negative errno with the
 * scenario finished as error.
 */
int lane_shared_vm(struct run_ctx *c, size_t i)
{
	const struct scenario *s = c->scn[i];
	struct res_scenario *sc = &c->run->v[i];
	bool cloud = c->o->all_cloud || s->cloud;
	char *reason = NULL;
	int r;

	if (cloud && !c->sh->env.cloud) {
		res_scenario_finish(
			sc, VERDICT_ERROR,
			"needs the cloud image, which this run could not prepare (hostctl said why as it began)");
		return -EINVAL;
	}
	if (c->g->vm && c->ran && s->fresh_vm) {
		snprintf(c->fresh, sizeof(c->fresh), "%s asks for a fresh VM",
			 s->name);
		guest_stop(c->g, true);
	}
	if (c->g->vm && c->g->cloud != cloud) {
		snprintf(c->fresh, sizeof(c->fresh), "%s runs on the %s image",
			 s->name, cloud ? "cloud" : "initramfs");
		guest_stop(c->g, true);
	}
	if (c->g->vm && c->g->nic != s->nic) {
		snprintf(c->fresh, sizeof(c->fresh), "%s runs on a VM %s a NIC",
			 s->name, s->nic ? "with" : "without");
		guest_stop(c->g, true);
	}
	if (!c->g->vm && c->sh->spare && c->sh->spare->g->cloud == cloud &&
	    c->sh->spare->g->nic == s->nic && take_spare(c)) {
		c->boot_failures = 0;
		c->ran = 0;
		if (c->stats && c->end_us && c->stats->gaps < 16)
			c->stats->gap_us[c->stats->gaps++] =
				vm_now_us() - c->end_us;
	} else if (!c->g->vm) {
		c->g->cloud = cloud;
		c->g->nic = s->nic;
		r = boot_shared(c, &reason);
		/* The accelerator that ran, even if the guest then died. */
		runner_note_accel(c);
		if (r < 0) {
			res_scenario_finish(sc, VERDICT_ERROR,
					    reason ? reason : "boot failed");
			free(reason);
			if (!c->sh->stop && ++c->boot_failures >= 2)
				c->sh->stop = "two boots in a row failed";
			return r;
		}
		c->boot_failures = 0;
		c->ran = 0;
		if (c->stats && c->end_us && c->stats->gaps < 16)
			c->stats->gap_us[c->stats->gaps++] =
				vm_now_us() - c->end_us;
	}
	c->ran++;
	snprintf(sc->vm, sizeof(sc->vm), "%s", c->g->label);
	res_set_str(&sc->fresh_vm, c->fresh);
	c->fresh[0] = '\0';
	return 0;
}

/*
 * A lane: the scenario the scheduler gives it, one after another on its
 * VM, until none is left or the run stops.
 */
static void lane_run(struct run_ctx *c)
{
	struct run_shared *sh = c->sh;

	while (!sh->env.write_err && !sh->stop) {
		size_t i = sched_next(&sh->sched);

		if (i == SCHED_NONE)
			break;
		if (i == SCHED_WAIT) {
			/* Its resource is another lane's: the loop turns. */
			if (vm_loop_step() < 0)
				break;
			continue;
		}
		runner_scenario(c, i);
		runner_take_losses(c, &c->run->v[i]);
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
 * does not cost a boot. Two boots in a row that fail end it.
 */
static void spare_run(struct run_ctx *c)
{
	struct run_shared *sh = c->sh;
	char *why = NULL;
	int r;

	while (sh->lanes_left && !sh->stop && c->boot_failures < 2 &&
	       sched_pending(&sh->sched)) {
		if (boot_shared(c, &why) < 0) {
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
		r = vm_wait(c->g->vm, spare_done, c, UINT64_MAX / 2000);
		if (r == -EINTR)
			break;
		if (r < 0)
			guest_destroy(c->g); /* it died idle: the next */
	}
	guest_stop(c->g, true);
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

/* Lane @l's coroutine, to start in lane_entry(). 0, or -1 with errno. */
static int lane_prepare(struct run_shared *sh, struct run_ctx *l)
{
	l->stack = mmap(NULL, RUNNER_LANE_STACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
			-1, 0);
	if (l->stack == MAP_FAILED) {
		l->stack = NULL;
		return -1;
	}
	if (getcontext(&l->uc) < 0)
		return -1;
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
void lanes_run(struct run_shared *sh, struct run_ctx *lanes,
		      unsigned int n)
{
	unsigned int k, alive, all = n;

	for (k = 0; n > 1 && k < n; k++) {
		if (lane_prepare(sh, &lanes[k]) < 0) {
			fprintf(stderr,
				"hostctl run: no stack for lane %u: %s; one lane, no spare VM\n",
				k + 1, strerror(errno));
			n = 1;
			sh->spare = NULL;
		}
	}
	if (n == 1) {
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

