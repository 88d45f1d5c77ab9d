// SPDX-License-Identifier: GPL-2.0-only
/* Protocol encode/decode, including the hostile lines a guest may send. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

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
		if (t == PROTO_EV_SUBTEST)
			strcpy(ev.u.subtest.name, "a test");
		if (t == PROTO_EV_OUTPUT)
			strcpy(ev.u.output.stream, "stdout");
		snprintf(what, sizeof(what), "%s round-trips", proto_event_name(t));
		ok(proto_event_encode(&ev, &line, &len) == 0 &&
		   proto_event_decode(line, len - 1, &back, err, sizeof(err)) == 0 &&
		   back.type == (enum proto_event_type)t, what);
		free(line);
	}
}

/* A bench step's figures: on the wire only with runs, and checked. */
static void test_bench(void)
{
	struct proto_event ev = { .type = PROTO_EV_STEP_END, .t_us = 9 };
	struct proto_event back;
	const char *pre = "{\"ev\":\"step_end\",\"t_us\":1,\"scenario\":\"a/b\","
			  "\"step\":0,\"verdict\":\"pass\",\"duration_us\":5";
	char *line, buf[512];
	size_t len;

	strcpy(ev.u.step_end.scenario, "bch/bench-encode");
	ok(proto_event_encode(&ev, &line, &len) == 0 &&
	   !strstr(line, "bench_"), "no bench fields without runs");
	free(line);
	ev.u.step_end.bench = (struct proto_bench){ 10, 25, 10, 40, 516398 };
	ok(proto_event_encode(&ev, &line, &len) == 0, "encode with bench");
	line[len - 1] = '\0';
	is_int(decode(line, &back), 0, "decode it back");
	ok(back.u.step_end.bench.runs == 10 && back.u.step_end.bench.median == 25 &&
	   back.u.step_end.bench.min == 10 && back.u.step_end.bench.max == 40 &&
	   back.u.step_end.bench.cv_ppm == 516398, "the figures survive");
	free(line);

	snprintf(buf, sizeof(buf), "%s,\"bench_runs\":1001,\"bench_median\":1,"
		 "\"bench_min\":1,\"bench_max\":1}", pre);
	is_int(decode(buf, &back), -EPROTO, "runs above the bound");
	is_str(err, "step_end: bench_runs 1001 is above 1000", "says so");
	snprintf(buf, sizeof(buf), "%s,\"bench_runs\":3,\"bench_median\":1,"
		 "\"bench_min\":2,\"bench_max\":3}", pre);
	is_int(decode(buf, &back), -EPROTO, "min above the median");
	snprintf(buf, sizeof(buf), "%s,\"bench_runs\":3,\"bench_median\":4,"
		 "\"bench_min\":2,\"bench_max\":3}", pre);
	is_int(decode(buf, &back), -EPROTO, "median above max");
	snprintf(buf, sizeof(buf), "%s,\"bench_median\":4}", pre);
	is_int(decode(buf, &back), -EPROTO, "figures without runs");
	snprintf(buf, sizeof(buf), "%s,\"bench_runs\":\"3\"}", pre);
	is_int(decode(buf, &back), -EPROTO, "a mistyped runs");
}

/* A stack_tracer step's figures: on the wire only with max_bytes, checked. */
/* hello's clock marker: optional, left off when not measured. */
static void test_hello_clock(void)
{
	struct proto_event ev = { .type = PROTO_EV_HELLO, .t_us = 9 };
	struct proto_event back;
	char *line;
	size_t len;

	ev.u.hello.version = PROTO_VERSION;
	ok(proto_event_encode(&ev, &line, &len) == 0 && !strstr(line, "clock_"),
	   "hello: no clock fields when not measured");
	free(line);
	ev.u.hello.clock_t0_us = 1380304;
	ev.u.hello.clock_ts_us = 1404424;
	ev.u.hello.clock_t1_us = 1380647;
	ok(proto_event_encode(&ev, &line, &len) == 0, "hello: encode the marker");
	line[len - 1] = '\0';
	is_int(decode(line, &back), 0, "hello: decode it back");
	ok(back.u.hello.clock_t0_us == 1380304 &&
	   back.u.hello.clock_ts_us == 1404424 &&
	   back.u.hello.clock_t1_us == 1380647, "hello: the marker survives");
	free(line);
	is_int(decode("{\"ev\":\"hello\",\"t_us\":1,\"version\":1,"
		      "\"release\":\"\",\"proc_version\":\"\",\"cmdline\":\"\","
		      "\"config_digest\":\"\",\"boot_ms\":1}",
		      &back),
	       0, "hello: an older guestd's, without the marker");
	ok(!back.u.hello.clock_t0_us && !back.u.hello.clock_ts_us &&
	   !back.u.hello.clock_t1_us, "hello: reads as not measured");
}

