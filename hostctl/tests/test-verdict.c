// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/crash/verdict.c: the one decision of a scenario's
 * verdict and reason, from the guest's word, the first cause that ended
 * it early (the host, its VM's end, a view that did not pass, a boot that
 * did not go as expected), the marker rule, and the crash judge's rules;
 * and the verdict each VM end gives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/verdict.h"
#include "tap.h"

#define V(v) proto_verdict_name(v)

/* One row: the facts, and what verdict_decide() must make of them. */
struct row {
	const char *what;
	bool boots; /* the scenario has two boots */
	/* The guest's scenario_end of the implicit boot (claim_v ran). */
	bool claim;
	enum proto_verdict claim_v;
	const char *claim_why;
	/* The first cause noted (then @cause2 and a death, which lose). */
	enum verdict_cause cause;
	size_t boot;
	enum vm_end end;
	enum proto_verdict guest;
	const char *why;
	enum verdict_cause cause2;
	ssize_t marker;
	bool judged, survived;
	const char *incident; /* an incident's kind, or NULL */
	const char *expect; /* expect_incident's kind, or NULL */
	const char *xfail;
	/* Wanted: finished at all, the verdict and the reason. */
	bool done;
	enum proto_verdict v;
	const char *reason;
};

static const struct row rows[] = {
	{ "the guest's pass", .claim = true, .claim_v = VERDICT_PASS,
	  .judged = true, .survived = true, .done = true, .v = VERDICT_PASS },
	{ "the guest's fail and its reason", .claim = true,
	  .claim_v = VERDICT_FAIL, .claim_why = "step 1: no", .judged = true,
	  .survived = true, .done = true, .v = VERDICT_FAIL,
	  .reason = "step 1: no" },
	{ "the guest's word wins over a later end of its VM", .claim = true,
	  .claim_v = VERDICT_FAIL, .claim_why = "late",
	  .cause = VERDICT_CAUSE_VM, .end = VM_END_HANG, .why = "vm1 hangs",
	  .judged = true, .survived = true, .done = true, .v = VERDICT_FAIL,
	  .reason = "late" },
	{ "a VM that died: crash", .cause = VERDICT_CAUSE_VM,
	  .end = VM_END_DIED, .why = "vm1 died", .judged = true, .done = true,
	  .v = VERDICT_CRASH, .reason = "vm1 died" },
	{ "a hang: timeout", .cause = VERDICT_CAUSE_VM, .end = VM_END_HANG,
	  .why = "vm1 hangs", .judged = true, .done = true,
	  .v = VERDICT_TIMEOUT, .reason = "vm1 hangs" },
	{ "the host's bound: timeout", .cause = VERDICT_CAUSE_VM,
	  .end = VM_END_TIMEOUT, .why = "no scenario_end", .judged = true,
	  .done = true, .v = VERDICT_TIMEOUT, .reason = "no scenario_end" },
	{ "silence: timeout", .cause = VERDICT_CAUSE_VM, .end = VM_END_SILENT,
	  .why = "no heartbeat", .judged = true, .done = true,
	  .v = VERDICT_TIMEOUT, .reason = "no heartbeat" },
	{ "a signal: error", .cause = VERDICT_CAUSE_VM,
	  .end = VM_END_INTERRUPTED, .why = "interrupted by a signal",
	  .done = true, .v = VERDICT_ERROR,
	  .reason = "interrupted by a signal" },
	{ "a protocol error: error", .cause = VERDICT_CAUSE_VM,
	  .end = VM_END_PROTOCOL, .why = "vm1: bad line", .done = true,
	  .v = VERDICT_ERROR, .reason = "vm1: bad line" },
	{ "the host's error", .cause = VERDICT_CAUSE_HOST,
	  .why = "cannot send the steps", .judged = true, .survived = true,
	  .done = true, .v = VERDICT_ERROR,
	  .reason = "cannot send the steps" },
	{ "the first cause wins", .cause = VERDICT_CAUSE_HOST, .why = "first",
	  .cause2 = VERDICT_CAUSE_BOOT, .done = true, .v = VERDICT_ERROR,
	  .reason = "first" },
	{ "nothing known: unfinished", .judged = true, .survived = true,
	  .done = false, .v = VERDICT_ERROR },
	{ "boots: the VM's end names its boot", .boots = true,
	  .cause = VERDICT_CAUSE_VM, .boot = 1, .end = VM_END_DIED,
	  .why = "vm2 died", .judged = true, .done = true,
	  .v = VERDICT_CRASH, .reason = "boot 1: vm2 died" },
	{ "boots: a view's fail without a reason", .boots = true,
	  .cause = VERDICT_CAUSE_GUEST, .boot = 0, .guest = VERDICT_FAIL,
	  .judged = true, .survived = true, .done = true, .v = VERDICT_FAIL,
	  .reason = "boot 0: failed" },
	{ "boots: a boot that did not resume", .boots = true,
	  .cause = VERDICT_CAUSE_BOOT, .boot = 1, .why = "expected to resume",
	  .judged = true, .survived = true, .done = true, .v = VERDICT_FAIL,
	  .reason = "boot 1: expected to resume" },
	{ "boots: the host's error of the whole scenario", .boots = true,
	  .cause = VERDICT_CAUSE_HOST, .boot = VERDICT_WHOLE,
	  .why = "qemu-img failed", .done = true, .v = VERDICT_ERROR,
	  .reason = "qemu-img failed" },
	{ "boots: the guest's word is a view's, not the verdict",
	  .boots = true, .claim = true, .claim_v = VERDICT_FAIL,
	  .claim_why = "view", .marker = -1, .judged = true, .survived = true,
	  .done = true, .v = VERDICT_PASS },
	{ "boots: all went as expected", .boots = true, .marker = -1,
	  .judged = true, .survived = true, .done = true, .v = VERDICT_PASS },
	{ "boots: the marker rule", .boots = true, .marker = 3, .judged = true,
	  .survived = true, .done = true, .v = VERDICT_FAIL,
	  .reason = "step 4 (marker): the marker read back is not the one set" },
	{ "an unexpected incident fails a pass", .claim = true,
	  .claim_v = VERDICT_PASS, .claim_why = "all good", .judged = true,
	  .survived = true, .incident = "warning", .done = true,
	  .v = VERDICT_FAIL,
	  .reason = "unexpected incident: x/y step 0 -> a warning\nall good" },
	{ "unjudged, an incident changes nothing", .claim = true,
	  .claim_v = VERDICT_PASS, .survived = true, .incident = "warning",
	  .done = true, .v = VERDICT_PASS },
	{ "xfail turns a crash", .cause = VERDICT_CAUSE_VM, .end = VM_END_DIED,
	  .why = "vm1 died", .judged = true, .xfail = "bug 1", .done = true,
	  .v = VERDICT_XFAIL, .reason = "xfail (bug 1): crash\nvm1 died" },
	{ "xfail turns a timeout", .cause = VERDICT_CAUSE_VM,
	  .end = VM_END_HANG, .why = "vm1 hangs", .judged = true,
	  .xfail = "bug 1", .done = true, .v = VERDICT_XFAIL,
	  .reason = "xfail (bug 1): timeout\nvm1 hangs" },
	{ "xfail that passed: xpass", .claim = true, .claim_v = VERDICT_PASS,
	  .judged = true, .survived = true, .xfail = "bug 1", .done = true,
	  .v = VERDICT_XPASS,
	  .reason = "xpass: passed, but marked xfail (bug 1)" },
	{ "the expected oops, survived", .claim = true,
	  .claim_v = VERDICT_ERROR, .claim_why = "killed", .judged = true,
	  .survived = true, .incident = "oops", .expect = "oops",
	  .done = true, .v = VERDICT_PASS,
	  .reason = "the expected incident: x/y step 0 -> a oops\nkilled" },
	{ "the expected oops, but the guest died", .cause = VERDICT_CAUSE_VM,
	  .end = VM_END_DIED, .why = "vm1 died", .judged = true,
	  .survived = false, .incident = "oops", .expect = "oops",
	  .done = true, .v = VERDICT_FAIL,
	  .reason = "the guest died; expected it to survive\nvm1 died" },
	{ "nothing known, the guest survived: unfinished", .judged = true,
	  .survived = true, .expect = "panic", .done = false,
	  .v = VERDICT_ERROR },
	{ "nothing known, but the rules fail it", .judged = true,
	  .survived = false, .expect = "panic", .done = true,
	  .v = VERDICT_FAIL,
	  .reason = "expected an incident of kind panic, got no incident; the guest died; expected it to survive" },
};

