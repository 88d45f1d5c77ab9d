/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hostctl's verbs: one verb-<name>.c each, which exports its row, listed
 * in one table (main.c, which also answers help). A verb calls nothing
 * back in main.c: what it needs of its row it has itself.
 * A verb gets argv starting at its own name and returns the exit code:
 * 0 all green, 1 a scenario went wrong (the kernel's fault), 2 usage or
 * set-up error, 3 the lab could not do its job (libvirt, a guest that
 * never said hello, protocol errors: scenarios marked error; a result
 * file that could not be written).
 */
#ifndef VLALAB_VERBS_H
#define VLALAB_VERBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cli/options.h"
#include "run/spec.h"

/* A verb's exit codes are a run's (enum run_exit, run/spec.h). */
#define EXIT_GREEN RUN_EXIT_GREEN
#define EXIT_RED RUN_EXIT_RED
#define EXIT_SETUP RUN_EXIT_SETUP
#define EXIT_LAB RUN_EXIT_LAB

struct verb {
	const char *name;
	int min_args; /* positional arguments after the verb */
	int max_args; /* VERB_ANY for no limit */
	int (*fn)(int argc, char *argv[]);
	const char *usage; /* one line: arguments */
	const char *summary; /* one line: what it does */
	/*
	 * Its options, as its getopt_long() call has them: the shared ones
	 * (cli/options.h, ended by CLI_OPT_END; NULL: none), its own rows
	 * (ended by a zero row; NULL: none) and getopt's short options
	 * (NULL: it parses none, as help). main.c checks a command line
	 * against them before the verb runs (verb_check_options()), and the
	 * completion script and man page list them (cli/docgen.c).
	 */
	const enum cli_opt *shared;
	const struct option *own;
	const char *optstring;
};

#define VERB_ANY (-1)

/*
 * For a verb that has parsed its options: check its @n positional
 * arguments against its row @v. 0, or EXIT_SETUP after printing the
 * usage (verbs.c).
 */
int verb_check_nargs(const struct verb *v, int n);

/*
 * Check the options of @argc/@argv (argv[0] the verb's name) against
 * @v's rows, without running it: an unknown option, a missing or an
 * unwanted argument is one line on stderr, "hostctl VERB: unrecognized
 * option '--x'; see 'hostctl help VERB'". 0, or EXIT_SETUP after that
 * line. getopt's own messages must be off (opterr = 0, main.c).
 */
int verb_check_options(const struct verb *v, int argc, char *argv[]);

#define VERB_GO_ON (-1)

/* The shared options of the verbs on a live VM: --cache, --help. */
extern const enum cli_opt verb_vm_shared[];

/*
 * The options of every verb on a live VM (ls, shell, exec, pull, push,
 * console): --cache DIR into *@cache, and --help. @optstring is
 * getopt's ("+" stops at the first positional argument, as exec does for
 * its command). Returns VERB_GO_ON with optind at the first positional
 * argument, or the exit code: EXIT_GREEN after the help on stdout,
 * EXIT_SETUP after it on stderr for an unknown option (verbs.c).
 */
int verb_vm_options(int argc, char *argv[], const char *optstring,
		    void (*usage)(FILE *out), const char **cache);

/* The usage lines of verb_vm_options()'s options, --cache and --help. */
void verb_vm_usage(FILE *f);

/*
 * Run @s (run/spec.h) in a child process, forked, not exec'd: each run
 * of bench and compare gets what a `hostctl run` of its own has, its own
 * embedded libvirt driver and root (a process holds its root until it
 * exits, setup.c, and libvirt opens one embedded root per process), its
 * own first-signal handling (SA_RESETHAND, vm_interrupt()) and its own
 * pid in its run id. @quiet sends its report to /dev/null. 0 with
 * *@ret_status its exit code (128 + the signal that killed it), or
 * -errno when it could not be forked or waited for (verbs.c).
 */
int verb_run_child(const struct run_spec *s, bool quiet, int *ret_status);

/* Each verb's row, defined in its verb-<name>.c; main.c lists them. */
extern const struct verb verb_run_def;
extern const struct verb verb_list_def;
extern const struct verb verb_build_def;
extern const struct verb verb_bench_def;
extern const struct verb verb_report_def;
extern const struct verb verb_export_def;
extern const struct verb verb_runs_def;
extern const struct verb verb_diff_def;
extern const struct verb verb_flakes_def;
extern const struct verb verb_gc_def;
extern const struct verb verb_exec_def;
extern const struct verb verb_pull_def;
extern const struct verb verb_push_def;
extern const struct verb verb_shell_def;
extern const struct verb verb_ls_def;
extern const struct verb verb_repro_def;
extern const struct verb verb_compare_def;
extern const struct verb verb_console_def;
extern const struct verb verb_lava_def;

int verb_run(int argc, char *argv[]);
int verb_list(int argc, char *argv[]);
int verb_build(int argc, char *argv[]);
int verb_bench(int argc, char *argv[]);
int verb_report(int argc, char *argv[]);
int verb_export(int argc, char *argv[]);
int verb_runs(int argc, char *argv[]);
int verb_diff(int argc, char *argv[]);
int verb_flakes(int argc, char *argv[]);
int verb_gc(int argc, char *argv[]);
int verb_exec(int argc, char *argv[]);
int verb_pull(int argc, char *argv[]);
int verb_push(int argc, char *argv[]);
int verb_shell(int argc, char *argv[]);
int verb_ls(int argc, char *argv[]);
int verb_repro(int argc, char *argv[]);
int verb_console(int argc, char *argv[]);
int verb_lava(int argc, char *argv[]);

#endif
