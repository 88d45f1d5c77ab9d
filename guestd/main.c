// SPDX-License-Identifier: GPL-2.0-only
/*
 * guestd's main loop. As PID 1 in the guest it opens the virtio-serial port
 * named PROTO_PORT_NAME, says hello, and then multiplexes: requests from
 * the host, events from the scenario child (runner.c), /dev/kmsg records,
 * SIGCHLD (it reaps every child), timeouts and the heartbeat. It never
 * exits as PID 1: a fatal error powers the guest off.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guestd.h"

#define PORT_SYSDIR "/sys/class/virtio-ports"
#define PORT_DEVDIR "/dev"
#define PORT_WAIT_MS 30000
#define PORT_RETRY_MS 10
/* How long to leave a port alone after it reported no host. */
#define PORT_PAUSE_US 20000
/* Output waiting for a slow host; kmsg and heartbeats beyond it drop. */
#define OUT_MAX (8 * 1024 * 1024)
#define BYE_FLUSH_US 2000000
/* A regular file as kmsg can't be polled: look at it this often. */
#define KMSG_FILE_POLL_MS 50

struct outq {
	char *buf;
	size_t off, len, cap;
	uint64_t queued, sent; /* bytes, since the start */
	uint64_t dropped; /* kmsg and heartbeat events */
	uint64_t dropped_told;
};

struct guestd {
	/* Options. */
	const char *port_path, *framed_path, *requests_path;
	bool stdio;
	const char *kmsg_path;
	uint64_t heartbeat_ms;
	pid_t ssh_pid; /* the SSH relay (sshport.c), or <= 0 */

	bool pid1;
	int log_fd; /* /dev/kmsg for writing, as PID 1 */
	int in_fd, out_fd;
	uint64_t paused_until; /* the host isn't there: wait */
	struct outq out;
	struct framed fm; /* framed mode: frames on a console (framed.c) */
	struct proto_linebuf inlb;
	bool in_skip;
	struct kmsg_reader kmsg;
	bool have_kmsg;
	int sfd;
	struct step_env env;
	struct runner runner;
	struct audit audit; /* the state-leak audit's counts */
	uint64_t next_heartbeat;
	/* The boot id a restored guest was given ("restored"); else "". */
	char boot_id[PROTO_BOOT_ID_MAX];
};

static struct guestd gd = { .log_fd = -1, .in_fd = -1, .out_fd = -1, .sfd = -1 };

static void gd_log(int prio, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One line to the kernel log as PID 1 (it reaches the host), else stderr. */
static void gd_log(int prio, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	n = snprintf(buf, sizeof(buf), "<%d>guestd: ", prio);
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof(buf) - (size_t)n, fmt, ap);
	va_end(ap);
	if (gd.log_fd >= 0 && write(gd.log_fd, buf, strlen(buf)) >= 0)
		return;
	fprintf(stderr, "%s\n", buf + 3);
}

static __attribute__((noreturn)) void gd_poweroff(void)
{
	sync();
	reboot(RB_POWER_OFF);
	/* PID 1 must not exit: that would panic the kernel. */
	for (;;)
		pause();
}

static __attribute__((noreturn, format(printf, 1, 2))) void
gd_fatal(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	gd_log(2, "fatal: %s", buf);
	if (gd.log_fd >= 0)
		fprintf(stderr, "guestd: fatal: %s\n", buf);
	if (gd.pid1)
		gd_poweroff();
	exit(1);
}

static bool paused(void)
{
	return gd.paused_until && guestd_now_us() < gd.paused_until;
}

/* The host isn't listening (virtio port closed, pty hung up): wait. */
static void pause_port(void)
{
	gd.paused_until = guestd_now_us() + PORT_PAUSE_US;
}

