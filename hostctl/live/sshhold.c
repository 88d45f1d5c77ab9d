// SPDX-License-Identifier: GPL-2.0-only
/* Who holds a VM's SSH port (sshhold.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live/sshhold.h"

#define SSHHOLD_TRIES 8

static int lock_path(const char *sock, char *buf, size_t len)
{
	return snprintf(buf, len, "%s.lock", sock) >= (int)len ? -ENAMETOOLONG :
								 0;
}

/* The holder's "PID VERB", as "hostctl VERB, pid PID"; "" if unsaid. */
static void read_holder(int fd, char *holder, size_t holderlen)
{
	char buf[64], verb[32];
	long pid;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	holder[0] = '\0';
	if (n <= 0)
		return;
	buf[n] = '\0';
	if (sscanf(buf, "%ld %31[a-z-]", &pid, verb) != 2 || pid <= 0)
		return;
	snprintf(holder, holderlen, "hostctl %s, pid %ld", verb, pid);
}

int sshhold_take(const char *sock, const char *verb, char *holder,
		 size_t holderlen)
{
	char path[PATH_MAX], line[64];
	struct stat a, b;
	int fd, n, r;

	holder[0] = '\0';
	r = lock_path(sock, path, sizeof(path));
	if (r < 0)
		return r;
	/*
	 * The holder unlinks the file when it lets go: a lock taken on a
	 * name that no longer leads to it is taken again.
	 */
	for (int i = 0; i < SSHHOLD_TRIES; i++) {
		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
			  0600);
		if (fd < 0)
			return -errno;
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			r = errno == EWOULDBLOCK ? -EBUSY : -errno;
			if (r == -EBUSY)
				read_holder(fd, holder, holderlen);
			close(fd);
			return r;
		}
		if (fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			break;
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		return -EAGAIN;
	n = snprintf(line, sizeof(line), "%ld %s\n", (long)getpid(), verb);
	if (n >= (int)sizeof(line) || pwrite(fd, line, (size_t)n, 0) != n ||
	    ftruncate(fd, n) < 0) {
		r = n >= (int)sizeof(line) ? -EINVAL : -errno;
		sshhold_release(sock, fd);
		return r;
	}
	return fd;
}

void sshhold_release(const char *sock, int fd)
{
	char path[PATH_MAX];

	if (fd < 0)
		return;
	/* Unlinked while still locked, so nobody locks a name that goes. */
	if (lock_path(sock, path, sizeof(path)) == 0)
		unlink(path);
	close(fd);
}
