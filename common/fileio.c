// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fileio.h"

/* The first buffer; it doubles from there, up to the bound. */
#define FILEIO_CHUNK 4096

static int read_fd(int fd, size_t max, char **ret_buf, size_t *ret_len,
		   bool *ret_truncated)
{
	size_t len = 0, cap;
	bool truncated = false;
	char *buf, *nbuf;
	ssize_t got;

	/* Room for the NUL, and for a doubling that cannot overflow. */
	if (max > SIZE_MAX / 2 - 1)
		max = SIZE_MAX / 2 - 1;
	cap = max < FILEIO_CHUNK ? max : FILEIO_CHUNK;
	buf = malloc(cap + 1);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (len == cap) {
			if (cap == max) {
				char c;

				/* One more byte tells whether there is more. */
				do
					got = read(fd, &c, 1);
				while (got < 0 && errno == EINTR);
				truncated = got > 0;
				break;
			}
			cap = cap > max / 2 ? max : cap * 2;
			nbuf = realloc(buf, cap + 1);
			if (!nbuf) {
				free(buf);
				return -ENOMEM;
			}
			buf = nbuf;
		}
		got = read(fd, buf + len, cap - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int r = -errno;

			free(buf);
			return r;
		}
		if (got == 0)
			break;
		len += (size_t)got;
	}
	buf[len] = '\0';
	*ret_buf = buf;
	if (ret_len)
		*ret_len = len;
	if (ret_truncated)
		*ret_truncated = truncated;
	return 0;
}

int fileio_read(const char *path, size_t max, char **ret_buf, size_t *ret_len,
		bool *ret_truncated)
{
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = read_fd(fd, max, ret_buf, ret_len, ret_truncated);
	close(fd);
	return r;
}

int fileio_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int fileio_create_tmp(const char *tmp, mode_t mode)
{
	const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC;
	int fd;

	fd = open(tmp, flags, mode);
	/* A leftover of a dead process, or a planted link: it goes, and
	 * O_EXCL still refuses whatever takes its place meanwhile. */
	if (fd < 0 && errno == EEXIST && unlink(tmp) == 0)
		fd = open(tmp, flags, mode);
	return fd < 0 ? -errno : fd;
}

int fileio_write_atomic(const char *path, const void *buf, size_t len)
{
	return fileio_write_atomic_mode(path, buf, len, 0644);
}

int fileio_write_atomic_mode(const char *path, const void *buf, size_t len,
			     mode_t mode)
{
	char tmp[PATH_MAX];
	int fd, r;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid()) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = fileio_create_tmp(tmp, mode);
	if (fd < 0)
		return fd;
	r = fileio_write_all(fd, buf, len);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}