static void out_flush(void)
{
	while (gd.out.len > gd.out.off && !paused()) {
		ssize_t n = write(gd.out_fd, gd.out.buf + gd.out.off,
				  gd.out.len - gd.out.off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0 && gd.stdio)
			gd_fatal("writing events to stdout: %s",
				 util_errno_desc(errno));
		if (n < 0) {
			pause_port();
			break;
		}
		gd.out.off += (size_t)n;
		gd.out.sent += (uint64_t)n;
	}
	runner_out_sent(&gd.runner);
	if (gd.out.off == gd.out.len) {
		gd.out.off = gd.out.len = 0;
		if (gd.out.dropped > gd.out.dropped_told) {
			gd_log(4,
			       "dropped %llu kmsg and heartbeat events while "
			       "the host was not reading",
			       (unsigned long long)(gd.out.dropped -
						    gd.out.dropped_told));
			gd.out.dropped_told = gd.out.dropped;
		}
	} else if (gd.out.off > gd.out.cap / 2) {
		memmove(gd.out.buf, gd.out.buf + gd.out.off,
			gd.out.len - gd.out.off);
		gd.out.len -= gd.out.off;
		gd.out.off = 0;
	}
}

static void out_queue(const char *line, size_t len, bool droppable)
{
	if (gd.out.len - gd.out.off + len > OUT_MAX && droppable) {
		gd.out.dropped++;
		return;
	}
	if (gd.out.len + len > gd.out.cap) {
		size_t cap = gd.out.cap ? gd.out.cap : 65536;
		char *n;

		while (cap < gd.out.len + len)
			cap *= 2;
		n = realloc(gd.out.buf, cap);
		if (!n) {
			gd.out.dropped++;
			return;
		}
		gd.out.buf = n;
		gd.out.cap = cap;
	}
	memcpy(gd.out.buf + gd.out.len, line, len);
	gd.out.len += len;
	gd.out.queued += len;
	out_flush();
}

static void emit(const struct proto_event *ev, void *data)
{
	char *line;
	size_t len;

	if (proto_event_encode(ev, &line, &len) < 0 ||
	    (gd.fm.on && framed_wrap(&gd.fm, &line, &len) < 0)) {
		gd_log(3, "encoding a '%s' event failed",
		       proto_event_name(ev->type));
		return;
	}
	out_queue(line, len,
		  ev->type == PROTO_EV_KMSG || ev->type == PROTO_EV_HEARTBEAT);
	free(line);
}

static void emit_simple(enum proto_event_type type)
{
	struct proto_event ev = { .type = type, .t_us = guestd_now_us() };

	emit(&ev, NULL);
}

/* Forward every kernel log record there is, tagged with what is open. */
static void kmsg_forward(void *data)
{
	static struct proto_event ev;
	struct kmsg_record rec;
	int r;

	if (!gd.have_kmsg)
		return;
	while ((r = kmsg_reader_next(&gd.kmsg, &rec)) > 0) {
		memset(&ev, 0, sizeof(ev));
		ev.type = PROTO_EV_KMSG;
		ev.t_us = guestd_now_us();
		snprintf(ev.u.kmsg.scenario, PROTO_NAME_MAX, "%s",
			 runner_scenario(&gd.runner));
		ev.u.kmsg.step = runner_step(&gd.runner);
		ev.u.kmsg.seq = rec.seq;
		ev.u.kmsg.ts_us = rec.ts_us;
		ev.u.kmsg.prio = rec.prio;
		util_escape(ev.u.kmsg.msg, PROTO_TEXT_MAX, rec.msg, rec.msg_len,
			    0);
		emit(&ev, NULL);
	}
	if (r < 0) {
		gd.have_kmsg = false;
		gd_log(3, "reading '%s' failed, no more kernel log: %s",
		       gd.kmsg_path, util_errno_desc(-r));
	}
}

/* In the scenario child: let go of what belongs to the supervisor. */
static void child_init(void *data)
{
	if (gd.in_fd > 2)
		close(gd.in_fd);
	if (gd.out_fd > 2 && gd.out_fd != gd.in_fd)
		close(gd.out_fd);
	if (gd.have_kmsg)
		kmsg_reader_close(&gd.kmsg);
	if (gd.sfd >= 0)
		close(gd.sfd);
	audit_close(&gd.audit);
}

static void runner_log(int prio, const char *msg, void *data)
{
	(void)data;
	gd_log(prio, "%s", msg);
}

static uint64_t out_queued(void *data)
{
	(void)data;
	return gd.out.queued;
}

static uint64_t out_sent(void *data)
{
	(void)data;
	return gd.out.sent;
}

