// SPDX-License-Identifier: GPL-2.0-only
/*
 * Guests through libvirt. Everything is driven by libvirt's default event
 * loop: the channel stream's readable/writable callbacks, the domain
 * lifecycle callback and a periodic tick that lets vm_wait() check its
 * deadlines. Nothing here prints; errors go back with libvirt's message.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "vm/owner.h"
#include "proto.h"
#include "vm/reap.h"
#include "vm/uri.h"
#include "vm/vm.h"

#define VM_TICK_MS 100
/* The loop not run for this long means the host was busy, not the guests. */
#define VM_STALL_MS 1000
/* A dead VM's console: quiet this long is done; at most this long. */
#define VM_CONSOLE_QUIET_MS 300
#define VM_CONSOLE_SETTLE_MS 3000
/*
 * Most bytes one turn of the loop reads of one guest's channel, and of its
 * console: the rest waits in the stream, which stays readable, for the next
 * turn. A guest that sends without end must not hold the loop: timers,
 * other guests and the waits' deadlines come between two such reads.
 */
#define VM_TURN_BYTES (64 * 1024)
/* What a dead guest's channel may still hold: more than its socket can. */
#define VM_DEATH_BYTES (4 * 1024 * 1024)

struct vm_host {
	virConnectPtr conn;
	char embed_root[PATH_MAX]; /* "" unless the embedded driver */
	int lifecycle_id;
	int tick_id;
	struct vm *vms; /* running guests, for the callback */
	uint64_t probe_ms; /* libvirt probed QEMU at open, this long; or 0 */
};

struct vm {
	struct vm_host *host;
	struct vm *next;
	virDomainPtr dom;
	virStreamPtr st;
	bool st_cb; /* stream callback registered */
	bool st_eof; /* the stream ended: QEMU closed the channel */
	virStreamPtr con; /* the serial console */
	bool con_cb, con_eof;
	uint64_t con_rx_us; /* when console bytes last came */
	struct proto_linebuf lb;
	char name[128];
	/* The owner's line hooks (vm_params). */
	int (*on_line)(void *userdata, const char *line, size_t len, char *why,
		       size_t whylen);
	void (*on_bad_line)(void *userdata, const char *start, size_t len,
			    const char *reason, char *why, size_t whylen);
	void (*on_console)(void *userdata, const char *buf, size_t len);
	void *userdata;
	bool up; /* the guest is up: the silence bound applies */
	bool dead;
	bool panicked, silent;
	char dead_reason[PROTO_TEXT_MAX];
	int proto_error;
	uint64_t t_call_us, t_created_us, t_hello_us, last_rx_us;
	char *out; /* bytes queued for the guest */
	size_t out_len, out_off;
	int qemu_pidfd; /* -1 unless QEMU is our child */
	uint64_t silence_ms; /* VM_SILENCE_MS unless vm_set_silence_ms() */
	bool stopped; /* a lifecycle event said the domain stopped */
	bool guest_stopped; /* ... because the guest powered off or reset */
};

/*
 * QEMUs outlive a hostctl killed with SIGKILL: with the embedded driver
 * they are daemonized children of hostctl, and nothing of libvirt's runs
 * to destroy them (its auto-destroy needs the process alive). A watchdog
 * process, forked before libvirt starts a thread, holds one end of a
 * socket pair and a pidfd of each QEMU that hostctl adopted (sent over
 * the socket), in a session of its own. When hostctl dies, however it
 * dies (its whole process group killed too), the socket's other end
 * closes, and the watchdog kills every QEMU it holds that still runs, and
 * exits. A pidfd names one process, so a reused pid is never hit.
 */
#define WATCHDOG_MAX 1024
static int watchdog_fd = -1;

