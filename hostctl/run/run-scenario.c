// SPDX-License-Identifier: GPL-2.0-only
/*
 * One scenario, boot by boot (runner-priv.h). Every boot runs the same
 * way (run_boot()): its run request, the wait for its end, and what that
 * end means (guest_ended()). A scenario without boots is one implicit
 * boot on the VM the scenarios share (lanes.c): one VM serves them in
 * order as long as each passes cleanly, and after any that did not the
 * next starts on a fresh VM (vm_reusable()). A scenario with boots or a
 * disk gets a VM of its own for each boot; what spans its boots (disks,
 * a session carried over a power-off, the marker rule) is boots.c's.
 * After each boot the crash hook (judge_boot(), judge.c) attributes the
 * console's reports and writes a post-mortem bundle for a dead or hung
 * guest; after the last, expect_incident and xfail apply.
 */
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/judge.h"
#include "crash/verdict.h"
#include "results/progress.h"
#include "run/boots.h"
#include "run/runner-priv.h"
#include "vm/confine.h"
#include "vm/domain.h"
#include "vm/pool.h"
#include "vm/vm.h"

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

/* One scenario while its boots run. */
struct scn_run {
	const struct scenario *s;
	struct res_scenario *sc;
	struct boots *bs; /* its VMs of its own (boots.c), or NULL: shared */
	uint64_t t0_us; /* when the last run request went out */
	int resumed; /* this boot resumed the last one's guest; -1: no carry */
	bool carry; /* the next boot may resume this one's guest */
	/*
	 * How this boot's VM ended (guest_vm_end()): VM_END_RUNNING while
	 * no wait ended it, a stop its boot expects (vm_end_stopped()), or
	 * another end, after which the VM must go.
	 */
	enum vm_end end;
	bool survived; /* the last boot judged left its guest alive */
	bool no_verdict; /* a protocol error or a signal: the host's business */
	/* What the verdict is decided from (verdict.h), once at the end. */
	struct verdict_facts f;
	/* The implicit boot's view: the session records the guest's word
	 * into it; its steps are the scenario's. */
	struct res_scenario view;
};

/* How far a boot got (own_vm(), run_boot(), wait_view()). */
enum boot_step {
	BOOT_OVER, /* the scenario is over: its facts say why */
	BOOT_GO_ON, /* its guest is up, or its steps passed: go on */
	BOOT_STOPPED, /* its guest stopped as its boot expects */
};

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

/* verdict_note() with the console tail and crash title (guest.c). */
static void note_console(struct run_ctx *c, struct scn_run *r, size_t k,
			 enum verdict_cause cause, const char *what)
{
	char *reason;

	if (c->g->vm)
		vm_console_drain(c->g->vm);
	reason = guest_console_reason(what, c->g->console);
	verdict_note(&r->f, cause, k, reason ? reason : what);
	free(reason);
}

/*
 * Boot @k's VM ended, or must (guest_ended()'s @end, for the wait that
 * returned @e). Returns BOOT_STOPPED when its guest stopped as the boot
 * expects, else BOOT_OVER.
 */
static enum boot_step on_end(struct run_ctx *c, struct scn_run *r, size_t k,
			     struct guest_end *end, int e)
{
	r->end = end->end;
	if (vm_end_stopped(end->end))
		return BOOT_STOPPED;
	if (e == -EINTR)
		r->no_verdict = true;
	if (end->stop)
		c->sh->stop = end->stop;
	verdict_note_end(&r->f, k, end->end,
			 end->reason ? end->reason : end->what);
	free(end->reason);
	return BOOT_OVER;
}

/*
 * Wait for the view @v of boot @vk, which the guest of boot @k runs, to
 * end; @e is the send's error, if any (the wait is then over). Returns
 * BOOT_GO_ON when the view ended and passed, BOOT_OVER when the scenario
 * is over (its facts say why), BOOT_STOPPED when the guest stopped as boot
 * @k expects.
 */
static enum boot_step wait_view(struct run_ctx *c, struct scn_run *r, size_t k,
				size_t vk, struct res_scenario *v, int e)
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
		verdict_note_guest(&r->f, vk, v->verdict, v->reason);
		return BOOT_OVER;
	}
	return BOOT_GO_ON;
}

/*
 * The one way a boot runs, for every scenario: boot @k on the guest's VM,
 * which is up. Settle a resume of boot @k - 1, send the boot's steps,
 * wait for their end and see the VM end as the boot expects. Returns
 * BOOT_GO_ON to go on with the next boot (r->carry: it may resume this
 * one's guest), BOOT_OVER when the scenario is over; r->end says how the
 * VM ended.
 */
