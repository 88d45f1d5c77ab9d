// SPDX-License-Identifier: GPL-2.0-only
/*
 * The supervisor: events in order, the first failure ends a scenario, step
 * and scenario timeouts kill the whole process group, a crashing child is
 * error, bad requests are error, and kmsg_expect's "since" marks.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "guestd.h"
#include "tap.h"
#include "testutil.h"

#define EVENTS_MAX 128

static struct proto_event events[EVENTS_MAX];
static size_t nevents;
static char dir[256], kmsg_path[512], pidfile[512];
static pid_t reaped_pid[64];
static int reaped_status[64];
static size_t nreaped;

/*
 * A kmsg line written while a step waits for it (test_kmsg_appears()):
 * run_all() appends it LATE_AFTER_US after the step's step_begin came,
 * so it appears after the step began whatever the load, and the step's
 * end must come after it.
 */
#define LATE_AFTER_US 150000
static struct {
	bool armed;
	uint64_t begin_us, written_us, end_us;
} late;

/*
 * A bound on a whole phase (test_cleanup_times_out()) must fire inside a
 * step, whatever the load: from gate.scenario's scenario_begin until its
 * step gate.step begins, run_all() ticks the runner with its start time,
 * so no deadline can pass before that step began (forking and the ack
 * take their time).
 */
static struct {
	const char *scenario;
	int step;
	bool held, open;
} gate = { .step = -1 };

static void capture(const struct proto_event *ev, void *data)
{
	if (nevents < EVENTS_MAX)
		events[nevents++] = *ev;
	if (gate.step >= 0 && ev->type == PROTO_EV_SCENARIO_BEGIN &&
	    strcmp(ev->u.scenario_begin.scenario, gate.scenario) == 0)
		gate.held = true;
	if (gate.step >= 0 && ev->type == PROTO_EV_STEP_BEGIN &&
	    ev->u.step_begin.step == (uint32_t)gate.step &&
	    strcmp(ev->u.step_begin.scenario, gate.scenario) == 0)
		gate.open = true;
	if (late.armed && ev->type == PROTO_EV_STEP_BEGIN &&
	    ev->u.step_begin.step == 0)
		late.begin_us = guestd_now_us();
	if (late.armed && ev->type == PROTO_EV_STEP_END &&
	    ev->u.step_end.step == 0)
		late.end_us = guestd_now_us();
}

static char logged[PROTO_TEXT_MAX];

static void capture_log(int prio, const char *msg, void *data)
{
	snprintf(logged, sizeof(logged), "%s", msg);
}

static const struct runner_ops ops = { .emit = capture, .log = capture_log };

/*
 * Test-only kinds: a step that crashes, one that leaves a process, and
 * one with a reset hook, which counts its calls (in the supervisor).
 */
static int crash_run(struct step_ctx *ctx, struct json_object *step,
		     struct step_result *res)
{
	/* The default action, even under a sanitizer's handler. */
	signal(SIGSEGV, SIG_DFL);
	raise(SIGSEGV);
	return 0;
}

static int spawn_run(struct step_ctx *ctx, struct json_object *step,
		     struct step_result *res)
{
	char buf[32];
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			pause();
	}
	snprintf(buf, sizeof(buf), "%d", (int)pid);
	tu_write(pidfile, buf, O_TRUNC);
	res->verdict = VERDICT_PASS;
	return 0;
}

static int arm_run(struct step_ctx *ctx, struct json_object *step,
		   struct step_result *res)
{
	res->verdict = VERDICT_PASS;
	return 0;
}

/* Reports two subtests; named "stray", the first for another step. */
static int subtests_run(struct step_ctx *ctx, struct json_object *step,
			struct step_result *res)
{
	struct ks_result t = { .name = "one", .verdict = VERDICT_PASS };
	const char *name = step_str(step, "name");
	bool stray = name && !strcmp(name, "stray");

	ctx->subtest(ctx->subtest_data, ctx->step + stray, 0, &t);
	snprintf(t.name, sizeof(t.name), "two");
	t.verdict = VERDICT_SKIP;
	snprintf(t.reason, sizeof(t.reason), "no two");
	ctx->subtest(ctx->subtest_data, ctx->step, 1, &t);
	res->verdict = VERDICT_PASS;
	return 0;
}

/* Writes a piece of output for the next step: the child misbehaving. */
static int stray_output_run(struct step_ctx *ctx, struct json_object *step,
			    struct step_result *res)
{
	ctx->output(ctx->output_data, ctx->step + 1, false, "x\n", 2);
	res->verdict = VERDICT_PASS;
	return 0;
}

static unsigned int nresets;
static int reset_err;

static int arm_reset(const struct step_env *e, char *what, size_t whatlen)
{
	nresets++;
	snprintf(what, whatlen, "disarming");
	return reset_err;
}

static const struct step_ops step_crash = { .name = "crash",
					    .run = crash_run };
static const struct step_ops step_spawn = { .name = "spawn",
					    .run = spawn_run };
static const struct step_ops step_arm = { .name = "arm", .run = arm_run,
					  .reset = arm_reset };

static const struct step_ops step_subtests = { .name = "subtests",
					       .run = subtests_run };
static const struct step_ops step_stray_output = { .name = "stray_output",
						   .run = stray_output_run };

static const struct step_ops *const table[] = {
	&step_write, &step_read,  &step_sleep,	  &step_kmsg_expect,
	&step_crash, &step_spawn, &step_arm,	  &step_subtests,
	&step_exec,  &step_stray_output,
	NULL,
};

static struct step_env env;
/* A child whose exit the driver keeps from the runner: "stuck". */
static pid_t hide_pid;
static int hidden_status = -1;

