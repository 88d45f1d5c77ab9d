// SPDX-License-Identifier: GPL-2.0-only
/*
 * One round of a run (plan.h): events.jsonl and results.ktap opened, the
 * skips before booting reported, the runner's options built from the
 * spec and the plan (-j, the spare VM, the longest scenario first, the
 * holds of --keep-vm-on-fail and repro), runner_run(), and the round's
 * end: KTAP's trailer and summary.json.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/boundlog.h"
#include "fileio.h"
#include "results/history.h"
#include "results/store.h"
#include "run/plan.h"
#include "vm/vm.h"
#include "results/rundir.h"

/*
 * The stored runs -j reads durations from, newest first, until each
 * scenario has one: single-scenario runs (a repro, a test's) come between
 * two runs of all, and a scenario none of them timed would count as
 * SCHED_UNKNOWN_MS.
 */
#define RUN_HISTORY_RUNS 40

int run_write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	return fileio_write_atomic(path, text, strlen(text));
}

void run_runner_opts(const struct setup *su, const char *run_dir,
		     const char *run_id, struct runner_opts *ro)
{
	ro->uri = su->uri;
	ro->cache_dir = su->cache_dir;
	ro->run_dir = run_dir;
	ro->run_id = run_id;
	ro->kernel = su->kernel_path;
	ro->initrd = su->image.path;
}

/* The hold of --keep-vm-on-fail: once, for the first failing scenario. */
struct keep_vm {
	const struct run_spec *s;
	struct progress *prog;
	bool kept;
};

/*
 * Until a line on standard input or, with @secs, @secs seconds, whichever
 * comes first; an end of file on standard input leaves only the bound
 * (none: the hold ends). -EPIPE when the VM died meanwhile.
 */
static int keep_vm_wait(struct vm *vm, uint64_t secs)
{
	uint64_t end_us = vm_now_us() + secs * 1000000;
	int fd = STDIN_FILENO, r;
	char buf[256];
	ssize_t n;

	for (;;) {
		uint64_t now = vm_now_us(), ms = 0;

		if (secs) {
			if (now >= end_us)
				return 0;
			ms = (end_us - now + 999) / 1000;
		}
		r = vm_wait_fd(vm, fd, ms);
		if (r == -ETIMEDOUT && secs)
			return 0;
		if (r < 0)
			return r;
		n = read(STDIN_FILENO, buf, sizeof(buf));
		if (n > 0 || !secs)
			return n < 0 ? -errno : 0;
		if (n < 0 && errno == EINTR)
			continue;
		fd = -1; /* end of file or an error: the bound alone */
	}
}

static void keep_vm_hold(void *data, struct vm *vm, const char *label,
			 const char *domain, const struct res_scenario *sc)
{
	struct keep_vm *k = data;
	uint64_t secs = k->s->keep_vm_s;
	int r;

	if (k->kept || sc->verdict == VERDICT_PASS ||
	    sc->verdict == VERDICT_SKIP || sc->verdict == VERDICT_XFAIL)
		return;
	k->kept = true;
	progress_clear(k->prog);
	res_text_failure(sc, stderr);
	if (secs)
		fprintf(stderr,
			"hostctl run: %s: %s; keeping %s for %" PRIu64
			" s or until a line on standard input: hostctl shell %s\n",
			sc->name, proto_verdict_name(sc->verdict), label, secs,
			domain);
	else
		fprintf(stderr,
			"hostctl run: %s: %s; keeping %s until a line on standard input: hostctl shell %s\n",
			sc->name, proto_verdict_name(sc->verdict), label,
			domain);
	r = keep_vm_wait(vm, secs);
	if (r == -EPIPE)
		fprintf(stderr, "hostctl run: %s died meanwhile (%s)\n", label,
			vm_dead_reason(vm));
}

/*
 * @dir/summary.json for @run, marked @complete. 0, or -EIO after saying
 * why (the lab's own failure, as a result file that cannot be written
 * during the run).
 */
static int write_summary(const char *dir, struct res_run *run,
			 enum res_complete complete)
{
	int r = res_summary_write(dir, run, complete);

	if (r < 0) {
		fprintf(stderr,
			"hostctl run: writing '%s/" RUNDIR_SUMMARY "': %s\n",
			dir, strerror(-r));
		return -EIO;
	}
	return 0;
}