static enum boot_step run_boot(struct run_ctx *c, struct scn_run *r, size_t k)
{
	struct res_scenario *v = r->bs ? &r->bs->views[k] : &r->view;
	struct guest *g = c->g;
	char what[PROTO_TEXT_MAX + 256];
	enum vm_end end;
	enum boot_step w;
	int e;

	if (g->sess.carry != SESSION_CARRY_NONE) {
		struct res_scenario *prev = &r->bs->views[k - 1];

		r->resumed = g->sess.carry == SESSION_CARRY_RESUMED;
		if (r->resumed && g->sess.cur == prev) {
			w = wait_view(c, r, k, k - 1, prev, 0);
			if (w == BOOT_OVER)
				return BOOT_OVER;
			if (w == BOOT_STOPPED) {
				r->carry = true;
				return BOOT_GO_ON;
			}
		}
		if (boots_carried(r->bs, k, r->resumed, what, sizeof(what)) <
		    0) {
			verdict_note(&r->f, VERDICT_CAUSE_BOOT, k, what);
			return BOOT_OVER;
		}
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
			verdict_note(&r->f, VERDICT_CAUSE_HOST, k, what);
			return BOOT_OVER;
		}
		w = wait_view(c, r, k, k, v, e);
		if (w == BOOT_OVER)
			return BOOT_OVER;
		if (w == BOOT_STOPPED) {
			r->carry = true;
			goto end;
		}
	}
	if (g->end != SCN_END_RUNNING) {
		/* Its steps are done: the power-off must come in its bound. */
		e = vm_wait(g->vm, NULL, NULL, r->s->boots[k].timeout_ms);
		end = guest_vm_end(g, e);
		if (!vm_end_stopped(end)) {
			snprintf(what, sizeof(what),
				 "expected the guest to %s after its steps; %s",
				 g->end == SCN_END_POWEROFF ? "power off" :
							      "reboot",
				 end == VM_END_TIMEOUT ? "it kept running" :
							 vm_dead_reason(g->vm));
			note_console(c, r, k, VERDICT_CAUSE_BOOT, what);
			return BOOT_OVER;
		}
		r->end = end;
		r->carry = true;
	}
end:
	if (r->bs)
		boots_note(r->bs, "boot_end", k, g->label, vm_end_name(r->end),
			   r->resumed);
	return BOOT_GO_ON;
}

/*
 * Start boot @k's VM, of the scenario's own, and wait until its guest is
 * up. Returns BOOT_GO_ON when it is, BOOT_OVER when the scenario is over,
 * BOOT_STOPPED when the guest stopped as its boot expects before it was
 * up (the next boot starts afresh).
 */
