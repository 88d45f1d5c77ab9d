// SPDX-License-Identifier: GPL-2.0-only
/* hostctl ls: the live VMs that hostctl exec, pull and shell can reach. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild.h"
#include "cli/verbs.h"
#include "vm/vmstate.h"

static void ls_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl ls [--cache DIR]\n"
		"\n"
		"List the live VMs with an SSH port that the hostctls of this\n"
		"cache run: label, domain, the scenario and the step it is at\n"
		"(the main step begun last, of how many), owning hostctl's pid,\n"
		"run directory.\n"
		"\n"
		"  --cache DIR  the cache (default: the usual one)\n"
		"  --help       show this help\n");
}

const struct verb verb_ls_def = {
	.name = "ls",
	.min_args = 0,
	.max_args = 0,
	.fn = verb_ls,
	.usage = "",
	.summary = "list the live VMs",
	.shared = verb_vm_shared,
	.optstring = "",
};

int verb_ls(int argc, char *argv[])
{
	char dir[PATH_MAX], vms[PATH_MAX + 8];
	const char *cache = NULL;
	struct vmstate *v;
	size_t n;
	int r;

	r = verb_vm_options(argc, argv, "", ls_usage, &cache);
	if (r != VERB_GO_ON)
		return r;
	r = verb_check_nargs(&verb_ls_def, argc - optind);
	if (r)
		return r;
	r = cache ? (snprintf(dir, sizeof(dir), "%s", cache) >=
				     (int)sizeof(dir) ?
			     -ENAMETOOLONG :
			     0) :
		    kbuild_cache_dir(dir, sizeof(dir));
	snprintf(vms, sizeof(vms), "%s/vms", dir);
	if (r == 0)
		r = vmstate_list(vms, &v, &n);
	if (r < 0) {
		fprintf(stderr, "hostctl ls: '%s': %s\n", vms, strerror(-r));
		return EXIT_SETUP;
	}
	if (n)
		printf("%-6s %-36s %-28s %-7s %-8s %s\n", "VM", "DOMAIN",
		       "SCENARIO", "STEP", "PID", "RUN");
	for (size_t i = 0; i < n; i++) {
		char step[24] = "-";

		if (v[i].scenario[0])
			snprintf(step, sizeof(step), "%u/%u", v[i].step,
				 v[i].steps);
		printf("%-6s %-36s %-28s %-7s %-8ld %s\n", v[i].label,
		       v[i].domain, v[i].scenario[0] ? v[i].scenario : "-",
		       step, (long)v[i].pid, v[i].run_dir);
	}
	free(v);
	return EXIT_GREEN;
}
