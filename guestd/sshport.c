// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SSH port: dropbear in inetd mode, one per host connection to the
 * virtio-serial port PROTO_SSH_PORT_NAME, so that hostctl's shell, exec,
 * pull and push need no network in the guest.
 *
 * dropbear -i wants a socket on stdin (it asks getpeername()), so a relay
 * process copies bytes between the port and one end of a socketpair, the
 * other end being dropbear's stdin and stdout. How the port tells the
 * host's side (drivers/char/virtio_console.c): while no host end is
 * connected, poll() says POLLHUP and read() returns 0; a connection or a
 * disconnection sends SIGIO to the owner of an O_ASYNC descriptor. So the
 * relay waits for SIGIO while the port says POLLHUP, starts dropbear when
 * it stops saying so, and ends that dropbear when it says so again.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guestd.h"

#define SSH_DROPBEAR "/usr/sbin/dropbear"
#define SSH_HOST_KEY "/etc/dropbear/dropbear_ed25519_host_key"
#define SSH_BUF 65536
#define SSH_FIND_TRIES 3000 /* of 10 ms: the port comes with guestd's */

/*
 * The relay's news, to the kernel log (guestd forwards it to the host as
 * kmsg events): it has no channel of its own, and must not be silent.
 */
static __attribute__((format(printf, 1, 2))) void say(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int fd, n;

	n = snprintf(buf, sizeof(buf), "<5>guestd-ssh: ");
	va_start(ap, fmt);
	n += vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, buf, (size_t)n) < 0) {
			/* Nowhere else to say it. */
		}
		close(fd);
	}
}

struct pipebuf {
	char data[SSH_BUF];
	size_t off, len;
};

/*
 * A connected pair of loopback TCP sockets, for a kernel without AF_UNIX
 * (vlalab's config has no CONFIG_UNIX): the listener lives only until
 * its one connection is accepted, and the accepted peer must be our own
 * connecting socket.
 */
static int tcp_pair(int sv[2])
{
	struct sockaddr_in a = { .sin_family = AF_INET }, me, peer;
	socklen_t len = sizeof(a), mlen = sizeof(me), plen = sizeof(peer);
	int l, c = -1, s = -1, r = 0;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0)
		return -errno;
	if (bind(l, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(l, 1) < 0 ||
	    getsockname(l, (struct sockaddr *)&a, &len) < 0)
		r = -errno;
	if (r == 0) {
		c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a)) < 0)
			r = -errno;
	}
	if (r == 0) {
		s = accept4(l, (struct sockaddr *)&peer, &plen, SOCK_CLOEXEC);
		if (s < 0 || getsockname(c, (struct sockaddr *)&me, &mlen) < 0)
			r = -errno;
		else if (peer.sin_port != me.sin_port)
			r = -EPERM;
	}
	close(l);
	if (r < 0) {
		if (c >= 0)
			close(c);
		if (s >= 0)
			close(s);
		return r;
	}
	sv[0] = c;
	sv[1] = s;
	return 0;
}

/* The relay's end in sv[0], dropbear's in sv[1]: dropbear -i wants a
 * socket (it asks getpeername()), and pipes will not do. */
static int sock_pair(int sv[2])
{
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0)
		return 0;
	return errno == EAFNOSUPPORT ? tcp_pair(sv) : -errno;
}

static pid_t start_dropbear(int sock)
{
	sigset_t none;
	pid_t pid = fork();
	int null;

	if (pid != 0)
		return pid;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	null = open("/dev/null", O_WRONLY);
	if (dup2(sock, 0) < 0 || dup2(sock, 1) < 0 ||
	    (null >= 0 && dup2(null, 2) < 0))
		_exit(127);
	/* -i inetd mode, -s no passwords, -j -k no forwarding. */
	execl(SSH_DROPBEAR, "dropbear", "-i", "-s", "-j", "-k", "-r",
	      SSH_HOST_KEY, (char *)NULL);
	_exit(127);
}

/* Move what @b holds to @fd; -EPIPE when @fd is gone. */
static int drain(struct pipebuf *b, int fd)
{
	ssize_t n = write(fd, b->data + b->off, b->len - b->off);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -EPIPE;
	b->off += (size_t)n;
	if (b->off == b->len)
		b->off = b->len = 0;
	return 0;
}

/* Read into @b from @fd; 1 at end of file. */
static int fill(struct pipebuf *b, int fd)
{
	ssize_t n = read(fd, b->data + b->len, sizeof(b->data) - b->len);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	if (n == 0)
		return 1;
	b->len += (size_t)n;
	return 0;
}

/*
 * Copy between the port and dropbear's socket until either ends: the host
 * end going (POLLHUP) or dropbear leaving (end of file on its socket).
 * @up may hold what the host sent after the preamble.
 */
