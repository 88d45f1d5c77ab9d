/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kbuild tests' scratch files: write @text to @dir/@rel (its folder
 * made first) or bail out, and read @dir/@rel back (malloc'd, or
 * "(unreadable)").
 */
#ifndef VLALAB_KBUILD_TESTS_TFILE_H
#define VLALAB_KBUILD_TESTS_TFILE_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "kb.h"

static inline void tfile_put(const char *dir, const char *rel, const char *text)
{
	char path[PATH_MAX], *slash;

	kb_path(path, sizeof(path), "%s/%s", dir, rel);
	slash = strrchr(path, '/');
	*slash = '\0';
	kb_mkdir_p(path, 0755);
	*slash = '/';
	if (fileio_write_atomic(path, text, strlen(text)) < 0) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

static inline char *tfile_get(const char *dir, const char *rel)
{
	char path[PATH_MAX], *text = NULL;

	kb_path(path, sizeof(path), "%s/%s", dir, rel);
	if (fileio_read(path, FILEIO_ALL, &text, NULL, NULL) < 0)
		return strdup("(unreadable)");
	return text;
}

#endif
