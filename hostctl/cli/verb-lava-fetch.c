// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl lava fetch JOBDIR LOG: a LAVA job's console log back into a run
 * directory (LAVA's own log: lava-log.c; a server's: verb-lava-server.c
 * fetches it and hands it to lava_fetch_log()). The frames (guest/framed.h) go through the session a local
 * run uses, and each scenario's verdict is verdict_decide()'s; a frame
 * lost or forged makes every scenario after it an error, never a pass.
 * The console's kernel text (the lines that are not frames) goes to the
 * run's console log and through the crash judge a local run uses
 * (judge_incidents()): each scenario's incidents, with no VM to dump.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include <json-c/json.h>

#include "fileio.h"
#include "frame.h"
#include "base/boundlog.h"
#include "base/escape.h"
#include "crash/judge.h"
#include "crash/verdict.h"
#include "guest/framed.h"
#include "results/results.h"
#include "results/rundir.h"
#include "run/runner.h"
#include "scenario/scenario.h"
#include "cli/lava.h"
#include "cli/verbs.h"

/* Problems said one line each; the rest are counted (framed_problems()). */
#define LAVA_PROBLEMS_SHOWN 10

struct fetch {
	const char *log;
	struct framed_reader fr;
	struct framed_run run;
	FILE *events;
	char first[256]; /* the first problem */
	/*
	 * A replay: a frame that took guestd's number @replay_seq was
	 * another's, so every scenario that ended in a frame from that number
	 * on may hold a forged event (UINT64_MAX: none).
	 */
	uint64_t replay_seq;
	uint64_t *end_seq; /* each scenario's scenario_end frame */
	uint64_t *end_line; /* and the console line it is on */
	char replay[256];
	/* The guest's clock for the crash judge, and its console's path. */
	struct incident_timeline tl;
	char console[4200];
};

/* The whole console's label: console-lava.log (each scenario's: vmN). */
#define LAVA_VM "lava"

static void on_problem(void *userdata, enum framed_problem p, const char *why)
{
	struct fetch *f = userdata;

	/* A console of kernel text in frames' clothes is bounded output. */
	if (framed_problems(&f->fr) <= LAVA_PROBLEMS_SHOWN)
		fprintf(stderr, "hostctl lava: '%s': %s\n", f->log, why);
	if (p == FRAMED_REPLAY && f->fr.problem_seq < f->replay_seq) {
		f->replay_seq = f->fr.problem_seq;
		snprintf(f->replay, sizeof(f->replay),
			 "a forged or repeated frame in the console log: %s",
			 why);
	}
	if (!f->first[0])
		snprintf(f->first, sizeof(f->first),
			 "the console log lost frames: %s", why);
}

/* Each payload to the session and, accepted, to events.jsonl. */
static int on_payload(void *userdata, uint64_t seq, const char *payload,
		      size_t len)
{
	struct fetch *f = userdata;
	size_t ended = 0;
	char label[32];
	int r;

	/* A frame lost before: what follows cannot be trusted. */
	if (f->first[0])
		return 0;
	/*
	 * The event's VM is its scenario's, as write_vm_consoles() splits
	 * the console: after the scenario_end of one, the next's (after the
	 * last's, still the last's), so that events.jsonl and summary.json
	 * name the same VM.
	 */
	for (size_t i = 0; i < f->run.n; i++)
		ended += f->end_seq[i] != UINT64_MAX;
	if (ended && ended >= f->run.n)
		ended = f->run.n - 1;
	r = rundir_vm_label(label, sizeof(label), (unsigned int)ended + 1);
	if (r < 0)
		return r;
	r = framed_run_payload(&f->run, seq, payload, len);
	for (size_t i = 0; i < f->run.n; i++)
		if (f->run.scs[i].done && f->end_seq[i] == UINT64_MAX) {
			f->end_seq[i] = seq;
			f->end_line[i] = f->fr.lineno;
		}
	if (r == 0 && len > 1)
		fprintf(f->events, "{\"vm\":\"%s\",%.*s\n", label, (int)len - 1,
			payload + 1);
	return r;
}

