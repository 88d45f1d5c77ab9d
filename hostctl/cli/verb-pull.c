// SPDX-License-Identifier: GPL-2.0-only
/* hostctl pull VM PATH [DEST]: fetch a guest file over SFTP. */
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "live/sshc.h"
#include "live/sshvm.h"
#include "cli/verbs.h"

static void pull_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl pull [--cache DIR] VM PATH [DEST]\n"
		"\n"
		"Fetch the guest file PATH of the live VM (see 'hostctl ls') over\n"
		"SFTP into DEST (default: PATH's last component, here). Files of\n"
		"procfs, sysfs and tracefs are read to their end.\n"
		"\n");
	verb_vm_usage(f);
}

const struct verb verb_pull_def = {
	.name = "pull",
	.min_args = 2,
	.max_args = 3,
	.fn = verb_pull,
	.usage = "VM PATH [DEST]",
	.summary = "fetch a file from a live VM",
};

int verb_pull(int argc, char *argv[])
{
	char err[PATH_MAX * 2 + 256], base[PATH_MAX];
	const char *cache = NULL, *dest;
	struct sshc *c = NULL;
	int r;

	r = verb_vm_options(argc, argv, "", pull_usage, &cache);
	if (r != VERB_GO_ON)
		return r;
	r = verb_check_nargs(&verb_pull_def, argc - optind);
	if (r)
		return r;
	snprintf(base, sizeof(base), "%s", argv[optind + 1]);
	dest = optind + 2 < argc ? argv[optind + 2] : basename(base);
	if (!*dest || !strcmp(dest, "/") || !strcmp(dest, ".") ||
	    !strcmp(dest, "..")) {
		fprintf(stderr, "hostctl pull: give a DEST for '%s'\n",
			argv[optind + 1]);
		return EXIT_SETUP;
	}
	r = sshvm_connect("pull", cache, argv[optind], &c);
	if (r < 0)
		return EXIT_SETUP;
	r = sshc_pull(c, argv[optind + 1], dest, err, sizeof(err));
	sshc_close(c);
	if (r < 0) {
		fprintf(stderr, "hostctl pull: %s: %s\n", argv[optind], err);
		return EXIT_RED;
	}
	return EXIT_GREEN;
}
