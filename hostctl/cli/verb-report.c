// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl report [RUN]: what went wrong in a finished run, read back from
 * its summary.json: each scenario that did not pass with why, and per
 * scenario with incidents its verdict, each incident's attribution
 * ("area/x step 3 (name) -> TITLE"), the guilty function, and the files of
 * its post-mortem bundle. For a `hostctl run --repeat` run, each round's.
 * What the guest wrote (titles, functions, names) goes out through
 * escape.h's esc_term_printf(): no control byte of its reaches the terminal.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/escape.h"
#include "crash/postmortem.h"
#include "results/repeat.h"
#include "export/export.h"
#include "results/results.h"
#include "results/store.h"
#include "cli/options.h"
#include "cli/verbs.h"
#include "results/rundir.h"

static const char *const bundle_files[] = {
	RUNDIR_BUNDLE_CONSOLE,	 RUNDIR_BUNDLE_REPORTS, RUNDIR_BUNDLE_EVENTS,
	RUNDIR_BUNDLE_STACK,	 RUNDIR_BUNDLE_KDUMP,	RUNDIR_BUNDLE_ELF,
	RUNDIR_BUNDLE_DUMP_NOTE,
};

static void report_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl report [--html DIR] [--results DIR] [RUN]\n"
		"\n"
		"Print the scenarios of a run that did not pass, with why, and its\n"
		"crashes, hangs and other kernel incidents, with the step each one\n"
		"is attributed to and its post-mortem bundle.\n"
		"RUN is " STORE_RUN_HELP " (default: latest).\n"
		"A run with --repeat is reported round by round.\n"
		"\n"
		"  --html DIR     write DIR/RUN-ID.html instead: one static page with\n"
		"                 the verdict table, durations, the last %d stored\n"
		"                 runs' verdicts and flip rates (repro runs left\n"
		"                 out), and each failing scenario\n",
		EXPORT_HISTORY_MAX);
	cli_opt_usage(f, CLI_OPT_RESULTS);
	fputs("  --help         show this help\n", f);
}

static void print_bundle(const char *run, const char *bundle)
{
	char path[PATH_MAX * 2];

	esc_term_printf(stdout, "      bundle %s/%s:", run, bundle);
	for (size_t i = 0; i < sizeof(bundle_files) / sizeof(bundle_files[0]);
	     i++) {
		snprintf(path, sizeof(path), "%s/%s/%s", run, bundle,
			 bundle_files[i]);
		if (access(path, F_OK) == 0)
			printf(" %s", bundle_files[i]);
	}
	putchar('\n');
}

/*
 * Each scenario that did not pass (with why, as the text results say
 * it) or has incidents (each with its bundle), in the run's order.
 */
static void print_run(const struct res_run *run, const char *dir)
{
	size_t total = 0, scns = 0, bad = 0;

	for (size_t i = 0; i < run->n; i++) {
		total += run->v[i].nincidents;
		scns += run->v[i].nincidents > 0;
		bad += !proto_verdict_ok(run->v[i].verdict);
	}
	esc_term_printf(
		stdout,
		"run %s (%s): %zu of %zu scenario%s did not pass; %zu incident%s in %zu scenario%s\n",
		run->run_id, dir, bad, run->n, run->n == 1 ? "" : "s", total,
		total == 1 ? "" : "s", scns, scns == 1 ? "" : "s");
	if (run->repro_until_step)
		printf("a repro: steps 1-%u of %u, then a shell; no verdict of the scenario\n",
		       run->repro_until_step, run->repro_steps);
	for (size_t i = 0; i < run->n; i++) {
		const struct res_scenario *sc = &run->v[i];

		if (!sc->nincidents && proto_verdict_ok(sc->verdict))
			continue;
		esc_term_printf(stdout, "%s: %s\n", sc->name,
				proto_verdict_name(sc->verdict));
		if (!proto_verdict_ok(sc->verdict))
			res_text_failure(sc, stdout);
		for (size_t j = 0; j < sc->nincidents; j++) {
			const struct res_incident *inc = &sc->incidents[j];

			esc_term_printf(stdout, "  %-12s %s\n", inc->kind,
					inc->summary);
			esc_term_printf(
				stdout, "      guilty '%s'%s%s", inc->guilty,
				inc->fatal ? ", fatal" : "",
				inc->corrupted ? ", report cut off" : "");
			if (inc->ts >= 0)
				printf(", kernel time %.6f s", inc->ts);
			putchar('\n');
			if (inc->bundle &&
			    (j == 0 || !sc->incidents[j - 1].bundle ||
			     strcmp(sc->incidents[j - 1].bundle, inc->bundle) !=
				     0))
				print_bundle(dir, inc->bundle);
		}
	}
}

/*
 * The rounds of a `hostctl run --repeat` run, whose summary.json holds
 * the "repeat" table rather than scenarios: 0 for any other summary.
 */
static unsigned int repeat_rounds(const char *text)
{
	struct json_object *root = json_tokener_parse(text), *rep, *n;
	unsigned int rounds = 0;

	if (root && json_object_object_get_ex(root, "repeat", &rep) &&
	    json_object_object_get_ex(rep, "rounds", &n) &&
	    json_object_is_type(n, json_type_int) &&
	    json_object_get_int64(n) > 0 &&
	    json_object_get_int64(n) <= REPEAT_ROUNDS_MAX)
		rounds = (unsigned int)json_object_get_int64(n);
	json_object_put(root);
	return rounds;
}

