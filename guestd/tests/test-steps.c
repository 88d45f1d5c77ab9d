// SPDX-License-Identifier: GPL-2.0-only
/*
 * The step kinds against temp files: each passes when it should, and each
 * failure says exactly what it expected and what it got. And the table of
 * step_ops against the table of specs (common/stepspec.c).
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "guestd.h"
#include "tap.h"
#include "testutil.h"

static char dir[256];
static struct step_env env = { .kmsg_path = "/nonexistent", .no_swapon = true };
/* Shared by every run(), as a scenario's steps share theirs. */
static struct sample_set samples;

/* Run one step given as JSON (with %s for the temp dir). */
static uint64_t run(struct step_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static uint64_t run(struct step_result *res, const char *fmt, ...)
{
	struct step_ctx ctx = { .env = &env, .samples = &samples };
	struct json_object *step;
	char json[8192], err[256];
	uint64_t t0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(json, sizeof(json), fmt, ap);
	va_end(ap);
	memset(res, 0, sizeof(*res));
	res->verdict = VERDICT_CRASH;
	step = json_tokener_parse(json);
	if (!step || step_check(step_table, step, err, sizeof(err)) < 0) {
		printf("# bad test step %s: %s\n", json, step ? err : "JSON");
		json_object_put(step);
		return 0;
	}
	t0 = guestd_now_us();
	if (step_find(step_table, step_str(step, "kind"))->run(&ctx, step,
								res) < 0)
		res->verdict = VERDICT_CRASH;
	json_object_put(step);
	return (guestd_now_us() - t0) / 1000;
}

/* @json is refused by the request check, before it runs, with @reason. */
static void refused(const char *json, const char *reason, const char *what)
{
	struct json_object *s = json_tokener_parse(json);
	char err[256] = "";

	is_int(step_check(step_table, s, err, sizeof(err)), -EINVAL, what);
	is_str(err, reason, what);
	json_object_put(s);
}

static void test_check(void)
{
	static const struct {
		const char *json, *err;
	} bad[] = {
		{ "[]", "a step must be an object" },
		{ "{}", "a step needs a string 'kind'" },
		{ "{\"kind\":\"nope\"}", "unknown step kind 'nope'" },
		{ "{\"kind\":\"write\",\"path\":\"/x\"}",
		  "step kind 'write' needs key 'value'" },
		{ "{\"kind\":\"write\",\"path\":1,\"value\":\"\"}",
		  "key 'path': expected a string, got an integer" },
		{ "{\"kind\":\"sleep\",\"ms\":-1}",
		  "key 'ms': -1 is out of range 0..3600000" },
		{ "{\"kind\":\"sleep\",\"ms\":1.5}",
		  "key 'ms': expected an integer, got a number" },
		{ "{\"kind\":\"write\",\"path\":\"/x\",\"value\":\"\","
		  "\"append\":\"yes\"}", "key 'append': expected a boolean, got a string" },
		{ "{\"kind\":\"modprobe\",\"module\":\"m\",\"params\":[1]}",
		  "key 'params'[0]: expected a string, got an integer" },
		{ "{\"kind\":\"sleep\",\"ms\":1,\"match\":\"x\"}",
		  "step kind 'sleep' has no key 'match'" },
		{ "{\"kind\":\"sleep\",\"ms\":1,\"timeout_ms\":\"1\"}",
		  "key 'timeout_ms': expected an integer, got a string" },
		{ "{\"kind\":\"delta\",\"of\":\"x\",\"at_least\":-1.5}",
		  "key 'at_least': expected an integer, got a number" },
		{ "{\"kind\":\"sample\",\"as\":\"x\",\"path\":\"/x\"}",
		  "step kind 'sample' needs key 'match'" },
		{ "{\"kind\":\"write\",\"path\":\"/x\",\"value\":\"\","
		  "\"repeat\":-1}", "key 'repeat': -1 is out of range 1..1000000" },
	};
	char err[256];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct json_object *s = json_tokener_parse(bad[i].json);

		err[0] = '\0';
		is_int(step_check(step_table, s, err, sizeof(err)), -EINVAL,
		       bad[i].json);
		is_str(err, bad[i].err, "with the reason");
		json_object_put(s);
	}
	{
		struct json_object *s = json_tokener_parse(
			"{\"kind\":\"read\",\"name\":\"n\",\"timeout_ms\":5,"
			"\"path\":\"/x\",\"match\":\"y\"}");

		is_int(step_check(step_table, s, err, sizeof(err)), 0,
		       "a good step passes the check");
		json_object_put(s);
		s = json_tokener_parse("{\"kind\":\"delta\",\"of\":\"x\","
				       "\"at_least\":-16,\"at_most\":0}");
		is_int(step_check(step_table, s, err, sizeof(err)), 0,
		       "a negative bound is a good delta");
		json_object_put(s);
	}
}

/*
 * Each step kind is declared once, in common/stepspec.c: every spec has a
 * step_ops that runs it, and every step_ops of step_table has a spec.
 */
static void test_spec_table(void)
{
	char what[128];
	size_t n = 0;

	for (size_t i = 0; i < stepspec_count; i++) {
		const char *kind = stepspec_table[i].kind;

		snprintf(what, sizeof(what), "spec '%s' has a step_ops", kind);
		ok(step_find(step_table, kind) != NULL, what);
		for (size_t j = 0; j < i; j++)
			if (strcmp(stepspec_table[j].kind, kind) == 0) {
				snprintf(what, sizeof(what),
					 "spec '%s' is declared twice", kind);
				ok(0, what);
			}
	}
	for (; step_table[n]; n++) {
		const char *kind = step_table[n]->name;

		snprintf(what, sizeof(what), "step_ops '%s' has a spec", kind);
		ok(stepspec_find(kind) != NULL, what);
		snprintf(what, sizeof(what), "step_ops '%s' is listed once", kind);
		ok(step_find(step_table, kind) == step_table[n], what);
	}
	is_int(n, stepspec_count, "as many step_ops as specs");
}

