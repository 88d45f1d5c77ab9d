// SPDX-License-Identifier: GPL-2.0-only
/* Finding the virtio-serial port by its name, without udev, and opening it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>

#include "guestd.h"

int port_find(const char *sysdir, const char *devdir, const char *name,
	      char *ret_path, size_t size)
{
	struct dirent *de;
	char path[512];
	int r = -ENOENT;
	DIR *d;

	d = opendir(sysdir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		size_t len;
		char *buf;

		if (strncmp(de->d_name, "vport", 5) != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/name", sysdir, de->d_name);
		if (fileio_read(path, 256, &buf, &len, NULL) < 0)
			continue;
		if (len > 0 && buf[len - 1] == '\n')
			buf[--len] = '\0';
		if (strcmp(buf, name) == 0) {
			snprintf(ret_path, size, "%s/%s", devdir, de->d_name);
			r = 0;
		}
		free(buf);
		if (r == 0)
			break;
	}
	closedir(d);
	return r;
}

int port_open(const char *path)
{
	struct termios tio;
	int fd;

	fd = open(path, O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* A pty for tests, a console: no echo, no line discipline. */
	if (tcgetattr(fd, &tio) == 0) {
		cfmakeraw(&tio);
		tcsetattr(fd, TCSANOW, &tio);
	}
	return fd;
}
