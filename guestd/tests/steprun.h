/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The harness of the step kinds' tests (test-step-*.c): a temp dir, the
 * step_env and samples every step of a test shares, one step run from its
 * JSON, and a step the request check refuses. Static, as testutil.h, so
 * that each test's TAP counters (tap.h) count refused()'s points.
 */
#ifndef GUESTD_STEPRUN_H
#define GUESTD_STEPRUN_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "guestd.h"
#include "tap.h"
/* Before dir: its helpers take a dir of their own. */
#include "testutil.h"

static char dir[256];
static struct step_env env = { .kmsg_path = "/nonexistent", .no_swapon = true };
/* Shared by every run(), as a scenario's steps share theirs. */
static struct sample_set samples;

/* Run one step given as JSON (with %s for the temp dir). */
static inline uint64_t run(struct step_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline uint64_t run(struct step_result *res, const char *fmt, ...)
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
static inline void refused(const char *json, const char *reason, const char *what)
{
	struct json_object *s = json_tokener_parse(json);
	char err[256] = "";

	is_int(step_check(step_table, s, err, sizeof(err)), -EINVAL, what);
	is_str(err, reason, what);
	json_object_put(s);
}

#endif