static const struct runner_ops runner_ops = {
	.emit = emit,
	.before_event = kmsg_forward,
	.child_init = child_init,
	.log = runner_log,
	.out_queued = out_queued,
	.out_sent = out_sent,
};

static void read_text(const char *path, char *dst, size_t size)
{
	size_t len;
	char *buf;

	dst[0] = '\0';
	if (fileio_read(path, size * 4, &buf, &len, NULL) < 0)
		return;
	while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		len--;
	util_escape(dst, size, buf, len, 0);
	free(buf);
}

static void config_digest(char *dst, size_t size)
{
	uint64_t h = PROTO_FNV_INIT;
	char buf[65536];
	ssize_t n;
	int fd;

	dst[0] = '\0';
	fd = open("/proc/config.gz", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		h = proto_fnv1a(h, buf, (size_t)n);
	close(fd);
	if (n == 0)
		snprintf(dst, size, "%016llx", (unsigned long long)h);
}

static void send_hello(void)
{
	static struct proto_event ev;
	struct kmsg_clock clk;
	struct utsname u;
	int r;

	memset(&ev, 0, sizeof(ev));
	ev.type = PROTO_EV_HELLO;
	ev.u.hello.version = PROTO_VERSION;
	if (uname(&u) == 0)
		snprintf(ev.u.hello.release, PROTO_RELEASE_MAX, "%s",
			 u.release);
	read_text("/proc/version", ev.u.hello.proc_version, PROTO_TEXT_MAX);
	read_text("/proc/cmdline", ev.u.hello.cmdline, PROTO_TEXT_MAX);
	config_digest(ev.u.hello.config_digest, PROTO_DIGEST_MAX);
	/* Without it hostctl falls back on a looser bound. A test's kmsg
	 * file is no kernel log (-ENOTTY): nothing to say then. */
	r = kmsg_clock_measure(gd.kmsg_path, &clk);
	if (r < 0 && r != -ENOTTY)
		gd_log(4, "no clock marker in '%s': %s", gd.kmsg_path,
		       util_errno_desc(-r));
	if (r == 0) {
		ev.u.hello.clock_t0_us = clk.t0_us;
		ev.u.hello.clock_ts_us = clk.ts_us;
		ev.u.hello.clock_t1_us = clk.t1_us;
	}
	restored_boot_id(gd.boot_id, ev.u.hello.boot_id, PROTO_BOOT_ID_MAX);
	ev.u.hello.restored = gd.boot_id[0] != '\0';
	ev.t_us = guestd_now_us();
	ev.u.hello.boot_ms = ev.t_us / 1000;
	emit(&ev, NULL);
}

static __attribute__((noreturn)) void shutdown_now(const char *why)
{
	uint64_t end;

	gd_log(5, "shutting down: %s", why);
	runner_abort(&gd.runner, "guestd shut down while it ran");
	emit_simple(PROTO_EV_BYE);
	end = guestd_now_us() + BYE_FLUSH_US;
	while (gd.out.len > gd.out.off && guestd_now_us() < end) {
		struct pollfd pfd = { .fd = gd.out_fd, .events = POLLOUT };

		poll(&pfd, 1, 20);
		gd.paused_until = 0;
		out_flush();
	}
	if (gd.pid1)
		gd_poweroff();
	runner_free(&gd.runner);
	exit(0);
}

/*
 * The host restored this guest from an image saved right after its hello
 * (proto.h, "restored"): take the boot id, the wall clock and the seed it
 * gives, and say hello again, with a new clock sample and the kernel log
 * from its start, as a guest that just booted would. A request that
 * comes while a scenario runs is no restore: it is ignored.
 */
static void on_restored(struct json_object *obj)
{
	struct proto_restored r;
	char err[256];
	int rc;

	if (proto_restored_decode(obj, &r, err, sizeof(err)) < 0) {
		gd_log(3, "ignoring a restored request: %s", err);
		return;
	}
	if (runner_busy(&gd.runner)) {
		gd_log(3, "ignoring a restored request: a scenario runs");
		return;
	}
	snprintf(gd.boot_id, sizeof(gd.boot_id), "%s", r.boot_id);
	if (restored_apply(&r, err, sizeof(err)) < 0)
		gd_log(4, "restored: %s", err);
	send_hello();
	if (gd.have_kmsg)
		kmsg_reader_close(&gd.kmsg);
	rc = kmsg_reader_open(&gd.kmsg, gd.kmsg_path, false);
	gd.have_kmsg = rc == 0;
	gd.next_heartbeat = guestd_now_us() + gd.heartbeat_ms * 1000;
}

static int on_request(const char *line, size_t len, void *data)
{
	enum proto_request_type type;
	struct json_object *obj;
	char err[256];

	if (proto_request_decode(line, len, &type, &obj, err, sizeof(err)) <
	    0) {
		gd_log(3, "ignoring a request: %s: '%.120s'", err, line);
		return 0;
	}
	if (type == PROTO_REQ_RUN) {
		runner_submit(&gd.runner, obj);
		return 0;
	}
	if (type == PROTO_REQ_ACK) {
		uint64_t t_us;

		if (proto_ack_decode(obj, &t_us, err, sizeof(err)) < 0)
			gd_log(3, "ignoring an ack: %s", err);
		else
			runner_on_ack(&gd.runner, t_us);
		json_object_put(obj);
		return 0;
	}
	if (type == PROTO_REQ_RESTORED) {
		on_restored(obj);
		json_object_put(obj);
		return 0;
	}
	json_object_put(obj);
	shutdown_now("the host asked");
	return 0;
}

static void on_input(void)
{
	char buf[16384];
	ssize_t n;

	for (;;) {
		n = read(gd.in_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0 && gd.stdio)
			shutdown_now(n == 0 ? "end of input" :
					      "reading requests failed");
		if (n <= 0) {
			/* No host on the port (yet, or any more). */
			pause_port();
			return;
		}
		if (util_feed_lines(&gd.inlb, &gd.in_skip, buf, (size_t)n,
				    on_request, NULL) == -E2BIG)
			gd_log(3, "dropped a request longer than %d bytes",
			       PROTO_LINE_MAX);
	}
}

static void reap(void)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (pid == gd.ssh_pid) {
			char how[96];

			util_wait_status(status, how, sizeof(how));
			gd_log(3, "the SSH relay ended: %s", how);
			gd.ssh_pid = 0;
			continue;
		}
		runner_on_exit(&gd.runner, pid, status);
	}
}