static void test_stack(void)
{
	struct proto_event ev = { .type = PROTO_EV_STEP_END, .t_us = 9 };
	struct proto_event back;
	const char *pre = "{\"ev\":\"step_end\",\"t_us\":1,\"scenario\":\"a/b\","
			  "\"step\":0,\"verdict\":\"pass\",\"duration_us\":5";
	char *line, buf[512];
	size_t len;

	strcpy(ev.u.step_end.scenario, "bch/bench-encode");
	ok(proto_event_encode(&ev, &line, &len) == 0 &&
	   !strstr(line, "stack_"), "no stack fields without max_bytes");
	free(line);
	ev.u.step_end.stack.max_bytes = 3512;
	ev.u.step_end.stack.frames = 31;
	strcpy(ev.u.step_end.stack.functions, "bch_encode < bench_encode_read");
	ok(proto_event_encode(&ev, &line, &len) == 0, "encode with stack");
	line[len - 1] = '\0';
	is_int(decode(line, &back), 0, "decode it back");
	ok(back.u.step_end.stack.max_bytes == 3512 &&
	   back.u.step_end.stack.frames == 31 &&
	   !strcmp(back.u.step_end.stack.functions,
		   "bch_encode < bench_encode_read"), "the figures survive");
	free(line);

	snprintf(buf, sizeof(buf), "%s,\"stack_max_bytes\":1048577}", pre);
	is_int(decode(buf, &back), -EPROTO, "a stack above the bound");
	is_str(err, "step_end: stack_max_bytes 1048577 is above 1048576", "says so");
	snprintf(buf, sizeof(buf), "%s,\"stack_max_bytes\":9,\"stack_frames\":4097}", pre);
	is_int(decode(buf, &back), -EPROTO, "frames above the bound");
	snprintf(buf, sizeof(buf), "%s,\"stack_functions\":\"f\"}", pre);
	is_int(decode(buf, &back), -EPROTO, "functions without max_bytes");
	is_str(err, "step_end: stack figures without stack_max_bytes", "says so");
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

/*
 * Names and kinds reach terminals and KTAP result lines as they are: a
 * control character in one, escaped or not, is refused, with the field
 * and the character named. Texts keep theirs (hostctl escapes them where
 * they leave).
 */
static void test_names_no_control(void)
{
	static const char *const ctl[] = { "\\u001b", "\\u0007", "\\r",
					   "\\t",     "\\u007f", "\\u009b",
					   "\\u0085", "\\n" };
	static const struct {
		const char *field, *pre, *post;
	} names[] = {
		{ "scenario_begin: field 'scenario'",
		  "{\"ev\":\"scenario_begin\",\"t_us\":1,\"scenario\":\"a/", "b\",\"nsteps\":1}" },
		{ "step_begin: field 'kind'",
		  "{\"ev\":\"step_begin\",\"t_us\":1,\"scenario\":\"a/b\",\"step\":0,\"kind\":\"re", "ad\"}" },
		{ "step_begin: field 'name'",
		  "{\"ev\":\"step_begin\",\"t_us\":1,\"scenario\":\"a/b\",\"step\":0,\"kind\":\"read\",\"name\":\"x", "\"}" },
		{ "subtest: field 'name'",
		  "{\"ev\":\"subtest\",\"t_us\":1,\"scenario\":\"a/b\",\"step\":0,\"index\":0,\"name\":\"t", "1\",\"verdict\":\"pass\"}" },
		{ "kmsg: field 'scenario'",
		  "{\"ev\":\"kmsg\",\"t_us\":1,\"scenario\":\"a", "\",\"step\":-1,\"seq\":1,\"ts_us\":1,\"prio\":3,\"msg\":\"m\"}" },
		{ "step_end: field 'scenario'",
		  "{\"ev\":\"step_end\",\"t_us\":1,\"scenario\":\"", "a\",\"step\":0,\"verdict\":\"pass\",\"duration_us\":1}" },
	};
	struct proto_event ev;
	char line[512];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		for (size_t k = 0; k < sizeof(ctl) / sizeof(ctl[0]); k++) {
			snprintf(line, sizeof(line), "%s%s%s", names[i].pre,
				 ctl[k], names[i].post);
			okf(decode(line, &ev) == -EPROTO &&
				    strstr(err, names[i].field) &&
				    strstr(err, "holds control character U+00"),
			    "%s with %s is refused: %s", names[i].field, ctl[k],
			    err);
		}
		snprintf(line, sizeof(line), "%s%s%s", names[i].pre,
			 "\\u00e9\\u00a0\\u2603", names[i].post);
		okf(decode(line, &ev) == 0, "%s: other characters decode (%s)",
		    names[i].field, err);
	}
	is_int(decode("{\"ev\":\"step_begin\",\"t_us\":1,\"scenario\":\"a/b\","
		      "\"step\":0,\"kind\":\"read\",\"name\":\"ab\\u001b]52;c;eA==\\u0007\"}",
		      &ev),
	       -EPROTO, "OSC 52 in a step's name is refused");
	is_str(err,
	       "step_begin: field 'name' holds control character U+001B at byte 2",
	       "the refusal names the character and its place");
	is_int(decode("{\"ev\":\"step_end\",\"t_us\":1,\"scenario\":\"a/b\",\"step\":0,"
		      "\"verdict\":\"fail\",\"duration_us\":1,\"expected\":\"\\u001b[2J\","
		      "\"got\":\"\\r\\u0007\",\"reason\":\"\\u009b\\u001b]52;c;eA==\\u0007\"}",
		      &ev),
	       0, "texts keep their controls");
	is_str(ev.u.step_end.got, "\r\a", "got as sent");
	is_int(decode("{\"ev\":\"subtest\",\"t_us\":1,\"scenario\":\"a/b\",\"step\":0,"
		      "\"index\":0,\"name\":\"t\",\"verdict\":\"skip\",\"reason\":\"\\r\\u001b\"}",
		      &ev),
	       0, "a subtest's reason keeps its controls");
}

