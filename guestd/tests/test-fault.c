// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fault step against a fake debugfs and /proc in a temp dir: what it
 * writes and in which order, that the next step (and only it) is armed,
 * that the disarm puts the kernel's defaults back and records whether the
 * fault fired, and the "off" step's verdicts.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "guestd.h"
#include "tap.h"
#include "testutil.h"

static char dir[256], dbg[300], proc[300];
static struct step_env env = { .kmsg_path = "/nonexistent" };

static const char *const slab_files[] = {
	"probability", "interval", "times", "space", "verbose",
	"ignore-gfp-wait", "task-filter", NULL
};
static const char *const page_files[] = {
	"probability", "interval", "times", "space", "verbose",
	"ignore-gfp-wait", "ignore-gfp-highmem", "min-order", "task-filter",
	NULL
};

static const char *fpath(const char *a, const char *b)
{
	static char p[2][1024];
	static int i;

	i ^= 1;
	snprintf(p[i], sizeof(p[i]), "%.600s/%.64s", a, b);
	return p[i];
}

/* A file's content less its newline, in a static buffer. */
static const char *val(const char *a, const char *b)
{
	static char v[64];
	const char *c = tu_read(fpath(a, b));
	size_t n = strcspn(c, "\n");

	n = n < sizeof(v) - 1 ? n : sizeof(v) - 1;
	memcpy(v, c, n);
	v[n] = '\0';
	return v;
}