/* Each accepted event to the crash judge's timeline, as guest.c does. */
static void on_event(void *userdata, const struct proto_event *ev)
{
	struct fetch *f = userdata;

	/* A fresh kernel: its printk clock starts again. */
	if (ev->type == PROTO_EV_HELLO)
		incident_timeline_free(&f->tl);
	/* A failed feed only costs attribution: the report still counts. */
	(void)incident_timeline_feed(&f->tl, ev);
}

/*
 * The console's kernel text, every line but its frames (a frame's line
 * keeps what came before its prefix), from its line @first to @last (the
 * first is 1, as the framed reader counts), into the console log @path,
 * bounded as a local run's (boundlog.h). 0 or a negative errno.
 */
static int write_console(const char *path, const char *buf, size_t len,
			 uint64_t first, uint64_t last)
{
	struct boundlog b;
	const char *line = buf, *nl;
	uint64_t k = 0;
	int r, c;

	r = boundlog_open_stream(&b, path,
				 (uint64_t)BOUNDLOG_MAX_MB_DEFAULT << 20);
	if (r < 0)
		return r;
	for (; line < buf + len && r == 0; line = nl + 1) {
		const char *payload;
		size_t skip = 0, plen, n;
		uint64_t seq;
		bool frame;

		nl = memchr(line, '\n', (size_t)(buf + len - line));
		if (!nl)
			nl = buf + len;
		if (++k < first)
			continue;
		if (k > last)
			break;
		n = (size_t)(nl - line);
		frame = frame_parse(line, n, &skip, &seq, &payload, &plen) !=
			FRAME_NONE;
		if (frame)
			n = skip;
		if (n || (!frame && nl < buf + len)) {
			r = boundlog_bytes(&b, line, n);
			if (r == 0)
				r = boundlog_bytes(&b, "\n", 1);
		}
	}
	if (r == 0)
		r = boundlog_flush(&b);
	c = boundlog_close(&b);
	return r < 0 ? r : c;
}

/*
 * Each scenario that ran gets a VM label as in a local run (vm1, vm2, ...
 * in order) and its part of the console as that VM's console log: from
 * the line after the previous one's scenario_end frame (the first: from
 * the boot) to its own (the last: to the log's end). The exports find a
 * scenario's console so, and the tail of that log is the scenario's, as
 * for a local run's VM, which is not reused after a scenario that did
 * not pass. console-lava.log keeps the whole console.
 */
static int write_vm_consoles(const struct fetch *f, const char *dir,
			     const char *buf, size_t len, struct res_run *run)
{
	char path[4200], label[32];
	uint64_t first = 1;

	for (size_t i = 0; i < run->n && i < f->run.next; i++) {
		int r = rundir_vm_label(label, sizeof(label),
					(unsigned int)i + 1);

		if (r < 0)
			return r;
		snprintf(path, sizeof(path), "%s/" RUNDIR_CONSOLE, dir, label);
		/* The last keeps the log's end: what the kernel said after. */
		r = write_console(path, buf, len, first,
				  i + 1 < f->run.next && i + 1 < run->n ?
					  f->end_line[i] :
					  UINT64_MAX);
		if (r < 0)
			return r;
		snprintf(run->v[i].vm, sizeof(run->v[i].vm), "%s", label);
		if (f->end_line[i] == UINT64_MAX)
			break;
		first = f->end_line[i] + 1;
	}
	return 0;
}

/* The index in @set of the scenario @name, or -ENOENT. */
static ssize_t scenario_index(const struct scn_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->v[i].name, name))
			return (ssize_t)i;
	return -ENOENT;
}

/*
 * The scenarios the job runs, in order, into @sel: @names when the job's
 * copy on a server gave them (@nnames of them), else those of the run
 * requests in @jobdir/requests.jsonl.
 */
