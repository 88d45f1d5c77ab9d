// SPDX-License-Identifier: GPL-2.0-only
/*
 * run_spec_run() (spec.h): the plan, then one round in the run directory
 * with the report, the exit code and the exports (--junit, --kcidb); or,
 * with --repeat N, N rounds, each in its own directory on fresh VMs, and
 * the table of what flipped between them (results/repeat.c).
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "export/export.h"
#include "results/repeat.h"
#include "run/plan.h"
#include "vm/domain.h"
#include "vm/vm.h"
#include "results/rundir.h"

/*
 * The first SIGINT or SIGTERM ends the run cleanly: the running scenario
 * and the rest become errors, and summary.json is still written; with
 * --repeat, no further round starts. A second one kills hostctl (the
 * handler is reset), and libvirt's embedded QEMUs die with it.
 */
static volatile sig_atomic_t interrupted; /* the signal, or 0 */

static void on_signal(int sig)
{
	interrupted = sig;
	vm_interrupt();
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal,
				.sa_flags = SA_RESETHAND };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/*
 * A run outlives its reader: when its standard output closes early
 * (hostctl run all | head -3), a write there fails with EPIPE instead of
 * killing hostctl mid-run, so the run goes on to its end, stores every
 * result, tears its VMs down and exits with its verdicts' code; only the
 * progress stops. A handler rather than SIG_IGN: a program hostctl
 * starts gets SIGPIPE's default back at exec. (Read-only verbs keep the
 * default, as main.c sets it, and die quietly as git does.)
 */
static volatile sig_atomic_t reader_gone;

static void on_sigpipe(int sig)
{
	(void)sig;
	reader_gone = 1;
}

static void outlive_reader(void)
{
	struct sigaction sa = { .sa_handler = on_sigpipe };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
}

/* Whether stdout is a pipe with no reader left: SIGPIPE came, or poll()
 * says so (once the VMs' set-up has run, SIGPIPE is ignored, as
 * /proc/PID/status shows mid-run, and a write fails without it). */
static bool stdout_reader_gone(void)
{
	struct pollfd pfd = { .fd = STDOUT_FILENO };

	return reader_gone ||
	       (poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLERR));
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Where the closing line goes: after the text report, else on stderr
 * (stdout holds KTAP or JSON). */
static FILE *closing_file(const struct run_spec *s)
{
	return s->format == RES_FORMAT_TEXT ? stdout : stderr;
}

/* The exit code for a run's verdicts (res_run_outcome()). */
static enum run_exit run_exit(const struct res_run *run)
{
	switch (res_run_outcome(run)) {
	case RES_OUTCOME_OK:
		return RUN_EXIT_GREEN;
	case RES_OUTCOME_KERNEL:
		return RUN_EXIT_RED;
	default:
		return RUN_EXIT_LAB;
	}
}

/* --junit and --kcidb: 0 when written or not asked for, else -errno
 * after saying why. */
static int export_run(const struct run_spec *s, const struct run_plan *p,
		      const struct res_run *run)
{
	char patches[PATH_MAX + 16], err[1024];
	int r;

	if (!s->junit && !s->kcidb)
		return 0;
	snprintf(patches, sizeof(patches), "%s/patches", s->kernel_dir);
	r = export_write(run, p->run_dir, p->su.cache_dir, patches, s->junit,
			 s->kcidb, err, sizeof(err));
	if (r < 0)
		fprintf(stderr, "hostctl run: %s\n", err);
	return r;
}

/* A run without --repeat: one round in the run directory. */
static enum run_exit run_once(const struct run_spec *s, struct run_plan *p)
{
	enum run_exit ret = RUN_EXIT_SETUP;
	struct res_run run = { 0 };
	enum round_result rr;
	char *summary = NULL;

