/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Incidents: console reports joined to the scenario and step that were
 * open when they happened, and the verdict rules for expect_incident and
 * xfail. Pure: no I/O, no logging, so the unit tests drive every rule.
 * docs/crashes.md ("Attribution", "Expected incidents") says the same.
 */
#ifndef VLALAB_INCIDENT_H
#define VLALAB_INCIDENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto.h"
#include "crash/report.h"
#include "results/results.h"
#include "scenario/scenario.h"

/* One step (or a scenario before its first step) on the guest's clock. */
struct incident_span {
	char scenario[PROTO_NAME_MAX];
	int64_t step; /* -1: the scenario had begun, no step yet */
	char kind[PROTO_KIND_MAX];
	char name[PROTO_NAME_MAX];
	uint64_t begin_us, end_us; /* guest CLOCK_BOOTTIME; end 0: open */
};

/*
 * What one VM's guestd said about time: its step spans, and the offset from
 * the kernel's printk clock to CLOCK_BOOTTIME: measured by hello's clock
 * marker when it has one, else bounded from above by the kmsg events.
 */
struct incident_timeline {
	struct incident_span *v;
	size_t n, cap;
	bool have_off;
	int64_t off_us; /* min(t_us - ts_us) over kmsg events */
	bool have_clock;
	int64_t clock_lo_us, clock_hi_us; /* the offset lies in [lo, hi] */
};

void incident_timeline_init(struct incident_timeline *tl);
void incident_timeline_free(struct incident_timeline *tl);
/* Take one accepted event; 0 or -ENOMEM. Events other than hello,
 * scenario_begin, step_begin, step_end, scenario_end and kmsg are ignored. */
int incident_timeline_feed(struct incident_timeline *tl,
			   const struct proto_event *ev);

/*
 * Join @rep to @tl: fill @ret (kind, title, guilty, flags, ts, step,
 * after_step) and return the span it belongs to, or NULL when it happened
 * before any scenario began. A report without a timestamp goes to the last
 * span. @ret->summary is left to incident_summary().
 */
const struct incident_span *
incident_attribute(const struct incident_timeline *tl, const struct report *rep,
		   struct res_incident *ret);

/*
 * "@scenario step N (name) -> TITLE" into @inc->summary; "(kind)" stands in
 * for a step without a name, and "before its first step" for step -1.
 */
void incident_summary(struct res_incident *inc, const char *scenario,
		      const char *step_name, const char *step_kind);

/*
 * The scenario's final verdict. @sc holds what the guest (or the host,
 * for a dead or hung guest) decided, its steps and its incidents;
 * @survived says whether the guest was still running after the scenario.
 * With expect_incident the scenario passes when a matching incident came,
 * no other one did, the guest's fate is the expected one, the steps before
 * the incident passed and those after it passed or did not run. Without
 * it, a scenario that passed but brought an incident (a WARNING or UBSAN
 * report the guest survived) fails, naming the incident. Then xfail
 * turns fail, crash and timeout into xfail and pass into xpass. Sets
 * sc->verdict; when the rules changed it, the reason says why in @why
 * (empty otherwise). Returns the new verdict.
 */
enum proto_verdict incident_verdict(const struct scenario *s,
				    struct res_scenario *sc, bool survived,
				    char *why, size_t len);

/* True when @inc matches @exp's kind, title ERE and step. */
bool incident_matches(const struct scn_incident *exp,
		      const struct res_incident *inc);

#endif
