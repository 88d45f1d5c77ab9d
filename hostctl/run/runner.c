// SPDX-License-Identifier: GPL-2.0-only
/*
 * Boot, run, replace: the loop that turns selected scenarios into verdicts.
 * Every scenario is a list of boots, and every boot runs the same way
 * (run_boot()): its run request, the wait for its end, and what that end
 * means (guest_ended()); the scheduler here gives each boot its VM. A
 * scenario without boots is one implicit boot on the VM the scenarios
 * share: one VM serves them in order as long as each passes cleanly, and
 * after any that did not the next starts on a fresh VM (vm_reusable()).
 * A scenario with boots or a disk gets a VM of its own for each boot;
 * what spans its boots (disks, a session carried over a power-off, the
 * marker rule) is boots.c's.
 *
 * After each boot the crash hook (judge_boot(), judge.c) attributes the
 * console's reports and writes a post-mortem bundle for a dead or hung
 * guest; after the last, expect_incident and xfail apply. Two shared VMs
 * in a row that do not come up, or a guest with another protocol
 * version, end the run: every scenario left is then an error naming the
 * cause. Each VM is booted and stopped through guest.c.
 *
 * hostctl run -j N runs N lanes at once, each all of the above with a VM
 * of its own at a time: the scheduler (schedule.c) gives a free lane the
 * longest scenario left whose exclusive resource (a disk image's name)
 * no other lane holds. The lanes are coroutines of the one thread that
 * runs libvirt's event loop: a lane's wait yields (vm_set_yield()), and
 * run_lanes() turns the loop once whenever every lane has had its turn,
 * so no callback ever runs in the middle of a lane's work. What they
 * share (the accelerator, the stop, the bundles' count, summary.json,
 * the progress and KTAP lines) is struct run_shared; events.jsonl is one
 * file, in which each lane has its own parts (boundlog_open_more()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <libvirt/virterror.h>

#include "run/boots.h"
#include "vm/confine.h"
#include "vm/domain.h"
#include "fileio.h"
#include "guest/guest.h"
#include "crash/judge.h"
#include "vm/owner.h"
#include "results/progress.h"
#include "run/runner.h"
#include "run/schedule.h"
#include "vm/uri.h"
#include "vm/vm.h"
#include "results/rundir.h"

/* Each lane's stack, of which only what it touches is ever memory. */
#define RUNNER_LANE_STACK (8 << 20)

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
	/* The lanes' coroutines: the scheduler's context, the lane running. */
	ucontext_t main_uc;
	struct run_ctx *cur;
	unsigned int lanes_left; /* lanes that have not ended */
	/* The spare (runner_opts.spare): a VM booted ahead, or NULL. */
	struct run_ctx *spare;
};