/* The runner keeps the reset hooks a child made due in a bounded set. */
static void test_reset_hooks(void)
{
	size_t n = 0;

	for (size_t i = 0; step_table[i]; i++)
		n += step_table[i]->reset != NULL;
	ok(n <= RUNNER_RESETS_MAX, "at most RUNNER_RESETS_MAX kinds reset");
	ok(step_fault.reset == fault_reset, "fault's reset is fault_reset()");
}

static void test_write(void)
{
	struct step_result res;
	char f[512];

	snprintf(f, sizeof(f), "%s/w", dir);
	tu_write(f, "old and longer content", O_TRUNC);
	run(&res, "{\"kind\":\"write\",\"path\":\"%s\",\"value\":\"hello\\n\"}",
	    f);
	is_int(res.verdict, VERDICT_PASS, "write passes");
	is_str(tu_read(f), "hello\n", "and truncates the file");
	run(&res, "{\"kind\":\"write\",\"path\":\"%s\",\"value\":\"more\","
	    "\"append\":true}", f);
	is_int(res.verdict, VERDICT_PASS, "append passes");
	is_str(tu_read(f), "hello\nmore", "and appends");

	run(&res, "{\"kind\":\"write\",\"path\":\"%s\",\"value\":\"a\\u0000b\"}",
	    f);
	is_int(res.verdict, VERDICT_PASS, "a value with a NUL byte");
	ok(memcmp(tu_read(f), "a\0b", 4) == 0, "is written whole");

	run(&res, "{\"kind\":\"write\",\"path\":\"%s\",\"value\":\"x\"}", dir);
	is_int(res.verdict, VERDICT_FAIL, "writing to a directory fails");
	is_str(res.expected, "success", "expected success");
	is_str(res.got, "errno EISDIR from open (Is a directory)",
	       "got EISDIR from open");
	run(&res, "{\"kind\":\"write\",\"path\":\"%s\",\"value\":\"x\","
	    "\"expect_errno\":\"EISDIR\"}", dir);
	is_int(res.verdict, VERDICT_PASS, "expecting EISDIR passes");

	run(&res, "{\"kind\":\"write\",\"path\":\"%s\",\"value\":\"123456789\","
	    "\"expect_errno\":\"EINVAL\"}", f);
	is_int(res.verdict, VERDICT_FAIL, "success when EINVAL is expected");
	is_str(res.expected, "errno EINVAL", "expected errno EINVAL");
	is_str(res.got, "success (wrote 9 bytes)", "got success (wrote 9 bytes)");

	run(&res, "{\"kind\":\"write\",\"path\":\"/dev/full\",\"value\":\"x\"}");
	is_int(res.verdict, VERDICT_FAIL, "write() itself can fail");
	is_str(res.got, "errno ENOSPC from write (No space left on device)",
	       "and says so");
	run(&res, "{\"kind\":\"write\",\"path\":\"%s/none/x\",\"value\":\"x\","
	    "\"expect_errno\":\"EISDIR\"}", dir);
	is_int(res.verdict, VERDICT_FAIL, "another errno than expected fails");
	is_str(res.got, "errno ENOENT from open (No such file or directory)",
	       "and names it");
	refused("{\"kind\":\"write\",\"path\":\"/x\",\"value\":\"x\","
		"\"expect_errno\":\"EWHAT\"}",
		"key 'expect_errno': unknown errno name 'EWHAT'",
		"an unknown errno name is refused before it runs");
}

/* fork_write is write from a child: the same results, and a killed writer. */
static void test_fork_write(void)
{
	struct rlimit old, lim;
	struct step_result res;
	char f[512];

	snprintf(f, sizeof(f), "%s/fw", dir);
	tu_write(f, "old and longer content", O_TRUNC);
	run(&res, "{\"kind\":\"fork_write\",\"path\":\"%s\","
	    "\"value\":\"hello\\n\"}", f);
	is_int(res.verdict, VERDICT_PASS, "fork_write passes");
	is_str(tu_read(f), "hello\n", "and wrote the file");
	run(&res, "{\"kind\":\"fork_write\",\"path\":\"%s/none/x\","
	    "\"value\":\"x\"}", dir);
	is_int(res.verdict, VERDICT_FAIL, "a missing path fails");
	is_str(res.got, "errno ENOENT from open (No such file or directory)",
	       "with the child's errno");
	run(&res, "{\"kind\":\"fork_write\",\"path\":\"%s/none/x\","
	    "\"value\":\"x\",\"expect_errno\":\"ENOENT\"}", dir);
	is_int(res.verdict, VERDICT_PASS, "expecting ENOENT passes");

	/* Past RLIMIT_FSIZE the kernel kills the writer with SIGXFSZ. */
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 4;
	setrlimit(RLIMIT_FSIZE, &lim);
	run(&res, "{\"kind\":\"fork_write\",\"path\":\"%s\","
	    "\"value\":\"more\",\"append\":true}", f);
	setrlimit(RLIMIT_FSIZE, &old);
	is_int(res.verdict, VERDICT_FAIL, "a writer the kernel kills fails");
	is_str(res.expected, "the writer to exit", "expected it to exit");
	ok(strstr(res.got, "killed by signal SIGXFSZ") != NULL,
	   "got names the signal");
	if (!strstr(res.got, "killed by signal SIGXFSZ"))
		printf("# got: '%s'\n", res.got);
	is_str(tu_read(f), "hello\n", "and nothing was appended");
}

