// SPDX-License-Identifier: GPL-2.0-only
/*
 * The QEMU watchdog (vm.h): a process that kills the QEMUs hostctl
 * adopted when hostctl dies, however it dies.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "vm/vm.h"

/*
 * QEMUs outlive a hostctl killed with SIGKILL: with the embedded driver
 * they are daemonized children of hostctl, and nothing of libvirt's runs
 * to destroy them (its auto-destroy needs the process alive). A watchdog
 * process, forked before libvirt starts a thread, holds one end of a
 * socket pair and a pidfd of each QEMU that hostctl adopted (sent over
 * the socket), in a session of its own. When hostctl dies, however it
 * dies (its whole process group killed too), the socket's other end
 * closes, and the watchdog kills every QEMU it holds that still runs, and
 * exits. A pidfd names one process, so a reused pid is never hit.
 */
#define WATCHDOG_MAX 1024
static int watchdog_fd = -1;

static void watchdog(int sock)
{
	struct pollfd pfd[WATCHDOG_MAX + 1] = { { .fd = sock,
						  .events = POLLIN } };
	size_t n = 1;

	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	prctl(PR_SET_NAME, "hostctl-watch");
	for (;;) {
		union {
			struct cmsghdr h;
			char buf[CMSG_SPACE(sizeof(int))];
		} cm;
		char byte;
		struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
		struct msghdr msg = { .msg_iov = &iov,
				      .msg_iovlen = 1,
				      .msg_control = cm.buf,
				      .msg_controllen = sizeof(cm.buf) };
		struct cmsghdr *c;
		ssize_t got;
		int fd;

		if (poll(pfd, n, -1) < 0 && errno != EINTR)
			break;
		/* A QEMU that exited: forget it. */
		for (size_t i = 1; i < n; i++) {
			if (!pfd[i].revents)
				continue;
			close(pfd[i].fd);
			pfd[i--] = pfd[--n];
		}
		if (!pfd[0].revents)
			continue;
		got = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break; /* hostctl is gone */
		c = CMSG_FIRSTHDR(&msg);
		if (!c || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len != CMSG_LEN(sizeof(int)))
			continue;
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
		if (n == WATCHDOG_MAX + 1) {
			close(fd); /* more QEMUs at once than any run has */
			continue;
		}
		pfd[n].fd = fd;
		pfd[n].events = POLLIN;
		pfd[n++].revents = 0;
	}
	for (size_t i = 1; i < n; i++)
		pidfd_send_signal(pfd[i].fd, SIGKILL, NULL, 0);
	_exit(0);
}

void vm_watchdog_start(void)
{
	int sv[2];
	pid_t pid;

	if (watchdog_fd >= 0 ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		int null;

		/* A session of its own: a SIGKILL to hostctl's process
		 * group (a shell's job, a test runner's timeout) must not
		 * take the watchdog with it. */
		setsid();
		/* Hold nothing of hostctl's, not even its output: its locks
		 * and pipes go with it. */
		if (sv[1] > 3)
			close_range(3, (unsigned int)sv[1] - 1, 0);
		close_range((unsigned int)sv[1] + 1, ~0U, 0);
		null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
			close(null);
		}
		watchdog(sv[1]);
	}
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return;
	}
	watchdog_fd = sv[0];
}

void vm_watchdog_add(int pidfd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} cm = { 0 };
	char byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = cm.buf,
			      .msg_controllen = sizeof(cm.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	if (watchdog_fd < 0)
		return;
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &pidfd, sizeof(int));
	while (sendmsg(watchdog_fd, &msg, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
}