/* One lane: its VM, one at a time, and the scenarios it runs on it. */
struct run_ctx {
	const struct runner_opts *o;
	struct scenario *const *scn;
	struct res_run *run;
	struct guest_stats *stats;
	struct run_shared *sh;
	/* The VM running now, shared or a scenario's own: one of guests[],
	 * or the spare's, which a lane that needs a fresh VM takes. */
	struct guest *g;
	unsigned int ran; /* scenarios the shared VM ran */
	unsigned int boot_failures; /* shared VMs in a row that did not boot */
	/* Crashes and hangs (judge.c): post-mortem options. */
	struct pm_opts pm;
	char fresh[PROTO_NAME_MAX + 128]; /* why the next VM is a fresh one */
	uint64_t end_us; /* when its last boot's steps ended (guest_stats) */
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

/* One scenario while its boots run. */
struct scn_run {
	const struct scenario *s;
	struct res_scenario *sc;
	struct boots *bs; /* its VMs of its own (boots.c), or NULL: shared */
	uint64_t t0_us; /* when the last run request went out */
	int resumed; /* this boot resumed the last one's guest; -1: no carry */
	bool carry; /* the next boot may resume this one's guest */
	bool stopped; /* this boot's guest stopped as its end expects */
	bool ended; /* this boot's VM ended otherwise, or must go */
	bool survived; /* the last boot judged left its guest alive */
	bool no_verdict; /* a protocol error or a signal: the host's business */
};

int runner_result_init(const struct scenario *s, struct res_scenario *ret)
{
	struct res_scenario sc = { 0 };

	snprintf(sc.name, sizeof(sc.name), "%s", s->name);
	sc.verdict = VERDICT_ERROR;
	/* The cleanup steps follow the main ones, numbered on. */
	sc.nsteps = s->nsteps + s->ncleanup;
	sc.ncleanup = s->ncleanup;
	sc.steps = calloc(sc.nsteps ? sc.nsteps : 1, sizeof(*sc.steps));
	if (!sc.steps)
		return -ENOMEM;
	for (size_t i = 0; i < sc.nsteps; i++) {
		sc.steps[i].index = i;
		sc.steps[i].cleanup = i >= s->nsteps;
		snprintf(sc.steps[i].kind, sizeof(sc.steps[i].kind), "%s",
			 s->steps[i].kind);
		snprintf(sc.steps[i].name, sizeof(sc.steps[i].name), "%s",
			 s->steps[i].name);
	}
	*ret = sc;
	return 0;
}

/* A hello bound for this run's kernel (runner_opts.boot_scale). */
static uint64_t scaled(const struct runner_opts *o, uint64_t ms)
{
	return o->boot_scale > 1 ? ms * o->boot_scale : ms;
}

/* qboot when it is installed, else SeaBIOS (NULL). */
static const char *firmware(void)
{
	return access(DOMAIN_QBOOT_PATH, R_OK) == 0 ? DOMAIN_QBOOT_PATH : NULL;
}

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
		c->sh->env.firmware = firmware();
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
		bound = scaled(c->o, bound);
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

/*
 * Whether the VM that ran @sc may run the next scenario: only after a
 * clean pass. A scenario that failed, timed out, crashed, errored or was
 * an expected failure may have stopped before its clean-up; one with an
 * incident or a leak left the kernel changed, and one whose cleanup list
 * failed left what it could not undo. Either way the next one gets a
 * fresh VM, so that one failure cannot cascade; @why says which.
 */
static bool vm_reusable(const struct res_scenario *sc, char *why, size_t len)
{
	if (sc->nincidents)
		snprintf(why, len, "after %s: a kernel incident", sc->name);
	else if (sc->verdict != VERDICT_PASS)
		snprintf(why, len, "after %s: %s", sc->name,
			 proto_verdict_name(sc->verdict));
	else if (sc->cleanup_failed)
		snprintf(why, len, "after %s: its cleanup failed", sc->name);
	else if (sc->nleaks)
		snprintf(why, len, "after %s: the audit found a leak",
			 sc->name);
	else
		return true;
	return false;
}

static size_t next_pending(const struct res_run *run, size_t i)
{
	while (i < run->n && run->v[i].done)
		i++;
	return i;
}

/* Scenario @sc ended: its lines go out (progress.h); a KTAP stream that
 * cannot be written stops the run. */
static void scenario_out(struct run_ctx *c, const struct res_scenario *sc)
{
	const char *name = NULL;
	int r = progress_result(c->o->progress, sc, &name);

	if (r < 0)
		guest_write_failed(&c->sh->env, name, r);
}

/*
 * Every scenario that no lane took and that has no verdict yet: "not run:
 * <stop>".
 */
static void finish_rest(struct run_ctx *c)
{
	struct sched *q = &c->sh->sched;
	char what[256];

	snprintf(what, sizeof(what), "not run: %s", c->sh->stop);
	for (size_t i = 0; i < q->n; i++) {
		if (q->v[i].state != SCHED_PENDING || c->run->v[i].done)
			continue;
		q->v[i].state = SCHED_DONE;
		res_scenario_finish(&c->run->v[i], VERDICT_ERROR, what);
		scenario_out(c, &c->run->v[i]);
	}
}

/* Decide where to start: the cached verdict, or a KVM probe. */
/* The accelerator and clock that ran, for the results. */
static void note_accel(struct run_ctx *c)
{
	bool icount = c->sh->env.icount && c->sh->env.accel == DOMAIN_ACCEL_TCG;

	snprintf(c->run->accelerator, sizeof(c->run->accelerator), "%s",
		 domain_accel_name(c->sh->env.accel));
	snprintf(c->run->clock, sizeof(c->run->clock), "%s",
		 icount ? "icount" : "wall");
}

static void choose_accel(struct run_ctx *c)
{
	char hv[64] = "unknown";
	enum domain_accel cached;

	c->sh->probing = false;
	if (c->o->accel == ACCEL_TCG) {
		c->sh->env.accel = DOMAIN_ACCEL_TCG;
		return;
	}
	if (c->o->accel == ACCEL_KVM) {
		c->sh->env.accel = DOMAIN_ACCEL_KVM;
		return;
	}
	if (!accel_kvm_usable()) {
		c->sh->env.accel = DOMAIN_ACCEL_TCG;
		return;
	}
	vm_host_hv_version(c->sh->env.host, hv, sizeof(hv));
	if (accel_host_key(hv, c->sh->host_key, sizeof(c->sh->host_key)) == 0 &&
	    accel_cache_read(c->o->cache_dir, c->sh->host_key, &cached) == 0) {
		c->sh->env.accel = cached;
		return;
	}
	c->sh->env.accel = DOMAIN_ACCEL_KVM;
	c->sh->probing = true;
}

/*
 * The scenario's verdict from boot @k: "boot K: why" for a scenario with
 * boots, @why for the implicit boot. Once.
 */
static void finish(struct scn_run *r, size_t k, enum proto_verdict v,
		   const char *why)
{
	if (r->bs)
		boots_finish(r->bs, k, v, why);
	else if (!r->sc->done)
		res_scenario_finish(r->sc, v, why);
}

/* finish() with the console tail and crash title (guest.c). */
static void finish_console(struct run_ctx *c, struct scn_run *r, size_t k,
			   enum proto_verdict v, const char *what)
{
	char *reason;

