// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl: the vlalab host controller. Dispatches to the verb table below;
 * each verb parses its own options. help is here too, since it is the
 * table's own listing: hostctl help [VERB] prints the table, or runs one
 * verb's --help.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/verbs.h"

static int verb_help(int argc, char *argv[]);

static const struct verb verb_help_def = {
	.name = "help",
	.min_args = 0,
	.max_args = 1,
	.fn = verb_help,
	.usage = "[VERB]",
	.summary = "show help",
};

static const struct verb *const verbs[] = {
	&verb_run_def,	 &verb_list_def,    &verb_build_def,   &verb_bench_def,
	&verb_help_def,	 &verb_report_def,  &verb_export_def,  &verb_runs_def,
	&verb_diff_def,	 &verb_flakes_def,  &verb_gc_def,      &verb_exec_def,
	&verb_pull_def,	 &verb_push_def,    &verb_shell_def,   &verb_ls_def,
	&verb_repro_def, &verb_compare_def, &verb_console_def,
};

#define N_VERBS (sizeof(verbs) / sizeof(verbs[0]))

static int verb_help(int argc, char *argv[])
{
	if (argc > 1) {
		for (size_t i = 0; i < N_VERBS; i++) {
			if (strcmp(argv[1], verbs[i]->name) == 0 &&
			    verbs[i]->fn != verb_help) {
				char *args[] = { argv[1], "--help", NULL };

				return verbs[i]->fn(2, args);
			}
		}
		if (strcmp(argv[1], "help") != 0) {
			fprintf(stderr, "hostctl help: unknown verb '%s'\n",
				argv[1]);
			return EXIT_SETUP;
		}
	}
	printf("Usage: hostctl VERB [OPTIONS] [ARGS]\n\n"
	       "vlalab's host controller: builds the patched kernel, boots it\n"
	       "through libvirt and runs the scenarios in the guest.\n\n"
	       "Verbs:\n");
	for (size_t i = 0; i < N_VERBS; i++)
		printf("  %-6s %-32s %s\n", verbs[i]->name, verbs[i]->usage,
		       verbs[i]->summary);
	printf("\n'hostctl help VERB' or 'hostctl VERB --help' shows a verb's options.\n"
	       "Exit codes: 0 all pass/skip/xfail, 1 any fail/timeout/crash/xpass (the\n"
	       "kernel's fault), 2 usage or set-up error, 3 the lab could not do its\n"
	       "job (libvirt errors, no hello, protocol errors: scenarios marked error).\n");
	return EXIT_GREEN;
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
	for (size_t i = 0; i < N_VERBS; i++)
		if (strcmp(argv[1], verbs[i]->name) == 0)
			v = verbs[i];
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
