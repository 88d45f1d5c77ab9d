// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl help [VERB]: the verb table, or one verb's own --help.
 */
#include <stdio.h>
#include <string.h>

#include "verbs.h"

int verb_help(int argc, char *argv[])
{
	if (argc > 1) {
		for (size_t i = 0; i < n_verbs; i++) {
			if (strcmp(argv[1], verbs[i].name) == 0 &&
			    verbs[i].fn != verb_help) {
				char *args[] = { argv[1], "--help", NULL };

				return verbs[i].fn(2, args);
			}
		}
		if (strcmp(argv[1], "help") != 0) {
			fprintf(stderr, "hostctl help: unknown verb '%s'\n",
				argv[1]);
			return EXIT_SETUP;
		}
	}
	printf("Usage: hostctl VERB [OPTIONS] [ARGS]\n\n"
	       "vlalab's host controller: builds the patched kernel, boots it\n"
	       "through libvirt and runs the scenarios in the guest.\n\n"
	       "Verbs:\n");
	for (size_t i = 0; i < n_verbs; i++)
		printf("  %-6s %-32s %s\n", verbs[i].name, verbs[i].usage,
		       verbs[i].summary);
	printf("\n'hostctl help VERB' or 'hostctl VERB --help' shows a verb's options.\n"
	       "Exit codes: 0 all pass/skip/xfail, 1 any fail/timeout/crash/error/xpass,\n"
	       "2 usage or set-up error.\n");
	return EXIT_GREEN;
}
