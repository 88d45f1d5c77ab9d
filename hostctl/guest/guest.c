// SPDX-License-Identifier: GPL-2.0-only
/*
 * The guest lifecycle (guest.h): naming, start, hello, shutdown and bye,
 * destroy, and the session's side of the channel. vm.c hands each line
 * from the guest to on_line() here, which feeds the session, appends the
 * accepted line to events.jsonl, and keeps a line that broke the protocol
 * in protocol-error-<label>.txt for the user to look at.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scenario/bootcheck.h"
#include "vm/cloud.h"
#include "vm/conattach.h"
#include "vm/confine.h"
#include "vm/pool.h"
#include "errmsg.h"
#include "base/fsutil.h"
#include "guest/guest.h"
#include "results/progress.h"
#include "crash/report.h"
#include "crash/verdict.h"
#include "vm/snapshot.h"
#include "vm/vm.h"
#include "vm/vmstate.h"
#include "results/rundir.h"

/* How much of a console log the reason reads: the crash title's search. */
#define GUEST_CONSOLE_READ 16384
#define GUEST_TITLE_LINES 200

static bool hello_seen(void *arg)
{
	return ((struct session *)arg)->hello_seen;
}

static bool carry_decided(void *arg)
{
	return ((struct session *)arg)->carry != SESSION_CARRY_WAITING;
}

static bool bye_seen(void *arg)
{
	return ((struct session *)arg)->bye_seen;
}

/*
 * A kmsg record's sequence number: the records it skipped since the last
 * one were dropped, by the kernel (guestd read too slowly) or by guestd
 * (the host read too slowly). A fresh kernel numbers from 0 again, and
 * guestd starts from wherever the log is, so hello starts over.
 */
static void count_kmsg(struct guest *g, const struct proto_event *ev)
{
	uint64_t seq = ev->u.kmsg.seq;

	if (ev->type == PROTO_EV_HELLO)
		g->kmsg_seen = false;
	if (ev->type != PROTO_EV_KMSG)
		return;
	if (g->kmsg_seen && seq > g->kmsg_next) {
		uint64_t gap = seq - g->kmsg_next;

		g->kmsg_dropped = gap > UINT64_MAX - g->kmsg_dropped ?
					  UINT64_MAX :
					  g->kmsg_dropped + gap;
	}
	g->kmsg_next = seq == UINT64_MAX ? seq : seq + 1;
	g->kmsg_seen = true;
}

static void publish(const struct guest *g, const char *scenario, unsigned step,
		    unsigned steps);

/*
 * Each accepted event: the crash timeline (with the whole scenario's step
 * numbers), the kmsg records dropped, the open step's start, and the
 * progress line.
 */
static void on_event(void *userdata, const struct proto_event *ev)
{
	struct guest *g = userdata;
	const struct res_scenario *cur = g->sess.cur;
	struct proto_event e;

	/* A fresh kernel: its printk clock starts again. */
	if (ev->type == PROTO_EV_HELLO)
		incident_timeline_free(&g->tl);
	count_kmsg(g, ev);
	if (ev->type == PROTO_EV_OUTPUT && g->env->output)
		g->env->output(g->env->output_data, &ev->u.output);
	g->ack_due = ev->type == PROTO_EV_HELLO ||
		     ev->type == PROTO_EV_STEP_BEGIN;
	g->ack_t_us = ev->t_us;
	if (ev->type == PROTO_EV_STEP_BEGIN)
		g->step_t0_us = vm_now_us();
	/* A failed feed only costs attribution: the report still counts. */
	if (ev->type == PROTO_EV_STEP_BEGIN && cur && g->whole) {
		e.type = ev->type;
		e.t_us = ev->t_us;
		e.u.step_begin = ev->u.step_begin;
		e.u.step_begin.step += (uint32_t)(cur->steps - g->whole->steps);
		incident_timeline_feed(&g->tl, &e);
	} else {
		incident_timeline_feed(&g->tl, ev);
	}
	/* hostctl ls: the main step begun, numbered as in the scenario. */
	if (ev->type == PROTO_EV_STEP_BEGIN && cur &&
	    !cur->steps[ev->u.step_begin.step].cleanup) {
		const struct res_scenario *w = g->whole ? g->whole : cur;

		publish(g, w->name,
			ev->u.step_begin.step + 1 +
				(unsigned)(cur->steps - w->steps),
			(unsigned)(w->nsteps - w->ncleanup));
	}
	if (ev->type == PROTO_EV_STEP_BEGIN && cur && g->show_steps)
		progress_status(g->env->progress,
				"[%s %s] %s: %s %u/%zu %s%s%s%s", g->label,
				domain_accel_name(g->env->accel), cur->name,
				cur->steps[ev->u.step_begin.step].cleanup ?
					"cleanup step" :
					"step",
				ev->u.step_begin.step + 1, cur->nsteps,
				ev->u.step_begin.kind,
				*ev->u.step_begin.name ? " '" : "",
				ev->u.step_begin.name,
				*ev->u.step_begin.name ? "'" : "");
}

