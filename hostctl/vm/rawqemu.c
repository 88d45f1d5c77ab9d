// SPDX-License-Identifier: GPL-2.0-only
/*
 * QEMU started by hand for `hostctl bench` (rawqemu.h): its command line,
 * built by a pure function, and a launcher that times fork() to guestd's
 * hello.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vm/rawqemu.h"
#include "vm/confine.h"
#include "vm/vm.h"
#include "proto.h"

/* The socket pairs: console, channel, SSH port, monitor. */
#define NFDS 4

static void add(struct rawqemu_argv *a, const char *s)
{
	if (a->argc < RAWQEMU_ARGS_MAX)
		a->argv[a->argc++] = s;
	a->argv[a->argc] = NULL;
}

static void add2(struct rawqemu_argv *a, const char *opt, const char *val)
{
	add(a, opt);
	add(a, val);
}

/* A path a shell may see unquoted: [A-Za-z0-9/._-], not empty. */
static bool plain_path(const char *p)
{
	return *p && strspn(p, "abcdefghijklmnopqrstuvwxyz"
			       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-") ==
			     strlen(p);
}

int rawqemu_argv(const struct rawqemu_config *c, struct rawqemu_argv *ret)
{
	const char *machine = c->machine ? c->machine : DOMAIN_MACHINE_DEFAULT;
	uint64_t mem = c->memory_mib ? c->memory_mib :
				       DOMAIN_MEMORY_MIB_DEFAULT;
	unsigned int vcpus = c->vcpus ? c->vcpus : DOMAIN_VCPUS_DEFAULT;
	struct rawqemu_argv *a = ret;

	if (!c->kernel || !c->initrd || vcpus > 2 ||
	    domain_machine_check(machine) < 0 ||
	    (c->incoming && !plain_path(c->incoming)))
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	snprintf(a->machine, sizeof(a->machine), "%s", machine);
	snprintf(a->mem, sizeof(a->mem), "%llu", (unsigned long long)mem);
	snprintf(a->smp, sizeof(a->smp), "%u", vcpus);
	snprintf(a->con, sizeof(a->con), "socket,id=con,fd=%d",
		 RAWQEMU_FD_CONSOLE);
	snprintf(a->chan, sizeof(a->chan), "socket,id=chan,fd=%d",
		 RAWQEMU_FD_CHANNEL);
	snprintf(a->ssh, sizeof(a->ssh), "socket,id=ssh,fd=%d", RAWQEMU_FD_SSH);
	snprintf(a->mon, sizeof(a->mon), "socket,id=mon,fd=%d",
		 RAWQEMU_FD_MONITOR);
	if (c->incoming &&
	    snprintf(a->incoming, sizeof(a->incoming), "exec:cat %s",
		     c->incoming) >= (int)sizeof(a->incoming))
		return -EINVAL;
	snprintf(a->chan_port, sizeof(a->chan_port),
		 "virtserialport,bus=vs.0,chardev=chan,name=%s",
		 PROTO_PORT_NAME);
	snprintf(a->ssh_port, sizeof(a->ssh_port),
		 "virtserialport,bus=vs.0,chardev=ssh,name=%s",
		 PROTO_SSH_PORT_NAME);

	add(a, c->emulator ? c->emulator : RAWQEMU_EMULATOR);
	add2(a, "-name", "vlalab-raw");
	add2(a, "-machine", a->machine);
	add2(a, "-accel", domain_accel_name(c->accel));
	/* libvirt's choice for a domain with no <cpu>, QEMU's default too. */
	add2(a, "-cpu", "qemu64");
	add2(a, "-m", a->mem);
	add2(a, "-smp", a->smp);
	add(a, "-nodefaults");
	add(a, "-no-user-config");
	add2(a, "-display", "none");
	if (c->firmware)
		add2(a, "-bios", c->firmware);
	add2(a, "-kernel", c->kernel);
	add2(a, "-initrd", c->initrd);
	add2(a, "-append", c->cmdline ? c->cmdline : domain_default_cmdline);
	add2(a, "-chardev", a->con);
	add2(a, "-serial", "chardev:con");
	add2(a, "-device", "virtio-serial-pci,id=vs");
	add2(a, "-chardev", a->chan);
	add2(a, "-device", a->chan_port);
	if (c->ssh_port) {
		add2(a, "-chardev", a->ssh);
		add2(a, "-device", a->ssh_port);
	}
	if (c->monitor) {
		add2(a, "-chardev", a->mon);
		add2(a, "-mon", "chardev=mon,mode=readline");
	}
	if (c->incoming)
		add2(a, "-incoming", a->incoming);
	return 0;
}

/* In the child: become CONFINE_USER, as libvirt makes its QEMU. */
static int drop_to(const struct passwd *pw)
{
	if (initgroups(pw->pw_name, pw->pw_gid) < 0 || setgid(pw->pw_gid) < 0 ||
	    setuid(pw->pw_uid) < 0)
		return -errno;
	return 0;
}

/* In the child: the socket pairs' ends on the fixed descriptors, every
 * other descriptor above them closed, then QEMU. Never returns. */
static void __attribute__((noreturn))
child(const struct rawqemu_argv *a, const struct passwd *pw, int fds[NFDS])
{
	static const int to[NFDS] = { RAWQEMU_FD_CONSOLE, RAWQEMU_FD_CHANNEL,
				      RAWQEMU_FD_SSH, RAWQEMU_FD_MONITOR };
	int high[NFDS], null;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/*
	 * A session of its own, as libvirt gives its QEMU (virCommand
	 * daemonizes it): with the scheduler's autogroups, a session is what
	 * shares the CPU fairly with other sessions, so a QEMU left in
	 * hostctl's would get a smaller share on a loaded machine than
	 * libvirt's, and look slower than it is.
	 */
	setsid();
	for (int i = 0; i < NFDS; i++) {
		high[i] = fds[i] >= 0 ? fcntl(fds[i], F_DUPFD, 16) : -1;
		if (fds[i] >= 0 && high[i] < 0)
			_exit(127);
	}
	for (int i = 0; i < NFDS; i++) {
		if (high[i] < 0)
			close(to[i]);
		else if (dup2(high[i], to[i]) < 0)
			_exit(127);
	}
	if (close_range(RAWQEMU_FD_MONITOR + 1, ~0U, 0) < 0)
		for (int fd = RAWQEMU_FD_MONITOR + 1; fd < 1024; fd++)
			close(fd);
	/* Nothing of QEMU's on bench's table; its errors on stderr. */
	null = open("/dev/null", O_RDWR);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0 ||
	    dup2(null, STDOUT_FILENO) < 0)
		_exit(127);
	if (null > STDERR_FILENO && null != to[0] && null != to[1] &&
	    null != to[2] && null != to[3])
		close(null);
	if (pw && drop_to(pw) < 0)
		_exit(126);
	execvp(a->argv[0], (char *const *)a->argv);
	_exit(127);
}

