// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/incident.c: the timeline built from guestd's
 * events, the join of console reports to steps (clock offset, open step,
 * after a step, before any scenario, no timestamp), the summary line, and
 * every verdict rule of expect_incident and xfail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/incident.h"
#include "tap.h"

static void feed(struct incident_timeline *tl, enum proto_event_type type,
		 uint64_t t_us, const char *scn, int64_t step, const char *name)
{
	struct proto_event ev = { .type = type, .t_us = t_us };

	switch (type) {
	case PROTO_EV_SCENARIO_BEGIN:
		snprintf(ev.u.scenario_begin.scenario, PROTO_NAME_MAX, "%s", scn);
		break;
	case PROTO_EV_STEP_BEGIN:
		snprintf(ev.u.step_begin.scenario, PROTO_NAME_MAX, "%s", scn);
		ev.u.step_begin.step = step;
		snprintf(ev.u.step_begin.kind, PROTO_KIND_MAX, "write");
		snprintf(ev.u.step_begin.name, PROTO_NAME_MAX, "%s", name);
		break;
	case PROTO_EV_STEP_END:
		snprintf(ev.u.step_end.scenario, PROTO_NAME_MAX, "%s", scn);
		ev.u.step_end.step = step;
		break;
	case PROTO_EV_KMSG:
		/* step carries the record's ts_us here. */
		ev.u.kmsg.ts_us = step;
		break;
	default:
		break;
	}
	if (incident_timeline_feed(tl, &ev) < 0)
		abort();
}

static struct report rep_at(enum report_kind kind, const char *title,
			    double ts)
{
	struct report r = { .kind = kind, .ts = ts };

	snprintf(r.title, sizeof(r.title), "%s", title);
	return r;
}

static void test_attribution(void)
{
	struct incident_timeline tl;
	const struct incident_span *sp;
	struct res_incident inc;
	struct report r;

	incident_timeline_init(&tl);
	/* The boot log: printk ts 1.0 s forwarded at boottime 1.2 s, and
	 * one forwarded quickly: the offset is at most 5 ms. */
	feed(&tl, PROTO_EV_KMSG, 1200000, NULL, 1000000, NULL);
	feed(&tl, PROTO_EV_KMSG, 2005000, NULL, 2000000, NULL);
	feed(&tl, PROTO_EV_SCENARIO_BEGIN, 10000000, "dsa/vlan-add", 0, NULL);
	feed(&tl, PROTO_EV_STEP_BEGIN, 10100000, "dsa/vlan-add", 0, "load");
	feed(&tl, PROTO_EV_STEP_END, 10500000, "dsa/vlan-add", 0, NULL);
	feed(&tl, PROTO_EV_STEP_BEGIN, 10600000, "dsa/vlan-add", 1, "");
	feed(&tl, PROTO_EV_STEP_END, 10700000, "dsa/vlan-add", 1, NULL);
	feed(&tl, PROTO_EV_STEP_BEGIN, 10800000, "dsa/vlan-add", 3,
	     "bridge vlan add");
	is_int(tl.n, 4, "timeline: a scenario span and three steps");
	ok(tl.have_off && tl.off_us == 5000, "timeline: offset is the smallest lag");

	r = rep_at(REPORT_WARNING, "WARNING in br_vlan_add", 11.0);
	sp = incident_attribute(&tl, &r, &inc);
	ok(sp && strcmp(sp->scenario, "dsa/vlan-add") == 0,
	   "open step: scenario");
	is_int(inc.step, 3, "open step: step index");
	ok(!inc.after_step, "open step: not after it");
	is_str(inc.kind, "warning", "kind word");
	incident_summary(&inc, sp->scenario, sp->name, sp->kind);
	is_str(inc.summary,
	       "dsa/vlan-add step 4 (bridge vlan add) -> WARNING in br_vlan_add",
	       "summary line");

	/* printk 10.598 s + 5 ms offset = 10.603 s: step 1 had begun. */
	r = rep_at(REPORT_OOPS, "BUG: kernel NULL pointer dereference in f",
		   10.598);
	sp = incident_attribute(&tl, &r, &inc);
	is_int(inc.step, 1, "the offset moves it into the next step");
	incident_summary(&inc, sp->scenario, sp->name, sp->kind);
	is_str(inc.summary,
	       "dsa/vlan-add step 2 (write) -> BUG: kernel NULL pointer dereference in f",
	       "summary: the kind stands in for a missing name");

	/* Between step 0's end and step 1's begin: step 0, after its end. */
	r = rep_at(REPORT_WARNING, "WARNING in g", 10.55);
	sp = incident_attribute(&tl, &r, &inc);
	is_int(inc.step, 0, "between steps: the last one begun");
	ok(inc.after_step, "between steps: after it ended");
	incident_summary(&inc, sp->scenario, sp->name, sp->kind);
	is_str(inc.summary,
	       "dsa/vlan-add step 1 (load, after it ended) -> WARNING in g",
	       "summary: after it ended");

	r = rep_at(REPORT_WARNING, "WARNING in h", 10.05);
	sp = incident_attribute(&tl, &r, &inc);
	is_int(inc.step, -1, "after scenario_begin, before step 0: step -1");
	incident_summary(&inc, sp->scenario, sp->name, sp->kind);
	is_str(inc.summary, "dsa/vlan-add before its first step -> WARNING in h",
	       "summary: before the first step");

	r = rep_at(REPORT_BUG, "kernel BUG in boot", 3.0);
	sp = incident_attribute(&tl, &r, &inc);
	ok(!sp, "boot: no span");
	incident_summary(&inc, NULL, NULL, NULL);
	is_str(inc.summary, "before any scenario -> kernel BUG in boot",
	       "summary: boot");

	r = rep_at(REPORT_PANIC, "kernel panic: x", -1);
	sp = incident_attribute(&tl, &r, &inc);
	is_int(inc.step, 3, "no timestamp: the last span");

	/* A second scenario on the same VM takes what comes after it began. */
	feed(&tl, PROTO_EV_STEP_END, 12000000, "dsa/vlan-add", 3, NULL);
	feed(&tl, PROTO_EV_SCENARIO_BEGIN, 13000000, "lkdtm/bug", 0, NULL);
	feed(&tl, PROTO_EV_STEP_BEGIN, 13100000, "lkdtm/bug", 0, "provoke");
	r = rep_at(REPORT_BUG, "kernel BUG in lkdtm_BUG", 13.2);
	sp = incident_attribute(&tl, &r, &inc);
	ok(sp && strcmp(sp->scenario, "lkdtm/bug") == 0 && inc.step == 0,
	   "second scenario: its own step");
	incident_timeline_free(&tl);
}

