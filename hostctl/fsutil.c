// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"

int fs_mkdir_p(const char *path)
{
	char tmp[PATH_MAX];

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int fs_read_tail(const char *path, size_t max, char **ret, size_t *ret_len)
{
	char *buf;
	ssize_t n;
	off_t size;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size = lseek(fd, 0, SEEK_END);
	buf = malloc(max + 1);
	if (size < 0 || !buf ||
	    lseek(fd, (size_t)size > max ? size - (off_t)max : 0, SEEK_SET) <
		    0) {
		r = !buf ? -ENOMEM : -errno;
		close(fd);
		free(buf);
		return r;
	}
	n = read(fd, buf, max);
	if (n < 0) {
		r = -errno;
		close(fd);
		free(buf);
		return r;
	}
	close(fd);
	buf[n] = '\0';
	*ret = buf;
	*ret_len = (size_t)n;
	return 0;
}