static int job_scenarios(const char *jobdir, const char *const *names,
			 size_t nnames, const struct scn_set *set, size_t **sel,
			 size_t *n)
{
	char path[4096], *buf, *line, *save = NULL;
	size_t len;
	ssize_t i;
	int r;

	if (names) {
		*sel = calloc(nnames ? nnames : 1, sizeof(**sel));
		if (!*sel)
			return -ENOMEM;
		for (*n = 0; *n < nnames; (*n)++) {
			i = scenario_index(set, names[*n]);
			if (i < 0) {
				esc_term_printf(
					stderr,
					"hostctl lava: the job runs '%s', no scenario of this tree\n",
					names[*n]);
				return -EINVAL;
			}
			(*sel)[*n] = (size_t)i;
		}
		return 0;
	}
	snprintf(path, sizeof(path), "%s/requests.jsonl", jobdir);
	r = fileio_read(path, LAVA_LOG_MAX, &buf, &len, NULL);
	if (r < 0) {
		fprintf(stderr, "hostctl lava: '%s': %s\n", path, strerror(-r));
		return r;
	}
	*sel = calloc(len + 1, sizeof(**sel));
	*n = 0;
	for (line = strtok_r(buf, "\n", &save); line && *sel;
	     line = strtok_r(NULL, "\n", &save)) {
		struct json_object *o = json_tokener_parse(line), *name;

		i = -ENOENT;
		if (o && json_object_object_get_ex(o, "scenario", &name))
			i = scenario_index(set, json_object_get_string(name));
		json_object_put(o);
		if (i < 0) {
			fprintf(stderr,
				"hostctl lava: '%s': a request for no scenario of this tree\n",
				path);
			r = -EINVAL;
			break;
		}
		(*sel)[(*n)++] = (size_t)i;
	}
	free(buf);
	return *sel ? r : -ENOMEM;
}

/*
 * The crash judge a local run uses (judge.c) on the fetched console: the
 * scenario's incidents; a report of an earlier scenario is listed there
 * once (a late one). No VM: no dump, no kernel log from memory, no hang.
 * Whether the guest survived: its scenario ended.
 */
static void judge(struct fetch *f, const struct scenario *s,
		  const struct res_scenario *view, struct res_scenario *sc,
		  struct res_run *run, const char *label)
{
	struct judge_in in = {
		.label = label,
		.console = f->console,
		.tl = &f->tl,
		.s = s,
		.sc = sc,
		.run = run,
		.survived = view->done,
		.open_step = -1,
	};

	if (f->run.s.cur == view && f->run.s.open_step >= 0)
		in.open_step = f->run.s.open_step;
	judge_incidents(&in);
}

static void decide(struct fetch *f, const struct scenario *s,
		   struct res_scenario *view, struct res_run *run, size_t i,
		   bool started, uint64_t end_seq)
{
	struct res_scenario *sc = &run->v[i];
	struct verdict_facts vf;
	char label[32];

	if (!started) {
		verdict_decide_unrun(s, sc, VERDICT_CAUSE_HOST,
				     f->first[0] ?
					     f->first :
					     "not run: the log ends before it");
		return;
	}
	verdict_facts_init(&vf, s);
	/* A refused line is the host's business, not a crash (as locally). */
	if (!f->run.refused && f->console[0]) {
		/* Its VM's label, as write_vm_consoles() gives it. */
		(void)rundir_vm_label(label, sizeof(label),
				      (unsigned int)i + 1);
		judge(f, s, view, sc, run, label);
		vf.judged = true;
		vf.survived = view->done;
	}
	/* The guest's word, unless a forged frame may have said it. */
	if (end_seq == UINT64_MAX || end_seq < f->replay_seq)
		vf.claim = view;
	/* What the session recorded beside the steps, as take_view() does. */
	sc->duration_ms = view->duration_ms;
	if (view->nleaks) {
		res_leaks_free(sc);
		sc->leaks = view->leaks;
		sc->nleaks = view->nleaks;
		view->leaks = NULL;
		view->nleaks = 0;
	}
	if (end_seq != UINT64_MAX && end_seq >= f->replay_seq)
		verdict_note(&vf, VERDICT_CAUSE_HOST, VERDICT_WHOLE, f->replay);
	else if (f->first[0] && !view->done)
		verdict_note(&vf, VERDICT_CAUSE_HOST, VERDICT_WHOLE, f->first);
	else if (f->run.refused)
		verdict_note_end(&vf, VERDICT_WHOLE, VM_END_PROTOCOL,
				 f->run.s.err);
	else if (!view->done)
		verdict_note_end(&vf, VERDICT_WHOLE, VM_END_DIED,
				 "the console log ends during it");
	(void)verdict_decide(&vf, sc);
	verdict_facts_free(&vf);
}