static void test_read(void)
{
	struct step_result res;
	char f[512], big[512], *content;

	snprintf(f, sizeof(f), "%s/r", dir);
	tu_write(f, "foo\nbar\n", O_TRUNC);
	run(&res, "{\"kind\":\"read\",\"path\":\"%s\",\"equals\":\"foo\\nbar\"}",
	    f);
	is_int(res.verdict, VERDICT_PASS, "equals ignores one trailing newline");
	run(&res, "{\"kind\":\"read\",\"path\":\"%s\",\"equals\":\"foo\\nbar\\n\"}",
	    f);
	is_int(res.verdict, VERDICT_PASS, "equals with the newline too");
	run(&res, "{\"kind\":\"read\",\"path\":\"%s\",\"equals\":\"foo\"}", f);
	is_int(res.verdict, VERDICT_FAIL, "equals fails on other content");
	is_str(res.expected, "content 'foo'", "expected the content");
	is_str(res.got, "content 'foo\nbar\n'", "got the content");

	run(&res, "{\"kind\":\"read\",\"path\":\"%s\",\"match\":\"^bar$\"}", f);
	is_int(res.verdict, VERDICT_PASS, "match: ^ and $ work per line");
	run(&res, "{\"kind\":\"read\",\"path\":\"%s\",\"match\":\"^baz\"}", f);
	is_int(res.verdict, VERDICT_FAIL, "match fails");
	is_str(res.expected, "a line matching '^baz'", "expected a match");
	is_str(res.got, "content 'foo\nbar\n'", "got the content");

	run(&res, "{\"kind\":\"read\",\"path\":\"%s\",\"not_match\":\"baz\"}", f);
	is_int(res.verdict, VERDICT_PASS, "not_match passes");
	run(&res, "{\"kind\":\"read\",\"path\":\"%s\",\"not_match\":\"a.\"}", f);
	is_int(res.verdict, VERDICT_FAIL, "not_match fails");
	is_str(res.expected, "no line matching 'a.'", "expected no match");
	is_str(res.got, "line 2 matches: 'bar'", "got the line that matched");

	run(&res, "{\"kind\":\"read\",\"path\":\"%s\",\"match\":\"foo\","
	    "\"not_match\":\"bar\"}", f);
	is_int(res.verdict, VERDICT_FAIL, "every condition must hold");

	run(&res, "{\"kind\":\"read\",\"path\":\"%s/none\",\"equals\":\"\"}",
	    dir);
	is_int(res.verdict, VERDICT_FAIL, "a missing file fails");
	ok(strstr(res.got, "errno ENOENT from reading") != NULL,
	   "with ENOENT as what was seen");

	refused("{\"kind\":\"read\",\"path\":\"/x\",\"match\":\"(\"}",
		"key 'match': bad regex '(': Unmatched ( or \\(",
		"a bad regex is refused before it runs");
	run(&res, "{\"kind\":\"read\",\"path\":\"%s\"}", f);
	is_int(res.verdict, VERDICT_ERROR, "nothing to check is error");

	snprintf(big, sizeof(big), "%s/big", dir);
	content = malloc(100001);
	memset(content, 'a', 100000);
	content[100000] = '\0';
	content[50] = '\001';
	tu_write(big, content, O_TRUNC);
	free(content);
	run(&res, "{\"kind\":\"read\",\"path\":\"%s\",\"equals\":\"b\"}", big);
	is_int(res.verdict, VERDICT_FAIL, "a big file fails");
	ok(strlen(res.got) < 2000, "its content is cut short");
	ok(strstr(res.got, "... (100000 bytes)'") != NULL,
	   "saying how long it was");
	ok(strstr(res.got, "\\x01") != NULL, "control bytes are escaped");
}

static void test_readlink(void)
{
	struct step_result res;
	char f[512], l[512], err[256], want[1024];
	struct json_object *s;

	snprintf(f, sizeof(f), "%s/rl-file", dir);
	tu_write(f, "x", O_TRUNC);
	snprintf(l, sizeof(l), "%s/rl-link", dir);
	ok(symlink("../br0", l) == 0, "readlink: a link to read");

	run(&res, "{\"kind\":\"readlink\",\"path\":\"%s\",\"equals\":\"../br0\"}",
	    l);
	is_int(res.verdict, VERDICT_PASS, "readlink: equals passes");
	run(&res, "{\"kind\":\"readlink\",\"path\":\"%s\","
	    "\"match\":\"^\\\\.\\\\./br[0-9]$\"}", l);
	is_int(res.verdict, VERDICT_PASS, "readlink: match passes");
	run(&res, "{\"kind\":\"readlink\",\"path\":\"%s\",\"equals\":\"../br0\","
	    "\"match\":\"lan\"}", l);
	is_int(res.verdict, VERDICT_FAIL, "readlink: every condition must hold");
	is_str(res.expected, "a target matching 'lan'", "readlink: expected a match");
	is_str(res.got, "target '../br0'", "readlink: got the target");
	run(&res, "{\"kind\":\"readlink\",\"path\":\"%s\",\"equals\":\"../lan1\"}",
	    l);
	is_int(res.verdict, VERDICT_FAIL, "readlink: equals fails on another target");
	is_str(res.expected, "target '../lan1'", "readlink: expected the target");
	is_str(res.got, "target '../br0'", "readlink: got the target");

	run(&res, "{\"kind\":\"readlink\",\"path\":\"%s\",\"equals\":\"x\"}", f);
	is_int(res.verdict, VERDICT_FAIL, "readlink: a file is no link");
	is_str(res.expected, "success", "readlink: expected success");
	snprintf(want, sizeof(want),
		 "errno EINVAL from readlink('%s') (Invalid argument)", f);
	is_str(res.got, want, "readlink: got EINVAL");
	run(&res, "{\"kind\":\"readlink\",\"path\":\"%s\","
	    "\"expect_errno\":\"EINVAL\"}", f);
	is_int(res.verdict, VERDICT_PASS, "readlink: expecting EINVAL passes");
	run(&res, "{\"kind\":\"readlink\",\"path\":\"%s/none\","
	    "\"expect_errno\":\"ENOENT\"}", dir);
	is_int(res.verdict, VERDICT_PASS, "readlink: expecting ENOENT passes");
	run(&res, "{\"kind\":\"readlink\",\"path\":\"%s\","
	    "\"expect_errno\":\"ENOENT\"}", l);
	is_int(res.verdict, VERDICT_FAIL,
	       "readlink: a link where an errno was expected");
	is_str(res.expected, "errno ENOENT", "readlink: expected the errno");
	is_str(res.got, "target '../br0'", "readlink: got the target");
	refused("{\"kind\":\"readlink\",\"path\":\"/x\",\"match\":\"(\"}",
		"key 'match': bad regex '(': Unmatched ( or \\(",
		"readlink: a bad regex is refused before it runs");

	s = json_tokener_parse("{\"kind\":\"readlink\",\"path\":\"/x\",\"equals\":1}");
	is_int(step_check(step_table, s, err, sizeof(err)), -EINVAL,
	       "readlink: step_check checks the spec's types");
	is_str(err, "key 'equals': expected a string, got an integer",
	       "readlink: with the reason");
	json_object_put(s);
	s = json_tokener_parse("{\"kind\":\"readlink\",\"equals\":\"x\"}");
	is_int(step_check(step_table, s, err, sizeof(err)), -EINVAL,
	       "readlink: and its required keys");
	is_str(err, "step kind 'readlink' needs key 'path'",
	       "readlink: path is required");
	json_object_put(s);
	unlink(l);
	unlink(f);
}

