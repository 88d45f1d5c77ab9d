// SPDX-License-Identifier: GPL-2.0-only
/*
 * exec: a command line run by /bin/sh -c in /root, standard input
 * /dev/null, its standard output and error each on a pipe that goes to the
 * host as "output" events as it comes (a line at a time, or
 * PROTO_OUTPUT_MAX - 1 bytes of a longer one), at most EXEC_OUTPUT_MAX
 * bytes in all; the rest is read and dropped, and the step says how much.
 * The step passes when the command exits 0; otherwise it fails, and got
 * says "exit status N" or "killed by signal N (SIGNAME)", which hostctl
 * run --exec turns into its own exit code.
 *
 * The shell stays in the scenario's process group, so that the step's
 * timeout, which kills that group, ends it and whatever it started.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guestd.h"

/* Bytes of output sent to the host, at most, per step. */
#define EXEC_OUTPUT_MAX (1024 * 1024)

/* One of the command's two streams: its pipe and the piece not sent yet. */
struct exec_stream {
	int fd; /* -1 once at its end */
	bool err;
	char buf[PROTO_OUTPUT_MAX];
	size_t len;
};

struct exec_run {
	struct step_ctx *ctx;
	struct exec_stream s[2];
	uint64_t sent, dropped;
};

static void send_piece(struct exec_run *x, struct exec_stream *s, size_t n)
{
	if (x->sent + n > EXEC_OUTPUT_MAX) {
		x->dropped += n;
	} else {
		x->sent += n;
		if (x->ctx->output)
			x->ctx->output(x->ctx->output_data, x->ctx->step,
				       s->err, s->buf, n);
	}
	memmove(s->buf, s->buf + n, s->len - n);
	s->len -= n;
}

/* Send what @s holds: each whole line, and a full buffer (or, with
 * @all, the rest) as it is. */
static void flush_stream(struct exec_run *x, struct exec_stream *s, bool all)
{
	char *nl;

	while (s->len) {
		nl = memchr(s->buf, '\n', s->len);
		if (nl)
			send_piece(x, s, (size_t)(nl - s->buf) + 1);
		else if (all || s->len == sizeof(s->buf) - 1)
			send_piece(x, s, s->len);
		else
			return;
	}
}

/* Read what @s has now. 0, or -errno. */
static int read_stream(struct exec_run *x, struct exec_stream *s)
{
	ssize_t n;

	n = read(s->fd, s->buf + s->len, sizeof(s->buf) - 1 - s->len);
	if (n < 0 && errno == EINTR)
		return 0;
	if (n < 0)
		return -errno;
	if (n == 0) {
		flush_stream(x, s, true);
		close(s->fd);
		s->fd = -1;
		return 0;
	}
	s->len += (size_t)n;
	flush_stream(x, s, false);
	return 0;
}

/* Fork /bin/sh -c @cmd, its output on @out[1] and @err[1]. */
static pid_t spawn(const char *cmd, const int out[2], const int err[2])
{
	pid_t pid = fork();
	int devnull;

	if (pid != 0)
		return pid;
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(out[1], 1) < 0 ||
	    dup2(err[1], 2) < 0)
		_exit(126);
	if (chdir("/root") < 0 && chdir("/") < 0)
		_exit(126);
	signal(SIGPIPE, SIG_DFL);
	execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
	dprintf(2, "cannot run '/bin/sh': %s\n", strerror(errno));
	_exit(127);
}

static int drain(struct exec_run *x)
{
	struct pollfd pfd[2];
	int r;

	while (x->s[0].fd >= 0 || x->s[1].fd >= 0) {
		for (int i = 0; i < 2; i++)
			pfd[i] = (struct pollfd){ .fd = x->s[i].fd,
						  .events = POLLIN };
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (int i = 0; i < 2; i++) {
			if (x->s[i].fd < 0 || !pfd[i].revents)
				continue;
			r = read_stream(x, &x->s[i]);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

static int run_exec(struct step_ctx *ctx, struct json_object *step,
		    struct step_result *res)
{
	static struct exec_run x;
	const char *cmd = step_str(step, "command");
	int out[2], err[2], status, r;
	pid_t pid;

	memset(&x, 0, sizeof(x));
	x.ctx = ctx;
	if (pipe2(out, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(err, O_CLOEXEC) < 0) {
		r = -errno;
		close(out[0]);
		close(out[1]);
		return r;
	}
	pid = spawn(cmd, out, err);
	close(out[1]);
	close(err[1]);
	if (pid < 0) {
		r = -errno;
		close(out[0]);
		close(err[0]);
		return r;
	}
	x.s[0] = (struct exec_stream){ .fd = out[0] };
	x.s[1] = (struct exec_stream){ .fd = err[0], .err = true };
	r = drain(&x);
	for (int i = 0; i < 2; i++)
		if (x.s[i].fd >= 0)
			close(x.s[i].fd);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (r < 0)
		return r;
	step_expected(res, "exit status 0");
	if (WIFSIGNALED(status))
		step_got(res, "killed by signal %d (SIG%s)", WTERMSIG(status),
			 sigabbrev_np(WTERMSIG(status)) ?
				 sigabbrev_np(WTERMSIG(status)) :
				 "?");
	else
		step_got(res, "exit status %d", WEXITSTATUS(status));
	if (x.dropped)
		util_fmt(res->reason, sizeof(res->reason),
			 "output cut after %d bytes: %llu bytes not sent",
			 EXEC_OUTPUT_MAX, (unsigned long long)x.dropped);
	res->verdict = WIFEXITED(status) && WEXITSTATUS(status) == 0 ?
			       VERDICT_PASS :
			       VERDICT_FAIL;
	return 0;
}

const struct step_ops step_exec = {
	.name = "exec",
	.run = run_exec,
};
