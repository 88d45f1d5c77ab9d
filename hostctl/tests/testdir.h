/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A scratch folder for the unit tests that write files: made with
 * mkdtemp() before the first test, removed with its content at the end.
 */
#ifndef VLALAB_HOSTCTL_TESTDIR_H
#define VLALAB_HOSTCTL_TESTDIR_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* Make @tmpl (ending in XXXXXX) a new folder; false, said why, if not. */
static inline bool testdir_make(char *tmpl)
{
	if (!mkdtemp(tmpl)) {
		perror("mkdtemp");
		return false;
	}
	return true;
}

/* rm -rf @dir, a TAP comment when it stays. */
static inline void testdir_remove(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", dir);
}

#endif