	catch_signals();
	rr = run_round(s, p, p->run_dir, p->run_id, NULL, &run);
	if (rr == ROUND_NOT_RUN)
		goto out;
	if (rr == ROUND_NO_LIBVIRT) {
		ret = RUN_EXIT_LAB;
		goto out;
	}
	if (s->exec) {
		ret = rr == ROUND_WRITE_FAILED ?
			      RUN_EXIT_LAB :
			      exec_exit(&run, p->run_dir, interrupted);
		goto out;
	}
	switch (s->format) {
	case RES_FORMAT_TEXT:
		/* A repro's cut run has no totals: its closing line says. */
		if (!run.repro_until_step)
			progress_totals(&p->prog, &run, stdout);
		else if (run.n && !proto_verdict_ok(run.v[0].verdict))
			res_text_scenario(&run.v[0], stdout);
		break;
	case RES_FORMAT_KTAP:
		/* Streamed as the scenarios ended (round.c). */
		break;
	case RES_FORMAT_JSON:
		if (res_summary_json(&run, &summary) < 0) {
			fprintf(stderr, "hostctl run: out of memory\n");
			goto out;
		}
		fputs(summary, stdout);
		break;
	}
	fflush(stdout);
	progress_closing(&run, now_ms() - p->start_ms, p->run_dir,
			 closing_file(s));
	fflush(closing_file(s));
	ret = rr == ROUND_WRITE_FAILED ? RUN_EXIT_LAB : run_exit(&run);
	if (export_run(s, p, &run) < 0)
		ret = RUN_EXIT_LAB;
out:
	free(summary);
	res_run_free(&run);
	return ret;
}

/*
 * Round @k of a repeated run: its own directory round-K and run id
 * RUN-ID-rK, and vlalab.round=K on the guest's kernel command line, so a
 * scenario can read its round from /proc/cmdline. Every runner_run()
 * boots its own VMs, so no guest outlives its round.
 */
static enum round_result repeat_round(const struct run_spec *s,
				      struct run_plan *p, unsigned int k,
				      struct res_run *run)
{
	char dir[PATH_MAX + 32], run_id[80], cmdline[512];
	enum round_result rr;
	int r;

	snprintf(dir, sizeof(dir), "%s/" RUNDIR_ROUND, p->run_dir, k);
	snprintf(run_id, sizeof(run_id), "%s-r%u", p->run_id, k);
	snprintf(cmdline, sizeof(cmdline), "%s vlalab.round=%u",
		 domain_default_cmdline, k);
	r = fs_mkdir_p(dir);
	if (r < 0) {
		fprintf(stderr, "hostctl run: round directory '%s': %s\n", dir,
			strerror(-r));
		return ROUND_NOT_RUN;
	}
	if (p->prog.f) {
		progress_clear(&p->prog);
		fprintf(p->prog.f, "round %u of %u: %s\n", k, s->repeat, dir);
		fflush(p->prog.f);
	}
	rr = run_round(s, p, dir, run_id, cmdline, run);
	if (rr != ROUND_RAN)
		return rr;
	if (s->format == RES_FORMAT_TEXT) {
		progress_totals(&p->prog, run, stdout);
		fflush(stdout);
	}
	return ROUND_RAN;
}

/* "hostctl run: flipped: ..." on stderr, naming every scenario that did. */
static void say_flipped(const struct repeat_table *t)
{
	size_t n = repeat_nflipped(t);
	bool first = true;

	if (!n)
		return;
	fprintf(stderr,
		"hostctl run: flipped: %zu of %zu scenario%s over %zu rounds:",
		n, t->n, t->n == 1 ? "" : "s", t->rounds);
	for (size_t i = 0; i < t->n; i++) {
		if (!repeat_flipped(t, &t->v[i]))
			continue;
		fprintf(stderr, "%s %s", first ? "" : ",", t->v[i].name);
		first = false;
	}
	fputc('\n', stderr);
}

/*
 * The run directory's summary.json for the table as it stands (marked
 * incomplete until every round is in it) into @summary, and its KTAP
 * into results.ktap. 0, or -errno after saying which could not be
 * written.
 */
static int repeat_write(const struct run_plan *p, const struct repeat_table *t,
			const char *accelerator, char **summary)
{
	char *ktap = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	free(*summary);
	*summary = NULL;
	r = repeat_summary_json(t, p->run_id, accelerator, p->su.manifest,
				summary);
	if (r == 0)
		r = run_write_file(p->run_dir, RUNDIR_SUMMARY, *summary);
	if (r < 0) {
		fprintf(stderr,
			"hostctl run: writing '%s/" RUNDIR_SUMMARY "': %s\n",
			p->run_dir, strerror(-r));
		return r;
	}
	f = open_memstream(&ktap, &len);
	if (!f) {
		fprintf(stderr, "hostctl run: out of memory\n");
		return -ENOMEM;
	}
	repeat_ktap(t, f);
	r = fclose(f) == EOF ? -ENOMEM : 0;
	if (r == 0)
		r = run_write_file(p->run_dir, RUNDIR_KTAP, ktap);
	free(ktap);
	if (r < 0)
		fprintf(stderr,
			"hostctl run: writing '%s/" RUNDIR_KTAP "': %s\n",
			p->run_dir, strerror(-r));
	return r;
}

