// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl list: validate every scenario file and print each scenario with
 * its seed patch and description. A file that does not validate makes the
 * verb print every error and exit 2, as hostctl run would refuse to boot.
 * With --bites, print the scenarios' declared bites instead, one line per
 * scenario and patch, for scripts (hostctl/tests/integration/bites.sh).
 * GLOBs select as hostctl run's do (scn_select(), with its suggestions);
 * the list drops the others by blanking their names.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario/bites.h"
#include "kbuild.h"
#include "scenario/scenario.h"
#include "cli/options.h"
#include "cli/verbs.h"

#ifndef VLALAB_SRCDIR
#error "VLALAB_SRCDIR (the repository root) must be defined by the build"
#endif

static void list_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl list [--scenarios DIR] [--bites PATCH|all [--line LINE]] [GLOB...]\n"
		"\n"
		"Validate the scenario files and list each scenario with its seed\n"
		"patch and description (a header line on a TTY); with GLOBs\n"
		"(names, 'ftrace/*'), only the scenarios they select.\n"
		"\n"
		"  --scenarios DIR  the scenario tree (default: %s/scenarios)\n"
		"  --bites PATCH    list the scenarios that declare bites for PATCH\n"
		"                   (a series file name or its number; 'all': every\n"
		"                   patch), one line each: the patch's file name, the\n"
		"                   scenario and the step that must fail without it\n"
		"  --line LINE      with --bites: the bites on this kernel line\n"
		"                   (6.1 or 6.12; default 6.1), PATCH one of its\n"
		"                   series\n"
		"  --help           show this help\n",
		VLALAB_SRCDIR);
}
/* Its options (the verb table's row, below, has them too). */
static const enum cli_opt shared[] = {
	CLI_OPT_SCENARIOS,
	CLI_OPT_LINE,
	CLI_OPT_HELP,
	CLI_OPT_END,
};

static const struct option own[] = {
	{ "bites", required_argument, NULL, 'b' },
	{ 0 },
};

int verb_list(int argc, char *argv[])
{
	struct option opts[CLI_OPTS_MAX];
	const char *dir = VLALAB_SRCDIR "/scenarios";
	const char *bites = NULL, *line = NULL;
	char *patch = NULL;
	struct scn_errors errs = { 0 };
	struct scn_set set = { 0 };
	size_t wname = 4, wseed = 4, *sel = NULL, nsel = 0;
	int c, r;

	cli_opts_table(shared, own, opts);
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case CLI_OPT_SCENARIOS:
			dir = optarg;
			break;
		case 'b':
			bites = optarg;
			break;
		case CLI_OPT_LINE:
			line = optarg;
			break;
		case CLI_OPT_HELP:
			list_usage(stdout);
			return EXIT_GREEN;
		default:
			list_usage(stderr);
			return EXIT_SETUP;
		}
	}

	if (line) {
		char err[256];

		if (!bites) {
			fprintf(stderr,
				"hostctl list: --line goes with --bites\n");
			return EXIT_SETUP;
		}
		if (kbuild_line_check(line, err, sizeof(err)) < 0) {
			fprintf(stderr, "hostctl list: --line: %s\n", err);
			return EXIT_SETUP;
		}
	}
	if (bites && strcmp(bites, "all") != 0) {
		char err[1024];

		r = kbuild_series_resolve(VLALAB_SRCDIR "/kernel", line, bites,
					  &patch, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "hostctl list: --bites: %s\n", err);
			return EXIT_SETUP;
		}
	}

	r = scn_load_dir(dir, &set, &errs);
	if (r == 0)
		r = bites_resolve(&set, VLALAB_SRCDIR "/kernel", &errs);
	for (size_t i = 0; i < errs.n; i++)
		fprintf(stderr, "%s\n", errs.msgs[i]);
	for (size_t i = 0; i < errs.nwarns; i++)
		fprintf(stderr, "warning: %s\n", errs.warns[i]);
	if (r < 0) {
		if (r == -EINVAL)
			fprintf(stderr,
				"hostctl list: %zu error%s in the scenarios in '%s'\n",
				errs.n, errs.n == 1 ? "" : "s", dir);
		else
			fprintf(stderr,
				"hostctl list: cannot load the scenarios in '%s': %s\n",
				dir, strerror(-r));
		scn_set_free(&set);
		scn_errors_free(&errs);
		free(patch);
		return EXIT_SETUP;
	}

	/* The scenarios the globs select, in set order; all without. */
	if (optind < argc) {
		char err[1024];

		r = scn_select(&set, argv + optind, (size_t)(argc - optind),
			       &sel, &nsel, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "hostctl list: %s\n",
				r == -ENOMEM ? strerror(ENOMEM) : err);
			scn_set_free(&set);
			scn_errors_free(&errs);
			free(patch);
			return EXIT_SETUP;
		}
		for (size_t i = 0, k = 0; i < set.n; i++) {
			if (k < nsel && sel[k] == i) {
				k++;
				continue;
			}
			set.v[i].nbites = 0;
			set.v[i].name[0] = '\0';
		}
		free(sel);
	}

	if (bites) {
		for (size_t i = 0; i < set.n; i++)
			for (size_t j = 0; j < set.v[i].nbites; j++) {
				const struct scn_bite *b = &set.v[i].bites[j];

				if ((patch && strcmp(patch, b->patch) != 0) ||
				    !bites_on_line(b,
						   line ? line :
							  KBUILD_DEFAULT_LINE))
					continue;
				printf("%s %s %zu\n", b->patch, set.v[i].name,
				       b->step);
			}
		scn_set_free(&set);
		scn_errors_free(&errs);
		free(patch);
		return EXIT_GREEN;
	}

	for (size_t i = 0; i < set.n; i++) {
		if (!set.v[i].name[0])
			continue;
		if (strlen(set.v[i].name) > wname)
			wname = strlen(set.v[i].name);
		if (strlen(set.v[i].seed) > wseed)
			wseed = strlen(set.v[i].seed);
	}
	if (isatty(STDOUT_FILENO))
		printf("%-*s  %-*s  %s\n", (int)wname, "NAME", (int)wseed,
		       "SEED", "DESCRIPTION");
	for (size_t i = 0; i < set.n; i++)
		if (set.v[i].name[0])
			printf("%-*s  %-*s  %s\n", (int)wname, set.v[i].name,
			       (int)wseed, set.v[i].seed, set.v[i].description);
	scn_set_free(&set);
	scn_errors_free(&errs);
	return EXIT_GREEN;
}

/* Its row in the verb table (main.c). */
const struct verb verb_list_def = {
	.name = "list",
	.min_args = 0,
	.max_args = VERB_ANY,
	.fn = verb_list,
	.usage =
		"[--scenarios DIR] [--bites PATCH|all [--line LINE]] [GLOB...]",
	.summary = "validate and list the scenarios",
	.shared = shared,
	.own = own,
	.optstring = "h",
};
