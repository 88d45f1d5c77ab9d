// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl diff RUN_A RUN_B: what changed between two stored runs
 * (history.c's hist_diff()); exit 1 when anything regressed.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "results/history.h"
#include "results/store.h"
#include "cli/options.h"
#include "cli/verbs.h"

static void diff_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl diff [OPTIONS] RUN_A RUN_B\n"
		"\n"
		"What changed from run A to run B: scenarios whose verdict changed,\n"
		"new and removed scenarios, durations that changed beyond a threshold.\n"
		"A RUN is " STORE_RUN_HELP ". A hostctl repro's run is no\n"
		"run of its scenario, and a hostctl run --exec's runs no scenario:\n"
		"diff refuses both.\n"
		"\n"
		"  --results DIR     where run ids are looked up (default:\n"
		"                    $" STORE_ENV " or the cache's results/)\n"
		"  --threshold PCT   report a duration change beyond PCT percent...\n"
		"                    (default: %d)\n"
		"  --min-ms MS       ...and beyond MS milliseconds (default: %d)\n"
		"  --help            show this help\n"
		"\n"
		"Exit codes: 0 nothing regressed, 1 a scenario regressed (pass, skip\n"
		"or xfail in A and anything else in B, or new in B and not pass, skip\n"
		"or xfail), 2 usage or a run that cannot be read.\n",
		HIST_DIFF_PCT_DEFAULT, HIST_DIFF_MIN_MS_DEFAULT);
}

static int parse_num(const char *s, uint64_t max, uint64_t *ret)
{
	unsigned long long n;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || *end || n > max)
		return -EINVAL;
	*ret = n;
	return 0;
}

/* The run @arg names, or -errno after saying why. */
static int load(const char *results, const char *arg, struct res_run *run)
{
	char dir[PATH_MAX], err[PATH_MAX * 2 + 64];
	int r;

	r = store_load(results, arg, dir, sizeof(dir), run, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "hostctl diff: %s\n", err);
	} else if (run->repro_until_step) {
		fprintf(stderr,
			"hostctl diff: '%s' is a repro's run (steps 1-%u of %u of %s), not a run to compare\n",
			dir, run->repro_until_step, run->repro_steps,
			run->n ? run->v[0].name : "?");
		r = -EINVAL;
	} else if (run->exec[0]) {
		esc_term_printf(
			stderr,
			"hostctl diff: '%s' is a run of hostctl run --exec '%.60s', not a run of scenarios to compare\n",
			dir, run->exec);
		r = -EINVAL;
	}
	return r;
}
/* Its options (the verb table's row, below, has them too). */
static const enum cli_opt shared[] = {
	CLI_OPT_RESULTS,
	CLI_OPT_HELP,
	CLI_OPT_END,
};

static const struct option own[] = {
	{ "threshold", required_argument, NULL, 't' },
	{ "min-ms", required_argument, NULL, 'm' },
	{ 0 },
};

int verb_diff(int argc, char *argv[])
{
	struct option opts[CLI_OPTS_MAX];
	struct hist_diff_opts o = { .pct = HIST_DIFF_PCT_DEFAULT,
				    .min_ms = HIST_DIFF_MIN_MS_DEFAULT };
	const char *results = NULL;
	char root[PATH_MAX];
	struct res_run a = { 0 }, b = { 0 };
	int c, r, ret = EXIT_SETUP;
	uint64_t v;

	cli_opts_table(shared, own, opts);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) >= 0) {
		switch (c) {
		case CLI_OPT_RESULTS:
			results = optarg;
			break;
		case 't':
			if (parse_num(optarg, 100000, &v) < 0) {
				fprintf(stderr,
					"hostctl diff: --threshold '%s': give a percentage, 0..100000\n",
					optarg);
				return EXIT_SETUP;
			}
			o.pct = (unsigned int)v;
			break;
		case 'm':
			if (parse_num(optarg, UINT64_C(1) << 40, &o.min_ms) <
			    0) {
				fprintf(stderr,
					"hostctl diff: --min-ms '%s': give milliseconds\n",
					optarg);
				return EXIT_SETUP;
			}
			break;
		case CLI_OPT_HELP:
			diff_usage(stdout);
			return EXIT_GREEN;
		default:
			diff_usage(stderr);
			return EXIT_SETUP;
		}
	}
	r = verb_check_nargs(&verb_diff_def, argc - optind);
	if (r)
		return r;
	r = store_root(results, root, sizeof(root));
	if (r < 0) {
		fprintf(stderr, "hostctl diff: the results root: %s\n",
			strerror(-r));
		return EXIT_SETUP;
	}
	if (load(root, argv[optind], &a) == 0 &&
	    load(root, argv[optind + 1], &b) == 0) {
		ret = hist_diff(&a, &b, &o, stdout) ? EXIT_RED : EXIT_GREEN;
		if (fflush(stdout) != 0)
			ret = EXIT_SETUP;
	}
	res_run_free(&a);
	res_run_free(&b);
	return ret;
}

/* Its row in the verb table (main.c). */
const struct verb verb_diff_def = {
	.name = "diff",
	.min_args = 2,
	.max_args = 2,
	.fn = verb_diff,
	.usage = "[OPTIONS] RUN_A RUN_B",
	.summary = "what changed between two runs; 1 if anything regressed",
	.shared = shared,
	.own = own,
	.optstring = "h",
};