/*
 * A step_end line whose three texts are @n copies of @ch: raw when @ch is a
 * byte, else that escape. Returns the malloc'd line, without '\n'.
 */
static char *texts_line(const char *ch, size_t n)
{
	static const char *const keys[] = { "expected", "got", "reason" };
	size_t size = 256 + 3 * (n * strlen(ch) + 16);
	char *line = malloc(size);
	size_t len;

	len = (size_t)snprintf(line, size,
			       "{\"ev\":\"step_end\",\"t_us\":1,\"scenario\":\"a\","
			       "\"step\":0,\"verdict\":\"fail\",\"duration_us\":1");
	for (size_t k = 0; k < 3; k++) {
		len += (size_t)snprintf(line + len, size - len, ",\"%s\":\"",
					keys[k]);
		for (size_t i = 0; i < n; i++)
			len += (size_t)snprintf(line + len, size - len, "%s", ch);
		len += (size_t)snprintf(line + len, size - len, "\"");
	}
	snprintf(line + len, size - len, "}");
	return line;
}

/*
 * Whatever decodes encodes, within PROTO_LINE_MAX, to a line that decodes
 * to the same event (fuzz-proto's finding 3, docs/reliability.md). json-c
 * takes raw control bytes in a string, which the encoder writes as \u00XX:
 * a 12 KiB line decoded to an event that encoded to 74 KiB.
 */
