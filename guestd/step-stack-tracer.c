// SPDX-License-Identifier: GPL-2.0-only
/*
 * stack_tracer: the ftrace stack tracer (CONFIG_STACK_TRACER) around a
 * scenario's work. "start" clears tracefs stack_max_size and turns the
 * tracer on (sysctl kernel.stack_tracer_enabled); "stop" turns it off and
 * reports the deepest kernel stack it saw in between, from stack_max_size
 * and stack_trace: its bytes, its frames and their functions, in the
 * step_end (struct proto_stack) and in got. The tracer watches every
 * traced function of every task, so the deepest stack is the whole
 * guest's in that time, not only the scenario's. With "min_bytes" or
 * "max_bytes", stop fails unless the deepest stack lies within them: a
 * tracer that saw nothing reads 0 bytes, and no kernel stack is deeper
 * than its THREAD_SIZE.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guestd.h"

#define STACK_READ_MAX (256 * 1024)

static const char *sys_dir(const struct step_ctx *ctx)
{
	return ctx->env->sys_dir ? ctx->env->sys_dir : "/sys";
}

static const char *proc_dir(const struct step_ctx *ctx)
{
	return ctx->env->proc_dir ? ctx->env->proc_dir : "/proc";
}

/* Appends s to buf (used bytes *n), or "..." once it no longer fits. */
static void add_fn(char *buf, size_t size, size_t *n, bool *cut, const char *s,
		   size_t len)
{
	const char *sep = *n ? " < " : "";
	size_t need = strlen(sep) + len;

	if (*cut)
		return;
	if (*n + need + strlen(" < ...") >= size) {
		snprintf(buf + *n, size - *n, "%s...", sep);
		*n += strlen(buf + *n);
		*cut = true;
		return;
	}
	*n += snprintf(buf + *n, size - *n, "%s%.*s", sep, (int)len, s);
}

int stack_trace_parse(const char *text, uint32_t *ret_frames, char *functions,
		      size_t size)
{
	const char *p = text, *e;
	long want = -1, i = 0;
	size_t n = 0;
	bool cut = false;

	if (size < 8)
		return -EINVAL;
	functions[0] = '\0';
	for (; *p; p = e + (*e == '\n')) {
		const char *loc;
		long idx, depth, bytes;
		int used = 0;

		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		if (want < 0) {
			const char *h = strstr(p, "Location");

			if (h && h < e &&
			    sscanf(h, "Location (%ld entries)", &want) == 1 &&
			    want >= 0 && want <= PROTO_STACK_FRAMES_MAX)
				continue;
			return -EINVAL;
		}
		if (sscanf(p, " %ld) %ld %ld %n", &idx, &depth, &bytes,
			   &used) != 3 ||
		    !used)
			continue; /* the dashes, the "disabled" comment */
		if (idx != i || depth < 0 || bytes < 0 || p + used > e)
			return -EINVAL;
		loc = p + used;
		add_fn(functions, size, &n, &cut, loc, strcspn(loc, "+ \n"));
		i++;
	}
	if (want < 0 || i != want)
		return -EINVAL;
	*ret_frames = (uint32_t)i;
	return 0;
}

/* Writes value to path, as `echo` does; 0 or -errno with err set. */
static int put(const char *path, const char *value, char *err, size_t errlen)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY), r;

	r = fd < 0 ? -errno : fileio_write_all(fd, value, strlen(value));
	if (fd >= 0 && close(fd) < 0 && r == 0 && errno != EINTR)
		r = -errno;
	if (r < 0)
		snprintf(err, errlen, "errno %s from writing '%s'",
			 util_errno_desc(-r), path);
	return r;
}

static int stack_tracer_run(struct step_ctx *ctx, struct json_object *step,
			    struct step_result *res)
{
	const char *action = step_str(step, "action");
	char enabled[PATH_MAX], max[PATH_MAX], trace[PATH_MAX];
	char err[PATH_MAX + 128], *text = NULL, *end;
	struct proto_stack st = { 0 };
	int64_t lo = step_int(step, "min_bytes", 0);
	int64_t hi = step_int(step, "max_bytes", PROTO_STACK_BYTES_MAX);
	unsigned long v;
	int r;

	snprintf(enabled, sizeof(enabled), "%s/sys/kernel/stack_tracer_enabled",
		 proc_dir(ctx));
	snprintf(max, sizeof(max), "%s/kernel/tracing/stack_max_size",
		 sys_dir(ctx));
	snprintf(trace, sizeof(trace), "%s/kernel/tracing/stack_trace",
		 sys_dir(ctx));
	res->verdict = VERDICT_FAIL;
	if (!strcmp(action, "start")) {
		step_expected(res, "the stack tracer cleared and on");
		r = put(max, "0\n", err, sizeof(err));
		if (r == 0)
			r = put(enabled, "1\n", err, sizeof(err));
		if (r < 0) {
			step_got(res, "%s", err);
			return 0;
		}
		res->verdict = VERDICT_PASS;
		res->expected[0] = '\0';
		return 0;
	}
	step_expected(res, "the stack tracer off, and its deepest stack");
	r = put(enabled, "0\n", err, sizeof(err));
	if (r < 0) {
		step_got(res, "%s", err);
		return 0;
	}
	r = fileio_read(max, 64, &text, NULL, NULL);
	if (r < 0) {
		step_got(res, "errno %s from reading '%s'", util_errno_desc(-r),
			 max);
		return 0;
	}
	errno = 0;
	v = strtoul(text, &end, 10);
	if (errno || end == text || (*end && *end != '\n') ||
	    v > PROTO_STACK_BYTES_MAX) {
		step_got(res, "'%s' holds no byte count up to %d", max,
			 PROTO_STACK_BYTES_MAX);
		free(text);
		return 0;
	}
	free(text);
	text = NULL;
	st.max_bytes = (uint32_t)v;
	r = fileio_read(trace, STACK_READ_MAX, &text, NULL, NULL);
	if (r == 0)
		r = stack_trace_parse(text, &st.frames, st.functions,
				      sizeof(st.functions));
	free(text);
	if (r < 0) {
		step_got(res, "%s '%s'",
			 r == -EINVAL ? "a stack_trace not understood in" :
					util_errno_desc(-r),
			 trace);
		return 0;
	}
	if (!st.max_bytes)
		st = (struct proto_stack){ 0 };
	res->stack = st;
	step_got(res, "deepest stack %u bytes, %u frames: %s", st.max_bytes,
		 st.frames, st.functions);
	if (st.max_bytes < lo || st.max_bytes > hi) {
		step_expected(res,
			      "a deepest stack of %" PRId64 " to %" PRId64
			      " bytes",
			      lo, hi);
		return 0;
	}
	res->verdict = VERDICT_PASS;
	res->expected[0] = '\0';
	return 0;
}

const struct step_ops step_stack_tracer = {
	.name = "stack_tracer",
	.run = stack_tracer_run,
};