int lava_job_id_read(const char *jobdir, char *id, size_t size)
{
	char path[4200], *buf = NULL;
	size_t len = 0, n = 0;
	int r;

	snprintf(path, sizeof(path), "%s/lava-job-id", jobdir);
	r = fileio_read(path, 64, &buf, &len, NULL);
	if (r < 0)
		return r;
	while (n < len && buf[n] >= '0' && buf[n] <= '9')
		n++;
	r = -EINVAL;
	if (n && n <= 20 && n < size &&
	    (n == len || (n + 1 == len && buf[n] == '\n'))) {
		snprintf(id, size, "%.*s", (int)n, buf);
		r = 0;
	}
	free(buf);
	return r;
}

int lava_fetch(const char *scenarios, const char *results, const char *jobdir,
	       const char *log)
{
	char host[RES_HOST_MAX], id[24], *buf;
	size_t len;
	bool cut = false;
	int r;

	r = fileio_read(log, LAVA_LOG_MAX, &buf, &len, &cut);
	if (r < 0 || cut) {
		fprintf(stderr, "hostctl lava: '%s': %s\n", log,
			cut ? "larger than the 1 GiB a log may hold" :
			      strerror(-r));
		if (r == 0)
			free(buf);
		return EXIT_SETUP;
	}
	/*
	 * Where the job ran, for each scenario's "host": "lava job N" when
	 * JOBDIR/lava-job-id (written by lava submit) holds a job number,
	 * else "lava-run" (a dispatcher run by hand). Anything else in the
	 * file is ignored, never copied.
	 */
	if (lava_job_id_read(jobdir, id, sizeof(id)) == 0)
		snprintf(host, sizeof(host), "lava job %s", id);
	else
		snprintf(host, sizeof(host), "lava-run");
	return lava_fetch_log(scenarios, results, jobdir, NULL, 0, log, buf,
			      len, host);
}