	if (c->g->vm)
		vm_console_drain(c->g->vm);
	reason = guest_console_reason(what, c->g->console);
	finish(r, k, v, reason ? reason : what);
	free(reason);
}

/*
 * Boot @k's VM ended, or must (guest_ended()'s @end, for the wait that
 * returned @e). Returns 2 when its guest stopped as the boot expects,
 * else 0: the scenario is finished.
 */
static int on_end(struct run_ctx *c, struct scn_run *r, size_t k,
		  struct guest_end *end, int e)
{
	if (end->stopped) {
		r->stopped = true;
		return 2;
	}
	r->ended = true;
	if (e == -EINTR)
		r->no_verdict = true;
	if (end->stop)
		c->sh->stop = end->stop;
	finish(r, k, end->verdict, end->reason ? end->reason : end->what);
	free(end->reason);
	return 0;
}

/*
 * Wait for the view @v of boot @vk, which the guest of boot @k runs, to
 * end; @e is the send's error, if any (the wait is then over). Returns 1
 * when the view ended and passed, 0 when the scenario is finished, 2 when
 * the guest stopped as boot @k expects.
 */
static int wait_view(struct run_ctx *c, struct scn_run *r, size_t k, size_t vk,
		     struct res_scenario *v, int e)
{
	const struct scenario *s = r->s;
	struct guest_stats *st = c->stats;
	struct guest *g = c->g;
	struct guest_end end;