/* Report the run in @dir; a repeated run's rounds one after another. */
static int report_dir(const char *dir, bool top)
{
	char path[PATH_MAX + 32], err[512];
	struct res_run run = { 0 };
	unsigned int rounds;
	size_t len;
	char *text;
	int r;

	snprintf(path, sizeof(path), "%s/" RUNDIR_SUMMARY, dir);
	r = pm_read_tail(path, 64 << 20, &text, &len);
	if (r < 0) {
		fprintf(stderr, "hostctl report: reading '%s': %s\n", path,
			strerror(-r));
		return EXIT_SETUP;
	}
	rounds = top ? repeat_rounds(text) : 0;
	if (rounds) {
		free(text);
		printf("a run of %u round%s (hostctl run --repeat); each round:\n",
		       rounds, rounds == 1 ? "" : "s");
		for (unsigned int k = 1; k <= rounds && r == 0; k++) {
			snprintf(path, sizeof(path), "%s/" RUNDIR_ROUND, dir,
				 k);
			r = report_dir(path, false);
		}
		return r;
	}
	r = res_run_from_json(text, &run, err, sizeof(err));
	free(text);
	if (r < 0) {
		fprintf(stderr, "hostctl report: '%s': %s\n", path,
			r == -ENOMEM ? "out of memory" : err);
		return EXIT_SETUP;
	}
	print_run(&run, dir);
	res_run_free(&run);
	return EXIT_GREEN;
}

static void history_skipped(const char *err)
{
	fprintf(stderr, "hostctl report: history: left out: %s\n", err);
}

/*
 * The stored runs under @root before @run (by run id, which starts with
 * the date), at most EXPORT_HISTORY_MAX, oldest first, into @hist; not
 * repro runs. Runs that cannot be read are left out, said on stderr.
 */
static size_t load_history(const char *root, const struct res_run *run,
			   struct res_run *hist)
{
	char **names;
	size_t n, nh;

	if (store_list(root, &names, &n) < 0)
		return 0;
	nh = store_read_recent(root, names, n, run->run_id, EXPORT_HISTORY_MAX,
			       hist, history_skipped);
	store_list_free(names, n);
	return nh;
}

/* --html DIR: the page of the run in @dir, with the history of @root. */
static int report_html(const char *root, const char *dir, const char *html_dir)
{
	static struct res_run hist[EXPORT_HISTORY_MAX];
	char page[PATH_MAX + 80], err[1024];
	struct res_run run = { 0 };
	size_t nh = 0;
	int r;

	r = store_read_run(dir, &run, err, sizeof(err));
	if (r == 0) {
		nh = load_history(root, &run, hist);
		r = export_write_html(&run, dir, hist, nh, html_dir, page,
				      sizeof(page), err, sizeof(err));
	}
	if (r < 0)
		fprintf(stderr, "hostctl report: %s\n", err);
	else
		printf("%s\n", page);
	for (size_t i = 0; i < nh; i++)
		res_run_free(&hist[i]);
	res_run_free(&run);
	return r < 0 ? EXIT_SETUP : EXIT_GREEN;
}
/* Its options (the verb table's row, below, has them too). */
static const enum cli_opt shared[] = {
	CLI_OPT_RESULTS,
	CLI_OPT_HELP,
	CLI_OPT_END,
};

static const struct option own[] = {
	{ "html", required_argument, NULL, 'H' },
	{ 0 },
};

int verb_report(int argc, char *argv[])
{
	struct option opts[CLI_OPTS_MAX];
	const char *html = NULL, *results = NULL, *arg;
	char root[PATH_MAX], dir[PATH_MAX], err[PATH_MAX * 2 + 64];
	int c, r;

	cli_opts_table(shared, own, opts);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) >= 0) {
		if (c == 'H' || c == CLI_OPT_RESULTS) {
			*(c == 'H' ? &html : &results) = optarg;
			continue;
		}
		if (c == CLI_OPT_HELP) {
			report_usage(stdout);
			return EXIT_GREEN;
		}
		report_usage(stderr);
		return EXIT_SETUP;
	}
	r = verb_check_nargs(&verb_report_def, argc - optind);
	if (r)
		return r;
	r = store_root(results, root, sizeof(root));
	if (r < 0) {
		fprintf(stderr, "hostctl report: the results root: %s\n",
			strerror(-r));
		return EXIT_SETUP;
	}
	arg = optind < argc ? argv[optind] : RUNDIR_LATEST;
	if (store_resolve(root, arg, dir, sizeof(dir)) < 0) {
		store_not_found(root, arg, err, sizeof(err));
		fprintf(stderr, "hostctl report: %s\n", err);
		return EXIT_SETUP;
	}
	if (html)
		return report_html(root, dir, html);
	return report_dir(dir, true);
}

/* Its row in the verb table (main.c). */
const struct verb verb_report_def = {
	.name = "report",
	.min_args = 0,
	.max_args = 1,
	.fn = verb_report,
	.usage = "[--html DIR] [RUN]",
	.summary = "a run's failures, crashes and hangs, or its HTML page",
	.shared = shared,
	.own = own,
	.optstring = "h",
};