/* Keep the line that broke the protocol, for the user to look at. */
static void save_offending(const struct guest *g, const char *line, size_t len,
			   const char *reason)
{
	char path[PATH_MAX];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/" RUNDIR_PROTO_ERROR,
		     g->env->run_dir, g->label) >= (int)sizeof(path))
		return;
	f = fopen(path, "we");
	if (!f)
		return;
	fprintf(f, "reason: %s\nline (%zu bytes%s):\n", reason, len,
		len >= PROTO_LINE_MAX - 1 ? ", cut at the limit" : "");
	fwrite(line, 1, len, f);
	fputc('\n', f);
	fclose(f);
}

/*
 * Tell guestd that this hello or step_begin, and so all it wrote before,
 * was read: the step waits for it, so that what a step that crashes the
 * guest leaves unread in QEMU is nothing guestd wrote before it. One per
 * accepted line of those kinds, so a guest that does not read its
 * requests holds at most one per step of the run it was asked for.
 */
static void send_ack(struct guest *g)
{
	char *line;
	size_t len;

	g->ack_due = false;
	if (!g->vm || proto_ack_encode(g->ack_t_us, &line, &len) < 0)
		return;
	/* A dead VM takes no more requests: nothing to tell it then. */
	(void)vm_send(g->vm, line, len);
	free(line);
}

/* vm.c's on_line: the session decides, the accepted line is logged. */
static int on_line(void *userdata, const char *line, size_t len, char *why,
		   size_t whylen)
{
	struct guest *g = userdata;
	bool had_hello = g->sess.hello_seen;
	struct boundlog *events = g->events;
	int r;

	g->ack_due = false;
	r = session_feed(&g->sess, line, len);
	if (r == SESSION_DROPPED)
		return 0;
	if (r < 0) {
		save_offending(g, line, len, g->sess.err);
		snprintf(why, whylen,
			 "%s (line saved in " RUNDIR_PROTO_ERROR ")",
			 g->sess.err, g->label);
		return r;
	}
	if (events) {
		r = boundlog_vm_line(events, g->label, line, len);
		if (r < 0)
			guest_write_failed(g->env, events->path, r);
	}
	if (g->ack_due)
		send_ack(g);
	return !had_hello && g->sess.hello_seen;
}

/* vm.c's on_bad_line: a line too long to take. */
static void on_bad_line(void *userdata, const char *start, size_t len,
			const char *reason, char *why, size_t whylen)
{
	struct guest *g = userdata;

	save_offending(g, start, len, reason);
	snprintf(why, whylen,
		 "%s (its start is saved in " RUNDIR_PROTO_ERROR ")", reason,
		 g->label);
}

/*
 * vm.c's on_console: the console's bytes into its bounded log; NULL ends
 * its last line (the VM died, or its console ended).
 */
