// SPDX-License-Identifier: GPL-2.0-only
/* hostctl shell VM: an interactive shell in a live VM over its SSH port. */
#include <stdio.h>
#include <unistd.h>

#include "live/sshc.h"
#include "live/sshvm.h"
#include "cli/verbs.h"

static void shell_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl shell [--cache DIR] VM\n"
		"\n"
		"Open a shell in the live VM (see 'hostctl ls'): a pty of this\n"
		"terminal's size, kept in step when the window changes. Type\n"
		"'~.' at the start of a line to leave; 'exit' ends the shell.\n"
		"Exits with the shell's status.\n"
		"\n");
	verb_vm_usage(f);
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
	const char *cache = NULL;
	struct sshc *c = NULL;
	char err[1024];
	int r, status = 0;

	r = verb_vm_options(argc, argv, "", shell_usage, &cache);
	if (r != VERB_GO_ON)
		return r;
	r = verb_check_nargs(&verb_shell_def, argc - optind);
	if (r)
		return r;
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