static void test_encode_bound(void)
{
	static struct proto_event ev, back;
	char *line, *out;
	size_t len;

	line = texts_line("\x01", PROTO_TEXT_MAX - 1);
	ok(strlen(line) < PROTO_LINE_MAX / 4, "three texts of raw 0x01: a short line");
	is_int(decode(line, &ev), -EBADMSG, "a raw control byte is refused");
	is_str(err, "control byte 0x01 at byte 95", "the byte and its offset are named");
	free(line);
	is_int(decode("{\"ev\":\"bye\",\t\"t_us\":1}", &ev), -EBADMSG,
	       "a raw tab between fields is refused");
	is_int(decode("{\"ev\":\"kmsg\",\"t_us\":1,\"step\":-1,\"seq\":1,"
		      "\"ts_us\":1,\"prio\":3,\"msg\":\"a\\tb\\u0001\"}", &ev),
	       0, "escaped, they are taken");
	is_str(ev.u.kmsg.msg, "a\tb\x01", "and decoded");

	/* The same event, made on this side: the encoder refuses it. */
	memset(&ev, 0, sizeof(ev));
	ev.type = PROTO_EV_STEP_END;
	strcpy(ev.u.step_end.scenario, "a");
	memset(ev.u.step_end.expected, 1, PROTO_TEXT_MAX - 1);
	memset(ev.u.step_end.got, 1, PROTO_TEXT_MAX - 1);
	memset(ev.u.step_end.reason, 1, PROTO_TEXT_MAX - 1);
	out = NULL;
	is_int(proto_event_encode(&ev, &out, &len), -E2BIG,
	       "an event over the line bound is not encoded");
	ok(out == NULL, "and no line is returned");

	/* Escaped in the line, the texts are over the bound already. */
	line = texts_line("\\u0001", PROTO_TEXT_MAX - 1);
	is_int(decode(line, &ev), -E2BIG, "escaped, the line is too long");
	free(line);

	/* Each text two thirds full of escapes, 48 KiB: a large event still
	 * round-trips. */
	line = texts_line("\\u0001", (PROTO_TEXT_MAX - 1) * 2 / 3);
	ok(strlen(line) < PROTO_LINE_MAX, "two thirds of each text: under the bound");
	is_int(decode(line, &ev), 0, "decodes");
	free(line);
	is_int(proto_event_encode(&ev, &out, &len), 0, "encodes");
	is_int(proto_event_decode(out, len - 1, &back, err, sizeof(err)), 0,
	       "decodes again");
	ok(memcmp(&ev, &back, sizeof(ev)) == 0, "to the same event");
	free(out);
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

/* A run request's JSON list, for struct proto_run; put it when done. */
static struct json_object *list(const char *json)
{
	return json_tokener_parse(json);
}

static void test_requests_and_helpers(void)
{
	struct proto_run run = {
		.scenario = "ftrace/x", .timeout_ms = 60000,
		.step_timeout_ms = 10000,
		.steps = list("[{\"kind\":\"sleep\",\"ms\":1}]"),
	};
	char *line;
	size_t len;
	int e;

	ok(proto_run_encode(&run, &line, &len) == 0, "encode run");
	is_str(line, "{\"req\":\"run\",\"scenario\":\"ftrace/x\",\"timeout_ms\":60000,"
	       "\"step_timeout_ms\":10000,\"steps\":[{\"kind\":\"sleep\",\"ms\":1}]}\n",
	       "run request text");
	free(line);
	json_object_put(run.steps);
	run.steps = list("{}");
	is_int(proto_run_encode(&run, &line, &len), -EINVAL,
	       "steps must be an array");
	json_object_put(run.steps);
	run.steps = NULL;
	is_int(proto_run_encode(&run, &line, &len), -EINVAL,
	       "steps are required");
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

/* A step's subtests: bounded, and only the verdicts a test can have. */
static void test_subtest(void)
{
	struct proto_event ev = { .type = PROTO_EV_SUBTEST, .t_us = 5 };
	struct proto_event back;
	char *line, l[1024], name[PROTO_SUBTEST_NAME_MAX + 1];
	size_t len;

	strcpy(ev.u.subtest.scenario, "ftrace/selftests");
	ev.u.subtest.step = 2;
	ev.u.subtest.index = 7;
	strcpy(ev.u.subtest.name, "ftrace - function glob filters");
	ev.u.subtest.verdict = VERDICT_SKIP;
	strcpy(ev.u.subtest.reason, "unsupported");
	ok(proto_event_encode(&ev, &line, &len) == 0, "encode subtest");
	line[len - 1] = '\0';
	is_int(decode(line, &back), 0, "decode it back");
	is_int(back.u.subtest.index, 7, "index survives");
	is_int(back.u.subtest.verdict, VERDICT_SKIP, "verdict survives");
	is_str(back.u.subtest.name, "ftrace - function glob filters",
	       "name survives");
	is_str(back.u.subtest.reason, "unsupported", "reason survives");
	free(line);

	is_int(decode("{\"ev\":\"subtest\",\"t_us\":1,\"scenario\":\"a/b\","
		      "\"step\":0,\"index\":0,\"name\":\"x\","
		      "\"verdict\":\"timeout\"}", &back), -EPROTO,
	       "a subtest cannot time out");
	is_str(err, "subtest: verdict 'timeout' is not pass, fail, skip or xfail",
	       "and says so");
	is_int(decode("{\"ev\":\"subtest\",\"t_us\":1,\"scenario\":\"a/b\","
		      "\"step\":0,\"index\":1024,\"name\":\"x\","
		      "\"verdict\":\"pass\"}", &back), -EPROTO,
	       "an index at PROTO_SUBTESTS_MAX is refused");
	is_int(decode("{\"ev\":\"subtest\",\"t_us\":1,\"scenario\":\"a/b\","
		      "\"step\":0,\"index\":0,\"name\":\"\","
		      "\"verdict\":\"pass\"}", &back), -EPROTO,
	       "an empty name is refused");
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(l, sizeof(l), "{\"ev\":\"subtest\",\"t_us\":1,"
		 "\"scenario\":\"a/b\",\"step\":0,\"index\":0,"
		 "\"name\":\"%s\",\"verdict\":\"pass\"}", name);
	is_int(decode(l, &back), -E2BIG, "a name over its bound is refused");
}

/* The state-leak audit's events and the run request's state_files. */
static void test_audit(void)
{
	struct proto_event ev = { .type = PROTO_EV_AUDIT_FILE, .t_us = 9 };
	struct proto_run run = { 0 };
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

	run.scenario = "ftrace/x";
	run.timeout_ms = 60000;
	run.step_timeout_ms = 10000;
	run.steps = list("[{\"kind\":\"sleep\",\"ms\":1}]");
	run.state_files = list("[\"/proc/modules\"]");
	ok(proto_run_encode(&run, &line, &len) == 0,
	   "encode run with state_files");
	is_str(line, "{\"req\":\"run\",\"scenario\":\"ftrace/x\",\"timeout_ms\":60000,"
	       "\"step_timeout_ms\":10000,\"steps\":[{\"kind\":\"sleep\",\"ms\":1}],"
	       "\"state_files\":[\"/proc/modules\"]}\n",
	       "state_files follows the steps, slashes unescaped");
	free(line);
	json_object_put(run.state_files);
	run.state_files = list("{}");
	is_int(proto_run_encode(&run, &line, &len), -EINVAL,
	       "state_files must be an array");
	json_object_put(run.state_files);
	json_object_put(run.steps);
}

/* The cleanup list: its request keys and scenario_begin's ncleanup. */
static void test_cleanup(void)
{
	struct proto_run run = {
		.scenario = "dsa/x", .timeout_ms = 60000,
		.step_timeout_ms = 10000,
		.steps = list("[{\"kind\":\"sleep\",\"ms\":1}]"),
	};
	struct proto_event ev = { .type = PROTO_EV_SCENARIO_BEGIN, .t_us = 2 };
	struct proto_event back;
	char *line;
	size_t len;

	run.cleanup_timeout_ms = 30000;
	ok(proto_run_encode(&run, &line, &len) == 0,
	   "encode run without cleanup");
	ok(!strstr(line, "cleanup"), "no cleanup keys without a list");
	free(line);
	run.cleanup = list("[{\"kind\":\"rmmod\",\"module\":\"m\"}]");
	ok(proto_run_encode(&run, &line, &len) == 0,
	   "encode run with cleanup");
	is_str(line, "{\"req\":\"run\",\"scenario\":\"dsa/x\",\"timeout_ms\":60000,"
	       "\"step_timeout_ms\":10000,\"steps\":[{\"kind\":\"sleep\",\"ms\":1}],"
	       "\"cleanup\":[{\"kind\":\"rmmod\",\"module\":\"m\"}],"
	       "\"cleanup_timeout_ms\":30000}\n",
	       "cleanup and its bound follow the steps");
	free(line);
	json_object_put(run.cleanup);
	run.cleanup = list("{}");
	is_int(proto_run_encode(&run, &line, &len), -EINVAL,
	       "cleanup must be an array");
	json_object_put(run.cleanup);
	json_object_put(run.steps);

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

/* proto_run_decode() of @json; err says why it refused. */
static int run_decode(const char *json, struct proto_run *run,
		      struct json_object **ret_obj)
{
	struct json_object *obj = json_tokener_parse(json);
	int r;

	err[0] = '\0';
	r = proto_run_decode(obj, run, err, sizeof(err));
	*ret_obj = obj;
	return r;
}

/* A JSON array of @n copies of @item, in @buf. */
static const char *repeat(char *buf, size_t size, const char *item, size_t n)
{
	size_t o = 0;

	o += (size_t)snprintf(buf + o, size - o, "[");
	for (size_t i = 0; i < n && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? "," : "",
				      item);
	if (o < size)
		snprintf(buf + o, size - o, "]");
	return buf;
}

static bool same_json(struct json_object *a, struct json_object *b)
{
	return a && b &&
	       strcmp(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PLAIN),
		      json_object_to_json_string_ext(
			      b, JSON_C_TO_STRING_PLAIN)) == 0;
}

/* Every field of a run request, there and back. */
static void test_run_roundtrip(void)
{
	struct proto_run run = {
		.scenario = "dsa/vlan-x",
		.timeout_ms = 12345,
		.step_timeout_ms = 678,
		.steps = list("[{\"kind\":\"sleep\",\"ms\":1,\"timeout_ms\":9},"
			      "{\"kind\":\"read\",\"path\":\"/proc/x\"}]"),
		.state_files = list("[\"/proc/modules\",\"/sys/a/b\"]"),
		.cleanup = list("[{\"kind\":\"rmmod\",\"module\":\"m\","
				"\"if_exists\":\"/sys/module/m\"}]"),
		.cleanup_timeout_ms = 4321,
	};
	enum proto_request_type type = PROTO_REQ_SHUTDOWN;
	struct json_object *obj = NULL;
	struct proto_run back;
	char *line;
	size_t len;

	ok(proto_run_encode(&run, &line, &len) == 0, "encode a full run");
	is_int(proto_request_decode(line, len - 1, &type, &obj, err,
				    sizeof(err)),
	       0, "it parses as a request");
	is_int(type, PROTO_REQ_RUN, "a run request");
	is_int(proto_run_decode(obj, &back, err, sizeof(err)), 0,
	       "and decodes");
	is_str(back.scenario, "dsa/vlan-x", "scenario survives");
	is_int((long long)back.timeout_ms, 12345, "timeout_ms survives");
	is_int((long long)back.step_timeout_ms, 678,
	       "step_timeout_ms survives");
	ok(same_json(back.steps, run.steps), "steps survive");
	ok(same_json(back.state_files, run.state_files),
	   "state_files survive");
	ok(same_json(back.cleanup, run.cleanup), "cleanup survives");
	is_int((long long)back.cleanup_timeout_ms, 4321,
	       "cleanup_timeout_ms survives");
	json_object_put(obj);
	free(line);
	json_object_put(run.steps);
	json_object_put(run.state_files);
	json_object_put(run.cleanup);

	is_int(run_decode("{\"req\":\"run\",\"scenario\":\"a/b\",\"steps\":"
			  "[{\"kind\":\"sleep\",\"ms\":1}]}",
			  &back, &obj),
	       0, "a minimal run decodes");
	ok(back.timeout_ms == PROTO_TIMEOUT_DEFAULT_MS &&
	   back.step_timeout_ms == PROTO_STEP_TIMEOUT_DEFAULT_MS &&
	   back.cleanup_timeout_ms == PROTO_CLEANUP_TIMEOUT_DEFAULT_MS,
	   "absent timeouts take their defaults");
	ok(!back.state_files && !back.cleanup, "absent lists are NULL");
	json_object_put(obj);
}

/* ack: its t_us survives the round trip; a bad one is refused. */
static void test_ack(void)
{
	static const char *const bad[] = {
		"{\"req\":\"ack\"}",
		"{\"req\":\"ack\",\"t_us\":-1}",
		"{\"req\":\"ack\",\"t_us\":\"5\"}",
		"{\"req\":\"ack\",\"t_us\":1.5}",
		"{\"req\":\"ack\",\"t_us\":99999999999999999999}",
		"{\"req\":\"ack\",\"t_us\":5,\"more\":1}",
	};
	enum proto_request_type type = PROTO_REQ_RUN;
	struct json_object *obj = NULL;
	uint64_t bytes = 0;
	char *line;
	size_t len;

	ok(proto_ack_encode(1234567890123ULL, &line, &len) == 0,
	   "encode an ack");
	is_int(line[len - 1], '\n', "one line");
	is_int(proto_request_decode(line, len - 1, &type, &obj, err,
				    sizeof(err)),
	       0, "it parses as a request");
	is_int(type, PROTO_REQ_ACK, "an ack");
	is_int(proto_ack_decode(obj, &bytes, err, sizeof(err)), 0,
	       "and decodes");
	ok(bytes == 1234567890123ULL, "t_us survives");
	json_object_put(obj);
	free(line);
	is_int(proto_ack_encode(INT64_MAX, &line, &len), -EINVAL,
	       "no ack past what JSON's integers hold");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		obj = NULL;
		bytes = 7;
		is_int(proto_request_decode(bad[i], strlen(bad[i]), &type, &obj,
					    err, sizeof(err)),
		       0, bad[i]);
		is_int(proto_ack_decode(obj, &bytes, err, sizeof(err)),
		       -EPROTO, "refused");
		ok(bytes == 7, "and leaves bytes alone");
		json_object_put(obj);
	}
}

#define ID "0123abcd-0123-4567-89ab-0123456789ab"
#define SEED "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
#define BADSEED "0011223344556677889XAABBCCDDEEFF00112233445566778899aabbccddeeff"
#define RQ "{\"req\":\"restored\","

/* The "restored" request, and the hello that answers it. */
static void test_restored(void)
{
	static const char *const bad[] = {
		RQ "\"x\":1}",
		RQ "\"boot_id\":\"x\",\"wall_ns\":1,\"seed\":\"" SEED "\"}",
		RQ "\"boot_id\":\"" ID "\",\"wall_ns\":-1,\"seed\":\"" SEED "\"}",
		RQ "\"boot_id\":\"" ID "\",\"wall_ns\":1,\"seed\":\"00\"}",
		RQ "\"boot_id\":\"" ID "\",\"wall_ns\":1,\"seed\":\"" BADSEED "\"}",
		RQ "\"boot_id\":\"" ID "\",\"wall_ns\":1,\"seed\":\"" SEED "\",\"more\":1}",
		RQ "\"boot_id\":\"" ID "\\n\",\"wall_ns\":1,\"seed\":\"" SEED "\"}",
	};
	struct proto_restored r = { .boot_id = ID,
				    .wall_ns = 1765000000123456789ULL };
	struct proto_restored back;
	enum proto_request_type type = PROTO_REQ_RUN;
	struct json_object *obj = NULL;
	struct proto_event ev = { .type = PROTO_EV_HELLO, .t_us = 9 }, h;
	char *line;
	size_t len;

	for (size_t i = 0; i < sizeof(r.seed); i++)
		r.seed[i] = (unsigned char)(i * 7 + 1);
	ok(proto_restored_encode(&r, &line, &len) == 0, "encode restored");
	is_int(proto_request_decode(line, len - 1, &type, &obj, err,
				    sizeof(err)),
	       0, "it parses as a request");
	is_int(type, PROTO_REQ_RESTORED, "a restored request");
	is_int(proto_restored_decode(obj, &back, err, sizeof(err)), 0,
	       "and decodes");
	ok(!memcmp(&back, &r, sizeof(r)), "every field survives");
	json_object_put(obj);
	free(line);
	snprintf(r.boot_id, sizeof(r.boot_id), "%s", "not-a-uuid");
	is_int(proto_restored_encode(&r, &line, &len), -EINVAL,
	       "no request with a bad boot id");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		obj = NULL;
		is_int(proto_request_decode(bad[i], strlen(bad[i]), &type, &obj,
					    err, sizeof(err)),
		       0, bad[i]);
		is_int(proto_restored_decode(obj, &back, err, sizeof(err)),
		       -EPROTO, "refused");
		json_object_put(obj);
	}

	ev.u.hello.version = PROTO_VERSION;
	ok(proto_event_encode(&ev, &line, &len) == 0 &&
		   !strstr(line, "boot_id") && !strstr(line, "restored"),
	   "hello: no boot id, not restored, when unset");
	free(line);
	snprintf(ev.u.hello.boot_id, sizeof(ev.u.hello.boot_id), "%s", ID);
	ev.u.hello.restored = 1;
	ok(proto_event_encode(&ev, &line, &len) == 0, "hello: a restored one");
	line[len - 1] = '\0';
	is_int(decode(line, &h), 0, "decodes back");
	ok(!strcmp(h.u.hello.boot_id, ID) && h.u.hello.restored == 1,
	   "boot id and restored survive");
	free(line);
	is_int(decode("{\"ev\":\"hello\",\"t_us\":1,\"version\":1,"
		      "\"release\":\"\",\"proc_version\":\"\",\"cmdline\":\"\","
		      "\"config_digest\":\"\",\"boot_ms\":1,"
		      "\"boot_id\":\"a\\u001b\"}",
		      &h),
	       -EPROTO, "hello: no control character in a boot id");
}