static void on_console(void *userdata, const char *buf, size_t len)
{
	struct guest *g = userdata;
	int r;

	if (buf)
		conattach_output(g->ca, buf, len);
	if (!g->con_open)
		return;
	r = buf ? boundlog_bytes(&g->con, buf, len) : boundlog_flush(&g->con);
	if (r < 0)
		guest_write_failed(g->env, g->con.path, r);
}

/* The VM is gone: close its console log, keep its cut for the summary. */
static void console_close(struct guest *g)
{
	uint64_t cut = 0;
	int r;

	if (!g->con_open)
		return;
	(void)boundlog_flush(&g->con);
	(void)boundlog_part_end(&g->con, &cut);
	r = boundlog_close(&g->con);
	g->con_open = false;
	g->con_cut_pending += cut - g->con_cut_taken;
	g->con_cut_taken = 0;
	if (r < 0)
		guest_write_failed(g->env, g->con.path, r);
}

uint64_t guest_console_cut(struct guest *g)
{
	uint64_t cut = g->con_cut_pending;

	g->con_cut_pending = 0;
	if (g->con_open) {
		cut += boundlog_cut(&g->con) - g->con_cut_taken;
		g->con_cut_taken = boundlog_cut(&g->con);
	}
	return cut;
}

void guest_write_failed(struct guest_env *env, const char *path, int err)
{
	if (env->write_err)
		return;
	env->write_err = err;
	snprintf(env->write_what, sizeof(env->write_what), "writing '%s': %s",
		 path, strerror(-err));
	vm_interrupt();
}

void guest_init(struct guest *g, struct guest_env *env)
{
	memset(g, 0, sizeof(*g));
	g->env = env;
	g->events = env->events;
	incident_timeline_init(&g->tl);
	guest_fresh(g);
}

void guest_fini(struct guest *g)
{
	incident_timeline_free(&g->tl);
}

void guest_fresh(struct guest *g)
{
	session_init(&g->sess);
	g->sess.on_event = on_event;
	g->sess.userdata = g;
}

void guest_carry(struct guest *g)
{
	session_carry(&g->sess);
}

void guest_name(struct guest *g)
{
	struct guest_env *env = g->env;

	env->vmno++;
	rundir_vm_label(g->label, sizeof(g->label), env->vmno);
	snprintf(g->name, sizeof(g->name), "vlalab-%s-%u", env->run_id,
		 env->vmno);
	snprintf(g->console, sizeof(g->console), "%s/" RUNDIR_CONSOLE,
		 env->run_dir, g->label);
	/* A socket's path has its own bound: without room, no SSH port.
	 * A remote daemon would bind it on its own host: none there. */
	g->ssh_sock[0] = '\0';
	if (env->vms_dir && !vm_host_remote(env->host) &&
	    snprintf(g->ssh_sock, sizeof(g->ssh_sock), "%s/%s.ssh",
		     env->vms_dir, g->name) >= (int)sizeof(g->ssh_sock))
		g->ssh_sock[0] = '\0';
}

int guest_cloud_overlay(struct guest *g, char *err, size_t errlen)
{
	int r;

	/* A retry of the boot (KVM fell back to TCG) names a new VM. */
	if (g->overlay[0])
		unlink(g->overlay);
	if (snprintf(g->overlay, sizeof(g->overlay), "%s/" RUNDIR_CLOUD_OVERLAY,
		     g->env->run_dir, g->label) >= (int)sizeof(g->overlay)) {
		g->overlay[0] = '\0';
		return errmsg(err, errlen, -ENAMETOOLONG,
			      "the run directory's path is too long");
	}
	r = cloud_overlay(g->env->cloud->base, g->overlay);
	if (r < 0) {
		errmsg(err, errlen, r,
		       "qemu-img could not make the overlay '%s' on '%s': %s",
		       g->overlay, g->env->cloud->base, strerror(-r));
		g->overlay[0] = '\0';
		return r;
	}
	/* QEMU opens the overlay's backing image by the name it records. */
	r = confine_path(g->env->cloud->base, CONFINE_READ);
	if (r < 0)
		errmsg(err, errlen, r,
		       "giving QEMU's user '%s' access to '%s': %s",
		       CONFINE_USER, g->env->cloud->base, confine_strerror(r));
	return r;
}