static void fake_tree(void)
{
	char d[600];

	snprintf(dbg, sizeof(dbg), "%s/debug", dir);
	snprintf(proc, sizeof(proc), "%s/proc", dir);
	mkdir(dbg, 0755);
	mkdir(proc, 0755);
	snprintf(d, sizeof(d), "%s/failslab", dbg);
	mkdir(d, 0755);
	for (size_t i = 0; slab_files[i]; i++)
		tu_write(fpath(d, slab_files[i]), "7\n", O_TRUNC);
	snprintf(d, sizeof(d), "%s/fail_page_alloc", dbg);
	mkdir(d, 0755);
	for (size_t i = 0; page_files[i]; i++)
		tu_write(fpath(d, page_files[i]), "7\n", O_TRUNC);
	snprintf(d, sizeof(d), "%s/self", proc);
	mkdir(d, 0755);
	tu_write(fpath(d, "make-it-fail"), "0\n", O_TRUNC);
	snprintf(d, sizeof(d), "%s/thread-self", proc);
	mkdir(d, 0755);
	tu_write(fpath(d, "fail-nth"), "0\n", O_TRUNC);
	env.debugfs_dir = dbg;
	env.proc_dir = proc;
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

static struct json_object *parse(const char *json)
{
	struct json_object *step = json_tokener_parse(json);
	char err[256];

	if (!step || step_check(step_table, step, err, sizeof(err)) < 0) {
		printf("# bad test step %s: %s\n", json, step ? err : "JSON");
		exit(99);
	}
	return step;
}

/* Run a fault step as step @i of @ctx. */
static void run(struct step_ctx *ctx, uint32_t i, struct step_result *res,
		const char *json)
{
	struct json_object *step = parse(json);

	memset(res, 0, sizeof(*res));
	res->verdict = VERDICT_ERROR;
	ctx->step = i;
	if (step_fault.run(ctx, step, res) < 0)
		res->verdict = VERDICT_CRASH;
	json_object_put(step);
}

static void test_plan(void)
{
	struct fault_plan p;
	struct json_object *s;
	char err[256] = "";

	s = parse("{\"kind\":\"fault\",\"attr\":\"failslab\"}");
	is_int(fault_plan(s, &p, err, sizeof(err)), 0, "plan: failslab");
	is_int(p.n, 8, "plan: failslab writes 8 files (probability twice)");
	is_str(p.w[0].file, "probability", "plan: probability 0 first");
	is_int(p.w[0].value, 0, "plan: ... to 0");
	is_str(p.w[5].file, "ignore-gfp-wait", "plan: ignore-gfp-wait");
	is_int(p.w[5].value, 0, "plan: sleeping allocations fail by default");
	is_str(p.w[6].file, "task-filter", "plan: task-filter");
	is_int(p.w[6].value, 1, "plan: task filter on by default");
	is_str(p.w[7].file, "probability", "plan: probability last");
	is_int(p.w[7].value, 100, "plan: probability 100 by default");
	is_int(p.times, 1, "plan: times 1 by default");
	/* p.dir points into the step, which a scenario keeps to its end. */
	is_str(p.dir, "failslab", "plan: the failslab directory");
	json_object_put(s);

	s = parse("{\"kind\":\"fault\",\"attr\":\"fail_page_alloc\","
		  "\"min_order\":2,\"probability\":50,\"times\":3}");
	is_int(fault_plan(s, &p, err, sizeof(err)), 0, "plan: page alloc");
	json_object_put(s);
	is_int(p.n, 10, "plan: fail_page_alloc writes 10 files");
	is_str(p.w[7].file, "min-order", "plan: min-order");
	is_int(p.w[7].value, 2, "plan: min-order 2");
	is_str(p.w[9].file, "probability", "plan: probability last");
	is_int(p.w[9].value, 50, "plan: probability 50");
	is_int(p.times, 3, "plan: times 3");

	s = parse("{\"kind\":\"fault\",\"attr\":\"failslab\",\"min_order\":1}");
	is_int(fault_plan(s, &p, err, sizeof(err)), -EINVAL,
	       "plan: min_order is page alloc's");
	json_object_put(s);
	is_str(err, "key 'min_order' does not go with attr 'failslab'",
	       "plan: says which key");

	s = parse("{\"kind\":\"fault\",\"attr\":\"fail_nth\"}");
	is_int(fault_plan(s, &p, err, sizeof(err)), -EINVAL,
	       "plan: fail_nth needs nth");
	json_object_put(s);
	is_str(err, "attr 'fail_nth' needs 'nth' 1..1000000 or 'at'",
	       "plan: nth text");

	refused("{\"kind\":\"fault\",\"attr\":\"failslab\",\"verbose\":3}",
		"key 'verbose': 3 is out of range 0..2",
		"check: verbose 3 is refused before it runs");
	/* The plan keeps its own bound for a step that skipped the check. */
	s = json_tokener_parse(
		"{\"kind\":\"fault\",\"attr\":\"failslab\",\"verbose\":3}");
	is_int(fault_plan(s, &p, err, sizeof(err)), -EINVAL, "plan: verbose 3");
	json_object_put(s);
	is_str(err, "'verbose' must be 0..2, not 3", "plan: range text");

	refused("{\"kind\":\"fault\",\"attr\":\"nope\"}",
		"key 'attr': 'nope' is not one of: failslab, fail_page_alloc, fail_nth, off",
		"check: an unknown attr is refused before it runs");
	s = json_tokener_parse("{\"kind\":\"fault\",\"attr\":\"nope\"}");
	is_int(fault_plan(s, &p, err, sizeof(err)), -EINVAL, "plan: bad attr");
	json_object_put(s);
}

static void check_slab_defaults(const char *what)
{
	char d[600], label[128];
	static const char *const want[] = { "0", "1", "1", "0", "2", "1", "0" };

	snprintf(d, sizeof(d), "%s/failslab", dbg);
	for (size_t i = 0; slab_files[i]; i++) {
		snprintf(label, sizeof(label), "%s: failslab/%s back to %s",
			 what, slab_files[i], want[i]);
		is_str(val(d, slab_files[i]), want[i], label);
	}
}

static void test_task_armed_for_next_step(void)
{
	struct step_ctx ctx = { .env = &env };
	struct step_result res;
	char slab[600];

	snprintf(slab, sizeof(slab), "%s/failslab", dbg);
	run(&ctx, 0, &res, "{\"kind\":\"fault\",\"attr\":\"failslab\","
	    "\"times\":2,\"verbose\":1}");
	is_int(res.verdict, VERDICT_PASS, "task: fault step passes");
	is_str(val(slab, "task-filter"), "1", "task: task-filter set");
	is_str(val(slab, "ignore-gfp-wait"), "0", "task: ignore-gfp-wait 0");
	is_str(val(slab, "times"), "2", "task: times 2");
	is_str(val(slab, "verbose"), "1", "task: verbose 1");
	is_str(val(slab, "probability"), "0",
	       "task: not live during the fault step itself");
	is_str(val(proc, "self/make-it-fail"), "0", "task: not marked yet");

	/* The fault step's own after-hook arms nothing. */
	fault_after_step(&ctx, &res);
	is_str(val(proc, "self/make-it-fail"), "0", "task: still not marked");

	ctx.step = 1;
	memset(&res, 0, sizeof(res));
	is_int(fault_before_step(&ctx, &res), 0, "task: armed for step 1");
	is_str(val(proc, "self/make-it-fail"), "1", "task: marked");
	is_str(val(slab, "probability"), "100", "task: probability 100 now");
	/* The kernel counts an injected failure down in times. */
	tu_write(fpath(slab, "times"), "1\n", O_TRUNC);
	res.verdict = VERDICT_PASS;
	fault_after_step(&ctx, &res);
	is_int(res.verdict, VERDICT_PASS, "task: disarm keeps the verdict");
	is_str(val(proc, "self/make-it-fail"), "0", "task: unmarked after");
	check_slab_defaults("task");

	/* Step 2 runs with nothing armed. */
	ctx.step = 2;
	is_int(fault_before_step(&ctx, &res), 0, "task: step 2 not armed");
	is_str(val(proc, "self/make-it-fail"), "0", "task: step 2 unmarked");

	run(&ctx, 3, &res, "{\"kind\":\"fault\",\"attr\":\"off\","
	    "\"expect_injected\":true}");
	is_int(res.verdict, VERDICT_PASS, "task: off sees it was injected");
	run(&ctx, 4, &res, "{\"kind\":\"fault\",\"attr\":\"off\","
	    "\"expect_injected\":false}");
	is_int(res.verdict, VERDICT_FAIL, "task: off expecting no fault fails");
	is_str(res.expected, "the last armed fault not to have fired",
	       "task: expected text");
	is_str(res.got, "it was injected", "task: got text");
}

static void test_missed(void)
{
	struct step_ctx ctx = { .env = &env };
	struct step_result res;
	char page[600];

	snprintf(page, sizeof(page), "%s/fail_page_alloc", dbg);
	run(&ctx, 0, &res, "{\"kind\":\"fault\",\"attr\":\"fail_page_alloc\","
	    "\"times\":1,\"min_order\":0}");
	is_int(res.verdict, VERDICT_PASS, "missed: fault step passes");
	is_str(val(page, "min-order"), "0", "missed: min-order 0");
	ctx.step = 1;
	fault_before_step(&ctx, &res);
	is_str(val(page, "probability"), "100", "missed: live for step 1");
	res.verdict = VERDICT_PASS;
	fault_after_step(&ctx, &res);       /* times untouched: no failure */
	is_str(val(page, "min-order"), "1", "missed: min-order back to 1");
	is_str(val(page, "ignore-gfp-highmem"), "1",
	       "missed: ignore-gfp-highmem back to 1");
	run(&ctx, 2, &res, "{\"kind\":\"fault\",\"attr\":\"off\","
	    "\"expect_injected\":true}");
	is_int(res.verdict, VERDICT_FAIL, "missed: off expecting a fault fails");
	is_str(res.got, "it never fired", "missed: got text");

	/* "off" with nothing armed in the scenario. */
	memset(&ctx, 0, sizeof(ctx));
	ctx.env = &env;
	run(&ctx, 0, &res, "{\"kind\":\"fault\",\"attr\":\"off\","
	    "\"expect_injected\":false}");
	is_int(res.verdict, VERDICT_FAIL, "none: nothing was armed");
	is_str(res.got, "no fault was armed in this scenario", "none: got");
	run(&ctx, 1, &res, "{\"kind\":\"fault\",\"attr\":\"off\"}");
	is_int(res.verdict, VERDICT_PASS, "none: a plain off passes");
}

static void test_nth(void)
{
	struct step_ctx ctx = { .env = &env };
	struct step_result res;
	char slab[600];

	snprintf(slab, sizeof(slab), "%s/failslab", dbg);
	run(&ctx, 0, &res, "{\"kind\":\"fault\",\"attr\":\"fail_nth\","
	    "\"nth\":5}");
	is_int(res.verdict, VERDICT_PASS, "nth: fault step passes");
	is_str(val(slab, "ignore-gfp-wait"), "0",
	       "nth: sleeping slab allocations count");
	is_str(val(proc, "thread-self/fail-nth"), "0", "nth: not armed yet");
	ctx.step = 1;
	fault_before_step(&ctx, &res);
	is_str(val(proc, "thread-self/fail-nth"), "5", "nth: armed for step 1");
	is_str(val(fpath(dbg, "fail_page_alloc"), "min-order"), "4294967295",
	       "nth: page allocations are not counted");
	is_str(val(proc, "self/make-it-fail"), "0", "nth: no task mark");
	/* The kernel leaves 0 once the nth call failed. */
	tu_write(fpath(proc, "thread-self/fail-nth"), "0\n", O_TRUNC);
	res.verdict = VERDICT_PASS;
	fault_after_step(&ctx, &res);
	is_str(val(slab, "ignore-gfp-wait"), "1", "nth: failslab reset");
	is_str(val(fpath(dbg, "fail_page_alloc"), "min-order"), "1",
	       "nth: fail_page_alloc reset");
	run(&ctx, 2, &res, "{\"kind\":\"fault\",\"attr\":\"off\","
	    "\"expect_injected\":true}");
	is_int(res.verdict, VERDICT_PASS, "nth: off sees it fired");

	/* Not consumed: the disarm zeroes it. */
	run(&ctx, 3, &res, "{\"kind\":\"fault\",\"attr\":\"fail_nth\","
	    "\"nth\":9}");
	ctx.step = 4;
	fault_before_step(&ctx, &res);
	res.verdict = VERDICT_PASS;
	fault_after_step(&ctx, &res);
	is_str(val(proc, "thread-self/fail-nth"), "0", "nth: zeroed after");
	run(&ctx, 5, &res, "{\"kind\":\"fault\",\"attr\":\"off\","
	    "\"expect_injected\":false}");
	is_int(res.verdict, VERDICT_PASS, "nth: off sees it did not fire");
}

static void test_errors(void)
{
	struct step_ctx ctx = { .env = &env };
	struct step_result res;
	struct step_env bad = env;

	bad.proc_dir = "/nonexistent-vlalab";
	ctx.env = &bad;
	run(&ctx, 0, &res, "{\"kind\":\"fault\",\"attr\":\"failslab\"}");
	is_int(res.verdict, VERDICT_ERROR, "errors: no make-it-fail file");
	ok(strstr(res.reason, "opening '/nonexistent-vlalab/self/make-it-fail'"),
	   "errors: the reason names the file");
	check_slab_defaults("errors");

	/* A kernel without fail_page_alloc: reset is still fine. */
	tu_rmrf(fpath(dbg, "fail_page_alloc"));
	is_int(fault_reset(&env, res.reason, sizeof(res.reason)), 0,
	       "errors: reset without fail_page_alloc");
}

/*
 * The search ("at") against a fake kernel: a step that makes fake.calls
 * fault-injectable calls, the one at fake.target through the function
 * "dsa_port_do_vlan_add". Like the kernel, it fails the nth call when
 * fail-nth is n (leaving 0 in the file and logging a report with a stack
 * to the kmsg file), and leaves what remains of n otherwise.
 */
static struct {
	unsigned int calls, target, runs, nowarn;
	char kmsg[600];
	uint64_t seq;
} fake;

static void fake_log(const char *msg)
{
	char line[256];

	snprintf(line, sizeof(line), "4,%llu,1000,-;%s\n",
		 (unsigned long long)fake.seq++, msg);
	tu_write(fake.kmsg, line, O_APPEND);
}

static int fake_run(struct step_ctx *ctx, struct json_object *step,
		    struct step_result *res)
{
	char nth_s[16];
	unsigned int n = (unsigned int)atoi(val(proc, "thread-self/fail-nth"));

	(void)ctx;
	(void)step;
	fake.runs++;
	if (n == 0 || n > fake.calls) {
		snprintf(nth_s, sizeof(nth_s), "%u\n", n ? n - fake.calls : 0);
		tu_write(fpath(proc, "thread-self/fail-nth"), nth_s, O_TRUNC);
		res->verdict = VERDICT_FAIL;
		step_expected(res, "errno ENOMEM");
		step_got(res, "success");
		return 0;
	}
	tu_write(fpath(proc, "thread-self/fail-nth"), "0\n", O_TRUNC);
	if (n != fake.nowarn) {
		fake_log("FAULT_INJECTION: forcing a failure.\\x0aname failslab, "
			 "interval 1, probability 0, space 0, times 1");
		fake_log("CPU: 0 PID: 70 Comm: guestd Not tainted 6.1.0 #1");
		fake_log("Call Trace:");
		fake_log(" <TASK>");
		fake_log(" dump_stack_lvl+0x44/0x5c");
		fake_log(" should_fail_ex.cold+0x5/0xa");
		fake_log(" __kmalloc+0x4b/0x150");
		/* An unreliable guess never counts as the target. */
		fake_log(" ? dsa_port_do_vlan_add+0x10/0x90 [dsa_core]");
		if (n == fake.target)
			fake_log(" dsa_port_do_vlan_add+0x3d/0x90 [dsa_core]");
		else if (n % 2)
			fake_log(" nbp_vlan_add+0x5d/0x150 [bridge]");
		else
			fake_log(" netlink_sendmsg+0x20/0x3c0");
		fake_log(" __sys_sendmsg+0x59/0xa0");
		fake_log(" </TASK>");
	}
	res->verdict = VERDICT_PASS;    /* ENOMEM, as the step expected */
	return 0;
}

static const struct step_ops fake_ops = { .name = "fake", .run = fake_run };

/* Arm a search with @json as step 0 and run the fake as step 1. */
static void search(unsigned int calls, unsigned int target,
		   struct step_result *res, const char *json)
{
	struct kmsg_log log;
	struct step_ctx ctx = { .env = &env };
	struct json_object *step = json_tokener_parse("{\"kind\":\"sleep\"}");

	fake.calls = calls;
	fake.target = target;
	fake.runs = 0;
	tu_write(fake.kmsg, "", O_TRUNC);
	fake.seq = 1;
	if (kmsg_log_open(&log, fake.kmsg) < 0)
		exit(99);
	ctx.kmsg = &log;
	run(&ctx, 0, res, json);
	if (res->verdict != VERDICT_PASS) {
		printf("# the fault step itself: %s\n", res->reason);
		exit(99);
	}
	ctx.step = 1;
	memset(res, 0, sizeof(*res));
	fault_run_step(&ctx, &fake_ops, step, res);
	json_object_put(step);
	kmsg_log_close(&log);
}

static void test_search(void)
{
	static const char at[] = "{\"kind\":\"fault\",\"attr\":\"fail_nth\","
				 "\"at\":\"dsa_port_do_vlan_add\"}";
	struct step_result res;
	struct fault_frame fr;

	snprintf(fake.kmsg, sizeof(fake.kmsg), "%s/kmsg", dir);
	tu_write(fake.kmsg, "", O_TRUNC);

	is_int(fault_frame_parse(" br_vlan_add+0x5d/0x150 [bridge]", &fr), 0,
	       "frame: parses");
	is_str(fr.fn, "br_vlan_add", "frame: the function");
	ok(fr.reliable, "frame: reliable");
	is_int(fault_frame_parse(" ? f.isra.0+0x1/0x2", &fr), 0,
	       "frame: a guess parses");
	ok(!fr.reliable && !strcmp(fr.fn, "f.isra.0"), "frame: ... unreliable");
	is_int(fault_frame_parse("Call Trace:", &fr), -EINVAL,
	       "frame: not a frame");
	ok(fault_frame_is_allocator("kmalloc_trace"), "allocator: kmalloc_");
	ok(!fault_frame_is_allocator("nbp_vlan_add"), "allocator: not nbp_");

	search(10, 3, &res, at);
	is_int(res.verdict, VERDICT_PASS, "search: found on the 3rd call");
	is_int(fake.runs, 3, "search: three tries");
	ok(strstr(res.got, "the fault hit 'dsa_port_do_vlan_add' at call 3: "
		  "dsa_port_do_vlan_add") != NULL, "search: got says where");
	is_str(val(proc, "thread-self/fail-nth"), "0", "search: disarmed");
	is_str(val(fpath(dbg, "failslab"), "ignore-gfp-wait"), "1",
	       "search: failslab reset");

	search(300, 200, &res, at);
	is_int(res.verdict, VERDICT_PASS, "search: found on the 200th call");
	is_int(fake.runs, 200, "search: 200 tries");

	search(300, 201, &res, at);
	is_int(res.verdict, VERDICT_FAIL, "search: not within 200 calls");
	is_int(fake.runs, 200, "search: stopped at max_tries");
	is_str(res.expected, "a call with 'dsa_port_do_vlan_add' on its stack "
	       "among the step's first 200 fault-injectable calls",
	       "search: expected text");
	ok(!strncmp(res.got, "none: 1 nbp_vlan_add; 2 netlink_sendmsg; 3 nbp",
		    46), "search: got names the calls it hit");
	if (strncmp(res.got, "none: 1 nbp", 11))
		printf("# got: %.200s\n", res.got);

	search(5, 0, &res, at);
	is_int(res.verdict, VERDICT_FAIL, "search: never reached");
	is_int(fake.runs, 6, "search: ran out of calls on the 6th try");
	ok(strstr(res.got, "the step made only 5 such calls: 1 nbp_vlan_add")
	   != NULL, "search: got counts the calls");

	fake.nowarn = 2;
	search(5, 4, &res, at);
	fake.nowarn = 0;
	is_int(res.verdict, VERDICT_PASS, "search: past a silent call");

	search(10, 7, &res, "{\"kind\":\"fault\",\"attr\":\"fail_nth\","
	       "\"at\":\"dsa_port_do_vlan_add\",\"max_tries\":6}");
	is_int(res.verdict, VERDICT_FAIL, "search: max_tries bounds it");
	is_int(fake.runs, 6, "search: six tries");
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s", tu_tmpdir());
	fake_tree();
	test_plan();
	test_task_armed_for_next_step();
	test_missed();
	test_nth();
	test_search();
	test_errors();
	tu_rmrf(dir);
	return tap_done();
}
