// SPDX-License-Identifier: GPL-2.0-only
/*
 * A guest's lines through the session, the judge's pure part and every
 * writer of a run: what the guest writes must reach no terminal or line
 * format with a control character (hostctl/base/escape.h).
 *
 * The input's first line is the host's side: the scenario's name and its
 * steps' kinds, separated by spaces, a kind starting with '+' a cleanup
 * step ("fz/a read +write"). Each line after it is a line from the guest,
 * fed to the session (after a hello) until one is refused, as vm.c would;
 * the progress line goes out at each step_begin, as guest.c writes it. The
 * kmsg texts accepted stand for the console: the classifier's reports in
 * them become incidents, attributed and summed up as judge.c does, and
 * incident_verdict() has its say. Then every writer runs on the run: text,
 * KTAP (whole, and streamed by progress.c with its plain line), the
 * summary.json, JUnit, KCIDB and HTML, with the console's tail.
 *
 * Invariants: text, KTAP, JUnit, HTML and the plain line are valid UTF-8
 * with no C0 control but newline and tab, no DEL, no C1 control and no
 * U+2028/U+2029; the live line is the same between its own "\r\e[K"s and
 * one screen line each. KTAP holds only KTAP's lines (a version, a plan, a
 * result, a diagnostic, at depth 0, 1 or 2) with one result at depth 0 per
 * scenario, and the streamed KTAP is the whole one; the text's lines that
 * do not start with a blank are its verdict lines, one per scenario, and
 * its totals. summary.json and KCIDB hold no C0 control but newline and
 * read back.
 */
#include <assert.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/escape.h"
#include "export/export.h"
#include "crash/incident.h"
#include "results/progress.h"
#include "crash/report.h"
#include "results/results.h"
#include "guest/session.h"

#define STEPS_MAX 8
#define ERASE "\r\033[K"

#define HELLO                                                               \
	"{\"ev\":\"hello\",\"t_us\":1,\"version\":1,\"release\":\"6.1.0\"," \
	"\"proc_version\":\"Linux\",\"cmdline\":\"console=ttyS0\","         \
	"\"config_digest\":\"00ff\",\"boot_ms\":900}"

