// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kselftest output parsers on output samples (kselftest-fixtures/),
 * and the kselftest step on small programs that print them: each subtest
 * reported, and the step's verdict from them, the plan and the exit.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "guestd.h"
#include "tap.h"
#include "testutil.h"

#ifndef KS_FIXTURES
#error "KS_FIXTURES: the fixture directory"
#endif

#define RESULTS_MAX 16

static struct ks_result got[RESULTS_MAX];
static unsigned int ngot;

/* Parse @text, lines separated by '\n'; ks_parser_finish()'s value. */
static int parse_text(const char *text, enum ks_format f, char *why, size_t len)
{
	char *copy = strdup(text), *line, *save = NULL;
	struct ks_parser p;
	struct ks_result r;

	ks_parser_init(&p, f);
	ngot = 0;
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (ks_parse_line(&p, line, &r) == 1 && ngot < RESULTS_MAX)
			got[ngot++] = r;
	free(copy);
	return ks_parser_finish(&p, why, len);
}

/* The same for a fixture file. */
static int parse_file(const char *name, enum ks_format f, char *why, size_t len)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", KS_FIXTURES, name);
	return parse_text(tu_read(path), f, why, len);
}

static void test_ftracetest(void)
{
	char why[256] = "";

	is_int(parse_file("ftracetest-mixed.txt", KS_FTRACETEST, why,
			  sizeof(why)),
	       0, "ftracetest: a whole run parses");
	is_int(ngot, 7, "seven results");
	is_str(got[0].name, "ftrace - function glob filters", "first name");
	is_int(got[0].verdict, VERDICT_PASS, "PASS is pass");
	is_int(got[4].verdict, VERDICT_SKIP, "UNSUPPORTED is skip");
	is_str(got[4].reason, "unsupported", "... with its reason");
	is_str(got[5].name,
	       "(instance)  ftrace - test for function traceon/off triggers",
	       "an instance run keeps its tag");
	is_int(got[5].verdict, VERDICT_FAIL, "FAIL is fail");
	is_int(got[6].verdict, VERDICT_FAIL, "UNRESOLVED is a failure");
	is_str(got[6].reason, "unresolved", "... that says so");

	is_int(parse_text("[1] colours\t\033[32mPASS\033[0m]\n", KS_FTRACETEST,
			  why, sizeof(why)),
	       -EBADMSG, "no '[' before the word: no result");
	is_int(parse_text("[1] colours\t[\033[32mPASS\033[0m]\n"
			  "[2] xfailing\t[XFAIL]\n",
			  KS_FTRACETEST, why, sizeof(why)),
	       -EBADMSG, "coloured words parse, but no summary is incomplete");
	is_int(ngot, 2, "both results came");
	is_int(got[0].verdict, VERDICT_PASS, "the colours are stripped");
	is_int(got[1].verdict, VERDICT_XFAIL, "XFAIL is xfail");
	okf(strstr(why, "stopped early") != NULL, "and why: %s", why);
	is_int(parse_text("[1] one\t[PASS]\n# of passed:  2\n# of failed:  0\n"
			  "# of unresolved:  0\n# of untested:  0\n"
			  "# of unsupported:  0\n# of xfailed:  0\n"
			  "# of undefined(test bug):  0\n",
			  KS_FTRACETEST, why, sizeof(why)),
	       -EBADMSG, "a summary counting a test that printed no result");
	is_str(why, "the summary counts 2 tests, but 1 result lines came",
	       "says so");
	is_int(parse_text("[1] desc\t[MAYBE]\n", KS_FTRACETEST, why,
			  sizeof(why)),
	       -EBADMSG, "an unknown word is no result");
	is_int(ngot, 0, "none came");
}