static void mk(const struct row *w, struct scenario *s,
	       struct res_scenario *sc, struct res_scenario *view)
{
	memset(s, 0, sizeof(*s));
	memset(sc, 0, sizeof(*sc));
	memset(view, 0, sizeof(*view));
	s->nsteps = 2;
	s->steps = calloc(2, sizeof(*s->steps));
	sc->nsteps = 2;
	sc->steps = calloc(2, sizeof(*sc->steps));
	if (!s->steps || !sc->steps)
		abort();
	snprintf(sc->name, sizeof(sc->name), "x/y");
	for (size_t i = 0; i < 2; i++) {
		snprintf(s->steps[i].name, PROTO_NAME_MAX, "s%zu", i);
		sc->steps[i].index = i;
		snprintf(sc->steps[i].kind, PROTO_KIND_MAX, "write");
		sc->steps[i].ran = true;
		sc->steps[i].verdict = VERDICT_PASS;
	}
	/* As runner_result_init() leaves it. */
	sc->verdict = VERDICT_ERROR;
	s->nboots = w->boots ? 2 : 0;
	s->expect.step = -1;
	if (w->expect) {
		s->expect.set = true;
		snprintf(s->expect.kind, sizeof(s->expect.kind), "%s",
			 w->expect);
		s->expect.survives = true;
	}
	s->xfail = w->xfail ? strdup(w->xfail) : NULL;
	if (w->incident) {
		struct res_incident inc = { .step = 0, .ts = 1 };

		snprintf(inc.kind, sizeof(inc.kind), "%s", w->incident);
		snprintf(inc.title, sizeof(inc.title), "a %s", w->incident);
		snprintf(inc.summary, sizeof(inc.summary), "x/y step 0 -> a %s",
			 w->incident);
		if (res_incident_add(sc, &inc) < 0)
			abort();
	}
	if (w->claim) {
		view->steps = sc->steps;
		view->nsteps = sc->nsteps;
		if (res_scenario_finish(view, w->claim_v, w->claim_why) < 0)
			abort();
	}
}

