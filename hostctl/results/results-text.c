// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run as text: the report people read and KTAP (version 1, as
 * Documentation/dev-tools/ktap.rst defines it). Names, kinds, reasons and
 * whatever else the guest or a summary.json may have written go out
 * through escape.h's esc_term_*(): no control byte of theirs reaches a
 * terminal or splits a line.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/escape.h"
#include "results/results.h"
#include "results/rundir.h"

int res_format_parse(const char *s, enum res_format *ret)
{
	if (strcmp(s, "text") == 0)
		*ret = RES_FORMAT_TEXT;
	else if (strcmp(s, "ktap") == 0)
		*ret = RES_FORMAT_KTAP;
	else if (strcmp(s, "json") == 0)
		*ret = RES_FORMAT_JSON;
	else
		return -EINVAL;
	return 0;
}

/*
 * Print @text line by line, each after @head: the first line after
 * @label, the others after @more. NULL or "" prints nothing, or, when
 * @always, one line of @label alone.
 */
static void print_lines(FILE *f, const char *head, const char *label,
			const char *more, const char *text, bool always)
{
	const char *p = text ? text : "";

	if (!*p && !always)
		return;
	do {
		size_t n = strcspn(p, "\n");

		fprintf(f, "%s%s", head, label);
		esc_term_putn(f, p, n);
		fputc('\n', f);
		label = more;
		p += n;
		if (*p == '\n')
			p++;
	} while (*p);
}

/* @text as KTAP diagnostic lines ("# " prefixed), with @indent before each. */
static void ktap_diag(FILE *f, const char *indent, const char *label,
		      const char *text)
{
	char head[16];

	snprintf(head, sizeof(head), "%s# ", indent);
	print_lines(f, head, label, "  ", text, false);
}

/* The first line of @s, for a directive (which must fit on one line). */
static int first_line_len(const char *s)
{
	return s ? (int)strcspn(s, "\n") : 0;
}

/*
 * A reason goes on diagnostic lines when no directive carries it (pass and
 * fail have none) or when it has more than one line.
 */
static bool reason_needs_diag(enum proto_verdict v, const char *reason)
{
	if (!reason)
		return false;
	return v == VERDICT_PASS || v == VERDICT_FAIL || strchr(reason, '\n');
}

/*
 * "ok N name # DIRECTIVE reason" for a verdict. pass/skip/xfail are "ok";
 * skip and xfail carry the SKIP and XFAIL directives; timeout and error
 * (crash included) carry TIMEOUT and ERROR, as KTAP defines them. xpass is
 * "not ok ... # XPASS", kselftest's word for it.
 */
static void ktap_result(FILE *f, const char *indent, size_t num,
			const char *name, enum proto_verdict v,
			const char *reason)
{
	const char *ok = proto_verdict_ok(v) ? "ok" : "not ok";
	const char *dir = NULL, *prefix = "";

	switch (v) {
	case VERDICT_SKIP:
		dir = "SKIP";
		break;
	case VERDICT_XFAIL:
		dir = "XFAIL";
		break;
	case VERDICT_TIMEOUT:
		dir = "TIMEOUT";
		break;
	case VERDICT_ERROR:
		dir = "ERROR";
		break;
	case VERDICT_CRASH:
		dir = "ERROR";
		prefix = "crash";
		break;
	case VERDICT_XPASS:
		/* kselftest's word; "not ok" makes TAP count it a failure. */
		dir = "XPASS";
		break;
	default:
		break;
	}
	fprintf(f, "%s%s %zu ", indent, ok, num);
	/* '#' starts a directive and a newline ends the line: keep neither. */
	for (const char *p = name; *p;) {
		size_t n = strcspn(p, "#\n");

		esc_term_putn(f, p, n);
		p += n;
		if (*p) {
			fputc('_', f);
			p++;
		}
	}
	if (dir) {
		fprintf(f, " # %s", dir);
		if (*prefix)
			fprintf(f, " %s%s", prefix,
				first_line_len(reason) ? ":" : "");
		if (first_line_len(reason)) {
			fputc(' ', f);
			esc_term_putn(f, reason, first_line_len(reason));
		}
	}
	fputc('\n', f);
}

/* Guest output that was cut or dropped (results.h), a line each. */
static void say_lost(const struct res_scenario *sc, const char *prefix, FILE *f)
{
	if (sc->events_cut_bytes)
		fprintf(f, "%s" RUNDIR_EVENTS ": %" PRIu64 " bytes cut\n",
			prefix, sc->events_cut_bytes);
	if (sc->kmsg_dropped)
		fprintf(f, "%skmsg: %" PRIu64 " records dropped\n", prefix,
			sc->kmsg_dropped);
	if (sc->console_cut_bytes)
		esc_term_printf(f,
				"%s" RUNDIR_CONSOLE ": %" PRIu64 " bytes cut\n",
				prefix, sc->vm, sc->console_cut_bytes);
}

