// SPDX-License-Identifier: GPL-2.0-only
/*
 * The real guestd binary, end to end over --stdio with a fake kmsg file:
 * hello first, hostile lines survived, a scenario's events with kmsg lines
 * tagged by step, heartbeats, the per-step overhead, shutdown and bye.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guestd.h"
#include "tap.h"
#include "testutil.h"

#define EVENTS_MAX 1024

static int to_gd, from_gd;
static struct proto_linebuf lb;
static struct proto_event events[EVENTS_MAX];
static size_t nevents;
static int bad_lines;

static int on_line(const char *line, size_t len, void *data)
{
	char err[256];

	if (nevents == EVENTS_MAX)
		return 0;
	if (proto_event_decode(line, len, &events[nevents], err,
			       sizeof(err)) < 0) {
		printf("# undecodable line from guestd: %s: %.200s\n", err,
		       line);
		bad_lines++;
		return 0;
	}
	nevents++;
	return 0;
}

/* Read events until one of @type arrives (true) or @ms pass or EOF. */
static bool wait_for(enum proto_event_type type, int ms)
{
	uint64_t end = guestd_now_us() + (uint64_t)ms * 1000;
	size_t seen = nevents;

	for (;;) {
		struct pollfd pfd = { .fd = from_gd, .events = POLLIN };
		char buf[65536];
		uint64_t now = guestd_now_us();
		ssize_t n;

		for (; seen < nevents; seen++)
			if (events[seen].type == type)
				return true;
		if (now >= end)
			return false;
		poll(&pfd, 1, (int)((end - now) / 1000) + 1);
		if (!pfd.revents)
			continue;
		n = read(from_gd, buf, sizeof(buf));
		if (n <= 0)
			return false;
		proto_linebuf_feed(&lb, buf, (size_t)n, on_line, NULL);
	}
}

static void send_line(const char *s)
{
	if (fileio_write_all(to_gd, s, strlen(s)) < 0)
		printf("# writing to guestd failed\n");
}

static const struct proto_event *find(enum proto_event_type t, size_t from)
{
	for (size_t i = from; i < nevents; i++)
		if (events[i].type == t)
			return &events[i];
	return NULL;
}

static pid_t start(const char *guestd, const char *kmsg)
{
	int in[2], out[2];
	pid_t pid;

	if (pipe(in) < 0 || pipe(out) < 0)
		exit(99);
	pid = fork();
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execl(guestd, guestd, "--stdio", "--kmsg", kmsg,
		      "--heartbeat-ms", "200", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	to_gd = in[1];
	from_gd = out[0];
	return pid;
}

static void test_scenario(const char *kmsg)
{
	const struct proto_event *ev;
	char req[4096];
	size_t mark = nevents;
	bool tagged = false, boot = false;

	snprintf(req, sizeof(req),
		 "{\"req\":\"run\",\"scenario\":\"e2e/basic\","
		 "\"timeout_ms\":10000,\"step_timeout_ms\":5000,\"steps\":["
		 "{\"kind\":\"write\",\"name\":\"log\",\"path\":\"%s\","
		 "\"append\":true,\"value\":\"6,2,200,-;from step zero\\n\"},"
		 "{\"kind\":\"sleep\",\"ms\":300},"
		 "{\"kind\":\"read\",\"path\":\"%s\",\"match\":\"step zero$\"}"
		 "]}\n", kmsg, kmsg);
	send_line(req);
	ok(wait_for(PROTO_EV_SCENARIO_END, 5000), "the scenario ends");
	ev = find(PROTO_EV_SCENARIO_BEGIN, mark);
	ok(ev && ev->u.scenario_begin.nsteps == 3 &&
	   strcmp(ev->u.scenario_begin.scenario, "e2e/basic") == 0,
	   "scenario_begin");
	for (uint32_t s = 0; s < 3; s++) {
		bool b = false, e = false;

		for (size_t i = mark; i < nevents; i++) {
			b |= events[i].type == PROTO_EV_STEP_BEGIN &&
			     events[i].u.step_begin.step == s;
			e |= events[i].type == PROTO_EV_STEP_END &&
			     events[i].u.step_end.step == s &&
			     events[i].u.step_end.verdict == VERDICT_PASS;
		}
		ok(b && e, "step_begin and a passing step_end for each step");
	}
	ev = find(PROTO_EV_SCENARIO_END, mark);
	ok(ev && ev->u.scenario_end.verdict == VERDICT_PASS,
	   "scenario_end pass");
	for (size_t i = 0; i < nevents; i++) {
		if (events[i].type != PROTO_EV_KMSG)
			continue;
		if (events[i].u.kmsg.seq == 1)
			boot = strcmp(events[i].u.kmsg.msg, "boot line") == 0 &&
			       events[i].u.kmsg.scenario[0] == '\0' &&
			       events[i].u.kmsg.step == -1 &&
			       events[i].u.kmsg.ts_us == 100;
		if (events[i].u.kmsg.seq == 2)
			tagged = strcmp(events[i].u.kmsg.msg,
					"from step zero") == 0 &&
				 strcmp(events[i].u.kmsg.scenario,
					"e2e/basic") == 0 &&
				 events[i].u.kmsg.step == 0;
	}
	ok(boot, "the log from before is forwarded, untagged");
	ok(tagged, "a line logged in step 0 is tagged with it");
	ok(find(PROTO_EV_HEARTBEAT, mark) != NULL,
	   "heartbeats go on while a step runs");
}

/* Many trivial read steps: what guestd adds to each. */
static void test_overhead(const char *file)
{
	const struct proto_event *b, *e;
	uint64_t in_steps = 0, n = 0;
	size_t mark = nevents;
	char *req = malloc(65536);
	size_t o;

	o = (size_t)sprintf(req, "{\"req\":\"run\",\"scenario\":\"e2e/speed\","
			    "\"steps\":[");
	for (int i = 0; i < 100; i++)
		o += (size_t)sprintf(req + o, "%s{\"kind\":\"read\",\"path\":"
				     "\"%s\",\"equals\":\"x\"}", i ? "," : "",
				     file);
	sprintf(req + o, "]}\n");
	send_line(req);
	free(req);
	ok(wait_for(PROTO_EV_SCENARIO_END, 10000), "100 read steps end");
	b = find(PROTO_EV_STEP_BEGIN, mark);
	e = find(PROTO_EV_SCENARIO_END, mark);
	for (size_t i = mark; i < nevents; i++) {
		if (events[i].type != PROTO_EV_STEP_END)
			continue;
		in_steps += events[i].u.step_end.duration_us;
		n += events[i].u.step_end.verdict == VERDICT_PASS;
	}
	is_int((long long)n, 100, "all pass");
	if (b && e && n) {
		uint64_t per = (e->t_us - b->t_us) / n;

		printf("# per read step: %llu us wall, %llu us in the step, "
		       "%llu us guestd overhead\n", (unsigned long long)per,
		       (unsigned long long)(in_steps / n),
		       (unsigned long long)(per - in_steps / n));
		ok(per < 5000, "per-step wall time is under 5 ms on the host");
	}
}

/* --port with a pty, as a stand-in for the virtio port. */
static void test_pty(const char *guestd, const char *kmsg)
{
	int master, status;
	pid_t pid;

	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0) {
		ok(0, "a pty for --port");
		return;
	}
	pid = fork();
	if (pid == 0) {
		execl(guestd, guestd, "--port", ptsname(master), "--kmsg", kmsg,
		      (char *)NULL);
		_exit(127);
	}
	from_gd = to_gd = master;
	nevents = 0;
	lb.len = 0;
	ok(wait_for(PROTO_EV_HELLO, 5000) && events[0].type == PROTO_EV_HELLO,
	   "--port: hello first over a pty");
	send_line("{\"req\":\"run\",\"scenario\":\"e2e/pty\",\"steps\":"
		  "[{\"kind\":\"sleep\",\"ms\":1}]}\n");
	ok(wait_for(PROTO_EV_SCENARIO_END, 5000) &&
	   find(PROTO_EV_SCENARIO_END, 0)->u.scenario_end.verdict ==
		   VERDICT_PASS, "--port: a scenario runs");
	send_line("{\"req\":\"shutdown\"}\n");
	ok(wait_for(PROTO_EV_BYE, 5000), "--port: bye");
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "--port: exit 0");
	close(master);
}