static void test_ktap(void)
{
	char why[256] = "";

	is_int(parse_file("tap-kselftest.txt", KS_KTAP, why, sizeof(why)), 0,
	       "kselftest.h's TAP parses");
	is_int(ngot, 4, "four results, the '#' lines not counted");
	is_str(got[0].name, "global.open", "a name");
	is_int(got[1].verdict, VERDICT_SKIP, "# SKIP is skip");
	is_str(got[1].reason, "no hardware", "with its reason");
	is_int(got[2].verdict, VERDICT_FAIL, "not ok is fail");
	is_str(got[2].reason, "error EINVAL", "a comment is its reason");
	is_str(got[2].name, "global.write", "and not part of its name");
	is_int(got[3].verdict, VERDICT_XFAIL, "# XFAIL is xfail");
	is_str(got[3].name, "known_bug", "TAP's '- ' goes");

	is_int(parse_file("ktap-nested.txt", KS_KTAP, why, sizeof(why)), 0,
	       "nested KTAP parses");
	is_int(ngot, 2, "only the top-level results count");
	is_int(got[0].verdict, VERDICT_PASS, "the suite that passed");
	is_int(got[1].verdict, VERDICT_FAIL, "the suite that failed");
	is_str(got[1].name, "bch", "by name");

	/* The host refuses a name with a control character (proto.c). */
	is_int(parse_text("1..2\nok 1 a\tb \x1b]52;c;eA==\x07\nok 2 x\ry\n",
			  KS_KTAP, why, sizeof(why)),
	       0, "names with controls parse");
	is_str(got[0].name, "a b \\x1b]52;c;eA==\\x07",
	       "a tab in a name is a space, ESC and BEL are escaped");
	is_str(got[1].name, "x\\x0dy", "so is a CR");

	is_int(parse_text("1..3\nok 1 a\nok 2 b\n", KS_KTAP, why, sizeof(why)),
	       -EBADMSG, "fewer results than the plan");
	is_str(why, "the plan says 3 tests, but 2 results came", "says so");
	is_int(parse_text("ok 1 a\n", KS_KTAP, why, sizeof(why)), -EBADMSG,
	       "no plan");
	is_int(parse_text("1..2\nok 1 a\nBail out! no device\n", KS_KTAP, why,
			  sizeof(why)),
	       -EBADMSG, "a bail-out");
	is_str(why, "the program bailed out: no device", "says why");
	is_int(parse_text("1..0 # SKIP no ftrace\n", KS_KTAP, why, sizeof(why)),
	       0, "a program that skips as a whole");
	is_int(ngot, 1, "is one result");
	ok(got[0].verdict == VERDICT_SKIP &&
		   !strcmp(got[0].reason, "no ftrace"),
	   "a skip with the plan's reason");
	is_int(parse_text("1..1\nok 1 \n", KS_KTAP, why, sizeof(why)), 0,
	       "a result without a name");
	is_str(got[0].name, "test 1", "is named by its number");
	is_int(parse_text("1..1\nok 1 a \001 b\n", KS_KTAP, why, sizeof(why)),
	       0, "a control byte in a name");
	is_str(got[0].name, "a \\x01 b", "is escaped");
}

/* ---- the step ---- */

static char dir[256];
static struct step_env env = { .kmsg_path = "/nonexistent" };
static struct ks_result sub[RESULTS_MAX];
static unsigned int nsub;
static bool sub_order_ok;

static void on_subtest(void *data, uint32_t step, uint32_t index,
		       const struct ks_result *res)
{
	(void)data;
	if (index != nsub || step != 5)
		sub_order_ok = false;
	if (nsub < RESULTS_MAX)
		sub[nsub] = *res;
	nsub++;
}

