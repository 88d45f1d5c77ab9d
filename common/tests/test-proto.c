// SPDX-License-Identifier: GPL-2.0-only
/* Protocol encode/decode, including the hostile lines a guest may send. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "tap.h"

static char err[256];

static int decode(const char *line, struct proto_event *ev)
{
	err[0] = '\0';
	return proto_event_decode(line, strlen(line), ev, err, sizeof(err));
}

static void test_roundtrip(void)
{
	struct proto_event ev = { .type = PROTO_EV_STEP_END, .t_us = 1234567 };
	struct proto_event back;
	char *line;
	size_t len;

	strcpy(ev.u.step_end.scenario, "ftrace/filter-loaded");
	ev.u.step_end.step = 3;
	ev.u.step_end.verdict = VERDICT_FAIL;
	ev.u.step_end.duration_us = 420;
	strcpy(ev.u.step_end.expected, "errno EINVAL");
	strcpy(ev.u.step_end.got, "success \"quoted\" /path\n");

	ok(proto_event_encode(&ev, &line, &len) == 0, "encode step_end");
	ok(len == strlen(line) && line[len - 1] == '\n', "one line, newline-terminated");
	ok(memchr(line, '\n', len - 1) == NULL, "no newline inside the line");
	ok(strstr(line, "\\/") == NULL, "slashes are not escaped");
	line[len - 1] = '\0';
	is_int(decode(line, &back), 0, "decode it back");
	is_int(back.type, PROTO_EV_STEP_END, "type survives");
	is_int((long long)back.t_us, 1234567, "t_us survives");
	is_str(back.u.step_end.scenario, "ftrace/filter-loaded", "scenario survives");
	is_int(back.u.step_end.step, 3, "step survives");
	is_int(back.u.step_end.verdict, VERDICT_FAIL, "verdict survives");
	is_str(back.u.step_end.got, "success \"quoted\" /path\n", "escapes survive");
	free(line);
}

static void test_every_event_roundtrips(void)
{
	for (int t = 0; t < PROTO_EV__COUNT; t++) {
		struct proto_event ev = { .type = t, .t_us = 7 };
		struct proto_event back;
		char *line, what[64];
		size_t len;

		if (t == PROTO_EV_KMSG)
			ev.u.kmsg.step = -1;
		snprintf(what, sizeof(what), "%s round-trips", proto_event_name(t));
		ok(proto_event_encode(&ev, &line, &len) == 0 &&
		   proto_event_decode(line, len - 1, &back, err, sizeof(err)) == 0 &&
		   back.type == (enum proto_event_type)t, what);
		free(line);
	}
}

static void test_hostile(void)
{
	struct proto_event ev;
	char *big;

	is_int(decode("{\"ev\":\"bogus\",\"t_us\":1}", &ev), -EPROTO, "unknown event");
	is_str(err, "unknown event 'bogus'", "unknown event is named");
	is_int(decode("{\"ev\":\"heartbeat\",\"t_us\":1", &ev), -EBADMSG, "truncated JSON");
	is_str(err, "truncated JSON", "truncation is named");
	is_int(decode("[1,2]", &ev), -EBADMSG, "an array is not an event");
	is_int(decode("{\"ev\":\"heartbeat\",\"t_us\":1} x", &ev), -EBADMSG, "trailing bytes");
	is_int(decode("{\"ev\":\"heartbeat\",\"t_us\":\"1\"}", &ev), -EPROTO, "t_us as a string");
	is_int(decode("{\"ev\":\"heartbeat\",\"t_us\":-1}", &ev), -EPROTO, "negative t_us");
	is_int(decode("{\"ev\":\"heartbeat\"}", &ev), -EPROTO, "missing t_us");
	is_int(decode("{\"ev\":5,\"t_us\":1}", &ev), -EPROTO, "ev as a number");
	is_int(decode("{\"ev\":\"heartbeat\",\"t_us\":1,\"x\":1}", &ev), -EPROTO, "unknown field");
	is_str(err, "heartbeat: unknown field 'x'", "unknown field is named");
	is_int(decode("{\"ev\":\"scenario_begin\",\"t_us\":1,\"scenario\":\"a\"}", &ev),
	       -EPROTO, "missing nsteps");
	is_str(err, "scenario_begin: missing field 'nsteps'", "missing field is named");
	is_int(decode("{\"ev\":\"scenario_begin\",\"t_us\":1,\"scenario\":1,\"nsteps\":1}", &ev),
	       -EPROTO, "scenario as a number");
	is_str(err, "scenario_begin: field 'scenario' has type int", "wrong type is named");
	is_int(decode("{\"ev\":\"scenario_begin\",\"t_us\":1,\"scenario\":\"a\",\"nsteps\":4294967296}", &ev),
	       -EPROTO, "nsteps above u32");
	is_int(decode("{\"ev\":\"scenario_begin\",\"t_us\":1,\"scenario\":\"a\",\"nsteps\":1.5}", &ev),
	       -EPROTO, "nsteps as a double");
	is_int(decode("{\"ev\":\"step_end\",\"t_us\":1,\"scenario\":\"a\",\"step\":0,"
		      "\"verdict\":\"great\",\"duration_us\":1}", &ev), -EPROTO, "unknown verdict");
	is_int(decode("{\"ev\":\"step_end\",\"t_us\":1,\"scenario\":\"a\",\"step\":0,"
		      "\"verdict\":\"xpass\",\"duration_us\":1}", &ev), -EPROTO,
	       "xpass is the host's verdict: the guest may not send it");
	is_int(decode("{\"ev\":\"kmsg\",\"t_us\":1,\"step\":-2,\"seq\":1,\"ts_us\":1,"
		      "\"prio\":1,\"msg\":\"x\"}", &ev), -EPROTO, "kmsg step below -1");
	is_int(decode("{\"ev\":\"kmsg\",\"t_us\":1,\"step\":-1,\"seq\":1,\"ts_us\":1,"
		      "\"prio\":9,\"msg\":\"x\"}", &ev), -EPROTO, "kmsg prio above 7");
	is_int(decode("{\"ev\":\"kmsg\",\"t_us\":1,\"step\":-1,\"seq\":1,\"ts_us\":1,"
		      "\"prio\":3,\"msg\":\"a\\u0000b\"}", &ev), -EPROTO, "NUL inside a string");
	is_int(decode("{\"ev\":\"kmsg\",\"t_us\":1,\"step\":-1,\"seq\":1,\"ts_us\":1,"
		      "\"prio\":3,\"msg\":\"ok\"}", &ev), 0, "a good kmsg");
	is_str(ev.u.kmsg.scenario, "", "optional scenario defaults to empty");

	/* A string one byte over its bound. */
	big = calloc(1, PROTO_NAME_MAX + 128);
	strcpy(big, "{\"ev\":\"scenario_begin\",\"t_us\":1,\"nsteps\":1,\"scenario\":\"");
	memset(big + strlen(big), 'a', PROTO_NAME_MAX);
	strcat(big, "\"}");
	is_int(decode(big, &ev), -E2BIG, "scenario name over its bound");
	free(big);

	/* A line over PROTO_LINE_MAX. */
	big = malloc(PROTO_LINE_MAX + 1);
	memset(big, ' ', PROTO_LINE_MAX);
	big[PROTO_LINE_MAX] = '\0';
	is_int(decode(big, &ev), -E2BIG, "line over the bound");
	free(big);
}