static void hello_clock(struct incident_timeline *tl, uint64_t t0,
			uint64_t ts, uint64_t t1)
{
	struct proto_event ev = { .type = PROTO_EV_HELLO, .t_us = t1 };

	ev.u.hello.version = PROTO_VERSION;
	ev.u.hello.clock_t0_us = t0;
	ev.u.hello.clock_ts_us = ts;
	ev.u.hello.clock_t1_us = t1;
	if (incident_timeline_feed(tl, &ev) < 0)
		abort();
}

/*
 * The vla/jump-past-guard flake: the kernel's clock runs 30 ms behind
 * CLOCK_BOOTTIME, guestd forwarded every record at least 200 us late, and
 * under -icount the next step began 50 us after the last one ended. A
 * report printed 1 us before step 0 ended maps, with the forwarding bound,
 * 199 us too late: into step 1. hello's marker (stamped between t0 and
 * t1) puts it where it happened.
 */
static void test_clock_marker(void)
{
	struct incident_timeline tl;
	struct res_incident inc;
	struct report r;

	for (int with = 0; with < 2; with++) {
		incident_timeline_init(&tl);
		if (with)
			hello_clock(&tl, 1000000, 970010, 1000050);
		feed(&tl, PROTO_EV_KMSG, 2030200, NULL, 2000000, NULL);
		feed(&tl, PROTO_EV_SCENARIO_BEGIN, 9900000, "vla/jump", 0,
		     NULL);
		feed(&tl, PROTO_EV_STEP_BEGIN, 10000000, "vla/jump", 0, "jump");
		feed(&tl, PROTO_EV_STEP_END, 10100000, "vla/jump", 0, NULL);
		feed(&tl, PROTO_EV_STEP_BEGIN, 10100050, "vla/jump", 1, "read");
		feed(&tl, PROTO_EV_STEP_END, 10200000, "vla/jump", 1, NULL);
		/* Printed at boottime 10.099999 s: printk says 10.069999. */
		r = rep_at(REPORT_BUG, "BUG: vla_jump", 10.069999);
		incident_attribute(&tl, &r, &inc);
		if (!with) {
			ok(!tl.have_clock && tl.have_off && tl.off_us == 30200,
			   "no marker: the forwarding bound, 30.2 ms");
			is_int(inc.step, 1,
			       "no marker: 1 us before the end lands in the next step");
			incident_timeline_free(&tl);
			continue;
		}
		ok(tl.have_clock && tl.clock_lo_us == 29990 &&
			   tl.clock_hi_us == 30040,
		   "marker: the offset in [29.99, 30.04] ms");
		is_int(inc.step, 0, "marker: its own step");
		ok(!inc.after_step, "marker: not after it ended");
		/* Printed 50 us after step 1 began: the bracket's 10 us early
		 * error is less than any step's way to its first syscall. */
		r = rep_at(REPORT_BUG, "BUG: later", 10.070100);
		incident_attribute(&tl, &r, &inc);
		is_int(inc.step, 1, "marker: a report well into step 1 stays");
		incident_timeline_free(&tl);
	}

	/* A marker that says nothing (t0 after t1): the old bound stays. */
	incident_timeline_init(&tl);
	hello_clock(&tl, 1000050, 970010, 1000000);
	feed(&tl, PROTO_EV_KMSG, 2030200, NULL, 2000000, NULL);
	ok(!tl.have_clock && tl.off_us == 30200,
	   "a reversed marker is ignored");
	hello_clock(&tl, 0, 0, 0);
	ok(!tl.have_clock, "hello without a marker: none");
	incident_timeline_free(&tl);
}

