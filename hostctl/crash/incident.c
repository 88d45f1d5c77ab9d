// SPDX-License-Identifier: GPL-2.0-only
/*
 * Attribution and expected-incident verdicts. The console's reports carry
 * the kernel's printk timestamp; guestd's step events carry its
 * CLOCK_BOOTTIME. Both count from boot and differ by little.
 *
 * guestd's hello measures the difference: it read CLOCK_BOOTTIME (t0),
 * wrote a marker record to /dev/kmsg, read it again (t1), and the kernel
 * stamped the record ts in between, so the offset lies in [t0 - ts,
 * t1 - ts]. The lower bound is the one used: a report mapped with it is
 * never placed after the moment it happened, so a report printed just
 * before a step ended cannot land in the next step, which under -icount
 * begins within microseconds. Its error, early, is the time from guestd's
 * clock read to the kernel's stamp inside write(): less than any step
 * takes from its step_begin to its first syscall.
 *
 * Without the marker (an older guestd, or the kernel dropped the record),
 * every kmsg event carries both clocks (ts_us from the record, t_us when
 * guestd forwarded it), and the smallest t_us - ts_us seen bounds the
 * offset from above only: a report at printk time ts happened at boottime
 * ts + offset at the latest, by as much as guestd's forwarding delay.
 *
 * A report belongs to the last step that began before its mapped time.
 */
#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/incident.h"

void incident_timeline_init(struct incident_timeline *tl)
{
	memset(tl, 0, sizeof(*tl));
}

void incident_timeline_free(struct incident_timeline *tl)
{
	free(tl->v);
	incident_timeline_init(tl);
}

static struct incident_span *span_add(struct incident_timeline *tl)
{
	if (tl->n == tl->cap) {
		size_t cap = tl->cap ? tl->cap * 2 : 32;
		struct incident_span *v = realloc(tl->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		tl->v = v;
		tl->cap = cap;
	}
	memset(&tl->v[tl->n], 0, sizeof(tl->v[0]));
	return &tl->v[tl->n++];
}

/* Close the last span if it is still open. */
static void span_close(struct incident_timeline *tl, uint64_t t_us)
{
	if (tl->n && !tl->v[tl->n - 1].end_us)
		tl->v[tl->n - 1].end_us = t_us ? t_us : 1;
}

/* hello's clock marker: t0 <= t1, all three set, none absurd. */
static void clock_take(struct incident_timeline *tl,
		       const struct proto_hello *h)
{
	const uint64_t lim = (uint64_t)INT64_MAX / 4;

	if (!h->clock_t0_us || !h->clock_ts_us || !h->clock_t1_us ||
	    h->clock_t0_us > h->clock_t1_us || h->clock_t1_us > lim ||
	    h->clock_ts_us > lim)
		return;
	tl->clock_lo_us = (int64_t)h->clock_t0_us - (int64_t)h->clock_ts_us;
	tl->clock_hi_us = (int64_t)h->clock_t1_us - (int64_t)h->clock_ts_us;
	tl->have_clock = true;
}

int incident_timeline_feed(struct incident_timeline *tl,
			   const struct proto_event *ev)
{
	struct incident_span *sp;
	int64_t off;

	switch (ev->type) {
	case PROTO_EV_HELLO:
		clock_take(tl, &ev->u.hello);
		return 0;
	case PROTO_EV_SCENARIO_BEGIN:
		span_close(tl, ev->t_us);
		sp = span_add(tl);
		if (!sp)
			return -ENOMEM;
		snprintf(sp->scenario, sizeof(sp->scenario), "%s",
			 ev->u.scenario_begin.scenario);
		sp->step = -1;
		sp->begin_us = ev->t_us;
		return 0;
	case PROTO_EV_STEP_BEGIN:
		span_close(tl, ev->t_us);
		sp = span_add(tl);
		if (!sp)
			return -ENOMEM;
		snprintf(sp->scenario, sizeof(sp->scenario), "%s",
			 ev->u.step_begin.scenario);
		sp->step = ev->u.step_begin.step;
		snprintf(sp->kind, sizeof(sp->kind), "%s",
			 ev->u.step_begin.kind);
		snprintf(sp->name, sizeof(sp->name), "%s",
			 ev->u.step_begin.name);
		sp->begin_us = ev->t_us;
		return 0;
	case PROTO_EV_STEP_END:
	case PROTO_EV_SCENARIO_END:
		span_close(tl, ev->t_us);
		return 0;
	case PROTO_EV_KMSG:
		off = (int64_t)ev->t_us - (int64_t)ev->u.kmsg.ts_us;
		if (!tl->have_off || off < tl->off_us) {
			tl->off_us = off;
			tl->have_off = true;
		}
		return 0;
	default:
		return 0;
	}
}

const struct incident_span *
incident_attribute(const struct incident_timeline *tl, const struct report *rep,
		   struct res_incident *ret)
{
	const struct incident_span *sp = NULL;

