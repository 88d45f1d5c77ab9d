// SPDX-License-Identifier: GPL-2.0-only
/*
 * The multi-boot driver. A scenario with boots (or a disk) gets VMs of its
 * own, one per boot, all in the run directory, with its persistent disk
 * created once (qemu-img) and attached to every boot as vda.
 *
 * Each boot's steps go to guestd as one run request named after the
 * scenario; the session records them into that boot's slice of the
 * scenario's steps. A boot whose guest powers itself off while a step is
 * open, as the boot's end says it should (a hibernation), leaves that
 * step provisionally passed and the session open. The next boot then
 * either resumes the image, and guestd goes on where it stopped (the step
 * ends for real, the rest of that boot's steps follow, then the next
 * boot's own steps), or boots afresh with a hello. Which of the two
 * happened is this boot's "resumed", checked against the file and
 * written to events.jsonl.
 *
 * Each VM is named, started, waited for and stopped through guest.c, as
 * the runner's are; what is this file's is what spans the boots: the
 * disks, the carried session, the views, the marker rule (bootcheck.c).
 *
 * Crashes (docs/crashes.md): the session's events feed the guest's
 * incident timeline with the scenario's own step numbers (guest.whole),
 * kept while a guest resumes (its clocks go on) and begun anew at every
 * hello. Before each
 * boot's VM goes, judge_incidents() reads that boot's console; a guest
 * that powered off or reset as its boot's end says did not die. The
 * verdict rules (judge_verdict()) come once, after the last boot run.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "boots.h"
#include "guest.h"
#include "judge.h"
#include "vm.h"

extern char **environ;

#define BOOTS_HELLO_MS 120000

struct boots_ctx {
	const struct boots_env *env;
	const struct scenario *s;
	struct res_scenario *sc;
	struct res_scenario views[SCN_BOOTS_MAX]; /* each boot's steps */
	struct guest g; /* its session goes on across a resume */
	char disk[PATH_MAX]; /* "" without one */
	char extra[SCN_EXTRA_DISKS_MAX][PATH_MAX];
	size_t nextra;
	bool interrupted;
	/* Crashes: this boot's memory for the dump, whether the VM stopped
	 * as its boot's end expects, a hang the host saw, and whether the
	 * last boot judged left its guest alive. */
	struct pm_opts pm;
	bool stopped;
	bool survived;
	bool no_verdict; /* the guest broke the protocol: the host's error */
};

/* One host line in events.jsonl, so a reader can tell the boots apart. */
static void note(struct boots_ctx *c, const char *what, size_t k,
		 const char *ended, int resumed)
{
	const struct scn_boot *b = &c->s->boots[k];
	struct json_object *o;
	const char *line;

	if (c->sc->boots) {
		struct res_boot *rb = &c->sc->boots[k];

		snprintf(rb->vm, sizeof(rb->vm), "%s", c->g.label);
		if (ended)
			snprintf(rb->ended, sizeof(rb->ended), "%s", ended);
		rb->resumed = resumed;
	}
	o = json_object_new_object();
	if (!o || !c->env->genv->events)
		goto out;
	json_object_object_add(o, "host", json_object_new_string(what));
	json_object_object_add(o, "scenario", json_object_new_string(c->s->name));
	json_object_object_add(o, "boot", json_object_new_int64((int64_t)k));
	json_object_object_add(o, "vm", json_object_new_string(c->g.label));
	if (!ended) {
		json_object_object_add(o, "memory_mib",
				       json_object_new_int64((int64_t)b->memory_mib));
		json_object_object_add(o, "machine",
				       json_object_new_string(b->machine));
		json_object_object_add(o, "expected_end",
				       json_object_new_string(boots_end_name(b->end)));
	} else {
		json_object_object_add(o, "ended", json_object_new_string(ended));
		json_object_object_add(o, "resumed",
				       resumed < 0 ? NULL :
						     json_object_new_boolean(resumed));
	}
	line = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	if (line) {
		fprintf(c->env->genv->events, "%s\n", line);
		fflush(c->env->genv->events);
	}
out:
	json_object_put(o);
}

