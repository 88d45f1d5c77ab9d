// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl: the vlalab host controller. Dispatches to the verb table below;
 * each verb parses its own options.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "verbs.h"

const struct verb verbs[] = {
	{ "run", 1, VERB_ANY, verb_run, "[OPTIONS] all | NAME | GLOB...",
	  "boot the kernel and run scenarios" },
	{ "list", 0, 0, verb_list, "[--scenarios DIR]",
	  "validate and list the scenarios" },
	{ "build", 0, 0, verb_build, "[OPTIONS]",
	  "build the kernel and the guest image" },
	{ "bench", 0, 0, verb_bench, "[OPTIONS]",
	  "measure boot, step and teardown times" },
	{ "help", 0, 1, verb_help, "[VERB]", "show help" },
	{ "report", 0, 1, verb_report, "[RUN]",
	  "print a run's crashes and hangs with their bundles" },
};

const size_t n_verbs = sizeof(verbs) / sizeof(verbs[0]);

int verb_check_nargs(const char *name, int n)
{
	for (size_t i = 0; i < n_verbs; i++) {
		const struct verb *v = &verbs[i];

		if (strcmp(v->name, name) != 0)
			continue;
		if (n >= v->min_args &&
		    (v->max_args == VERB_ANY || n <= v->max_args))
			return 0;
		fprintf(stderr,
			"hostctl %s: %s arguments; usage: hostctl %s %s\n",
			v->name, n < v->min_args ? "too few" : "too many",
			v->name, v->usage);
		return EXIT_SETUP;
	}
	return 0;
}

int main(int argc, char *argv[])
{
	const struct verb *v = NULL;

	if (argc < 2) {
		verb_help(1, (char *[]){ "help", NULL });
		return EXIT_SETUP;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return verb_help(1, (char *[]){ "help", NULL });
	for (size_t i = 0; i < n_verbs; i++)
		if (strcmp(argv[1], verbs[i].name) == 0)
			v = &verbs[i];
	if (!v) {
		fprintf(stderr,
			"hostctl: unknown verb '%s'; try 'hostctl help'\n",
			argv[1]);
		return EXIT_SETUP;
	}
	argc--;
	argv++;
	/* Each verb runs getopt from the start of its own argv. */
	optind = 0;
	return v->fn(argc, argv);
}