static void test_repeat_length(void)
{
	struct step_result res;
	char f[512];

	snprintf(f, sizeof(f), "%s/rep", dir);
	tu_write(f, "", O_TRUNC);
	run(&res, "{\"kind\":\"write\",\"path\":\"%s\",\"value\":\"ab\","
	    "\"append\":true,\"repeat\":5}", f);
	is_int(res.verdict, VERDICT_PASS, "repeat passes");
	is_str(tu_read(f), "ababababab", "and writes that many times");
	run(&res, "{\"kind\":\"write\",\"path\":\"%s\",\"value\":\"x\","
	    "\"repeat\":3,\"expect_errno\":\"EISDIR\"}", dir);
	is_int(res.verdict, VERDICT_PASS, "every repetition fails as expected");
	run(&res, "{\"kind\":\"write\",\"path\":\"%s\",\"value\":\"x\","
	    "\"repeat\":3}", dir);
	is_int(res.verdict, VERDICT_FAIL, "a failing repetition fails the step");
	ok(strstr(res.reason, "(write 1 of 3)") != NULL, "naming which one");

	tu_write(f, "0x00ab\n", O_TRUNC);
	run(&res, "{\"kind\":\"read\",\"path\":\"%s\",\"length\":7}", f);
	is_int(res.verdict, VERDICT_PASS, "length: the exact byte count");
	run(&res, "{\"kind\":\"read\",\"path\":\"%s\",\"length\":6,"
	    "\"match\":\"^0x\"}", f);
	is_int(res.verdict, VERDICT_FAIL, "length counts the newline too");
	is_str(res.expected, "6 bytes", "expected the count");
	is_str(res.got, "7 bytes: '0x00ab\n'", "got the count and content");
	{
		/* A file with a NUL and a stray byte, as a leaky read gives. */
		int fd = open(f, O_WRONLY | O_TRUNC);

		ok(write(fd, "0x1\0\x7f", 5) == 5, "write the leaky text");
		close(fd);
	}
	run(&res, "{\"kind\":\"read\",\"path\":\"%s\",\"length\":4}", f);
	is_int(res.verdict, VERDICT_FAIL, "stray bytes after the text fail");
	is_str(res.got, "5 bytes: '0x1\\x00\\x7f'", "shown escaped");
}

static void test_sample_delta(void)
{
	struct step_result res;
	char f[512], err[256];
	uint64_t ms;
	int64_t v = 0;
	pid_t pid;

	is_int(sample_parse("ce 12\n", "^ce ([0-9]+)$", &v, err, sizeof(err)),
	       0, "parse a decimal");
	is_int(v, 12, "12");
	is_int(sample_parse("a\nINT: 0x1f\n", "INT: (0x[0-9a-f]+)", &v, err,
			    sizeof(err)), 0, "parse hex");
	is_int(v, 31, "0x1f");
	is_int(sample_parse("t -7", "t (-?[0-9]+)", &v, err, sizeof(err)), 0,
	       "parse a negative");
	is_int(v, -7, "-7");
	is_int(sample_parse("x", "^([0-9]+)", &v, err, sizeof(err)), -ENOENT,
	       "no match");
	is_str(err, "no line matches '^([0-9]+)'", "says so");
	is_int(sample_parse("12", "^[0-9]+", &v, err, sizeof(err)), -EINVAL,
	       "no group");
	is_str(err, "regex '^[0-9]+' has 0 capture groups, not 1", "says so");
	is_int(sample_parse("1a", "^([0-9a-z]+)", &v, err, sizeof(err)),
	       -EINVAL, "not a number");
	is_str(err, "'^([0-9a-z]+)' captured '1a', not an integer", "says so");
	ok(!delta_of(INT64_MIN, 1, &v), "an overflowing change is caught");
	{
		struct delta_bounds b = { .has_equals = true, .equals = 1 };
		char d[128];

		ok(delta_holds(1, &b) && !delta_holds(2, &b), "equals");
		b = (struct delta_bounds){ .has_at_least = true, .at_least = -8,
					   .has_at_most = true, .at_most = 0 };
		ok(delta_holds(-8, &b) && delta_holds(0, &b) &&
		   !delta_holds(-9, &b) && !delta_holds(1, &b), "a range");
		delta_describe(&b, d, sizeof(d));
		is_str(d, "at least -8, at most 0", "described");
	}

	snprintf(f, sizeof(f), "%s/count", dir);
	tu_write(f, "5\n", O_TRUNC);
	run(&res, "{\"kind\":\"sample\",\"as\":\"ce\",\"path\":\"%s\","
	    "\"match\":\"^([0-9]+)$\"}", f);
	is_int(res.verdict, VERDICT_PASS, "sample passes");
	tu_write(f, "6\n", O_TRUNC);
	run(&res, "{\"kind\":\"delta\",\"of\":\"ce\",\"equals\":1}");
	is_int(res.verdict, VERDICT_PASS, "delta of exactly 1 passes");
	is_str(res.got, "+1 (from 5 to 6)", "and says what it counted");
	run(&res, "{\"kind\":\"delta\",\"of\":\"ce\",\"at_most\":0}");
	is_int(res.verdict, VERDICT_FAIL, "delta over at_most fails");
	is_str(res.expected, "a change of at most 0", "expected the bound");
	is_str(res.got, "+1 (from 5 to 6)", "got the change");
	run(&res, "{\"kind\":\"delta\",\"of\":\"ue\",\"equals\":0}");
	is_int(res.verdict, VERDICT_ERROR, "an unknown sample is error");
	run(&res, "{\"kind\":\"sample\",\"as\":\"ce\",\"path\":\"%s\","
	    "\"match\":\"^x([0-9]+)$\"}", f);
	is_int(res.verdict, VERDICT_FAIL, "a sample that does not match fails");
	is_str(res.got, "no line matches '^x([0-9]+)$' in '6\n'",
	       "showing the content");

	pid = fork();
	if (pid == 0) {
		step_msleep(100);
		tu_write(f, "9\n", O_TRUNC);
		_exit(0);
	}
	ms = run(&res, "{\"kind\":\"delta\",\"of\":\"ce\",\"equals\":4,"
		 "\"within_ms\":3000}");
	waitpid(pid, NULL, 0);
	is_int(res.verdict, VERDICT_PASS, "within_ms waits for the change");
	ok(ms >= 80 && ms < 2000, "until it comes");
	ms = run(&res, "{\"kind\":\"delta\",\"of\":\"ce\",\"equals\":5,"
		 "\"within_ms\":60}");
	is_int(res.verdict, VERDICT_FAIL, "and fails after within_ms");
	ok(ms >= 60 && ms < 1000, "not before");
	is_str(res.expected, "a change of exactly 5 within 60 ms",
	       "expected within");
	sample_set_free(&samples);
}

