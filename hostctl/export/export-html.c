// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run as one static HTML page (hostctl report --html): no script, no
 * network, no framework. The verdict filters are radio buttons and CSS
 * (":checked ~"), the charts inline SVG. Every text is escaped and
 * cleaned (escape.h); scenario names only go into class names through
 * the fixed verdict words.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "base/escape.h"
#include "export/export.h"
#include "results/history.h"

#define BAR_WIDTH 240
#define CELL 8

/* Each verdict's colour, in the protocol's order. */
static const char *const colours[VERDICT__COUNT] = {
	[VERDICT_PASS] = "#2e7d32",    [VERDICT_FAIL] = "#c62828",
	[VERDICT_SKIP] = "#9e9e9e",    [VERDICT_XFAIL] = "#6d4c41",
	[VERDICT_TIMEOUT] = "#ef6c00", [VERDICT_ERROR] = "#6a1b9a",
	[VERDICT_CRASH] = "#000000",   [VERDICT_XPASS] = "#ad1457",
};

static const char *colour(enum proto_verdict v)
{
	return v < VERDICT__COUNT ? colours[v] : "#ffffff";
}

static void head(const struct export_in *in, FILE *f)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>vlalab run ",
	      f);
	esc_term_xml_put(f, in->run->run_id);
	fputs("</title>\n<style>\n"
	      "body{font-family:sans-serif;margin:1.5em;color:#222}\n"
	      "table{border-collapse:collapse}\n"
	      "td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:middle}\n"
	      "pre{background:#f5f5f5;padding:.5em;overflow-x:auto;font-size:85%}\n"
	      ".filters label{margin-right:1em}\n"
	      ".filters input{margin-right:.3em}\n"
	      ".v{font-weight:bold}\n"
	      "tr.not-run td{color:#9e9e9e}\n",
	      f);
	for (int v = 0; v < VERDICT__COUNT; v++) {
		fprintf(f, ".v-%s .v{color:%s}\n", proto_verdict_name(v),
			colour(v));
		/* Filter "only this verdict": hide the others' rows. */
		fprintf(f,
			"#f-%s:checked ~ table tbody tr:not(.v-%s){display:none}\n",
			proto_verdict_name(v), proto_verdict_name(v));
	}
	fputs("#f-bad:checked ~ table tbody tr.ok{display:none}\n"
	      "</style>\n</head>\n<body>\n",
	      f);
}

/* The run's wall time, or (an older summary.json) its scenarios' sum. */
static void total_time(const struct res_run *run, FILE *f)
{
	uint64_t ms = run->duration_ms;

	if (!ms)
		for (size_t i = 0; i < run->n; i++)
			ms += run->v[i].duration_ms;
	fprintf(f, ", total time %" PRIu64 ".%01" PRIu64 " s%s", ms / 1000,
		ms % 1000 / 100,
		run->duration_ms ? "" : " (the scenarios' sum)");
}

/*
 * Whether @vm was named before: by a scenario before @v[@i], or by one of
 * @v[@i]'s boots before @b (@b == its nboots: its shared VM, after all of
 * its boots).
 */
static bool vm_seen(const struct res_run *run, size_t i, size_t b,
		    const char *vm)
{
	for (size_t k = 0; k <= i; k++) {
		const struct res_scenario *sc = &run->v[k];
		size_t nb = k < i ? sc->nboots : b;

		if (k < i && !strcmp(sc->vm, vm))
			return true;
		for (size_t j = 0; j < nb; j++)
			if (!strcmp(sc->boots[j].vm, vm))
				return true;
	}
	return false;
}

static void log_link(const struct export_in *in, const char *file, FILE *f)
{
	fputs(" <a href=\"", f);
	esc_term_xml_put(f, in->run_url);
	fputc('/', f);
	esc_term_xml_put(f, file);
	fputs("\">", f);
	esc_term_xml_put(f, file);
	fputs("</a>", f);
}

/* Links to the run's events and each VM's console log, once each. */
static void logs(const struct export_in *in, FILE *f)
{
	const struct res_run *run = in->run;
	char file[64];

	if (!in->run_url)
		return;
	fputs("<p>Logs:", f);
	log_link(in, "events.jsonl", f);
	for (size_t i = 0; i < run->n; i++) {
		const struct res_scenario *sc = &run->v[i];

		for (size_t b = 0; b <= sc->nboots; b++) {
			const char *vm = b < sc->nboots ? sc->boots[b].vm :
							  sc->vm;

			if (!export_vm_label_ok(vm) || vm_seen(run, i, b, vm))
				continue;
			snprintf(file, sizeof(file), "console-%s.log", vm);
			log_link(in, file, f);
		}
	}
	fputs("</p>\n", f);
}

