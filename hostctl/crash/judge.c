// SPDX-License-Identifier: GPL-2.0-only
/*
 * After each boot of a scenario: incidents and bundle. The console log is the
 * whole VM's; each report goes to the scenario its timestamp falls in, so a
 * report is never counted for two scenarios. A bundle is written when the
 * guest died or hung, once per VM, and every incident of the scenario
 * points at it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crash/judge.h"
#include "crash/report.h"

/* Enough console for any run; a longer log keeps its tail. */
#define JUDGE_CONSOLE_MAX (32u << 20)
/*
 * A hung guest still runs: its own detectors (a soft lockup on a 1-CPU
 * TCG guest reports every ~14 s, close to VM_SILENCE_MS) may print the
 * reason just after the host gave up on it. Give them this long, in ms.
 */
#define JUDGE_HANG_GRACE_MS 5000

/* Append printf output to a growing string; ENOMEM leaves it as it was. */
static void sb_printf(char **s, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void sb_printf(char **s, size_t *len, const char *fmt, ...)
{
	va_list ap;
	char *add, *n;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&add, fmt, ap);
	va_end(ap);
	if (r < 0)
		return;
	n = realloc(*s, *len + r + 1);
	if (n) {
		memcpy(n + *len, add, r + 1);
		*s = n;
		*len += r;
	}
	free(add);
}

static void add_hang(const struct judge_in *in)
{
	const struct res_step *st = NULL;
	struct res_incident inc = { .ts = -1, .step = in->open_step };

	snprintf(inc.kind, sizeof(inc.kind), "hang");
	snprintf(inc.title, sizeof(inc.title), "hang: %s", in->hang);
	if (inc.step >= 0 && (size_t)inc.step < in->sc->nsteps)
		st = &in->sc->steps[inc.step];
	incident_summary(&inc, in->sc->name, st ? st->name : NULL,
			 st ? st->kind : NULL);
	res_incident_add(in->sc, &inc);
}

/*
 * A report that belongs to an earlier scenario on this VM but reached the
 * console after that one was judged (a late WARNING, an RCU stall): list it
 * there too, once, without changing that scenario's verdict.
 */
static void late(const struct judge_in *in, const struct res_incident *inc,
		 const char *scenario)
{
	struct res_scenario *old = NULL;

	for (size_t i = 0; in->run && i < in->run->n && !old; i++)
		if (&in->run->v[i] != in->sc && in->run->v[i].done &&
		    strcmp(in->run->v[i].name, scenario) == 0)
			old = &in->run->v[i];
	if (!old)
		return;
	for (size_t i = 0; i < old->nincidents; i++)
		if (old->incidents[i].ts == inc->ts &&
		    strcmp(old->incidents[i].title, inc->title) == 0)
			return;
	res_incident_add(old, inc);
}

/* The reports of @log that belong to this scenario go into sc->incidents;
 * their text goes to *raw and a readable list to *txt. */
static void collect(const struct judge_in *in, const char *log, size_t len,
		    char **txt, size_t *tlen, char **raw, size_t *rlen)
{
	struct report *reps = NULL;
	ssize_t n = report_parse(log, len, &reps);

	for (ssize_t i = 0; i < n; i++) {
		const struct incident_span *sp;
		struct res_incident inc;

		sp = incident_attribute(in->tl, &reps[i], &inc);
		if (!sp)
			continue;
		incident_summary(&inc, sp->scenario, sp->name, sp->kind);
		if (strcmp(sp->scenario, in->sc->name) != 0) {
			late(in, &inc, sp->scenario);
			continue;
		}
		if (res_incident_add(in->sc, &inc) < 0)
			break;
		sb_printf(
			txt, tlen,
			"%s\n  kind %s, guilty '%s'%s%s, kernel time %.6f s\n",
			inc.summary, inc.kind, inc.guilty,
			inc.corrupted ? ", corrupted" : "",
			inc.fatal ? ", fatal" : "", inc.ts);
		sb_printf(raw, rlen, "%.*s\n",
			  (int)(reps[i].end - reps[i].start),
			  log + reps[i].start);
	}
	free(reps);
}

/*
 * A guest that panicked without a report on its console: on 6.12 a panic in
 * NMI context (a guard-page hit in the double-fault handler) only stores
 * its lines, and pvpanic stops the guest before console_flush_on_panic().
 * The kernel log in its memory still has them (kmsg.h).
 */
static void from_memory(const struct judge_in *in, char **txt, size_t *tlen,
			char **raw, size_t *rlen)
{
	size_t first = in->sc->nincidents, len = 0;
	char *log = NULL;
	int r = pm_kmsg(in->pm, in->vm, &log, &len);

	if (r < 0) {
		sb_printf(txt, tlen,
			  "no report on the console; the kernel log in the "
			  "guest's memory could not be read: %s\n",
			  strerror(-r));
		return;
	}
	collect(in, log, len, txt, tlen, raw, rlen);
	sb_printf(txt, tlen,
		  in->sc->nincidents > first ?
			  "(the console had no report: these are from the "
			  "kernel log in the guest's memory)\n" :
			  "no report on the console, nor in the kernel log "
			  "in the guest's memory\n");
	free(log);
}

void judge_incidents(const struct judge_in *in)
{
	struct res_scenario *sc = in->sc;
	char *log = NULL, *txt = NULL, *raw = NULL;
	size_t len = 0, tlen = 0, rlen = 0;
	char rel[128];
	size_t first = sc->nincidents;

	/* The console is a stream hostctl reads: keep reading it meanwhile. */
	if (in->hang && in->vm)
		vm_console_wait(in->vm, JUDGE_HANG_GRACE_MS);
	if (pm_read_tail(in->console, JUDGE_CONSOLE_MAX, &log, &len) == 0)
		collect(in, log, len, &txt, &tlen, &raw, &rlen);
	if (!in->survived && !in->hang && in->pm && in->vm &&
	    vm_panicked(in->vm) && sc->nincidents == first)
		from_memory(in, &txt, &tlen, &raw, &rlen);
	if (in->hang) {
		add_hang(in);
		sb_printf(&txt, &tlen, "%s\n",
			  sc->incidents[sc->nincidents - 1].summary);
	}
	if ((!in->survived || in->hang) && in->pm) {
		if (!txt)
			sb_printf(&txt, &tlen, "no report on the console\n");
		if (!raw)
			sb_printf(&raw, &rlen, "\n");
		if (pm_bundle(in->pm, in->vm, in->label, ++*in->bundles,
			      in->console, txt, raw, rel, sizeof(rel)) == 0)
			for (size_t i = first; i < sc->nincidents; i++)
				res_set_str(&sc->incidents[i].bundle, rel);
	}
	free(log);
	free(txt);
	free(raw);
}