/*
 * The round's end, @complete or not: KTAP's trailer on its streams,
 * results.ktap (@ktap) closed and summary.json written. 0, or -EIO after
 * saying which file could not be written.
 */
static int round_end(struct run_plan *p, const char *dir, FILE *ktap,
		     struct res_run *run, enum res_complete complete)
{
	const char *name = NULL;
	int r, ret = 0;

	run->complete = complete;
	r = progress_end(&p->prog, run, &name);
	if (r < 0) {
		fprintf(stderr, "hostctl run: writing '%s': %s\n", name,
			strerror(-r));
		complete = RES_COMPLETE_NO;
		ret = -EIO;
	}
	p->prog.ktap[0] = p->prog.ktap[1] = NULL;
	if (fclose(ktap) == EOF && ret == 0) {
		fprintf(stderr,
			"hostctl run: writing '%s/" RUNDIR_KTAP "': %m\n", dir);
		complete = RES_COMPLETE_NO;
		ret = -EIO;
	}
	r = write_summary(dir, run, complete);
	return ret < 0 ? ret : r;
}

/*
 * The KTAP streams of a round: @dir/results.ktap always (into *@ret),
 * and stdout for --format ktap on a run without --repeat (whose stdout
 * is the table over the rounds). 0, or -errno after saying why.
 */