static void test_request_decode(void)
{
	static const struct {
		const char *line;
		int r;
		const char *err;
	} bad[] = {
		{ "not json", -EBADMSG, NULL },
		{ "[1]", -EBADMSG, "not a JSON object with a string 'req'" },
		{ "{\"req\":5}", -EBADMSG,
		  "not a JSON object with a string 'req'" },
		{ "{\"steps\":[]}", -EBADMSG,
		  "not a JSON object with a string 'req'" },
		{ "{\"req\":\"dance\"}", -EPROTO, "unknown request 'dance'" },
		{ "{\"req\":\"run\"} {}", -EBADMSG,
		  "bad JSON at byte 14: unexpected character" },
		{ "{\"req\":\"run\"", -EBADMSG, "truncated JSON" },
		/* Numbers no encoder writes, which json-c reads leniently
		 * and writes back in another form (fuzz-run's finding). */
		{ "{\"req\":\"run\",\"timeout_ms\":0100}", -EBADMSG, NULL },
		{ "{\"req\":\"run\",\"timeout_ms\":0100e}", -EBADMSG, NULL },
		{ "{\"req\":\"run\",\"timeout_ms\":1.5e}", -EBADMSG, NULL },
	};
	enum proto_request_type type;
	struct json_object *obj;
	char *big;

	is_int(proto_request_decode("{\"req\":\"shutdown\"}", 18, &type, &obj,
				    err, sizeof(err)),
	       0, "shutdown parses");
	is_int(type, PROTO_REQ_SHUTDOWN, "as shutdown");
	json_object_put(obj);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		obj = NULL;
		is_int(proto_request_decode(bad[i].line, strlen(bad[i].line),
					    &type, &obj, err, sizeof(err)),
		       bad[i].r, bad[i].line);
		ok(!obj, "and hands back no object");
		if (bad[i].err)
			is_str(err, bad[i].err, "with the reason");
	}
	big = malloc(PROTO_LINE_MAX + 1);
	memset(big, ' ', PROTO_LINE_MAX);
	is_int(proto_request_decode(big, PROTO_LINE_MAX, &type, &obj, err,
				    sizeof(err)),
	       -E2BIG, "a line over PROTO_LINE_MAX is refused");
	free(big);
}

