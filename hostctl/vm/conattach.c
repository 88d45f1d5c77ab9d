// SPDX-License-Identifier: GPL-2.0-only
/* The console's attach socket: the run's server and the user's client. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

#include <libvirt/libvirt.h>

#include "vm/conattach.h"
#include "fileio.h"
#include "vm/vm.h"

struct conattach {
	struct vm *vm;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int lfd, lwatch; /* the listening socket */
	int cfd, cwatch; /* the attached user, or -1 */
};

int conattach_path(const char *vms_dir, const char *domain, char *buf,
		   size_t len)
{
	size_t max = sizeof(((struct sockaddr_un *)0)->sun_path);

	if (len < max)
		max = len;
	if (snprintf(buf, max, "%s/%s.con", vms_dir, domain) >= (int)max)
		return -ENAMETOOLONG;
	return 0;
}

static void user_gone(struct conattach *ca)
{
	if (ca->cwatch >= 0)
		virEventRemoveHandle(ca->cwatch);
	if (ca->cfd >= 0)
		close(ca->cfd);
	ca->cfd = ca->cwatch = -1;
}

/* What the user types, to the console. */
static void user_cb(int watch, int fd, int events, void *opaque)
{
	struct conattach *ca = opaque;
	char buf[4096];
	ssize_t n;

	(void)watch;
	n = read(fd, buf, sizeof(buf));
	if (n > 0) {
		(void)vm_console_send(ca->vm, buf, (size_t)n);
		return;
	}
	if (n < 0 && (errno == EAGAIN || errno == EINTR) &&
	    !(events & (VIR_EVENT_HANDLE_HANGUP | VIR_EVENT_HANDLE_ERROR)))
		return;
	user_gone(ca);
}

/* A user attaches: the one attached already keeps the console. */
static void listen_cb(int watch, int fd, int events, void *opaque)
{
	static const char busy[] = CONATTACH_BUSY;
	struct conattach *ca = opaque;
	int c;

	(void)watch;
	(void)events;
	c = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (c < 0)
		return;
	if (ca->cfd >= 0) {
		(void)!send(c, busy, sizeof(busy) - 1, MSG_NOSIGNAL);
		close(c);
		return;
	}
	/* A fresh socket's buffer takes the byte that says "attached". */
	if (send(c, "", 1, MSG_NOSIGNAL) != 1) {
		close(c);
		return;
	}
	ca->cwatch = virEventAddHandle(c, VIR_EVENT_HANDLE_READABLE, user_cb,
				       ca, NULL);
	if (ca->cwatch < 0) {
		close(c);
		return;
	}
	ca->cfd = c;
}

int conattach_open(struct vm *vm, const char *path, struct conattach **ret)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct conattach *ca;
	mode_t old;
	int r;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	ca = calloc(1, sizeof(*ca));
	if (!ca)
		return -ENOMEM;
	ca->vm = vm;
	ca->cfd = ca->cwatch = ca->lwatch = -1;
	snprintf(ca->path, sizeof(ca->path), "%s", path);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	ca->lfd =
		socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (ca->lfd < 0) {
		r = -errno;
		free(ca);
		return r;
	}
	unlink(path);
	/* The console is a root shell's: only its owner may attach. */
	old = umask(0177); /* 0600 */
	r = bind(ca->lfd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old);
	if (r < 0 || listen(ca->lfd, 2) < 0) {
		r = -errno;
		close(ca->lfd);
		free(ca);
		return r;
	}
	ca->lwatch = virEventAddHandle(ca->lfd, VIR_EVENT_HANDLE_READABLE,
				       listen_cb, ca, NULL);
	if (ca->lwatch < 0) {
		conattach_close(ca);
		return -ENOMEM;
	}
	*ret = ca;
	return 0;
}

void conattach_output(struct conattach *ca, const char *buf, size_t len)
{
	ssize_t n;

	if (!ca || ca->cfd < 0)
		return;
	n = send(ca->cfd, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n < 0 && errno != EAGAIN && errno != EINTR)
		user_gone(ca);
}

void conattach_close(struct conattach *ca)
{
	if (!ca)
		return;
	user_gone(ca);
	if (ca->lwatch >= 0)
		virEventRemoveHandle(ca->lwatch);
	if (ca->lfd >= 0)
		close(ca->lfd);
	unlink(ca->path);
	free(ca);
}

/* Copy what @fd has to @out; 0 at its end, 1 when more may come. */
static int pump(int fd, int out)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -errno;
	if (n == 0)
		return 0;
	return fileio_write_all(out, buf, (size_t)n) < 0 ? -EIO : 1;
}

int conattach_client(const char *path, const char *hello, char *err,
		     size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct termios saved, raw;
	bool tty = isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &saved) == 0;
	char first = '\0';
	int s, r = 0;

	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path) >=
	    (int)sizeof(sa.sun_path)) {
		snprintf(err, errlen, "'%s': path too long", path);
		return -ENAMETOOLONG;
	}
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		r = -errno;
		snprintf(err, errlen, "connecting to '%s': %s", path,
			 strerror(-r));
		if (s >= 0)
			close(s);
		return r;
	}
	/* The server's first byte: NUL when attached, else why not. */
	if (read(s, &first, 1) != 1 || first != '\0') {
		snprintf(err, errlen, "%s",
			 first == CONATTACH_BUSY[0] ?
				 "another user is attached to this console" :
				 "the console's server closed the connection");
		close(s);
		return -EBUSY;
	}
	if (tty) {
		raw = saved;
		cfmakeraw(&raw);
		tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	}
	fputs(hello, stderr);
	for (;;) {
		struct pollfd p[2] = { { .fd = STDIN_FILENO, .events = POLLIN },
				       { .fd = s, .events = POLLIN } };
		char buf[4096], *k;
		ssize_t n;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		if (p[1].revents) {
			r = pump(s, STDOUT_FILENO);
			if (r <= 0) {
				r = r == 0 ? 1 : r;
				break;
			}
			r = 0;
		}
		if (!p[0].revents)
			continue;
		n = read(STDIN_FILENO, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* Input ended: detach, as ^] would. */
			r = 0;
			break;
		}
		k = memchr(buf, CONATTACH_DETACH, (size_t)n);
		if (k)
			n = k - buf;
		if (n > 0 && fileio_write_all(s, buf, (size_t)n) < 0) {
			r = 1;
			break;
		}
		if (k) {
			r = 0;
			break;
		}
	}
	if (tty)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	close(s);
	if (r < 0)
		snprintf(err, errlen, "'%s': %s", path, strerror(-r));
	return r;
}
