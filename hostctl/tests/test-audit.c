// SPDX-License-Identifier: GPL-2.0-only
/*
 * The state-leak audit's host side: event order, the comparison and its
 * notes, and the session feeding notes into a scenario's results.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest/audit.h"
#include "guest/session.h"
#include "tap.h"

static char err[512];

static struct proto_event audit_ev(const char *phase, uint64_t tainted,
				   uint64_t warns, uint64_t bugs,
				   uint32_t nfiles)
{
	struct proto_event ev = { .type = PROTO_EV_AUDIT };

	snprintf(ev.u.audit.scenario, PROTO_NAME_MAX, "a/b");
	snprintf(ev.u.audit.phase, PROTO_PHASE_MAX, "%s", phase);
	ev.u.audit.tainted = tainted;
	ev.u.audit.warns = warns;
	ev.u.audit.bugs = bugs;
	ev.u.audit.nfiles = nfiles;
	return ev;
}

static struct proto_event file_ev(const char *phase, const char *path,
				  const char *head, const char *hash)
{
	struct proto_event ev = { .type = PROTO_EV_AUDIT_FILE };

	snprintf(ev.u.audit_file.scenario, PROTO_NAME_MAX, "a/b");
	snprintf(ev.u.audit_file.phase, PROTO_PHASE_MAX, "%s", phase);
	snprintf(ev.u.audit_file.path, PROTO_PATH_MAX, "%s", path);
	snprintf(ev.u.audit_file.head, PROTO_AUDIT_HEAD_MAX, "%s", head);
	snprintf(ev.u.audit_file.hash, sizeof(ev.u.audit_file.hash), "%s",
		 hash);
	ev.u.audit_file.size = strlen(head);
	return ev;
}

static int take(struct audit_pair *p, struct proto_event ev, bool open,
		bool begun)
{
	err[0] = '\0';
	return audit_take(p, &ev, open, begun, err, sizeof(err));
}

static void test_taint_letters(void)
{
	char buf[72];

	audit_taint_letters(0, buf, sizeof(buf));
	is_str(buf, "", "no taint, no letters");
	audit_taint_letters((1 << 7) | (1 << 9), buf, sizeof(buf));
	is_str(buf, "DW", "bits 7 and 9 are D (died) and W (warning)");
	audit_taint_letters((1ULL << 18) | 1 | (1ULL << 40), buf, sizeof(buf));
	is_str(buf, "PN?", "P, N (test module), and '?' for an unknown bit");
}

static void test_order(void)
{
	struct audit_pair p = { 0 };

	is_int(take(&p, audit_ev("during", 0, 0, 0, 0), false, false), -EPROTO,
	       "an unknown phase is refused");
	is_str(err, "audit: unknown phase 'during'", "and named");
	is_int(take(&p, audit_ev("before", 0, 0, 0, 1), false, true), -EPROTO,
	       "'before' after the first step began is refused");
	is_int(take(&p, audit_ev("before", 0, 0, 0, 1), false, false), 0,
	       "'before' before the first step");
	is_int(take(&p, audit_ev("before", 0, 0, 0, 1), false, false), -EPROTO,
	       "a second 'before' is refused");
	is_int(take(&p, audit_ev("after", 0, 0, 0, 1), false, true), -EPROTO,
	       "'after' before the announced 'before' files is refused");
	is_int(take(&p, file_ev("before", "/f", "x", "1"), false, false), 0,
	       "the announced file");
	is_int(take(&p, file_ev("before", "/g", "x", "1"), false, false),
	       -EPROTO, "one file more than announced is refused");
	is_str(err,
	       "an audit_file for '/g' that its 'before' audit did not "
	       "announce",
	       "and named");
	is_int(take(&p, audit_ev("after", 0, 0, 0, 1), true, true), -EPROTO,
	       "'after' while a step is open is refused");
	is_int(take(&p, file_ev("after", "/f", "x", "1"), false, true), -EPROTO,
	       "a file before its audit is refused");
	is_int(take(&p, audit_ev("after", 0, 0, 0, 1), false, true), 0,
	       "'after' with no step open");
}

static void test_compare(void)
{
	struct audit_notes notes = { 0 };
	struct audit_pair p = { 0 };

	take(&p, audit_ev("before", 0, 1, 0, 2), false, false);
	take(&p, file_ev("before", "/t/set_ftrace_filter", "", "aa"), false,
	     false);
	take(&p, file_ev("before", "/proc/modules", "m 1", "bb"), false, false);
	take(&p, audit_ev("after", 512, 3, 0, 2), false, true);
	take(&p,
	     file_ev("after", "/t/set_ftrace_filter", "foo [m]\n\x01", "cc"),
	     false, true);
	take(&p, file_ev("after", "/proc/modules", "m 1", "bb"), false, true);
	is_int(audit_compare("ftrace/x", &p, false, &notes), 0, "compare");
	is_int((long long)notes.n, 3, "three notes");
	if (notes.n == 3) {
		is_str(notes.v[0],
		       "leak: 'ftrace/x' tainted the kernel 'W' "
		       "(tainted 0 -> 512)",
		       "new taint, with its letter");
		is_str(notes.v[1], "leak: 'ftrace/x' logged 2 WARNING line(s)",
		       "new WARNING lines, counted");
		is_str(notes.v[2],
		       "leak: 'ftrace/x' left '/t/set_ftrace_filter' "
		       "changed: was '' (0 bytes), now 'foo [m]\\n\\x01' (9 bytes)",
		       "a changed state file, on one line, before and after");
	}
	audit_notes_free(&notes);

	/* The same, for a scenario that declared its incident: the file only. */
	is_int(audit_compare("ftrace/x", &p, true, &notes), 0,
	       "compare, incident expected");
	is_int((long long)notes.n, 1, "one note");
	if (notes.n == 1)
		ok(strstr(notes.v[0], "set_ftrace_filter") != NULL,
		   "an expected incident: only the state file is a leak");
	audit_notes_free(&notes);

	/* Nothing changed: no note. Taint that was already there: none. */
	memset(&p, 0, sizeof(p));
	take(&p, audit_ev("before", 128, 2, 2, 0), false, false);
	take(&p, audit_ev("after", 128, 2, 2, 0), false, true);
	audit_compare("x/y", &p, false, &notes);
	is_int((long long)notes.n, 0, "an unchanged kernel gives no note");

	/* A scenario that died before its 'after' snapshot: no verdict. */
	memset(&p, 0, sizeof(p));
	take(&p, audit_ev("before", 0, 0, 0, 0), false, false);
	audit_compare("x/y", &p, false, &notes);
	is_int((long long)notes.n, 0, "no 'after', no note");

	memset(&p, 0, sizeof(p));
	take(&p, audit_ev("before", 0, 0, 0, 1), false, false);
	take(&p, file_ev("before", "/f", "x", "1"), false, false);
	take(&p, audit_ev("after", 0, 0, 1, 1), false, true);
	{
		struct proto_event ev = file_ev("after", "/f", "", "0");

		snprintf(ev.u.audit_file.err, sizeof(ev.u.audit_file.err),
			 "ENOENT");
		take(&p, ev, false, true);
	}
	audit_compare("x/y", &p, false, &notes);
	is_int((long long)notes.n, 2, "a BUG line and a vanished file");
	if (notes.n == 2) {
		is_str(notes.v[0],
		       "leak: 'x/y' logged 1 BUG/Oops/panic line(s)",
		       "the BUG line");
		is_str(notes.v[1],
		       "leak: 'x/y' left '/f' changed: was 'x' (1 "
		       "bytes), now errno ENOENT",
		       "the file, now unreadable");
	}
	audit_notes_free(&notes);
}

