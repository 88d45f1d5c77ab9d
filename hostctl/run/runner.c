// SPDX-License-Identifier: GPL-2.0-only
/*
 * Boot, run, replace: the loop that turns selected scenarios into verdicts.
 * Here a run is set up (libvirt, the accelerator, the lanes' guests and
 * logs) and its results go out as it goes: each scenario's lines, its
 * losses, and summary.json's checkpoint after each. One scenario runs
 * boot by boot in run-scenario.c; the lanes and the shared VM are
 * lanes.c's. Two shared VMs in a row that do not come up, or a guest
 * with another protocol version, end the run: every scenario left is then
 * an error naming the cause. Each VM is booted and stopped through
 * guest.c.
 *
 * hostctl run -j N runs N lanes at once, each all of the above with a VM
 * of its own at a time: the scheduler (schedule.c) gives a free lane the
 * longest scenario left whose exclusive resource (a disk image's name)
 * no other lane holds. The lanes are coroutines of the one thread that
 * runs libvirt's event loop: a lane's wait yields (vm_set_yield()), and
 * lanes_run() turns the loop once whenever every lane has had its turn,
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

#include "crash/verdict.h"
#include "run/boots.h"
#include "run/hosts.h"
#include "run/runner-priv.h"
#include "results/progress.h"
#include "vm/pool.h"
#include "vm/vm.h"

static size_t next_pending(const struct res_run *run, size_t i)
{
	while (i < run->n && run->v[i].done)
		i++;
	return i;
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
		(void)verdict_decide_unrun(c->scn[i], &c->run->v[i],
					   VERDICT_CAUSE_HOST, what);
		runner_scenario_out(c, &c->run->v[i]);
	}
}

/* Decide where to start: the cached verdict, or a KVM probe. */
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
 * Connect to the hosts of the run: @o->uri, or each of @o->hosts
 * ("embedded" is @o->uri); the first is env.host. 0, or a negative errno
 * with @err naming the host that failed.
 */
static int open_hosts(struct run_shared *sh, const struct runner_opts *o,
		      char *err, size_t errlen)
{
	unsigned int n = o->hosts ? (unsigned int)o->hosts->n : 1;
	char why[1024];
	int r = 0;

	for (sh->nhosts = 0; sh->nhosts < n; sh->nhosts++) {
		const struct run_host *h = o->hosts ? &o->hosts->v[sh->nhosts] :
						      NULL;
		const char *uri = h && *h->uri ? h->uri : o->uri;
		struct vm_host **vh = &sh->hosts[sh->nhosts];

		r = vm_host_open(uri, vh, why, sizeof(why));
		if (r < 0) {
			snprintf(err, errlen, "%s%s%s%s",
				 o->hosts ? "host '" : "",
				 o->hosts ? hosts_label(uri) : "",
				 o->hosts ? "': " : "", why);
			break;
		}
		sh->host_names[sh->nhosts] = hosts_label(uri);
		/* Seconds without a word otherwise: say what they were. */
		if (vm_host_probe_ms(*vh))
			fprintf(stderr,
				"hostctl: libvirt probed QEMU's capabilities in "
				"%.1f s (its cache for this root was missing or "
				"outdated)\n",
				vm_host_probe_ms(*vh) / 1000.0);
	}
	if (r < 0)
		while (sh->nhosts)
			vm_host_close(sh->hosts[--sh->nhosts]);
	sh->env.host = sh->hosts[0];
	return r;
}

/*
 * The scheduler's list: the scenarios of @run not done yet, each with how
 * long it keeps a lane busy (sched_expect(): the duration an earlier run
 * recorded, and what that leaves out) and the disk images it needs. @slugs
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
		q->v[i].expect_ms =
			sched_expect(scn[i], o->expect_ms ? o->expect_ms[i] : 0,
				     o->all_cloud);
		if (!scn[i]->nboots && !scn[i]->fresh_vm)
			q->v[i].vm = sched_vm(o->all_cloud || scn[i]->cloud,
					      scn[i]->nic);
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

/*
 * On a remote host, what the run sent into its pool (pool.h), on one
 * line: a run whose kernel and image are there already sends nothing.
 */