/* The table of a repeated run on stdout in s->format. */
static void repeat_report(const struct run_spec *s, const struct run_plan *p,
			  const struct repeat_table *t, const char *summary)
{
	char took[32];

	switch (s->format) {
	case RES_FORMAT_TEXT:
		repeat_text(t, stdout);
		break;
	case RES_FORMAT_KTAP:
		repeat_ktap(t, stdout);
		break;
	case RES_FORMAT_JSON:
		fputs(summary, stdout);
		break;
	}
	fflush(stdout);
	say_flipped(t);
	progress_duration(now_ms() - p->start_ms, took, sizeof(took));
	fprintf(closing_file(s),
		"vlalab: %zu round%s of %zu scenario%s: %zu flipped in %s; results: %s\n",
		t->rounds, t->rounds == 1 ? "" : "s", t->n,
		t->n == 1 ? "" : "s", repeat_nflipped(t), took, p->run_dir);
	fflush(closing_file(s));
}

/*
 * --repeat N: N rounds, one after another, each on fresh VMs; then the
 * table over them in summary.json ("repeat") and on stdout. A signal ends
 * the round it came in, which stays out of the table, and no other
 * starts. Exit 0 only when every round ran and every scenario passed with
 * the same verdict in each.
 */
static enum run_exit run_repeat(const struct run_spec *s, struct run_plan *p)
{
	struct repeat_table t = { .requested = s->repeat };
	enum run_exit ret = RUN_EXIT_SETUP;
	char accelerator[16] = "";
	char *summary = NULL;
	int r;

	catch_signals();
	/* What a killed hostctl leaves: no round yet, incomplete. */
	if (repeat_write(p, &t, accelerator, &summary) < 0) {
		ret = RUN_EXIT_LAB;
		goto out;
	}
	for (unsigned int k = 1; k <= s->repeat && !interrupted; k++) {
		struct res_run run = { 0 };
		enum round_result rr = repeat_round(s, p, k, &run);

		if (rr != ROUND_RAN) {
			/* A round's result file that could not be written. */
			if (rr == ROUND_WRITE_FAILED)
				ret = RUN_EXIT_LAB;
			res_run_free(&run);
			goto out;
		}
		if (interrupted) {
			/* Its errors say "interrupted", not how it runs. */
			fprintf(stderr,
				"hostctl run: round %u was cut short by a signal: left out of the table (its results: %s/" RUNDIR_ROUND
				")\n",
				k, p->run_dir, k);
			res_run_free(&run);
			break;
		}
		r = repeat_add_round(&t, &run);
		if (*run.accelerator)
			snprintf(accelerator, sizeof(accelerator), "%s",
				 run.accelerator);
		res_run_free(&run);
		if (r < 0) {
			fprintf(stderr, "hostctl run: round %u: %s\n", k,
				strerror(-r));
			goto out;
		}
		if (t.rounds < t.requested &&
		    repeat_write(p, &t, accelerator, &summary) < 0) {
			ret = RUN_EXIT_LAB;
			goto out;
		}
	}
	if (t.rounds < t.requested)
		fprintf(stderr,
			"hostctl run: interrupted: %zu of %zu rounds in the table\n",
			t.rounds, t.requested);
	r = repeat_write(p, &t, accelerator, &summary);
	if (!summary)
		goto out;
	repeat_report(s, p, &t, summary);
	ret = r < 0	    ? RUN_EXIT_LAB :
	      repeat_ok(&t) ? RUN_EXIT_GREEN :
			      RUN_EXIT_RED;
out:
	free(summary);
	repeat_table_free(&t);
	return ret;
}

enum run_exit run_spec_run(const struct run_spec *s)
{
	struct run_plan p = { .start_ms = now_ms() };
	enum run_exit ret = RUN_EXIT_SETUP;

	outlive_reader();
	if (plan_run(s, &p) == 0)
		ret = s->repeat ? run_repeat(s, &p) : run_once(s, &p);
	fflush(stdout);
	if (ferror(stdout) && p.run_dir[0])
		fprintf(stderr,
			"hostctl run: %s; the run went on to its end: '%s'\n",
			stdout_reader_gone() ?
				"its output's reader went away" :
				"writing its standard output failed",
			p.run_dir);
	plan_free(&p);
	return ret;
}