/*
 * A cloud VM's domain: its overlay as vda (the root), the modules disk
 * and the seed; domain_cloud_cmdline with what the run adds to the
 * default command line (hostctl run --repeat's round).
 */
static void cloud_domain(struct guest *g, struct domain_config *dc)
{
	const struct cloud_image *ci = g->env->cloud;
	const char *extra = "";
	size_t n = strlen(domain_default_cmdline);

	if (g->env->cmdline &&
	    !strncmp(g->env->cmdline, domain_default_cmdline, n))
		extra = g->env->cmdline + n;
	snprintf(g->cloud_cmdline, sizeof(g->cloud_cmdline), "%s%s",
		 domain_cloud_cmdline, extra);
	g->cloud_disks[0] = (struct domain_disk){ g->overlay, "qcow2", false };
	/* Shared: the modules disk by every VM of this kernel build, in any
	 * run; the seed by the run's VMs. Neither is the guest's to write. */
	g->cloud_disks[1] = (struct domain_disk){ ci->modules, "raw", true };
	g->cloud_disks[2] = (struct domain_disk){ ci->seed, "raw", true };
	dc->initrd = NULL;
	dc->cmdline = g->cloud_cmdline;
	dc->disks = g->cloud_disks;
	dc->ndisks = 3;
}

void guest_domain(struct guest *g, struct domain_config *dc)
{
	dc->name = g->name;
	dc->accel = g->env->accel;
	dc->icount = g->env->icount && g->env->accel == DOMAIN_ACCEL_TCG;
	dc->kernel = g->env->kernel;
	dc->initrd = g->env->initrd;
	dc->cmdline = g->env->cmdline;
	dc->firmware = g->env->firmware;
	dc->machine = g->env->machine;
	dc->ssh_socket = g->ssh_sock[0] ? g->ssh_sock : NULL;
	dc->owner = g->env->owner;
	dc->nic = g->nic;
	if (g->cloud)
		cloud_domain(g, dc);
}

/*
 * Say where the VM's SSH port is, for hostctl exec, pull and ls, and which
 * step of which scenario it is at (@scenario NULL: none yet).
 */
static void publish(const struct guest *g, const char *scenario, unsigned step,
		    unsigned steps)
{
	struct vmstate v = { .pid = getpid(), .step = step, .steps = steps };
	int r;

	if (!g->ssh_sock[0] || !g->env->ssh_host_key)
		return;
	/*
	 * libvirt binds the SSH socket (a root login) 0775 less its umask and
	 * hands QEMU the descriptor: make it root's alone, as its folder is.
	 */
	if (!scenario && chmod(g->ssh_sock, 0600) < 0) {
		progress_clear(g->env->progress);
		fprintf(stderr,
			"hostctl: cannot make the SSH socket '%s' mode 0600: %m\n",
			g->ssh_sock);
	}
	snprintf(v.domain, sizeof(v.domain), "%s", g->name);
	snprintf(v.label, sizeof(v.label), "%s", g->label);
	snprintf(v.socket, sizeof(v.socket), "%s", g->ssh_sock);
	snprintf(v.host_key, sizeof(v.host_key), "%s", g->env->ssh_host_key);
	snprintf(v.run_dir, sizeof(v.run_dir), "%s", g->env->run_dir);
	if (scenario)
		snprintf(v.scenario, sizeof(v.scenario), "%s", scenario);
	r = vmstate_write(g->env->vms_dir, &v);
	if (r < 0) {
		progress_clear(g->env->progress);
		fprintf(stderr,
			"hostctl: cannot write the state of %s in '%s': %s; hostctl exec will not find it\n",
			g->label, g->env->vms_dir, strerror(-r));
	}
}

