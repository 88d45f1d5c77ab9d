// SPDX-License-Identifier: GPL-2.0-only
/*
 * The step kinds that write and read files, against temp files: write,
 * fork_write, read, readlink, a write's repeat and a read's length; each
 * passes when it should, and each failure says exactly what it expected
 * and what it got.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "guestd.h"
#include "steprun.h"
#include "tap.h"
#include "testutil.h"

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

int main(void)
{
	snprintf(dir, sizeof(dir), "%s", tu_tmpdir());
	test_write();
	test_fork_write();
	test_read();
	test_readlink();
	test_repeat_length();
	tu_rmrf(dir);
	return tap_done();
}