	/* The guest bounds the steps and the cleanup list; the host allows
	 * slack on top. */
	g->hang = NULL;
	if (e == 0)
		e = guest_wait_run(
			g, s->steps + (s->nboots ? s->boots[vk].first_step : 0),
			guest_host_bound(g, boots_bound_ms(s, vk)));
	if (guest_ended(g, e, k, v, &end)) {
		if (e < 0)
			v->duration_ms = (vm_now_us() - r->t0_us) / 1000;
		return on_end(c, r, k, &end, e);
	}
	if (st && st->boots > 0 && st->boots <= 16 &&
	    !st->run_us[st->boots - 1])
		st->run_us[st->boots - 1] = vm_now_us() - r->t0_us;
	if (v->verdict != VERDICT_PASS) {
		finish(r, vk, v->verdict, v->reason ? v->reason : "failed");
		return 0;
	}
	return 1;
}

/*
 * The one way a boot runs, for every scenario: boot @k on the guest's VM,
 * which is up. Settle a resume of boot @k - 1, send the boot's steps,
 * wait for their end and see the VM end as the boot expects. Returns 1 to
 * go on with the next boot (r->carry: it may resume this one's guest), 0
 * when the scenario is finished; r->ended says whether the VM ended, or
 * must go.
 */
static int run_boot(struct run_ctx *c, struct scn_run *r, size_t k)
{
	struct res_scenario *v = r->bs ? &r->bs->views[k] : r->sc;
	struct guest *g = c->g;
	char what[PROTO_TEXT_MAX + 256];
	int e, w;

	if (g->sess.carry != SESSION_CARRY_NONE) {
		struct res_scenario *prev = &r->bs->views[k - 1];

		r->resumed = g->sess.carry == SESSION_CARRY_RESUMED;
		if (r->resumed && g->sess.cur == prev) {
			w = wait_view(c, r, k, k - 1, prev, 0);
			if (w != 1)
				return w == 2 ? (r->carry = true, 1) : 0;
		}
		if (boots_carried(r->bs, k, r->resumed) < 0)
			return 0;
	}
	if (v->nsteps) {
		progress_status(c->o->progress, "[%s %s] %s: starting",
				g->label, domain_accel_name(c->sh->env.accel),
				r->sc->name);
		r->t0_us = vm_now_us();
		e = guest_send_run(g, r->s, k, v);
		if (e < 0 && g->sess.cur != v) {
			/* Nothing went out. */
			snprintf(what, sizeof(what),
				 "cannot send the steps: %s", strerror(-e));
			finish(r, k, VERDICT_ERROR, what);
			return 0;
		}
		w = wait_view(c, r, k, k, v, e);
		if (w == 0)
			return 0;
		if (w == 2) {
			r->carry = true;
			goto end;
		}
	}
	if (g->end != SCN_END_RUNNING) {
		/* Its steps are done: the power-off must come in its bound. */
		e = vm_wait(g->vm, NULL, NULL, r->s->boots[k].timeout_ms);
		if (e != -EPIPE ||
		    !vm_guest_stopped(g->vm, GUEST_STOP_EVENT_MS)) {
			snprintf(what, sizeof(what),
				 "expected the guest to %s after its steps; %s",
				 g->end == SCN_END_POWEROFF ? "power off" :
							      "reboot",
				 e == -ETIMEDOUT ? "it kept running" :
						   vm_dead_reason(g->vm));
			finish_console(c, r, k, VERDICT_FAIL, what);
			return 0;
		}
		r->stopped = true;
		r->carry = true;
	}
end:
	if (r->bs)
		boots_note(r->bs, "boot_end", k, g->label,
			   boots_end_name(g->end), r->resumed);
	return 1;
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
	    vm_wait(w.vm, spare_up, &w, scaled(c->o, RUNNER_HELLO_TCG_MS)) < 0)
		return false;
	if (sp->g->vm != w.vm || !sp->g->sess.hello_seen || vm_dead(w.vm))
		return false;
	c->g = sp->g;
	sp->g = mine;
	sp->g->cloud = c->o->all_cloud;
	sp->g->nic = false;
	c->g->events = c->evlog;
	sp->g->events = sp->evlog;
	note_accel(c);
	return true;
}

/*
 * A VM for the implicit boot of scenario @i: the shared one while it may
 * go on, else a fresh one (the spare's, when one is up). Returns 0, or a negative errno with the
 * scenario finished as error.
 */
static int shared_vm(struct run_ctx *c, size_t i)
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
		note_accel(c);
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
 * Start boot @k's VM, of the scenario's own, and wait until its guest is
 * up. Returns 1 when it is, 0 when the scenario is finished, 2 when the
 * guest stopped as its boot expects before it was up (the next boot
 * starts afresh).
 */