/* A request with one field changed: the rest is good. */
#define RUN_PRE "{\"req\":\"run\",\"scenario\":\"a/b\","
#define RUN_STEPS "\"steps\":[{\"kind\":\"sleep\",\"ms\":1}]"

static void test_run_refused(void)
{
	static const struct {
		const char *json;
		int r;
		const char *err;
	} bad[] = {
		{ "[]", -EBADMSG, "not a JSON object" },
		{ "{\"scenario\":\"a/b\"," RUN_STEPS "}", -EPROTO,
		  "'req' must be \"run\"" },
		{ "{\"req\":\"shutdown\",\"scenario\":\"a/b\"," RUN_STEPS "}",
		  -EPROTO, "'req' must be \"run\"" },
		{ "{\"req\":\"run\"," RUN_STEPS "}", -EPROTO,
		  "'scenario' must be a string of 1..127 bytes" },
		{ "{\"req\":\"run\",\"scenario\":\"\"," RUN_STEPS "}", -EPROTO,
		  "'scenario' must be a string of 1..127 bytes" },
		{ "{\"req\":\"run\",\"scenario\":5," RUN_STEPS "}", -EPROTO,
		  "'scenario' must be a string of 1..127 bytes" },
		{ "{\"req\":\"run\",\"scenario\":\"a\\u0000b\"," RUN_STEPS "}",
		  -EPROTO, "'scenario' must be a string of 1..127 bytes" },
		{ RUN_PRE "\"timeout_ms\":\"5\"," RUN_STEPS "}", -EPROTO,
		  "'timeout_ms' must be an integer in 1..3600000" },
		{ RUN_PRE "\"timeout_ms\":0," RUN_STEPS "}", -EPROTO,
		  "'timeout_ms' must be an integer in 1..3600000" },
		{ RUN_PRE "\"timeout_ms\":3600001," RUN_STEPS "}", -EPROTO,
		  "'timeout_ms' must be an integer in 1..3600000" },
		{ RUN_PRE "\"timeout_ms\":-1," RUN_STEPS "}", -EPROTO,
		  "'timeout_ms' must be an integer in 1..3600000" },
		{ RUN_PRE "\"timeout_ms\":1.5," RUN_STEPS "}", -EPROTO,
		  "'timeout_ms' must be an integer in 1..3600000" },
		{ RUN_PRE "\"timeout_ms\":18446744073709551615," RUN_STEPS "}",
		  -EPROTO, "'timeout_ms' must be an integer in 1..3600000" },
		{ RUN_PRE "\"step_timeout_ms\":null," RUN_STEPS "}", -EPROTO,
		  "'step_timeout_ms' must be an integer in 1..3600000" },
		{ RUN_PRE "\"timeout_ms\":1}", -EPROTO,
		  "'steps' must be an array" },
		{ RUN_PRE "\"steps\":{}}", -EPROTO, "'steps' must be an array" },
		{ RUN_PRE "\"steps\":[]}", -EPROTO,
		  "'steps' must hold 1..256 steps, not 0" },
		{ RUN_PRE RUN_STEPS ",\"state_files\":\"/x\"}", -EPROTO,
		  "'state_files' must be an array of at most 16 paths" },
		{ RUN_PRE RUN_STEPS ",\"state_files\":[\"relative\"]}", -EPROTO,
		  "state_files[0] must be an absolute path of under 256 bytes" },
		{ RUN_PRE RUN_STEPS ",\"state_files\":[\"/a\",\"/\"]}", -EPROTO,
		  "state_files[1] must be an absolute path of under 256 bytes" },
		{ RUN_PRE RUN_STEPS ",\"state_files\":[7]}", -EPROTO,
		  "state_files[0] must be an absolute path of under 256 bytes" },
		{ RUN_PRE RUN_STEPS ",\"cleanup\":{}}", -EPROTO,
		  "'cleanup' must be an array" },
		{ RUN_PRE RUN_STEPS ",\"cleanup\":[]}", -EPROTO,
		  "'cleanup' must hold 1..64 steps, not 0" },
		{ RUN_PRE RUN_STEPS ",\"cleanup_timeout_ms\":5}", -EPROTO,
		  "'cleanup_timeout_ms' without 'cleanup'" },
		{ RUN_PRE RUN_STEPS ",\"cleanup\":[{}],\"cleanup_timeout_ms\":0}",
		  -EPROTO,
		  "'cleanup_timeout_ms' must be an integer in 1..3600000" },
		{ RUN_PRE "\"extra\":1," RUN_STEPS "}", -EPROTO,
		  "unknown key 'extra'" },
	};
	struct json_object *obj;
	struct proto_run run;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		is_int(run_decode(bad[i].json, &run, &obj), bad[i].r,
		       bad[i].json);
		is_str(err, bad[i].err, "with the reason");
		json_object_put(obj);
	}
	ok(run_decode(RUN_PRE "\"timeout_ms\":3600000,\"steps\":[]}", &run,
		      &obj) < 0 &&
	   run.scenario && strcmp(run.scenario, "a/b") == 0 &&
	   run.timeout_ms == 3600000,
	   "a refused request keeps the fields before the bad one");
	json_object_put(obj);
}