/* The figures of a bench step, and the step over a file. */
static void test_bench(void)
{
	uint64_t v[] = { 30, 10, 20, 40 }, one[] = { 7 };
	uint64_t big[] = { UINT64_MAX - 2, UINT64_MAX };
	uint64_t same[] = { 5, 5, 5 }, spread[] = { 90, 100, 110 };
	struct step_result res;
	struct proto_bench b;
	char f[300];

	is_int(bench_stats(v, 4, &b), 0, "bench_stats of four");
	ok(b.runs == 4 && b.min == 10 && b.max == 40 && b.median == 25,
	   "min 10, max 40, an even count's median 25");
	/* sd of 10..40 is 12.9099, over a mean of 25: 516398 ppm. */
	is_int((int64_t)b.cv_ppm, 516398, "cv in ppm");
	is_int(bench_stats(spread, 3, &b), 0, "bench_stats of three");
	ok(b.median == 100 && b.cv_ppm == 100000, "median 100, cv 10 percent");
	is_int(bench_stats(same, 3, &b), 0, "equal values");
	is_int((int64_t)b.cv_ppm, 0, "no variation");
	is_int(bench_stats(one, 1, &b), 0, "one value");
	ok(b.median == 7 && b.cv_ppm == 0, "its own median, cv 0");
	is_int(bench_stats(big, 2, &b), 0, "values near the top");
	ok(b.median == UINT64_MAX - 1, "the middle without overflow");
	is_int(bench_stats(v, 0, &b), -EINVAL, "no values");
	is_int(bench_stats(v, PROTO_BENCH_RUNS_MAX + 1, &b), -EINVAL,
	       "too many");

	snprintf(f, sizeof(f), "%s/encode", dir);
	tu_write(f, "blocks 8192 bytes 4194304 ns 1234\n", O_TRUNC);
	run(&res, "{\"kind\":\"bench\",\"path\":\"%s\","
	    "\"match\":\"ns ([0-9]+)\",\"runs\":5,\"warmup\":1}", f);
	is_int(res.verdict, VERDICT_PASS, "bench passes");
	ok(res.bench.runs == 5 && res.bench.median == 1234 &&
	   res.bench.cv_ppm == 0, "bench: 5 runs of 1234");
	is_str(res.got, "median 1234, min 1234, max 1234, cv 0.00% over 5 runs",
	       "bench says its figures");
	run(&res, "{\"kind\":\"bench\",\"path\":\"%s\",\"runs\":3}", f);
	ok(res.verdict == VERDICT_PASS && res.bench.runs == 3,
	   "bench without match times the read");
	run(&res, "{\"kind\":\"bench\",\"path\":\"%s\","
	    "\"match\":\"ns ([0-9]+)\",\"runs\":2,\"min\":1234,"
	    "\"max\":1234}", f);
	is_int(res.verdict, VERDICT_PASS, "runs within min and max pass");
	run(&res, "{\"kind\":\"bench\",\"path\":\"%s\","
	    "\"match\":\"ns ([0-9]+)\",\"runs\":2,\"min\":1235}", f);
	is_int(res.verdict, VERDICT_FAIL, "a run below min fails");
	is_str(res.expected, "every run from 1235 to 4611686018427387904",
	       "expecting the range");
	ok(res.bench.runs == 2 && res.bench.median == 1234,
	   "and still reports the figures");
	run(&res, "{\"kind\":\"bench\",\"path\":\"%s\","
	    "\"match\":\"ns ([0-9]+)\",\"runs\":2,\"max\":1233}", f);
	is_int(res.verdict, VERDICT_FAIL, "a run above max fails");
	is_str(res.expected, "every run from 0 to 1233", "with max");
	tu_write(f, "blocks 0 bytes 0 ns 0\n", O_TRUNC);
	run(&res, "{\"kind\":\"bench\",\"path\":\"%s\","
	    "\"match\":\"ns ([0-9]+)\",\"runs\":3,\"min\":1000}", f);
	is_int(res.verdict, VERDICT_FAIL, "a bench that did no work fails min");
	is_str(res.got, "median 0, min 0, max 0, cv 0.00% over 3 runs",
	       "saying its figures");
	tu_write(f, "blocks 8192 bytes 4194304 ns 1234\n", O_TRUNC);
	tu_write(f, "ns -5\n", O_TRUNC);
	run(&res, "{\"kind\":\"bench\",\"path\":\"%s\","
	    "\"match\":\"ns (-?[0-9]+)\",\"runs\":2}", f);
	is_int(res.verdict, VERDICT_FAIL, "a negative value fails");
	ok(res.bench.runs == 0, "and reports no figures");
	run(&res, "{\"kind\":\"bench\",\"path\":\"%s/none\","
	    "\"runs\":2}", dir);
	is_int(res.verdict, VERDICT_FAIL, "a missing file fails");
}