int lava_fetch_log(const char *scenarios, const char *results,
		   const char *jobdir, const char *const *names, size_t nnames,
		   const char *log, char *raw, size_t len, const char *host)
{
	struct fetch f = { .log = log, .replay_seq = UINT64_MAX };
	struct scn_set set = { 0 };
	struct res_run run = { 0 };
	struct res_scenario *views = NULL;
	char dir[4096], path[4200], *buf = NULL;
	size_t *sel = NULL, n = 0, bad = 0;
	time_t now = time(NULL);
	int r, code = EXIT_SETUP;

	r = lava_log_console(raw, len, &buf, &len, &bad);
	if (r < 0) {
		free(raw);
		fprintf(stderr, "hostctl lava: '%s': %s\n", log, strerror(-r));
		return EXIT_SETUP;
	}
	/* A record not read may have held a console line: the run is red. */
	if (bad)
		fprintf(stderr,
			"hostctl lava: '%s': %zu lines look like LAVA's records but are not: console lines may be lost\n",
			log, bad);
	r = scn_load_dir(scenarios, &set, NULL);
	if (r < 0) {
		fprintf(stderr,
			"hostctl lava: cannot load the scenarios in '%s'\n",
			scenarios);
		goto out;
	}
	if (job_scenarios(jobdir, names, nnames, &set, &sel, &n) < 0)
		goto out;
	run.v = calloc(n ? n : 1, sizeof(*run.v));
	views = calloc(n ? n : 1, sizeof(*views));
	f.end_seq = malloc((n ? n : 1) * sizeof(*f.end_seq));
	f.end_line = malloc((n ? n : 1) * sizeof(*f.end_line));
	if (!run.v || !views || !f.end_seq || !f.end_line)
		goto out;
	for (size_t i = 0; i < n; i++)
		f.end_seq[i] = f.end_line[i] = UINT64_MAX;
	run.n = n;
	/*
	 * Each view shares its scenario's steps, as a local run's implicit
	 * boot does (run-scenario.c's view_init()): the session records each
	 * step's result there, which summary.json, KTAP and JUnit report.
	 */
	for (size_t i = 0; i < n; i++) {
		struct res_scenario *v = &views[i], *sc = &run.v[i];

		if (runner_result_init(&set.v[sel[i]], sc) < 0)
			goto out;
		snprintf(v->name, sizeof(v->name), "%s", sc->name);
		v->steps = sc->steps;
		v->nsteps = sc->nsteps;
		v->ncleanup = sc->ncleanup;
		v->incident_expected = sc->incident_expected;
	}
	strftime(run.run_id, sizeof(run.run_id), "%Y%m%d-%H%M%S-lava",
		 gmtime(&now));
	snprintf(dir, sizeof(dir), "%s/%s", results, run.run_id);
	if ((mkdir(results, 0755) < 0 && errno != EEXIST) ||
	    mkdir(dir, 0755) < 0) {
		fprintf(stderr, "hostctl lava: '%s': %s\n", dir,
			strerror(errno));
		goto out;
	}
	snprintf(path, sizeof(path), "%s/" RUNDIR_EVENTS, dir);
	f.events = fopen(path, "we");
	if (!f.events)
		goto out;
	snprintf(path, sizeof(path), "%s/" RUNDIR_CONSOLE, dir, LAVA_VM);
	r = write_console(path, buf, len, 1, UINT64_MAX);
	if (r < 0) {
		fprintf(stderr, "hostctl lava: writing '%s': %s\n", path,
			strerror(-r));
		goto out;
	}
	snprintf(f.console, sizeof(f.console), "%s", path);
	session_init(&f.run.s);
	f.run.s.on_event = on_event;
	f.run.s.userdata = &f;
	f.run.scs = views;
	f.run.n = n;
	framed_init(&f.fr);
	f.fr.on_payload = on_payload;
	f.fr.on_problem = on_problem;
	f.fr.userdata = &f;
	framed_feed(&f.fr, buf, len);
	framed_finish(&f.fr);
	if (!f.run.s.hello_seen && !f.first[0])
		snprintf(f.first, sizeof(f.first),
			 "no frame from guestd in the console log");
	if (framed_problems(&f.fr) > LAVA_PROBLEMS_SHOWN)
		fprintf(stderr,
			"hostctl lava: '%s': %" PRIu64
			" more problems with frames\n",
			log, framed_problems(&f.fr) - LAVA_PROBLEMS_SHOWN);
	if (f.run.refused)
		fprintf(stderr,
			"hostctl lava: '%s': the session refused a line: %s\n",
			log, f.run.s.err);
	for (size_t i = 0; i < n; i++)
		decide(&f, &set.v[sel[i]], &views[i], &run, i, i < f.run.next,
		       f.end_seq[i]);
	snprintf(run.accelerator, sizeof(run.accelerator), "lava");
	for (size_t i = 0; i < n; i++)
		snprintf(run.v[i].host, sizeof(run.v[i].host), "%s", host);
	r = write_vm_consoles(&f, dir, buf, len, &run);
	if (r == 0)
		r = res_summary_write(dir, &run, RES_COMPLETE_YES);
	if (r == 0) {
		FILE *k;

		snprintf(path, sizeof(path), "%s/" RUNDIR_KTAP, dir);
		k = fopen(path, "we");
		if (k) {
			res_ktap(&run, k);
			r = fclose(k) == 0 ? 0 : -errno;
		} else {
			r = -errno;
		}
	}
	if (fclose(f.events) != 0 && r == 0)
		r = -errno;
	f.events = NULL;
	if (r < 0) {
		fprintf(stderr, "hostctl lava: writing '%s': %s\n", dir,
			strerror(-r));
		goto out;
	}
	res_text(&run, stdout);
	printf("run directory: %s\n", dir);
	code = res_run_ok(&run) && !f.first[0] && !bad ? EXIT_GREEN : EXIT_RED;
out:
	if (f.events)
		fclose(f.events);
	framed_free(&f.fr);
	incident_timeline_free(&f.tl);
	/* What a view holds of its own (not the steps: its scenario's). */
	for (size_t i = 0; views && i < n; i++) {
		res_leaks_free(&views[i]);
		free(views[i].reason);
		free(views[i].cleanup_reason);
	}
	free(views);
	free(f.end_seq);
	free(f.end_line);
	res_run_free(&run);
	free(sel);
	free(buf);
	scn_set_free(&set);
	return code;
}
