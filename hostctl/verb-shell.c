// SPDX-License-Identifier: GPL-2.0-only
/* hostctl shell VM: an interactive shell in a live VM over its SSH port. */
#include <getopt.h>
#include <stdio.h>

#include "sshc.h"
#include "sshvm.h"
#include "verbs.h"

static void shell_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl shell [--cache DIR] VM\n"
		"\n"
		"Open a shell in the live VM (see 'hostctl ls'): a pty of this\n"
		"terminal's size, kept in step when the window changes. Type\n"
		"'~.' at the start of a line to leave; 'exit' ends the shell.\n"
		"Exits with the shell's status.\n"
		"\n"
		"  --cache DIR  the cache the VM's hostctl uses\n"
		"  --help       show this help\n");
}

const struct verb verb_shell_def = {
	.name = "shell",
	.min_args = 1,
	.max_args = 1,
	.fn = verb_shell,
	.usage = "VM",
	.summary = "open a shell in a live VM",
};

int verb_shell(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "cache", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *cache = NULL;
	struct sshc *c = NULL;
	char err[1024];
	int opt, r, status = 0;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt == 'c') {
			cache = optarg;
		} else if (opt == 'h') {
			shell_usage(stdout);
			return EXIT_GREEN;
		} else {
			shell_usage(stderr);
			return EXIT_SETUP;
		}
	}
	if (verb_check_nargs(&verb_shell_def, argc - optind) < 0)
		return EXIT_SETUP;
	r = sshvm_connect("shell", cache, argv[optind], &c);
	if (r < 0)
		return EXIT_SETUP;
	r = sshc_shell(c, &status, err, sizeof(err));
	sshc_close(c);
	if (r < 0) {
		fprintf(stderr, "\r\nhostctl shell: %s: %s\n", argv[optind],
			err);
		return EXIT_SETUP;
	}
	return status;
}