struct out {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *out_open(struct out *o)
{
	o->buf = NULL;
	o->len = 0;
	o->f = open_memstream(&o->buf, &o->len);
	assert(o->f);
	return o->f;
}

static void out_close(struct out *o)
{
	assert(fclose(o->f) == 0);
}

static void fail(const char *what, const char *s, size_t len, size_t at)
{
	fprintf(stderr, "fuzz-session: %s: byte %zu of %zu: 0x%02x in '%.*s'\n",
		what, at, len, (unsigned char)s[at], (int)len, s);
	abort();
}

/*
 * @s holds no control character but newline and tab; with @utf8 it is
 * valid UTF-8, else a cut sequence may stand anywhere (the live line is
 * cut to the screen's width by bytes).
 */
static void check_safe(const char *what, const char *s, size_t len, bool utf8)
{
	const unsigned char *p = (const unsigned char *)s;

	for (size_t i = 0; i < len; i++) {
		size_t n = esc_utf8_len(p + i, len - i);

		if ((p[i] < 0x20 && p[i] != '\n' && p[i] != '\t') ||
		    p[i] == 0x7f)
			fail(what, s, len, i);
		if (n == 0) {
			if (utf8)
				fail(what, s, len, i);
			continue;
		}
		if ((n == 2 && p[i] == 0xc2 && p[i + 1] < 0xa0) ||
		    (n == 3 && p[i] == 0xe2 && p[i + 1] == 0x80 &&
		     (p[i + 2] == 0xa8 || p[i + 2] == 0xa9)))
			fail(what, s, len, i);
		i += n - 1;
	}
}

/* JSON: json-c escapes every control byte; newlines are its own. */
static void check_json(const char *what, const char *s)
{
	struct json_object *o;

	for (size_t i = 0; s[i]; i++)
		if ((unsigned char)s[i] < 0x20 && s[i] != '\n')
			fail(what, s, strlen(s), i);
	o = json_tokener_parse(s);
	assert(o);
	json_object_put(o);
}

static bool starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

/* KTAP's lines only, one top-level result per scenario. */
static void check_ktap(const char *s, size_t len, size_t nscenarios)
{
	size_t results = 0;

	check_safe("KTAP", s, len, true);
	assert(len && s[len - 1] == '\n');
	for (const char *p = s; p < s + len;) {
		const char *nl = memchr(p, '\n', (size_t)(s + len - p));
		size_t n = (size_t)(nl - p), depth = 0;

		while (depth < n && p[depth] == ' ')
			depth++;
		if (depth != 0 && depth != 4 && depth != 8)
			fail("KTAP depth", p, n, 0);
		if (starts(p + depth, n - depth, "ok ") ||
		    starts(p + depth, n - depth, "not ok "))
			results += depth == 0;
		else if (!starts(p + depth, n - depth, "KTAP version 1") &&
			 !starts(p + depth, n - depth, "1..") &&
			 !starts(p + depth, n - depth, "# "))
			fail("KTAP line", p, n, 0);
		p = nl + 1;
	}
	if (results != nscenarios)
		fail("KTAP results", s, len, 0);
}

/* The text: a verdict line per scenario, and the totals, at column 0. */
static void check_text(const char *s, size_t len, size_t nscenarios)
{
	static const char *const verdicts[] = { "PASS ",  "FAIL ",    "SKIP ",
						"XFAIL ", "TIMEOUT ", "ERROR ",
						"CRASH ", "XPASS " };
	size_t lines = 0;

	check_safe("text", s, len, true);
	for (const char *p = s; p < s + len;) {
		const char *nl = memchr(p, '\n', (size_t)(s + len - p));
		size_t n;

		assert(nl);
		n = (size_t)(nl - p);
		if (n && p[0] != ' ') {
			bool verdict = false;

			for (size_t i = 0; i < 8; i++)
				verdict |= starts(p, n, verdicts[i]);
			lines += verdict;
			if (!verdict && !starts(p, n, "run ") &&
			    !starts(p, n, "clock: ") &&
			    !starts(p, n, "incomplete: ") &&
			    !isdigit((unsigned char)p[0]))
				fail("text line", p, n, 0);
		}
		p = nl + 1;
	}
	if (lines != nscenarios)
		fail("text verdict lines", s, len, 0);
}

/* The live line: safe pieces between the erases, each one screen line. */
static void check_live(const char *s, size_t len)
{
	const char *p = s;

	while (p < s + len) {
		const char *next;
		size_t n;

		if (!starts(p, (size_t)(s + len - p), ERASE))
			fail("live line", s, len, (size_t)(p - s));
		p += strlen(ERASE);
		next = memmem(p, (size_t)(s + len - p), ERASE, strlen(ERASE));
		n = next ? (size_t)(next - p) : (size_t)(s + len - p);
		/* Not a terminal: 80 columns, 79 of them written. */
		if (n > 79)
			fail("live line width", p, n, 0);
		check_safe("live line", p, n, false);
		p += n;
	}
}

struct ctx {
	struct session s;
	struct res_scenario *sc;
	struct progress *prog;
	struct incident_timeline tl;
	FILE *console; /* the kmsg texts accepted */
};

/* After each accepted event: the timeline, the console, the live line. */
static void on_event(void *userdata, const struct proto_event *ev)
{
	struct ctx *c = userdata;
	const struct proto_step_begin *b = &ev->u.step_begin;

	incident_timeline_feed(&c->tl, ev);
	if (ev->type == PROTO_EV_KMSG)
		fprintf(c->console, "%s\n", ev->u.kmsg.msg);
	if (ev->type != PROTO_EV_STEP_BEGIN)
		return;
	/* guest.c's line. */
	progress_status(c->prog, "[%s %s] %s: %s %u/%zu %s%s%s%s", "vm1", "tcg",
			c->sc->name,
			c->sc->steps[b->step].cleanup ? "cleanup step" : "step",
			b->step + 1, c->sc->nsteps, b->kind,
			*b->name ? " '" : "", b->name, *b->name ? "'" : "");
}

/*
 * The host's side from the first line: name and kinds. False when it is
 * not one the host could have (too long, no steps, a cleanup step before
 * a main one).
 */
static bool setup(struct res_scenario *sc, const char *line, size_t len)
{
	char buf[512], *save = NULL, *tok;

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, line, len);
	buf[len] = '\0';
	tok = strtok_r(buf, " ", &save);
	if (!tok || strlen(tok) >= sizeof(sc->name))
		return false;
	strcpy(sc->name, tok);
	sc->steps = calloc(STEPS_MAX, sizeof(*sc->steps));
	assert(sc->steps);
	while ((tok = strtok_r(NULL, " ", &save))) {
		struct res_step *st = &sc->steps[sc->nsteps];
		bool cleanup = *tok == '+';

		tok += cleanup;
		if (sc->nsteps == STEPS_MAX ||
		    strlen(tok) >= sizeof(st->kind) ||
		    (!cleanup && sc->ncleanup))
			return false;
		strcpy(st->kind, tok);
		st->index = (uint32_t)sc->nsteps++;
		st->cleanup = cleanup;
		sc->ncleanup += cleanup;
	}
	return sc->nsteps > sc->ncleanup;
}

/* judge.c's collect() and judge_verdict(), on the console the kmsg made. */
static void judge(struct ctx *c, const char *log, size_t len)
{
	static const struct scenario none;
	struct report *reps = NULL;
	char why[PROTO_TEXT_MAX], *reason;
	ssize_t n = report_parse(log, len, &reps);

	for (ssize_t i = 0; i < n; i++) {
		const struct incident_span *sp;
		struct res_incident inc;

		sp = incident_attribute(&c->tl, &reps[i], &inc);
		if (!sp)
			continue;
		incident_summary(&inc, sp->scenario, sp->name, sp->kind);
		if (strcmp(sp->scenario, c->sc->name) == 0)
			assert(res_incident_add(c->sc, &inc) == 0);
	}
	free(reps);
	incident_verdict(&none, c->sc, true, why, sizeof(why));
	if (!*why)
		return;
	assert(asprintf(&reason, "%s%s%s", why, c->sc->reason ? "\n" : "",
			c->sc->reason ? c->sc->reason : "") >= 0);
	assert(res_scenario_finish(c->sc, c->sc->verdict, reason) == 0);
	free(reason);
}

