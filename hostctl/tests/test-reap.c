// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/reap.c: /proc/PID/stat parsed, the rule for an
 * adopted child, and the reaper itself on real processes: a daemonized
 * grandchild (as libvirt starts QEMU) is gone as soon as it exits, while
 * the exit status of every child this process forked itself, in its
 * session or in a session of its own, is left for its own waitpid().
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vm/reap.h"
#include "tap.h"

static void test_parse(void)
{
	struct reap_stat st;

	is_int(reap_stat_parse("4242 (qemu-system-x86) Z 17 4200 4200 0 -1",
			       &st),
	       0, "a zombie's line");
	is_int(st.pid, 4242, "its pid");
	is_int(st.ppid, 17, "its parent");
	is_int(st.sid, 4200, "its session");
	is_int(st.state, 'Z', "its state");
	is_int(reap_stat_parse("7 (a) b) (c) S 1 7 7 0", &st), 0,
	       "a name with parentheses and spaces");
	is_int(st.ppid, 1, "...is skipped whole");
	is_int(reap_stat_parse("7 (a", &st), -EINVAL, "a cut line");
	is_int(reap_stat_parse("", &st), -EINVAL, "an empty one");
}

static void test_rule(void)
{
	struct reap_stat adopted = { .pid = 30, .ppid = 10, .sid = 20,
				     .state = 'Z' };
	struct reap_stat st;

	ok(reap_adopted(&adopted, 10, 10), "a daemon's zombie: adopted");
	st = adopted;
	st.state = 'S';
	ok(!reap_adopted(&st, 10, 10), "...not while it runs");
	st = adopted;
	st.sid = 10;
	ok(!reap_adopted(&st, 10, 10), "our session: forked by us");
	st = adopted;
	st.sid = st.pid;
	ok(!reap_adopted(&st, 10, 10), "a session leader: forked by us");
	st = adopted;
	st.ppid = 11;
	ok(!reap_adopted(&st, 10, 10), "another's child");
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The daemon's go signal: its write end, which children must not hold. */
static int go_w = -1;

/* A child that exits with @code after @ms, in a session of its own or not. */
static pid_t child(int code, int ms, int own_session)
{
	pid_t pid = fork();

	if (pid == 0) {
		close(go_w);
		if (own_session)
			setsid();
		usleep(ms * 1000);
		_exit(code);
	}
	return pid;
}

static void test_reaper(void)
{
	int go[2], tell[2], status = 0;
	pid_t mid, daemon_pid = 0, plain, leader;
	double t;

	is_int(reap_start(), 0, "the reaper starts");
	is_int(reap_start(), 0, "...once");
	if (pipe(go) < 0 || pipe(tell) < 0) {
		ok(0, "pipe");
		return;
	}
	/* libvirt's daemonize: the middle process leads a session, and
	 * exits; the daemon is adopted. */
	mid = fork();
	if (mid == 0) {
		pid_t d;

		setsid();
		d = fork();
		if (d == 0) {
			char c;

			close(go[1]);
			/* Wait to be told, then exit: a zombie to reap. */
			while (read(go[0], &c, 1) < 0 && errno == EINTR)
				;
			_exit(0);
		}
		if (write(tell[1], &d, sizeof(d)) != sizeof(d))
			_exit(1);
		_exit(3);
	}
	close(tell[1]);
	if (read(tell[0], &daemon_pid, sizeof(daemon_pid)) !=
	    sizeof(daemon_pid)) {
		ok(0, "reading the daemon's pid");
		return;
	}
	/* Let the reaper see the middle one's zombie first. */
	usleep(100 * 1000);
	ok(waitpid(mid, &status, 0) == mid && WIFEXITED(status) &&
		   WEXITSTATUS(status) == 3,
	   "a child that leads its own session is ours to wait for");
	close(go[0]);
	close(tell[0]);
	go_w = go[1];
	plain = child(5, 50, 0);
	leader = child(9, 50, 1);
	close(go[1]); /* the daemon exits */
	t = now();
	while (kill(daemon_pid, 0) == 0 && now() - t < 5)
		usleep(5 * 1000);
	ok(kill(daemon_pid, 0) < 0 && errno == ESRCH,
	   "the adopted daemon is reaped as it exits");
	printf("# gone after %.0f ms\n", (now() - t) * 1000);
	/* Both children exited long ago: their statuses are still here. */
	usleep(300 * 1000);
	ok(waitpid(plain, &status, 0) == plain && WEXITSTATUS(status) == 5,
	   "a child in our session keeps its status for us");
	ok(waitpid(leader, &status, 0) == leader && WEXITSTATUS(status) == 9,
	   "so does one that became a session leader");
}

/* A child that waits to be killed, ignoring SIGTERM with @deaf. */
static pid_t idle_child(bool deaf)
{
	int sync[2];
	pid_t pid;
	char c;

	if (pipe(sync) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		if (deaf)
			signal(SIGTERM, SIG_IGN);
		if (write(sync[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(sync[1]);
	/* Its SIGTERM handling is in place once it says so. */
	while (pid > 0 && read(sync[0], &c, 1) < 0 && errno == EINTR)
		;
	close(sync[0]);
	return pid;
}

/*
 * reap_end(), as vm_destroy() ends QEMU before libvirt's destroy: a child
 * that ends on SIGTERM is reaped when it returns, so that its pid is gone
 * (libvirt's destroy then finds it so at once); one that ignores SIGTERM
 * still runs after the bound, left to libvirt's SIGKILL.
 */
static void test_end(void)
{
	int pidfd, status;
	pid_t pid;
	double t;

	pid = idle_child(false);
	pidfd = pid > 0 ? pidfd_open(pid, 0) : -1;
	if (pidfd < 0) {
		ok(0, "a child and its pidfd");
		return;
	}
	t = now();
	is_int(reap_end(pidfd, 10000), 0, "a child ended by SIGTERM");
	ok(kill(pid, 0) < 0 && errno == ESRCH,
	   "...is reaped: its pid is gone when reap_end() returns");
	printf("# gone after %.0f ms\n", (now() - t) * 1000);
	is_int(reap_end(pidfd, 10000), 0, "again: gone is gone");
	close(pidfd);

	pid = idle_child(true);
	pidfd = pid > 0 ? pidfd_open(pid, 0) : -1;
	if (pidfd < 0) {
		ok(0, "a deaf child and its pidfd");
		return;
	}
	t = now();
	is_int(reap_end(pidfd, 300), -ETIMEDOUT,
	       "a child that ignores SIGTERM: -ETIMEDOUT");
	ok(now() - t >= 0.29, "...after the bound");
	ok(kill(pid, 0) == 0, "...and it still runs, for libvirt to kill");
	kill(pid, SIGKILL);
	ok(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status),
	   "...by SIGKILL");
	close(pidfd);
}

int main(void)
{
	test_parse();
	test_rule();
	test_reaper();
	test_end();
	return tap_done();
}