int rawqemu_start(const struct rawqemu_config *c, struct rawqemu *ret)
{
	int pair[NFDS][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 }, { -1, -1 } };
	struct rawqemu_argv a;
	struct passwd *pw = NULL;
	int fds[NFDS], r;
	pid_t pid;

	ret->pid = 0;
	ret->con_fd = ret->chan_fd = ret->ssh_fd = ret->mon_fd = -1;
	ret->restored = c->incoming != NULL;
	r = rawqemu_argv(c, &a);
	if (r < 0)
		return r;
	if (c->confine && geteuid() == 0) {
		errno = 0;
		pw = getpwnam(CONFINE_USER);
		if (!pw)
			return errno ? -errno : -ENOENT;
	}
	for (int i = 0; i < NFDS; i++) {
		if ((i == 2 && !c->ssh_port) || (i == 3 && !c->monitor))
			continue;
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
			       pair[i]) < 0) {
			r = -errno;
			goto fail;
		}
	}
	for (int i = 0; i < NFDS; i++)
		fds[i] = pair[i][1];
	ret->t_exec_us = vm_now_us();
	pid = fork();
	if (pid < 0) {
		r = -errno;
		goto fail;
	}
	if (pid == 0)
		child(&a, pw, fds);
	for (int i = 0; i < NFDS; i++)
		if (pair[i][1] >= 0)
			close(pair[i][1]);
	ret->pid = pid;
	ret->con_fd = pair[0][0];
	ret->chan_fd = pair[1][0];
	ret->ssh_fd = pair[2][0];
	ret->mon_fd = pair[3][0];
	return 0;
fail:
	for (int i = 0; i < NFDS; i++)
		for (int j = 0; j < 2; j++)
			if (pair[i][j] >= 0)
				close(pair[i][j]);
	return r;
}

struct hello_wait {
	struct proto_event ev;
	bool restored; /* only a hello with restored 1 counts */
	bool hello;
};

/* A line of the channel: 0 (hello noted), or -EPROTO. */
static int on_line(const char *line, size_t len, void *userdata)
{
	struct hello_wait *w = userdata;
	char err[256];

	if (proto_event_decode(line, len, &w->ev, err, sizeof(err)) < 0)
		return -EPROTO;
	if (w->ev.type == PROTO_EV_HELLO &&
	    !w->ev.u.hello.restored == !w->restored)
		w->hello = true;
	return 0;
}