static int own_vm(struct run_ctx *c, struct scn_run *r, size_t k)
{
	const struct scn_boot *b = &r->s->boots[k];
	char err[1024], what[1200], status[PROTO_NAME_MAX + 64];
	struct domain_config dc = { 0 };
	struct guest *g = c->g;
	struct guest_end end;
	char *xml;
	int e;

	if (r->carry)
		guest_carry(g);
	else
		guest_fresh(g);
	r->carry = false;
	/* Its disks come first, from vda: never the cloud image's. */
	g->cloud = false;
	g->nic = r->s->nic;
	guest_name(g);
	guest_domain(g, &dc);
	if (boots_domain(r->bs, k, c->sh->env.cmdline, &dc) < 0)
		return 0;
	if (confine_domain(&dc, err, sizeof(err)) < 0) {
		finish(r, k, VERDICT_ERROR, err);
		return 0;
	}
	if (domain_xml(&dc, &xml) < 0) {
		finish(r, k, VERDICT_ERROR, "generating the domain XML failed");
		return 0;
	}
	boots_note(r->bs, "boot", k, g->label, NULL, -1);
	snprintf(status, sizeof(status), "%s: boot %zu of %zu", r->s->name,
		 k + 1, r->s->nboots);
	e = guest_start(g, xml, b->end, status, err, sizeof(err));
	free(xml);
	if (e < 0) {
		finish(r, k, VERDICT_ERROR, err);
		return 0;
	}
	e = guest_wait_up(g, scaled(c->o, RUNNER_HELLO_BOOT_MS));
	if (e == 0)
		return 1;
	if (e == -ETIMEDOUT) {
		g->hang = "nothing from the guest after its start";
		snprintf(what, sizeof(what),
			 "nothing from %s within %" PRIu64 " s of its start",
			 g->label, scaled(c->o, RUNNER_HELLO_BOOT_MS) / 1000);
		finish_console(c, r, k, VERDICT_ERROR, what);
		return 0;
	}
	guest_ended(g, e, k, NULL, &end);
	return on_end(c, r, k, &end, e);
}

/*
 * Boot @k's own VM goes, asked to shut down first only if its guest is
 * between run requests: a scenario's VM is never reused, and its guest
 * may be hung or mid-step.
 */
static void own_vm_gone(struct run_ctx *c, struct scn_run *r, size_t k)
{
	bool died;

	if (!c->g->vm)
		return;
	died = vm_dead(c->g->vm);
	guest_stop(c->g, c->g->sess.hello_seen && !c->g->sess.cur);
	boots_vm_gone(r->bs, k, died);
}

/*
 * The crash hook after boot @k, the scenario's last to run when @last:
 * its console through the crash judge while a VM that died or hung still
 * exists (incidents, a bundle; judge.c). A guest that powered off or
 * reset as its boot's end says did not die; its VM is gone already, and
 * needs no dump.
 */
static void judge_boot(struct run_ctx *c, struct scn_run *r, size_t k,
		       bool last)
{
	struct guest *g = c->g;
	const struct res_scenario *cur = g->sess.cur;
	struct judge_in in = {
		.pm = &c->pm,
		.vm = g->vm,
		.label = g->label,
		.console = g->console,
		.tl = &g->tl,
		.bundles = &c->sh->bundles,
		.s = r->s,
		.sc = r->sc,
		.run = c->run,
		.hang = g->hang,
		.open_step = -1,
	};

	/* A protocol error or a signal is the host's business, not a crash. */
	if (g->vm && vm_proto_error(g->vm))
		r->no_verdict = true;
	/* A VM that never started has nothing to judge. */
	if (r->no_verdict || (!g->vm && !r->stopped))
		return;
	/*
	 * An error on the shared VM that left its guest running is the
	 * guest's or the host's own: it stays an error, unjudged.
	 */
	if (!r->bs && r->sc->verdict == VERDICT_ERROR && !r->ended &&
	    !r->s->expect.set) {
		r->no_verdict = true;
		return;
	}
	/*
	 * A guest that ran a scenario expecting an incident gets a moment for
	 * the console to catch up, and must still be alive after it.
	 */
	if (last && !r->ended && !r->stopped && r->s->expect.set &&
	    vm_wait(g->vm, NULL, NULL, RUNNER_SETTLE_MS) == -EPIPE)
		r->ended = true;
	if (cur && g->sess.open_step >= 0)
		in.open_step = g->sess.open_step + (cur->steps - r->sc->steps);
	in.survived = !g->hang &&
		      (r->stopped || (!r->ended && !vm_dead(g->vm)));
	r->survived = in.survived;
	/* The judge reads the console log: all the console has said. */
	if (g->vm)
		vm_console_drain(g->vm);
	c->pm.memory_mib = r->bs ? r->s->boots[k].memory_mib :
				   DOMAIN_MEMORY_MIB_DEFAULT;
	judge_incidents(&in);
}