static void on_signal(void)
{
	struct signalfd_siginfo si;

	while (read(gd.sfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGCHLD)
			reap();
		else if (!gd.pid1)
			shutdown_now(strsignal((int)si.ssi_signo));
	}
	/* A coalesced SIGCHLD may hide more exits. */
	reap();
}

static void setup_signals(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	gd.sfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (gd.sfd < 0)
		gd_fatal("signalfd: %s", util_errno_desc(errno));
	signal(SIGPIPE, SIG_IGN);
}

/* The port appears when virtio_console has probed: wait for it. */
static void find_port(void)
{
	uint64_t start = guestd_now_us();
	char path[512];
	int r, fd;

	for (;;) {
		r = port_find(PORT_SYSDIR, PORT_DEVDIR, PROTO_PORT_NAME, path,
			      sizeof(path));
		if (r == 0) {
			fd = port_open(path);
			if (fd >= 0) {
				gd.in_fd = gd.out_fd = fd;
				return;
			}
			r = fd;
		}
		if (guestd_now_us() - start > PORT_WAIT_MS * 1000ULL)
			gd_fatal("no virtio-serial port named '%s' after %d ms"
				 " (%s)",
				 PROTO_PORT_NAME, PORT_WAIT_MS,
				 util_errno_desc(-r));
		step_msleep(PORT_RETRY_MS);
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: guestd [--port PATH | --stdio] [--kmsg PATH]\n"
		"              [--modules-dir DIR] [--heartbeat-ms N]\n"
		"Runs vlalab scenarios inside a guest (see docs/guestd.md).\n"
		"  --port PATH        talk over PATH instead of the virtio port '%s'\n"
		"  --stdio            read requests on stdin, write events to stdout\n"
		"  --framed PATH      write framed events to console PATH, take run\n"
		"                     requests from --requests FILE (default %s)\n"
		"  --kmsg PATH        kernel log to forward and search (default /dev/kmsg)\n"
		"  --modules-dir DIR  modules.dep and .ko files (default /lib/modules/$(uname -r))\n"
		"  --heartbeat-ms N   heartbeat period (default 1000)\n",
		PROTO_PORT_NAME, FRAMED_REQUESTS_PATH);
}