/* A step's subtests, one level below it: they end before the step. */
static void ktap_subtests(FILE *f, const struct res_step *st)
{
	if (!st->nsubtests)
		return;
	fprintf(f, "        KTAP version 1\n");
	fprintf(f, "        1..%zu\n", st->nsubtests);
	for (size_t i = 0; i < st->nsubtests; i++) {
		const struct res_subtest *t = &st->subtests[i];

		if (reason_needs_diag(t->verdict, t->reason))
			ktap_diag(f, "        ", "reason: ", t->reason);
		ktap_result(f, "        ", i + 1, t->name, t->verdict,
			    t->reason);
	}
}

void res_ktap_begin(const struct res_run *run, FILE *f)
{
	fprintf(f, "KTAP version 1\n");
	esc_term_printf(f, "# vlalab run %s\n", run->run_id);
	fprintf(f, "1..%zu\n", run->n);
}

void res_ktap_scenario(const struct res_scenario *sc, size_t num, FILE *f)
{
	size_t nran = 0;

	/* Cleanup steps are not the scenario's subtests: they never change
	 * its verdict (a diagnostic says how they went). */
	for (size_t j = 0; j < sc->nsteps; j++)
		nran += sc->steps[j].ran && !sc->steps[j].cleanup;
	if (nran) {
		fprintf(f, "    KTAP version 1\n");
		fprintf(f, "    1..%zu\n", nran);
	}
	for (size_t j = 0, k = 0; j < sc->nsteps; j++) {
		const struct res_step *st = &sc->steps[j];
		char name[PROTO_NAME_MAX + PROTO_KIND_MAX + 16];

		if (!st->ran || st->cleanup)
			continue;
		if (*st->name)
			snprintf(name, sizeof(name), "%u-%s-%s", st->index + 1,
				 st->kind, st->name);
		else
			snprintf(name, sizeof(name), "%u-%s", st->index + 1,
				 st->kind);
		ktap_subtests(f, st);
		ktap_diag(f, "    ", "expected: ", st->expected);
		ktap_diag(f, "    ", "got: ", st->got);
		if (reason_needs_diag(st->verdict, st->reason))
			ktap_diag(f, "    ", "reason: ", st->reason);
		ktap_result(f, "    ", ++k, name, st->verdict, st->reason);
	}
	for (size_t j = 0; j < sc->nincidents; j++) {
		const struct res_incident *inc = &sc->incidents[j];

		ktap_diag(f, "", "incident: ", inc->summary);
		ktap_diag(f, "", "  bundle: ", inc->bundle);
	}
	for (size_t j = 0; j < sc->nleaks; j++)
		ktap_diag(f, "", "", sc->leaks[j]);
	say_lost(sc, "# ", f);
	if (sc->cleanup_failed)
		ktap_diag(f, "", "cleanup failed: ", sc->cleanup_reason);
	if (reason_needs_diag(sc->verdict, sc->reason))
		ktap_diag(f, "", "reason: ", sc->reason);
	if (*sc->host)
		ktap_diag(f, "", "host: ", sc->host);
	ktap_result(f, "", num, sc->name, sc->verdict, sc->reason);
}

void res_ktap_end(const struct res_run *run, FILE *f)
{
	esc_term_printf(f, "# accelerator %s\n",
			*run->accelerator ? run->accelerator : "none");
	if (!strcmp(run->clock, "icount"))
		fprintf(f, "# %s\n", RES_ICOUNT_NOTE);
	if (run->complete == RES_COMPLETE_NO)
		fprintf(f, "# incomplete: hostctl did not finish this run\n");
}

void res_ktap(const struct res_run *run, FILE *f)
{
	res_ktap_begin(run, f);
	for (size_t i = 0; i < run->n; i++)
		res_ktap_scenario(&run->v[i], i + 1, f);
	res_ktap_end(run, f);
}

static const char *upper_verdict(enum proto_verdict v)
{
	static const char *const names[VERDICT__COUNT] = {
		[VERDICT_PASS] = "PASS",       [VERDICT_FAIL] = "FAIL",
		[VERDICT_SKIP] = "SKIP",       [VERDICT_XFAIL] = "XFAIL",
		[VERDICT_TIMEOUT] = "TIMEOUT", [VERDICT_ERROR] = "ERROR",
		[VERDICT_CRASH] = "CRASH",     [VERDICT_XPASS] = "XPASS",
	};

	return (unsigned int)v < VERDICT__COUNT ? names[v] : "ERROR";
}

/* A step's expected, got or reason under its line. */
static void text_block(FILE *f, const char *label, const char *text)
{
	print_lines(f, "          ", label, "  ", text, false);
}

/* A note under the scenario's line, as the leak notes are. */
static void text_note(FILE *f, const char *label, const char *text)
{
	print_lines(f, "        ", label, "  ", text, true);
}

/* The state-leak audit's notes, one line each. */
static void text_leaks(const struct res_scenario *sc, FILE *f)
{
	for (size_t i = 0; i < sc->nleaks; i++)
		esc_term_printf(f, "        %s\n", sc->leaks[i]);
}