/* qemu-img create -f FORMAT PATH SIZE, without a shell. 0 or -errno. */
static int disk_create(const struct scn_disk *d, const char *path)
{
	char size[32];
	char *argv[] = { "qemu-img", "create", "-q", "-f",
			 d->format == SCN_DISK_QCOW2 ? "qcow2" : "raw",
			 (char *)path, size, NULL };
	posix_spawn_file_actions_t fa;
	int status, r;
	pid_t pid;

	snprintf(size, sizeof(size), "%" PRIu64 "M", d->size_mib);
	if (posix_spawn_file_actions_init(&fa) != 0)
		return -ENOMEM;
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null",
					 O_WRONLY, 0);
	r = posix_spawnp(&pid, "qemu-img", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r != 0)
		return -r;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EIO;
}

static void disk_path(struct boots_ctx *c, char *buf, size_t len,
		      const char *suffix, const struct scn_disk *d)
{
	char slug[PROTO_NAME_MAX];

	/* Scenario names are [a-z0-9-]+/[a-z0-9-]+: one '/' to replace. */
	snprintf(slug, sizeof(slug), "%s", c->s->name);
	for (char *p = slug; *p; p++)
		if (*p == '/')
			*p = '-';
	snprintf(buf, len, "%s/disk-%s%s.%s", c->env->genv->run_dir, slug,
		 suffix,
		 d->format == SCN_DISK_QCOW2 ? "qcow2" : "img");
}

/* The scenario's verdict from boot @k: "boot K: why". */
static void finish(struct boots_ctx *c, size_t k, enum proto_verdict v,
		   const char *why)
{
	char *text;

	if (c->sc->done)
		return;
	if (asprintf(&text, "boot %zu: %s", k, why) < 0)
		text = NULL;
	res_scenario_finish(c->sc, v, text ? text : why);
	free(text);
}

/* finish() with the console tail and crash title (guest.c). */
static void finish_console(struct boots_ctx *c, size_t k, enum proto_verdict v,
			   const char *what)
{
	char *reason = guest_console_reason(what, c->g.console);

	finish(c, k, v, reason ? reason : what);
	free(reason);
}

/*
 * Boot @k's console through the crash judge, while a VM that died or hung
 * still exists for the dump. The guest survived unless it died (other than
 * by the end its boot expects) or hung. A VM that stopped as expected is
 * gone already (c->g.vm NULL): it needs no dump.
 */
static void judge_boot(struct boots_ctx *c, size_t k)
{
	struct res_scenario *cur = c->g.sess.cur;
	struct judge_in in = {
		.pm = c->env->pm ? &c->pm : NULL, .vm = c->g.vm,
		.label = c->g.label, .console = c->g.console, .tl = &c->g.tl,
		.bundles = c->env->bundles, .s = c->s, .sc = c->sc,
		.hang = c->g.hang, .open_step = -1,
	};

	if (c->g.vm && vm_proto_error(c->g.vm))
		c->no_verdict = true;
	if ((!c->g.vm && !c->stopped) || c->interrupted || c->no_verdict ||
	    !c->env->bundles)
		return;
	if (cur && c->g.sess.open_step >= 0)
		in.open_step =
			c->g.sess.open_step + (cur->steps - c->sc->steps);
	in.survived = !c->g.hang && (c->stopped || !vm_dead(c->g.vm));
	c->pm.memory_mib = c->s->boots[k].memory_mib;
	judge_incidents(&in);
	c->survived = in.survived;
}

/* expect_incident and xfail, once the scenario's boots are done. */
static void judge_end(struct boots_ctx *c)
{
	struct judge_in in = { .s = c->s, .sc = c->sc,
			       .survived = c->survived, .open_step = -1 };

	/* A protocol error or a signal is the host's business, not a crash. */
	if (!c->interrupted && !c->no_verdict && c->env->bundles)
		judge_verdict(&in);
}