static int ktap_open(const struct run_spec *s, struct run_plan *p,
		     const char *dir, char *path, size_t len, FILE **ret)
{
	FILE *f;

	if (snprintf(path, len, "%s/" RUNDIR_KTAP, dir) >= (int)len) {
		fprintf(stderr, "hostctl run: '%s/" RUNDIR_KTAP "': %s\n", dir,
			strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	f = fopen(path, "we");
	if (!f) {
		int r = -errno;

		fprintf(stderr, "hostctl run: '%s': %s\n", path, strerror(-r));
		return r;
	}
	p->prog.ktap[0] = f;
	p->prog.ktap_name[0] = path;
	if (s->format == RES_FORMAT_KTAP && !s->repeat && !s->exec) {
		p->prog.ktap[1] = stdout;
		p->prog.ktap_name[1] = "standard output";
	}
	*ret = f;
	return 0;
}

/*
 * How long each scenario of @run took in the newest stored run (under
 * the results root @results; not a repro's cut run) that ran it, of the
 * last RUN_HISTORY_RUNS: the order -j starts them in, longest first. A
 * NULL array when none tells (or no memory); a run that cannot be read is
 * passed over.
 */
static uint64_t *expect_durations(const char *results,
				  const struct res_run *run)
{
	char **names = NULL, dir[PATH_MAX], err[256];
	size_t n = 0, left = run->n;
	uint64_t *ms;

	ms = calloc(run->n ? run->n : 1, sizeof(*ms));
	if (!ms || store_list(results, &names, &n) < 0) {
		free(ms);
		return NULL;
	}
	for (size_t k = n; k > 0 && n - k < RUN_HISTORY_RUNS && left; k--) {
		struct res_run old = { 0 };

		if (snprintf(dir, sizeof(dir), "%s/%s", results,
			     names[k - 1]) >= (int)sizeof(dir) ||
		    store_read_run(dir, &old, err, sizeof(err)) < 0)
			continue;
		if (old.repro_until_step) {
			res_run_free(&old);
			continue;
		}
		for (size_t i = 0; i < run->n; i++) {
			const struct res_scenario *sc;

			if (ms[i])
				continue;
			sc = hist_find(&old, run->v[i].name);
			if (sc && (sc->wall_ms || sc->duration_ms)) {
				ms[i] = sc->wall_ms ? sc->wall_ms :
						      sc->duration_ms;
				left--;
			}
		}
		res_run_free(&old);
	}
	store_list_free(names, n);
	return ms;
}

/*
 * The runner's options for a round of @s into @dir: the one place a
 * spec becomes runner_opts. @keep is --keep-vm-on-fail's hold state.
 */
static void round_opts(const struct run_spec *s, struct run_plan *p,
		       const char *dir, const char *run_id, const char *cmdline,
		       struct boundlog *events, struct keep_vm *keep,
		       struct runner_opts *ro)
{
	run_runner_opts(&p->su, dir, run_id, ro);
	ro->cmdline = cmdline;
	ro->machine = s->machine;
	ro->accel = s->accel;
	ro->icount = plan_icount(s, p);
	ro->boot_scale = setup_boot_scale(&p->su);
	ro->events = events;
	ro->console_max_mb = s->console_max_mb;
	ro->progress = &p->prog;
	ro->vmlinux = *p->su.kernel.dir ? p->vmlinux : NULL;
	ro->tree = *p->tree ? p->tree : NULL;
	ro->dump_max_mb = s->dump_max_mb;
	ro->dump_format = s->dump_format;
	ro->keep = s->keep;
	ro->cloud = p->cloud_ok ? &p->cloud : NULL;
	ro->all_cloud = s->image != NULL;
	if (!s->initrd && p->su.image.ssh_host_key_pub[0]) {
		ro->vms_dir = p->su.vms_dir;
		ro->ssh_host_key = p->su.image.ssh_host_key_pub;
	}
	if (s->repro) {
		ro->hold = s->repro->hold;
		ro->hold_data = s->repro->hold_data;
	} else if (s->keep_vm_on_fail) {
		keep->s = s;
		keep->prog = &p->prog;
		ro->hold = keep_vm_hold;
		ro->hold_data = keep;
	}
	if (s->exec) {
		ro->output = exec_output;
		ro->output_data = p;
	}
	/* repro's hold is a shell on one VM: one lane. */
	ro->jobs = s->repro ? 1 : s->jobs ? s->jobs : plan_jobs_auto(p);
	/* Several lanes: a VM booted ahead (and the longest first). */
	ro->spare = ro->jobs > 1;
	/* Only hostctl's own initramfs: its guestd answers "restored"; an
	 * --initrd's guest (a fake one, another image) may not. */
	ro->restore = !s->no_restore && !s->initrd;
	/* Several hosts: each lane on one, each VM booted where it runs
	 * (no spare, no saved images, which are one host's). */
	if (s->hosts.n > 1 && !s->repro) {
		ro->hosts = &s->hosts;
		ro->spare = ro->restore = false;
	}
}

/*
 * The runner's options for group @g (plan.h) of the round: a flavour's
 * own kernel, image and vmlinux; no cloud image (its modules disk is the
 * run's kernel's, and plan_flavours() keeps its scenarios there).
 */
static void group_opts(struct run_plan *p, size_t g, struct runner_opts *ro)
{
	const struct plan_flavour *f = &p->fl[g - 1];

	ro->kernel = f->su.kernel_path;
	ro->initrd = f->su.image.path;
	ro->boot_scale = setup_boot_scale(&f->su);
	ro->vmlinux = f->vmlinux;
	ro->tree = *f->su.kernel.tree ? f->su.kernel.tree : NULL;
	ro->cloud = NULL;
	ro->all_cloud = false;
	ro->vms_dir = f->su.image.ssh_host_key_pub[0] ? f->su.vms_dir : NULL;
	ro->ssh_host_key = ro->vms_dir ? f->su.image.ssh_host_key_pub : NULL;
}

/*
 * runner_run() once per group of the selection (the run's kernel first,
 * then each flavour's), the scenarios of the other groups held back as
 * done meanwhile. After a call that did not end the run, or a signal, the
 * groups left are errors that say so.
 */
static int round_groups(struct run_plan *p, const struct runner_opts *base,
			struct res_run *run, char *err, size_t errlen)
{
	bool *held = calloc(run->n ? run->n : 1, sizeof(*held));
	unsigned int vmno = 0;
	int r = 0;

	if (!held) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (size_t g = 0; g <= p->nfl; g++) {
		struct runner_opts ro = *base;
		bool any = false;

		/* One run directory: the VMs numbered on over the calls. */
		ro.vmno = &vmno;
		for (size_t i = 0; i < run->n; i++) {
			held[i] = !run->v[i].done && p->grp[i] != g;
			any |= !run->v[i].done && p->grp[i] == g;
			run->v[i].done |= held[i];
		}
		if (g)
			group_opts(p, g, &ro);
		if (any && r == 0 && run->complete != RES_COMPLETE_NO)
			r = runner_run(&ro, p->scn, run, NULL, err, errlen);
		for (size_t i = 0; i < run->n; i++)
			run->v[i].done &= !held[i];
		for (size_t i = 0; any && i < run->n; i++)
			if (!run->v[i].done && p->grp[i] == g)
				res_scenario_finish(
					&run->v[i], VERDICT_ERROR,
					"not run: the run stopped before its kernel's turn");
	}
	free(held);
	return r;
}

/* The KTAP plan, then the scenarios the kernel cannot run. */
static int round_begin(struct run_plan *p, struct res_run *run)
{
	const char *name = NULL;
	int r;

	r = progress_begin(&p->prog, run, &name);
	for (size_t i = 0; r == 0 && i < run->n; i++)
		if (run->v[i].done)
			r = progress_result(&p->prog, &run->v[i], &name);
	if (r < 0)
		fprintf(stderr, "hostctl run: writing '%s': %s\n", name,
			strerror(-r));
	return r;
}

enum round_result run_round(const struct run_spec *s, struct run_plan *p,
			    const char *dir, const char *run_id,
			    const char *cmdline, struct res_run *run)
{
	char events_path[PATH_MAX + 16], err[PATH_MAX + 256];
	char ktap_path[PATH_MAX + 16];
	struct runner_opts ro = { 0 };
	struct keep_vm keep = { 0 };
	uint64_t *expect_ms = NULL;
	uint64_t t0_us = vm_now_us();
	struct boundlog events;
	FILE *ktap = NULL;
	int r, rc;

	snprintf(events_path, sizeof(events_path), "%s/" RUNDIR_EVENTS, dir);
	r = boundlog_open(&events, events_path, s->events_max_mb << 20,
			  BOUNDLOG_MARK_JSON);
	if (r < 0) {
		fprintf(stderr, "hostctl run: '%s': %s\n", events_path,
			strerror(-r));
		return ROUND_NOT_RUN;
	}
	snprintf(run->run_id, sizeof(run->run_id), "%s", run_id);
	run->kernel = json_object_get(p->su.manifest);
	r = plan_results(s, p, run);
	if (r < 0)
		fprintf(stderr, "hostctl run: out of memory\n");
	else
		r = ktap_open(s, p, dir, ktap_path, sizeof(ktap_path), &ktap);
	if (r < 0) {
		boundlog_close(&events);
		return ROUND_NOT_RUN;
	}
	if (round_begin(p, run) < 0) {
		boundlog_close(&events);
		p->prog.ktap[0] = p->prog.ktap[1] = NULL;
		fclose(ktap);
		write_summary(dir, run, RES_COMPLETE_NO);
		return ROUND_WRITE_FAILED;
	}
	round_opts(s, p, dir, run_id, cmdline, &events, &keep, &ro);
	if (ro.jobs > 1)
		ro.expect_ms = expect_ms = expect_durations(p->results, run);
	r = round_groups(p, &ro, run, err, sizeof(err));
	run->duration_ms = (vm_now_us() - t0_us) / 1000;
	free(expect_ms);
	/* What came after the last scenario, if its tail cannot go. */
	rc = boundlog_close(&events);
	if (r == 0 && rc < 0) {
		snprintf(err, sizeof(err), "writing '%s': %s", events_path,
			 strerror(-rc));
		r = RUNNER_WRITE_FAILED;
	}
	if (r < 0) {
		fprintf(stderr, "hostctl run: libvirt '%s': %s\n", p->su.uri,
			err);
		round_end(p, dir, ktap, run, RES_COMPLETE_NO);
		return ROUND_NO_LIBVIRT;
	}
	if (r == RUNNER_WRITE_FAILED) {
		/* What the disk still takes says how far the run got. */
		fprintf(stderr, "hostctl run: %s; the run stopped\n", err);
		round_end(p, dir, ktap, run, RES_COMPLETE_NO);
		return ROUND_WRITE_FAILED;
	}
	/* A signal cut it short: its scenarios left are errors, not run. */
	r = round_end(p, dir, ktap, run,
		      run->complete == RES_COMPLETE_NO ? RES_COMPLETE_NO :
							 RES_COMPLETE_YES);
	return r < 0 ? ROUND_WRITE_FAILED : ROUND_RAN;
}