/* Drive @r until it is idle, as guestd's main loop does. */
static uint64_t run_all(struct runner *r, const char *const *reqs, size_t n)
{
	uint64_t t0 = guestd_now_us(), limit = t0 + 10000000;

	nevents = 0;
	for (size_t i = 0; i < n; i++) {
		runner_submit(r, json_tokener_parse(reqs[i]));
		if (i == 0 && hide_pid == -1)
			hide_pid = r->pid;
	}
	while (runner_busy(r) && guestd_now_us() < limit) {
		struct pollfd pfd = { .fd = runner_fd(r), .events = POLLIN };
		int status;
		pid_t pid;

		poll(&pfd, 1, 5);
		if (pfd.revents)
			runner_on_readable(r);
		if (late.armed && late.begin_us && !late.written_us &&
		    guestd_now_us() - late.begin_us >= LATE_AFTER_US) {
			tu_write(kmsg_path, "3,9,9,-;late line\n", O_APPEND);
			late.written_us = guestd_now_us();
		}
		runner_on_tick(r, gate.held && !gate.open ? t0 :
							      guestd_now_us());
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
			if (pid == hide_pid) {
				hidden_status = status;
				continue;
			}
			if (!runner_on_exit(r, pid, status) && nreaped < 64) {
				reaped_pid[nreaped] = pid;
				reaped_status[nreaped++] = status;
			}
		}
	}
	ok(!runner_busy(r), "the runner went idle");
	return (guestd_now_us() - t0) / 1000;
}

static const struct proto_event *find(enum proto_event_type t, size_t nth)
{
	for (size_t i = 0; i < nevents; i++)
		if (events[i].type == t && nth-- == 0)
			return &events[i];
	return NULL;
}

static const char *types(void)
{
	static char buf[1024];

	buf[0] = '\0';
	for (size_t i = 0; i < nevents; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
			 i ? " " : "", proto_event_name(events[i].type));
	return buf;
}

static void test_pass(struct runner *r)
{
	char req[2048], f[512];
	const char *reqs[] = { req };
	const struct proto_event *ev;

	snprintf(req, sizeof(req),
		 "{\"req\":\"run\",\"scenario\":\"t/pass\",\"timeout_ms\":5000,"
		 "\"step_timeout_ms\":1000,\"steps\":["
		 "{\"kind\":\"write\",\"path\":\"%s/f\",\"value\":\"on\\n\"},"
		 "{\"kind\":\"read\",\"name\":\"check\",\"path\":\"%s/f\","
		 "\"equals\":\"on\"}]}", dir, dir);
	snprintf(f, sizeof(f), "%s/f", dir);
	tu_write(f, "", O_TRUNC);
	run_all(r, reqs, 1);
	is_str(types(), "scenario_begin step_begin step_end step_begin "
	       "step_end scenario_end", "the events, in order");
	ev = find(PROTO_EV_SCENARIO_BEGIN, 0);
	ok(ev && ev->u.scenario_begin.nsteps == 2 &&
	   strcmp(ev->u.scenario_begin.scenario, "t/pass") == 0,
	   "scenario_begin names the scenario and its steps");
	ev = find(PROTO_EV_STEP_BEGIN, 1);
	ok(ev && ev->u.step_begin.step == 1 &&
	   strcmp(ev->u.step_begin.kind, "read") == 0 &&
	   strcmp(ev->u.step_begin.name, "check") == 0,
	   "step_begin has the index, kind and name");
	ev = find(PROTO_EV_STEP_END, 1);
	ok(ev && ev->u.step_end.verdict == VERDICT_PASS &&
	   ev->u.step_end.duration_us < 100000, "step_end pass, with duration");
	ev = find(PROTO_EV_SCENARIO_END, 0);
	ok(ev && ev->u.scenario_end.verdict == VERDICT_PASS &&
	   ev->u.scenario_end.reason[0] == '\0', "scenario_end pass");
	for (size_t i = 1; i < nevents; i++)
		if (events[i].t_us < events[i - 1].t_us)
			ok(0, "timestamps go forward");
}

static void test_fail_ends(struct runner *r)
{
	char req[2048], f[512];
	const char *reqs[] = { req };
	const struct proto_event *ev;

	snprintf(req, sizeof(req),
		 "{\"req\":\"run\",\"scenario\":\"t/fail\",\"steps\":["
		 "{\"kind\":\"write\",\"path\":\"%s/f\",\"value\":\"on\\n\"},"
		 "{\"kind\":\"read\",\"name\":\"check\",\"path\":\"%s/f\","
		 "\"equals\":\"off\"},"
		 "{\"kind\":\"write\",\"path\":\"%s/f\",\"value\":\"never\"}]}",
		 dir, dir, dir);
	run_all(r, reqs, 1);
	is_str(types(), "scenario_begin step_begin step_end step_begin "
	       "step_end scenario_end", "the failing step is the last");
	ev = find(PROTO_EV_STEP_END, 1);
	ok(ev && ev->u.step_end.verdict == VERDICT_FAIL, "step 1 fails");
	is_str(ev ? ev->u.step_end.expected : "", "content 'off'",
	       "step_end has expected");
	is_str(ev ? ev->u.step_end.got : "", "content 'on\n'",
	       "step_end has got");
	ev = find(PROTO_EV_SCENARIO_END, 0);
	ok(ev && ev->u.scenario_end.verdict == VERDICT_FAIL, "scenario fails");
	is_str(ev ? ev->u.scenario_end.reason : "",
	       "step 2 (read 'check'): expected content 'off'; got content "
	       "'on\n'", "its reason names the step, expected and got");
	snprintf(f, sizeof(f), "%s/f", dir);
	is_str(tu_read(f), "on\n",
	       "the step after the failure did not run");
}

/* Was @pid (an orphan that came to us) killed by SIGKILL? */
static bool reaped_killed(pid_t pid)
{
	int status;

	for (size_t i = 0; i < nreaped; i++)
		if (reaped_pid[i] == pid)
			return WIFSIGNALED(reaped_status[i]) &&
			       WTERMSIG(reaped_status[i]) == SIGKILL;
	/* Not reaped by the time the runner went idle: wait up to 1 s. */
	for (int i = 0; i < 100; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
		step_msleep(10);
	}
	kill(pid, SIGKILL);
	return false;
}

static void test_step_timeout(struct runner *r)
{
	const char *reqs[] = {
		"{\"req\":\"run\",\"scenario\":\"t/slow\",\"timeout_ms\":5000,"
		"\"step_timeout_ms\":3000,\"steps\":[{\"kind\":\"spawn\"},"
		"{\"kind\":\"sleep\",\"ms\":4000,\"timeout_ms\":150}]}",
	};
	const struct proto_event *ev;
	uint64_t ms;
	const char *pid;

	nreaped = 0;
	ms = run_all(r, reqs, 1);
	ok(ms >= 150 && ms < 1500, "a step timeout ends the scenario early");
	ev = find(PROTO_EV_STEP_END, 1);
	ok(ev && ev->u.step_end.verdict == VERDICT_TIMEOUT,
	   "the step's verdict is timeout");
	is_str(ev ? ev->u.step_end.expected : "", "step done within 150 ms",
	       "expected: its own timeout_ms");
	ok(ev && strncmp(ev->u.step_end.got, "still running after ", 20) == 0,
	   "got: still running");
	ev = find(PROTO_EV_SCENARIO_END, 0);
	ok(ev && ev->u.scenario_end.verdict == VERDICT_TIMEOUT,
	   "the scenario's verdict is timeout");
	ok(ev && strstr(ev->u.scenario_end.reason,
			"step 2 (sleep) timed out after 150 ms; killed "
			"process group") != NULL, "its reason says which step");
	pid = tu_read(pidfile);
	ok(atoi(pid) > 0 && reaped_killed(atoi(pid)),
	   "a process the scenario left in its group was SIGKILLed too");
}

