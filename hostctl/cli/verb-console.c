// SPDX-License-Identifier: GPL-2.0-only
/* hostctl console VM: attach to a live VM's serial console (conattach.h). */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "vm/conattach.h"
#include "live/sshvm.h"
#include "cli/verbs.h"
#include "vm/vmstate.h"

static void console_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl console [--cache DIR] VM\n"
		"\n"
		"Attach this terminal to the serial console of a live VM (see\n"
		"'hostctl ls'), raw: what the guest prints shows here, what you\n"
		"type goes to it. Type ^] (Ctrl-]) to detach. The run that owns\n"
		"the VM keeps writing its console log meanwhile; one user at a\n"
		"time. Exits 0 when detached, 1 when the VM went away.\n"
		"\n");
	verb_vm_usage(f);
}

const struct verb verb_console_def = {
	.name = "console",
	.min_args = 1,
	.max_args = 1,
	.fn = verb_console,
	.usage = "VM",
	.summary = "attach to a live VM's serial console",
};

int verb_console(int argc, char *argv[])
{
	char dir[PATH_MAX], vms[PATH_MAX + 8], path[PATH_MAX],
		err[PATH_MAX * 2], hello[512];
	const char *cache = NULL;
	struct vmstate v;
	int r;

	r = verb_vm_options(argc, argv, "", console_usage, &cache);
	if (r != VERB_GO_ON)
		return r;
	r = verb_check_nargs(&verb_console_def, argc - optind);
	if (r)
		return r;
	if (sshvm_resolve("console", cache, argv[optind], dir, sizeof(dir),
			  &v) < 0)
		return EXIT_SETUP;
	snprintf(vms, sizeof(vms), "%s/vms", dir);
	if (conattach_path(vms, v.domain, path, sizeof(path)) < 0) {
		fprintf(stderr,
			"hostctl console: %s: its socket's path is too long\n",
			v.label);
		return EXIT_SETUP;
	}
	snprintf(hello, sizeof(hello),
		 "hostctl console: attached to %s (%s); ^] detaches\r\n",
		 v.label, v.domain);
	r = conattach_client(path, hello, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "hostctl console: %s: %s\n", v.label, err);
		return EXIT_SETUP;
	}
	fprintf(stderr, "\r\nhostctl console: %s\n",
		r == 0 ? "detached" : "the VM went away");
	return r == 0 ? EXIT_GREEN : 1;
}