struct lines {
	int n;
	char last[64];
};

static int count_line(const char *line, size_t len, void *userdata)
{
	struct lines *l = userdata;

	l->n++;
	snprintf(l->last, sizeof(l->last), "%.*s", (int)len, line);
	return 0;
}

static void test_linebuf(void)
{
	struct proto_linebuf lb;
	struct lines l = { 0 };
	char *big;

	ok(proto_linebuf_init(&lb) == 0, "linebuf init");
	ok(proto_linebuf_feed(&lb, "ab", 2, count_line, &l) == 0 && l.n == 0,
	   "a partial line is held");
	ok(proto_linebuf_feed(&lb, "c\nde\nf", 6, count_line, &l) == 0 && l.n == 2,
	   "two lines complete");
	is_str(l.last, "de", "second line content");
	ok(proto_linebuf_feed(&lb, "\n", 1, count_line, &l) == 0 && l.n == 3,
	   "the held part completes");
	is_str(l.last, "f", "held part content");

	big = malloc(PROTO_LINE_MAX);
	memset(big, 'x', PROTO_LINE_MAX);
	is_int(proto_linebuf_feed(&lb, big, PROTO_LINE_MAX - 1, count_line, &l), 0,
	       "a line of exactly the limit is held");
	is_int(proto_linebuf_feed(&lb, "y", 1, count_line, &l), -E2BIG,
	       "one more byte is too long");
	lb.len = 0;
	memset(big, 'x', PROTO_LINE_MAX - 1);
	big[PROTO_LINE_MAX - 1] = '\n';
	is_int(proto_linebuf_feed(&lb, big, PROTO_LINE_MAX, count_line, &l), 0,
	       "longest allowed line plus newline passes");
	is_int(l.n, 4, "and is delivered");
	free(big);
	proto_linebuf_free(&lb);
}