/* Serve hostctl console on <vms>/<domain>.con (conattach.h). */
static void serve_console(struct guest *g)
{
	char path[PATH_MAX];
	int r;

	if (!g->env->vms_dir)
		return;
	r = conattach_path(g->env->vms_dir, g->name, path, sizeof(path));
	if (r == 0)
		r = conattach_open(g->vm, path, &g->ca);
	if (r < 0) {
		progress_clear(g->env->progress);
		fprintf(stderr,
			"hostctl: cannot serve the console of %s on '%s': %s; hostctl console will not reach it\n",
			g->label, path, strerror(-r));
	}
}

int guest_start(struct guest *g, const char *xml, enum scn_boot_end end,
		const char *what, char *err, size_t errlen)
{
	struct vm_params p = {
		.xml = xml,
		.on_line = on_line,
		.on_bad_line = on_bad_line,
		.on_console = on_console,
		.userdata = g,
		.restore = g->restore,
		.restore_name = g->restore_name,
	};

	struct vm *vm;
	int r;

	progress_status(g->env->progress, "[%s %s] %s", g->label,
			domain_accel_name(g->env->accel), what);
	g->end = end;
	g->silence_ms = VM_SILENCE_MS;
	g->hang = NULL;
	r = boundlog_open_stream(&g->con, g->console, g->env->console_max);
	if (r < 0) {
		snprintf(err, errlen, "creating '%s': %s", g->console,
			 strerror(-r));
		return r;
	}
	g->con_open = true;
	r = vm_start(g->env->host, &p, &vm, err, errlen);
	if (r < 0)
		console_close(g);
	g->vm = r < 0 ? NULL : vm;
	/* A restored guest is told so: it answers with its hello. */
	if (g->vm && g->restore) {
		char *line;
		size_t len;

		r = snapshot_greeting(g->sess.restore_id, &line, &len);
		if (r == 0) {
			r = vm_send(g->vm, line, len);
			free(line);
		}
		if (r < 0)
			snprintf(err, errlen, "greeting the restored guest: %s",
				 strerror(-r));
	}
	if (g->vm) {
		serve_console(g);
		publish(g, NULL, 0, 0);
	}
	if (g->vm && end != SCN_END_RUNNING) {
		g->silence_ms = GUEST_SILENCE_STOPPING_MS;
		vm_set_silence_ms(g->vm, g->silence_ms);
	} else if (g->vm && g->env->silence_scale > 1) {
		g->silence_ms = VM_SILENCE_MS * g->env->silence_scale;
		vm_set_silence_ms(g->vm, g->silence_ms);
	}
	return r;
}

int guest_wait_up(struct guest *g, uint64_t timeout_ms)
{
	struct guest_stats *st = g->stats;
	int r;

	r = vm_wait(g->vm, g->sess.carry ? carry_decided : hello_seen, &g->sess,
		    timeout_ms);
	/* A step open across a resume began for this guest at its resume:
	 * its clocks stood still while it was off. */
	if (r == 0 && g->sess.carry == SESSION_CARRY_RESUMED)
		g->step_t0_us = vm_now_us();
	if (r == 0 && st && st->boots < 16) {
		st->create_us[st->boots] = vm_create_us(g->vm);
		st->hello_us[st->boots] = vm_hello_us(g->vm);
		st->restored += g->sess.restore_id[0] != '\0';
		st->boots++;
	}
	return r;
}

int guest_send_run(struct guest *g, const struct scenario *s, size_t k,
		   struct res_scenario *view)
{
	char *line;
	size_t len;
	int r;

	r = boots_run_encode(s, k, &line, &len);
	if (r < 0)
		return r;
	r = session_expect(&g->sess, view);
	if (r == 0)
		r = vm_send(g->vm, line, len);
	free(line);
	return r;
}

struct run_wait {
	struct guest *g;
	const struct scn_step *steps;
};

/*
 * The view ended, or its open step overran its timeout by the host's
 * slack: guestd enforces step timeouts itself, so the guest is hung.
 */
