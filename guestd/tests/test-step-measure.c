// SPDX-License-Identifier: GPL-2.0-only
/*
 * The step kinds that measure: sample and delta (and their parsers and
 * bounds), bench (its figures, and the step over a file), and
 * stack_tracer against fake tracefs and procfs files.
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

int main(void)
{
	snprintf(dir, sizeof(dir), "%s", tu_tmpdir());
	test_sample_delta();
	test_bench();
	test_stack_tracer();
	tu_rmrf(dir);
	return tap_done();
}