/* A program t/NAME that prints fixture @fixture (or @text) and exits @rc. */
static void program(const char *name, const char *fixture, const char *text,
		    int rc)
{
	char path[512], script[2048];

	snprintf(path, sizeof(path), "%s/t", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/t/%s", dir, name);
	if (fixture)
		snprintf(script, sizeof(script),
			 "#!/bin/sh\ncat '%s/%s'\nexit %d\n", KS_FIXTURES,
			 fixture, rc);
	else
		snprintf(script, sizeof(script),
			 "#!/bin/sh\nprintf '%s'\nexit %d\n", text, rc);
	unlink(path);
	tu_write(path, script, O_TRUNC);
	chmod(path, 0755);
}

static void run(struct step_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void run(struct step_result *res, const char *fmt, ...)
{
	struct step_ctx ctx = { .env = &env, .step = 5, .subtest = on_subtest };
	struct json_object *step;
	char json[2048], err[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(json, sizeof(json), fmt, ap);
	va_end(ap);
	memset(res, 0, sizeof(*res));
	res->verdict = VERDICT_CRASH;
	nsub = 0;
	sub_order_ok = true;
	step = json_tokener_parse(json);
	if (!step || step_check(step_table, step, err, sizeof(err)) < 0) {
		printf("# bad test step %s: %s\n", json, step ? err : "JSON");
		json_object_put(step);
		return;
	}
	if (step_find(step_table, "kselftest")->run(&ctx, step, res) < 0)
		res->verdict = VERDICT_CRASH;
	json_object_put(step);
}

static void test_step(void)
{
	struct step_result res;

	snprintf(dir, sizeof(dir), "%s", tu_tmpdir());
	env.kselftest_dir = dir;

	program("mixed", "ftracetest-mixed.txt", NULL, 1);
	run(&res,
	    "{\"kind\":\"kselftest\",\"program\":\"t/mixed\","
	    "\"format\":\"ftracetest\",\"allow_skip\":\": unsupported$\"}");
	is_int(res.verdict, VERDICT_FAIL, "ftracetest with a FAIL fails");
	is_int(nsub, 7, "every test was reported");
	ok(sub_order_ok, "numbered 0, 1, 2... for the step");
	is_int(sub[5].verdict, VERDICT_FAIL, "the failure among them");
	okf(strstr(res.got,
		   "7 tests: 4 passed or xfailed, 2 failed, 1 skipped (0 without a declared reason)") &&
		    strstr(res.got,
			   "'(instance)  ftrace - test for function traceon/off triggers' fail"),
	    "got names the failures: %s", res.got);
	ok(strstr(res.got, "exit status 1") != NULL, "and the exit status");

	program("pass", NULL, "1..2\\nok 1 a\\nok 2 b # SKIP no b here\\n", 0);
	run(&res, "{\"kind\":\"kselftest\",\"program\":\"t/pass\"}");
	is_int(res.verdict, VERDICT_FAIL, "a skip no allow_skip declares");
	is_str(res.expected, "every test passes (no skip is declared)",
	       "expects no skip");
	okf(strstr(res.got, "1 skipped (1 without a declared reason)") != NULL,
	    "fails as such: %s", res.got);
	run(&res, "{\"kind\":\"kselftest\",\"program\":\"t/pass\","
		  "\"allow_skip\":\"^b: no b\"}");
	is_int(res.verdict, VERDICT_PASS, "passes once declared");
	is_str(res.got, "", "with nothing in got");
	is_int(nsub, 2, "both reported");
	run(&res, "{\"kind\":\"kselftest\",\"program\":\"t/pass\","
		  "\"allow_skip\":\"^a: \"}");
	is_int(res.verdict, VERDICT_FAIL, "a reason for another test is none");
	run(&res, "{\"kind\":\"kselftest\",\"program\":\"t/pass\","
		  "\"allow_skip\":\"^b\",\"min_tests\":3}");
	is_int(res.verdict, VERDICT_FAIL, "fewer tests than min_tests");
	is_str(res.expected, "at least 3 tests", "says so");

	program("exit", NULL, "1..1\\nok 1 a\\n", 2);
	run(&res, "{\"kind\":\"kselftest\",\"program\":\"t/exit\"}");
	is_int(res.verdict, VERDICT_FAIL, "a failed exit although all passed");
	is_str(res.expected, "exit status 0, as every test passed", "says so");

	program("short", NULL, "1..3\\nok 1 a\\n", 0);
	run(&res, "{\"kind\":\"kselftest\",\"program\":\"t/short\"}");
	is_int(res.verdict, VERDICT_FAIL, "a program that stops early");
	okf(strstr(res.got, "the plan says 3 tests, but 1 results came") !=
		    NULL,
	    "says so: %s", res.got);

	run(&res, "{\"kind\":\"kselftest\",\"program\":\"t/none\"}");
	is_int(res.verdict, VERDICT_ERROR, "a missing program is an error");
	okf(strstr(res.reason, "No such file") != NULL, "saying why: %s",
	    res.reason);
	run(&res, "{\"kind\":\"kselftest\",\"program\":\"t/../../x\"}");
	is_int(res.verdict, VERDICT_ERROR, "'..' is refused");

	tu_rmrf(dir);
}

static void test_program_names(void)
{
	char d[32];

	ok(stepspec_kselftest_program_ok("ftrace/ftracetest"), "DIR/FILE");
	ok(stepspec_kselftest_program_ok("drivers/net/dsa/x.sh"), "deeper");
	ok(!stepspec_kselftest_program_ok("ftracetest"), "one part");
	ok(!stepspec_kselftest_program_ok("/ftrace/x"), "absolute");
	ok(!stepspec_kselftest_program_ok("ftrace/../x"), "'..'");
	ok(!stepspec_kselftest_program_ok("ftrace//x"), "an empty part");
	ok(!stepspec_kselftest_program_ok("ftrace/x y"), "a blank");
	ok(!stepspec_kselftest_program_ok("ftrace/"), "a trailing '/'");
	is_int(stepspec_kselftest_dir("drivers/net/x", d, sizeof(d)), 0,
	       "its DIR");
	is_str(d, "drivers", "is the first part");
}

int main(void)
{
	test_ftracetest();
	test_ktap();
	test_step();
	test_program_names();
	return tap_done();
}