static void test_scenario_timeout(struct runner *r)
{
	const char *reqs[] = {
		"{\"req\":\"run\",\"scenario\":\"t/long\",\"timeout_ms\":200,"
		"\"steps\":[{\"kind\":\"sleep\",\"ms\":120},"
		"{\"kind\":\"sleep\",\"ms\":120}]}",
	};
	const struct proto_event *ev;
	uint64_t ms;

	ms = run_all(r, reqs, 1);
	ok(ms >= 200 && ms < 1500, "the scenario timeout ends it");
	ev = find(PROTO_EV_STEP_END, 1);
	ok(ev && ev->u.step_end.verdict == VERDICT_TIMEOUT,
	   "the open step is reported as timeout");
	ev = find(PROTO_EV_SCENARIO_END, 0);
	ok(ev && ev->u.scenario_end.verdict == VERDICT_TIMEOUT,
	   "and the scenario");
	ok(ev && strstr(ev->u.scenario_end.reason,
			"scenario timed out after 200 ms in step 2 (sleep)"),
	   "the reason says so");
}

static void test_crash(struct runner *r)
{
	const char *reqs[] = {
		"{\"req\":\"run\",\"scenario\":\"t/crash\",\"steps\":["
		"{\"kind\":\"sleep\",\"ms\":1},{\"kind\":\"crash\"},"
		"{\"kind\":\"sleep\",\"ms\":1}]}",
		"{\"req\":\"run\",\"scenario\":\"t/after\",\"steps\":["
		"{\"kind\":\"sleep\",\"ms\":1}]}",
	};
	const struct proto_event *ev;

	run_all(r, reqs, 2);
	ev = find(PROTO_EV_STEP_END, 1);
	ok(ev && ev->u.step_end.verdict == VERDICT_ERROR,
	   "a crashing step is error");
	ev = find(PROTO_EV_SCENARIO_END, 0);
	ok(ev && ev->u.scenario_end.verdict == VERDICT_ERROR,
	   "so is its scenario");
	is_str(ev ? ev->u.scenario_end.reason : "",
	       "scenario process killed by signal SIGSEGV in step 2 (crash)",
	       "with the signal and the step as reason");
	ev = find(PROTO_EV_SCENARIO_END, 1);
	ok(ev && ev->u.scenario_end.verdict == VERDICT_PASS &&
	   strcmp(ev->u.scenario_end.scenario, "t/after") == 0,
	   "the next scenario still runs and passes");
}

/* A killed child that is never reaped (stuck in the kernel). */
static void test_abandon(struct runner *r)
{
	const char *reqs[] = {
		"{\"req\":\"run\",\"scenario\":\"t/stuck\",\"steps\":["
		"{\"kind\":\"sleep\",\"ms\":5000,\"timeout_ms\":100}]}",
		"{\"req\":\"run\",\"scenario\":\"t/next\",\"steps\":["
		"{\"kind\":\"sleep\",\"ms\":1}]}",
	};
	const struct proto_event *ev;
	uint64_t ms;

	r->abandon_ms = 200;
	hide_pid = -1;
	ms = run_all(r, reqs, 2);
	ok(hidden_status != -1, "the first child was killed (its exit hidden)");
	ev = find(PROTO_EV_SCENARIO_END, 0);
	ok(ev && ev->u.scenario_end.verdict == VERDICT_TIMEOUT,
	   "its scenario is timeout at once");
	ev = find(PROTO_EV_SCENARIO_END, 1);
	ok(ev && ev->u.scenario_end.verdict == VERDICT_PASS &&
	   strcmp(ev->u.scenario_end.scenario, "t/next") == 0,
	   "the next scenario runs after abandon_ms without that reap");
	ok(ms >= 300 && ms < 2000, "after the timeout and abandon_ms");
	is_int(r->abandoned, 1, "one child was abandoned");
	hide_pid = 0;
	r->abandon_ms = RUNNER_ABANDON_MS;
}

static void test_bad_requests(struct runner *r)
{
	static const struct {
		const char *req, *reason;
	} bad[] = {
		{ "{\"req\":\"run\",\"steps\":[]}",
		  "bad run request: 'scenario' must be a string of 1..127 bytes" },
		{ "{\"req\":\"run\",\"scenario\":\"t/b\"}",
		  "bad run request: 'steps' must be an array" },
		{ "{\"req\":\"run\",\"scenario\":\"t/b\",\"steps\":[]}",
		  "bad run request: 'steps' must hold 1..256 steps, not 0" },
		{ "{\"req\":\"run\",\"scenario\":\"t/b\",\"timeout_ms\":\"5\","
		  "\"steps\":[{\"kind\":\"sleep\",\"ms\":1}]}",
		  "bad run request: 'timeout_ms' must be an integer in "
		  "1..3600000" },
		{ "{\"req\":\"run\",\"scenario\":\"t/b\",\"steps\":["
		  "{\"kind\":\"sleep\",\"ms\":1},"
		  "{\"kind\":\"write\",\"path\":[],\"value\":\"\"}]}",
		  "bad run request: steps[1]: key 'path': expected a string, got an array" },
		{ "{\"req\":\"run\",\"scenario\":\"t/b\",\"extra\":1,\"steps\":["
		  "{\"kind\":\"sleep\",\"ms\":1}]}",
		  "bad run request: unknown key 'extra'" },
	};
	const struct proto_event *ev;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *reqs[] = { bad[i].req };

		run_all(r, reqs, 1);
		is_str(types(), "scenario_end", bad[i].req);
		ev = find(PROTO_EV_SCENARIO_END, 0);
		ok(ev && ev->u.scenario_end.verdict == VERDICT_ERROR,
		   "is error");
		is_str(ev ? ev->u.scenario_end.reason : "", bad[i].reason,
		       "with the reason");
	}
}

