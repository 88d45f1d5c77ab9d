// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl export --junit FILE --kcidb FILE [RUN]: a stored run in the
 * formats CI dashboards read (export.h), from its summary.json.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "export/export.h"
#include "results/store.h"
#include "cli/options.h"
#include "cli/verbs.h"

static void export_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl export [OPTIONS] [RUN]\n"
		"\n"
		"Write a run's results as JUnit XML or KCIDB 5.3 JSON, for CI\n"
		"dashboards. RUN is a run directory or a run id in results/\n"
		"(default: results/latest).\n"
		"\n"
		"  --junit FILE       JUnit XML: a testsuite per area, a testcase per scenario\n"
		"  --kcidb FILE       KCIDB JSON: the checkout, the build, a test per\n"
		"                     scenario and per step\n"
		"  --cache DIR        the kernel cache, for the build's config and log\n"
		"                     (default: $VLALAB_CACHE or ~/.cache/vlalab)\n"
		"  --kernel-dir DIR   where the series' patches are (default: the\n"
		"                     repository's kernel/)\n"
		"  --help             show this help\n"
		"\n"
		"Exit codes: 0 written, 2 usage or a run that cannot be read or\n"
		"a file that cannot be written.\n");
}

int verb_export(int argc, char *argv[])
{
	static const enum cli_opt shared[] = {
		CLI_OPT_JUNIT,	    CLI_OPT_KCIDB, CLI_OPT_CACHE,
		CLI_OPT_KERNEL_DIR, CLI_OPT_HELP,  CLI_OPT_END,
	};
	struct option opts[CLI_OPTS_MAX];
	const char *junit = NULL, *kcidb = NULL, *cache = NULL, *kdir = NULL;
	char dir[PATH_MAX], patches[PATH_MAX], err[1024];
	struct res_run run = { 0 };
	const char *arg;
	int c, r;

	cli_opts_table(shared, NULL, opts);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) >= 0) {
		switch (c) {
		case CLI_OPT_JUNIT:
			junit = optarg;
			break;
		case CLI_OPT_KCIDB:
			kcidb = optarg;
			break;
		case CLI_OPT_CACHE:
			cache = optarg;
			break;
		case CLI_OPT_KERNEL_DIR:
			kdir = optarg;
			break;
		case CLI_OPT_HELP:
			export_usage(stdout);
			return EXIT_GREEN;
		default:
			export_usage(stderr);
			return EXIT_SETUP;
		}
	}
	r = verb_check_nargs(&verb_export_def, argc - optind);
	if (r)
		return r;
	if (!junit && !kcidb) {
		fprintf(stderr,
			"hostctl export: nothing to write; give --junit FILE and/or --kcidb FILE\n");
		return EXIT_SETUP;
	}
	arg = optind < argc ? argv[optind] : STORE_DEFAULT_DIR "/latest";
	r = store_load(STORE_DEFAULT_DIR, arg, dir, sizeof(dir), &run, err,
		       sizeof(err));
	if (r < 0) {
		fprintf(stderr, "hostctl export: %s\n", err);
		return EXIT_SETUP;
	}
	if (kdir)
		snprintf(patches, sizeof(patches), "%s/patches", kdir);
	r = export_write(&run, dir, cache, kdir ? patches : NULL, junit, kcidb,
			 err, sizeof(err));
	res_run_free(&run);
	if (r < 0) {
		fprintf(stderr, "hostctl export: %s\n", err);
		return EXIT_SETUP;
	}
	return EXIT_GREEN;
}

/* Its row in the verb table (main.c). */
const struct verb verb_export_def = {
	.name = "export",
	.min_args = 0,
	.max_args = 1,
	.fn = verb_export,
	.usage = "--junit FILE | --kcidb FILE [RUN]",
	.summary = "write a run as JUnit XML or KCIDB JSON",
};
