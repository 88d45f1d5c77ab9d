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

#include "errmsg.h"
#include "jsonutil.h"
#include "results/progress.h"
#include "run/runner-priv.h"
#include "vm/confine.h"
#include "vm/domain.h"
#include "vm/pool.h"
#include "vm/snapshot.h"
#include "vm/vm.h"

/* A hello bound for this run's kernel (runner_opts.boot_scale). */
uint64_t runner_scaled(const struct runner_opts *o, uint64_t ms)
{
	return o->boot_scale > 1 ? ms * o->boot_scale : ms;
}

int runner_guest_start(struct guest *g, const char *xml, enum scn_boot_end end,
		       const char *what, char *err, size_t errlen)
{
	struct json_object *o;
	const char *line = NULL;
	int r = guest_start(g, xml, end, what, err, errlen);

	if (r < 0 || !g->vm || !g->events || !g->env->host_name)
		return r;
	o = json_object_new_object();
	if (o && !jsonutil_add(o, "host", json_object_new_string("libvirt")) &&
	    !jsonutil_add(o, "uri", json_object_new_string(g->env->host_name)))
		line = json_object_to_json_string_ext(
			o, JSON_C_TO_STRING_PLAIN |
				   JSON_C_TO_STRING_NOSLASHESCAPE);
	/* A failed write is kept in the log, for the lane to see. */
	if (line)
		boundlog_vm_line(g->events, g->label, line, strlen(line));
	json_object_put(o);
	return r;
}

void runner_gap_stage(struct run_ctx *c, enum guest_gap_stage stage)
{
	if (c->end_us)
		c->gap_stage_us[stage] = vm_now_us() - c->end_us;
}