/*
 * kmsg_expect inside a real scenario: the write steps append records to a
 * fake kmsg file, as the kernel would log them.
 */
static void test_kmsg_since(struct runner *r)
{
	char req[4096];
	const char *reqs[] = { req };
	const struct proto_event *ev;

	tu_write(kmsg_path, "6,1,1,-;hello old\n", O_TRUNC);
	snprintf(req, sizeof(req),
		 "{\"req\":\"run\",\"scenario\":\"t/kmsg\",\"steps\":["
		 "{\"kind\":\"write\",\"path\":\"%s\",\"append\":true,"
		 "\"value\":\"6,2,2,-;hello one\\n\"},"
		 /* 1: since the previous step (0) began: sees "one". */
		 "{\"kind\":\"kmsg_expect\",\"match\":\"^hello one$\"},"
		 /* 2: since step 1 began: "one" came before. */
		 "{\"kind\":\"kmsg_expect\",\"match\":\"one\",\"absent\":true},"
		 /* 3: since the scenario began: "one", never "old". */
		 "{\"kind\":\"kmsg_expect\",\"match\":\"one\","
		 "\"since\":\"scenario\"},"
		 "{\"kind\":\"kmsg_expect\",\"match\":\"old\",\"absent\":true,"
		 "\"since\":\"scenario\"},"
		 /* 5: one that fails, to check the text. */
		 "{\"kind\":\"kmsg_expect\",\"match\":\"two\","
		 "\"since\":\"scenario\",\"within_ms\":30}]}", kmsg_path);
	run_all(r, reqs, 1);
	for (uint32_t i = 0; i < 5; i++) {
		ev = find(PROTO_EV_STEP_END, i);
		ok(ev && ev->u.step_end.verdict == VERDICT_PASS,
		   i == 1   ? "a record from the previous step is seen"
		   : i == 2 ? "since step: one from before is not"
		   : i == 3 ? "since scenario: seen"
		   : i == 4 ? "a record from before the scenario is not"
			    : "the write step passes");
		if (ev && ev->u.step_end.verdict != VERDICT_PASS)
			printf("#   expected %s\n#   got %s\n#   reason %s\n",
			       ev->u.step_end.expected, ev->u.step_end.got,
			       ev->u.step_end.reason);
	}
	ev = find(PROTO_EV_STEP_END, 5);
	ok(ev && ev->u.step_end.verdict == VERDICT_FAIL,
	   "a missing line fails after within_ms");
	is_str(ev ? ev->u.step_end.expected : "",
	       "a kernel log line matching 'two' since the scenario began "
	       "(waited)", "expected the line");
	ok(ev && strncmp(ev->u.step_end.got, "no match in 1 records after ",
			 28) == 0 &&
	   strstr(ev->u.step_end.got, "; the last: 'hello one'"),
	   "got: how many were looked at, and the last");
}

/* since "boot": records from before the scenario count, read afresh. */
static void test_kmsg_boot(struct runner *r)
{
	char req[4096];
	const char *reqs[] = { req };
	const struct proto_event *ev;

	tu_write(kmsg_path, "6,1,1,-;Hibernate boot line\n", O_TRUNC);
	snprintf(req, sizeof(req),
		 "{\"req\":\"run\",\"scenario\":\"t/boot\",\"steps\":["
		 "{\"kind\":\"kmsg_expect\",\"match\":\"^Hibernate boot\","
		 "\"since\":\"boot\"},"
		 "{\"kind\":\"kmsg_expect\",\"match\":\"nowhere\",\"absent\":true,"
		 "\"since\":\"boot\"},"
		 "{\"kind\":\"kmsg_expect\",\"match\":\"boot line\",\"absent\":true,"
		 "\"since\":\"boot\"}]}");
	run_all(r, reqs, 1);
	ev = find(PROTO_EV_STEP_END, 0);
	ok(ev && ev->u.step_end.verdict == VERDICT_PASS,
	   "since boot: a line from before the scenario is seen");
	ev = find(PROTO_EV_STEP_END, 1);
	ok(ev && ev->u.step_end.verdict == VERDICT_PASS,
	   "since boot: an absent line passes absent");
	ev = find(PROTO_EV_STEP_END, 2);
	ok(ev && ev->u.step_end.verdict == VERDICT_FAIL,
	   "since boot: a present line fails absent");
	is_str(ev ? ev->u.step_end.got : "", "record 1: 'Hibernate boot line'",
	       "since boot: got names the record");
}

static void test_kmsg_appears(struct runner *r)
{
	char req[4096];
	const char *reqs[] = { req };
	const struct proto_event *ev;

	tu_write(kmsg_path, "", O_TRUNC);
	snprintf(req, sizeof(req),
		 "{\"req\":\"run\",\"scenario\":\"t/kmsg2\",\"steps\":["
		 "{\"kind\":\"kmsg_expect\",\"match\":\"late\","
		 "\"within_ms\":3000},"
		 "{\"kind\":\"kmsg_expect\",\"match\":\"late\",\"absent\":true,"
		 "\"since\":\"scenario\"}]}");
	memset(&late, 0, sizeof(late));
	late.armed = true;
	run_all(r, reqs, 1);
	late.armed = false;
	ev = find(PROTO_EV_STEP_END, 0);
	ok(ev && ev->u.step_end.verdict == VERDICT_PASS && late.written_us &&
	   late.end_us >= late.written_us,
	   "kmsg_expect waits within_ms for a line");
	ev = find(PROTO_EV_STEP_END, 1);
	ok(ev && ev->u.step_end.verdict == VERDICT_FAIL,
	   "absent fails when the line is there");
	is_str(ev ? ev->u.step_end.got : "", "record 9: 'late line'",
	       "showing the record");
}

/* The step_end of step number @step, or NULL. */
static const struct proto_event *step_end_of(uint32_t step)
{
	for (size_t i = 0; i < nevents; i++)
		if (events[i].type == PROTO_EV_STEP_END &&
		    events[i].u.step_end.step == step)
			return &events[i];
	return NULL;
}