static void summary(const struct export_in *in, FILE *f)
{
	const struct res_run *run = in->run;
	size_t counts[VERDICT__COUNT] = { 0 };
	char key[13], kernel[RES_KERNEL_DESC_MAX];

	for (size_t i = 0; i < run->n; i++)
		if (run->v[i].verdict < VERDICT__COUNT)
			counts[run->v[i].verdict]++;
	fputs("<h1>vlalab run ", f);
	esc_term_xml_put(f, run->run_id);
	fputs("</h1>\n<p>", f);
	res_kernel_describe(run, kernel, sizeof(kernel));
	esc_term_xml_printf(f, "kernel: %s", kernel);
	snprintf(key, sizeof(key), "%s", res_kernel_str(run, "key"));
	esc_term_xml_printf(f, " (key %s)", key);
	esc_term_xml_printf(f, ", accelerator %s", run->accelerator);
	fprintf(f, ", %zu scenarios:", run->n);
	for (int v = 0; v < VERDICT__COUNT; v++)
		if (counts[v])
			fprintf(f,
				" <span class=\"v-%s\"><span class=\"v\">%s</span> %zu</span>",
				proto_verdict_name(v), proto_verdict_name(v),
				counts[v]);
	total_time(run, f);
	fprintf(f, ". History: %zu stored run%s before this one.</p>\n",
		in->nhistory, in->nhistory == 1 ? "" : "s");
	logs(in, f);
}

static void filters(const struct res_run *run, FILE *f)
{
	bool seen[VERDICT__COUNT] = { false };

	for (size_t i = 0; i < run->n; i++)
		if (run->v[i].verdict < VERDICT__COUNT)
			seen[run->v[i].verdict] = true;
	fputs("<div class=\"filters\">Show:\n"
	      "<input type=\"radio\" name=\"f\" id=\"f-all\" checked><label for=\"f-all\">all</label>\n"
	      "<input type=\"radio\" name=\"f\" id=\"f-bad\"><label for=\"f-bad\">not pass, skip or xfail</label>\n",
	      f);
	for (int v = 0; v < VERDICT__COUNT; v++)
		if (seen[v])
			fprintf(f,
				"<input type=\"radio\" name=\"f\" id=\"f-%s\"><label for=\"f-%s\">%s</label>\n",
				proto_verdict_name(v), proto_verdict_name(v),
				proto_verdict_name(v));
}

/* The last runs' verdicts of @name, oldest first, then this run's. */
static void strip(const struct export_in *in, const struct res_scenario *sc,
		  FILE *f)
{
	size_t n = in->nhistory + 1;

	fprintf(f,
		"<svg width=\"%zu\" height=\"%d\" role=\"img\"><title>last %zu runs</title>",
		n * (CELL + 2), CELL + 2, n);
	for (size_t k = 0; k < n; k++) {
		const struct res_scenario *h =
			k < in->nhistory ?
				hist_find(&in->history[k], sc->name) :
				sc;

		if (h)
			fprintf(f,
				"<rect x=\"%zu\" y=\"1\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%s</title></rect>",
				k * (CELL + 2), CELL, CELL, colour(h->verdict),
				proto_verdict_name(h->verdict));
		else
			fprintf(f,
				"<rect x=\"%zu\" y=\"1\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#ccc\"/>",
				k * (CELL + 2), CELL, CELL);
	}
	fputs("</svg>", f);
}

static void table(const struct export_in *in, FILE *f)
{
	const struct res_run *run = in->run;
	uint64_t max = 1;

	for (size_t i = 0; i < run->n; i++)
		if (run->v[i].duration_ms > max)
			max = run->v[i].duration_ms;
	fputs("<table id=\"verdicts\">\n<thead><tr><th>scenario</th><th>verdict</th>"
	      "<th>duration</th><th></th><th>last runs</th><th>flips</th></tr></thead>\n<tbody>\n",
	      f);
	for (size_t i = 0; i < run->n; i++) {
		const struct res_scenario *sc = &run->v[i];
		const char *v = proto_verdict_name(sc->verdict);
		size_t flips = 0, pairs = 0;

		fprintf(f, "<tr class=\"v-%s%s\"><td>", v,
			proto_verdict_ok(sc->verdict) ? " ok" : "");
		if (!proto_verdict_ok(sc->verdict))
			fprintf(f, "<a href=\"#s%zu\">", i);
		esc_term_xml_put(f, sc->name);
		if (!proto_verdict_ok(sc->verdict))
			fputs("</a>", f);
		/* The libvirt host it ran on, when the run says. */
		if (*sc->host) {
			fputs(" <small class=\"host\">on ", f);
			esc_term_xml_put(f, sc->host);
			fputs("</small>", f);
		}
		fprintf(f,
			"</td><td class=\"v\">%s</td><td>%" PRIu64 ".%01" PRIu64
			" s</td><td><svg width=\"%d\" height=\"10\"><rect width=\"%" PRIu64
			"\" height=\"10\" fill=\"%s\"/></svg></td><td>",
			v, sc->duration_ms / 1000, sc->duration_ms % 1000 / 100,
			BAR_WIDTH, sc->duration_ms * BAR_WIDTH / max,
			colour(sc->verdict));
		strip(in, sc, f);
		/* This run counts too: the strip ends with it. */
		{
			struct res_run both[EXPORT_HISTORY_MAX + 1];
			size_t nb = 0;

			for (size_t k = 0;
			     k < in->nhistory && nb < EXPORT_HISTORY_MAX; k++)
				both[nb++] = in->history[k];
			both[nb++] = *run;
			hist_flips(both, nb, sc->name, &flips, &pairs);
		}
		if (pairs)
			fprintf(f, "</td><td>%zu of %zu</td></tr>\n", flips,
				pairs);
		else
			fputs("</td><td>-</td></tr>\n", f);
	}
	fputs("</tbody>\n</table>\n</div>\n", f);
}

