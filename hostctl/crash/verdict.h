/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A scenario's verdict and reason, decided in one place (verdict_decide())
 * from the facts its run gathered: what the guest said of its steps (the
 * session's view), what ended it early if anything (the host, its VM's
 * end, a boot that did not end as it expects), the marker rule of a
 * scenario with boots, and the crash judge's incidents with the
 * expect_incident and xfail rules (incident.c). Everything else computes
 * facts; only verdict_decide() finishes a scenario that ran
 * (res_scenario_finish()).
 */
#ifndef VLALAB_VERDICT_H
#define VLALAB_VERDICT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "results/results.h"
#include "scenario/scenario.h"
#include "vm/vmend.h"

/* verdict_facts.boot of a cause that is the scenario's, not one boot's. */
#define VERDICT_WHOLE SIZE_MAX

/* What ended a scenario before its steps all ran, if anything. */
enum verdict_cause {
	VERDICT_CAUSE_NONE, /* nothing: the guest's word, the marker rule */
	VERDICT_CAUSE_HOST, /* the host could not run it (or stopped): error */
	VERDICT_CAUSE_VM, /* its VM ended during the steps (@end) */
	VERDICT_CAUSE_GUEST, /* a boot's steps ended, not all passed (@guest) */
	VERDICT_CAUSE_BOOT, /* a boot did not begin or end as expected: fail */
	VERDICT_CAUSE_UNMET, /* it cannot run here (its requires): skip */
};

struct verdict_facts {
	/* The scenario: its boots, expect_incident and xfail. */
	const struct scenario *s;
	/*
	 * The first thing that ended it early, in boot @boot (a scenario
	 * with boots says "boot K: " before @why; VERDICT_WHOLE: not one
	 * boot's), with the VM's end for VERDICT_CAUSE_VM and the view's
	 * verdict for VERDICT_CAUSE_GUEST. @why is the reason (NULL for a
	 * view that gave none), owned by the facts.
	 */
	enum verdict_cause cause;
	size_t boot;
	enum vm_end end;
	enum proto_verdict guest;
	char *why;
	/*
	 * The session's: the view of a scenario without boots, whose
	 * scenario_end (when done) is the guest's own verdict. NULL with
	 * boots, or before its run request.
	 */
	const struct res_scenario *claim;
	/* The marker rule (bootcheck.c): the step whose marker read back
	 * differs, or -1; with boots only. */
	ssize_t bad_marker;
	/*
	 * The crash judge's: whether its rules apply (not after a protocol
	 * error, a signal or a host's error), and whether the guest
	 * survived the last boot judged. Its incidents are the scenario's.
	 */
	bool judged;
	bool survived;
};

/* Facts with nothing known yet for scenario @s. */
void verdict_facts_init(struct verdict_facts *f, const struct scenario *s);
void verdict_facts_free(struct verdict_facts *f);

/*
 * Keep what ended the scenario early, when nothing did before: the first
 * cause is the one that counts. @why is copied (NULL: none).
 */
void verdict_note(struct verdict_facts *f, enum verdict_cause cause,
		  size_t boot, const char *why);
/* verdict_note() of VERDICT_CAUSE_VM: the VM ended as @end says. */
void verdict_note_end(struct verdict_facts *f, size_t boot, enum vm_end end,
		      const char *why);
/* verdict_note() of VERDICT_CAUSE_GUEST: a view ended @v. */
void verdict_note_guest(struct verdict_facts *f, size_t boot,
			enum proto_verdict v, const char *why);

/*
 * The verdict an open step, and a scenario whose VM ended during its
 * steps, take from the VM's end @e: a hang or silence is timeout, a
 * signal or protocol error is error, a death is crash, a stop as
 * expected is pass.
 */
enum proto_verdict verdict_of_end(enum vm_end e);

/* The verdict as the facts stand, before the crash judge's rules. */
enum proto_verdict verdict_base(const struct verdict_facts *f);

/*
 * A scenario that never ran: verdict_decide() from the one @cause (the
 * scenario's, not a boot's) with the reason @why. 0, or -ENOMEM.
 */
int verdict_decide_unrun(const struct scenario *s, struct res_scenario *sc,
			 enum verdict_cause cause, const char *why);

/*
 * Decide @sc's verdict and reason from @f, its steps and its incidents,
 * and finish it (res_scenario_finish()). A scenario of which nothing is
 * known stays unfinished unless the judge's rules say something. 0, or
 * -ENOMEM.
 */
int verdict_decide(const struct verdict_facts *f, struct res_scenario *sc);

#endif
