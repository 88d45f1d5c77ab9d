// SPDX-License-Identifier: GPL-2.0-only
/*
 * The QEMU watchdog (vm.c): a fake hostctl starts it and adds a child of
 * its own, as it adds each QEMU. While the fake hostctl lives the child
 * lives; once it is killed with SIGKILL, the child must be killed too,
 * within 5 s. A second child that exited first is no trouble.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"
#include "vm/vm.h"

/* A program, as QEMU is: exec'd, so it holds no descriptor of ours. */
static pid_t spawn_sleeper(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		execlp("sleep", "sleep", "1000", (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* The fake hostctl: the watchdog, a child that exits, one that stays. */
static void fake_hostctl(int report)
{
	pid_t gone, stays;
	int fd;

	vm_watchdog_start();
	gone = fork();
	if (gone == 0)
		_exit(0);
	fd = pidfd_open(gone, 0);
	if (fd >= 0)
		vm_watchdog_add(fd);
	stays = spawn_sleeper();
	fd = pidfd_open(stays, 0);
	if (fd < 0 || stays < 0)
		_exit(99);
	vm_watchdog_add(fd);
	if (write(report, &stays, sizeof(stays)) != sizeof(stays))
		_exit(99);
	for (;;)
		pause();
}

int main(void)
{
	struct pollfd p = { .events = POLLIN };
	siginfo_t si = { 0 };
	int fds[2], r;
	pid_t host, child;

	/* Orphans come to us, so that we can see how they ended. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0 || pipe(fds) < 0)
		return 99;
	host = fork();
	if (host == 0) {
		close(fds[0]);
		fake_hostctl(fds[1]);
	}
	close(fds[1]);
	if (host < 0 || read(fds[0], &child, sizeof(child)) != sizeof(child))
		return 99;
	p.fd = pidfd_open(child, 0);
	if (p.fd < 0)
		return 99;
	is_int(poll(&p, 1, 200), 0, "the child lives while hostctl does");
	kill(host, SIGKILL);
	waitpid(host, NULL, 0);
	r = poll(&p, 1, 5000);
	is_int(r, 1, "hostctl killed: the child ends within 5 s");
	if (r == 1)
		waitid(P_PIDFD, p.fd, &si, WEXITED);
	ok(si.si_code == CLD_KILLED && si.si_status == SIGKILL,
	   "killed by SIGKILL");
	if (r != 1)
		kill(child, SIGKILL);
	/* The watchdog itself is gone after its work. */
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	ok(errno == ECHILD, "and nothing else is left");
	return tap_done();
}