static void parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "port", required_argument, NULL, 'p' },
		{ "stdio", no_argument, NULL, 's' },
		{ "framed", required_argument, NULL, 'f' },
		{ "requests", required_argument, NULL, 'r' },
		{ "kmsg", required_argument, NULL, 'k' },
		{ "modules-dir", required_argument, NULL, 'm' },
		{ "heartbeat-ms", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			gd.port_path = optarg;
			break;
		case 's':
			gd.stdio = true;
			break;
		case 'f':
			gd.framed_path = optarg;
			break;
		case 'r':
			gd.requests_path = optarg;
			break;
		case 'k':
			gd.kmsg_path = optarg;
			break;
		case 'm':
			gd.env.modules_dir = optarg;
			break;
		case 'b':
			gd.heartbeat_ms = strtoull(optarg, &end, 10);
			if (*end || gd.heartbeat_ms == 0)
				gd_fatal("bad --heartbeat-ms '%s'", optarg);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			if (gd.pid1)
				break;
			usage(stderr);
			exit(2);
		}
	}
	if (gd.port_path && gd.stdio)
		gd_fatal("--port and --stdio exclude each other");
}

/* As PID 1, fds 0-2 may be closed: point them at the console. */
static void setup_pid1(void)
{
	int fd;

	for (int i = 0; i < 3; i++) {
		if (fcntl(i, F_GETFD) >= 0)
			continue;
		fd = open("/dev/console", O_RDWR | O_NOCTTY);
		if (fd < 0)
			fd = open("/dev/null", O_RDWR);
		if (fd >= 0 && fd != i) {
			dup2(fd, i);
			close(fd);
		}
	}
	gd.log_fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
}

static int poll_timeout(uint64_t now, bool kmsg_file)
{
	uint64_t next = gd.next_heartbeat, d = runner_deadline(&gd.runner);

	if (d && d < next)
		next = d;
	if (gd.paused_until && gd.paused_until < next)
		next = gd.paused_until;
	if (kmsg_file && now + KMSG_FILE_POLL_MS * 1000 < next)
		next = now + KMSG_FILE_POLL_MS * 1000;
	if (next <= now)
		return 0;
	return (int)((next - now + 999) / 1000);
}

/* Framed mode, the runner idle: the next run request, or the end. */
static void framed_next(void)
{
	int r = framed_pump(&gd.fm, on_request);

	if (r == -E2BIG)
		gd_log(3, "dropped a run request longer than %d bytes",
		       PROTO_LINE_MAX);
	else if (r == 0)
		shutdown_now("the run requests ran out");
}

static void main_loop(void)
{
	enum { P_IN, P_OUT, P_KMSG, P_SIG, P_RUN, P_N };

	for (;;) {
		struct pollfd pfd[P_N];
		bool kmsg_file = gd.have_kmsg && !gd.kmsg.is_chr;
		bool is_paused = paused();
		uint64_t now;

		for (int i = 0; i < P_N; i++)
			pfd[i] = (struct pollfd){ .fd = -1 };
		if (!is_paused) {
			gd.paused_until = 0;
			pfd[P_IN] = (struct pollfd){ gd.in_fd, POLLIN, 0 };
			if (gd.out.len > gd.out.off)
				pfd[P_OUT] = (struct pollfd){ gd.out_fd,
							      POLLOUT, 0 };
		}
		if (gd.have_kmsg && gd.kmsg.is_chr)
			pfd[P_KMSG] = (struct pollfd){ gd.kmsg.fd, POLLIN, 0 };
		pfd[P_SIG] = (struct pollfd){ gd.sfd, POLLIN, 0 };
		pfd[P_RUN] =
			(struct pollfd){ runner_fd(&gd.runner), POLLIN, 0 };

		if (poll(pfd, P_N, poll_timeout(guestd_now_us(), kmsg_file)) <
			    0 &&
		    errno != EINTR)
			gd_fatal("poll: %s", util_errno_desc(errno));

		/* Kernel lines first, so they carry the step they came in. */
		kmsg_forward(NULL);
		if (pfd[P_RUN].revents)
			runner_on_readable(&gd.runner);
		if (pfd[P_SIG].revents)
			on_signal();
		if (pfd[P_IN].revents & (POLLIN | POLLERR | POLLHUP)) {
			on_input();
			/* A virtio port without a host says POLLHUP. */
			if ((pfd[P_IN].revents & POLLHUP) && !gd.stdio)
				pause_port();
		}
		if (pfd[P_OUT].revents)
			out_flush();
		now = guestd_now_us();
		runner_on_tick(&gd.runner, now);
		if (gd.fm.on && !runner_busy(&gd.runner))
			framed_next();
		if (now >= gd.next_heartbeat) {
			emit_simple(PROTO_EV_HEARTBEAT);
			gd.next_heartbeat = now + gd.heartbeat_ms * 1000;
		}
		if (!paused())
			out_flush();
	}
}

