// SPDX-License-Identifier: GPL-2.0-only
/*
 * Checks the order and content of guest events against the scenario the
 * host is running, and records step and scenario verdicts. The guest is
 * untrusted: everything it names must be what the host asked for.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "guest/session.h"

void session_init(struct session *s)
{
	memset(s, 0, sizeof(*s));
	s->open_step = -1;
	s->last_step = -1;
}

static int fail(struct session *s, int r, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct session *s, int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return r;
}

void session_carry(struct session *s)
{
	s->carry = SESSION_CARRY_WAITING;
	/* vm_wait's silence bound counts from hello: not before a line. */
	s->hello_seen = false;
	s->bye_seen = false;
}

/* The first event of a carried session says whether the guest resumed. */
static void carry_decide(struct session *s, const struct proto_event *ev)
{
	if (s->carry != SESSION_CARRY_WAITING)
		return;
	if (ev->type == PROTO_EV_HELLO) {
		s->carry = SESSION_CARRY_FRESH;
		s->cur = NULL;
		s->begun = false;
		s->open_step = -1;
		s->last_step = -1;
		return;
	}
	s->carry = SESSION_CARRY_RESUMED;
	s->hello_seen = true;
}

int session_expect(struct session *s, struct res_scenario *sc)
{
	if (!s->hello_seen)
		return fail(s, -EPROTO, "no hello yet");
	if (s->cur)
		return fail(s, -EBUSY, "scenario '%s' is still running",
			    s->cur->name);
	s->cur = sc;
	s->begun = false;
	memset(&s->audit, 0, sizeof(s->audit));
	s->open_step = -1;
	s->last_step = -1;
	return 0;
}

bool session_idle(const struct session *s)
{
	return !s->cur;
}

/* The event must be about the running scenario, begun or not as wanted. */
static int check_scenario(struct session *s, const struct proto_event *ev,
			  const char *name, bool begun)
{
	const char *what = proto_event_name(ev->type);

	if (!s->cur)
		return fail(s, -EPROTO, "%s for '%s' while no scenario runs",
			    what, name);
	if (strcmp(name, s->cur->name) != 0)
		return fail(s, -EPROTO, "%s for '%s' while '%s' runs", what,
			    name, s->cur->name);
	if (s->begun && !begun)
		return fail(s, -EPROTO, "a second %s for '%s'", what, name);
	if (!s->begun && begun)
		return fail(s, -EPROTO, "%s for '%s' before scenario_begin",
			    what, name);
	return 0;
}

/*
 * Steps begin in order, and the main steps may stop early: after any of
 * them (or before the first) the cleanup list may begin, at its first
 * step, numbered right after the main steps.
 */
static bool step_next_ok(const struct session *s, uint32_t step)
{
	int64_t first_cleanup = (int64_t)(s->cur->nsteps - s->cur->ncleanup);

	if (step >= s->cur->nsteps)
		return false;
	if ((int64_t)step == s->last_step + 1)
		return true;
	return s->cur->ncleanup && (int64_t)step == first_cleanup &&
	       s->last_step < first_cleanup;
}

static int on_step_begin(struct session *s, const struct proto_step_begin *e)
{
	struct res_step *st;

	if (s->open_step >= 0)
		return fail(s, -EPROTO,
			    "step_begin %u while step %" PRId64 " is open",
			    e->step, s->open_step);
	if (!step_next_ok(s, e->step))
		return fail(s, -EPROTO,
			    "step_begin %u, expected step %" PRId64 " of %zu",
			    e->step, s->last_step + 1, s->cur->nsteps);
	st = &s->cur->steps[e->step];
	if (strcmp(st->kind, e->kind) != 0)
		return fail(s, -EPROTO, "step %u: kind '%s', expected '%s'",
			    e->step, e->kind, st->kind);
	st->index = e->step;
	st->ran = true;
	st->verdict = VERDICT_ERROR;
	s->open_step = e->step;
	s->last_step = e->step;
	return 0;
}

static int on_step_end(struct session *s, const struct proto_step_end *e)
{
	struct res_step *st;
	int r;

	if ((int64_t)e->step != s->open_step)
		return fail(s, -EPROTO,
			    "step_end %u, but the open step is %" PRId64,
			    e->step, s->open_step);
	st = &s->cur->steps[e->step];
	st->verdict = e->verdict;
	st->duration_us = e->duration_us;
	st->bench = e->bench;
	st->stack = e->stack;
	r = res_set_str(&st->expected, e->expected);
	if (r == 0)
		r = res_set_str(&st->got, e->got);
	if (r == 0)
		r = res_set_str(&st->reason, e->reason);
	if (r < 0)
		return fail(s, r, "out of memory");
	s->open_step = -1;
	return 0;
}