/* Every writer on @run, and the invariants. */
static void write_all(struct res_run *run, const char *log, size_t len)
{
	struct out text, ktap, json, junit, html;
	char *tail = NULL, *tails[1] = { NULL }, *kcidb;
	struct export_in in = { .run = run, .tails = tails };

	res_text(run, out_open(&text));
	out_close(&text);
	check_text(text.buf, text.len, run->n);
	res_ktap(run, out_open(&ktap));
	out_close(&ktap);
	check_ktap(ktap.buf, ktap.len, run->n);

	assert(res_summary_json(run, &json.buf) == 0);
	check_json("summary.json", json.buf);
	{
		struct res_run back;
		char err[256];

		assert(res_run_from_json(json.buf, &back, err, sizeof(err)) ==
		       0);
		res_run_free(&back);
	}
	free(json.buf);

	/* export.c's console tail, for a scenario that did not pass. */
	if (run->v[0].verdict != VERDICT_PASS) {
		tail = report_console_tail(log, len, EXPORT_TAIL_LINES);
		assert(tail);
		tails[0] = esc_clean(tail);
		assert(tails[0]);
	}
	assert(export_junit(&in, out_open(&junit)) == 0);
	out_close(&junit);
	check_safe("JUnit", junit.buf, junit.len, true);
	assert(export_kcidb(&in, &kcidb) == 0);
	check_json("KCIDB", kcidb);
	free(kcidb);
	assert(export_html(&in, out_open(&html)) == 0);
	out_close(&html);
	check_safe("HTML", html.buf, html.len, true);

	/* The streamed KTAP is the whole one. */
	{
		struct out live, plain, stream;
		struct progress p = { .live = true };
		const char *name;

		p.f = out_open(&live);
		p.plain = out_open(&plain);
		p.ktap[0] = out_open(&stream);
		p.ktap_name[0] = "results.ktap";
		progress_status(&p, "[vm1 tcg] %s: starting", run->v[0].name);
		assert(progress_begin(&p, run, &name) == 0);
		assert(progress_result(&p, &run->v[0], &name) == 0);
		assert(progress_end(&p, run, &name) == 0);
		out_close(&live);
		out_close(&plain);
		out_close(&stream);
		check_live(live.buf, live.len);
		check_safe("plain line", plain.buf, plain.len, true);
		assert(plain.len && memchr(plain.buf, '\n', plain.len) ==
					    plain.buf + plain.len - 1);
		assert(stream.len == ktap.len &&
		       memcmp(stream.buf, ktap.buf, ktap.len) == 0);
		free(live.buf);
		free(plain.buf);
		free(stream.buf);
	}
	free(tail);
	free(tails[0]);
	free(text.buf);
	free(ktap.buf);
	free(junit.buf);
	free(html.buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data, *end = in + size, *nl;
	struct res_run run = { .run_id = "fuzz",
			       .accelerator = "tcg",
			       .clock = "wall",
			       .complete = RES_COMPLETE_YES };
	struct ctx c = { 0 };
	struct out console;
	struct out live;
	struct progress prog = { .live = true };

	nl = memchr(in, '\n', size);
	if (!nl)
		return 0;
	run.v = calloc(1, sizeof(*run.v));
	assert(run.v);
	run.n = 1;
	c.sc = &run.v[0];
	if (!setup(c.sc, in, (size_t)(nl - in))) {
		res_run_free(&run);
		return 0;
	}
	snprintf(c.sc->vm, sizeof(c.sc->vm), "vm1");
	prog.f = out_open(&live);
	c.prog = &prog;
	c.console = out_open(&console);
	incident_timeline_init(&c.tl);
	session_init(&c.s);
	c.s.on_event = on_event;
	c.s.userdata = &c;
	assert(session_feed(&c.s, HELLO, strlen(HELLO)) == 0);
	assert(session_expect(&c.s, c.sc) == 0);
	/* vm.c ends the VM at the first line refused. */
	for (const char *p = nl + 1; p < end; p = nl + 1) {
		char *line;
		int r;

		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;
		line = strndup(p, (size_t)(nl - p));
		assert(line);
		r = session_feed(&c.s, line, strlen(line));
		free(line);
		if (r < 0) {
			assert(c.s.err[0]);
			if (!c.sc->done)
				assert(res_scenario_finish(c.sc, VERDICT_ERROR,
							   c.s.err) == 0);
			break;
		}
		if (c.sc->done)
			break;
	}
	if (!c.sc->done)
		assert(res_scenario_finish(c.sc, VERDICT_ERROR,
					   "no scenario_end") == 0);
	out_close(&console);
	out_close(&live);
	check_live(live.buf, live.len);
	judge(&c, console.buf, console.len);
	write_all(&run, console.buf, console.len);
	free(console.buf);
	free(live.buf);
	incident_timeline_free(&c.tl);
	res_run_free(&run);
	return 0;
}
