// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench: one operation on a debugfs or sysfs file, done runs times after
 * warmup runs that are thrown away. The operation is a read of path from
 * its start; each run's value is the integer match captures (bch_bench's
 * "ns N"), or without match the read's own time in ns on CLOCK_MONOTONIC.
 * The step passes with the runs' median, min, max and coefficient of
 * variation in its step_end (struct proto_bench), and says them in got.
 * With "min" or "max" every run's value must lie within them (a kernel
 * that did no work reads a time near 0); a run outside fails the step,
 * which still reports the figures.
 * Under icount the guest's clocks count instructions (docs/evidence.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "guestd.h"

#define BENCH_READ_MAX (64 * 1024)
#define BENCH_SHOW 512

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int bench_stats(uint64_t *v, size_t n, struct proto_bench *ret)
{
	long double sum = 0, mean, ss = 0;
	struct proto_bench b = { 0 };

	if (n == 0 || n > PROTO_BENCH_RUNS_MAX)
		return -EINVAL;
	qsort(v, n, sizeof(*v), cmp_u64);
	b.runs = (uint32_t)n;
	b.min = v[0];
	b.max = v[n - 1];
	/* The two middle values' mean without overflow. */
	if (n % 2)
		b.median = v[n / 2];
	else
		b.median = v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	mean = sum / n;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	if (n > 1 && mean > 0)
		b.cv_ppm =
			(uint64_t)llroundl(sqrtl(ss / (n - 1)) / mean * 1e6L);
	*ret = b;
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

/* One run: read @path and take its value. 0, or -errno with @err set. */
static int bench_once(const char *path, const char *match, uint64_t *ret,
		      char *err, size_t errlen)
{
	char *buf = NULL, shown[BENCH_SHOW + 64], why[256];
	uint64_t t0 = now_ns(), t1;
	int64_t v;
	size_t len;
	int r;

	r = fileio_read(path, BENCH_READ_MAX, &buf, &len, NULL);
	t1 = now_ns();
	if (r < 0) {
		snprintf(err, errlen, "errno %s from reading '%s'",
			 util_errno_desc(-r), path);
		return r;
	}
	if (!match) {
		*ret = t1 - t0;
		free(buf);
		return 0;
	}
	r = sample_parse(buf, match, &v, why, sizeof(why));
	if (r == 0 && v < 0) {
		snprintf(why, sizeof(why), "'%s' captured %" PRId64 " < 0",
			 match, v);
		r = -ERANGE;
	}
	if (r < 0) {
		util_escape(shown, sizeof(shown), buf, len, BENCH_SHOW);
		util_fmt(err, errlen, "%s in '%s'", why, shown);
	} else {
		*ret = (uint64_t)v;
	}
	free(buf);
	return r;
}

static int bench_run(struct step_ctx *ctx, struct json_object *step,
		     struct step_result *res)
{
	const char *path = step_str(step, "path");
	const char *match = step_str(step, "match");
	int64_t runs = step_int(step, "runs", 0);
	int64_t warmup = step_int(step, "warmup", 0);
	int64_t lo = step_int(step, "min", 0);
	int64_t hi = step_int(step, "max", STEPSPEC_BENCH_VALUE_MAX);
	char err[PROTO_TEXT_MAX];
	struct proto_bench b;
	uint64_t *v, x;
	int r;

	if (runs < 1 || runs > PROTO_BENCH_RUNS_MAX || warmup < 0 ||
	    warmup > STEPSPEC_BENCH_WARMUP_MAX) {
		step_error(res,
			   "bench: runs %" PRId64 " or warmup %" PRId64
			   " out of range",
			   runs, warmup);
		return 0;
	}
	v = calloc((size_t)runs, sizeof(*v));
	if (!v) {
		step_error(res, "bench: out of memory");
		return 0;
	}
	snprintf(res->reason, sizeof(res->reason), "bench of '%s'", path);
	for (int64_t i = 0; i < warmup + runs; i++) {
		r = bench_once(path, match, &x, err, sizeof(err));
		if (r < 0) {
			res->verdict = VERDICT_FAIL;
			if (match)
				step_expected(res,
					      "an integer captured by '%s'",
					      match);
			else
				step_expected(res, "'%s' to read", path);
			step_got(res, "run %" PRId64 ": %s", i + 1, err);
			goto out;
		}
		if (i >= warmup)
			v[i - warmup] = x;
	}
	bench_stats(v, (size_t)runs, &b);
	res->bench = b;
	step_got(res,
		 "median %" PRIu64 ", min %" PRIu64 ", max %" PRIu64
		 ", cv %.2f%% over %u runs",
		 b.median, b.min, b.max, b.cv_ppm / 10000.0, b.runs);
	if (b.min < (uint64_t)lo || b.max > (uint64_t)hi) {
		res->verdict = VERDICT_FAIL;
		step_expected(res, "every run from %" PRId64 " to %" PRId64, lo,
			      hi);
		goto out;
	}
	res->verdict = VERDICT_PASS;
	res->reason[0] = '\0';
out:
	free(v);
	return 0;
}

const struct step_ops step_bench = {
	.name = "bench",
	.run = bench_run,
};
