// SPDX-License-Identifier: GPL-2.0-only
/*
 * What verbs share and that is not the table: checking a verb's
 * positional arguments against its own row, the options of the verbs
 * on a live VM, and a run in a child process (bench, compare).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/options.h"
#include "cli/verbs.h"

int verb_check_nargs(const struct verb *v, int n)
{
	if (n >= v->min_args && (v->max_args == VERB_ANY || n <= v->max_args))
		return 0;
	fprintf(stderr, "hostctl %s: %s arguments; usage: hostctl %s %s\n",
		v->name, n < v->min_args ? "too few" : "too many", v->name,
		v->usage);
	return EXIT_SETUP;
}

void verb_vm_usage(FILE *f)
{
	fputs("  --cache DIR  the cache the VM's hostctl uses\n"
	      "  --help       show this help\n",
	      f);
}

int verb_vm_options(int argc, char *argv[], const char *optstring,
		    void (*usage)(FILE *out), const char **cache)
{
	static const enum cli_opt shared[] = {
		CLI_OPT_CACHE,
		CLI_OPT_HELP,
		CLI_OPT_END,
	};
	struct option opts[CLI_OPTS_MAX];
	int opt;

	cli_opts_table(shared, NULL, opts);
	while ((opt = getopt_long(argc, argv, optstring, opts, NULL)) != -1) {
		if (opt == CLI_OPT_CACHE) {
			*cache = optarg;
		} else if (opt == CLI_OPT_HELP) {
			usage(stdout);
			return EXIT_GREEN;
		} else {
			usage(stderr);
			return EXIT_SETUP;
		}
	}
	return VERB_GO_ON;
}

int verb_run_child(const struct run_spec *s, bool quiet, int *ret_status)
{
	char err[1024];
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (quiet && !freopen("/dev/null", "w", stdout))
			_exit(127);
		if (run_spec_check(s, err, sizeof(err)) < 0) {
			fprintf(stderr, "hostctl run: %s\n", err);
			_exit(EXIT_SETUP);
		}
		status = run_spec_run(s);
		fflush(NULL);
		_exit(status);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	*ret_status = WIFEXITED(status) ? WEXITSTATUS(status) :
					  128 + WTERMSIG(status);
	return 0;
}