static void pump(int port, int sock, struct pipebuf *up, struct pipebuf *down)
{
	down->off = down->len = 0;
	for (;;) {
		struct pollfd p[2] = { { .fd = port }, { .fd = sock } };

		if (up->len < sizeof(up->data))
			p[0].events |= POLLIN;
		if (down->len)
			p[0].events |= POLLOUT;
		if (down->len < sizeof(down->data))
			p[1].events |= POLLIN;
		if (up->len)
			p[1].events |= POLLOUT;
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (p[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			return;
		if ((p[0].revents & POLLOUT) && drain(down, port) < 0)
			return;
		if ((p[0].revents & POLLIN) && fill(up, port) != 0)
			return;
		if ((p[1].revents & POLLOUT) && drain(up, sock) < 0)
			return;
		if ((p[1].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    fill(down, sock) != 0)
			return;
	}
}

/*
 * Until a host end sends SSHPORT_PREAMBLE: what came before it (the tail
 * of an earlier connection) is dropped, what comes after it goes to @up.
 * The preamble marks where a connection starts in the byte stream, which
 * the port's POLLHUP cannot: a disconnect and the next connect may both
 * come between two polls. Without a host end (POLLHUP, read() 0) the
 * relay sleeps until SIGIO says the host end changed.
 */
static int wait_preamble(int port, const sigset_t *sigio, struct pipebuf *up)
{
	const size_t plen = strlen(SSHPORT_PREAMBLE);
	char buf[512];
	size_t have = 0;

	for (;;) {
		struct pollfd p = { .fd = port, .events = POLLIN };
		ssize_t n = 0;
		char *at;

		if (poll(&p, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (p.revents & POLLNVAL)
			return -EBADF;
		if (p.revents & POLLIN) {
			n = read(port, buf + have, sizeof(buf) - have);
			if (n < 0 && errno != EAGAIN && errno != EINTR)
				return -errno;
		}
		if (n > 0) {
			have += (size_t)n;
			at = memmem(buf, have, SSHPORT_PREAMBLE, plen);
			if (at) {
				size_t rest = have - (size_t)(at - buf) - plen;

				memcpy(up->data, at + plen, rest);
				up->off = 0;
				up->len = rest;
				return 0;
			}
			/* Keep what could be the preamble's start. */
			if (have >= plen) {
				memmove(buf, buf + have - (plen - 1), plen - 1);
				have = plen - 1;
			}
			continue;
		}
		if ((p.revents & POLLHUP) && sigwaitinfo(sigio, NULL) < 0 &&
		    errno != EINTR)
			return -errno;
	}
}

static __attribute__((noreturn)) void relay(void)
{
	static struct pipebuf up, down;
	char path[512];
	sigset_t sigio;
	int port = -1, r = -ENOENT;
	char seed;

	setsid();
	for (int i = 0; i < SSH_FIND_TRIES; i++) {
		r = port_find("/sys/class/virtio-ports", "/dev",
			      PROTO_SSH_PORT_NAME, path, sizeof(path));
		if (r == 0)
			break;
		step_msleep(10);
	}
	if (r == 0)
		port = open(path, O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (port < 0) {
		say("no port '%s': %s", PROTO_SSH_PORT_NAME,
		    util_errno_desc(r < 0 ? -r : errno));
		_exit(1);
	}
	sigemptyset(&sigio);
	sigaddset(&sigio, SIGIO);
	sigprocmask(SIG_BLOCK, &sigio, NULL);
	if (fcntl(port, F_SETOWN, getpid()) < 0 ||
	    fcntl(port, F_SETFL, fcntl(port, F_GETFL) | O_ASYNC) < 0) {
		say("O_ASYNC on '%s': %s", path, util_errno_desc(errno));
		_exit(1);
	}
	/*
	 * dropbear polls getrandom(GRND_NONBLOCK) until the kernel's RNG is
	 * ready, which in an idle TCG guest without input may be never: only
	 * a blocking getrandom() makes the kernel gather jitter entropy at
	 * once. So the relay blocks on it first (about a second under TCG).
	 */
	while (getrandom(&seed, sizeof(seed), 0) < 0 && errno == EINTR)
		;
	say("listening on %s", path);
	for (;;) {
		int sv[2];
		pid_t pid;

		r = wait_preamble(port, &sigio, &up);
		if (r == 0)
			r = sock_pair(sv);
		if (r < 0) {
			say("giving up: %s", util_errno_desc(-r));
			_exit(1);
		}
		fcntl(sv[0], F_SETFL, O_NONBLOCK);
		pid = start_dropbear(sv[1]);
		close(sv[1]);
		say("host connected: dropbear %d", (int)pid);
		if (pid > 0)
			pump(port, sv[0], &up, &down);
		close(sv[0]);
		if (pid > 0) {
			int status = 0;

			kill(pid, SIGTERM);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			/* dropbear that could not run exits 127. */
			if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
				say("dropbear did not run");
		} else {
			say("fork: %s", util_errno_desc(errno));
		}
	}
}

pid_t sshport_start(void)
{
	pid_t pid;

	if (access(SSH_DROPBEAR, X_OK) < 0 || access(SSH_HOST_KEY, R_OK) < 0)
		return -ENOENT;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		relay();
	return pid;
}