static int start_vm(struct boots_ctx *c, size_t k)
{
	const struct scn_boot *b = &c->s->boots[k];
	struct domain_disk disks[1 + SCN_EXTRA_DISKS_MAX];
	struct domain_config dc = { 0 };
	char cmdline[2048], err[1024], what[1200];
	char status[PROTO_NAME_MAX + 64];
	const char *base;
	char *xml;
	int r;

	guest_name(&c->g);
	if (*c->disk) {
		disks[dc.ndisks].path = c->disk;
		disks[dc.ndisks++].format =
			c->s->disk.format == SCN_DISK_QCOW2 ? "qcow2" : "raw";
	}
	c->nextra = 0;
	for (size_t i = 0; i < b->n_extra_disks; i++) {
		char suffix[48];

		snprintf(suffix, sizeof(suffix), "-b%zu-%zu", k, i);
		disk_path(c, c->extra[i], sizeof(c->extra[i]), suffix,
			  &b->extra_disks[i]);
		r = disk_create(&b->extra_disks[i], c->extra[i]);
		if (r < 0) {
			snprintf(what, sizeof(what),
				 "qemu-img could not create '%s': %s",
				 c->extra[i], strerror(-r));
			finish(c, k, VERDICT_ERROR, what);
			return r;
		}
		c->nextra++;
		disks[dc.ndisks].path = c->extra[i];
		disks[dc.ndisks++].format =
			b->extra_disks[i].format == SCN_DISK_QCOW2 ? "qcow2" :
								      "raw";
	}
	base = c->env->genv->cmdline;
	r = boots_cmdline(base ? base : domain_default_cmdline,
			  b->kernel_args, b->n_kernel_args, cmdline,
			  sizeof(cmdline));
	if (r < 0) {
		finish(c, k, VERDICT_ERROR, "the kernel command line is too long");
		return r;
	}
	guest_domain(&c->g, &dc);
	dc.memory_mib = b->memory_mib;
	dc.machine = b->machine;
	dc.cmdline = cmdline;
	dc.disks = disks;
	r = domain_xml(&dc, &xml);
	if (r < 0) {
		finish(c, k, VERDICT_ERROR, "generating the domain XML failed");
		return r;
	}
	c->stopped = false;
	note(c, "boot", k, NULL, -1);
	snprintf(status, sizeof(status), "%s: boot %zu of %zu", c->s->name,
		 k + 1, c->s->nboots);
	r = guest_start(&c->g, xml, b->end, status, err, sizeof(err));
	free(xml);
	if (r < 0) {
		finish(c, k, VERDICT_ERROR, err);
		return r;
	}
	return 0;
}

/*
 * Ask guestd to shut down, then destroy the VM either way. A boot whose
 * end was not recorded yet (it failed) ends "died" or "running".
 */
static void stop_vm(struct boots_ctx *c, size_t k)
{
	if (!c->g.vm)
		return;
	if (c->sc->boots && !*c->sc->boots[k].ended)
		snprintf(c->sc->boots[k].ended, sizeof(c->sc->boots[k].ended),
			 "%s", vm_dead(c->g.vm) ? "died" : "running");
	/* Only a guest between run requests can say bye. */
	guest_stop(&c->g, c->g.sess.hello_seen && !c->g.sess.cur);
	for (size_t i = 0; i < c->nextra; i++)
		if (!c->env->keep)
			unlink(c->extra[i]);
	c->nextra = 0;
}

/*
 * The VM ended while boot @k's view @v was running (guest_ended()). A
 * guest that powered itself off as the boot's end expects leaves the open
 * step provisionally passed (1: carry on); anything else finishes the
 * scenario (0).
 */
static int on_vm_end(struct boots_ctx *c, size_t k, struct res_scenario *v,
		     int r)
{
	struct guest_end end;

	guest_ended(&c->g, r, k, v, &end);
	if (end.stopped) {
		c->stopped = true;
		return 1;
	}
	if (r == -EINTR)
		c->interrupted = true;
	finish(c, k, end.verdict, end.reason ? end.reason : end.what);
	free(end.reason);
	return 0;
}

/*
 * Wait for the running view @v of boot @vk to end (its scenario_end).
 * Returns 1 when it ended and passed, 0 when the scenario is finished
 * (failed), 2 when the guest powered off as boot @k expects.
 */