static void test_requests_and_helpers(void)
{
	char *line;
	size_t len;
	int e;

	ok(proto_run_encode("ftrace/x", 60000, 10000,
			    "[{\"kind\":\"sleep\",\"ms\":1}]", &line, &len) == 0,
	   "encode run");
	is_str(line, "{\"req\":\"run\",\"scenario\":\"ftrace/x\",\"timeout_ms\":60000,"
	       "\"step_timeout_ms\":10000,\"steps\":[{\"kind\":\"sleep\",\"ms\":1}]}\n",
	       "run request text");
	free(line);
	is_int(proto_run_encode("x", 1, 1, "{}", &line, &len), -EINVAL,
	       "steps must be an array");
	ok(proto_shutdown_encode(&line, &len) == 0, "encode shutdown");
	is_str(line, "{\"req\":\"shutdown\"}\n", "shutdown text");
	free(line);

	ok(proto_errno_parse("EINVAL", &e) == 0 && e == EINVAL, "EINVAL parses");
	is_int(proto_errno_parse("EBOGUS", &e), -EINVAL, "unknown errno name");
	is_str(proto_errno_name(ENOENT), "ENOENT", "errno name");
	/* FNV-1a 64 of "a", from the reference test vectors. */
	is_int((long long)proto_fnv1a(PROTO_FNV_INIT, "a", 1),
	       (long long)UINT64_C(0xaf63dc4c8601ec8c), "fnv1a('a')");
	ok(proto_verdict_ok(VERDICT_XFAIL) && !proto_verdict_ok(VERDICT_ERROR),
	   "xfail keeps a run green, error does not");
	ok(!proto_verdict_ok(VERDICT_XPASS), "xpass is a failure");
	is_str(proto_verdict_name(VERDICT_XPASS), "xpass", "xpass's name");
}

/* The state-leak audit's events and the run request's state_files. */
static void test_audit(void)
{
	struct proto_event ev = { .type = PROTO_EV_AUDIT_FILE, .t_us = 9 };
	struct proto_event back;
	char *line, big[128];
	size_t len;

	strcpy(ev.u.audit_file.scenario, "ftrace/x");
	strcpy(ev.u.audit_file.phase, "after");
	strcpy(ev.u.audit_file.path, "/sys/kernel/tracing/set_ftrace_filter");
	ev.u.audit_file.size = 37;
	strcpy(ev.u.audit_file.hash, "0123456789abcdef");
	strcpy(ev.u.audit_file.head, "trace_printk_irq_work [trace_printk]\n");
	ok(proto_event_encode(&ev, &line, &len) == 0, "encode audit_file");
	line[len - 1] = '\0';
	is_int(decode(line, &back), 0, "decode it back");
	is_str(back.u.audit_file.path, "/sys/kernel/tracing/set_ftrace_filter",
	       "path survives");
	is_str(back.u.audit_file.err, "", "err is optional and empty");
	is_int((long long)back.u.audit_file.size, 37, "size survives");
	free(line);

	is_int(decode("{\"ev\":\"audit\",\"t_us\":1,\"scenario\":\"a/b\","
		      "\"phase\":\"before\",\"tainted\":512,\"warns\":1,"
		      "\"bugs\":0,\"nfiles\":3}", &back), 0, "an audit decodes");
	is_int((long long)back.u.audit.tainted, 512, "with its taint");
	is_int(decode("{\"ev\":\"audit\",\"t_us\":1,\"scenario\":\"a/b\","
		      "\"phase\":\"before\",\"tainted\":0,\"warns\":0,"
		      "\"bugs\":0,\"nfiles\":17}", &back), -EPROTO,
	       "more state files than PROTO_AUDIT_FILES_MAX are refused");
	is_str(err, "audit: nfiles 17 is above 16", "and say why");
	is_int(decode("{\"ev\":\"audit\",\"t_us\":1,\"scenario\":\"a/b\","
		      "\"phase\":\"before\",\"tainted\":-1,\"warns\":0,"
		      "\"bugs\":0,\"nfiles\":0}", &back), -EPROTO,
	       "a negative taint is refused");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	snprintf(err, sizeof(err), "%s", "");
	{
		char l[512];

		snprintf(l, sizeof(l), "{\"ev\":\"audit_file\",\"t_us\":1,"
			 "\"scenario\":\"a/b\",\"phase\":\"%s\",\"path\":\"/x\","
			 "\"size\":0,\"hash\":\"0\"}", big);
		is_int(decode(l, &back), -E2BIG, "an overlong phase is refused");
	}

	ok(proto_run_encode_audit("ftrace/x", 60000, 10000,
				  "[{\"kind\":\"sleep\",\"ms\":1}]",
				  "[\"/proc/modules\"]", &line, &len) == 0,
	   "encode run with state_files");
	is_str(line, "{\"req\":\"run\",\"scenario\":\"ftrace/x\",\"timeout_ms\":60000,"
	       "\"step_timeout_ms\":10000,\"steps\":[{\"kind\":\"sleep\",\"ms\":1}],"
	       "\"state_files\":[\"/proc/modules\"]}\n",
	       "state_files follows the steps, slashes unescaped");
	free(line);
	is_int(proto_run_encode_audit("x", 1, 1, "[]", "{}", &line, &len),
	       -EINVAL, "state_files must be an array");
}