/* A subtest of the open step, numbered after the ones it reported. */
static int on_subtest(struct session *s, const struct proto_subtest *e)
{
	struct res_step *st;

	if ((int64_t)e->step != s->open_step)
		return fail(s, -EPROTO,
			    "subtest of step %u, but the open step is %" PRId64,
			    e->step, s->open_step);
	st = &s->cur->steps[e->step];
	if (e->index != st->nsubtests)
		return fail(s, -EPROTO,
			    "subtest %u of step %u, expected subtest %zu",
			    e->index, e->step, st->nsubtests);
	if (res_subtest_add(st, e->name, e->verdict, e->reason) < 0)
		return fail(s, -ENOMEM, "out of memory");
	return 0;
}

/*
 * The state-leak audit's notes for the scenario that ends: what appeared
 * since the previous scenario in this guest ended, and what this one left.
 */
static int audit_notes(struct session *s, struct res_scenario *sc)
{
	struct audit_notes notes = { 0 };
	int r;

	r = audit_between(s->audit_prev, &s->audit_prev_after, &s->audit.before,
			  &notes);
	if (r == 0)
		r = audit_compare(sc->name, &s->audit, sc->incident_expected,
				  &notes);
	if (r < 0) {
		audit_notes_free(&notes);
		return r;
	}
	res_leaks_free(sc);
	sc->leaks = notes.v;
	sc->nleaks = notes.n;
	/* A scenario refused before it began leaves the last one in place. */
	if (s->audit.after.have) {
		snprintf(s->audit_prev, sizeof(s->audit_prev), "%s", sc->name);
		s->audit_prev_after = s->audit.after;
	}
	return 0;
}

/*
 * A pass is earned, not claimed: every step must have begun and ended
 * with pass. Otherwise @why says which step did not, and the guest's
 * "pass" is an error of the guest, not a verdict on the kernel. The
 * cleanup list's steps are judged apart (cleanup_failed), never here.
 */
static bool pass_earned(const struct res_scenario *sc, char *why, size_t len)
{
	for (size_t i = 0; i < sc->nsteps - sc->ncleanup; i++) {
		const struct res_step *st = &sc->steps[i];

		if (!st->ran)
			snprintf(why, len,
				 "the guest reported pass, but step "
				 "%zu (%s) never began",
				 i + 1, st->kind);
		else if (st->verdict != VERDICT_PASS)
			snprintf(why, len,
				 "the guest reported pass, but step "
				 "%zu (%s) ended %s",
				 i + 1, st->kind,
				 proto_verdict_name(st->verdict));
		else
			continue;
		return false;
	}
	return true;
}

static int on_scenario_end(struct session *s,
			   const struct proto_scenario_end *e)
{
	struct res_scenario *sc = s->cur;
	enum proto_verdict verdict = e->verdict;
	const char *reason = e->reason;
	char why[256];
	int r;

	/* A timed-out scenario may end with its step still open. */
	if (s->open_step >= 0) {
		struct res_step *st = &sc->steps[s->open_step];

		st->verdict = e->verdict == VERDICT_PASS ? VERDICT_ERROR :
							   e->verdict;
		r = res_set_str(&st->reason, "the scenario ended first");
		if (r < 0)
			return fail(s, r, "out of memory");
	}
	sc->duration_ms = e->duration_us / 1000;
	if (verdict == VERDICT_PASS && !pass_earned(sc, why, sizeof(why))) {
		verdict = VERDICT_ERROR;
		reason = why;
	}
	r = audit_notes(s, sc);
	if (r == 0)
		r = res_scenario_finish(sc, verdict, reason);
	if (r < 0)
		return fail(s, r, "out of memory");
	s->cur = NULL;
	s->begun = false;
	s->open_step = -1;
	return 0;
}

