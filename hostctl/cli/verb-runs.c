// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl runs: the stored runs under the results root, oldest first, one
 * line each (history.c's hist_run_line(), which marks a repro's run).
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "results/history.h"
#include "results/store.h"
#include "cli/options.h"
#include "cli/verbs.h"

static void runs_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl runs [--results DIR]\n"
		"\n"
		"List the stored runs, oldest first: run id, date, the kernel's\n"
		"cache key, its series, and the verdicts. A hostctl repro's run\n"
		"is marked \"repro to step N of M\": its verdicts are those of the\n"
		"steps it ran, not of the scenario. A hostctl run --exec's run is\n"
		"marked \"exec 'CMD'\": its one verdict, exec/command's, is its\n"
		"command's. flakes leaves both out; diff refuses both.\n"
		"\n");
	cli_opt_usage(f, CLI_OPT_RESULTS);
	fputs("  --help         show this help\n", f);
}
/* Its options (the verb table's row, below, has them too). */
static const enum cli_opt shared[] = {
	CLI_OPT_RESULTS,
	CLI_OPT_HELP,
	CLI_OPT_END,
};

int verb_runs(int argc, char *argv[])
{
	struct option opts[CLI_OPTS_MAX];
	const char *results = NULL;
	char root[PATH_MAX], **names, dir[PATH_MAX * 2], err[1024];
	size_t n;
	int c, r, ret = EXIT_GREEN;

	cli_opts_table(shared, NULL, opts);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) >= 0) {
		if (c == CLI_OPT_RESULTS) {
			results = optarg;
			continue;
		}
		if (c == CLI_OPT_HELP) {
			runs_usage(stdout);
			return EXIT_GREEN;
		}
		runs_usage(stderr);
		return EXIT_SETUP;
	}
	r = verb_check_nargs(&verb_runs_def, argc - optind);
	if (r)
		return r;
	r = store_list_root(results, root, sizeof(root), &names, &n);
	if (r < 0) {
		fprintf(stderr, "hostctl runs: the results root '%s': %s\n",
			root, strerror(-r));
		return EXIT_SETUP;
	}
	for (size_t i = 0; i < n; i++) {
		struct res_run run = { 0 };

		snprintf(dir, sizeof(dir), "%s/%s", root, names[i]);
		if (store_read_run(dir, &run, err, sizeof(err)) < 0) {
			printf("%-24s %s\n", names[i], err);
			continue;
		}
		hist_run_line(&run, stdout);
		res_run_free(&run);
	}
	printf("%zu run%s in %s\n", n, n == 1 ? "" : "s", root);
	store_list_free(names, n);
	if (fflush(stdout) != 0)
		ret = EXIT_SETUP;
	return ret;
}

/* Its row in the verb table (main.c). */
const struct verb verb_runs_def = {
	.name = "runs",
	.min_args = 0,
	.max_args = 0,
	.fn = verb_runs,
	.usage = "[--results DIR]",
	.summary = "list the stored runs",
	.shared = shared,
	.optstring = "h",
};