	memset(ret, 0, sizeof(*ret));
	snprintf(ret->kind, sizeof(ret->kind), "%s",
		 report_kind_name(rep->kind));
	snprintf(ret->title, sizeof(ret->title), "%s", rep->title);
	snprintf(ret->guilty, sizeof(ret->guilty), "%s", rep->guilty);
	ret->corrupted = rep->corrupted;
	ret->fatal = rep->fatal;
	ret->ts = rep->ts;
	ret->step = -1;
	if (rep->ts < 0) {
		sp = tl->n ? &tl->v[tl->n - 1] : NULL;
	} else {
		int64_t off = tl->have_clock ? tl->clock_lo_us :
			      tl->have_off   ? tl->off_us :
					       0;
		/* Rounded: the console prints whole microseconds. */
		int64_t t = (int64_t)(rep->ts * 1e6 + 0.5) + off;

		for (size_t i = 0; i < tl->n; i++)
			if ((int64_t)tl->v[i].begin_us <= t)
				sp = &tl->v[i];
		if (sp && sp->end_us && (int64_t)sp->end_us < t)
			ret->after_step = true;
	}
	if (sp)
		ret->step = sp->step;
	return sp;
}

void incident_summary(struct res_incident *inc, const char *scenario,
		      const char *step_name, const char *step_kind)
{
	const char *after = inc->after_step ? ", after it ended" : "";

	if (!scenario || !*scenario)
		snprintf(inc->summary, sizeof(inc->summary),
			 "before any scenario -> %s", inc->title);
	else if (inc->step < 0)
		snprintf(inc->summary, sizeof(inc->summary),
			 "%s before its first step -> %s", scenario,
			 inc->title);
	else
		snprintf(inc->summary, sizeof(inc->summary),
			 "%s step %" PRId64 " (%s%s) -> %s", scenario,
			 inc->step + 1,
			 step_name && *step_name ? step_name :
						   (step_kind ? step_kind : ""),
			 after, inc->title);
}

bool incident_matches(const struct scn_incident *exp,
		      const struct res_incident *inc)
{
	regex_t re;
	bool m;

	if (strcmp(exp->kind, inc->kind) != 0)
		return false;
	if (exp->step >= 0 && exp->step != inc->step)
		return false;
	if (!exp->title)
		return true;
	/* The validator compiled it already; a failure here is ENOMEM. */
	if (regcomp(&re, exp->title, REG_EXTENDED | REG_NOSUB) != 0)
		return false;
	m = regexec(&re, inc->title, 0, NULL, 0) == 0;
	regfree(&re);
	return m;
}

/* Append "; " + @text to @why. */
static void why_add(char *why, size_t len, const char *text)
{
	size_t n = strlen(why);

	if (n + 1 < len)
		snprintf(why + n, len - n, "%s%s", n ? "; " : "", text);
}

/*
 * The steps around the expected incident at step @at: those before must
 * have passed, those after passed or never ran. The cleanup list's steps
 * are judged apart (cleanup_failed), and a guarded one may be skip.
 * Returns the first offending step, or NULL.
 */
static const struct res_step *bad_step(const struct res_scenario *sc,
				       int64_t at)
{
	for (size_t i = 0; i < sc->nsteps; i++) {
		const struct res_step *st = &sc->steps[i];

		if ((int64_t)i == at || !st->ran || st->cleanup)
			continue;
		if (st->verdict != VERDICT_PASS)
			return st;
	}
	return NULL;
}

static enum proto_verdict expect_verdict(const struct scenario *s,
					 struct res_scenario *sc, bool survived,
					 char *why, size_t len)
{
	const struct scn_incident *exp = &s->expect;
	const struct res_incident *hit = NULL;
	const struct res_step *st;
	char buf[800];

	for (size_t i = 0; i < sc->nincidents; i++) {
		if (incident_matches(exp, &sc->incidents[i])) {
			if (!hit)
				hit = &sc->incidents[i];
			continue;
		}
		snprintf(buf, sizeof(buf), "unexpected incident: %s",
			 sc->incidents[i].summary);
		why_add(why, len, buf);
	}
	if (!hit) {
		snprintf(buf, sizeof(buf),
			 "expected an incident of kind %s%s%s%s%s%s, got %s",
			 exp->kind, exp->title ? " titled /" : "",
			 exp->title ? exp->title : "", exp->title ? "/" : "",
			 exp->step >= 0 ? " in step " : "",
			 exp->step >= 0 ? s->steps[exp->step].name : "",
			 sc->nincidents ? "none that matches" : "no incident");
		why_add(why, len, buf);
	}
	if (survived && !exp->survives)
		why_add(why, len, "the guest survived; expected it to die");
	if (!survived && exp->survives)
		why_add(why, len, "the guest died; expected it to survive");
	if (hit && survived) {
		st = bad_step(sc, hit->step);
		if (st) {
			snprintf(buf, sizeof(buf),
				 "step %u (%s) %s around the incident",
				 st->index + 1, *st->name ? st->name : st->kind,
				 proto_verdict_name(st->verdict));
			why_add(why, len, buf);
		}
	}
	if (*why)
		return VERDICT_FAIL;
	/* The step that provoked it did what was asked of it. */
	if (hit->step >= 0 && (size_t)hit->step < sc->nsteps &&
	    sc->steps[hit->step].verdict != VERDICT_PASS) {
		sc->steps[hit->step].verdict = VERDICT_XFAIL;
		res_set_str(&sc->steps[hit->step].reason, hit->summary);
	}
	snprintf(why, len, "the expected incident: %s", hit->summary);
	return VERDICT_PASS;
}

enum proto_verdict incident_verdict(const struct scenario *s,
				    struct res_scenario *sc, bool survived,
				    char *why, size_t len)
{
	enum proto_verdict v = sc->verdict;

	why[0] = '\0';
	/* Skipped or never run: nothing happened that the rules could judge. */
	if (v == VERDICT_SKIP ||
	    (v == VERDICT_ERROR && !sc->nincidents && survived))
		return v;
	if (s->expect.set) {
		v = expect_verdict(s, sc, survived, why, len);
	} else if (v == VERDICT_PASS && sc->nincidents) {
		/* A WARNING or UBSAN report the guest survived, unasked. */
		char buf[800];

		for (size_t i = 0; i < sc->nincidents; i++) {
			snprintf(buf, sizeof(buf), "unexpected incident: %s",
				 sc->incidents[i].summary);
			why_add(why, len, buf);
		}
		v = VERDICT_FAIL;
	}
	if (s->xfail) {
		char buf[PROTO_TEXT_MAX];

		if (v == VERDICT_FAIL || v == VERDICT_CRASH ||
		    v == VERDICT_TIMEOUT) {
			snprintf(buf, sizeof(buf), "xfail (%s): %s%s%s",
				 s->xfail, proto_verdict_name(v),
				 *why ? ": " : "", why);
			v = VERDICT_XFAIL;
		} else if (v == VERDICT_PASS) {
			snprintf(buf, sizeof(buf),
				 "xpass: passed, but marked xfail (%s)",
				 s->xfail);
			v = VERDICT_XPASS;
		} else {
			buf[0] = '\0';
		}
		if (*buf)
			snprintf(why, len, "%s", buf);
	}
	sc->verdict = v;
	return v;
}