static int dispatch(struct session *s, const struct proto_event *ev)
{
	int r;

	carry_decide(s, ev);
	if (ev->type != PROTO_EV_HELLO && !s->hello_seen)
		return fail(s, -EPROTO, "%s before hello",
			    proto_event_name(ev->type));
	if (s->bye_seen)
		return fail(s, -EPROTO, "%s after bye",
			    proto_event_name(ev->type));
	switch (ev->type) {
	case PROTO_EV_HELLO:
		if (s->hello_seen)
			return fail(s, -EPROTO, "a second hello");
		if (ev->u.hello.version != PROTO_VERSION)
			return fail(
				s, -EPROTONOSUPPORT,
				"protocol version mismatch: guestd speaks version %" PRId64
				", hostctl speaks version %d; rebuild the image",
				ev->u.hello.version, PROTO_VERSION);
		s->hello = ev->u.hello;
		s->hello_seen = true;
		return 0;
	case PROTO_EV_SCENARIO_BEGIN:
		r = check_scenario(s, ev, ev->u.scenario_begin.scenario, false);
		if (r < 0)
			return r;
		if (ev->u.scenario_begin.nsteps !=
			    s->cur->nsteps - s->cur->ncleanup ||
		    ev->u.scenario_begin.ncleanup != s->cur->ncleanup)
			return fail(
				s, -EPROTO,
				"scenario_begin for '%s' with %u steps and %u cleanup steps, expected %zu and %zu",
				s->cur->name, ev->u.scenario_begin.nsteps,
				ev->u.scenario_begin.ncleanup,
				s->cur->nsteps - s->cur->ncleanup,
				s->cur->ncleanup);
		s->begun = true;
		return 0;
	case PROTO_EV_STEP_BEGIN:
		r = check_scenario(s, ev, ev->u.step_begin.scenario, true);
		return r < 0 ? r : on_step_begin(s, &ev->u.step_begin);
	case PROTO_EV_STEP_END:
		r = check_scenario(s, ev, ev->u.step_end.scenario, true);
		return r < 0 ? r : on_step_end(s, &ev->u.step_end);
	case PROTO_EV_SCENARIO_END:
		/* guestd may refuse a run before beginning it. */
		r = check_scenario(s, ev, ev->u.scenario_end.scenario,
				   s->begun);
		return r < 0 ? r : on_scenario_end(s, &ev->u.scenario_end);
	case PROTO_EV_SUBTEST:
		r = check_scenario(s, ev, ev->u.subtest.scenario, true);
		return r < 0 ? r : on_subtest(s, &ev->u.subtest);
	case PROTO_EV_OUTPUT:
		r = check_scenario(s, ev, ev->u.output.scenario, true);
		if (r == 0 && (int64_t)ev->u.output.step != s->open_step)
			r = fail(
				s, -EPROTO,
				"output of step %u, but the open step is %" PRId64,
				ev->u.output.step, s->open_step);
		return r;
	case PROTO_EV_AUDIT:
	case PROTO_EV_AUDIT_FILE:
		r = check_scenario(s, ev,
				   ev->type == PROTO_EV_AUDIT ?
					   ev->u.audit.scenario :
					   ev->u.audit_file.scenario,
				   true);
		if (r < 0)
			return r;
		r = audit_take(&s->audit, ev, s->open_step >= 0,
			       s->last_step >= 0, s->err, sizeof(s->err));
		return r;
	case PROTO_EV_KMSG:
	case PROTO_EV_HEARTBEAT:
		return 0;
	case PROTO_EV_BYE:
		if (s->cur)
			return fail(s, -EPROTO, "bye while '%s' runs",
				    s->cur->name);
		s->bye_seen = true;
		return 0;
	default:
		return fail(s, -EPROTO, "unknown event type %d", ev->type);
	}
}

int session_feed(struct session *s, const char *line, size_t len)
{
	struct proto_event ev;
	char err[256];
	int r;

	r = proto_event_decode(line, len, &ev, err, sizeof(err));
	/* A restored guest: the saved one's lines end at its answer. */
	if (s->restore_id[0] && !s->hello_seen &&
	    (r < 0 || ev.type != PROTO_EV_HELLO || ev.u.hello.restored != 1 ||
	     strcmp(ev.u.hello.boot_id, s->restore_id) != 0)) {
		s->dropped++;
		return SESSION_DROPPED;
	}
	if (r < 0)
		return fail(s, r, "bad line from the guest: %s", err);
	r = dispatch(s, &ev);
	if (r < 0)
		return r;
	s->nevents++;
	s->last_t_us = ev.t_us;
	if (ev.type == PROTO_EV_SCENARIO_BEGIN)
		s->end_t_us = 0;
	else if (ev.type == PROTO_EV_SCENARIO_END)
		s->end_t_us = ev.t_us;
	if (s->on_event)
		s->on_event(s->userdata, &ev);
	return 0;
}
