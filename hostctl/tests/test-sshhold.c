// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/live/sshhold.c: the lock a connection to a VM's
 * SSH port holds. A second taker is refused with -EBUSY and told who
 * holds it; letting go removes the file; a file a killed holder left
 * (unlocked, whatever it says) is taken over.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "live/sshhold.h"
#include "tap.h"
#include "testdir.h"

int main(void)
{
	char dir[] = "/tmp/vlalab-sshhold-XXXXXX", sock[256], lock[300];
	char holder[128], want[128];
	int a, b, fd;

	if (!testdir_make(dir))
		return 1;
	snprintf(sock, sizeof(sock), "%s/vlalab-x-1.ssh", dir);
	snprintf(lock, sizeof(lock), "%s.lock", sock);

	a = sshhold_take(sock, "repro", holder, sizeof(holder));
	ok(a >= 0, "the first taker holds the lock");
	ok(access(lock, F_OK) == 0, "the lock file is there while held");
	b = sshhold_take(sock, "exec", holder, sizeof(holder));
	is_int(b, -EBUSY, "a second taker is refused with -EBUSY");
	snprintf(want, sizeof(want), "hostctl repro, pid %ld", (long)getpid());
	is_str(holder, want, "and told who holds it");
	sshhold_release(sock, a);
	ok(access(lock, F_OK) < 0 && errno == ENOENT,
	   "letting go removes the lock file");

	/* What a killed holder leaves: a file, unlocked, saying anything. */
	fd = open(lock, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ok(fd >= 0 && write(fd, "junk\n\033[2J", 9) == 9,
	   "a stale lock file, with junk");
	if (fd >= 0)
		close(fd);
	a = sshhold_take(sock, "shell", holder, sizeof(holder));
	ok(a >= 0, "a stale lock file is taken over");
	b = sshhold_take(sock, "exec", holder, sizeof(holder));
	snprintf(want, sizeof(want), "hostctl shell, pid %ld", (long)getpid());
	ok(b == -EBUSY && !strcmp(holder, want),
	   "and says its new holder, none of the junk");
	sshhold_release(sock, a);

	/* A holder that has not said who it is yet, or says junk. */
	fd = open(lock, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ok(fd >= 0 && flock(fd, LOCK_EX) == 0 &&
		   write(fd, "1 \033]0;x\n", 8) == 8,
	   "a lock held by a file that says junk");
	b = sshhold_take(sock, "exec", holder, sizeof(holder));
	ok(b == -EBUSY && holder[0] == '\0', "is busy, and names no holder");
	if (fd >= 0)
		close(fd);
	testdir_remove(dir);
	return tap_done();
}
