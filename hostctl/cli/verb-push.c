// SPDX-License-Identifier: GPL-2.0-only
/* hostctl push FILE VM:PATH: copy a file into a guest over SFTP. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "live/sshc.h"
#include "live/sshvm.h"
#include "cli/verbs.h"

static void push_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl push [--cache DIR] FILE VM:PATH\n"
		"\n"
		"Copy the local regular FILE to PATH in the live VM (see\n"
		"'hostctl ls') over SFTP, with FILE's permission bits. PATH is\n"
		"written under a private name, then renamed.\n"
		"\n");
	verb_vm_usage(f);
}

const struct verb verb_push_def = {
	.name = "push",
	.min_args = 2,
	.max_args = 2,
	.fn = verb_push,
	.usage = "FILE VM:PATH",
	.summary = "copy a file into a live VM",
};

int verb_push(int argc, char *argv[])
{
	char err[PATH_MAX * 2 + 256], vm[128];
	const char *cache = NULL, *dst, *colon;
	struct sshc *c = NULL;
	int r;

	r = verb_vm_options(argc, argv, "", push_usage, &cache);
	if (r != VERB_GO_ON)
		return r;
	r = verb_check_nargs(&verb_push_def, argc - optind);
	if (r)
		return r;
	dst = argv[optind + 1];
	colon = strchr(dst, ':');
	if (!colon || colon == dst || (size_t)(colon - dst) >= sizeof(vm) ||
	    !colon[1]) {
		fprintf(stderr,
			"hostctl push: '%s' is not VM:PATH (e.g. vm1:/tmp/x)\n",
			dst);
		return EXIT_SETUP;
	}
	memcpy(vm, dst, (size_t)(colon - dst));
	vm[colon - dst] = '\0';
	r = sshvm_connect("push", cache, vm, &c);
	if (r < 0)
		return EXIT_SETUP;
	r = sshc_push(c, argv[optind], colon + 1, err, sizeof(err));
	sshc_close(c);
	if (r < 0) {
		fprintf(stderr, "hostctl push: %s: %s\n", vm, err);
		return EXIT_RED;
	}
	return EXIT_GREEN;
}