/* A failing main step: the cleanup list still runs, all of it. */
static void test_cleanup_after_fail(struct runner *r)
{
	char req[4096], f[512], c1[512], c2[512];
	const char *reqs[] = { req };
	const struct proto_event *ev;

	snprintf(f, sizeof(f), "%s/f", dir);
	snprintf(c1, sizeof(c1), "%s/c1", dir);
	snprintf(c2, sizeof(c2), "%s/c2", dir);
	tu_write(f, "", O_TRUNC);
	tu_write(c1, "", O_TRUNC);
	tu_write(c2, "", O_TRUNC);
	snprintf(req, sizeof(req),
		 "{\"req\":\"run\",\"scenario\":\"t/cfail\",\"steps\":["
		 "{\"kind\":\"write\",\"path\":\"%s\",\"value\":\"on\\n\"},"
		 "{\"kind\":\"read\",\"name\":\"check\",\"path\":\"%s\","
		 "\"equals\":\"off\"},"
		 "{\"kind\":\"write\",\"path\":\"%s\",\"value\":\"never\"}],"
		 "\"cleanup\":["
		 "{\"kind\":\"write\",\"path\":\"%s\",\"value\":\"clean\\n\"},"
		 "{\"kind\":\"read\",\"name\":\"bad undo\",\"path\":\"%s\","
		 "\"equals\":\"dirty\"},"
		 "{\"kind\":\"write\",\"path\":\"%s\",\"value\":\"done\\n\"},"
		 "{\"kind\":\"write\",\"name\":\"guarded\","
		 "\"path\":\"%s/nodir/x\",\"value\":\"x\","
		 "\"if_exists\":\"%s/nodir\"}],"
		 "\"cleanup_timeout_ms\":5000}",
		 f, f, f, c1, c1, c2, dir, dir);
	run_all(r, reqs, 1);
	is_str(types(), "scenario_begin step_begin step_end step_begin "
	       "step_end step_begin step_end step_begin step_end step_begin "
	       "step_end step_begin step_end scenario_end",
	       "cleanup steps run after the failing step, before the end");
	ev = find(PROTO_EV_SCENARIO_BEGIN, 0);
	ok(ev && ev->u.scenario_begin.nsteps == 3 &&
	   ev->u.scenario_begin.ncleanup == 4,
	   "scenario_begin counts the main and the cleanup steps");
	ev = find(PROTO_EV_STEP_BEGIN, 2);
	ok(ev && ev->u.step_begin.step == 3 &&
	   strcmp(ev->u.step_begin.kind, "write") == 0,
	   "the first cleanup step is numbered after the main steps");
	is_str(tu_read(f), "on\n", "the main steps stopped at the failure");
	is_str(tu_read(c1), "clean\n", "cleanup step 0 ran");
	ev = step_end_of(4);
	ok(ev && ev->u.step_end.verdict == VERDICT_FAIL,
	   "a failing cleanup step is reported as fail");
	is_str(ev ? ev->u.step_end.expected : "", "content 'dirty'",
	       "with what it expected");
	is_str(tu_read(c2), "done\n",
	       "the cleanup step after a failing one still ran");
	ev = step_end_of(6);
	ok(ev && ev->u.step_end.verdict == VERDICT_SKIP,
	   "a cleanup step whose if_exists path is missing is skip");
	ok(ev && strstr(ev->u.step_end.reason, "/nodir' does not exist: "
			"nothing to clean up"), "and says why");
	ev = find(PROTO_EV_SCENARIO_END, 0);
	ok(ev && ev->u.scenario_end.verdict == VERDICT_FAIL,
	   "the scenario's verdict is its main steps'");
	is_str(ev ? ev->u.scenario_end.reason : "",
	       "step 2 (read 'check'): expected content 'off'; got content "
	       "'on\n'", "and so is its reason: the cleanup failure is apart");
}

/* A main step that times out: its group is killed, then cleanup runs. */
static void test_cleanup_after_timeout(struct runner *r)
{
	char req[2048], c1[512];
	const char *reqs[] = { req };
	const struct proto_event *ev;
	const char *pid;

	snprintf(c1, sizeof(c1), "%s/c1", dir);
	tu_write(c1, "", O_TRUNC);
	snprintf(req, sizeof(req),
		 "{\"req\":\"run\",\"scenario\":\"t/ctime\","
		 "\"timeout_ms\":5000,\"steps\":[{\"kind\":\"spawn\"},"
		 "{\"kind\":\"sleep\",\"ms\":4000,\"timeout_ms\":150}],"
		 "\"cleanup\":[{\"kind\":\"write\",\"name\":\"undo\","
		 "\"path\":\"%s\",\"value\":\"undone\\n\"}]}", c1);
	nreaped = 0;
	run_all(r, reqs, 1);
	is_str(types(), "scenario_begin step_begin step_end step_begin "
	       "step_end step_begin step_end scenario_end",
	       "after the timeout, the cleanup step ran");
	ev = step_end_of(1);
	ok(ev && ev->u.step_end.verdict == VERDICT_TIMEOUT,
	   "the main step timed out");
	ev = step_end_of(2);
	ok(ev && ev->u.step_end.verdict == VERDICT_PASS,
	   "the cleanup step (number 2) passed");
	is_str(tu_read(c1), "undone\n", "and did its work");
	ev = find(PROTO_EV_SCENARIO_END, 0);
	ok(ev && ev->u.scenario_end.verdict == VERDICT_TIMEOUT &&
	   strstr(ev->u.scenario_end.reason, "step 2 (sleep) timed out"),
	   "the scenario ends with the timeout, held until the cleanup");
	pid = tu_read(pidfile);
	ok(atoi(pid) > 0 && reaped_killed(atoi(pid)),
	   "the timed-out group was killed");
}