/* stack_tracer against fake tracefs and procfs files under the temp dir. */
static void test_stack_tracer(void)
{
	static const char trace[] =
		"        Depth    Size   Location    (3 entries)\n"
		"        -----    ----   --------\n"
		"  0)     3512     232   bch_encode+0x5c/0x2e0 [bch]\n"
		"  1)     3280     120   bench_encode_read+0x3d/0xb0 [bch_bench]\n"
		"  2)     3160    3160   entry_SYSCALL_64_after_hwframe+0x63/0xcd\n";
	struct step_result res;
	char f[512], *text = NULL;
	uint32_t frames = 0;
	char fns[32];

	env.sys_dir = env.proc_dir = dir;
	snprintf(f, sizeof(f), "%s/kernel", dir);
	mkdir(f, 0755);
	snprintf(f, sizeof(f), "%s/kernel/tracing", dir);
	mkdir(f, 0755);
	snprintf(f, sizeof(f), "%s/sys", dir);
	mkdir(f, 0755);
	snprintf(f, sizeof(f), "%s/sys/kernel", dir);
	mkdir(f, 0755);
	snprintf(f, sizeof(f), "%s/sys/kernel/stack_tracer_enabled", dir);
	tu_write(f, "0\n", O_TRUNC);
	snprintf(f, sizeof(f), "%s/kernel/tracing/stack_max_size", dir);
	tu_write(f, "4000\n", O_TRUNC);
	snprintf(f, sizeof(f), "%s/kernel/tracing/stack_trace", dir);
	tu_write(f, trace, O_TRUNC);

	run(&res, "{\"kind\":\"stack_tracer\",\"action\":\"start\"}");
	is_int(res.verdict, VERDICT_PASS, "start passes");
	is_str(res.expected, "", "with no expected text");
	snprintf(f, sizeof(f), "%s/sys/kernel/stack_tracer_enabled", dir);
	ok(fileio_read(f, 64, &text, NULL, NULL) == 0 && !strcmp(text, "1\n"),
	   "start turns the tracer on");
	free(text);
	snprintf(f, sizeof(f), "%s/kernel/tracing/stack_max_size", dir);
	ok(fileio_read(f, 64, &text, NULL, NULL) == 0 && !strcmp(text, "0\n"),
	   "and clears the deepest stack");
	free(text);
	tu_write(f, "3512\n", O_TRUNC);
	run(&res, "{\"kind\":\"stack_tracer\",\"action\":\"stop\"}");
	is_int(res.verdict, VERDICT_PASS, "stop passes");
	ok(res.stack.max_bytes == 3512 && res.stack.frames == 3,
	   "stop: 3512 bytes in 3 frames");
	is_str(res.stack.functions,
	       "bch_encode < bench_encode_read < entry_SYSCALL_64_after_hwframe",
	       "stop: the functions from the deepest up");
	snprintf(f, sizeof(f), "%s/sys/kernel/stack_tracer_enabled", dir);
	ok(fileio_read(f, 64, &text, NULL, NULL) == 0 && !strcmp(text, "0\n"),
	   "stop turns the tracer off");
	free(text);
	run(&res, "{\"kind\":\"stack_tracer\",\"action\":\"stop\","
	    "\"min_bytes\":3512,\"max_bytes\":3512}");
	is_int(res.verdict, VERDICT_PASS, "stop within its bounds passes");
	run(&res, "{\"kind\":\"stack_tracer\",\"action\":\"stop\","
	    "\"max_bytes\":3000}");
	is_int(res.verdict, VERDICT_FAIL, "a stack deeper than max_bytes fails");
	is_str(res.expected, "a deepest stack of 0 to 3000 bytes",
	       "expecting the range");
	ok(res.stack.max_bytes == 3512, "and still reports the figures");
	snprintf(f, sizeof(f), "%s/kernel/tracing/stack_max_size", dir);
	tu_write(f, "0\n", O_TRUNC);
	run(&res, "{\"kind\":\"stack_tracer\",\"action\":\"stop\"}");
	is_int(res.verdict, VERDICT_PASS, "0 bytes pass without bounds");
	run(&res, "{\"kind\":\"stack_tracer\",\"action\":\"stop\","
	    "\"min_bytes\":512,\"max_bytes\":32768}");
	is_int(res.verdict, VERDICT_FAIL, "0 bytes fail min_bytes");
	is_str(res.expected, "a deepest stack of 512 to 32768 bytes",
	       "expecting the range");
	ok(!strncmp(res.got, "deepest stack 0 bytes", 21), "got 0 bytes");
	tu_write(f, "3512\n", O_TRUNC);

	is_int(stack_trace_parse(trace, &frames, fns, sizeof(fns)), 0,
	       "a small buffer");
	is_str(fns, "bch_encode < ...", "is cut with ...");
	is_int(stack_trace_parse("        Depth    Size   Location    (2 entries)\n"
				 "  0)     3512     232   f+0x5c/0x2e0\n",
				 &frames, fns, sizeof(fns)),
	       -EINVAL, "fewer frames than the header says");
	is_int(stack_trace_parse("  0)     3512     232   f+0x5c/0x2e0\n",
				 &frames, fns, sizeof(fns)),
	       -EINVAL, "no header");
	is_int(stack_trace_parse("        Depth    Size   Location    (1 entries)\n"
				 "  1)     3512     232   f+0x5c/0x2e0\n",
				 &frames, fns, sizeof(fns)),
	       -EINVAL, "a frame out of order");

	snprintf(f, sizeof(f), "%s/kernel/tracing/stack_trace", dir);
	unlink(f);
	run(&res, "{\"kind\":\"stack_tracer\",\"action\":\"stop\"}");
	is_int(res.verdict, VERDICT_FAIL, "stop fails without stack_trace");
	ok(res.stack.max_bytes == 0, "and reports no figures");
	env.sys_dir = env.proc_dir = NULL;
}