/* A step that never began, greyed: its number, kind and name if known. */
static void not_run_row(FILE *f, uint32_t index, bool cleanup, const char *kind,
			const char *name)
{
	fprintf(f, "<tr class=\"v-skip not-run\"><td>%s%" PRIu32 "</td><td>",
		cleanup ? "cleanup " : "", index + 1);
	esc_term_xml_put(f, kind);
	fputs("</td><td>", f);
	esc_term_xml_put(f, name);
	fputs("</td><td class=\"v\">not run</td><td></td><td></td><td></td></tr>\n",
	      f);
}

static void steps(const struct res_scenario *sc, FILE *f)
{
	uint32_t next = 0;

	if (!sc->nsteps)
		return;
	fputs("<table>\n<tr><th>step</th><th>kind</th><th>name</th><th>verdict</th>"
	      "<th>expected</th><th>got</th><th>reason</th></tr>\n",
	      f);
	for (size_t k = 0; k < sc->nsteps; k++) {
		const struct res_step *st = &sc->steps[k];

		/*
		 * The steps that never began are among the steps, not ran,
		 * when summary.json lists them ("steps_not_run"); an older
		 * one leaves them out, and those before a recorded one (the
		 * cleanup list's first is numbered after every main step)
		 * show as a gap in the indices, with no kind or name.
		 */
		for (uint32_t j = next; j < st->index && j < PROTO_STEPS_MAX;
		     j++)
			not_run_row(f, j, false, "", "");
		if (st->index >= next)
			next = st->index + 1;
		if (!st->ran) {
			not_run_row(f, st->index, st->cleanup, st->kind,
				    st->name);
			continue;
		}
		fprintf(f, "<tr class=\"v-%s\"><td>%s%" PRIu32 "</td><td>",
			proto_verdict_name(st->verdict),
			st->cleanup ? "cleanup " : "", st->index + 1);
		esc_term_xml_put(f, st->kind);
		fputs("</td><td>", f);
		esc_term_xml_put(f, st->name);
		fprintf(f, "</td><td class=\"v\">%s</td><td>",
			proto_verdict_name(st->verdict));
		esc_term_xml_put(f, st->expected ? st->expected : "");
		fputs("</td><td>", f);
		esc_term_xml_put(f, st->got ? st->got : "");
		fputs("</td><td>", f);
		esc_term_xml_put(f, st->reason ? st->reason : "");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void failures(const struct export_in *in, FILE *f)
{
	const struct res_run *run = in->run;
	char file[64];

	for (size_t i = 0; i < run->n; i++) {
		const struct res_scenario *sc = &run->v[i];

		if (proto_verdict_ok(sc->verdict))
			continue;
		fprintf(f, "<h2 id=\"s%zu\" class=\"v-%s\">", i,
			proto_verdict_name(sc->verdict));
		esc_term_xml_put(f, sc->name);
		fprintf(f, ": <span class=\"v\">%s</span></h2>\n",
			proto_verdict_name(sc->verdict));
		fputs("<pre>", f);
		esc_term_xml_put(f, sc->reason ? sc->reason : "");
		fputs("</pre>\n", f);
		steps(sc, f);
		for (size_t k = 0; k < sc->nincidents; k++) {
			fputs("<p>incident: ", f);
			esc_term_xml_put(f, sc->incidents[k].summary);
			esc_term_xml_printf(f, " (guilty %s)",
					    sc->incidents[k].guilty);
			if (sc->incidents[k].bundle)
				esc_term_xml_printf(f, ", bundle %s",
						    sc->incidents[k].bundle);
			fputs("</p>\n", f);
		}
		if (in->run_url && export_scenario_vm(sc)) {
			snprintf(file, sizeof(file), "console-%s.log",
				 export_scenario_vm(sc));
			fputs("<p>Its VM's console log:", f);
			log_link(in, file, f);
			fputs("</p>\n", f);
		}
		if (in->tails && in->tails[i]) {
			fputs("<p>console, last lines:</p>\n<pre>", f);
			esc_term_xml_put(f, in->tails[i]);
			fputs("</pre>\n", f);
		}
	}
}

int export_html(const struct export_in *in, FILE *f)
{
	head(in, f);
	summary(in, f);
	filters(in->run, f);
	table(in, f);
	failures(in, f);
	fputs("</body>\n</html>\n", f);
	return ferror(f) ? -EIO : 0;
}
