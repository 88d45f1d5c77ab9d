// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl runs: the stored runs under results/, oldest first, one line
 * each (history.c's hist_run_line()).
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
		"cache key, its series, and the verdicts.\n"
		"\n");
	cli_opt_usage(f, CLI_OPT_RESULTS);
	fputs("  --help         show this help\n", f);
}

int verb_runs(int argc, char *argv[])
{
	static const enum cli_opt shared[] = {
		CLI_OPT_RESULTS,
		CLI_OPT_HELP,
		CLI_OPT_END,
	};
	struct option opts[CLI_OPTS_MAX];
	const char *results = STORE_DEFAULT_DIR;
	char **names, dir[PATH_MAX], err[1024];
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
	r = store_list(results, &names, &n);
	if (r < 0) {
		fprintf(stderr, "hostctl runs: '%s': %s\n", results,
			strerror(-r));
		return EXIT_SETUP;
	}
	for (size_t i = 0; i < n; i++) {
		struct res_run run = { 0 };

		snprintf(dir, sizeof(dir), "%s/%s", results, names[i]);
		if (store_read_run(dir, &run, err, sizeof(err)) < 0) {
			printf("%-24s %s\n", names[i], err);
			continue;
		}
		hist_run_line(&run, stdout);
		res_run_free(&run);
	}
	printf("%zu run%s in %s\n", n, n == 1 ? "" : "s", results);
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
};