static void upload_note(const struct runner_opts *o, struct vm_host *h,
			const char *name)
{
	struct pool_stats ps;

	if (!vm_host_remote(h))
		return;
	pool_stats(h, &ps);
	progress_clear(o->progress);
	fprintf(stderr,
		"hostctl: pool '" POOL_NAME "' of '%s': %u files uploaded "
		"(%.1f MiB in %.1f s), %u there already, %.1f s hashing\n",
		name, ps.sent, ps.bytes / 1048576.0, ps.send_us / 1e6, ps.found,
		ps.hash_us / 1e6);
}

int runner_run(const struct runner_opts *o, struct scenario *const *scn,
	       struct res_run *run, struct guest_stats *stats, char *err,
	       size_t errlen)
{
	struct run_shared sh = { 0 };
	struct run_ctx *lanes = NULL, *c;
	struct guest *guests = NULL;
	char(*slugs)[PROTO_NAME_MAX] = NULL;
	unsigned int lane_host[RUN_HOSTS_MAX * SCHED_LANES_MAX] = { 0 };
	unsigned int n = o->jobs > 1 ? o->jobs : 1, m;
	int r = -ENOMEM;

	if (next_pending(run, 0) == run->n)
		return RUNNER_RAN;
	if (o->hosts)
		n = hosts_lanes(o->hosts, o->jobs, lane_host,
				RUN_HOSTS_MAX * SCHED_LANES_MAX);
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
	r = open_hosts(&sh, o, err, errlen);
	if (r < 0)
		goto out;
	for (unsigned int k = 0; k < m; k++)
		lanes[k] = (struct run_ctx){ .o = o,
					     .scn = scn,
					     .run = run,
					     .stats = stats,
					     .sh = &sh,
					     .host = k < n ? lane_host[k] : 0,
					     .is_spare = k == n };
	for (unsigned int k = sh.nhosts; k-- > 0;) {
		sh.env.host = sh.hosts[k];
		reap_orphans(c, sh.host_names[k]);
	}
	sh.env.host_name = sh.host_names[0];
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
	sh.env.output = o->output;
	sh.env.output_data = o->output_data;
	sh.env.silence_scale = o->boot_scale;
	sh.env.vmno = o->vmno ? *o->vmno : 0;
	sh.lanes_left = n;
	sh.spare = o->spare ? &lanes[n] : NULL;
	choose_accel(c);
	for (unsigned int k = 0; k < m; k++)
		lane_init(&lanes[k], &guests[k], k == 0);
	runner_checkpoint(c);
	if (!sh.env.write_err)
		lanes_run(&sh, lanes, m);
	if (sh.env.write_err && !sh.stop)
		/* The first checkpoint failed: nothing ran. */
		sh.stop = STOP_WRITE;
	/* Every host failed, with scenarios left: none is lost. */
	if (!sh.stop && sched_pending(&sh.sched))
		sh.stop = "no libvirt host of the run was left";
	if (sh.stop)
		finish_rest(c);
	for (unsigned int k = 0; k < m; k++) {
		guest_stop(lanes[k].g, true);
		if (lanes[k].events_open &&
		    (r = boundlog_close(&lanes[k].events)) < 0)
			guest_write_failed(&sh.env, o->events->path, r);
	}
	progress_clear(o->progress);
	/* The first failed restore was told as it came: the count now. */
	if (sh.restore_failed > 1)
		fprintf(stderr,
			"hostctl run: %u restores of saved VMs failed and booted instead; %u VMs were restored\n",
			sh.restore_failed, sh.restored);
	for (unsigned int k = 0; k < m; k++)
		guest_fini(&guests[k]);
	for (unsigned int k = 0; k < sh.nhosts; k++) {
		char why[PROTO_TEXT_MAX + 256];

		upload_note(o, sh.hosts[k], sh.host_names[k]);
		/* The VMs' cleanup left to the background (vm_destroy()). */
		if (vm_host_settle(sh.hosts[k], why, sizeof(why)) < 0)
			fprintf(stderr,
				"hostctl run: a VM's domain was not torn down: %s\n",
				why);
		vm_host_close(sh.hosts[k]);
	}
	if (o->vmno)
		*o->vmno = sh.env.vmno;
	r = RUNNER_RAN;
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
