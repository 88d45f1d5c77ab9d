// SPDX-License-Identifier: GPL-2.0-only
/*
 * The SSH port: dropbear in inetd mode, one per host connection to the
 * virtio-serial port PROTO_SSH_PORT_NAME, so that hostctl's shell, exec,
 * pull and push need no network in the guest.
 *
 * dropbear -i wants a socket on stdin (it asks getpeername()), so a relay
 * process copies bytes between the port and one end of a socketpair, the
 * other end being dropbear's stdin and stdout.
 *
 * Where one host connection ends and the next begins is marked in the
 * byte stream by SSHPORT_PREAMBLE, which hostctl sends first, and by
 * nothing else. The port's own news (drivers/char/virtio_console.c:
 * POLLHUP while no host end is connected, SIGIO to the owner of an
 * O_ASYNC descriptor when that changes) comes on the control queue, and
 * the data on another: a close of the previous connection can be seen
 * after the first bytes of the next, so POLLHUP may be stale and the
 * port need not say POLLHUP at all between two connections. The relay
 * uses POLLHUP only to sleep until SIGIO; a dropbear lasts until it
 * leaves or the next preamble comes.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
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

/* The last bytes from the host, which may start a preamble. */
struct pretail {
	char data[sizeof(SSHPORT_PREAMBLE)];
	size_t len;
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
 * Where a preamble ends in @buf (@n bytes that follow what @tail holds of
 * the stream before them), or 0 when none does. @tail then keeps the last
 * bytes of the stream that could start a preamble.
 */
static size_t preamble_end(struct pretail *tail, const char *buf, size_t n)
{
	const size_t plen = strlen(SSHPORT_PREAMBLE);
	char join[2 * sizeof(SSHPORT_PREAMBLE)];
	size_t head = n < plen - 1 ? n : plen - 1, keep;
	const char *at;

	/* A preamble across the boundary with what came before @buf. */
	memcpy(join, tail->data, tail->len);
	memcpy(join + tail->len, buf, head);
	at = memmem(join, tail->len + head, SSHPORT_PREAMBLE, plen);
	if (at)
		return (size_t)(at - join) + plen - tail->len;
	at = memmem(buf, n, SSHPORT_PREAMBLE, plen);
	if (at)
		return (size_t)(at - buf) + plen;
	/* Keep the last plen - 1 bytes of tail + buf. */
	if (n >= plen - 1) {
		memcpy(tail->data, buf + n - (plen - 1), plen - 1);
		tail->len = plen - 1;
	} else {
		keep = tail->len + n > plen - 1 ? plen - 1 - n : tail->len;
		memmove(tail->data, tail->data + tail->len - keep, keep);
		memcpy(tail->data + keep, buf, n);
		tail->len = keep + n;
	}
	return 0;
}

/* What the relay carries from one connection to the next. */
struct relay {
	int port;
	sigset_t sigio_on; /* the mask that lets SIGIO in, for ppoll() */
	struct pipebuf up, down;
	struct pretail tail;
};

/*
 * Copy between the port and dropbear's socket @sock until dropbear has
 * left (0: end of file on @sock, and what it wrote before is sent) or the
 * next connection's preamble comes (1, with what followed it in @r->up).
 * With @sock -1 there is no connection yet: what comes before the
 * preamble is dropped. Otherwise @r->up may hold what the host sent after
 * this connection's hello, and @r->down the hello's echo.
 */
static int pump(struct relay *r, int sock)
{
	struct pipebuf *up = &r->up, *down = &r->down;
	bool hup = false, left = false;
	int n;

	if (sock < 0)
		up->off = up->len = down->off = down->len = 0;
	for (;;) {
		struct pollfd p[2] = { { .fd = hup ? -1 : r->port },
				       { .fd = left ? -1 : sock } };
		size_t was, end;

		if (left && !down->len)
			return 0;
		if (up->len < sizeof(up->data))
			p[0].events |= POLLIN;
		if (down->len)
			p[0].events |= POLLOUT;
		if (down->len < sizeof(down->data))
			p[1].events |= POLLIN;
		if (up->len)
			p[1].events |= POLLOUT;
		/* While the port says no host end, sleep until SIGIO. */
		if (ppoll(p, 2, NULL, &r->sigio_on) < 0) {
			if (errno != EINTR)
				return -errno;
			hup = false;
			continue;
		}
		if (p[0].revents & (POLLERR | POLLNVAL))
			return -EIO;
		if ((p[0].revents & POLLOUT) && drain(down, r->port) < 0)
			return -EIO;
		if (p[0].revents & POLLIN) {
			was = up->len;
			n = fill(up, r->port);
			if (n < 0)
				return -EIO;
			/* read() says 0 while no host end is connected. */
			hup = n == 1;
			end = preamble_end(&r->tail, up->data + was,
					   up->len - was);
			if (end) {
				/* This connection's bytes are dropped. */
				memmove(up->data, up->data + was + end,
					up->len - was - end);
				up->off = 0;
				up->len -= was + end;
				return 1;
			}
			if (sock < 0 || left)
				up->off = up->len = 0;
		} else if (p[0].revents & POLLHUP) {
			hup = true;
		}
		if ((p[1].revents & POLLOUT) && drain(up, sock) < 0)
			left = true;
		if ((p[1].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    fill(down, sock) != 0)
			left = true;
	}
}

/*
 * The rest of the host's hello after its preamble: the nonce line, which
 * came in the same write. It goes back to the host in @r->down, ahead of
 * dropbear's bytes, and what follows it stays in @r->up. -EPROTO for a
 * hello that is not one.
 */
static int take_hello(struct relay *r)
{
	const size_t plen = strlen(SSHPORT_PREAMBLE);
	const size_t rest = SSHPORT_NONCE_LEN + 1;
	struct pipebuf *up = &r->up, *down = &r->down;

	while (up->len < rest) {
		struct pollfd p = { .fd = r->port, .events = POLLIN };
		int n;

		if (ppoll(&p, 1, NULL, &r->sigio_on) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (p.revents & (POLLERR | POLLNVAL))
			return -EIO;
		n = fill(up, r->port);
		if (n < 0)
			return n;
		/* No host end, and nothing left of what it sent. */
		if (n == 1)
			return -EPROTO;
	}
	for (size_t i = 0; i < SSHPORT_NONCE_LEN; i++)
		if (!strchr("0123456789abcdef", up->data[i]) ||
		    up->data[i] == '\0')
			return -EPROTO;
	if (up->data[SSHPORT_NONCE_LEN] != '\n')
		return -EPROTO;
	memcpy(down->data, SSHPORT_PREAMBLE, plen);
	memcpy(down->data + plen, up->data, rest);
	down->off = 0;
	down->len = plen + rest;
	memmove(up->data, up->data + rest, up->len - rest);
	up->len -= rest;
	return 0;
}

static void sigio_wake(int sig)
{
	(void)sig;
}

static __attribute__((noreturn)) void relay(void)
{
	static struct relay rl;
	const struct sigaction wake = { .sa_handler = sigio_wake };
	char path[512];
	sigset_t sigio;
	int r = -ENOENT;
	char seed;

	setsid();
	for (int i = 0; i < SSH_FIND_TRIES; i++) {
		r = port_find("/sys/class/virtio-ports", "/dev",
			      PROTO_SSH_PORT_NAME, path, sizeof(path));
		if (r == 0)
			break;
		step_msleep(10);
	}
	rl.port = r == 0 ? open(path,
				O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) :
			   -1;
	if (rl.port < 0) {
		say("no port '%s': %s", PROTO_SSH_PORT_NAME,
		    util_errno_desc(r < 0 ? -r : errno));
		_exit(1);
	}
	/* SIGIO is let in only inside ppoll(), so none is missed. */
	sigemptyset(&sigio);
	sigaddset(&sigio, SIGIO);
	sigprocmask(SIG_BLOCK, &sigio, &rl.sigio_on);
	sigdelset(&rl.sigio_on, SIGIO);
	if (sigaction(SIGIO, &wake, NULL) < 0 ||
	    fcntl(rl.port, F_SETOWN, getpid()) < 0 ||
	    fcntl(rl.port, F_SETFL, fcntl(rl.port, F_GETFL) | O_ASYNC) < 0) {
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
	r = pump(&rl, -1);
	while (r == 1) {
		int sv[2], status = 0;
		pid_t pid;

		r = take_hello(&rl);
		if (r == -EPROTO) {
			say("not a hello after the preamble: dropped");
			r = pump(&rl, -1);
			continue;
		}
		if (r == 0)
			r = sock_pair(sv);
		if (r < 0)
			break;
		fcntl(sv[0], F_SETFL, O_NONBLOCK);
		pid = start_dropbear(sv[1]);
		close(sv[1]);
		if (pid < 0) {
			r = -errno;
			close(sv[0]);
			break;
		}
		say("host connected: dropbear %d", (int)pid);
		r = pump(&rl, sv[0]);
		close(sv[0]);
		kill(pid, SIGTERM);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		/* dropbear that could not run exits 127. */
		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			say("dropbear did not run");
		/* Dropbear left: wait for the next connection. */
		if (r == 0)
			r = pump(&rl, -1);
	}
	say("giving up: %s", util_errno_desc(r < 0 ? -r : EPROTO));
	_exit(1);
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
