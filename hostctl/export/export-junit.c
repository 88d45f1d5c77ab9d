// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run as JUnit XML, in the dialect Jenkins and GitLab read: one
 * testsuite per area (the part of a scenario's name before '/'), one
 * testcase per scenario. fail, crash, timeout and xpass are a <failure>
 * (its type the verdict), error an <error>, skip and xfail <skipped> (as
 * pytest writes xfail); the message is the whole reason (its newlines as
 * &#10;, which an attribute keeps), the text the whole reason again and
 * the failing step. The testsuites' time is the run's wall time when
 * summary.json has it, each area's the sum of its scenarios'. A scenario that did not pass
 * carries its VM's console tail as <system-out>. Every text goes out
 * through escape.h's esc_term_xml_*(): no control byte reaches the file.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "export/export.h"

enum jkind { J_PASS, J_FAILURE, J_ERROR, J_SKIPPED };

static enum jkind jkind(enum proto_verdict v)
{
	switch (v) {
	case VERDICT_PASS:
		return J_PASS;
	case VERDICT_SKIP:
	case VERDICT_XFAIL:
		return J_SKIPPED;
	case VERDICT_ERROR:
		return J_ERROR;
	default:
		return J_FAILURE;
	}
}

struct counts {
	size_t tests, failures, errors, skipped;
	uint64_t ms;
};

static void count(struct counts *c, const struct res_scenario *sc)
{
	enum jkind k = jkind(sc->verdict);

	c->tests++;
	c->failures += k == J_FAILURE;
	c->errors += k == J_ERROR;
	c->skipped += k == J_SKIPPED;
	c->ms += sc->duration_ms;
}

/* The length of @name's area: up to its first '/', or all of it. */
static size_t area_len(const char *name)
{
	return strcspn(name, "/");
}

static bool same_area(const char *a, const char *b)
{
	return area_len(a) == area_len(b) && !strncmp(a, b, area_len(a));
}

static void counts_attrs(FILE *f, const struct counts *c)
{
	fprintf(f,
		" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%" PRIu64
		".%03" PRIu64 "\"",
		c->tests, c->failures, c->errors, c->skipped, c->ms / 1000,
		c->ms % 1000);
}

/* The first main step that ran and did not pass, or NULL. */
static const struct res_step *failing_step(const struct res_scenario *sc)
{
	for (size_t i = 0; i < sc->nsteps - sc->ncleanup; i++)
		if (sc->steps[i].ran && !proto_verdict_ok(sc->steps[i].verdict))
			return &sc->steps[i];
	return NULL;
}

/* The whole reason as the message attribute, a newline as &#10;. */
static void message_attr(FILE *f, const struct res_scenario *sc)
{
	const char *r = sc->reason ? sc->reason :
				     proto_verdict_name(sc->verdict);
	size_t n;

	fputs(" message=\"", f);
	for (;;) {
		n = strcspn(r, "\n");
		esc_term_xml_putn(f, r, n);
		if (!r[n])
			break;
		fputs("&#10;", f);
		r += n + 1;
	}
	fputc('"', f);
}

static void step_text(FILE *f, const struct res_step *st)
{
	fprintf(f, "\nfailing step %" PRIu32 " ", st->index + 1);
	esc_term_xml_printf(f, "'%s'", st->name);
	esc_term_xml_printf(f, " (%s): ", st->kind);
	fputs(proto_verdict_name(st->verdict), f);
	if (st->expected)
		esc_term_xml_printf(f, "\nexpected: %s", st->expected);
	if (st->got)
		esc_term_xml_printf(f, "\ngot: %s", st->got);
	if (st->reason)
		esc_term_xml_printf(f, "\nreason: %s", st->reason);
}

static void testcase(FILE *f, const struct res_scenario *sc, const char *tail)
{
	static const char *const tags[] = { NULL, "failure", "error",
					    "skipped" };
	enum jkind k = jkind(sc->verdict);
	const char *name = sc->name + area_len(sc->name);
	char area[PROTO_NAME_MAX];
	const struct res_step *st;

	snprintf(area, sizeof(area), "%.*s", (int)area_len(sc->name), sc->name);

	fputs("    <testcase name=\"", f);
	esc_term_xml_put(f, *name == '/' ? name + 1 : name);
	fputs("\" classname=\"", f);
	esc_term_xml_put(f, area);
	fprintf(f, "\" time=\"%" PRIu64 ".%03" PRIu64 "\"",
		sc->duration_ms / 1000, sc->duration_ms % 1000);
	if (k == J_PASS && !tail && !*sc->host) {
		fputs("/>\n", f);
		return;
	}
	fputs(">\n", f);
	/* The libvirt host it ran on (results.h), first as the schemas
	 * that have a testcase's properties want them. */
	if (*sc->host) {
		fputs("      <properties><property name=\"host\" value=\"", f);
		esc_term_xml_put(f, sc->host);
		fputs("\"/></properties>\n", f);
	}
	if (k != J_PASS) {
		fprintf(f, "      <%s", tags[k]);
		if (k != J_SKIPPED)
			fprintf(f, " type=\"%s\"",
				proto_verdict_name(sc->verdict));
		message_attr(f, sc);
		if (k == J_SKIPPED) {
			fputs("/>\n", f);
		} else {
			fputc('>', f);
			esc_term_xml_printf(
				f, "%s: ", proto_verdict_name(sc->verdict));
			esc_term_xml_put(f, sc->reason ? sc->reason : "");
			st = failing_step(sc);
			if (st)
				step_text(f, st);
			fprintf(f, "</%s>\n", tags[k]);
		}
	}
	if (tail) {
		fputs("      <system-out>", f);
		esc_term_xml_put(f, tail);
		fputs("</system-out>\n", f);
	}
	fputs("    </testcase>\n", f);
}

int export_junit(const struct export_in *in, FILE *f)
{
	const struct res_run *run = in->run;
	struct counts all = { 0 };
	char kernel[RES_KERNEL_DESC_MAX];

	for (size_t i = 0; i < run->n; i++)
		count(&all, &run->v[i]);
	if (run->duration_ms)
		all.ms = run->duration_ms;
	/* Which kernel ran, in each suite's properties (as the JUnit
	 * schema Jenkins reads has them). */
	res_kernel_describe(run, kernel, sizeof(kernel));
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", f);
	esc_term_xml_printf(f, " name=\"vlalab %s\"", run->run_id);
	counts_attrs(f, &all);
	fputs(">\n", f);
	/* Each area once, where it first appears, with all its scenarios. */
	for (size_t i = 0; i < run->n; i++) {
		struct counts c = { 0 };
		char area[PROTO_NAME_MAX];
		size_t j;

		for (j = 0; j < i; j++)
			if (same_area(run->v[j].name, run->v[i].name))
				break;
		if (j < i)
			continue;
		for (j = i; j < run->n; j++)
			if (same_area(run->v[j].name, run->v[i].name))
				count(&c, &run->v[j]);
		snprintf(area, sizeof(area), "%.*s",
			 (int)area_len(run->v[i].name), run->v[i].name);
		fputs("  <testsuite", f);
		esc_term_xml_printf(f, " name=\"%s\"", area);
		counts_attrs(f, &c);
		fputs(">\n", f);
		esc_term_xml_printf(
			f,
			"    <properties><property name=\"kernel\" value=\"%s\"/></properties>\n",
			kernel);
		for (j = i; j < run->n; j++)
			if (same_area(run->v[j].name, run->v[i].name))
				testcase(f, &run->v[j],
					 in->tails ? in->tails[j] : NULL);
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
	return ferror(f) ? -EIO : 0;
}
