// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl flakes [--last N]: each scenario's flip rate over the last N
 * stored runs (history.c's hist_flakes()).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/history.h"
#include "results/store.h"
#include "cli/options.h"
#include "cli/verbs.h"

#define FLAKES_LAST_DEFAULT 10
#define FLAKES_LAST_MAX 1000

static void flakes_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl flakes [--last N] [--results DIR]\n"
		"\n"
		"Each scenario's flip rate over the last N stored runs: how often its\n"
		"verdict differed from the one in the previous run on the same kernel\n"
		"(a run on another kernel is a change, not a flake). A strip shows\n"
		"its verdicts, oldest first: P pass, F fail, S skip, x xfail, T timeout,\n"
		"E error, C crash, X xpass, . not in that run. A hostctl repro's run\n"
		"is no run of its scenario, and a hostctl run --exec's runs no\n"
		"scenario: both are left out (and not counted in N).\n"
		"\n"
		"  --last N       the runs to read (default: %d, at most %d)\n",
		FLAKES_LAST_DEFAULT, FLAKES_LAST_MAX);
	cli_opt_usage(f, CLI_OPT_RESULTS);
	fputs("  --help         show this help\n", f);
}
/* Its options (the verb table's row, below, has them too). */
static const enum cli_opt shared[] = {
	CLI_OPT_RESULTS,
	CLI_OPT_HELP,
	CLI_OPT_END,
};

static const struct option own[] = {
	{ "last", required_argument, NULL, 'l' },
	{ 0 },
};

static void skipped(const char *err)
{
	fprintf(stderr, "hostctl flakes: left out: %s\n", err);
}

int verb_flakes(int argc, char *argv[])
{
	struct option opts[CLI_OPTS_MAX];
	const char *results = NULL;
	unsigned long last = FLAKES_LAST_DEFAULT;
	char root[PATH_MAX], **names, *end;
	struct res_run *runs;
	size_t n, nruns;
	int c, r, ret = EXIT_GREEN;

	cli_opts_table(shared, own, opts);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) >= 0) {
		switch (c) {
		case 'l':
			errno = 0;
			last = strtoul(optarg, &end, 10);
			if (*optarg < '1' || *optarg > '9' || errno || *end ||
			    last > FLAKES_LAST_MAX) {
				fprintf(stderr,
					"hostctl flakes: --last '%s': give a number of runs, 1..%d\n",
					optarg, FLAKES_LAST_MAX);
				return EXIT_SETUP;
			}
			break;
		case CLI_OPT_RESULTS:
			results = optarg;
			break;
		case CLI_OPT_HELP:
			flakes_usage(stdout);
			return EXIT_GREEN;
		default:
			flakes_usage(stderr);
			return EXIT_SETUP;
		}
	}
	r = verb_check_nargs(&verb_flakes_def, argc - optind);
	if (r)
		return r;
	r = store_list_root(results, root, sizeof(root), &names, &n);
	if (r < 0) {
		fprintf(stderr, "hostctl flakes: the results root '%s': %s\n",
			root, strerror(-r));
		return EXIT_SETUP;
	}
	if (last > n)
		last = n;
	runs = calloc(last + 1, sizeof(*runs));
	if (!runs) {
		store_list_free(names, n);
		fprintf(stderr, "hostctl flakes: out of memory\n");
		return EXIT_SETUP;
	}
	nruns = store_read_recent(root, names, n, NULL, last, runs, skipped);
	if (hist_flakes(runs, nruns, stdout) < 0) {
		fprintf(stderr, "hostctl flakes: out of memory\n");
		ret = EXIT_SETUP;
	}
	if (fflush(stdout) != 0)
		ret = EXIT_SETUP;
	for (size_t i = 0; i < nruns; i++)
		res_run_free(&runs[i]);
	free(runs);
	store_list_free(names, n);
	return ret;
}

/* Its row in the verb table (main.c). */
const struct verb verb_flakes_def = {
	.name = "flakes",
	.min_args = 0,
	.max_args = 0,
	.fn = verb_flakes,
	.usage = "[--last N] [--results DIR]",
	.summary = "each scenario's flip rate over the stored runs",
	.shared = shared,
	.own = own,
	.optstring = "h",
};