static void test_between(void)
{
	struct audit_notes notes = { 0 };
	struct audit_snap a = { .have = true, .tainted = 0, .warns = 1 };
	struct audit_snap b = { .have = true, .tainted = 1 << 9, .warns = 2 };

	is_int(audit_between("ftrace/x", &a, &b, &notes), 0, "between");
	is_int((long long)notes.n, 2, "taint and a WARNING in between");
	if (notes.n == 2)
		is_str(notes.v[0],
		       "leak: something after 'ftrace/x' ended "
		       "tainted the kernel 'W' (tainted 0 -> 512)",
		       "names the scenario before");
	audit_notes_free(&notes);
	a.have = false;
	audit_between("", &a, &b, &notes);
	is_int((long long)notes.n, 0, "no previous scenario, no note");
}

/* Feed the session a line, built from an event. */
static int feed(struct session *s, const struct proto_event *ev)
{
	char *line;
	size_t len;
	int r;

	if (proto_event_encode(ev, &line, &len) < 0)
		return -ENOMEM;
	r = session_feed(s, line, len - 1);
	free(line);
	return r;
}

static void run_scenario(struct session *s, struct res_scenario *sc,
			 uint64_t taint_before, uint64_t taint_after)
{
	struct proto_event ev = { .type = PROTO_EV_SCENARIO_BEGIN };

	memset(sc, 0, sizeof(*sc));
	snprintf(sc->name, sizeof(sc->name), "a/b");
	sc->steps = calloc(1, sizeof(*sc->steps));
	sc->nsteps = 1;
	snprintf(sc->steps[0].kind, sizeof(sc->steps[0].kind), "sleep");
	session_expect(s, sc);
	snprintf(ev.u.scenario_begin.scenario, PROTO_NAME_MAX, "a/b");
	ev.u.scenario_begin.nsteps = 1;
	is_int(feed(s, &ev), 0, "scenario_begin");
	ev = audit_ev("before", taint_before, 0, 0, 0);
	is_int(feed(s, &ev), 0, "the 'before' audit is accepted");
	ev = (struct proto_event){ .type = PROTO_EV_STEP_BEGIN };
	snprintf(ev.u.step_begin.scenario, PROTO_NAME_MAX, "a/b");
	snprintf(ev.u.step_begin.kind, PROTO_KIND_MAX, "sleep");
	feed(s, &ev);
	ev = audit_ev("before", 0, 0, 0, 0);
	is_int(feed(s, &ev), -EPROTO, "a 'before' audit in a step ends the VM");
	ev = (struct proto_event){ .type = PROTO_EV_STEP_END };
	snprintf(ev.u.step_end.scenario, PROTO_NAME_MAX, "a/b");
	feed(s, &ev);
	ev = audit_ev("after", taint_after, 0, 0, 0);
	is_int(feed(s, &ev), 0, "the 'after' audit is accepted");
	ev = (struct proto_event){ .type = PROTO_EV_SCENARIO_END };
	snprintf(ev.u.scenario_end.scenario, PROTO_NAME_MAX, "a/b");
	is_int(feed(s, &ev), 0, "scenario_end");
}