/*
 * The bounds of proto.h, on both sides: a request whose string or list
 * (between pre and post) is at its bound decodes; one more byte or entry
 * is -E2BIG.
 */
static void test_run_bounds(void)
{
	static const struct {
		const char *name, *pre, *post;
		const char *item; /* a list's entry; NULL: a string */
		size_t max;
	} bounds[] = {
		{ "scenario", "{\"req\":\"run\",\"scenario\":\"",
		  "\"," RUN_STEPS "}", NULL, PROTO_NAME_MAX - 1 },
		{ "a state file", RUN_PRE RUN_STEPS ",\"state_files\":[\"", "\"]}",
		  NULL, PROTO_PATH_MAX - 1 },
		{ "steps", RUN_PRE "\"steps\":", "}", "{}", PROTO_STEPS_MAX },
		{ "cleanup", RUN_PRE RUN_STEPS ",\"cleanup\":", "}", "{}",
		  PROTO_CLEANUP_MAX },
		{ "state_files", RUN_PRE RUN_STEPS ",\"state_files\":", "}",
		  "\"/x\"", PROTO_AUDIT_FILES_MAX },
	};
	char *json = malloc(PROTO_LINE_MAX), *mid = malloc(PROTO_LINE_MAX);
	struct json_object *obj;
	struct proto_run run;

	for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++) {
		for (size_t n = bounds[i].max; n <= bounds[i].max + 1; n++) {
			if (bounds[i].item) {
				repeat(mid, PROTO_LINE_MAX, bounds[i].item, n);
			} else {
				memset(mid, 'x', n);
				mid[0] = '/';
				mid[n] = '\0';
			}
			snprintf(json, PROTO_LINE_MAX, "%s%s%s", bounds[i].pre,
				 mid, bounds[i].post);
			okf(run_decode(json, &run, &obj) ==
				    (n > bounds[i].max ? -E2BIG : 0),
			    "%s of %zu %s: %s", bounds[i].name, n,
			    bounds[i].item ? "entries" : "bytes",
			    n > bounds[i].max ? "refused" : "decodes");
			json_object_put(obj);
		}
	}
	is_str(err, "'state_files' must be an array of at most 16 paths",
	       "the refusal names the bound");
	free(mid);
	free(json);
}

int main(void)
{
	test_cleanup();
	test_roundtrip();
	test_every_event_roundtrips();
	test_bench();
	test_stack();
	test_hello_clock();
	test_hostile();
	test_names_no_control();
	test_encode_bound();
	test_linebuf();
	test_requests_and_helpers();
	test_audit();
	test_subtest();
	test_run_roundtrip();
	test_request_decode();
	test_ack();
	test_restored();
	test_run_refused();
	test_run_bounds();
	return tap_done();
}