/* expect_incident and xfail, once the scenario's boots are done. */
static void judge_end(const struct scn_run *r)
{
	struct judge_in in = {
		.s = r->s, .sc = r->sc, .survived = r->survived, .open_step = -1
	};

	if (!r->no_verdict)
		judge_verdict(&in);
}

/*
 * Run scenario @i, boot by boot: its implicit boot on the shared VM, or
 * each of its boots on a VM of its own.
 */
static void run_scenario(struct run_ctx *c, size_t i)
{
	struct scn_run r = {
		.s = c->scn[i],
		.sc = &c->run->v[i],
		.survived = true,
	};
	size_t nboots = r.s->nboots ? r.s->nboots : 1;
	uint64_t t0 = vm_now_us();

	r.sc->incident_expected = r.s->expect.set;
	c->g->whole = NULL;
	if (r.s->nboots) {
		/* Its VMs are its own: the shared one goes. */
		guest_stop(c->g, true);
		snprintf(c->fresh, sizeof(c->fresh),
			 "after %s, which runs on VMs of its own", r.s->name);
		c->sh->env.firmware = firmware();
		note_accel(c);
		r.bs = calloc(1, sizeof(*r.bs));
		if (!r.bs) {
			res_scenario_finish(r.sc, VERDICT_ERROR,
					    "out of memory");
			return;
		}
		/* The session runs one view per boot: the timeline counts the
		 * scenario's steps. */
		c->g->whole = r.sc;
		if (boots_begin(r.bs, r.s, r.sc, c->o->run_dir, c->g->events,
				c->o->keep, c->o->machine) < 0)
			goto out;
	}
	for (size_t k = 0; k < nboots; k++) {
		bool last;
		int more;

		r.stopped = r.ended = false;
		r.resumed = -1;
		if (!r.bs && shared_vm(c, i) < 0)
			return;
		more = r.bs ? own_vm(c, &r, k) : 1;
		if (more == 1)
			more = run_boot(c, &r, k);
		c->end_us = vm_now_us();
		/* repro's shell: after the last boot to run, its VM alive. */
		if (c->o->hold && (!r.bs || !more || k + 1 == nboots) &&
		    c->g->vm && !vm_dead(c->g->vm))
			c->o->hold(c->o->hold_data, c->g->vm, c->g->label,
				   c->g->name, r.sc);
		last = !more || k + 1 == nboots;
		/*
		 * A guest that stopped as expected needs no dump, so its VM
		 * goes first; any other is judged while it still exists.
		 */
		if (r.bs && r.stopped)
			own_vm_gone(c, &r, k);
		judge_boot(c, &r, k, last);
		if (r.bs)
			own_vm_gone(c, &r, k);
		if (!more)
			break;
	}
	if (r.bs)
		boots_verdict(r.bs);
	judge_end(&r);
	/* The shared VM goes on only after a clean pass. */
	if (!r.bs &&
	    (!vm_reusable(r.sc, c->fresh, sizeof(c->fresh)) || r.ended))
		guest_stop(c->g, true);
out:
	if (r.bs) {
		r.sc->duration_ms = (vm_now_us() - t0) / 1000;
		boots_end(r.bs);
		free(r.bs);
	}
	c->g->whole = NULL;
}

/*
 * summary.json as the run stands, marked incomplete: what a hostctl
 * killed from here on leaves behind. A failure stops the run.
 */