static void test_rows(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *w = &rows[i];
		struct res_scenario sc, view;
		struct verdict_facts f;
		struct scenario s;
		char what[256];

		mk(w, &s, &sc, &view);
		verdict_facts_init(&f, &s);
		if (w->claim)
			f.claim = &view;
		if (w->cause == VERDICT_CAUSE_VM)
			verdict_note_end(&f, w->boot, w->end, w->why);
		else if (w->cause == VERDICT_CAUSE_GUEST)
			verdict_note_guest(&f, w->boot, w->guest, w->why);
		else
			verdict_note(&f, w->cause, w->boot, w->why);
		/* Whatever comes after a cause is too late. */
		if (w->cause != VERDICT_CAUSE_NONE) {
			verdict_note(&f, w->cause2, 0, "second");
			verdict_note_end(&f, 0, VM_END_DIED, "second");
		}
		f.bad_marker = w->marker;
		f.judged = w->judged;
		f.survived = w->survived;
		is_int(verdict_decide(&f, &sc), 0, w->what);
		snprintf(what, sizeof(what), "%s: %s", w->what,
			 w->done ? "finished" : "unfinished");
		ok(sc.done == w->done, what);
		snprintf(what, sizeof(what), "%s: %s", w->what, V(w->v));
		is_str(V(sc.verdict), V(w->v), what);
		snprintf(what, sizeof(what), "%s: its reason", w->what);
		is_str(sc.reason ? sc.reason : "(none)",
		       w->reason ? w->reason : "(none)", what);
		verdict_facts_free(&f);
		free(view.reason);
		free(s.steps);
		free(s.xfail);
		res_scenario_free(&sc);
	}
}

