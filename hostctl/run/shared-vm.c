// SPDX-License-Identifier: GPL-2.0-only
/*
 * The VM the scenarios without boots share (runner-priv.h): booted fresh,
 * falling back from KVM to TCG when KVM turns out unusable, or taken from
 * the spare that lanes.c keeps booted ahead; and what every VM of a run
 * needs to boot (its firmware, its hello bound, the accelerator noted in
 * the results).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/runner-priv.h"
#include "vm/confine.h"
#include "vm/domain.h"
#include "vm/vm.h"

/* A hello bound for this run's kernel (runner_opts.boot_scale). */
uint64_t runner_scaled(const struct runner_opts *o, uint64_t ms)
{
	return o->boot_scale > 1 ? ms * o->boot_scale : ms;
}

/* qboot when it is installed, else SeaBIOS (NULL). */
const char *runner_firmware(void)
{
	return access(DOMAIN_QBOOT_PATH, R_OK) == 0 ? DOMAIN_QBOOT_PATH : NULL;
}

/* The accelerator and clock that ran, for the results. */
void runner_note_accel(struct run_ctx *c)
{
	bool icount = c->sh->env.icount && c->sh->env.accel == DOMAIN_ACCEL_TCG;

	snprintf(c->run->accelerator, sizeof(c->run->accelerator), "%s",
		 domain_accel_name(c->sh->env.accel));
	snprintf(c->run->clock, sizeof(c->run->clock), "%s",
		 icount ? "icount" : "wall");
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
int shared_vm_boot(struct run_ctx *c, char **why)
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
	    vm_wait(w.vm, spare_up, &w,
		    runner_scaled(c->o, RUNNER_HELLO_TCG_MS)) < 0)
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

int shared_vm_take(struct run_ctx *c, size_t i, char **why)
{
	const struct scenario *s = c->scn[i];
	struct res_scenario *sc = &c->run->v[i];
	bool cloud = c->o->all_cloud || s->cloud;
	int r;

	*why = NULL;
	if (cloud && !c->sh->env.cloud) {
		*why = strdup(
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
		r = shared_vm_boot(c, why);
		/* The accelerator that ran, even if the guest then died. */
		runner_note_accel(c);
		if (r < 0) {
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