int main(int argc, char **argv)
{
	char *dir = tu_tmpdir(), kmsg[512], x[512], *big;
	const struct proto_event *ev;
	struct utsname u;
	int status;
	pid_t pid;

	if (argc < 2) {
		printf("1..0 # SKIP usage: test-e2e GUESTD\n");
		return 77;
	}
	signal(SIGPIPE, SIG_IGN);
	proto_linebuf_init(&lb);
	snprintf(kmsg, sizeof(kmsg), "%s/kmsg", dir);
	snprintf(x, sizeof(x), "%s/x", dir);
	tu_write(kmsg, "6,1,100,-;boot line\n", O_TRUNC);
	tu_write(x, "x\n", O_TRUNC);
	pid = start(argv[1], kmsg);

	ok(wait_for(PROTO_EV_HELLO, 5000), "hello arrives");
	ev = nevents ? &events[0] : NULL;
	ok(ev && ev->type == PROTO_EV_HELLO, "hello is the first event");
	uname(&u);
	ok(ev && ev->u.hello.version == PROTO_VERSION, "with our version");
	is_str(ev ? ev->u.hello.release : "", u.release, "and uname -r");
	ok(ev && ev->u.hello.boot_ms > 0 && ev->u.hello.proc_version[0],
	   "boot time and /proc/version");

	/* Hostile input: guestd logs it and carries on. */
	send_line("not json\n{\"req\":5}\n{\"req\":\"dance\"}\n");
	big = malloc(PROTO_LINE_MAX + 10);
	memset(big, 'x', PROTO_LINE_MAX + 8);
	big[PROTO_LINE_MAX + 8] = '\n';
	big[PROTO_LINE_MAX + 9] = '\0';
	send_line(big);
	free(big);
	send_line("{\"req\":\"run\",\"scenario\":\"e2e/bad\",\"steps\":"
		  "[{\"kind\":\"read\",\"path\":1}]}\n");
	ok(wait_for(PROTO_EV_SCENARIO_END, 5000), "a bad run request ends");
	ev = find(PROTO_EV_SCENARIO_END, 0);
	ok(ev && ev->u.scenario_end.verdict == VERDICT_ERROR,
	   "as error, after the hostile lines");

	test_scenario(kmsg);
	test_overhead(x);

	send_line("{\"req\":\"shutdown\"}\n");
	ok(wait_for(PROTO_EV_BYE, 5000), "shutdown says bye");
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "and guestd exits 0 (it is not PID 1)");
	close(to_gd);
	close(from_gd);
	test_pty(argv[1], kmsg);
	is_int(bad_lines, 0, "every line guestd sent decodes");
	proto_linebuf_free(&lb);
	tu_rmrf(dir);
	return tap_done();
}