static void watchdog(int sock)
{
	struct pollfd pfd[WATCHDOG_MAX + 1] = { { .fd = sock,
						  .events = POLLIN } };
	size_t n = 1;

	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	prctl(PR_SET_NAME, "hostctl-watch");
	for (;;) {
		union {
			struct cmsghdr h;
			char buf[CMSG_SPACE(sizeof(int))];
		} cm;
		char byte;
		struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
		struct msghdr msg = { .msg_iov = &iov,
				      .msg_iovlen = 1,
				      .msg_control = cm.buf,
				      .msg_controllen = sizeof(cm.buf) };
		struct cmsghdr *c;
		ssize_t got;
		int fd;

		if (poll(pfd, n, -1) < 0 && errno != EINTR)
			break;
		/* A QEMU that exited: forget it. */
		for (size_t i = 1; i < n; i++) {
			if (!pfd[i].revents)
				continue;
			close(pfd[i].fd);
			pfd[i--] = pfd[--n];
		}
		if (!pfd[0].revents)
			continue;
		got = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break; /* hostctl is gone */
		c = CMSG_FIRSTHDR(&msg);
		if (!c || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len != CMSG_LEN(sizeof(int)))
			continue;
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
		if (n == WATCHDOG_MAX + 1) {
			close(fd); /* more QEMUs at once than any run has */
			continue;
		}
		pfd[n].fd = fd;
		pfd[n].events = POLLIN;
		pfd[n++].revents = 0;
	}
	for (size_t i = 1; i < n; i++)
		pidfd_send_signal(pfd[i].fd, SIGKILL, NULL, 0);
	_exit(0);
}

void vm_watchdog_start(void)
{
	int sv[2];
	pid_t pid;

	if (watchdog_fd >= 0 ||
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		int null;

		/* A session of its own: a SIGKILL to hostctl's process
		 * group (a shell's job, a test runner's timeout) must not
		 * take the watchdog with it. */
		setsid();
		/* Hold nothing of hostctl's, not even its output: its locks
		 * and pipes go with it. */
		if (sv[1] > 3)
			close_range(3, (unsigned int)sv[1] - 1, 0);
		close_range((unsigned int)sv[1] + 1, ~0U, 0);
		null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
			close(null);
		}
		watchdog(sv[1]);
	}
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return;
	}
	watchdog_fd = sv[0];
}

