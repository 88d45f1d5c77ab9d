// SPDX-License-Identifier: GPL-2.0-only
/*
 * A scenario's verdict from its facts (verdict.h): the first cause that
 * ended it early wins over what followed, the guest's own scenario_end
 * is the verdict of a scenario without boots, the marker rule that of one
 * with boots whose boots all went as expected; then the crash judge's
 * rules (incident_verdict()) may change it, their reason first.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/incident.h"
#include "crash/verdict.h"

void verdict_facts_init(struct verdict_facts *f, const struct scenario *s)
{
	memset(f, 0, sizeof(*f));
	f->s = s;
	f->boot = VERDICT_WHOLE;
	f->bad_marker = -1;
	f->survived = true;
}

void verdict_facts_free(struct verdict_facts *f)
{
	free(f->why);
	f->why = NULL;
}

void verdict_note(struct verdict_facts *f, enum verdict_cause cause,
		  size_t boot, const char *why)
{
	if (f->cause != VERDICT_CAUSE_NONE || cause == VERDICT_CAUSE_NONE)
		return;
	f->cause = cause;
	f->boot = boot;
	/* Out of memory, the verdict stands without its reason. */
	f->why = why ? strdup(why) : NULL;
}

void verdict_note_end(struct verdict_facts *f, size_t boot, enum vm_end end,
		      const char *why)
{
	if (f->cause == VERDICT_CAUSE_NONE)
		f->end = end;
	verdict_note(f, VERDICT_CAUSE_VM, boot, why);
}

void verdict_note_guest(struct verdict_facts *f, size_t boot,
			enum proto_verdict v, const char *why)
{
	if (f->cause == VERDICT_CAUSE_NONE)
		f->guest = v;
	verdict_note(f, VERDICT_CAUSE_GUEST, boot, why);
}

enum proto_verdict verdict_of_end(enum vm_end e)
{
	switch (e) {
	case VM_END_RUNNING:
	case VM_END_POWEROFF:
	case VM_END_REBOOT:
		return VERDICT_PASS;
	case VM_END_HANG:
	case VM_END_TIMEOUT:
	case VM_END_SILENT:
		return VERDICT_TIMEOUT;
	case VM_END_INTERRUPTED:
	case VM_END_PROTOCOL:
	case VM_END_LOST:
		return VERDICT_ERROR;
	case VM_END_DIED:
	default:
		return VERDICT_CRASH;
	}
}

static bool has_boots(const struct verdict_facts *f)
{
	return f->s && f->s->nboots;
}

/* The guest's own word decides a scenario without boots, once it came. */
static bool claimed(const struct verdict_facts *f)
{
	return !has_boots(f) && f->claim && f->claim->done;
}

static enum proto_verdict cause_verdict(const struct verdict_facts *f)
{
	switch (f->cause) {
	case VERDICT_CAUSE_VM:
		return verdict_of_end(f->end);
	case VERDICT_CAUSE_GUEST:
		return f->guest;
	case VERDICT_CAUSE_BOOT:
		return VERDICT_FAIL;
	case VERDICT_CAUSE_UNMET:
		return VERDICT_SKIP;
	case VERDICT_CAUSE_HOST:
	default:
		return VERDICT_ERROR;
	}
}

enum proto_verdict verdict_base(const struct verdict_facts *f)
{
	if (claimed(f))
		return f->claim->verdict;
	if (f->cause != VERDICT_CAUSE_NONE)
		return cause_verdict(f);
	if (has_boots(f))
		return f->bad_marker >= 0 ? VERDICT_FAIL : VERDICT_PASS;
	return VERDICT_ERROR;
}

/*
 * The reason before the judge's rules, malloc'd in *ret (NULL: none).
 * Returns whether anything is known to decide from.
 */
static int base_reason(const struct verdict_facts *f, char **ret)
{
	const char *why = NULL;
	int r = 0;

	*ret = NULL;
	if (claimed(f)) {
		why = f->claim->reason;
	} else if (f->cause != VERDICT_CAUSE_NONE) {
		why = f->why;
		if (!why && f->cause == VERDICT_CAUSE_GUEST)
			why = "failed";
		if (has_boots(f) && f->boot != VERDICT_WHOLE)
			r = asprintf(ret, "boot %zu: %s", f->boot,
				     why ? why : "");
	} else if (has_boots(f) && f->bad_marker >= 0) {
		r = asprintf(
			ret,
			"step %zd (marker): the marker read back is not the one set",
			f->bad_marker + 1);
	}
	if (r < 0)
		return -ENOMEM;
	if (!*ret && why && *why && !(*ret = strdup(why)))
		return -ENOMEM;
	return 0;
}

int verdict_decide(const struct verdict_facts *f, struct res_scenario *sc)
{
	bool known = claimed(f) || f->cause != VERDICT_CAUSE_NONE ||
		     has_boots(f);
	char why[PROTO_TEXT_MAX] = "";
	char *reason, *both;
	int r;

	r = base_reason(f, &reason);
	if (r < 0)
		return r;
	/* incident_verdict() judges from the base verdict in @sc. */
	sc->verdict = known ? verdict_base(f) : sc->verdict;
	if (f->judged && f->s)
		incident_verdict(f->s, sc, f->survived, why, sizeof(why));
	if (*why) {
		if (asprintf(&both, "%s%s%s", why, reason ? "\n" : "",
			     reason ? reason : "") < 0) {
			free(reason);
			return -ENOMEM;
		}
		free(reason);
		reason = both;
	} else if (!known) {
		free(reason);
		return 0;
	}
	r = res_scenario_finish(sc, sc->verdict, reason);
	free(reason);
	return r;
}

int verdict_decide_unrun(const struct scenario *s, struct res_scenario *sc,
			 enum verdict_cause cause, const char *why)
{
	struct verdict_facts f;
	int r;

	verdict_facts_init(&f, s);
	verdict_note(&f, cause, VERDICT_WHOLE, why);
	r = verdict_decide(&f, sc);
	verdict_facts_free(&f);
	return r;
}