static void checkpoint(struct run_ctx *c)
{
	char path[PATH_MAX];
	char *text;
	int r;

	if (snprintf(path, sizeof(path), "%s/" RUNDIR_SUMMARY, c->o->run_dir) >=
	    (int)sizeof(path)) {
		guest_write_failed(&c->sh->env, path, -ENAMETOOLONG);
		return;
	}
	c->run->complete = RES_COMPLETE_NO;
	r = res_summary_json(c->run, &text);
	if (r == 0) {
		r = fileio_write_atomic(path, text, strlen(text));
		free(text);
	}
	if (r < 0)
		guest_write_failed(&c->sh->env, path, r);
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

static void say_reaped(const char *name, const struct owner *o,
		       const char *failed, void *data)
{
	if (failed)
		fprintf(stderr,
			"hostctl: domain '%s' of a dead hostctl (pid %d, run %s): cannot destroy it: %s\n",
			name, (int)o->pid, o->run_id, failed);
	else
		fprintf(stderr,
			"hostctl: destroyed domain '%s' of a dead hostctl (pid %d, run %s)\n",
			name, (int)o->pid, o->run_id);
}

/*
 * Mark each domain with this hostctl (owner.h), and on a libvirt daemon
 * destroy those of dead ones: their QEMUs outlive a hostctl killed with
 * -9, where the embedded driver's die with it (vm.c's watchdog).
 */
static void reap_orphans(struct run_ctx *c, const char *uri)
{
	char err[1024];
	int r;

	r = owner_self(c->o->run_id, &c->sh->owner);
	if (r < 0) {
		fprintf(stderr,
			"hostctl: who am I (/proc/self/stat, hostname): %s; domains go unmarked\n",
			strerror(-r));
		return;
	}
	c->sh->env.owner = &c->sh->owner;
	if (vm_reap_orphans(c->sh->env.host, c->sh->owner.host, say_reaped,
			    NULL, err, sizeof(err)) < 0)
		fprintf(stderr,
			"hostctl: libvirt '%s': %s; orphans of dead runs not reaped\n",
			uri, err);
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
		run_scenario(c, i);
		take_losses(c, &c->run->v[i]);
		sched_done(&sh->sched, i);
		scenario_out(c, &c->run->v[i]);
		if (!sh->env.write_err)
			checkpoint(c);
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
static void run_lanes(struct run_shared *sh, struct run_ctx *lanes,
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

/*
 * The scheduler's list: the scenarios of @run not done yet, each with the
 * duration an earlier run recorded and the disk images it needs. @slugs
 * holds the resources' names.
 */
static int sched_fill(struct run_shared *sh, const struct runner_opts *o,
		      struct scenario *const *scn, const struct res_run *run,
		      char (**slugs)[PROTO_NAME_MAX])
{
	struct sched *q = &sh->sched;

	q->v = calloc(run->n ? run->n : 1, sizeof(*q->v));
	*slugs = calloc(run->n ? run->n : 1, sizeof(**slugs));
	if (!q->v || !*slugs)
		return -ENOMEM;
	q->n = run->n;
	q->longest_first = o->jobs > 1;
	for (size_t i = 0; i < run->n; i++) {
		q->v[i].state = run->v[i].done ? SCHED_DONE : SCHED_PENDING;
		q->v[i].expect_ms = o->expect_ms ? o->expect_ms[i] : 0;
		if (boots_disk_slug(scn[i], (*slugs)[i], sizeof((*slugs)[i])))
			q->v[i].resource = (*slugs)[i];
	}
	return 0;
}

/*
 * Lane @l's guest and, after the first, its own log of events.jsonl's
 * file (boundlog_open_more()).
 */
static void lane_init(struct run_ctx *l, struct guest *g, bool first)
{
	const struct runner_opts *o = l->o;
	int r;

	guest_init(g, &l->sh->env);
	l->g = g;
	g->show_steps = !l->is_spare;
	g->cloud = o->all_cloud; /* the spare boots what most VMs boot */
	g->stats = l->stats;
	l->pm.run_dir = o->run_dir;
	l->pm.vmlinux = o->vmlinux;
	l->pm.tree = o->tree;
	l->pm.dump_max_mb = o->dump_max_mb;
	l->pm.dump_format = o->dump_format;
	snprintf(l->fresh, sizeof(l->fresh), "the run's first VM");
	l->evlog = o->events;
	if (first || !o->events)
		return;
	r = boundlog_open_more(&l->events, o->events);
	if (r < 0)
		guest_write_failed(&l->sh->env, o->events->path, r);
	l->events_open = r == 0;
	l->evlog = r == 0 ? &l->events : NULL;
	g->events = l->evlog;
}

int runner_run(const struct runner_opts *o, struct scenario *const *scn,
	       struct res_run *run, struct guest_stats *stats, char *err,
	       size_t errlen)
{
	struct run_shared sh = { 0 };
	struct run_ctx *lanes = NULL, *c;
	struct guest *guests = NULL;
	char(*slugs)[PROTO_NAME_MAX] = NULL;
	unsigned int n = o->jobs > 1 ? o->jobs : 1, m;
	int r = -ENOMEM;

	if (next_pending(run, 0) == run->n)
		return 0;
	if (n > run->n)
		n = run->n;
	/* The lanes, and the spare's coroutine last. */
	m = n + (o->spare ? 1 : 0);
	lanes = calloc(m, sizeof(*lanes));
	guests = calloc(m, sizeof(*guests));
	if (!lanes || !guests || sched_fill(&sh, o, scn, run, &slugs) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	c = &lanes[0];
	r = vm_host_open(o->uri, &sh.env.host, err, errlen);
	if (r < 0)
		goto out;
	/* Seconds without a word otherwise: say what they were. */
	if (vm_host_probe_ms(sh.env.host))
		fprintf(stderr,
			"hostctl: libvirt probed QEMU's capabilities in "
			"%.1f s (its cache for this root was missing or "
			"outdated)\n",
			vm_host_probe_ms(sh.env.host) / 1000.0);
	for (unsigned int k = 0; k < m; k++)
		lanes[k] = (struct run_ctx){ .o = o,
					     .scn = scn,
					     .run = run,
					     .stats = stats,
					     .sh = &sh,
					     .is_spare = k == n };
	reap_orphans(c, o->uri);
	sh.env.run_dir = o->run_dir;
	sh.env.run_id = o->run_id;
	sh.env.kernel = o->kernel;
	sh.env.initrd = o->initrd;
	sh.env.cmdline = o->cmdline;
	sh.env.machine = o->machine;
	sh.env.icount = o->icount;
	sh.env.vms_dir = o->vms_dir;
	sh.env.ssh_host_key = o->ssh_host_key;
	sh.env.cloud = o->cloud;
	sh.env.keep_overlays = o->keep;
	sh.env.events = o->events;
	sh.env.console_max = (o->console_max_mb ? o->console_max_mb :
						  BOUNDLOG_MAX_MB_DEFAULT)
			     << 20;
	sh.env.progress = o->progress;
	sh.env.silence_scale = o->boot_scale;
	sh.env.vmno = o->vmno ? *o->vmno : 0;
	sh.lanes_left = n;
	sh.spare = o->spare ? &lanes[n] : NULL;
	choose_accel(c);
	for (unsigned int k = 0; k < m; k++)
		lane_init(&lanes[k], &guests[k], k == 0);
	checkpoint(c);
	if (!sh.env.write_err)
		run_lanes(&sh, lanes, m);
	if (sh.env.write_err && !sh.stop)
		/* The first checkpoint failed: nothing ran. */
		sh.stop = STOP_WRITE;
	if (sh.stop)
		finish_rest(c);
	for (unsigned int k = 0; k < m; k++) {
		guest_stop(lanes[k].g, true);
		if (lanes[k].events_open &&
		    (r = boundlog_close(&lanes[k].events)) < 0)
			guest_write_failed(&sh.env, o->events->path, r);
	}
	progress_clear(o->progress);
	for (unsigned int k = 0; k < m; k++)
		guest_fini(&guests[k]);
	vm_host_close(sh.env.host);
	if (o->vmno)
		*o->vmno = sh.env.vmno;
	r = 0;
	if (sh.env.write_err) {
		snprintf(err, errlen, "%s", sh.env.write_what);
		r = RUNNER_WRITE_FAILED;
	} else {
		/* Scenarios a signal left unrun make the run incomplete. */
		run->complete = sh.stop && !strcmp(sh.stop, STOP_SIGNAL) ?
					RES_COMPLETE_NO :
					RES_COMPLETE_YES;
	}
out:
	free(lanes);
	free(guests);
	free(sh.sched.v);
	free(slugs);
	return r;
}