/* The gap from lane @c's last scenario's end to its fresh VM's hello. */
static void note_gap(struct run_ctx *c)
{
	struct guest_stats *st = c->stats;

	if (!st || !c->end_us || st->gaps >= 16)
		return;
	memcpy(st->gap_stage_us[st->gaps], c->gap_stage_us,
	       sizeof(c->gap_stage_us));
	st->gap_us[st->gaps++] = vm_now_us() - c->end_us;
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

void runner_accel_settled(struct run_ctx *c)
{
	/* What the results say ran, whoever settled it. */
	runner_note_accel(c);
	if (!c->sh->probing)
		return;
	/* A failed write only costs a probe next time. */
	accel_cache_write(c->o->cache_dir, c->sh->host_key, c->sh->env.accel);
	c->sh->probing = false;
}

void runner_accel_fall_back(struct run_ctx *c)
{
	c->sh->env.accel = DOMAIN_ACCEL_TCG;
	c->sh->probing = true;
	runner_accel_settled(c);
}

/* A restore failed: the run boots instead, told once, counted. */
static void restore_failed(struct run_ctx *c, const char *what, const char *err)
{
	char line[1024];

	if (c->sh->restore_failed++)
		return;
	/* QEMU's message may hold lines of its own: one line. */
	snprintf(line, sizeof(line), "%s", err);
	for (char *p = line; (p = strchr(p, '\n'));)
		*p = ' ';
	progress_clear(c->o->progress);
	fprintf(stderr,
		"hostctl run: %s failed: %s; booting instead (later failures are only counted)\n",
		what, line);
}

/*
 * Make slot @s's image (its lock held exclusive) from a VM of @dc named
 * for the slot, with an SSH socket of its own when @dc has one.
 */
static int make_image(struct run_ctx *c, struct snapshot_slot *s,
		      const struct domain_config *dc, uint64_t bound, char *err,
		      size_t errlen)
{
	struct domain_config t = *dc;
	char ssh[108];
	char *xml;
	int r;

	if (dc->ssh_socket) {
		if (snprintf(ssh, sizeof(ssh), "%s/%s.ssh", c->sh->env.vms_dir,
			     s->name) >= (int)sizeof(ssh))
			return errmsg(err, errlen, -ENAMETOOLONG,
				      "no room for the SSH socket's path");
		t.ssh_socket = ssh;
	}
	r = domain_xml(&t, &xml);
	if (r < 0)
		return errmsg(err, errlen, r, "generating the domain XML");
	progress_status(
		c->o->progress,
		"[%s %s] saving a VM to restore, once for this kernel and image",
		c->g->label, domain_accel_name(c->sh->env.accel));
	r = snapshot_make(c->sh->env.host, s, xml, bound, err, errlen);
	free(xml);
	if (dc->ssh_socket)
		unlink(ssh);
	c->sh->images_made += r == 0;
	return r;
}

/*
 * Restore lane @c's next VM, @dc, from the image of a free slot of its
 * key (snapshot.h), making it first when it is missing, and wait up to
 * @bound for its hello. 0 when the guest is up; otherwise nothing runs
 * and the caller boots it: -EBUSY when every slot was busy (not a
 * failure), another negative errno after a failure (told once, counted;
 * a corrupt image is removed, to be made again).
 */
static int shared_vm_restore(struct run_ctx *c, const struct domain_config *dc,
			     uint64_t bound)
{
	struct vm_host *h = c->sh->env.host;
	struct domain_config sdc = *dc;
	struct snapshot_slot s;
	char hv[64], key[SNAPSHOT_KEY_LEN], err[1024], dir[PATH_MAX];
	char *xml = NULL, *rxml = NULL;
	bool made = false;
	unsigned int k;
	int r;

	r = vm_host_hv_version(h, hv, sizeof(hv));
	if (r == 0)
		r = snapshot_key(dc, hv, key, sizeof(key));
	if (r == 0)
		r = snapshot_dir(c->o->cache_dir, dir, sizeof(dir));
	if (r < 0)
		return r;
	for (k = 0; k < SNAPSHOT_SLOTS; k++)
		if (snapshot_slot(dir, key, k, &s) < 0 ||
		    !vm_host_has(h, s.name))
			break;
	if (k == SNAPSHOT_SLOTS || snapshot_slot(dir, key, k, &s) < 0)
		return -EBUSY;
	sdc.name = s.name;
	r = snapshot_lock(&s, false);
	if (r == 0 && access(s.path, F_OK) < 0) {
		/* Missing: make it, unless another hostctl is. */
		r = snapshot_lock(&s, true);
		if (r == 0 && access(s.path, F_OK) < 0) {
			r = make_image(c, &s, &sdc, bound, err, sizeof(err));
			made = true;
		}
		if (r == 0)
			r = snapshot_lock(&s, false);
		if (r < 0 && r != -EINTR && made)
			restore_failed(c, "saving a VM to restore", err);
	}
	if (r < 0) {
		snapshot_unlock(&s);
		return r == -EWOULDBLOCK ? -EBUSY : r;
	}
	r = domain_xml(&sdc, &xml);
	runner_gap_stage(c, GUEST_GAP_PREPARED);
	if (r < 0)
		snprintf(err, sizeof(err), "generating the domain XML failed");
	else
		r = snapshot_restore_xml(h, &s, xml, &rxml, err, sizeof(err));
	free(xml);
	runner_gap_stage(c, GUEST_GAP_XML);
	if (r == 0) {
		guest_fresh(c->g);
		c->g->restore = s.path;
		c->g->restore_name = s.name;
		r = runner_guest_start(c->g, rxml, SCN_END_RUNNING, "restoring",
				       err, sizeof(err));
		c->g->restore = c->g->restore_name = NULL;
		runner_gap_stage(c, GUEST_GAP_STARTED);
		if (c->g->vm)
			c->gap_stage_us[GUEST_GAP_CALL] =
				vm_create_us(c->g->vm);
	}
	free(rxml);
	/* libvirt has read the image when the restore returns. */
	if (r == 0) {
		r = guest_wait_up(c->g, bound);
		runner_gap_stage(c, GUEST_GAP_UP);
		if (r < 0)
			snprintf(err, sizeof(err), "%s",
				 r == -ETIMEDOUT ? "no hello in time" :
						   vm_dead_reason(c->g->vm));
	} else if (r != -ENOMEM && snapshot_lock(&s, true) == 0) {
		/* An image that does not restore is made anew next time. */
		unlink(s.path);
	}
	snapshot_unlock(&s);
	if (r < 0) {
		if (c->g->vm)
			guest_destroy(c->g);
		if (r != -EINTR)
			restore_failed(c, "restoring a saved VM", err);
		return r;
	}
	c->sh->restored++;
	return 0;
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
	/* A saved image is a file of the daemon's: only a local one. */
	bool restore = c->o->restore && !vm_host_remote(c->sh->env.host);
	struct domain_disk disks[DOMAIN_DISKS_MAX];
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
		if (r == 0)
			r = pool_domain(c->sh->env.host, &dc, disks, err,
					sizeof(err));
		if (r < 0) {
			*why = strdup(err);
			return r;
		}
		/* The initramfs under TCG: restored rather than booted. */
		if (restore && !g->cloud &&
		    c->sh->env.accel == DOMAIN_ACCEL_TCG) {
			bound = runner_scaled(c->o,
					      c->sh->env.icount ?
						      RUNNER_HELLO_ICOUNT_MS :
						      RUNNER_HELLO_TCG_MS);
			r = shared_vm_restore(c, &dc, bound);
			if (r == 0 || r == -EINTR) {
				if (r == 0) {
					runner_accel_settled(c);
					return 0;
				}
				c->sh->stop = c->sh->env.write_err ?
						      STOP_WRITE :
						      STOP_SIGNAL;
				*why = strdup(c->sh->stop);
				return -EIO;
			}
		}
		restore = false;
		r = domain_xml(&dc, &xml);
		if (r < 0) {
			*why = strdup("generating the domain XML failed");
			return r;
		}
		guest_fresh(g);
		r = runner_guest_start(g, xml, SCN_END_RUNNING, "booting", err,
				       sizeof(err));
		free(xml);
		if (r < 0 && c->sh->env.accel == DOMAIN_ACCEL_KVM &&
		    c->o->accel == ACCEL_AUTO) {
			/* QEMU under nested KVM can die at once, too. */
			runner_accel_fall_back(c);
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
			runner_accel_settled(c);
			return 0;
		}
		if (r == -ETIMEDOUT && c->sh->env.accel == DOMAIN_ACCEL_KVM &&
		    c->o->accel == ACCEL_AUTO) {
			/* Nested KVM that hangs after the firmware: use TCG. */
			guest_destroy(g);
			runner_accel_fall_back(c);
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
	/* The spare paused it while it waited (lanes.c). */
	if (vm_pause(w.vm, false) < 0) {
		guest_destroy(sp->g);
		return false;
	}
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
	runner_gap_stage(c, GUEST_GAP_TAKE);
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
		note_gap(c);
	} else if (!c->g->vm) {
		c->g->cloud = cloud;
		c->g->nic = s->nic;
		r = shared_vm_boot(c, why);
		/* The accelerator that ran, even if the guest then died. */
		runner_note_accel(c);
		if (r < 0) {
			/* Over several hosts, it is the host that is out. */
			if (!c->sh->stop && ++c->boot_failures >= 2 &&
			    c->sh->nhosts > 1)
				c->sh->host_dead[c->host] = true;
			else if (!c->sh->stop && c->boot_failures >= 2)
				c->sh->stop = "two boots in a row failed";
			return r;
		}
		c->boot_failures = 0;
		c->ran = 0;
		note_gap(c);
	}
	c->ran++;
	snprintf(sc->vm, sizeof(sc->vm), "%s", c->g->label);
	res_set_str(&sc->fresh_vm, c->fresh);
	c->fresh[0] = '\0';
	return 0;
}
