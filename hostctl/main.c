// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl: the vlalab host controller. Dispatches to the verb table below;
 * each verb parses its own options, once main.c has checked them against
 * the verb's rows (one line for a bad one). help and version are here
 * too, since they are the table's own listing and the build's: hostctl
 * help [VERB] prints the table, or runs one verb's --help. Two hidden
 * ones print what the build installs, from the same table:
 * `hostctl completion bash` and `hostctl --man` (cli/docgen.c).
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/docgen.h"
#include "cli/verbs.h"
#include "hostctl-version.h"

static int verb_help(int argc, char *argv[]);
static int verb_version(int argc, char *argv[]);

static const struct verb verb_help_def = {
	.name = "help",
	.min_args = 0,
	.max_args = 1,
	.fn = verb_help,
	.usage = "[VERB]",
	.summary = "show help",
};

static const struct verb verb_version_def = {
	.name = "version",
	.min_args = 0,
	.max_args = 0,
	.fn = verb_version,
	.usage = "",
	.summary = "print hostctl's version (also --version)",
	.shared = (const enum cli_opt[]){ CLI_OPT_HELP, CLI_OPT_END },
	.optstring = "h",
};

static const struct verb *const verbs[] = {
	&verb_run_def,	   &verb_list_def,  &verb_build_def,
	&verb_bench_def,   &verb_help_def,  &verb_report_def,
	&verb_export_def,  &verb_runs_def,  &verb_diff_def,
	&verb_flakes_def,  &verb_gc_def,    &verb_exec_def,
	&verb_pull_def,	   &verb_push_def,  &verb_shell_def,
	&verb_ls_def,	   &verb_repro_def, &verb_compare_def,
	&verb_console_def, &verb_lava_def,  &verb_version_def,
};

#define N_VERBS (sizeof(verbs) / sizeof(verbs[0]))

static int verb_help(int argc, char *argv[])
{
	/* help --help (as every verb has it): the listing. */
	if (argc > 1 && strcmp(argv[1], "--help") != 0) {
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
	cli_verb_list(stdout, verbs, N_VERBS);
	printf("\n'hostctl help VERB' or 'hostctl VERB --help' shows a verb's options.\n"
	       "Exit codes: 0 all pass/skip/xfail, 1 any fail/timeout/crash/xpass (the\n"
	       "kernel's fault), 2 usage or set-up error, 3 the lab could not do its\n"
	       "job (libvirt errors, no hello, protocol errors: scenarios marked error).\n");
	return EXIT_GREEN;
}

/* `git describe` of the build, or the project's version outside git. */
static int verb_version(int argc, char *argv[])
{
	int r;

	/* Its one option, --help; main() has refused any other. */
	if (argc > 1 && strcmp(argv[1], "--help") == 0) {
		printf("Usage: hostctl version\n\n"
		       "Print 'hostctl' and the git describe of its build (the\n"
		       "project's version when built outside git), as --version does.\n\n");
		cli_opt_usage(stdout, CLI_OPT_HELP);
		return EXIT_GREEN;
	}
	r = verb_check_nargs(&verb_version_def, argc - 1);
	if (r)
		return r;
	printf("hostctl %s\n", HOSTCTL_VERSION);
	return EXIT_GREEN;
}

int main(int argc, char *argv[])
{
	const struct verb *v = NULL;
	int r;

	/* Bad options are ours to say, in one line (verb_check_options()). */
	opterr = 0;
	/*
	 * A verb that reads (runs, report, diff, flakes, list, export to
	 * stdout...) stops quietly when its reader goes away: killed by
	 * SIGPIPE, as git and iproute2 are (the shell's status 141), even when
	 * started with SIGPIPE ignored. A run outlives its reader instead
	 * (run/run.c).
	 */
	signal(SIGPIPE, SIG_DFL);

	if (argc < 2) {
		verb_help(1, (char *[]){ "help", NULL });
		return EXIT_SETUP;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return verb_help(1, (char *[]){ "help", NULL });
	if (strcmp(argv[1], "--version") == 0)
		return verb_version(1, (char *[]){ "version", NULL });
	if (strcmp(argv[1], "--man") == 0 && argc == 2)
		return cli_man_page(stdout, verbs, N_VERBS, HOSTCTL_VERSION) ?
			       EXIT_SETUP :
			       EXIT_GREEN;
	if (strcmp(argv[1], "completion") == 0 && argc == 3 &&
	    strcmp(argv[2], "bash") == 0)
		return cli_completion_bash(stdout, verbs, N_VERBS) ?
			       EXIT_SETUP :
			       EXIT_GREEN;
	for (size_t i = 0; i < N_VERBS; i++)
		if (strcmp(argv[1], verbs[i]->name) == 0)
			v = verbs[i];
	if (!v) {
		fprintf(stderr, "hostctl: %s '%s'; see 'hostctl help'\n",
			argv[1][0] == '-' ? "unrecognized option" :
					    "unknown verb",
			argv[1]);
		return EXIT_SETUP;
	}
	argc--;
	argv++;
	r = verb_check_options(v, argc, argv);
	if (r)
		return r;
	/* Each verb runs getopt from the start of its own argv. */
	optind = 0;
	return v->fn(argc, argv);
}