static int wait_view(struct boots_ctx *c, size_t k, size_t vk,
		     struct res_scenario *v)
{
	const struct scn_boot *b = &c->s->boots[vk];
	int r = guest_wait_run(&c->g, c->s->steps + b->first_step,
			       guest_host_bound(&c->g, b->timeout_ms));

	if (r < 0 || c->g.hang)
		return on_vm_end(c, k, v, r) ? 2 : 0;
	if (v->verdict != VERDICT_PASS) {
		finish(c, vk, v->verdict, v->reason ? v->reason : "failed");
		return 0;
	}
	return 1;
}

/*
 * Boot @k: start it, settle a resume of boot @k - 1 if there is one, run
 * its steps, and see it end as it should. Returns 1 to go on with the
 * next boot (*carry says whether it may resume this one), 0 when the
 * scenario is finished.
 */
static int run_boot(struct boots_ctx *c, size_t k, bool *carry)
{
	const struct scn_boot *b = &c->s->boots[k];
	struct res_scenario *v = &c->views[k];
	char what[512];
	int resumed = -1, r;

	if (*carry)
		guest_carry(&c->g);
	else
		guest_fresh(&c->g);
	*carry = false;
	if (start_vm(c, k) < 0)
		return 0;
	r = guest_wait_up(&c->g, BOOTS_HELLO_MS);
	if (r < 0) {
		if (r == -ETIMEDOUT) {
			c->g.hang = "nothing from the guest after its start";
			snprintf(what, sizeof(what),
				 "nothing from %s within %d s of its start",
				 c->g.label, BOOTS_HELLO_MS / 1000);
			finish_console(c, k, VERDICT_ERROR, what);
			return 0;
		}
		return on_vm_end(c, k, NULL, r);
	}
	if (c->g.sess.carry != SESSION_CARRY_NONE) {
		struct res_scenario *prev = &c->views[k - 1];

		resumed = c->g.sess.carry == SESSION_CARRY_RESUMED;
		if (resumed && c->g.sess.cur == prev) {
			r = wait_view(c, k, k - 1, prev);
			if (r != 1)
				return r == 2 ? (*carry = true, 1) : 0;
		} else if (!resumed && !prev->done) {
			res_scenario_finish(prev, VERDICT_PASS, NULL);
		}
		if (b->resumed == SCN_RESUMED_YES && !resumed) {
			finish(c, k, VERDICT_FAIL,
			       "expected to resume the previous boot's image, but the guest booted afresh (hello)");
			return 0;
		}
		if (b->resumed == SCN_RESUMED_NO && resumed) {
			finish(c, k, VERDICT_FAIL,
			       "expected a fresh boot, but the guest resumed the previous boot's image");
			return 0;
		}
	}
	if (b->nsteps) {
		struct proto_run req;

		boots_request(c->s, k, &req);
		r = guest_send_run(&c->g, &req, v);
		if (r < 0) {
			snprintf(what, sizeof(what),
				 "cannot send the steps: %s", strerror(-r));
			finish(c, k, VERDICT_ERROR, what);
			return 0;
		}
		r = wait_view(c, k, k, v);
		if (r == 0)
			return 0;
		if (r == 2) {
			note(c, "boot_end", k, boots_end_name(b->end), resumed);
			*carry = true;
			return 1;
		}
	}
	if (b->end != SCN_END_RUNNING) {
		/* Its steps are done: the power-off must come within its bound. */
		r = vm_wait(c->g.vm, NULL, NULL, b->timeout_ms);
		if (r != -EPIPE || !vm_guest_stopped(c->g.vm, GUEST_STOP_EVENT_MS)) {
			snprintf(what, sizeof(what),
				 "expected the guest to %s after its steps; %s",
				 b->end == SCN_END_POWEROFF ? "power off" :
							      "reboot",
				 r == -ETIMEDOUT ? "it kept running" :
						   vm_dead_reason(c->g.vm));
			finish_console(c, k, VERDICT_FAIL, what);
			return 0;
		}
		c->stopped = true;
		*carry = true;
	}
	note(c, "boot_end", k, boots_end_name(b->end), resumed);
	return 1;
}