void vm_watchdog_add(int pidfd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} cm = { 0 };
	char byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = cm.buf,
			      .msg_controllen = sizeof(cm.buf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	if (watchdog_fd < 0)
		return;
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &pidfd, sizeof(int));
	while (sendmsg(watchdog_fd, &msg, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
}

/*
 * Adopt the QEMU of domain @name: a pidfd, for the watchdog. reap.c reaps
 * it when it exits.
 */
static int adopt_qemu(const struct vm_host *h, const char *name)
{
	char path[PATH_MAX + 160];
	FILE *f;
	int pid = 0, pidfd, r;

	if (!*h->embed_root)
		return -1;
	snprintf(path, sizeof(path), "%s/run/qemu/%s.pid", h->embed_root, name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	r = fscanf(f, "%d", &pid);
	fclose(f);
	if (r != 1 || pid <= 1)
		return -1;
	pidfd = pidfd_open(pid, 0);
	if (pidfd < 0)
		return -1;
	/* Only a child of ours can be reaped: else leave it to libvirt. */
	{
		siginfo_t si = { 0 };

		if (waitid(P_PIDFD, pidfd, &si, WEXITED | WNOHANG | WNOWAIT) <
		    0) {
			close(pidfd);
			return -1;
		}
	}
	vm_watchdog_add(pidfd);
	return pidfd;
}

uint64_t vm_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void set_err(char *err, size_t errlen, const char *what)
{
	const char *msg = virGetLastErrorMessage();

	snprintf(err, errlen, "%s: %s", what, msg ? msg : "unknown error");
}

/* libvirt prints every error to stderr unless told otherwise. */
static void quiet_errors(void *userdata, virErrorPtr e)
{
}

static bool console_drain(struct vm *vm);
static int channel_read(struct vm *vm, size_t budget);
static volatile sig_atomic_t interrupted;

/*
 * The lanes of hostctl run -j (vm_set_yield()): a wait hands the loop to
 * them, and only the scheduler runs it (vm_loop_once()). The host the
 * loop serves, for the stall rule, and when the loop last ran.
 */
static void (*yield_fn)(void *data);
static void *yield_data;
static struct vm_host *loop_host;
static uint64_t loop_last_us;

static void vm_die(struct vm *vm, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void vm_die(struct vm *vm, const char *fmt, ...)
{
	va_list ap;

	if (vm->dead)
		return;
	vm->dead = true;
	va_start(ap, fmt);
	vsnprintf(vm->dead_reason, sizeof(vm->dead_reason), fmt, ap);
	va_end(ap);
	if (vm->st_cb)
		virStreamEventUpdateCallback(vm->st, 0);
	/*
	 * What the console holds now is the death's evidence: read it and
	 * end its last line before anyone judges. The stream stays open:
	 * a guest that hangs may still print, up to its destruction.
	 */
	console_drain(vm);
	vm->on_console(vm->userdata, NULL, 0);
}

static const char *stopped_detail(int detail)
{
	switch (detail) {
	case VIR_DOMAIN_EVENT_STOPPED_SHUTDOWN:
		return "the guest shut down";
	case VIR_DOMAIN_EVENT_STOPPED_DESTROYED:
		return "destroyed";
	case VIR_DOMAIN_EVENT_STOPPED_CRASHED:
		return "the guest crashed";
	case VIR_DOMAIN_EVENT_STOPPED_FAILED:
		return "QEMU failed";
	default:
		return "stopped";
	}
}

static int lifecycle_cb(virConnectPtr conn, virDomainPtr dom, int event,
			int detail, void *opaque)
{
	struct vm_host *h = opaque;
	const char *name = virDomainGetName(dom);

	for (struct vm *vm = h->vms; vm; vm = vm->next) {
		if (!name || strcmp(vm->name, name) != 0)
			continue;
		/*
		 * What the guest wrote before it crashed or stopped is in the
		 * channel's socket already, and this event may come before
		 * the callback that reads it: read it now, or its last events
		 * (the step that provoked a panic) are lost.
		 */
		if (!vm->dead && vm->st_cb &&
		    (event == VIR_DOMAIN_EVENT_CRASHED ||
		     event == VIR_DOMAIN_EVENT_STOPPED))
			channel_read(vm, VM_DEATH_BYTES);
		if (event == VIR_DOMAIN_EVENT_CRASHED) {
			vm->panicked = true;
			vm_die(vm, "the guest panicked (pvpanic)");
		} else if (event == VIR_DOMAIN_EVENT_STOPPED) {
			/* The channel may have closed a moment before. */
			vm->stopped = true;
			vm->guest_stopped |= detail ==
					     VIR_DOMAIN_EVENT_STOPPED_SHUTDOWN;
			vm_die(vm, "the domain stopped: %s",
			       stopped_detail(detail));
		}
	}
	return 0;
}

static void tick_cb(int timer, void *opaque)
{
}

int vm_loop_once(void)
{
	uint64_t now = vm_now_us(), gap = now - loop_last_us;
	int r;

	/*
	 * The loop did not run for a while: the host was busy (a memory
	 * dump, another lane's domain start). What the guests sent meanwhile
	 * waits in their channels; their silence counts from now.
	 */
	if (loop_last_us && gap > VM_STALL_MS * 1000 && loop_host)
		for (struct vm *vm = loop_host->vms; vm; vm = vm->next)
			vm->last_rx_us += gap;
	r = virEventRunDefaultImpl();
	loop_last_us = vm_now_us();
	return r;
}

void vm_set_yield(void (*fn)(void *data), void *data)
{
	yield_fn = fn;
	yield_data = data;
}

int vm_loop_step(void)
{
	if (!yield_fn)
		return vm_loop_once();
	yield_fn(yield_data);
	return 0;
}

/*
 * libvirt (9.0) keeps, beside each QEMU's cached capabilities, the host's
 * CPUID as the connecting thread read it when the driver started, and
 * probes QEMU again whenever that differs. It includes the APIC ID of the
 * CPU the thread ran on, so a process that started on another core found
 * the cache outdated ("host cpuid changed") and probed again: every
 * other run on two cores. Open from the same CPU every time, the lowest
 * this process may use, then give every thread back the CPUs it had
 * (libvirt's threads, created meanwhile, inherited the one).
 */
static virConnectPtr connect_pinned(const char *uri)
{
	cpu_set_t all, one, cur;
	virConnectPtr conn;
	struct dirent *e;
	int cpu = -1;
	DIR *d;

	if (sched_getaffinity(0, sizeof(all), &all) < 0)
		return virConnectOpen(uri);
	for (int i = 0; i < CPU_SETSIZE && cpu < 0; i++)
		if (CPU_ISSET(i, &all))
			cpu = i;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (CPU_EQUAL(&one, &all) ||
	    sched_setaffinity(0, sizeof(one), &one) < 0)
		return virConnectOpen(uri);
	conn = virConnectOpen(uri);
	d = opendir("/proc/self/task");
	while (d && (e = readdir(d))) {
		pid_t tid = atoi(e->d_name);

		if (tid > 0 && sched_getaffinity(tid, sizeof(cur), &cur) == 0 &&
		    CPU_EQUAL(&cur, &one))
			sched_setaffinity(tid, sizeof(all), &all);
	}
	if (d)
		closedir(d);
	sched_setaffinity(0, sizeof(all), &all);
	return conn;
}

/*
 * Have libvirt look up (and, when its cache is outdated, probe) every
 * QEMU binary now, rather than in the middle of a guest's start; how
 * long a probe took, or 0 when the cache served.
 */
static uint64_t probe_now(struct vm_host *h, const char *uri)
{
	uint64_t before = uri_embed_caps_stamp(uri), t = vm_now_us();
	char *caps = virConnectGetCapabilities(h->conn);

	free(caps);
	if (uri_embed_caps_stamp(uri) == before)
		return 0;
	return (vm_now_us() - t) / 1000 ?: 1;
}

uint64_t vm_host_probe_ms(const struct vm_host *h)
{
	return h->probe_ms;
}

int vm_host_open(const char *uri, struct vm_host **ret, char *err,
		 size_t errlen)
{
	static bool registered;
	struct vm_host *h;

	virSetErrorFunc(NULL, quiet_errors);
	if (!registered) {
		struct rlimit nofile;

		/*
		 * Each VM that stops by itself keeps its channel's descriptor
		 * (see vm_destroy()): let a long run have as many as the
		 * hard limit allows rather than the usual soft 1024.
		 */
		if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 &&
		    nofile.rlim_cur < nofile.rlim_max) {
			nofile.rlim_cur = nofile.rlim_max;
			setrlimit(RLIMIT_NOFILE, &nofile);
		}
		if (virEventRegisterDefaultImpl() < 0) {
			set_err(err, errlen, "registering the event loop");
			return -EIO;
		}
		registered = true;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->lifecycle_id = -1;
	if (uri_embed_root(uri, h->embed_root, sizeof(h->embed_root)) < 0)
		h->embed_root[0] = '\0';
	else {
		/* Failing that, PID 1 reaps them, later. */
		reap_start();
		vm_watchdog_start();
	}
	h->conn = *h->embed_root ? connect_pinned(uri) : virConnectOpen(uri);
	if (!h->conn) {
		virErrorPtr e = virGetLastError();
		/* An embedded driver's root is locked by the process using it. */
		bool busy = e && e->code == VIR_ERR_SYSTEM_ERROR &&
			    (e->int1 == EAGAIN || e->int1 == EWOULDBLOCK);

		set_err(err, errlen, "connecting");
		free(h);
		return busy ? -EBUSY : -ECONNREFUSED;
	}
	h->lifecycle_id = virConnectDomainEventRegisterAny(
		h->conn, NULL, VIR_DOMAIN_EVENT_ID_LIFECYCLE,
		VIR_DOMAIN_EVENT_CALLBACK(lifecycle_cb), h, NULL);
	h->tick_id = virEventAddTimeout(VM_TICK_MS, tick_cb, NULL, NULL);
	if (h->lifecycle_id < 0 || h->tick_id < 0) {
		set_err(err, errlen, "registering callbacks");
		vm_host_close(h);
		return -EIO;
	}
	if (*h->embed_root)
		h->probe_ms = probe_now(h, uri);
	loop_host = h;
	*ret = h;
	return 0;
}

int vm_reap_orphans(struct vm_host *h, const char *host,
		    void (*cb)(const char *name, const struct owner *o,
			       const char *failed, void *data),
		    void *data, char *err, size_t errlen)
{
	virDomainPtr *doms = NULL;
	int n, reaped = 0;

	if (h->embed_root[0])
		return 0;
	n = virConnectListAllDomains(h->conn, &doms, 0);
	if (n < 0) {
		set_err(err, errlen, "listing the domains");
		return -EIO;
	}
	for (int i = 0; i < n; i++) {
		struct owner o;
		char *xml;

		/* No metadata in our namespace: not ours. */
		xml = virDomainGetMetadata(doms[i], VIR_DOMAIN_METADATA_ELEMENT,
					   OWNER_XMLNS, VIR_DOMAIN_AFFECT_LIVE);
		if (!xml)
			xml = virDomainGetMetadata(doms[i],
						   VIR_DOMAIN_METADATA_ELEMENT,
						   OWNER_XMLNS,
						   VIR_DOMAIN_AFFECT_CONFIG);
		if (xml && owner_parse(xml, &o) == 0 &&
		    owner_orphan(&o, host)) {
			bool ok = true;

			if (virDomainIsActive(doms[i]) == 1 &&
			    virDomainDestroy(doms[i]) < 0)
				ok = false;
			if (ok && virDomainIsPersistent(doms[i]) == 1 &&
			    virDomainUndefine(doms[i]) < 0)
				ok = false;
			cb(virDomainGetName(doms[i]), &o,
			   ok ? NULL : virGetLastErrorMessage(), data);
			reaped += ok;
		}
		free(xml);
		virDomainFree(doms[i]);
	}
	free(doms);
	return reaped;
}

void vm_host_close(struct vm_host *h)
{
	if (!h)
		return;
	while (h->vms)
		vm_destroy(h->vms);
	if (h->tick_id >= 0)
		virEventRemoveTimeout(h->tick_id);
	if (h->lifecycle_id >= 0)
		virConnectDomainEventDeregisterAny(h->conn, h->lifecycle_id);
	virConnectClose(h->conn);
	if (loop_host == h)
		loop_host = NULL;
	free(h);
}

int vm_host_hv_version(struct vm_host *h, char *buf, size_t len)
{
	unsigned long v;

	if (virConnectGetVersion(h->conn, &v) < 0)
		return -EIO;
	snprintf(buf, len, "%lu.%lu.%lu", v / 1000000, v / 1000 % 1000,
		 v % 1000);
	return 0;
}

static int line_cb(const char *line, size_t len, void *userdata)
{
	struct vm *vm = userdata;
	char why[PROTO_TEXT_MAX];
	int r;

	why[0] = '\0';
	r = vm->on_line(vm->userdata, line, len, why, sizeof(why));
	if (r < 0) {
		vm->proto_error = r;
		vm_die(vm, "protocol error: %s", why);
		return r;
	}
	if (r > 0 && !vm->up) {
		vm->up = true;
		vm->t_hello_us = vm_now_us();
	}
	return 0;
}

static void flush_out(struct vm *vm)
{
	while (vm->out_off < vm->out_len) {
		int n = virStreamSend(vm->st, vm->out + vm->out_off,
				      vm->out_len - vm->out_off);

		if (n == -2)
			break;
		if (n < 0) {
			vm_die(vm, "writing to the channel failed: %s",
			       virGetLastErrorMessage());
			return;
		}
		vm->out_off += n;
	}
	if (vm->out_off == vm->out_len) {
		vm->out_off = vm->out_len = 0;
		virStreamEventUpdateCallback(vm->st,
					     VIR_STREAM_EVENT_READABLE |
						     VIR_STREAM_EVENT_ERROR |
						     VIR_STREAM_EVENT_HANGUP);
	} else {
		virStreamEventUpdateCallback(vm->st,
					     VIR_STREAM_EVENT_READABLE |
						     VIR_STREAM_EVENT_WRITABLE |
						     VIR_STREAM_EVENT_ERROR |
						     VIR_STREAM_EVENT_HANGUP);
	}
}

/*
 * Read at most @budget bytes of the guest's channel, handing its lines to
 * the owner: 1 when it is empty for now, 0 when the budget ran out first,
 * -1 when it ended, failed or broke the protocol (the VM is dead then).
 */
static int channel_read(struct vm *vm, size_t budget)
{
	char buf[16384];

	while (budget && !vm->dead) {
		int n, r;

		n = virStreamRecv(vm->st, buf,
				  budget < sizeof(buf) ? budget : sizeof(buf));
		if (n == -2)
			return 1;
		if (n == 0) {
			vm->st_eof = true;
			vm_die(vm, "the guest's channel closed");
			return -1;
		}
		if (n < 0) {
			vm->st_eof = true;
			vm_die(vm, "reading the channel failed: %s",
			       virGetLastErrorMessage());
			return -1;
		}
		budget -= (size_t)n;
		vm->last_rx_us = vm_now_us();
		r = proto_linebuf_feed(&vm->lb, buf, n, line_cb, vm);
		if (r == -E2BIG) {
			char reason[128], why[PROTO_TEXT_MAX];

			snprintf(reason, sizeof(reason),
				 "a line longer than %d bytes",
				 PROTO_LINE_MAX - 1);
			snprintf(why, sizeof(why), "%s", reason);
			if (vm->on_bad_line)
				vm->on_bad_line(vm->userdata, vm->lb.buf,
						vm->lb.len, reason, why,
						sizeof(why));
			vm->proto_error = r;
			vm_die(vm, "protocol error: %s", why);
		}
		if (r < 0)
			return -1;
	}
	return vm->dead ? -1 : 0;
}

/*
 * The channel is readable: at most VM_TURN_BYTES of it this turn, and its
 * end or hang-up only once all it held was read.
 */
static void stream_cb(virStreamPtr st, int events, void *opaque)
{
	struct vm *vm = opaque;

	(void)st;
	if (vm->dead)
		return;
	if (events & VIR_STREAM_EVENT_WRITABLE)
		flush_out(vm);
	if (channel_read(vm, VM_TURN_BYTES) == 1 &&
	    (events & (VIR_STREAM_EVENT_ERROR | VIR_STREAM_EVENT_HANGUP))) {
		vm->st_eof = true;
		vm_die(vm, "the guest's channel hung up");
	}
}

/* The console ended (QEMU went away): stop watching it. */
static void console_end(struct vm *vm)
{
	vm->con_eof = true;
	if (vm->con_cb)
		virStreamEventUpdateCallback(vm->con, 0);
	vm->on_console(vm->userdata, NULL, 0);
}

/*
 * Hand the owner what the console has now, without waiting, up to
 * VM_TURN_BYTES: a console that prints without end must not hold the
 * loop, nor a VM's death or destruction. True when that bound stopped it
 * (more may wait).
 */
static bool console_drain(struct vm *vm)
{
	char buf[16384];
	size_t budget = VM_TURN_BYTES;

	while (vm->con && !vm->con_eof && budget) {
		int n = virStreamRecv(vm->con, buf,
				      budget < sizeof(buf) ? budget :
							     sizeof(buf));

		if (n == -2)
			break;
		if (n <= 0) {
			console_end(vm);
			break;
		}
		budget -= (size_t)n;
		vm->con_rx_us = vm_now_us();
		vm->on_console(vm->userdata, buf, (size_t)n);
	}
	return !budget;
}

static void console_cb(virStreamPtr st, int events, void *opaque)
{
	struct vm *vm = opaque;

	(void)st;
	/* A hang-up is read as one once all before it was. */
	if (console_drain(vm))
		return;
	if (!vm->con_eof &&
	    (events & (VIR_STREAM_EVENT_ERROR | VIR_STREAM_EVENT_HANGUP)))
		console_end(vm);
}

void vm_console_drain(struct vm *vm)
{
	uint64_t t0 = vm_now_us(), quiet_us = VM_CONSOLE_QUIET_MS * 1000;

	console_drain(vm);
	if (!vm->dead)
		return;
	/*
	 * A VM that died may have printed its last lines a moment before
	 * the event that says so, and they may not have reached the stream
	 * yet (a panicked guest's domain stays, paused: its console never
	 * ends). Read until it ends, or has been quiet for a while since
	 * now, within a bound.
	 */
	while (!vm->con_eof && !interrupted &&
	       vm_now_us() - t0 < VM_CONSOLE_SETTLE_MS * 1000 &&
	       vm_now_us() - (vm->con_rx_us > t0 ? vm->con_rx_us : t0) <
		       quiet_us)
		if (vm_loop_step() < 0)
			break;
	console_drain(vm);
	if (!vm->con_eof)
		vm->on_console(vm->userdata, NULL, 0);
}

void vm_console_wait(struct vm *vm, uint64_t ms)
{
	uint64_t deadline = vm_now_us() + ms * 1000;

	while (!interrupted && !vm->con_eof && vm_now_us() < deadline)
		if (vm_loop_step() < 0)
			break;
	console_drain(vm);
	if (vm->dead && !vm->con_eof)
		vm->on_console(vm->userdata, NULL, 0);
}

int vm_console_send(struct vm *vm, const char *buf, size_t len)
{
	int n;

	/* A few keystrokes: a console that cannot take them drops them. */
	if (!vm->con || vm->con_eof)
		return -EPIPE;
	n = virStreamSend(vm->con, buf, len);
	return n == -2 || n >= 0 ? 0 : -EIO;
}

/*
 * Open the serial console as a stream, while the domain is paused: the
 * guest cannot have printed anything yet.
 */
static int console_open(struct vm *vm, char *err, size_t errlen)
{
	virStreamPtr st = virStreamNew(vm->host->conn, VIR_STREAM_NONBLOCK);

	if (!st || virDomainOpenConsole(vm->dom, NULL, st, 0) < 0) {
		set_err(err, errlen, "opening the serial console");
		if (st)
			virStreamFree(st);
		return -EIO;
	}
	vm->con = st;
	if (virStreamEventAddCallback(vm->con,
				      VIR_STREAM_EVENT_READABLE |
					      VIR_STREAM_EVENT_ERROR |
					      VIR_STREAM_EVENT_HANGUP,
				      console_cb, vm, NULL) < 0) {
		set_err(err, errlen, "watching the serial console");
		return -EIO;
	}
	vm->con_cb = true;
	return 0;
}

int vm_start(struct vm_host *h, const struct vm_params *p, struct vm **ret,
	     char *err, size_t errlen)
{
	struct vm *vm;
	const char *name;

	vm = calloc(1, sizeof(*vm));
	if (!vm)
		return -ENOMEM;
	if (proto_linebuf_init(&vm->lb) < 0) {
		free(vm);
		return -ENOMEM;
	}
	vm->host = h;
	vm->qemu_pidfd = -1;
	vm->silence_ms = VM_SILENCE_MS;
	vm->on_line = p->on_line;
	vm->on_bad_line = p->on_bad_line;
	vm->on_console = p->on_console;
	vm->userdata = p->userdata;
	vm->next = h->vms;
	h->vms = vm;

	vm->t_call_us = vm_now_us();
	/* Paused until the console is read: nothing of its boot is lost. */
	vm->dom = virDomainCreateXML(h->conn, p->xml, VIR_DOMAIN_START_PAUSED);
	vm->t_created_us = vm_now_us();
	vm->last_rx_us = vm->t_created_us;
	if (!vm->dom) {
		set_err(err, errlen, "creating the domain");
		vm_destroy(vm);
		return -EIO;
	}
	name = virDomainGetName(vm->dom);
	snprintf(vm->name, sizeof(vm->name), "%s", name ? name : "");
	vm->qemu_pidfd = adopt_qemu(h, vm->name);
	vm->st = virStreamNew(h->conn, VIR_STREAM_NONBLOCK);
	if (!vm->st ||
	    virDomainOpenChannel(vm->dom, PROTO_PORT_NAME, vm->st, 0) < 0) {
		set_err(err, errlen,
			"opening the channel '" PROTO_PORT_NAME "'");
		vm_destroy(vm);
		return -EIO;
	}
	if (virStreamEventAddCallback(vm->st,
				      VIR_STREAM_EVENT_READABLE |
					      VIR_STREAM_EVENT_ERROR |
					      VIR_STREAM_EVENT_HANGUP,
				      stream_cb, vm, NULL) < 0) {
		set_err(err, errlen, "watching the channel");
		vm_destroy(vm);
		return -EIO;
	}
	vm->st_cb = true;
	if (console_open(vm, err, errlen) < 0) {
		vm_destroy(vm);
		return -EIO;
	}
	if (virDomainResume(vm->dom) < 0) {
		set_err(err, errlen, "starting the paused domain");
		vm_destroy(vm);
		return -EIO;
	}
	*ret = vm;
	return 0;
}

int vm_send(struct vm *vm, const char *line, size_t len)
{
	char *out;

	if (vm->dead)
		return -EPIPE;
	out = realloc(vm->out, vm->out_len + len);
	if (!out)
		return -ENOMEM;
	memcpy(out + vm->out_len, line, len);
	vm->out = out;
	vm->out_len += len;
	flush_out(vm);
	return vm->dead ? -EPIPE : 0;
}

void vm_interrupt(void)
{
	interrupted = 1;
}

int vm_wait(struct vm *vm, bool (*done)(void *arg), void *arg,
	    uint64_t timeout_ms)
{
	uint64_t deadline = vm_now_us() + timeout_ms * 1000;

	for (;;) {
		uint64_t now;

		if (done && done(arg))
			return 0;
		if (vm->dead)
			return -EPIPE;
		if (interrupted)
			return -EINTR;
		now = vm_now_us();
		/*
		 * Silence is judged as of the loop's last turn, not now: what
		 * the guest sent since then waits unread in its channel. With
		 * hostctl run -j, another lane may have held the thread for
		 * seconds (a memory dump) and handed it to this one before the
		 * loop turned again; judged against now, a guest that went on
		 * talking the whole time would be called hung.
		 */
		if (vm->up && loop_last_us > vm->last_rx_us &&
		    loop_last_us - vm->last_rx_us > vm->silence_ms * 1000) {
			vm->silent = !vm->dead;
			vm_die(vm,
			       "the guest sent nothing, not even a heartbeat, for %" PRIu64
			       " s",
			       vm->silence_ms / 1000);
			return -EPIPE;
		}
		if (now >= deadline)
			return -ETIMEDOUT;
		if (vm_loop_step() < 0) {
			vm_die(vm, "the event loop failed: %s",
			       virGetLastErrorMessage());
			return -EPIPE;
		}
	}
}

void vm_set_silence_ms(struct vm *vm, uint64_t ms)
{
	vm->silence_ms = ms;
}

bool vm_guest_stopped(struct vm *vm, uint64_t timeout_ms)
{
	uint64_t deadline = vm_now_us() + timeout_ms * 1000;

	/* The channel's end can come before libvirt's lifecycle event. */
	while (!vm->stopped && !interrupted && vm_now_us() < deadline)
		if (vm_loop_step() < 0)
			break;
	return vm->guest_stopped;
}

static void fd_ready(int watch, int fd, int events, void *opaque)
{
	(void)watch;
	(void)fd;
	(void)events;
	*(bool *)opaque = true;
}

static bool flag_set(void *arg)
{
	return *(bool *)arg;
}

int vm_wait_fd(struct vm *vm, int fd, uint64_t timeout_ms)
{
	bool ready = false;
	int watch = -1, r;

	if (fd >= 0) {
		watch = virEventAddHandle(fd, VIR_EVENT_HANDLE_READABLE,
					  fd_ready, &ready, NULL);
		if (watch < 0)
			return -ENOMEM;
	}
	r = vm_wait(vm, flag_set, &ready,
		    timeout_ms ? timeout_ms : UINT64_MAX / 2000);
	if (watch >= 0)
		virEventRemoveHandle(watch);
	return r;
}

bool vm_dead(const struct vm *vm)
{
	return vm->dead;
}

const char *vm_dead_reason(const struct vm *vm)
{
	return vm->dead_reason;
}

int vm_proto_error(const struct vm *vm)
{
	return vm->proto_error;
}

uint64_t vm_create_us(const struct vm *vm)
{
	return vm->t_created_us - vm->t_call_us;
}

uint64_t vm_hello_us(const struct vm *vm)
{
	return vm->t_hello_us ? vm->t_hello_us - vm->t_call_us : 0;
}

bool vm_panicked(const struct vm *vm)
{
	return vm->panicked;
}

bool vm_silent(const struct vm *vm)
{
	return vm->silent;
}

int vm_dump(struct vm *vm, const char *path, int format, char *err,
	    size_t errlen)
{
	if (!vm->dom || virDomainIsActive(vm->dom) != 1) {
		snprintf(err, errlen, "the domain is gone");
		return -ENODEV;
	}
	if (virDomainCoreDumpWithFormat(vm->dom, path, format,
					VIR_DUMP_MEMORY_ONLY) < 0) {
		set_err(err, errlen, "virDomainCoreDumpWithFormat");
		return -EIO;
	}
	return 0;
}

void vm_destroy(struct vm *vm)
{
	struct vm **pp;

	if (!vm)
		return;
	for (pp = &vm->host->vms; *pp; pp = &(*pp)->next) {
		if (*pp == vm) {
			*pp = vm->next;
			break;
		}
	}
	if (vm->con) {
		/* The last of the console, then its end, as for the channel. */
		console_drain(vm);
		if (!vm->con_eof)
			vm->on_console(vm->userdata, NULL, 0);
		if (vm->con_cb)
			virStreamEventRemoveCallback(vm->con);
		if (!vm->stopped && !vm->con_eof &&
		    (!vm->dom || virDomainIsActive(vm->dom) == 1))
			virStreamAbort(vm->con);
		virStreamFree(vm->con);
	}
	if (vm->st) {
		if (vm->st_cb)
			virStreamEventRemoveCallback(vm->st);
		/*
		 * libvirt's chardev code locks the stream, then the domain's
		 * chardev table when a stream is aborted; and the table, then
		 * the stream when it frees a domain object whose QEMU has
		 * exited (virChrdevFree()). Aborting while QEMU goes away
		 * deadlocks both threads (seen in vm_destroy() after a guest
		 * powered off). So abort only while the domain still runs,
		 * before destroying it; of a domain that stopped by itself,
		 * only drop our reference: the chardev table holds its own
		 * and drops it when libvirt frees the domain. That leaves the
		 * dead channel's socket open, one descriptor per such VM.
		 */
		if (!vm->stopped && !vm->st_eof &&
		    (!vm->dom || virDomainIsActive(vm->dom) == 1))
			virStreamAbort(vm->st);
		virStreamFree(vm->st);
	}
	/*
	 * libvirt stops QEMU (SIGTERM, then SIGKILL) and waits for it to
	 * go; reap.c makes that wait short.
	 */
	if (vm->dom) {
		virDomainDestroy(vm->dom);
		virDomainFree(vm->dom);
	}
	if (vm->qemu_pidfd >= 0)
		close(vm->qemu_pidfd);
	proto_linebuf_free(&vm->lb);
	free(vm->out);
	free(vm);
}
