// SPDX-License-Identifier: GPL-2.0-only
/* Small helpers shared by guestd's files: time, files, text. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guestd.h"

uint64_t guestd_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static size_t escaped_len(unsigned char c)
{
	return (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t' ? 1 : 4;
}

void util_escape(char *dst, size_t size, const char *src, size_t len,
		 size_t max_out)
{
	size_t o = 0, total = 0, limit;
	char tail[48];
	int tail_len;

	if (size == 0)
		return;
	if (max_out == 0 || max_out > size - 1)
		max_out = size - 1;
	for (size_t i = 0; i < len; i++)
		total += escaped_len((unsigned char)src[i]);
	tail_len = snprintf(tail, sizeof(tail), "... (%zu bytes)", len);
	limit = max_out;
	if (total > max_out)
		limit = max_out > (size_t)tail_len ?
				max_out - (size_t)tail_len :
				0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)src[i];

		if (o + escaped_len(c) > limit)
			break;
		if (escaped_len(c) == 1)
			dst[o++] = (char)c;
		else
			o += (size_t)snprintf(dst + o, 5, "\\x%02x", c);
	}
	if (total > max_out && o + (size_t)tail_len <= max_out) {
		memcpy(dst + o, tail, (size_t)tail_len);
		o += (size_t)tail_len;
	}
	dst[o] = '\0';
}

const char *util_errno_desc(int err)
{
	static char buf[128];

	snprintf(buf, sizeof(buf), "%s (%s)", proto_errno_name(err),
		 strerror(err));
	return buf;
}

int util_regcomp(regex_t *re, const char *pattern, char *err, size_t errlen)
{
	int r;

	if (stepspec_regex_check(pattern) < 0) {
		if (err && errlen)
			snprintf(err, errlen,
				 "would grow past %d nodes once compiled",
				 STEPSPEC_REGEX_NODES_MAX);
		return -EINVAL;
	}
	r = regcomp(re, pattern, REG_EXTENDED | REG_NEWLINE);
	if (r == 0)
		return 0;
	if (err && errlen)
		regerror(r, re, err, errlen);
	return -EINVAL;
}

void util_wait_status(int status, char *buf, size_t size)
{
	if (WIFSIGNALED(status)) {
		const char *name = sigabbrev_np(WTERMSIG(status));

		snprintf(buf, size, "killed by signal SIG%s%s",
			 name ? name : "?",
			 WCOREDUMP(status) ? " (core dumped)" : "");
	} else if (WIFEXITED(status)) {
		snprintf(buf, size, "exit status %d", WEXITSTATUS(status));
	} else {
		snprintf(buf, size, "wait status 0x%x", (unsigned int)status);
	}
}

int util_feed_lines(struct proto_linebuf *lb, bool *skip, const char *data,
		    size_t len, proto_line_cb cb, void *userdata)
{
	int ret = 0;

	while (len > 0) {
		const char *nl = memchr(data, '\n', len);
		size_t seg = nl ? (size_t)(nl - data) + 1 : len;

		if (*skip) {
			if (nl)
				*skip = false;
		} else if (proto_linebuf_feed(lb, data, seg, cb, userdata) ==
			   -E2BIG) {
			lb->len = 0;
			*skip = !nl;
			ret = -E2BIG;
		}
		data += seg;
		len -= seg;
	}
	return ret;
}

void util_fmt(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}

int util_spawn_pipe(char *const *argv, const char *dir, pid_t *ret_pid,
		    int *ret_fd)
{
	int p[2], devnull;
	pid_t pid = -1;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		int r = -errno;

		close(p[0]);
		close(p[1]);
		return r;
	}
	if (pid == 0) {
		devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (devnull < 0 || dup2(devnull, 0) < 0 || dup2(p[1], 1) < 0 ||
		    dup2(p[1], 2) < 0 || chdir(dir) < 0)
			_exit(126);
		signal(SIGPIPE, SIG_DFL);
		execv(argv[0], argv);
		dprintf(2, "cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	*ret_pid = pid;
	*ret_fd = p[0];
	return 0;
}