static void init_views(struct boots_ctx *c)
{
	c->sc->boots = calloc(c->s->nboots, sizeof(*c->sc->boots));
	if (c->sc->boots)
		c->sc->nboots = c->s->nboots;
	for (size_t k = 0; k < c->s->nboots; k++) {
		const struct scn_boot *b = &c->s->boots[k];
		struct res_scenario *v = &c->views[k];

		for (size_t i = 0; i < b->nsteps; i++)
			c->sc->steps[b->first_step + i].boot = (uint32_t)k;
		if (c->sc->boots) {
			struct res_boot *rb = &c->sc->boots[k];

			rb->index = (uint32_t)k;
			rb->memory_mib = b->memory_mib;
			snprintf(rb->machine, sizeof(rb->machine), "%s",
				 b->machine);
			snprintf(rb->expected_end, sizeof(rb->expected_end),
				 "%s", boots_end_name(b->end));
			rb->resumed = -1;
		}

		snprintf(v->name, sizeof(v->name), "%s", c->s->name);
		v->steps = c->sc->steps + c->s->boots[k].first_step;
		v->nsteps = c->s->boots[k].nsteps;
	}
}

int boots_run(const struct boots_env *env, const struct scenario *s,
	      struct res_scenario *sc)
{
	struct boots_ctx *c;
	uint64_t t0 = vm_now_us();
	bool carry = false;
	char what[PATH_MAX + 128];
	size_t k = 0;
	int r = 0;

	c = calloc(1, sizeof(*c));
	if (!c) {
		res_scenario_finish(sc, VERDICT_ERROR, "out of memory");
		return 0;
	}
	c->env = env;
	c->s = s;
	c->sc = sc;
	guest_init(&c->g, env->genv);
	/* The session runs one view per boot: the timeline counts the
	 * scenario's steps. */
	c->g.whole = sc;
	c->survived = true;
	if (env->pm)
		c->pm = *env->pm;
	sc->incident_expected = s->expect.set;
	init_views(c);
	if (s->has_disk) {
		disk_path(c, c->disk, sizeof(c->disk), "", &s->disk);
		r = disk_create(&s->disk, c->disk);
		if (r < 0) {
			snprintf(what, sizeof(what),
				 "qemu-img could not create '%s': %s", c->disk,
				 strerror(-r));
			res_scenario_finish(sc, VERDICT_ERROR, what);
			c->disk[0] = '\0';
			goto out;
		}
	}
	for (k = 0; k < s->nboots; k++) {
		bool more = run_boot(c, k, &carry);

		/*
		 * A VM that may be resumed is gone already; stop the others. A
		 * guest that stopped as expected needs no dump, so its VM goes
		 * first; any other is judged while it still exists. (The
		 * libvirt deadlock this order once dodged is avoided in
		 * vm_destroy() itself now.)
		 */
		if (c->stopped) {
			stop_vm(c, k);
			judge_boot(c, k);
		} else {
			judge_boot(c, k);
			stop_vm(c, k);
		}
		if (!more)
			break;
	}
	if (!sc->done) {
		ssize_t bad = boots_check_markers(sc);

		if (bad >= 0) {
			snprintf(what, sizeof(what),
				 "step %zd (marker): the marker read back is not the one set",
				 bad);
			res_scenario_finish(sc, VERDICT_FAIL, what);
		} else {
			res_scenario_finish(sc, VERDICT_PASS, NULL);
		}
	}
	judge_end(c);
out:
	/* The session numbered each boot's steps from 0. */
	for (size_t i = 0; i < sc->nsteps; i++)
		sc->steps[i].index = (uint32_t)i;
	for (size_t i = 0; i < s->nboots; i++)
		free(c->views[i].reason);
	sc->duration_ms = (vm_now_us() - t0) / 1000;
	if (*c->disk && !env->keep)
		unlink(c->disk);
	r = c->interrupted ? -EINTR : 0;
	guest_fini(&c->g);
	free(c);
	return r;
}
