// SPDX-License-Identifier: GPL-2.0-only
/*
 * The guest's interactive shell (sshc.h: sshc_shell()), on the session
 * sshc.c opened: a pty of the terminal's size (resized on SIGWINCH), the
 * terminal raw meanwhile, and the "~." escape (shell-escape.c) to leave.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <termios.h>
#include <unistd.h>

#include <libssh/libssh.h>

#include "live/shell-escape.h"
#include "live/sshc.h"
#include "live/sshc-priv.h"

/* The terminal's size, or 80x24 for a terminal that does not say. */
static void term_size(int fd, int *cols, int *rows)
{
	struct winsize ws;

	*cols = 80;
	*rows = 24;
	if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col && ws.ws_row) {
		*cols = ws.ws_col;
		*rows = ws.ws_row;
	}
}

/* Typed bytes to the channel, through the "~." escape; 1 to leave. */
static int shell_input(ssh_channel ch, struct escape *esc)
{
	char in[4096], out[sizeof(in) + 1];
	bool quit;
	ssize_t n = read(STDIN_FILENO, in, sizeof(in));
	size_t len;

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 : -errno;
	if (n == 0) {
		ssh_channel_send_eof(ch);
		return 2;
	}
	len = escape_feed(esc, in, (size_t)n, out, &quit);
	if (len && ssh_channel_write(ch, out, (uint32_t)len) != (int)len)
		return -EIO;
	return quit ? 1 : 0;
}

int sshc_shell(struct sshc *c, int *ret_status, char *err, size_t errlen)
{
	ssh_channel ch = ssh_channel_new(c->s);
	bool tty = isatty(STDIN_FILENO), raw = false, in_open = true;
	const char *term = getenv("TERM");
	struct termios saved, t;
	struct escape esc;
	sigset_t winch;
	int sfd = -1, r = 0, cols, rows, st;

	escape_init(&esc);
	if (!ch) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	term_size(STDIN_FILENO, &cols, &rows);
	if (ssh_channel_open_session(ch) != SSH_OK ||
	    (tty && ssh_channel_request_pty_size(ch, term ? term : "vt100",
						 cols, rows) != SSH_OK) ||
	    ssh_channel_request_shell(ch) != SSH_OK) {
		snprintf(err, errlen, "starting the shell: %s",
			 ssh_get_error(c->s));
		r = -EIO;
		goto out;
	}
	sigemptyset(&winch);
	sigaddset(&winch, SIGWINCH);
	sigprocmask(SIG_BLOCK, &winch, NULL);
	sfd = signalfd(-1, &winch, SFD_CLOEXEC | SFD_NONBLOCK);
	if (tty && tcgetattr(STDIN_FILENO, &saved) == 0) {
		t = saved;
		cfmakeraw(&t);
		raw = tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0;
	}
	for (;;) {
		struct pollfd p[3] = {
			{ .fd = in_open ? STDIN_FILENO : -1, .events = POLLIN },
			{ .fd = ssh_get_fd(c->s), .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};

		/* What libssh holds already, before waiting for more. */
		r = sshc_copy_stream(ch, 0, STDOUT_FILENO);
		if (r == 0)
			r = sshc_copy_stream(ch, 1, STDOUT_FILENO);
		if (r < 0) {
			snprintf(err, errlen, "the connection broke: %s",
				 ssh_get_error(c->s));
			break;
		}
		if (r == 1 || ssh_channel_is_eof(ch) ||
		    ssh_channel_is_closed(ch)) {
			r = 0;
			break;
		}
		if (poll(p, 3, -1) < 0 && errno != EINTR) {
			r = -errno;
			snprintf(err, errlen, "poll: %s", strerror(-r));
			break;
		}
		if (p[2].revents & POLLIN) {
			struct signalfd_siginfo si;

			while (read(sfd, &si, sizeof(si)) == sizeof(si))
				;
			term_size(STDIN_FILENO, &cols, &rows);
			ssh_channel_change_pty_size(ch, cols, rows);
		}
		if (p[0].revents & (POLLIN | POLLHUP)) {
			r = shell_input(ch, &esc);
			if (r == 2) {
				in_open = false;
				r = 0;
			} else if (r == 1) {
				/* ~. : leave the guest's shell behind. */
				ssh_channel_close(ch);
				break;
			} else if (r < 0) {
				snprintf(err, errlen,
					 "the connection broke: %s",
					 ssh_get_error(c->s));
				break;
			}
		}
		if (p[1].revents & (POLLHUP | POLLERR)) {
			r = -EPIPE;
			snprintf(err, errlen,
				 "the guest closed the connection");
			break;
		}
	}
	if (raw)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	if (sfd >= 0)
		close(sfd);
	sigprocmask(SIG_UNBLOCK, &winch, NULL);
	if (r == 1) {
		*ret_status = 255;
		r = 0;
	} else if (r == 0) {
		st = ssh_channel_get_exit_status(ch);
		*ret_status = st < 0 || st > 255 ? 255 : st;
	}
out:
	ssh_channel_close(ch);
	ssh_channel_free(ch);
	return r;
}
