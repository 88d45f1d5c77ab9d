// SPDX-License-Identifier: GPL-2.0-only
/*
 * Boot, run, replace: the loop that turns selected scenarios into verdicts.
 * One VM serves scenarios in order as long as each passes cleanly; the
 * scenario it died in gets crash (with the console tail), timeout or error,
 * and after any scenario that did not pass the next one starts on a fresh
 * VM (vm_reusable()). After each scenario the crash hook
 * (after_one(), judge.c) attributes the console's reports, writes a
 * post-mortem bundle for a dead or hung guest and applies expect_incident
 * and xfail. Two boots in a row that fail, or a guest with another
 * protocol version, end the run: every scenario left is then an error
 * naming the cause. Each VM is booted and stopped through guest.c; a
 * scenario with VMs of its own goes to boots.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "boots.h"
#include "domain.h"
#include "guest.h"
#include "judge.h"
#include "progress.h"
#include "runner.h"
#include "uri.h"
#include "vm.h"

/* Why a run stops booting VMs. */
#define STOP_VERSION GUEST_WHY_VERSION
#define STOP_SIGNAL GUEST_WHY_SIGNAL

struct run_ctx {
	const struct runner_opts *o;
	struct scenario *const *scn;
	struct res_run *run;
	struct guest_stats *stats;
	struct guest_env env; /* env.accel: the accelerator now */
	struct guest g; /* the VM scenarios share (guest.c) */
	bool probing; /* the verdict is not cached yet */
	char host_key[1024];
	const char *stop; /* why no more VMs boot, or NULL */
	/* Crashes and hangs (judge.c): post-mortem options, bundles written. */
	struct pm_opts pm;
	unsigned int bundles;
	char fresh[PROTO_NAME_MAX + 128]; /* why the next VM is a fresh one */
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

/* qboot when it is installed, else SeaBIOS (NULL). */
static const char *firmware(void)
{
	return access(DOMAIN_QBOOT_PATH, R_OK) == 0 ? DOMAIN_QBOOT_PATH : NULL;
}

static void cache_verdict(struct run_ctx *c)
{
	if (!c->probing)
		return;
	/* A failed write only costs a probe next time. */
	accel_cache_write(c->o->cache_dir, c->host_key, c->env.accel);
	c->probing = false;
}

/*
 * Boot a fresh VM and wait for its hello. On failure, returns a negative
 * errno with a malloc'd reason in *why.
 */
static int boot(struct run_ctx *c, char **why)
{
	struct guest *g = &c->g;
	char err[1024], what[1200];
	struct domain_config dc = { 0 };
	struct vm *vm;
	uint64_t bound;
	char *xml;
	int r;

	for (;;) {
		c->env.firmware = firmware();
		guest_name(g);
		guest_domain(g, &dc);
		r = domain_xml(&dc, &xml);
		if (r < 0) {
			*why = strdup("generating the domain XML failed");
			return r;
		}
		guest_fresh(g);
		r = guest_start(g, xml, SCN_END_RUNNING, "booting", err,
				sizeof(err));
		free(xml);
		if (r < 0 && c->env.accel == DOMAIN_ACCEL_KVM &&
		    c->o->accel == ACCEL_AUTO) {
			/* QEMU under nested KVM can die at once, too. */
			c->env.accel = DOMAIN_ACCEL_TCG;
			c->probing = true;
			cache_verdict(c);
			continue;
		}
		if (r < 0) {
			*why = strdup(err);
			return r;
		}
		bound = c->env.accel == DOMAIN_ACCEL_KVM ? RUNNER_HELLO_KVM_MS :
							   RUNNER_HELLO_TCG_MS;
		r = guest_wait_up(g, bound);
		if (r == 0) {
			cache_verdict(c);
			return 0;
		}
		if (r == -ETIMEDOUT && c->env.accel == DOMAIN_ACCEL_KVM &&
		    c->o->accel == ACCEL_AUTO) {
			/* Nested KVM that hangs after the firmware: use TCG. */
			guest_destroy(g);
			c->env.accel = DOMAIN_ACCEL_TCG;
			c->probing = true;
			cache_verdict(c);
			continue;
		}
		vm = g->vm;
		if (r == -ETIMEDOUT)
			snprintf(what, sizeof(what),
				 "no hello from %s (%s) within %" PRIu64 " s",
				 g->label, domain_accel_name(c->env.accel),
				 bound / 1000);
		else
			snprintf(what, sizeof(what), "%s died before hello: %s",
				 g->label, vm_dead_reason(vm));
		if (vm_proto_error(vm) == -EPROTONOSUPPORT)
			c->stop = STOP_VERSION;
		if (r == -EINTR) {
			c->stop = STOP_SIGNAL;
			snprintf(what, sizeof(what), "%s: %s", g->label,
				 STOP_SIGNAL);
		}
		if (vm_proto_error(vm))
			snprintf(what, sizeof(what), "%s: %s", g->label,
				 vm_dead_reason(vm));
		*why = vm_proto_error(vm) || r == -EINTR ?
			       strdup(what) :
			       guest_console_reason(what, g->console);
		guest_destroy(g);
		return r == -ETIMEDOUT ? r : -EIO;
	}
}

/*
 * Run scenario @i on the shared VM. Returns 0 when the VM can take the
 * next one, 1 when it must be replaced.
 */
static int run_one(struct run_ctx *c, size_t i)
{
	struct res_scenario *sc = &c->run->v[i];
	const struct scenario *s = c->scn[i];
	char what[PROTO_TEXT_MAX + 256];
	struct guest_end end;
	struct proto_run req;
	uint64_t t0;
	int r;

	progress_status(c->o->progress, "[%s %s] %s: starting", c->g.label,
			domain_accel_name(c->env.accel), sc->name);
	sc->incident_expected = s->expect.set;
	boots_request(s, 0, &req);
	t0 = vm_now_us();
	r = guest_send_run(&c->g, &req, sc);
	if (r < 0 && c->g.sess.cur != sc) {
		snprintf(what, sizeof(what), "cannot send the scenario: %s",
			 strerror(-r));
		res_scenario_finish(sc, VERDICT_ERROR, what);
		return 0;
	}
	/* The guest bounds the scenario and its cleanup; the host allows
	 * slack on top. */
	c->g.hang = NULL;
	if (r == 0)
		r = guest_wait_run(&c->g, s->steps,
				   guest_host_bound(&c->g, s->timeout_ms +
						    (s->ncleanup ?
							     s->cleanup_timeout_ms :
							     0)));
	if (!guest_ended(&c->g, r, 0, sc, &end)) {
		if (c->stats && c->stats->boots > 0 && c->stats->boots <= 16 &&
		    !c->stats->run_us[c->stats->boots - 1])
			c->stats->run_us[c->stats->boots - 1] =
				vm_now_us() - t0;
		return 0;
	}
	if (r < 0)
		sc->duration_ms = (vm_now_us() - t0) / 1000;
	res_scenario_finish(sc, end.verdict, end.reason ? end.reason : end.what);
	free(end.reason);
	if (end.stop)
		c->stop = end.stop;
	return 1;
}

/*
 * The crash hook: incidents, bundle and the expect_incident/xfail verdict
 * (judge.c). A guest that passed a scenario expecting an incident gets a
 * moment for the console to catch up, and must still be alive after it.
 * Returns 1 when the VM must be replaced: it died, hung, or had an
 * incident.
 */
static int after_one(struct run_ctx *c, struct vm *vm, size_t i, int replace)
{
	struct res_scenario *sc = &c->run->v[i];
	const struct scenario *s = c->scn[i];
	int64_t open = c->g.sess.open_step;
	struct judge_in in = {
		.pm = &c->pm, .vm = vm, .label = c->g.label,
		.console = c->g.console, .tl = &c->g.tl, .bundles = &c->bundles,
		.s = s, .sc = sc, .run = c->run,
	};

	/* A protocol error or a signal is the host's business, not a crash. */
	if (!sc->done || vm_proto_error(vm) || c->stop ||
	    (sc->verdict == VERDICT_ERROR && !replace && !s->expect.set))
		return replace;
	if (!replace && s->expect.set &&
	    vm_wait(vm, NULL, NULL, RUNNER_SETTLE_MS) == -EPIPE)
		replace = 1;
	in.survived = !replace && !vm_dead(vm);
	in.hang = replace ? c->g.hang : NULL;
	in.open_step = open;
	judge_scenario(&in);
	/*
	 * A guest that survived an oops or a WARNING is tainted, and may hold
	 * a lock or a leaked object the incident left: the next scenario gets
	 * a fresh VM rather than that kernel.
	 */
	if (sc->nincidents)
		replace = 1;
	return replace;
}

/*
 * Whether the VM that ran @sc may run the next scenario: only after a
 * clean pass. A scenario that failed, timed out, crashed, errored or was
 * an expected failure may have stopped before its clean-up; one with an
 * incident or a leak left the kernel changed, and one whose cleanup list
 * failed left what it could not undo. Either way the next one gets a
 * fresh VM, so that one failure cannot cascade; @why says which.
 */
static bool vm_reusable(const struct res_scenario *sc, char *why,
			size_t len)
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

/* Every scenario from @i on that has no verdict yet: "not run: <stop>". */
static size_t finish_rest(struct run_ctx *c, size_t i)
{
	char what[256];

	snprintf(what, sizeof(what), "not run: %s", c->stop);
	for (i = next_pending(c->run, i); i < c->run->n;
	     i = next_pending(c->run, i + 1)) {
		res_scenario_finish(&c->run->v[i], VERDICT_ERROR, what);
		progress_result(c->o->progress, &c->run->v[i]);
	}
	return i;
}

/* Scenario @i has VMs of its own (boots.c). */
static void run_boots(struct run_ctx *c, size_t i)
{
	struct boots_env env = {
		.genv = &c->env,
		.keep = c->o->keep,
		.pm = &c->pm,
		.bundles = &c->bundles,
	};

	c->env.firmware = firmware();
	snprintf(c->run->accelerator, sizeof(c->run->accelerator), "%s",
		 domain_accel_name(c->env.accel));
	if (boots_run(&env, c->scn[i], &c->run->v[i]) == -EINTR)
		c->stop = STOP_SIGNAL;
	progress_result(c->o->progress, &c->run->v[i]);
}

/* Decide where to start: the cached verdict, or a KVM probe. */
static void choose_accel(struct run_ctx *c)
{
	char hv[64] = "unknown";
	enum domain_accel cached;

	c->probing = false;
	if (c->o->accel == ACCEL_TCG) {
		c->env.accel = DOMAIN_ACCEL_TCG;
		return;
	}
	if (c->o->accel == ACCEL_KVM) {
		c->env.accel = DOMAIN_ACCEL_KVM;
		return;
	}
	if (!accel_kvm_usable()) {
		c->env.accel = DOMAIN_ACCEL_TCG;
		return;
	}
	vm_host_hv_version(c->env.host, hv, sizeof(hv));
	if (accel_host_key(hv, c->host_key, sizeof(c->host_key)) == 0 &&
	    accel_cache_read(c->o->cache_dir, c->host_key, &cached) == 0) {
		c->env.accel = cached;
		return;
	}
	c->env.accel = DOMAIN_ACCEL_KVM;
	c->probing = true;
}

int runner_run(const struct runner_opts *o, struct scenario *const *scn,
	       struct res_run *run, struct guest_stats *stats, char *err,
	       size_t errlen)
{
	struct run_ctx c = { .o = o, .scn = scn, .run = run, .stats = stats };
	unsigned int boot_failures = 0;
	size_t i;
	int r;

	i = next_pending(run, 0);
	if (i == run->n)
		return 0;
	/* Measured here: 161 s under load, once per root; say so up front. */
	if (uri_embed_first_use(o->uri))
		fprintf(stderr, "hostctl: first use of this libvirt root: libvirt "
				"probes QEMU's capabilities once, which can take "
				"minutes without KVM\n");
	r = vm_host_open(o->uri, &c.env.host, err, errlen);
	if (r < 0)
		return r;
	c.env.run_dir = o->run_dir;
	c.env.run_id = o->run_id;
	c.env.kernel = o->kernel;
	c.env.initrd = o->initrd;
	c.env.cmdline = o->cmdline;
	c.env.events = o->events;
	c.env.progress = o->progress;
	guest_init(&c.g, &c.env);
	c.g.show_steps = true;
	c.g.stats = stats;
	choose_accel(&c);
	c.pm.run_dir = o->run_dir;
	c.pm.vmlinux = o->vmlinux;
	c.pm.tree = o->tree;
	c.pm.dump_max_mb = o->dump_max_mb;
	c.pm.dump_format = o->dump_format;
	/* boot() leaves the memory at its default. */
	c.pm.memory_mib = DOMAIN_MEMORY_MIB_DEFAULT;
	snprintf(c.fresh, sizeof(c.fresh), "the run's first VM");
	while (i < run->n) {
		struct vm *vm;
		char *reason = NULL;

		if (scn[i]->nboots) {
			snprintf(c.fresh, sizeof(c.fresh),
				 "after %s, which runs on VMs of its own",
				 scn[i]->name);
			run_boots(&c, i);
			i = next_pending(run, i + 1);
			if (c.stop)
				i = finish_rest(&c, i);
			continue;
		}
		r = boot(&c, &reason);
		vm = c.g.vm;
		/* The accelerator that ran, even if the guest then died. */
		snprintf(run->accelerator, sizeof(run->accelerator), "%s",
			 domain_accel_name(c.env.accel));
		if (r < 0) {
			res_scenario_finish(&run->v[i], VERDICT_ERROR,
					    reason ? reason : "boot failed");
			progress_result(o->progress, &run->v[i]);
			i = next_pending(run, i + 1);
			if (!c.stop && ++boot_failures >= 2)
				c.stop = "two boots in a row failed";
			if (c.stop)
				i = finish_rest(&c, i);
			free(reason);
			continue;
		}
		boot_failures = 0;
		for (unsigned int ran = 0; i < run->n && !scn[i]->nboots;
		     ran++) {
			struct res_scenario *sc = &run->v[i];

			if (ran && scn[i]->fresh_vm) {
				snprintf(c.fresh, sizeof(c.fresh),
					 "%s asks for a fresh VM",
					 scn[i]->name);
				break;
			}
			snprintf(sc->vm, sizeof(sc->vm), "%s", c.g.label);
			res_set_str(&sc->fresh_vm, c.fresh);
			c.fresh[0] = '\0';
			r = run_one(&c, i);
			r = after_one(&c, vm, i, r);
			if (!vm_reusable(sc, c.fresh, sizeof(c.fresh)))
				r = 1;
			progress_result(o->progress, sc);
			i = next_pending(run, i + 1);
			if (r)
				break;
		}
		guest_stop(&c.g, true);
		if (c.stop)
			i = finish_rest(&c, i);
	}
	progress_clear(o->progress);
	guest_fini(&c.g);
	vm_host_close(c.env.host);
	return 0;
}
