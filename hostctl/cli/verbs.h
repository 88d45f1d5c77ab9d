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

#include <stddef.h>
#include <stdio.h>

#define EXIT_GREEN 0
#define EXIT_RED 1
#define EXIT_SETUP 2
#define EXIT_LAB 3

struct verb {
	const char *name;
	int min_args; /* positional arguments after the verb */
	int max_args; /* VERB_ANY for no limit */
	int (*fn)(int argc, char *argv[]);
	const char *usage; /* one line: arguments */
	const char *summary; /* one line: what it does */
};

#define VERB_ANY (-1)

/*
 * For a verb that has parsed its options: check its @n positional
 * arguments against its row @v. 0, or EXIT_SETUP after printing the
 * usage (verbs.c).
 */
int verb_check_nargs(const struct verb *v, int n);

#define VERB_GO_ON (-1)

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

struct vm;
struct res_scenario;

/* What hostctl repro changes in a run (verb-repro.c, verb-run.c). */
struct run_hooks {
	size_t until_step; /* run steps 1..until_step only; 0: all */
	/* runner_opts' hold: the shell, with the VM alive. */
	void (*hold)(void *data, struct vm *vm, const char *label,
		     const char *domain, const struct res_scenario *sc);
	void *hold_data;
};

/* hostctl run with @h: one scenario, its steps cut, a hold after them. */
int verb_run_hooked(int argc, char *argv[], const struct run_hooks *h);

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

#endif