/* The verdict each end of a VM gives its open step and its scenario. */
static void test_ends(void)
{
	static const struct {
		enum vm_end e;
		enum proto_verdict v;
	} t[] = {
		{ VM_END_RUNNING, VERDICT_PASS },
		{ VM_END_POWEROFF, VERDICT_PASS },
		{ VM_END_REBOOT, VERDICT_PASS },
		{ VM_END_HANG, VERDICT_TIMEOUT },
		{ VM_END_TIMEOUT, VERDICT_TIMEOUT },
		{ VM_END_SILENT, VERDICT_TIMEOUT },
		{ VM_END_INTERRUPTED, VERDICT_ERROR },
		{ VM_END_PROTOCOL, VERDICT_ERROR },
		{ VM_END_LOST, VERDICT_ERROR },
		{ VM_END_DIED, VERDICT_CRASH },
	};
	char what[128];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(what, sizeof(what), "a VM that ended %d: %s", t[i].e,
			 V(t[i].v));
		is_str(V(verdict_of_end(t[i].e)), V(t[i].v), what);
	}
}

/* A scenario that never ran: skipped for its requires, or the host's. */
static void test_unrun(void)
{
	struct scenario s = { .nboots = 2 };
	struct res_scenario sc = { .verdict = VERDICT_ERROR };

	is_int(verdict_decide_unrun(&s, &sc, VERDICT_CAUSE_UNMET,
				    "CONFIG_X is not set"),
	       0, "unrun: decided");
	ok(sc.done, "unrun: finished");
	is_str(V(sc.verdict), "skip", "its requires unmet: skip");
	is_str(sc.reason ? sc.reason : "(none)", "CONFIG_X is not set",
	       "the scenario's reason, not a boot's");
	is_int(verdict_decide_unrun(&s, &sc, VERDICT_CAUSE_HOST,
				    "not run: interrupted by a signal"),
	       0, "unrun by the host: decided");
	is_str(V(sc.verdict), "error", "not run: error");
	is_str(sc.reason ? sc.reason : "(none)",
	       "not run: interrupted by a signal", "not run: its reason");
	res_scenario_free(&sc);
}

/* The base verdict, which the judge asks before its rules. */
static void test_base(void)
{
	struct scenario s = { .nboots = 0 };
	struct res_scenario view = { 0 };
	struct verdict_facts f;

	verdict_facts_init(&f, &s);
	is_str(V(verdict_base(&f)), "error", "nothing known: error");
	f.claim = &view;
	is_str(V(verdict_base(&f)), "error", "a view not ended: error");
	view.done = true;
	view.verdict = VERDICT_SKIP;
	is_str(V(verdict_base(&f)), "skip", "the guest's word");
	s.nboots = 2;
	is_str(V(verdict_base(&f)), "pass", "boots: the marker rule's pass");
	verdict_note(&f, VERDICT_CAUSE_BOOT, 1, "x");
	is_str(V(verdict_base(&f)), "fail", "boots: a boot that went wrong");
	verdict_facts_free(&f);
}

int main(void)
{
	test_rows();
	test_ends();
	test_unrun();
	test_base();
	return tap_done();
}
