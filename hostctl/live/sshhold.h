/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Who holds a VM's SSH port. The port takes one connection at a time
 * (QEMU's socket chardev accepts the next only when the current one
 * closes, and the guest's relay carries one dropbear), so a second client
 * would wait, unseen, in the socket's backlog. Each hostctl that connects
 * first takes <sock>.lock (an flock, with "PID VERB" in the file), and
 * one that finds it taken says who holds it instead of waiting.
 * Library-like: negative errno, never logged.
 */
#ifndef VLALAB_SSHHOLD_H
#define VLALAB_SSHHOLD_H

#include <stddef.h>

/*
 * Take the lock of the SSH socket @sock for @verb ("exec"): the lock's
 * descriptor, or -EBUSY when another process holds it, with its holder in
 * @holder ("hostctl repro, pid 42", or "" when it has not said yet).
 */
int sshhold_take(const char *sock, const char *verb, char *holder,
		 size_t holderlen);
/* Let go of what sshhold_take() returned (@fd < 0: nothing). */
void sshhold_release(const char *sock, int fd);

#endif
