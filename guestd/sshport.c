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
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guestd.h"

#define SSH_DROPBEAR "/usr/sbin/dropbear"
#define SSH_HOST_KEY "/etc/dropbear/dropbear_ed25519_host_key"
#define SSH_BUF 65536
#define SSH_FIND_TRIES 3000 /* of 10 ms: the port comes with guestd's */

struct pipebuf {
	char data[SSH_BUF];
	size_t off, len;
};

/* Until a host end is connected: the port says POLLHUP without one. */
static int wait_host(int port, const sigset_t *sigio)
{
	for (;;) {
		struct pollfd p = { .fd = port };

		if (poll(&p, 1, 0) < 0 && errno != EINTR)
			return -errno;
		if (p.revents & POLLNVAL)
			return -EBADF;
		if (!(p.revents & POLLHUP))
			return 0;
		/* SIGIO is blocked: one sent since poll() is pending. */
		if (sigwaitinfo(sigio, NULL) < 0 && errno != EINTR)
			return -errno;
	}
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
 * end going (POLLHUP) or dropbear leaving (end of file on the socket).
 * After dropbear left, the port is read and dropped until the host end
 * goes too, so that the next dropbear talks to a new connection only.
 */
static void pump(int port, int sock, struct pipebuf *up, struct pipebuf *down)
{
	bool sock_open = true;

	up->off = up->len = down->off = down->len = 0;
	for (;;) {
		struct pollfd p[2] = { { .fd = port }, { .fd = -1 } };

		if (sock_open) {
			p[1].fd = sock;
			if (up->len < sizeof(up->data))
				p[0].events |= POLLIN;
			if (down->len)
				p[0].events |= POLLOUT;
			if (down->len < sizeof(down->data))
				p[1].events |= POLLIN;
			if (up->len)
				p[1].events |= POLLOUT;
		} else {
			p[0].events = POLLIN;
			if (down->len)
				p[0].events |= POLLOUT;
		}
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (p[0].revents & (POLLHUP | POLLERR | POLLNVAL))
			return;
		if ((p[0].revents & POLLOUT) && drain(down, port) < 0)
			return;
		if (p[0].revents & POLLIN) {
			if (!sock_open)
				up->off = up->len = 0;
			if (fill(up, port) != 0)
				return;
		}
		if (!sock_open)
			continue;
		if ((p[1].revents & POLLOUT) && drain(up, sock) < 0)
			sock_open = false;
		if ((p[1].revents & (POLLIN | POLLHUP | POLLERR)) &&
		    fill(down, sock) != 0)
			sock_open = false;
	}
}

static __attribute__((noreturn)) void relay(void)
{
	static struct pipebuf up, down;
	char path[512];
	sigset_t sigio;
	int port = -1, r = -ENOENT;

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
	if (port < 0)
		_exit(1);
	sigemptyset(&sigio);
	sigaddset(&sigio, SIGIO);
	sigprocmask(SIG_BLOCK, &sigio, NULL);
	if (fcntl(port, F_SETOWN, getpid()) < 0 ||
	    fcntl(port, F_SETFL, fcntl(port, F_GETFL) | O_ASYNC) < 0)
		_exit(1);
	for (;;) {
		int sv[2];
		pid_t pid;

		if (wait_host(port, &sigio) < 0)
			_exit(1);
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
			_exit(1);
		fcntl(sv[0], F_SETFL, O_NONBLOCK);
		pid = start_dropbear(sv[1]);
		close(sv[1]);
		if (pid > 0)
			pump(port, sv[0], &up, &down);
		close(sv[0]);
		if (pid > 0) {
			kill(pid, SIGTERM);
			while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
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