static bool view_done(void *arg)
{
	struct run_wait *w = arg;
	struct guest *g = w->g;
	const struct res_scenario *cur = g->sess.cur;
	int64_t st = g->sess.open_step;
	uint64_t limit;

	if (session_idle(&g->sess))
		return true;
	if (st < 0 || (size_t)st >= cur->nsteps)
		return false;
	limit = guest_host_bound(g, w->steps[st].timeout_ms);
	if (vm_now_us() - g->step_t0_us < limit * 1000)
		return false;
	snprintf(g->hang_buf, sizeof(g->hang_buf),
		 "step %" PRId64 " ran past its timeout_ms %" PRIu64
		 " and the host's slack without a step_end",
		 st + 1 + (g->whole ? cur->steps - g->whole->steps : 0),
		 w->steps[st].timeout_ms);
	g->hang = g->hang_buf;
	return true;
}

int guest_wait_run(struct guest *g, const struct scn_step *steps,
		   uint64_t bound_ms)
{
	struct run_wait w = { .g = g, .steps = steps };

	g->hang = NULL;
	g->wait_ms = bound_ms;
	return vm_wait(g->vm, view_done, &w, bound_ms);
}

/* The step open in @view when its guest ended shares that end's fate. */
static void close_open_step(struct guest *g, struct res_scenario *view,
			    enum proto_verdict v, const char *reason)
{
	struct res_step *st;

	if (!view || g->sess.cur != view || g->sess.open_step < 0)
		return;
	st = &view->steps[g->sess.open_step];
	st->verdict = v;
	res_set_str(&st->reason, reason);
}

/* How @g's boot is to end, as a VM's end (vmend.h). */
static enum vm_end expected_end(const struct guest *g)
{
	return g->end == SCN_END_POWEROFF ? VM_END_POWEROFF :
	       g->end == SCN_END_REBOOT	  ? VM_END_REBOOT :
					    VM_END_RUNNING;
}

enum vm_end guest_vm_end(struct guest *g, int r)
{
	return vm_end_of(g->vm, r, g->hang != NULL, expected_end(g));
}

bool guest_ended(struct guest *g, int r, size_t boot, struct res_scenario *view,
		 struct guest_end *ret)
{
	char *what = ret->what;
	size_t len = sizeof(ret->what);
	const char *step = NULL;
	enum vm_end end;

	ret->end = VM_END_RUNNING;
	ret->reason = NULL;
	ret->stop = NULL;
	if (r == 0 && !g->hang)
		return false;
	end = guest_vm_end(g, r);
	switch (end) {
	case VM_END_HANG:
		step = g->hang;
		snprintf(what, len, "%s hangs: %s; it was replaced", g->label,
			 g->hang);
		break;
	case VM_END_TIMEOUT:
		g->hang = "no scenario_end within the host's bound";
		step = "the scenario timed out during this step";
		snprintf(what, len,
			 "no scenario_end within %" PRIu64
			 " ms (the host's bound); %s was replaced",
			 g->wait_ms, g->label);
		break;
	case VM_END_INTERRUPTED:
		ret->stop = g->env->write_err ? GUEST_WHY_WRITE :
						GUEST_WHY_SIGNAL;
		step = ret->stop;
		snprintf(what, len, "%s", ret->stop);
		break;
	case VM_END_PROTOCOL:
		if (vm_proto_error(g->vm) == -EPROTONOSUPPORT)
			ret->stop = GUEST_WHY_VERSION;
		step = "the guest broke the protocol during this step";
		snprintf(what, len, "%s: %s", g->label, vm_dead_reason(g->vm));
		break;
	case VM_END_POWEROFF:
	case VM_END_REBOOT:
		snprintf(
			what, len,
			"the guest %s during this step, as boot %zu's end '%s' expects",
			end == VM_END_REBOOT ? "reset" : "powered off", boot,
			vm_end_name(end));
		step = what;
		break;
	case VM_END_SILENT:
		/* No heartbeat: the guest hangs rather than died. */
		snprintf(g->hang_buf, sizeof(g->hang_buf),
			 "no heartbeat for %" PRIu64 " s",
			 g->silence_ms / 1000);
		g->hang = g->hang_buf;
		step = g->hang;
		snprintf(what, len, "%s hangs: %s", g->label,
			 vm_dead_reason(g->vm));
		break;
	default:
		step = "the VM went away during this step";
		snprintf(what, len, "%s died: %s", g->label,
			 vm_dead_reason(g->vm));
		break;
	}
	close_open_step(g, view, verdict_of_end(end), step);
	ret->end = end;
	/* A signal or a broken protocol says nothing of the console. */
	if (!vm_end_stopped(end) && end != VM_END_INTERRUPTED &&
	    end != VM_END_PROTOCOL) {
		vm_console_drain(g->vm);
		ret->reason = guest_console_reason(what, g->console);
	}
	return true;
}