/* A cleanup step that times out ends the cleanup, not the verdict. */
static void test_cleanup_times_out(struct runner *r)
{
	char req[2048], c1[512];
	const char *reqs[] = { req, NULL };
	const struct proto_event *ev;

	snprintf(c1, sizeof(c1), "%s/c1", dir);
	tu_write(c1, "", O_TRUNC);
	snprintf(req, sizeof(req),
		 "{\"req\":\"run\",\"scenario\":\"t/cslow\",\"steps\":["
		 "{\"kind\":\"sleep\",\"ms\":1}],\"cleanup\":["
		 "{\"kind\":\"sleep\",\"ms\":4000,\"timeout_ms\":100},"
		 "{\"kind\":\"write\",\"path\":\"%s\",\"value\":\"x\"}]}",
		 c1);
	reqs[1] = "{\"req\":\"run\",\"scenario\":\"t/cnext\",\"steps\":["
		  "{\"kind\":\"sleep\",\"ms\":1}],\"cleanup\":["
		  "{\"kind\":\"sleep\",\"ms\":300}],"
		  "\"cleanup_timeout_ms\":100}";
	/* t/cnext's cleanup step: index 1, after its one main step. */
	gate.scenario = "t/cnext";
	gate.step = 1;
	gate.held = gate.open = false;
	run_all(r, reqs, 2);
	gate.step = -1;
	ev = step_end_of(1);
	ok(ev && ev->u.step_end.verdict == VERDICT_TIMEOUT &&
	   strstr(ev->u.step_end.reason, "step 2 (sleep) timed out after "
		  "100 ms"), "the cleanup step is timeout");
	ev = find(PROTO_EV_SCENARIO_END, 0);
	ok(ev && ev->u.scenario_end.verdict == VERDICT_PASS &&
	   !ev->u.scenario_end.reason[0],
	   "the scenario still passes: its main steps did");
	is_str(tu_read(c1), "", "the cleanup steps after the timeout did not run");
	ev = find(PROTO_EV_STEP_END, 3);
	ok(ev && ev->u.step_end.verdict == VERDICT_TIMEOUT &&
	   strstr(ev->u.step_end.reason, "cleanup timed out after 100 ms in "
		  "step 2 (sleep)"),
	   "cleanup_timeout_ms bounds the whole cleanup list");
	ev = find(PROTO_EV_SCENARIO_END, 1);
	ok(ev && ev->u.scenario_end.verdict == VERDICT_PASS &&
	   strcmp(ev->u.scenario_end.scenario, "t/cnext") == 0,
	   "the next request ran after it, with its own verdict");
}

/* A main step that crashes the child: the cleanup child still runs. */
static void test_cleanup_after_crash(struct runner *r)
{
	char req[2048], c1[512];
	const char *reqs[] = { req };
	const struct proto_event *ev;

	snprintf(c1, sizeof(c1), "%s/c1", dir);
	tu_write(c1, "", O_TRUNC);
	snprintf(req, sizeof(req),
		 "{\"req\":\"run\",\"scenario\":\"t/ccrash\",\"steps\":["
		 "{\"kind\":\"crash\"}],\"cleanup\":[{\"kind\":\"write\","
		 "\"path\":\"%s\",\"value\":\"after crash\"}]}", c1);
	run_all(r, reqs, 1);
	is_str(tu_read(c1), "after crash", "cleanup ran after the crash");
	ev = find(PROTO_EV_SCENARIO_END, 0);
	ok(ev && ev->u.scenario_end.verdict == VERDICT_ERROR &&
	   strstr(ev->u.scenario_end.reason, "killed by signal SIGSEGV"),
	   "the scenario is error, for the crash");
}

static void test_cleanup_bad_requests(struct runner *r)
{
	static const struct {
		const char *req, *reason;
	} bad[] = {
		{ "{\"req\":\"run\",\"scenario\":\"t/b\",\"steps\":["
		  "{\"kind\":\"sleep\",\"ms\":1}],\"cleanup\":{}}",
		  "bad run request: 'cleanup' must be an array" },
		{ "{\"req\":\"run\",\"scenario\":\"t/b\",\"steps\":["
		  "{\"kind\":\"sleep\",\"ms\":1}],\"cleanup\":[]}",
		  "bad run request: 'cleanup' must hold 1..64 steps, not 0" },
		{ "{\"req\":\"run\",\"scenario\":\"t/b\",\"steps\":["
		  "{\"kind\":\"sleep\",\"ms\":1}],\"cleanup\":["
		  "{\"kind\":\"sleep\",\"ms\":1,\"if_exists\":\"rel\"}]}",
		  "bad run request: cleanup[0]: key 'if_exists': 'rel' is not an "
		  "absolute path of at most 255 bytes" },
		{ "{\"req\":\"run\",\"scenario\":\"t/b\",\"steps\":["
		  "{\"kind\":\"sleep\",\"ms\":1},"
		  "{\"kind\":\"sleep\",\"ms\":1,\"timeout_ms\":0}]}",
		  "bad run request: steps[1]: key 'timeout_ms': 0 is out of "
		  "range 1..3600000" },
		{ "{\"req\":\"run\",\"scenario\":\"t/b\",\"steps\":["
		  "{\"kind\":\"sleep\",\"ms\":1,\"if_exists\":\"/x\"}]}",
		  "bad run request: steps[0]: step kind 'sleep' has no key "
		  "'if_exists'" },
		{ "{\"req\":\"run\",\"scenario\":\"t/b\",\"steps\":["
		  "{\"kind\":\"sleep\",\"ms\":1}],\"cleanup_timeout_ms\":5}",
		  "bad run request: 'cleanup_timeout_ms' without 'cleanup'" },
		{ "{\"req\":\"run\",\"scenario\":\"t/b\",\"steps\":["
		  "{\"kind\":\"sleep\",\"ms\":1}],\"cleanup\":["
		  "{\"kind\":\"sleep\"}]}",
		  "bad run request: cleanup[0]: step kind 'sleep' needs key 'ms'" },
	};
	const struct proto_event *ev;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *reqs[] = { bad[i].req };

		run_all(r, reqs, 1);
		is_str(types(), "scenario_end", bad[i].req);
		ev = find(PROTO_EV_SCENARIO_END, 0);
		is_str(ev ? ev->u.scenario_end.reason : "", bad[i].reason,
		       "refused with the reason");
	}
}

/*
 * A kind's reset hook runs in the supervisor once a child that began a
 * step of that kind is gone, however it ended, once per child; never
 * after a child that began none.
 */