/* The cleanup list: its request keys and scenario_begin's ncleanup. */
static void test_cleanup(void)
{
	struct proto_run run = {
		.scenario = "dsa/x", .timeout_ms = 60000,
		.step_timeout_ms = 10000,
		.steps_json = "[{\"kind\":\"sleep\",\"ms\":1}]",
	};
	struct proto_event ev = { .type = PROTO_EV_SCENARIO_BEGIN, .t_us = 2 };
	struct proto_event back;
	char *line;
	size_t len;

	ok(proto_run_encode_req(&run, &line, &len) == 0,
	   "encode run without cleanup");
	ok(!strstr(line, "cleanup"), "no cleanup keys without a list");
	free(line);
	run.cleanup_json = "[{\"kind\":\"rmmod\",\"module\":\"m\"}]";
	run.cleanup_timeout_ms = 30000;
	ok(proto_run_encode_req(&run, &line, &len) == 0,
	   "encode run with cleanup");
	is_str(line, "{\"req\":\"run\",\"scenario\":\"dsa/x\",\"timeout_ms\":60000,"
	       "\"step_timeout_ms\":10000,\"steps\":[{\"kind\":\"sleep\",\"ms\":1}],"
	       "\"cleanup\":[{\"kind\":\"rmmod\",\"module\":\"m\"}],"
	       "\"cleanup_timeout_ms\":30000}\n",
	       "cleanup and its bound follow the steps");
	free(line);
	run.cleanup_json = "{}";
	is_int(proto_run_encode_req(&run, &line, &len), -EINVAL,
	       "cleanup must be an array");

	strcpy(ev.u.scenario_begin.scenario, "dsa/x");
	ev.u.scenario_begin.nsteps = 3;
	ev.u.scenario_begin.ncleanup = 2;
	ok(proto_event_encode(&ev, &line, &len) == 0, "encode scenario_begin");
	line[len - 1] = '\0';
	is_int(decode(line, &back), 0, "decode it back");
	ok(back.u.scenario_begin.nsteps == 3 &&
	   back.u.scenario_begin.ncleanup == 2, "ncleanup survives");
	free(line);
	is_int(decode("{\"ev\":\"scenario_begin\",\"t_us\":1,"
		      "\"scenario\":\"a/b\",\"nsteps\":1}", &back), 0,
	       "ncleanup may be absent");
	is_int(back.u.scenario_begin.ncleanup, 0, "and is then 0");
	is_int(decode("{\"ev\":\"scenario_begin\",\"t_us\":1,"
		      "\"scenario\":\"a/b\",\"nsteps\":1,\"ncleanup\":65}",
		      &back), -EPROTO, "more than PROTO_CLEANUP_MAX is refused");
	is_str(err, "scenario_begin: ncleanup 65 is above 64", "and says why");
	is_int(decode("{\"ev\":\"scenario_begin\",\"t_us\":1,"
		      "\"scenario\":\"a/b\",\"nsteps\":1,\"ncleanup\":\"1\"}",
		      &back), -EPROTO, "a mistyped ncleanup is refused");
	is_int(decode("{\"ev\":\"scenario_begin\",\"t_us\":1,"
		      "\"scenario\":\"a/b\",\"nsteps\":1,\"ncleanup\":-1}",
		      &back), -EPROTO, "a negative ncleanup is refused");
}

int main(void)
{
	test_cleanup();
	test_roundtrip();
	test_every_event_roundtrips();
	test_hostile();
	test_linebuf();
	test_requests_and_helpers();
	test_audit();
	return tap_done();
}
