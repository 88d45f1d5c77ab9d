// SPDX-License-Identifier: GPL-2.0-only
/*
 * What verbs share and that is not the table: checking a verb's
 * positional arguments against its own row, the options of the verbs
 * on a live VM, and a run in a child process (bench, compare).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/*
 * The option getopt stopped at, @c its optopt: "--name" (without
 * "=VALUE") when argv[@i] is that long option, else "-C".
 */
static void opt_text(const struct option *opts, char *argv[], int i, int c,
		     char *buf, size_t len)
{
	const char *a = i > 0 ? argv[i] : "";
	size_t n = strcspn(a, "=");
	bool is_long = strncmp(a, "--", 2) == 0 && c == 0;

	for (; !is_long && opts->name && strncmp(a, "--", 2) == 0; opts++)
		is_long = opts->val == c && n > 2 &&
			  strncmp(opts->name, a + 2, n - 2) == 0;
	if (is_long)
		snprintf(buf, len, "%.*s", (int)n, a);
	else
		snprintf(buf, len, "-%c",
			 c > 0 && c < 0x80 && isgraph(c) ? c : '?');
}

/* The long options that "--@what" abbreviates: 2 or more, ambiguous. */
static size_t n_prefixed(const struct option *opts, const char *what)
{
	size_t n = 0;

	for (; strncmp(what, "--", 2) == 0 && opts->name; opts++)
		n += strncmp(opts->name, what + 2, strlen(what + 2)) == 0;
	return n;
}

int verb_check_options(const struct verb *v, int argc, char *argv[])
{
	struct option opts[CLI_OPTS_MAX];
	char optstring[64], what[128];
	char **copy;
	int c = 0, saved;

	if (!v->optstring)
		return 0;
	/* A leading ':' (after a '+'): ':' for a missing argument. */
	snprintf(optstring, sizeof(optstring), "%s:%s",
		 v->optstring[0] == '+' ? "+" : "",
		 v->optstring + (v->optstring[0] == '+'));
	cli_opts_table(v->shared ? v->shared : (const enum cli_opt[]){ 0 },
		       v->own, opts);
	/* getopt permutes argv: the verb parses it again, untouched. */
	copy = calloc((size_t)argc + 1, sizeof(*copy));
	if (!copy)
		return EXIT_SETUP;
	memcpy(copy, argv, (size_t)argc * sizeof(*copy));
	optind = 0;
	while ((c = getopt_long(argc, copy, optstring, opts, NULL)) != -1)
		if (c == '?' || c == ':')
			break;
	saved = optind;
	if (c == '?' || c == ':') {
		const char *pre = "unrecognized option", *post = "";

		opt_text(opts, copy, saved - 1, optopt, what, sizeof(what));
		if (c == ':')
			post = " needs an argument";
		else if (strncmp(what, "--", 2) == 0 && optopt)
			post = " takes no argument";
		else if (n_prefixed(opts, what) > 1)
			post = " is ambiguous";
		if (*post)
			pre = "option";
		fprintf(stderr,
			"hostctl %s: %s '%s'%s; see 'hostctl help %s'\n",
			v->name, pre, what, post, v->name);
	}
	free(copy);
	optind = 0;
	return c == '?' || c == ':' ? EXIT_SETUP : 0;
}

const enum cli_opt verb_vm_shared[] = {
	CLI_OPT_CACHE,
	CLI_OPT_HELP,
	CLI_OPT_END,
};

void verb_vm_usage(FILE *f)
{
	fputs("  --cache DIR  the cache the VM's hostctl uses\n"
	      "  --help       show this help\n",
	      f);
}

int verb_vm_options(int argc, char *argv[], const char *optstring,
		    void (*usage)(FILE *out), const char **cache)
{
	struct option opts[CLI_OPTS_MAX];
	int opt;

	cli_opts_table(verb_vm_shared, NULL, opts);
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