static void test_session(void)
{
	struct proto_event hello = { .type = PROTO_EV_HELLO };
	struct proto_event ev;
	struct res_scenario sc;
	struct session s;

	session_init(&s);
	hello.u.hello.version = PROTO_VERSION;
	feed(&s, &hello);
	ev = audit_ev("before", 0, 0, 0, 0);
	is_int(feed(&s, &ev), -EPROTO, "an audit while no scenario runs");

	session_init(&s);
	feed(&s, &hello);
	run_scenario(&s, &sc, 0, 128);
	is_int((long long)sc.nleaks, 1, "the scenario has one leak note");
	if (sc.nleaks == 1)
		is_str(sc.leaks[0],
		       "leak: 'a/b' tainted the kernel 'D' "
		       "(tainted 0 -> 128)",
		       "naming it");
	res_scenario_free(&sc);

	/* guestd refuses the next request: no audit, no notes. */
	memset(&sc, 0, sizeof(sc));
	snprintf(sc.name, sizeof(sc.name), "a/b");
	session_expect(&s, &sc);
	ev = (struct proto_event){ .type = PROTO_EV_SCENARIO_END };
	snprintf(ev.u.scenario_end.scenario, PROTO_NAME_MAX, "a/b");
	ev.u.scenario_end.verdict = VERDICT_ERROR;
	is_int(feed(&s, &ev), 0, "a refused scenario ends");
	is_int((long long)sc.nleaks, 0, "without the last one's notes");
	res_scenario_free(&sc);

	/* The next one starts with more taint than the last one left. */
	run_scenario(&s, &sc, 128 | 512, 128 | 512);
	is_int((long long)sc.nleaks, 1, "taint between two scenarios");
	if (sc.nleaks == 1)
		is_str(sc.leaks[0],
		       "leak: something after 'a/b' ended tainted "
		       "the kernel 'W' (tainted 128 -> 640)",
		       "names the one before");
	res_scenario_free(&sc);
}

int main(void)
{
	test_taint_letters();
	test_order();
	test_compare();
	test_between();
	test_session();
	return tap_done();
}