static void test_wait_for(void)
{
	struct step_result res;
	char f[512], want[600];
	uint64_t ms;
	pid_t pid;

	snprintf(f, sizeof(f), "%s/later", dir);
	ms = run(&res, "{\"kind\":\"wait_for\",\"path\":\"%s\","
		 "\"within_ms\":1000}", dir);
	is_int(res.verdict, VERDICT_PASS, "an existing path passes");
	ok(ms < 15, "at once");

	ms = run(&res, "{\"kind\":\"wait_for\",\"path\":\"%s\","
		 "\"within_ms\":60}", f);
	is_int(res.verdict, VERDICT_FAIL, "a path that never comes fails");
	ok(ms >= 60 && ms < 500, "after within_ms");
	snprintf(want, sizeof(want), "'%s' to exist within 60 ms", f);
	is_str(res.expected, want, "expected it to exist");
	ok(strncmp(res.got, "errno ENOENT (No such file or directory) after ",
		   47) == 0, "got ENOENT");

	pid = fork();
	if (pid == 0) {
		step_msleep(80);
		tu_write(f, "not yet\n", O_TRUNC);
		step_msleep(80);
		tu_write(f, "ready\n", O_TRUNC);
		_exit(0);
	}
	ms = run(&res, "{\"kind\":\"wait_for\",\"path\":\"%s\","
		 "\"within_ms\":2000}", f);
	is_int(res.verdict, VERDICT_PASS, "a path that comes later passes");
	ok(ms >= 60 && ms < 1000, "when it comes");
	ms = run(&res, "{\"kind\":\"wait_for\",\"path\":\"%s\","
		 "\"match\":\"^ready$\",\"within_ms\":2000}", f);
	is_int(res.verdict, VERDICT_PASS, "content that comes later passes");
	waitpid(pid, NULL, 0);
	run(&res, "{\"kind\":\"wait_for\",\"path\":\"%s\",\"match\":\"^nope\","
	    "\"within_ms\":40}", f);
	is_int(res.verdict, VERDICT_FAIL, "content that never matches fails");
	ok(strncmp(res.got, "content 'ready\n' after ", 23) == 0,
	   "showing the content seen last");
}

static void test_sleep(void)
{
	struct step_result res;
	uint64_t ms;

	ms = run(&res, "{\"kind\":\"sleep\",\"ms\":30}");
	is_int(res.verdict, VERDICT_PASS, "sleep passes");
	ok(ms >= 30 && ms < 300, "after about ms");
}

static void test_kmsg_without_log(void)
{
	struct step_result res;

	run(&res, "{\"kind\":\"kmsg_expect\",\"match\":\"x\"}");
	is_int(res.verdict, VERDICT_ERROR, "kmsg_expect without a log is error");
	is_str(res.reason, "the kernel log '/nonexistent' could not be opened",
	       "saying why");
	run(&res, "{\"kind\":\"kmsg_expect\",\"match\":\"x\",\"since\":\"boot\"}");
	is_int(res.verdict, VERDICT_ERROR, "a bad 'since' is error");
}

/* The header mkswap writes, byte for byte where the kernel reads it. */
static void test_swap_header(void)
{
	static char page[4096];
	uint8_t uuid[16] = { 1, 2, 3 };
	char sig[64];
	uint32_t v;

	is_int(swap_header_build(page, 4096, 4096 * 9, uuid), -EINVAL,
	       "swap: under ten pages is refused");
	is_int(swap_header_build(page, 3000, 1 << 20, uuid), -EINVAL,
	       "swap: a page size that is no power of two is refused");
	is_int(swap_header_build(page, 4096, (1 << 20) + 100, uuid), 0,
	       "swap: 1 MiB and a bit");
	memcpy(&v, page + 1024, 4);
	is_int(v, 1, "swap: version 1");
	memcpy(&v, page + 1028, 4);
	is_int(v, 255, "swap: last_page is the last whole page");
	memcpy(&v, page + 1032, 4);
	is_int(v, 0, "swap: no bad pages");
	ok(page[1036] == 1 && page[1037] == 2, "swap: the uuid follows");
	swap_signature(page, 4096, sig, sizeof(sig));
	is_str(sig, "SWAPSPACE2", "swap: the signature at the page's end");
	memcpy(page + 4096 - 10, "S1SUSPEND\0", 10);
	swap_signature(page, 4096, sig, sizeof(sig));
	is_str(sig, "S1SUSPEND", "swap: a hibernation signature, NUL-padded");
	ok(swap_dev_name_ok("vda") && !swap_dev_name_ok("../vda") &&
	   !swap_dev_name_ok("") && !swap_dev_name_ok("VDA"),
	   "swap: device names are [a-z0-9]+");
}

