// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl exec VM -- CMD...: run a command in a live VM over its SSH port;
 * its stdout and stderr stay apart, and its exit status is hostctl's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "live/sshc.h"
#include "live/sshvm.h"
#include "cli/verbs.h"

#define EXEC_CMD_MAX 65536

static void exec_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl exec [--cache DIR] VM -- CMD [ARG]...\n"
		"\n"
		"Run CMD in the live VM (a label such as vm3 or a domain name;\n"
		"see 'hostctl ls') over its SSH port. Each argument is passed\n"
		"as is, quoted for the guest's shell. Exits with CMD's status.\n"
		"\n");
	verb_vm_usage(f);
}

const struct verb verb_exec_def = {
	.name = "exec",
	.min_args = 2,
	.max_args = VERB_ANY,
	.fn = verb_exec,
	.usage = "VM -- CMD...",
	.summary = "run a command in a live VM",
};

/* The arguments, each in single quotes, for the guest's sh -c. */
static int quote_args(char *const *argv, int argc, char **ret)
{
	size_t len = 0, cap = EXEC_CMD_MAX;
	char *s = malloc(cap);

	if (!s)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		for (const char *p = i ? " '" : "'"; *p; p++)
			s[len++] = *p;
		for (const char *p = argv[i]; *p; p++) {
			if (len + 8 >= cap) {
				free(s);
				return -E2BIG;
			}
			if (*p == '\'') {
				memcpy(s + len, "'\\''", 4);
				len += 4;
			} else {
				s[len++] = *p;
			}
		}
		if (len + 4 >= cap) {
			free(s);
			return -E2BIG;
		}
		s[len++] = '\'';
	}
	s[len] = '\0';
	*ret = s;
	return 0;
}

int verb_exec(int argc, char *argv[])
{
	char err[1024], *cmd = NULL;
	const char *cache = NULL;
	struct sshc *c = NULL;
	int r, status;

	r = verb_vm_options(argc, argv, "+", exec_usage, &cache);
	if (r != VERB_GO_ON)
		return r;
	if (verb_check_nargs(&verb_exec_def, argc - optind) ||
	    optind + 2 > argc || strcmp(argv[optind + 1], "--") != 0 ||
	    optind + 3 > argc) {
		fprintf(stderr,
			"hostctl exec: want VM -- CMD [ARG]...; try 'hostctl exec --help'\n");
		return EXIT_SETUP;
	}
	r = quote_args(argv + optind + 2, argc - optind - 2, &cmd);
	if (r < 0) {
		fprintf(stderr,
			"hostctl exec: the command is too long (%d bytes at most)\n",
			EXEC_CMD_MAX);
		return EXIT_SETUP;
	}
	r = sshvm_connect("exec", cache, argv[optind], &c);
	if (r < 0) {
		free(cmd);
		return EXIT_SETUP;
	}
	r = sshc_exec(c, cmd, STDOUT_FILENO, STDERR_FILENO, &status, err,
		      sizeof(err));
	sshc_close(c);
	free(cmd);
	if (r < 0) {
		fprintf(stderr, "hostctl exec: %s: %s\n", argv[optind], err);
		return EXIT_SETUP;
	}
	return status;
}