/* A scenario of @n steps, all passed, with @inc (may be NULL). */
static void mk(struct scenario *s, struct res_scenario *sc, size_t n,
	       const char *kind, const char *title, bool survives,
	       int64_t step)
{
	memset(s, 0, sizeof(*s));
	memset(sc, 0, sizeof(*sc));
	s->nsteps = n;
	s->steps = calloc(n, sizeof(*s->steps));
	sc->nsteps = n;
	sc->steps = calloc(n, sizeof(*sc->steps));
	for (size_t i = 0; i < n; i++) {
		snprintf(s->steps[i].name, PROTO_NAME_MAX, "s%zu", i);
		sc->steps[i].index = i;
		snprintf(sc->steps[i].kind, PROTO_KIND_MAX, "write");
		sc->steps[i].ran = true;
		sc->steps[i].verdict = VERDICT_PASS;
	}
	sc->verdict = VERDICT_PASS;
	s->expect.step = -1;
	if (kind) {
		s->expect.set = true;
		snprintf(s->expect.kind, sizeof(s->expect.kind), "%s", kind);
		s->expect.title = title ? strdup(title) : NULL;
		s->expect.survives = survives;
		s->expect.step = step;
	}
}

static void add_inc(struct res_scenario *sc, const char *kind,
		    const char *title, int64_t step)
{
	struct res_incident inc = { .step = step, .ts = 1 };

	snprintf(inc.kind, sizeof(inc.kind), "%s", kind);
	snprintf(inc.title, sizeof(inc.title), "%s", title);
	snprintf(inc.summary, sizeof(inc.summary), "x/y step %lld -> %s",
		 (long long)step, title);
	if (res_incident_add(sc, &inc) < 0)
		abort();
}

static void done(struct scenario *s, struct res_scenario *sc)
{
	free(s->steps);
	free(s->expect.title);
	free(s->xfail);
	res_scenario_free(sc);
}

#define V(v) proto_verdict_name(v)

