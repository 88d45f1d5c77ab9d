/* SPDX-License-Identifier: GPL-2.0-only */
/* Helpers for guestd's tests: temp dirs and files. */
#ifndef GUESTD_TESTUTIL_H
#define GUESTD_TESTUTIL_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A fresh directory under $TMPDIR, removed by the caller's rm -r. */
static inline char *tu_tmpdir(void)
{
	static char dir[256];
	const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	snprintf(dir, sizeof(dir), "%s/guestd-test-XXXXXX", base);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(99);
	}
	return dir;
}

static inline void tu_write(const char *path, const char *content, int flags)
{
	int fd = open(path, O_WRONLY | O_CREAT | flags, 0644);

	if (fd < 0 || write(fd, content, strlen(content)) !=
			      (ssize_t)strlen(content)) {
		perror(path);
		exit(99);
	}
	close(fd);
}

/* The file's content, in a static buffer ("" when missing). */
static inline const char *tu_read(const char *path)
{
	static char buf[65536];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? 0 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static inline void tu_rmrf(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "# could not remove %s\n", dir);
}

#endif