int rawqemu_wait_hello(struct rawqemu *q, unsigned int timeout_ms,
		       uint64_t *ret_us)
{
	uint64_t end = q->t_exec_us + timeout_ms * 1000ULL;
	struct hello_wait *w = calloc(1, sizeof(*w));
	struct proto_linebuf lb = { 0 };
	int con_fd = q->con_fd, r;
	char buf[4096];

	if (!w || proto_linebuf_init(&lb) < 0) {
		free(w);
		return -ENOMEM;
	}
	w->restored = q->restored;
	for (;;) {
		struct pollfd p[2] = { { .fd = q->chan_fd, .events = POLLIN },
				       { .fd = con_fd, .events = POLLIN } };
		uint64_t now = vm_now_us();
		ssize_t n;

		if (now >= end) {
			r = -ETIMEDOUT;
			break;
		}
		r = poll(p, 2, (int)((end - now + 999) / 1000));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			r = -errno;
			break;
		}
		/* The console is drained and thrown away: only the channel
		 * counts. */
		if (p[1].revents) {
			n = read(con_fd, buf, sizeof(buf));
			if (n == 0 ||
			    (n < 0 && errno != EINTR && errno != EAGAIN))
				con_fd = -1;
		}
		if (!p[0].revents)
			continue;
		n = read(q->chan_fd, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EPIPE;
			break;
		}
		r = proto_linebuf_feed(&lb, buf, (size_t)n, on_line, w);
		if (r < 0)
			break;
		if (w->hello) {
			*ret_us = vm_now_us() - q->t_exec_us;
			break;
		}
	}
	proto_linebuf_free(&lb);
	free(w);
	return r;
}

/* Read and throw away what @fd has; false at its end or on an error. */
static bool drain(int fd, char *keep, size_t *len, size_t size)
{
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	if (keep && *len + 1 < size) {
		size_t k = (size_t)n < size - 1 - *len ? (size_t)n :
							 size - 1 - *len;

		memcpy(keep + *len, buf, k);
		*len += k;
		keep[*len] = '\0';
	}
	return true;
}

int rawqemu_save(struct rawqemu *q, const char *path, unsigned int timeout_ms)
{
	uint64_t end = vm_now_us() + timeout_ms * 1000ULL;
	char cmd[PATH_MAX + 64], out[8192] = "";
	int fds[3] = { q->mon_fd, q->con_fd, q->chan_fd }, status = 0, n;
	size_t olen = 0;
	struct stat st;

	if (q->mon_fd < 0 || q->pid <= 0 || !plain_path(path))
		return -EINVAL;
	/*
	 * A live migration, the guest running: a state saved stopped would
	 * come back stopped (QEMU's global state), waiting for a "cont".
	 * The monitor takes "quit" once the migration is over.
	 */
	n = snprintf(cmd, sizeof(cmd), "migrate \"exec:cat > %s\"\nquit\n",
		     path);
	if (n >= (int)sizeof(cmd))
		return -EINVAL;
	if (write(q->mon_fd, cmd, (size_t)n) != n)
		return -EIO;
	/* Until QEMU closes the monitor: it quit. */
	while (fds[0] >= 0) {
		struct pollfd p[3];
		uint64_t now = vm_now_us();

		if (now >= end)
			return -ETIMEDOUT;
		for (int i = 0; i < 3; i++)
			p[i] = (struct pollfd){ .fd = fds[i],
						.events = POLLIN };
		if (poll(p, 3, (int)((end - now + 999) / 1000)) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (int i = 0; i < 3; i++)
			if (p[i].revents &&
			    !drain(fds[i], i ? NULL : out, &olen, sizeof(out)))
				fds[i] = -1;
	}
	while (waitpid(q->pid, &status, 0) < 0 && errno == EINTR)
		;
	q->pid = 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) || strstr(out, "rror") ||
	    strstr(out, "failed") || stat(path, &st) < 0 || st.st_size == 0)
		return -EIO;
	return 0;
}

void rawqemu_stop(struct rawqemu *q)
{
	if (q->pid > 0) {
		kill(q->pid, SIGKILL);
		while (waitpid(q->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	q->pid = 0;
	if (q->con_fd >= 0)
		close(q->con_fd);
	if (q->chan_fd >= 0)
		close(q->chan_fd);
	if (q->ssh_fd >= 0)
		close(q->ssh_fd);
	if (q->mon_fd >= 0)
		close(q->mon_fd);
	q->con_fd = q->chan_fd = q->ssh_fd = q->mon_fd = -1;
}