static enum boot_step own_vm(struct run_ctx *c, struct scn_run *r, size_t k)
{
	const struct scn_boot *b = &r->s->boots[k];
	char err[1024], what[1200], status[PROTO_NAME_MAX + 64];
	struct domain_config dc = { 0 };
	struct domain_disk disks[DOMAIN_DISKS_MAX];
	struct guest *g = c->g;
	struct guest_end end;
	bool probe;
	char *xml;
	int e;

again:
	probe = c->sh->probing && c->sh->env.accel == DOMAIN_ACCEL_KVM &&
		c->o->accel == ACCEL_AUTO;
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
	if (boots_domain(r->bs, k, c->sh->env.cmdline, &dc, err, sizeof(err)) <
		    0 ||
	    confine_domain(&dc, err, sizeof(err)) < 0 ||
	    pool_domain(c->sh->env.host, &dc, disks, err, sizeof(err)) < 0) {
		verdict_note(&r->f, VERDICT_CAUSE_HOST, k, err);
		return BOOT_OVER;
	}
	if (domain_xml(&dc, &xml) < 0) {
		verdict_note(&r->f, VERDICT_CAUSE_HOST, k,
			     "generating the domain XML failed");
		return BOOT_OVER;
	}
	boots_note(r->bs, "boot", k, g->label, NULL, -1);
	snprintf(status, sizeof(status), "%s: boot %zu of %zu", r->s->name,
		 k + 1, r->s->nboots);
	e = runner_guest_start(g, xml, b->end, status, err, sizeof(err));
	free(xml);
	if (e < 0 && probe) {
		/* QEMU under nested KVM can die at once (shared-vm.c). */
		runner_accel_fall_back(c);
		goto again;
	}
	if (e < 0) {
		verdict_note(&r->f, VERDICT_CAUSE_HOST, k, err);
		return BOOT_OVER;
	}
	/* The run's first VM may be this one: then it is the KVM probe, as
	 * the shared VM's boot is, and a guest silent past the KVM bound
	 * means nested KVM that hangs after the firmware: TCG, booted
	 * again. Carried sessions never get here probing (their first boot
	 * settled it). */
	e = guest_wait_up(g, probe ? runner_scaled(c->o, RUNNER_HELLO_KVM_MS) :
				     runner_scaled(c->o, RUNNER_HELLO_BOOT_MS));
	if (e == 0 && probe)
		runner_accel_settled(c);
	if (e == 0)
		return BOOT_GO_ON;
	if (e == -ETIMEDOUT && probe) {
		/* Unless another lane settled it meanwhile: then boot again
		 * on what it found. */
		guest_destroy(g);
		if (c->sh->probing && c->sh->env.accel == DOMAIN_ACCEL_KVM)
			runner_accel_fall_back(c);
		goto again;
	}
	if (e == -ETIMEDOUT) {
		g->hang = "nothing from the guest after its start";
		snprintf(what, sizeof(what),
			 "nothing from %s within %" PRIu64 " s of its start",
			 g->label,
			 runner_scaled(c->o, RUNNER_HELLO_BOOT_MS) / 1000);
		note_console(c, r, k, VERDICT_CAUSE_HOST, what);
		return BOOT_OVER;
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
	enum vm_end end;

	if (!c->g->vm)
		return;
	end = guest_vm_end(c->g, VM_END_NOW);
	guest_stop(c->g, c->g->sess.hello_seen && !c->g->sess.cur);
	boots_vm_gone(r->bs, k, end);
}

/*
 * The settle is over once the guest's own clock has run RUNNER_SETTLE_MS
 * past its scenario's end (its heartbeat says so, one a second), when
 * that comes before our clock has: under icount (sleep=off) a guest's
 * idle second passes in a moment of ours, while the wait would spin it
 * on a core that another lane needs.
 */
static bool settled(void *arg)
{
	const struct session *s = arg;

	return s->end_t_us &&
	       s->last_t_us >= s->end_t_us + RUNNER_SETTLE_MS * 1000;
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
	if (r->no_verdict || (!g->vm && !vm_end_stopped(r->end)))
		return;
	/*
	 * An error on a guest that kept running is judged too: it stays an
	 * error (incident_verdict()), but an oops that killed the step's
	 * process is listed as the scenario's incident, not lost.
	 */
	/*
	 * A guest that ran a scenario expecting an incident gets a moment for
	 * the console to catch up, and must still be alive after it: its
	 * steps are over, so a death now is no stop it was to make.
	 */
	if (last && r->end == VM_END_RUNNING && r->s->expect.set &&
	    vm_wait(g->vm, settled, &g->sess, RUNNER_SETTLE_MS) == -EPIPE)
		r->end = vm_end_of(g->vm, -EPIPE, false, VM_END_RUNNING);
	if (cur && g->sess.open_step >= 0)
		in.open_step = g->sess.open_step + (cur->steps - r->sc->steps);
	/* A VM no wait ended is as it stands now. */
	in.survived = !g->hang &&
		      vm_end_survived(r->end == VM_END_RUNNING ?
					      guest_vm_end(g, VM_END_NOW) :
					      r->end);
	r->survived = in.survived;
	/* The judge reads the console log: all the console has said. */
	if (g->vm)
		vm_console_drain(g->vm);
	c->pm.memory_mib = r->bs ? r->s->boots[k].memory_mib :
				   DOMAIN_MEMORY_MIB_DEFAULT;
	judge_incidents(&in);
}

/*
 * The implicit boot's view is over: what the session recorded beside the
 * steps (the guest's duration, the audit's leaks) goes to the scenario.
 */
static void take_view(struct scn_run *r)
{
	struct res_scenario *v = &r->view;

	r->sc->duration_ms = v->duration_ms;
	if (v->nleaks) {
		res_leaks_free(r->sc);
		r->sc->leaks = v->leaks;
		r->sc->nleaks = v->nleaks;
		v->leaks = NULL;
		v->nleaks = 0;
	}
}

/* What the implicit boot's view holds of its own, once decided. */
static void view_free(struct res_scenario *v)
{
	res_leaks_free(v);
	free(v->reason);
	free(v->cleanup_reason);
	v->reason = v->cleanup_reason = NULL;
}

/* The implicit boot's view of scenario @s: the scenario's steps. */
static void view_init(struct scn_run *r)
{
	struct res_scenario *v = &r->view;

	snprintf(v->name, sizeof(v->name), "%s", r->sc->name);
	v->steps = r->sc->steps;
	v->nsteps = r->sc->nsteps;
	v->ncleanup = r->sc->ncleanup;
	v->incident_expected = r->sc->incident_expected;
	r->f.claim = v;
}

/*
 * The scenario's verdict, decided once from what its boots gathered
 * (verdict_decide()); a scenario with boots not ended early passes or
 * fails by the marker rule (bootcheck.c).
 */
static void decide(struct scn_run *r)
{
	if (r->bs && r->f.cause == VERDICT_CAUSE_NONE)
		r->f.bad_marker = boots_check_markers(r->sc);
	if (!r->bs)
		take_view(r);
	/* Out of memory, it stays as it was: an error (runner_result_init()). */
	(void)verdict_decide(&r->f, r->sc);
	verdict_facts_free(&r->f);
	if (!r->bs)
		view_free(&r->view);
}

/*
 * Run scenario @i, boot by boot: its implicit boot on the shared VM, or
 * each of its boots on a VM of its own.
 */
void runner_scenario(struct run_ctx *c, size_t i)
{
	struct scn_run r = {
		.s = c->scn[i],
		.sc = &c->run->v[i],
		.survived = true,
	};
	size_t nboots = r.s->nboots ? r.s->nboots : 1;
	uint64_t t0 = vm_now_us();
	char err[PATH_MAX + 128], *why;

	verdict_facts_init(&r.f, r.s);
	r.sc->incident_expected = r.s->expect.set;
	c->g->whole = NULL;
	if (!r.s->nboots)
		view_init(&r);
	if (r.s->nboots) {
		/* Its VMs are its own: the shared one goes. */
		guest_stop(c->g, true);
		snprintf(c->fresh, sizeof(c->fresh),
			 "after %s, which runs on VMs of its own", r.s->name);
		c->sh->env.firmware = runner_firmware();
		runner_note_accel(c);
		r.bs = calloc(1, sizeof(*r.bs));
		if (!r.bs) {
			verdict_note(&r.f, VERDICT_CAUSE_HOST, VERDICT_WHOLE,
				     "out of memory");
			decide(&r);
			return;
		}
		/* The session runs one view per boot: the timeline counts the
		 * scenario's steps. */
		c->g->whole = r.sc;
		if (boots_begin(r.bs, r.s, r.sc, c->o->run_dir, c->g->events,
				c->o->keep, c->o->machine, err,
				sizeof(err)) < 0) {
			verdict_note(&r.f, VERDICT_CAUSE_HOST, VERDICT_WHOLE,
				     err);
			decide(&r);
			goto out;
		}
	}
	for (size_t k = 0; k < nboots; k++) {
		bool last;
		enum boot_step more;

		r.end = VM_END_RUNNING;
		r.resumed = -1;
		if (!r.bs && shared_vm_take(c, i, &why) < 0) {
			verdict_note(&r.f, VERDICT_CAUSE_HOST, VERDICT_WHOLE,
				     why ? why : "boot failed");
			free(why);
			decide(&r);
			return;
		}
		more = r.bs ? own_vm(c, &r, k) : BOOT_GO_ON;
		if (more == BOOT_GO_ON)
			more = run_boot(c, &r, k);
		c->end_us = vm_now_us();
		/* repro's shell: after the last boot to run, its VM alive. */
		if (c->o->hold &&
		    (!r.bs || more == BOOT_OVER || k + 1 == nboots) &&
		    c->g->vm && !vm_dead(c->g->vm))
			c->o->hold(c->o->hold_data, c->g->vm, c->g->label,
				   c->g->name, r.sc);
		last = more == BOOT_OVER || k + 1 == nboots;
		/*
		 * A guest that stopped as expected needs no dump, so its VM
		 * goes first; any other is judged while it still exists.
		 */
		if (r.bs && vm_end_stopped(r.end))
			own_vm_gone(c, &r, k);
		judge_boot(c, &r, k, last);
		if (r.bs)
			own_vm_gone(c, &r, k);
		if (more == BOOT_OVER)
			break;
	}
	/* expect_incident and xfail, once the scenario's boots are done. */
	r.f.judged = !r.no_verdict;
	r.f.survived = r.survived;
	decide(&r);
	/*
	 * The shared VM goes on only after a clean pass, its view done (the
	 * session must not keep it).
	 */
	if (!r.bs && (!vm_reusable(r.sc, c->fresh, sizeof(c->fresh)) ||
		      !vm_end_survived(r.end) || c->g->sess.cur == &r.view))
		guest_stop(c->g, true);
	/* A scenario_end that came as it stopped is too late to count. */
	if (!r.bs)
		view_free(&r.view);
out:
	if (r.bs) {
		r.sc->duration_ms = (vm_now_us() - t0) / 1000;
		boots_end(r.bs);
		free(r.bs);
	}
	c->g->whole = NULL;
}