static void test_reset_hook(struct runner *r)
{
	static const struct {
		const char *req;
		unsigned int calls;
		const char *what;
	} cases[] = {
		{ "{\"req\":\"run\",\"scenario\":\"t/r\",\"steps\":["
		  "{\"kind\":\"arm\"},{\"kind\":\"sleep\",\"ms\":1}]}",
		  1, "after a pass" },
		{ "{\"req\":\"run\",\"scenario\":\"t/r\",\"steps\":["
		  "{\"kind\":\"sleep\",\"ms\":1}]}",
		  0, "not without an arm step" },
		{ "{\"req\":\"run\",\"scenario\":\"t/r\",\"steps\":["
		  "{\"kind\":\"sleep\",\"ms\":1},{\"kind\":\"arm\"}]}",
		  1, "after a scenario that reached its arm step" },
		{ "{\"req\":\"run\",\"scenario\":\"t/r\",\"steps\":["
		  "{\"kind\":\"sleep\",\"ms\":1,\"timeout_ms\":1000},"
		  "{\"kind\":\"sleep\",\"ms\":5000,\"timeout_ms\":50},"
		  "{\"kind\":\"arm\"}]}",
		  0, "not when the arm step never began" },
		{ "{\"req\":\"run\",\"scenario\":\"t/r\",\"steps\":["
		  "{\"kind\":\"arm\"},{\"kind\":\"arm\"},"
		  "{\"kind\":\"crash\"}]}",
		  1, "once for two arm steps, after a crash" },
		{ "{\"req\":\"run\",\"scenario\":\"t/r\",\"steps\":["
		  "{\"kind\":\"arm\"},"
		  "{\"kind\":\"sleep\",\"ms\":5000,\"timeout_ms\":50}],"
		  "\"cleanup\":[{\"kind\":\"arm\"}]}",
		  2, "after a timeout, and after the cleanup child" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *reqs[] = { cases[i].req };

		nresets = 0;
		run_all(r, reqs, 1);
		is_int(nresets, cases[i].calls, cases[i].what);
	}

	reset_err = -EIO;
	logged[0] = '\0';
	nresets = 0;
	run_all(r, (const char *[]){ cases[0].req }, 1);
	is_int(nresets, 1, "a failing reset is called too");
	is_str(logged, "resetting what 'arm' steps left after scenario 't/r': "
	       "disarming: EIO (Input/output error)",
	       "and its failure is logged with the kind and scenario");
	reset_err = 0;
}

/* A step's subtests go out between its step_begin and step_end; one for
 * another step is the child misbehaving. */
static void test_subtests(struct runner *r)
{
	const char *ok_req = "{\"req\":\"run\",\"scenario\":\"t/sub\","
			     "\"steps\":[{\"kind\":\"sleep\",\"ms\":0},"
			     "{\"kind\":\"subtests\"}]}";
	const char *stray_req = "{\"req\":\"run\",\"scenario\":\"t/sub\","
				"\"steps\":[{\"kind\":\"subtests\","
				"\"name\":\"stray\"}]}";
	const struct proto_event *ev;

	run_all(r, &ok_req, 1);
	is_str(types(), "scenario_begin step_begin step_end step_begin "
	       "subtest subtest step_end scenario_end",
	       "subtests between their step's begin and end");
	ev = find(PROTO_EV_SUBTEST, 1);
	ok(ev && ev->u.subtest.step == 1 && ev->u.subtest.index == 1 &&
	   !strcmp(ev->u.subtest.name, "two") &&
	   ev->u.subtest.verdict == VERDICT_SKIP &&
	   !strcmp(ev->u.subtest.reason, "no two") &&
	   !strcmp(ev->u.subtest.scenario, "t/sub"),
	   "with the step, index, name, verdict, reason and scenario");
	run_all(r, &stray_req, 1);
	ev = find(PROTO_EV_STEP_END, 0);
	ok(ev && ev->u.step_end.verdict == VERDICT_ERROR &&
	   strstr(ev->u.step_end.reason, "out-of-order 'subtest'"),
	   "a subtest for another step is an error of the child");
	ok(!find(PROTO_EV_SUBTEST, 0), "and is not forwarded");
}

/* An exec step's output goes out between its step_begin and step_end,
 * each stream apart; output for another step is the child misbehaving. */
static void test_output(struct runner *r)
{
	const char *ok_req = "{\"req\":\"run\",\"scenario\":\"t/out\","
			     "\"steps\":[{\"kind\":\"exec\",\"command\":"
			     "\"echo out; echo err >&2; exit 3\"}]}";
	const char *stray_req = "{\"req\":\"run\",\"scenario\":\"t/out\","
				"\"steps\":[{\"kind\":\"stray_output\"}]}";
	const struct proto_event *ev, *ev2;

	run_all(r, &ok_req, 1);
	is_str(types(), "scenario_begin step_begin output output step_end "
	       "scenario_end", "output between its step's begin and end");
	ev = find(PROTO_EV_OUTPUT, 0);
	ev2 = find(PROTO_EV_OUTPUT, 1);
	ok(ev && ev2 && !strcmp(ev->u.output.stream, "stdout") &&
	   !strcmp(ev->u.output.data, "out\n") &&
	   !strcmp(ev2->u.output.stream, "stderr") &&
	   !strcmp(ev2->u.output.data, "err\n") && ev->u.output.step == 0 &&
	   !strcmp(ev->u.output.scenario, "t/out"),
	   "each stream's line, with the step and scenario");
	ev = find(PROTO_EV_STEP_END, 0);
	ok(ev && ev->u.step_end.verdict == VERDICT_FAIL &&
	   !strcmp(ev->u.step_end.got, "exit status 3"),
	   "exit 3: the step fails with got 'exit status 3'");
	run_all(r, &stray_req, 1);
	ev = find(PROTO_EV_STEP_END, 0);
	ok(ev && ev->u.step_end.verdict == VERDICT_ERROR &&
	   strstr(ev->u.step_end.reason, "out-of-order 'output'"),
	   "output for another step is an error of the child");
	ok(!find(PROTO_EV_OUTPUT, 0), "and is not forwarded");
}

/*
 * A host that has not read the step_begin yet: the step must not start
 * until the runner hears the bytes went out (runner_out_sent()), or a
 * step that crashes the guest loses the news that it began.
 */
static uint64_t q_bytes, s_bytes;

static void count(const struct proto_event *ev, void *data)
{
	capture(ev, data);
	q_bytes += 100; /* any size: only the order counts */
}

static uint64_t queued(void *data)
{
	return q_bytes;
}

static uint64_t sent(void *data)
{
	return s_bytes;
}

static const struct runner_ops ops_sent = { .emit = count,
					    .log = capture_log,
					    .out_queued = queued,
					    .out_sent = sent };

/*
 * Submit @req to a fresh @r whose output never goes out (and whose host
 * acknowledges step_begins when @acks), and turn the loop for half a
 * second (with its ticks when @tick), @f emptied first.
 */
static void submit_held(struct runner *r, const char *req, const char *f,
			bool tick, bool acks)
{
	uint64_t until;

	runner_init(r, table, &env, &ops_sent, NULL);
	if (acks)
		runner_on_ack(r, 0); /* the hello's */
	tu_write(f, "", O_TRUNC);
	nevents = 0;
	q_bytes = s_bytes = 0;
	runner_submit(r, json_tokener_parse(req));
	until = guestd_now_us() + 500000;
	while (guestd_now_us() < until) {
		struct pollfd pfd = { .fd = runner_fd(r), .events = POLLIN };

		poll(&pfd, 1, 5);
		if (pfd.revents)
			runner_on_readable(r);
		if (tick)
			runner_on_tick(r, guestd_now_us());
	}
}

static void test_step_waits_for_sent(void)
{
	char req[2048], f[512];
	const char *reqs[] = { req };
	struct runner r;

	snprintf(req, sizeof(req),
		 "{\"req\":\"run\",\"scenario\":\"t/sent\",\"timeout_ms\":5000,"
		 "\"step_timeout_ms\":3000,\"steps\":["
		 "{\"kind\":\"write\",\"path\":\"%s/g\",\"value\":\"on\"}]}",
		 dir);
	snprintf(f, sizeof(f), "%s/g", dir);
	submit_held(&r, req, f, false, false);
	is_str(types(), "scenario_begin step_begin",
	       "the step_begin was emitted, nothing after");
	is_str(tu_read(f), "", "the step waits while its step_begin is queued");
	/* Everything but the step_begin's bytes went out: still waiting. */
	s_bytes = q_bytes - 1;
	runner_out_sent(&r);
	usleep(100000);
	is_str(tu_read(f), "", "...until all of it went out");
	s_bytes = q_bytes;
	runner_out_sent(&r);
	run_all(&r, reqs, 0);
	is_str(tu_read(f), "on", "then it runs");
	is_str(types(), "step_end scenario_end",
	       "and the scenario ends as usual");
	runner_free(&r);
}

/*
 * The time a step waits for the host is not the step's, nor the
 * scenario's: a host slow to acknowledge (busy with another lane's dump;
 * under icount, the idle guest's clock races) must not time a step out
 * before it ran. Held past both bounds, with the loop's ticks, the step
 * then runs and passes.
 */
static void test_wait_is_not_the_steps(void)
{
	char req[2048], f[512];
	const char *reqs[] = { req };
	struct runner r;

	/* As in guestd: a go-ahead to a child that is gone fails, quietly. */
	signal(SIGPIPE, SIG_IGN);
	snprintf(req, sizeof(req),
		 "{\"req\":\"run\",\"scenario\":\"t/held\",\"timeout_ms\":300,"
		 "\"step_timeout_ms\":100,\"steps\":["
		 "{\"kind\":\"write\",\"path\":\"%s/h\",\"value\":\"on\"}]}",
		 dir);
	snprintf(f, sizeof(f), "%s/h", dir);
	submit_held(&r, req, f, true, false);
	is_str(types(), "scenario_begin step_begin",
	       "held past both bounds, nothing timed out");
	ok(runner_deadline(&r) == 0, "no deadline while it waits");
	s_bytes = q_bytes;
	runner_out_sent(&r);
	run_all(&r, reqs, 0);
	is_str(tu_read(f), "on", "then it runs");
	is_str(types(), "step_end scenario_end", "and passes");
	ok(find(PROTO_EV_SCENARIO_END, 0) &&
		   find(PROTO_EV_SCENARIO_END, 0)->u.scenario_end.verdict ==
			   VERDICT_PASS,
	   "as pass");
	runner_free(&r);
}

/*
 * A host that acknowledges step_begins: written out is not enough (QEMU
 * may hold the bytes when the kernel panics); the step waits for the ack
 * of its own step_begin, and no other.
 */
static void test_step_waits_for_ack(void)
{
	char req[2048], f[512];
	const char *reqs[] = { req };
	const struct proto_event *ev;
	struct runner r;

	snprintf(req, sizeof(req),
		 "{\"req\":\"run\",\"scenario\":\"t/acked\",\"timeout_ms\":5000,"
		 "\"step_timeout_ms\":3000,\"steps\":["
		 "{\"kind\":\"write\",\"path\":\"%s/k\",\"value\":\"on\"}]}",
		 dir);
	snprintf(f, sizeof(f), "%s/k", dir);
	submit_held(&r, req, f, true, true);
	ev = find(PROTO_EV_STEP_BEGIN, 0);
	ok(ev != NULL, "the step_begin was emitted");
	s_bytes = q_bytes;
	runner_out_sent(&r);
	usleep(100000);
	is_str(tu_read(f), "", "written out, the step still waits for its ack");
	runner_on_ack(&r, ev ? ev->t_us + 1 : 1);
	usleep(100000);
	is_str(tu_read(f), "", "another step_begin's ack does not start it");
	runner_on_ack(&r, ev ? ev->t_us : 0);
	run_all(&r, reqs, 0);
	is_str(tu_read(f), "on", "its own does");
	is_str(types(), "step_end scenario_end", "and the scenario ends");
	runner_free(&r);
}

int main(void)
{
	struct runner r;

	/* Orphans of a killed scenario come back to us to be reaped. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	snprintf(dir, sizeof(dir), "%s", tu_tmpdir());
	snprintf(kmsg_path, sizeof(kmsg_path), "%s/kmsg", dir);
	snprintf(pidfile, sizeof(pidfile), "%s/pid", dir);
	tu_write(kmsg_path, "", O_TRUNC);
	env.kmsg_path = kmsg_path;
	runner_init(&r, table, &env, &ops, NULL);
	test_pass(&r);
	test_fail_ends(&r);
	test_step_timeout(&r);
	test_scenario_timeout(&r);
	test_crash(&r);
	test_abandon(&r);
	test_bad_requests(&r);
	test_kmsg_since(&r);
	test_kmsg_boot(&r);
	test_kmsg_appears(&r);
	test_cleanup_after_fail(&r);
	test_cleanup_after_timeout(&r);
	test_cleanup_times_out(&r);
	test_cleanup_after_crash(&r);
	test_cleanup_bad_requests(&r);
	test_reset_hook(&r);
	test_subtests(&r);
	test_output(&r);
	runner_free(&r);
	test_step_waits_for_sent();
	test_wait_is_not_the_steps();
	test_step_waits_for_ack();
	tu_rmrf(dir);
	return tap_done();
}
