// SPDX-License-Identifier: GPL-2.0-only
/*
 * The step kinds that wait: wait_for on a path and its content, sleep,
 * and kmsg_expect without a kernel log.
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

int main(void)
{
	snprintf(dir, sizeof(dir), "%s", tu_tmpdir());
	test_wait_for();
	test_sleep();
	test_kmsg_without_log();
	tu_rmrf(dir);
	return tap_done();
}
