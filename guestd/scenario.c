// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scenario child: runs the steps of one request in order, in its own
 * process group, and tells the supervisor what happens as protocol lines
 * on a pipe. The first step that doesn't pass ends the scenario. The
 * cleanup child (a second fork, after the first is gone) runs the
 * request's cleanup list the same way, except that it runs every step
 * whatever the ones before it did, as a shell trap would.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guestd.h"

static void child_emit(int fd, struct proto_event *ev)
{
	char *line;
	size_t len;

	ev->t_us = guestd_now_us();
	if (proto_event_encode(ev, &line, &len) < 0)
		_exit(3);
	/* The supervisor is gone: nobody is left to report to. */
	if (fileio_write_all(fd, line, len) < 0)
		_exit(4);
	free(line);
}

/* Where a step's subtests go: the pipe, tagged with the scenario. */
struct subtest_out {
	int fd;
	const char *scenario;
};

static void emit_subtest(void *data, uint32_t step, uint32_t index,
			 const struct ks_result *res)
{
	static struct proto_event ev;
	const struct subtest_out *out = data;

	memset(&ev, 0, sizeof(ev));
	ev.type = PROTO_EV_SUBTEST;
	snprintf(ev.u.subtest.scenario, PROTO_NAME_MAX, "%s", out->scenario);
	ev.u.subtest.step = step;
	ev.u.subtest.index = index;
	memcpy(ev.u.subtest.name, res->name, sizeof(ev.u.subtest.name));
	ev.u.subtest.verdict = res->verdict;
	memcpy(ev.u.subtest.reason, res->reason, sizeof(ev.u.subtest.reason));
	child_emit(out->fd, &ev);
}

/* A piece of an exec step's output: the pipe, as an "output" event. */
static void emit_output(void *data, uint32_t step, bool err, const char *buf,
			size_t len)
{
	static struct proto_event ev;
	const struct subtest_out *out = data;

	memset(&ev, 0, sizeof(ev));
	ev.type = PROTO_EV_OUTPUT;
	snprintf(ev.u.output.scenario, PROTO_NAME_MAX, "%s", out->scenario);
	ev.u.output.step = step;
	snprintf(ev.u.output.stream, PROTO_STREAM_MAX, "%s",
		 err ? "stderr" : "stdout");
	if (len >= PROTO_OUTPUT_MAX)
		len = PROTO_OUTPUT_MAX - 1;
	for (size_t i = 0; i < len; i++)
		ev.u.output.data[i] = buf[i] ? buf[i] : '?';
	child_emit(out->fd, &ev);
}

static void wait_ack(int fd)
{
	char c;

	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
}

/* The scenario's reason: which step, and what it expected and saw. */
static void scenario_reason(char *buf, size_t size, uint32_t i,
			    const char *kind, const char *name,
			    const struct step_result *res)
{
	char where[PROTO_NAME_MAX + PROTO_KIND_MAX + 32];

	snprintf(where, sizeof(where), "step %u (%s%s%s%s)", i + 1, kind,
		 name ? " '" : "", name ? name : "", name ? "'" : "");
	if (res->verdict == VERDICT_ERROR || !res->expected[0])
		util_fmt(buf, size, "%s: %s", where, res->reason);
	else
		util_fmt(buf, size, "%s: expected %s; got %s", where,
			 res->expected, res->got);
}

/*
 * A cleanup step's guard: with "if_exists", the step runs only when that
 * path exists. Returns true and fills @res (skip) when it must not run.
 */
static bool guard_skips(struct json_object *step, struct step_result *res)
{
	const char *path = step_str(step, "if_exists");
	struct stat st;

	if (!path || stat(path, &st) == 0 ||
	    (errno != ENOENT && errno != ENOTDIR))
		return false;
	res->verdict = VERDICT_SKIP;
	util_fmt(res->reason, sizeof(res->reason),
		 "'%s' does not exist: nothing to clean up", path);
	return true;
}

/* Run one step between its step_begin (acknowledged) and its step_end. */
static void run_step(struct step_ctx *ctx, const struct step_ops *ops,
		     struct json_object *step, bool cleanup,
		     struct step_result *res)
{
	memset(res, 0, sizeof(*res));
	res->verdict = VERDICT_ERROR;
	if (cleanup && guard_skips(step, res))
		return;
	/* A fault armed by the previous step covers this one only. */
	fault_run_step(ctx, ops, step, res);
}