int main(int argc, char **argv)
{
	int r;

	/*
	 * json-c seeds its default string hash from getrandom() or
	 * /dev/urandom. Early in boot, before the kernel's RNG is ready,
	 * reading /dev/urandom makes the kernel gather jitter entropy first,
	 * which under TCG held up hello by about a second. The unseeded
	 * Perl-like hash needs no randomness; guestd's input is small and
	 * comes from the host, so hash flooding is no concern. It must be
	 * chosen before the first JSON object exists.
	 */
	json_global_set_string_hash(JSON_C_STR_HASH_PERLLIKE);
	gd.pid1 = getpid() == 1;
	gd.heartbeat_ms = 1000;
	gd.kmsg_path = "/dev/kmsg";
	if (gd.pid1)
		setup_pid1();
	parse_args(argc, argv);
	setup_signals();
	gd.env.kmsg_path = gd.kmsg_path;

	if (gd.stdio) {
		gd.in_fd = STDIN_FILENO;
		gd.out_fd = STDOUT_FILENO;
		fcntl(gd.in_fd, F_SETFL, fcntl(gd.in_fd, F_GETFL) | O_NONBLOCK);
		fcntl(gd.out_fd, F_SETFL,
		      fcntl(gd.out_fd, F_GETFL) | O_NONBLOCK);
	} else if (gd.port_path) {
		r = port_open(gd.port_path);
		if (r < 0)
			gd_fatal("opening '%s': %s", gd.port_path,
				 util_errno_desc(-r));
		gd.in_fd = gd.out_fd = r;
	} else if (framed_wanted(&gd.framed_path, gd.pid1)) {
		gd.out_fd = r = port_open(gd.framed_path);
		if (r >= 0)
			r = framed_open(&gd.fm, gd.requests_path ?
							gd.requests_path :
							FRAMED_REQUESTS_PATH);
		if (r < 0)
			gd_fatal("framed mode on '%s': %s", gd.framed_path,
				 util_errno_desc(-r));
	} else {
		find_port();
		/* Without dropbear in the image there is no SSH port. */
		gd.ssh_pid = sshport_start();
		if (gd.ssh_pid < 0 && gd.ssh_pid != -ENOENT)
			gd_log(4, "no SSH port: %s",
			       util_errno_desc(-gd.ssh_pid));
	}
	if (proto_linebuf_init(&gd.inlb) < 0)
		gd_fatal("out of memory");
	runner_init(&gd.runner, step_table, &gd.env, &runner_ops, NULL);

	/* hello goes first; the kernel log so far follows it. */
	send_hello();
	r = kmsg_reader_open(&gd.kmsg, gd.kmsg_path, false);
	if (r < 0)
		gd_log(4, "no kernel log from '%s': %s", gd.kmsg_path,
		       util_errno_desc(-r));
	gd.have_kmsg = r == 0;
	/* The audit counts WARN/BUG lines from its own reader. */
	if (audit_open(&gd.audit, gd.kmsg_path, NULL) < 0)
		gd_log(4,
		       "the state-leak audit will not count kernel log "
		       "lines from '%s'",
		       gd.kmsg_path);
	gd.runner.audit = &gd.audit;
	gd.next_heartbeat = guestd_now_us() + gd.heartbeat_ms * 1000;
	main_loop();
}