/* "4 pass, 1 skip": the verdicts counted. Returns false for none. */
static bool print_counts(FILE *f, const size_t count[VERDICT__COUNT])
{
	bool any = false;

	for (unsigned int v = 0; v < VERDICT__COUNT; v++) {
		if (!count[v])
			continue;
		fprintf(f, "%s%zu %s", any ? ", " : "", count[v],
			proto_verdict_name(v));
		any = true;
	}
	return any;
}

bool res_text_run_counts(const struct res_run *run, FILE *f)
{
	size_t count[VERDICT__COUNT] = { 0 };

	for (size_t i = 0; i < run->n; i++)
		if ((unsigned int)run->v[i].verdict < VERDICT__COUNT)
			count[run->v[i].verdict]++;
	return print_counts(f, count);
}

/*
 * A step's subtests: how many of each verdict, then each one that did not
 * pass, with its reason. Whatever the scenario's verdict: which of a
 * program's tests skipped matters when it passed too.
 */
static void text_subtests(const struct res_step *st, FILE *f)
{
	size_t count[VERDICT__COUNT] = { 0 };

	if (!st->ran || !st->nsubtests)
		return;
	for (size_t i = 0; i < st->nsubtests; i++)
		if ((unsigned int)st->subtests[i].verdict < VERDICT__COUNT)
			count[st->subtests[i].verdict]++;
	esc_term_printf(
		f, "        step %u %s%s%s%s: %zu subtest%s: ", st->index + 1,
		st->kind, *st->name ? " '" : "", st->name, *st->name ? "'" : "",
		st->nsubtests, st->nsubtests == 1 ? "" : "s");
	print_counts(f, count);
	fputc('\n', f);
	for (size_t i = 0; i < st->nsubtests; i++) {
		const struct res_subtest *t = &st->subtests[i];

		if (t->verdict == VERDICT_PASS)
			continue;
		esc_term_printf(f, "          %-5s %s%s%s\n",
				proto_verdict_name(t->verdict), t->name,
				t->reason ? ": " : "",
				t->reason ? t->reason : "");
	}
}

void res_text_scenario(const struct res_scenario *sc, FILE *f)
{
	esc_term_printf(f, "%-7s %s (%" PRIu64 ".%03" PRIu64 " s)\n",
			upper_verdict(sc->verdict), sc->name,
			sc->duration_ms / 1000, sc->duration_ms % 1000);
	for (size_t i = 0; i < sc->nincidents; i++) {
		esc_term_printf(f, "        incident: %s\n",
				sc->incidents[i].summary);
		if (sc->incidents[i].bundle)
			esc_term_printf(f, "          bundle: %s\n",
					sc->incidents[i].bundle);
	}
	text_leaks(sc, f);
	say_lost(sc, "        ", f);
	if (sc->cleanup_failed)
		text_note(f, "cleanup failed: ", sc->cleanup_reason);
	for (size_t i = 0; i < sc->nsteps; i++)
		text_subtests(&sc->steps[i], f);
	res_text_failure(sc, f);
}

void res_text_failure(const struct res_scenario *sc, FILE *f)
{
	if (proto_verdict_ok(sc->verdict) && sc->verdict != VERDICT_SKIP &&
	    sc->verdict != VERDICT_XFAIL)
		return;
	for (size_t i = 0; i < sc->nsteps; i++) {
		const struct res_step *st = &sc->steps[i];

		if (!st->ran || st->verdict == VERDICT_PASS || st->cleanup)
			continue;
		esc_term_printf(f, "        step %u %s%s%s%s: %s\n",
				st->index + 1, st->kind, *st->name ? " '" : "",
				st->name, *st->name ? "'" : "",
				proto_verdict_name(st->verdict));
		text_block(f, "expected: ", st->expected);
		text_block(f, "got:      ", st->got);
		text_block(f, "reason:   ", st->reason);
	}
	print_lines(f, "        ", "", "", sc->reason, false);
}

void res_text_totals(const struct res_run *run, FILE *f)
{
	size_t ncleanup_failed = 0;

	esc_term_printf(f, "run %s, accelerator: %s\n", run->run_id,
			*run->accelerator ? run->accelerator :
					    "none (nothing booted)");
	if (!strcmp(run->clock, "icount"))
		fprintf(f, "clock: %s\n", RES_ICOUNT_NOTE);
	fprintf(f, "%zu scenario%s: ", run->n, run->n == 1 ? "" : "s");
	if (!res_text_run_counts(run, f))
		fprintf(f, "none");
	/* Apart from the verdicts, which they never change. */
	for (size_t i = 0; i < run->n; i++)
		ncleanup_failed += run->v[i].cleanup_failed;
	if (ncleanup_failed)
		fprintf(f, "; %zu cleanup%s failed", ncleanup_failed,
			ncleanup_failed == 1 ? "" : "s");
	fprintf(f, " -> %s\n", res_run_ok(run) ? "OK" : "FAILED");
	if (run->complete == RES_COMPLETE_NO)
		fprintf(f, "incomplete: hostctl did not finish this run\n");
}

void res_text(const struct res_run *run, FILE *f)
{
	for (size_t i = 0; i < run->n; i++)
		res_text_scenario(&run->v[i], f);
	res_text_totals(run, f);
}