void scenario_child(const struct step_ops *const *table,
		    const struct step_env *env, const struct proto_run *run,
		    bool cleanup, int out_fd, int ack_fd)
{
	static struct proto_event ev;
	static struct step_result res;
	static struct sample_set samples;
	static char reason[PROTO_TEXT_MAX];
	struct subtest_out sub = { .fd = out_fd, .scenario = run->scenario };
	struct step_ctx ctx = { .env = env,
				.samples = &samples,
				.subtest = emit_subtest,
				.subtest_data = &sub,
				.output = emit_output,
				.output_data = &sub };
	struct json_object *steps = cleanup ? run->cleanup : run->steps;
	enum proto_verdict verdict = VERDICT_PASS;
	const char *scenario = run->scenario;
	struct kmsg_log log;
	uint64_t begin, t0, mark = 0;
	uint32_t first = 0;
	size_t n = json_object_array_length(steps);

	begin = guestd_now_us();
	/* Cleanup steps are numbered after the main steps. */
	if (cleanup)
		first = (uint32_t)json_object_array_length(run->steps);

	if (kmsg_log_open(&log,
			  env->kmsg_path ? env->kmsg_path : "/dev/kmsg") == 0) {
		ctx.kmsg = &log;
		kmsg_log_drain(&log);
		ctx.scenario_mark = kmsg_log_mark(&log);
	}
	ctx.prev_step_mark = ctx.scenario_mark;

	memset(&ev, 0, sizeof(ev));
	for (size_t i = 0; i < n; i++) {
		struct json_object *step = json_object_array_get_idx(steps, i);
		const char *kind = step_str(step, "kind");
		const char *name = step_str(step, "name");
		uint32_t idx = first + (uint32_t)i;

		memset(&ev, 0, sizeof(ev));
		ev.type = PROTO_EV_STEP_BEGIN;
		snprintf(ev.u.step_begin.scenario, PROTO_NAME_MAX, "%s",
			 scenario);
		ev.u.step_begin.step = idx;
		snprintf(ev.u.step_begin.kind, PROTO_KIND_MAX, "%s", kind);
		snprintf(ev.u.step_begin.name, PROTO_NAME_MAX, "%s",
			 name ? name : "");
		child_emit(out_fd, &ev);
		/* The supervisor tags kernel lines with this step from now. */
		wait_ack(ack_fd);

		if (ctx.kmsg) {
			kmsg_log_drain(ctx.kmsg);
			mark = kmsg_log_mark(ctx.kmsg);
		}
		ctx.step = idx;
		t0 = guestd_now_us();
		run_step(&ctx, step_find(table, kind), step, cleanup, &res);
		ctx.prev_step_mark = mark;

		memset(&ev, 0, sizeof(ev));
		ev.type = PROTO_EV_STEP_END;
		snprintf(ev.u.step_end.scenario, PROTO_NAME_MAX, "%s",
			 scenario);
		ev.u.step_end.step = idx;
		ev.u.step_end.verdict = res.verdict;
		ev.u.step_end.duration_us = guestd_now_us() - t0;
		memcpy(ev.u.step_end.expected, res.expected, PROTO_TEXT_MAX);
		memcpy(ev.u.step_end.got, res.got, PROTO_TEXT_MAX);
		memcpy(ev.u.step_end.reason, res.reason, PROTO_TEXT_MAX);
		ev.u.step_end.bench = res.bench;
		ev.u.step_end.stack = res.stack;
		child_emit(out_fd, &ev);
		memset(&ev, 0, sizeof(ev));

		if (res.verdict == VERDICT_PASS ||
		    (cleanup && res.verdict == VERDICT_SKIP))
			continue;
		/* The first failure is the verdict; cleanup goes on. */
		if (verdict == VERDICT_PASS) {
			verdict = res.verdict;
			scenario_reason(reason, sizeof(reason), idx, kind, name,
					&res);
		}
		if (!cleanup)
			break;
	}

	memset(&ev, 0, sizeof(ev));
	ev.type = PROTO_EV_SCENARIO_END;
	snprintf(ev.u.scenario_end.scenario, PROTO_NAME_MAX, "%s", scenario);
	memcpy(ev.u.scenario_end.reason, reason, PROTO_TEXT_MAX);
	ev.u.scenario_end.verdict = verdict;
	ev.u.scenario_end.duration_us = guestd_now_us() - begin;
	child_emit(out_fd, &ev);
	sample_set_free(&samples);
	_exit(0);
}
