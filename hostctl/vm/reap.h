/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The processes hostctl adopts as a child subreaper, reaped at once.
 *
 * With the embedded driver, libvirt starts QEMU daemonized (the domains'
 * QEMUs, and the QEMUs it runs to probe capabilities): a double fork
 * whose middle process exits, so QEMU is reparented to the nearest
 * subreaper, hostctl (vm.c). Nothing in libvirt waits for such a process:
 * it sends a signal and polls until the pid is gone, which a zombie never
 * is. So hostctl reaps them, and only them: the exit status of a child
 * that libvirt or hostctl forked itself belongs to the code that waits
 * for it.
 *
 * Which children were adopted follows from how sessions work: a child is
 * created in its parent's session, and can leave it only by setsid(),
 * which makes it the leader of a new one. A child that is in another
 * session without leading it therefore was not forked by this process:
 * it was adopted. Pure libc.
 */
#ifndef VLALAB_REAP_H
#define VLALAB_REAP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* What the reaper reads of a process in /proc/PID/stat. */
struct reap_stat {
	pid_t pid, ppid, sid;
	char state; /* 'Z' for a zombie */
};

/*
 * Parse one /proc/PID/stat line (the command name may hold spaces and
 * parentheses). 0, or -EINVAL.
 */
int reap_stat_parse(const char *line, struct reap_stat *ret);

/*
 * True when @st is a zombie child of @self (whose session is @self_sid)
 * that it adopted: in another session, and not that session's leader.
 */
bool reap_adopted(const struct reap_stat *st, pid_t self, pid_t self_sid);

/*
 * Make this process a child subreaper and start, once, the thread that
 * reaps every process it adopts as soon as it exits. 0 or -errno.
 */
int reap_start(void);

/*
 * End the child (adopted or not) behind @pidfd as libvirt's destroy
 * begins to, with SIGTERM, and wait up to @timeout_ms for it to exit;
 * then reap it (or find the reaper did), so that its pid is gone when
 * this returns 0. libvirt's own wait looks again only every 200 ms.
 * -ETIMEDOUT when it still runs, or another negative errno (the signal
 * could not be sent).
 */
int reap_end(int pidfd, uint64_t timeout_ms);

#endif