/* swap, marker and resume against files under the temp dir. */
static void test_hibernate_steps(void)
{
	struct step_result res;
	char f[512];
	int fd;

	env.dev_dir = env.sys_dir = env.run_dir = dir;
	snprintf(f, sizeof(f), "%s/vdz", dir);
	fd = open(f, O_CREAT | O_RDWR | O_TRUNC, 0600);
	ok(fd >= 0 && ftruncate(fd, 1 << 20) == 0, "a 1 MiB fake disk");
	close(fd);
	run(&res, "{\"kind\":\"swap\",\"device\":\"vdz\",\"mkswap\":false,"
	    "\"swapon\":false,\"signature\":\"SWAPSPACE2\"}");
	is_int(res.verdict, VERDICT_FAIL, "swap: a blank disk has no signature");
	is_str(res.expected, "signature 'SWAPSPACE2'", "swap: expected text");
	is_str(res.got, "signature ''", "swap: got text");
	run(&res, "{\"kind\":\"swap\",\"device\":\"vdz\"}");
	is_int(res.verdict, VERDICT_PASS, "swap: mkswap on the fake disk");
	is_str(res.got, "signature ''; mkswap: 256 pages; swapon",
	       "swap: says what it did");
	run(&res, "{\"kind\":\"swap\",\"device\":\"vdz\",\"mkswap\":false,"
	    "\"swapon\":false,\"signature\":\"SWAPSPACE2\"}");
	is_int(res.verdict, VERDICT_PASS, "swap: now it has the signature");
	refused("{\"kind\":\"swap\",\"device\":\"../etc\"}",
		"key 'device': bad block device name '../etc' (want [a-z0-9]{1,31}, e.g. vda)",
		"swap: a path is no device name, refused before it runs");
	run(&res, "{\"kind\":\"swap\",\"device\":\"vdy\"}");
	is_int(res.verdict, VERDICT_FAIL, "swap: a missing device fails");
	is_str(res.got, "errno ENOENT from open (No such file or directory)",
	       "swap: with the errno");

	run(&res, "{\"kind\":\"marker\",\"action\":\"check\",\"expect\":\"absent\"}");
	is_int(res.verdict, VERDICT_PASS, "marker: none yet, as expected");
	run(&res, "{\"kind\":\"marker\",\"action\":\"check\"}");
	is_int(res.verdict, VERDICT_FAIL, "marker: none yet fails a check");
	is_str(res.got, "no marker", "marker: got no marker");
	run(&res, "{\"kind\":\"marker\",\"action\":\"set\"}");
	is_int(res.verdict, VERDICT_PASS, "marker: set");
	ok(strncmp(res.got, "token ", 6) == 0 && strlen(res.got) > 22,
	   "marker: reports its token");
	{
		char tok[17];

		memcpy(tok, res.got + 6, 16);
		tok[16] = '\0';
		run(&res, "{\"kind\":\"marker\",\"action\":\"check\"}");
		is_int(res.verdict, VERDICT_PASS, "marker: found");
		ok(strncmp(res.got + 6, tok, 16) == 0 &&
		   strstr(res.got, ", set at uptime "),
		   "marker: the same token, and when it was set");
	}
	run(&res, "{\"kind\":\"marker\",\"action\":\"check\",\"expect\":\"absent\"}");
	is_int(res.verdict, VERDICT_FAIL, "marker: present when absent is expected");
	snprintf(f, sizeof(f), "%s/vlalab-marker", dir);
	tu_write(f, "0123456789abcdef 99999999999\n", O_TRUNC);
	run(&res, "{\"kind\":\"marker\",\"action\":\"check\"}");
	is_int(res.verdict, VERDICT_FAIL, "marker: uptime may not go back");
	tu_write(f, "garbage\n", O_TRUNC);
	run(&res, "{\"kind\":\"marker\",\"action\":\"check\"}");
	is_int(res.verdict, VERDICT_ERROR, "marker: a bad file is an error");
	run(&res, "{\"kind\":\"marker\",\"action\":\"set\",\"expect\":\"absent\"}");
	is_int(res.verdict, VERDICT_ERROR, "marker: expect goes with check");

	snprintf(f, sizeof(f), "%s/block", dir);
	mkdir(f, 0700);
	snprintf(f, sizeof(f), "%s/block/vdz", dir);
	mkdir(f, 0700);
	snprintf(f, sizeof(f), "%s/block/vdz/dev", dir);
	tu_write(f, "254:0\n", O_TRUNC);
	snprintf(f, sizeof(f), "%s/power", dir);
	mkdir(f, 0700);
	snprintf(f, sizeof(f), "%s/power/resume", dir);
	tu_write(f, "", O_TRUNC);
	run(&res, "{\"kind\":\"resume\",\"device\":\"vdz\"}");
	is_int(res.verdict, VERDICT_PASS, "resume: the write returned");
	is_str(tu_read(f), "254:0", "resume: wrote MAJ:MIN");
	run(&res, "{\"kind\":\"resume\",\"device\":\"vdz\","
	    "\"hold_snapshot\":true}");
	is_int(res.verdict, VERDICT_FAIL, "resume: hold_snapshot with no snapshot device");
	is_str(res.got, "errno ENOENT from open (No such file or directory)",
	       "resume: says why it could not hold it");
	{
		char snap[512];

		snprintf(snap, sizeof(snap), "%s/snapshot", dir);
		tu_write(snap, "", O_TRUNC);
		tu_write(f, "", O_TRUNC);
		run(&res, "{\"kind\":\"resume\",\"device\":\"vdz\","
		    "\"hold_snapshot\":true}");
		is_int(res.verdict, VERDICT_PASS, "resume: holding the snapshot device");
		ok(strstr(res.got, " holding /dev/snapshot;") != NULL,
		   "resume: says it held the snapshot device");
		is_str(tu_read(f), "254:0", "resume: and wrote MAJ:MIN");
	}
	snprintf(f, sizeof(f), "%s/block/vdz/dev", dir);
	tu_write(f, "254:0; rm -rf\n", O_TRUNC);
	run(&res, "{\"kind\":\"resume\",\"device\":\"vdz\"}");
	is_int(res.verdict, VERDICT_ERROR, "resume: a strange dev file is refused");
	env.dev_dir = env.sys_dir = env.run_dir = NULL;
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s", tu_tmpdir());
	test_check();
	test_spec_table();
	test_reset_hooks();
	test_write();
	test_fork_write();
	test_read();
	test_readlink();
	test_repeat_length();
	test_sample_delta();
	test_bench();
	test_stack_tracer();
	test_wait_for();
	test_sleep();
	test_kmsg_without_log();
	test_swap_header();
	test_hibernate_steps();
	tu_rmrf(dir);
	return tap_done();
}