void guest_stop(struct guest *g, bool ask)
{
	struct guest_stats *st = g->stats;
	uint64_t t0 = vm_now_us();
	size_t len;
	char *line;

	if (!g->vm)
		return;
	if (ask && !vm_dead(g->vm) && proto_shutdown_encode(&line, &len) == 0) {
		if (vm_send(g->vm, line, len) == 0)
			vm_wait(g->vm, bye_seen, &g->sess, GUEST_BYE_MS);
		free(line);
	}
	guest_destroy(g);
	if (st && st->boots > 0 && st->boots <= 16)
		st->teardown_us[st->boots - 1] = vm_now_us() - t0;
}

void guest_destroy(struct guest *g)
{
	if (g->vm && g->ssh_sock[0]) {
		vmstate_remove(g->env->vms_dir, g->name);
		unlink(g->ssh_sock);
	}
	conattach_close(g->ca);
	g->ca = NULL;
	vm_destroy(g->vm);
	g->vm = NULL;
	console_close(g);
	if (g->overlay[0] && !g->env->keep_overlays)
		unlink(g->overlay);
	g->overlay[0] = '\0';
}

uint64_t guest_host_bound(const struct guest *g, uint64_t ms)
{
	uint64_t bound = ms + GUEST_SLACK_MS;

	if (g->env->accel == DOMAIN_ACCEL_TCG)
		bound += ms / 2;
	return bound;
}

/*
 * The last @nlines lines of the console log @path, cleaned for a reason
 * (report_console_tail()), or NULL when it cannot be read.
 */
static char *console_tail(const char *path, unsigned int nlines)
{
	size_t len;
	char *log, *tail;

	if (fs_read_tail(path, GUEST_CONSOLE_READ, &log, &len) < 0)
		return NULL;
	tail = report_console_tail(log, len, nlines);
	free(log);
	return tail;
}

/*
 * The title of the incident that took the guest down, as the console
 * classifier (report.c) names it: the first fatal incident in @tail, or
 * else the last one; "" when the tail holds none.
 */
static void crash_title(const char *tail, char *buf, size_t len)
{
	struct report *reps = NULL;
	const struct report *pick = NULL;
	ssize_t n;

	buf[0] = '\0';
	n = report_parse(tail, strlen(tail), &reps);
	for (ssize_t i = 0; i < n && !pick; i++)
		if (reps[i].fatal)
			pick = &reps[i];
	if (!pick && n > 0)
		pick = &reps[n - 1];
	if (pick) {
		static const char cut[] = " (report cut off)";

		snprintf(buf, len, "%s", pick->title);
		if (pick->corrupted && strlen(buf) + sizeof(cut) <= len)
			strcat(buf, cut);
	}
	free(reps);
}

char *guest_console_reason(const char *what, const char *console)
{
	char *wide = console_tail(console, GUEST_TITLE_LINES);
	char *tail = console_tail(console, GUEST_CONSOLE_TAIL);
	char title[256] = "";
	char *s;

	if (wide)
		crash_title(wide, title, sizeof(title));
	if (asprintf(&s, "%s%s%s\nconsole (last %d lines of %s):\n%s", what,
		     *title ? ": " : "", title, GUEST_CONSOLE_TAIL, console,
		     tail && *tail ? tail : "(empty)") < 0)
		s = NULL;
	free(wide);
	free(tail);
	return s;
}