static void test_verdicts(void)
{
	struct scenario s;
	struct res_scenario sc;
	char why[1024];
	enum proto_verdict v;

	/* No expectation and no incident: the verdict stands. */
	mk(&s, &sc, 2, NULL, NULL, false, -1);
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "pass", "no expect, no incident: pass stays pass");
	is_str(why, "", "no expect, no incident: no reason");
	done(&s, &sc);

	/* No expectation, but a WARNING came: the scenario fails. */
	mk(&s, &sc, 2, NULL, NULL, false, -1);
	add_inc(&sc, "warning", "WARNING in f", 1);
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "fail", "no expect, a warning: fail");
	is_str(why, "unexpected incident: x/y step 1 -> WARNING in f",
	       "no expect, a warning: the reason names it");
	done(&s, &sc);

	/* ... and a failing scenario keeps its own verdict. */
	mk(&s, &sc, 2, NULL, NULL, false, -1);
	sc.verdict = VERDICT_FAIL;
	add_inc(&sc, "warning", "WARNING in f", 1);
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "fail", "no expect, failed, a warning: fail");
	is_str(why, "", "no expect, failed: the step's reason stands");
	done(&s, &sc);

	/* An oops that killed step 1's process; the guest lives on. */
	mk(&s, &sc, 3, "oops", "^BUG: kernel NULL pointer dereference", true, -1);
	sc.verdict = VERDICT_ERROR;
	sc.steps[1].verdict = VERDICT_ERROR;
	sc.steps[2].ran = false;
	add_inc(&sc, "oops", "BUG: kernel NULL pointer dereference in lkdtm_X", 1);
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "pass", "survived oops: pass");
	is_str(V(sc.steps[1].verdict), "xfail", "the provoking step is xfail");
	ok(strstr(why, "the expected incident: x/y step 1") != NULL,
	   "survived oops: the reason names it");
	done(&s, &sc);

	/* The same, but the guest died. */
	mk(&s, &sc, 2, "oops", NULL, true, -1);
	sc.verdict = VERDICT_CRASH;
	sc.steps[0].verdict = VERDICT_CRASH;
	sc.steps[1].ran = false;
	add_inc(&sc, "oops", "BUG: unable to handle kernel paging request in f", 0);
	v = incident_verdict(&s, &sc, false, why, sizeof(why));
	is_str(V(v), "fail", "expected survival, died: fail");
	is_str(why, "the guest died; expected it to survive", "died: reason");
	done(&s, &sc);

	/* A panic expected, and it came. */
	mk(&s, &sc, 1, "panic", "stack-protector", false, 0);
	sc.verdict = VERDICT_CRASH;
	sc.steps[0].verdict = VERDICT_CRASH;
	add_inc(&sc, "panic",
		"kernel panic: stack-protector: Kernel stack is corrupted in: lkdtm_CORRUPT_STACK",
		0);
	v = incident_verdict(&s, &sc, false, why, sizeof(why));
	is_str(V(v), "pass", "expected panic: pass");
	done(&s, &sc);

	/* A panic expected; the guest survived without any incident. */
	mk(&s, &sc, 1, "panic", NULL, false, -1);
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "fail", "unexpected survival: fail");
	is_str(why,
	       "expected an incident of kind panic, got no incident; the guest survived; expected it to die",
	       "unexpected survival: reason");
	done(&s, &sc);

	/*
	 * The expected oops came, but the guest was to die of it and
	 * survived: the fate alone fails it (survives: false).
	 */
	mk(&s, &sc, 2, "oops", NULL, false, -1);
	sc.verdict = VERDICT_ERROR;
	sc.steps[0].verdict = VERDICT_ERROR;
	sc.steps[1].ran = false;
	add_inc(&sc, "oops", "BUG: unable to handle kernel paging request in f", 0);
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "fail", "the expected oops, survived, to die: fail");
	is_str(why, "the guest survived; expected it to die",
	       "the expected oops, survived, to die: reason");
	done(&s, &sc);

	/*
	 * The steps after the killing one never ran: their absence is no
	 * failure, whatever verdict they were left with.
	 */
	mk(&s, &sc, 3, "oops", NULL, true, -1);
	sc.verdict = VERDICT_ERROR;
	sc.steps[1].verdict = VERDICT_ERROR;
	sc.steps[2].ran = false;
	sc.steps[2].verdict = VERDICT_ERROR;
	add_inc(&sc, "oops", "BUG: kernel NULL pointer dereference in f", 1);
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "pass", "a step that never ran after the incident: pass");
	done(&s, &sc);

	/* It crashed differently: wrong kind. */
	mk(&s, &sc, 1, "stack-guard", NULL, false, -1);
	sc.verdict = VERDICT_CRASH;
	add_inc(&sc, "oops", "BUG: unable to handle kernel paging request in g", 0);
	v = incident_verdict(&s, &sc, false, why, sizeof(why));
	is_str(V(v), "fail", "crashed differently: fail");
	is_str(why,
	       "unexpected incident: x/y step 0 -> BUG: unable to handle kernel paging request in g; expected an incident of kind stack-guard, got none that matches",
	       "crashed differently: reason");
	done(&s, &sc);

	/* Title and step must match too. */
	mk(&s, &sc, 2, "warning", "in br_vlan_add$", true, 1);
	add_inc(&sc, "warning", "WARNING in br_vlan_add", 0);
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "fail", "wrong step: fail");
	is_str(why,
	       "unexpected incident: x/y step 0 -> WARNING in br_vlan_add; expected an incident of kind warning titled /in br_vlan_add$/ in step s1, got none that matches",
	       "wrong step: reason");
	done(&s, &sc);

	/* Kind and step right, the title not: fail (expect_incident.title). */
	mk(&s, &sc, 2, "warning", "in br_vlan_add$", true, 1);
	add_inc(&sc, "warning", "WARNING in br_vlan_del", 1);
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "fail", "wrong title: fail");
	is_str(why,
	       "unexpected incident: x/y step 1 -> WARNING in br_vlan_del; expected an incident of kind warning titled /in br_vlan_add$/ in step s1, got none that matches",
	       "wrong title: reason");
	done(&s, &sc);

	/* ... and with the title matching, the same incident passes. */
	mk(&s, &sc, 2, "warning", "in br_vlan_add$", true, 1);
	add_inc(&sc, "warning", "WARNING in br_vlan_add", 1);
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "pass", "title, kind and step right: pass");
	done(&s, &sc);

	/* The right incident plus another one: fail. */
	mk(&s, &sc, 1, "warning", NULL, true, -1);
	add_inc(&sc, "warning", "WARNING in a", 0);
	add_inc(&sc, "ubsan", "UBSAN: array-index-out-of-bounds in b", 0);
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "fail", "an extra incident: fail");
	done(&s, &sc);

	/* A later step failed after a surviving incident: fail. */
	mk(&s, &sc, 3, "ubsan", NULL, true, -1);
	sc.verdict = VERDICT_FAIL;
	sc.steps[2].verdict = VERDICT_FAIL;
	add_inc(&sc, "ubsan", "UBSAN: array-index-out-of-bounds in c", 1);
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "fail", "a later step failed: fail");
	is_str(why, "step 3 (write) fail around the incident",
	       "a later step failed: reason");
	done(&s, &sc);

	/* Cleanup steps are not steps around the incident. */
	mk(&s, &sc, 3, "warning", NULL, true, -1);
	sc.steps[1].cleanup = sc.steps[2].cleanup = true;
	sc.steps[1].verdict = VERDICT_SKIP;
	sc.steps[2].verdict = VERDICT_FAIL;
	add_inc(&sc, "warning", "WARNING in d", 0);
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "pass", "a skipped or failed cleanup step: still pass");
	done(&s, &sc);

	/* xfail: a failure is xfail, a pass is xpass, error and skip stay. */
	mk(&s, &sc, 1, "bug", NULL, true, -1);
	s.xfail = strdup("CFI needs clang");
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "xfail", "xfail: no incident is xfail");
	ok(strncmp(why, "xfail (CFI needs clang): fail", 29) == 0,
	   "xfail: reason");
	done(&s, &sc);

	mk(&s, &sc, 1, "bug", NULL, true, -1);
	s.xfail = strdup("CFI needs clang");
	add_inc(&sc, "bug", "kernel BUG in x", 0);
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "xpass", "xfail that passes: xpass");
	ok(!proto_verdict_ok(v), "xpass counts as a failure");
	done(&s, &sc);

	mk(&s, &sc, 1, NULL, NULL, false, -1);
	s.xfail = strdup("r");
	sc.verdict = VERDICT_ERROR;
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "error", "xfail: an infrastructure error stays error");
	done(&s, &sc);

	/* ... and so does one with an incident (its process killed). */
	mk(&s, &sc, 1, NULL, NULL, false, -1);
	s.xfail = strdup("r");
	sc.verdict = VERDICT_ERROR;
	add_inc(&sc, "oops", "BUG: kernel NULL pointer dereference in f", 0);
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "error", "xfail: an error with an incident stays error");
	done(&s, &sc);

	mk(&s, &sc, 1, "panic", NULL, false, -1);
	sc.verdict = VERDICT_SKIP;
	v = incident_verdict(&s, &sc, true, why, sizeof(why));
	is_str(V(v), "skip", "skip stays skip");
	done(&s, &sc);
}

int main(void)
{
	test_attribution();
	test_clock_marker();
	test_verdicts();
	return tap_done();
}
