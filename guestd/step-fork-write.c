// SPDX-License-Identifier: GPL-2.0-only
/*
 * fork_write: a write step done by a fresh child process, the way
 * `echo value | cat > path` does it. The kernel sees a new pid for each
 * one: LKDTM's REPORT_STACK_CANARY compares the canaries of two different
 * pids, and refuses a second call from the same one. The child runs the
 * write step's own code and hands its result back through a pipe; a child
 * the kernel kills (an oops in the write) fails the step.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guestd.h"

/* The child's side: run the write and send the whole result back. */
static __attribute__((noreturn)) void
fork_write_child(struct step_ctx *ctx, struct json_object *step, int fd)
{
	static struct step_result res;

	if (step_write.run(ctx, step, &res) < 0)
		_exit(2);
	_exit(fileio_write_all(fd, &res, sizeof(res)) < 0 ? 3 : 0);
}

/* Read exactly @len bytes; returns how many came before EOF or an error. */
static size_t read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = read(fd, (char *)buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got;
}

static int fork_write_run(struct step_ctx *ctx, struct json_object *step,
			  struct step_result *res)
{
	static struct step_result child_res;
	char how[96];
	size_t got;
	int p[2], status;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		int err = errno;

		close(p[0]);
		close(p[1]);
		return -err;
	}
	if (pid == 0) {
		close(p[0]);
		fork_write_child(ctx, step, p[1]);
	}
	close(p[1]);
	got = read_full(p[0], &child_res, sizeof(child_res));
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;

	if (got == sizeof(child_res) && WIFEXITED(status) &&
	    WEXITSTATUS(status) == 0) {
		*res = child_res;
		return 0;
	}
	util_wait_status(status, how, sizeof(how));
	res->verdict = VERDICT_FAIL;
	step_expected(res, "the writer to exit");
	step_got(res, "writer pid %d %s", (int)pid, how);
	snprintf(res->reason, sizeof(res->reason),
		 "writing to '%s' from a child process",
		 step_str(step, "path"));
	return 0;
}

const struct step_ops step_fork_write = {
	.name = "fork_write",
	.run = fork_write_run,
};
