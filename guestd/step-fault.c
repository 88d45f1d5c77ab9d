// SPDX-License-Identifier: GPL-2.0-only
/*
 * fault: the kernel's fault injection (Documentation/fault-injection/),
 * armed for the next step of the scenario. "failslab" and
 * "fail_page_alloc" configure that debugfs attribute, and for the duration
 * of the next step only set its probability and, with task_filter (the
 * default), mark the scenario process with /proc/self/make-it-fail;
 * "fail_nth" writes /proc/thread-self/fail-nth right before the next
 * step; "off" puts both attributes back and can check whether the last
 * armed fault fired.
 *
 * Arming and disarming go through files opened beforehand: a write to an
 * open make-it-fail or fail-nth file allocates nothing, so the disarm
 * cannot itself be failed by the fault it removes. And switching off must
 * not depend on the scenario getting that far: the task marks die with
 * the scenario process, and the runner calls fault_reset() after every
 * scenario that began a fault step, however it ended.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guestd.h"

static const struct step_key fault_keys[] = {
	{ "attr", KEY_STRING, true },
	{ "probability", KEY_INT, false },
	{ "interval", KEY_INT, false },
	{ "times", KEY_INT, false },
	{ "space", KEY_INT, false },
	{ "verbose", KEY_INT, false },
	{ "task_filter", KEY_BOOL, false },
	{ "ignore_gfp_wait", KEY_BOOL, false },
	{ "ignore_gfp_highmem", KEY_BOOL, false },
	{ "min_order", KEY_INT, false },
	{ "nth", KEY_INT, false },
	{ "expect_injected", KEY_BOOL, false },
	{ NULL },
};

/* Which keys go with which attr; the others are refused. */
static const char *const fault_slab_keys[] = {
	"probability", "interval", "times", "space", "verbose", "task_filter",
	"ignore_gfp_wait", NULL
};
static const char *const fault_page_keys[] = {
	"probability", "interval", "times", "space", "verbose", "task_filter",
	"ignore_gfp_wait", "ignore_gfp_highmem", "min_order", NULL
};
static const char *const fault_nth_keys[] = { "nth", NULL };
static const char *const fault_off_keys[] = { "expect_injected", NULL };

/*
 * The kernel's defaults (FAULT_ATTR_INITIALIZER, mm/failslab.c,
 * mm/page_alloc.c), which fault_reset() writes back: probability first,
 * so that nothing fails while the rest changes.
 */
static const struct fault_write fault_slab_defaults[] = {
	{ "probability", 0 }, { "interval", 1 }, { "times", 1 },
	{ "space", 0 }, { "verbose", 2 }, { "ignore-gfp-wait", 1 },
	{ "task-filter", 0 },
};
static const struct fault_write fault_page_defaults[] = {
	{ "probability", 0 }, { "interval", 1 }, { "times", 1 },
	{ "space", 0 }, { "verbose", 2 }, { "ignore-gfp-wait", 1 },
	{ "ignore-gfp-highmem", 1 }, { "min-order", 1 }, { "task-filter", 0 },
};

static bool fault_key_in(const char *const *list, const char *key)
{
	for (; *list; list++)
		if (strcmp(*list, key) == 0)
			return true;
	return false;
}

/* Append @key's value (or @def) as @file, refusing it outside min..max. */
static int fault_add_int(struct fault_plan *p, struct json_object *step,
			 const char *key, const char *file, int64_t def,
			 int64_t min, int64_t max, char *err, size_t errlen)
{
	int64_t v = step_int(step, key, def);

	if (v < min || v > max) {
		snprintf(err, errlen, "'%s' must be %lld..%lld, not %lld", key,
			 (long long)min, (long long)max, (long long)v);
		return -EINVAL;
	}
	p->w[p->n++] = (struct fault_write){ file, v };
	return 0;
}

static void fault_add_bool(struct fault_plan *p, struct json_object *step,
			   const char *key, const char *file, bool def)
{
	p->w[p->n++] = (struct fault_write){ file, step_bool(step, key, def) };
}

int fault_plan(struct json_object *step, struct fault_plan *ret, char *err,
	       size_t errlen)
{
	const char *attr = step_str(step, "attr");
	const char *const *allowed;
	struct fault_plan p = { .expect_injected = -1 };
	bool page;

	if (!attr)
		attr = "";
	if (strcmp(attr, "failslab") == 0) {
		allowed = fault_slab_keys;
	} else if (strcmp(attr, "fail_page_alloc") == 0) {
		allowed = fault_page_keys;
	} else if (strcmp(attr, "fail_nth") == 0) {
		allowed = fault_nth_keys;
	} else if (strcmp(attr, "off") == 0) {
		allowed = fault_off_keys;
	} else {
		snprintf(err, errlen, "unknown attr '%.64s' (want failslab, "
			 "fail_page_alloc, fail_nth or off)", attr);
		return -EINVAL;
	}
	json_object_object_foreach(step, key, val) {
		(void)val;
		if (strcmp(key, "kind") == 0 || strcmp(key, "name") == 0 ||
		    strcmp(key, "timeout_ms") == 0 || strcmp(key, "attr") == 0)
			continue;
		if (!fault_key_in(allowed, key)) {
			snprintf(err, errlen, "key '%.64s' does not go with "
				 "attr '%s'", key, attr);
			return -EINVAL;
		}
	}
	snprintf(p.attr, sizeof(p.attr), "%s", attr);

	if (strcmp(attr, "off") == 0) {
		struct json_object *e;

		if (json_object_object_get_ex(step, "expect_injected", &e))
			p.expect_injected = json_object_get_boolean(e);
		*ret = p;
		return 0;
	}
	if (strcmp(attr, "fail_nth") == 0) {
		int64_t nth = step_int(step, "nth", 0);

		if (nth < 1 || nth > 1000000) {
			snprintf(err, errlen, "attr 'fail_nth' needs 'nth' "
				 "1..1000000");
			return -EINVAL;
		}
		p.nth = (unsigned int)nth;
		/*
		 * fail-nth counts the calls that reach should_fail(); failslab
		 * skips sleeping allocations before that unless told not to.
		 */
		p.dir = "failslab";
		p.w[p.n++] = (struct fault_write){ "ignore-gfp-wait", 0 };
		*ret = p;
		return 0;
	}

	page = strcmp(attr, "fail_page_alloc") == 0;
	p.dir = attr;
	p.task = step_bool(step, "task_filter", true);
	/* Disable first, configure, enable last. */
	p.w[p.n++] = (struct fault_write){ "probability", 0 };
	if (fault_add_int(&p, step, "interval", "interval", 1, 1, 1000000,
			  err, errlen) < 0 ||
	    fault_add_int(&p, step, "times", "times", 1, 1, 1000000, err,
			  errlen) < 0 ||
	    fault_add_int(&p, step, "space", "space", 0, 0, 1LL << 32, err,
			  errlen) < 0 ||
	    fault_add_int(&p, step, "verbose", "verbose", 2, 0, 2, err,
			  errlen) < 0)
		return -EINVAL;
	p.times = p.w[2].value;
	fault_add_bool(&p, step, "ignore_gfp_wait", "ignore-gfp-wait", false);
	if (page) {
		fault_add_bool(&p, step, "ignore_gfp_highmem",
			       "ignore-gfp-highmem", false);
		if (fault_add_int(&p, step, "min_order", "min-order", 0, 0, 10,
				  err, errlen) < 0)
			return -EINVAL;
	}
	p.w[p.n++] = (struct fault_write){ "task-filter", p.task };
	if (fault_add_int(&p, step, "probability", "probability", 100, 0, 100,
			  err, errlen) < 0)
		return -EINVAL;
	*ret = p;
	return 0;
}

static const char *fault_debugfs(const struct step_env *env)
{
	return env && env->debugfs_dir ? env->debugfs_dir : "/sys/kernel/debug";
}

static const char *fault_proc(const struct step_env *env)
{
	return env && env->proc_dir ? env->proc_dir : "/proc";
}

/*
 * Write "@value\n" at offset 0 of an open file, which may be written more
 * than once. /proc's files take pwrite(); debugfs's attribute files are
 * not seekable (ESPIPE) and ignore the offset, so write() does. Returns 0
 * or -errno.
 */
static int fault_fd_put(int fd, long long value)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%lld\n", value);
	ssize_t w;

	do
		w = pwrite(fd, buf, (size_t)n, 0);
	while (w < 0 && errno == EINTR);
	if (w < 0 && errno == ESPIPE)
		do
			w = write(fd, buf, (size_t)n);
		while (w < 0 && errno == EINTR);
	if (w < 0)
		return -errno;
	return w == n ? 0 : -EIO;
}

/* Read a number from offset 0 (pread, or read() where not seekable). */
static int fault_fd_get(int fd, long long *ret)
{
	char buf[32], *end;
	ssize_t n;

	do
		n = pread(fd, buf, sizeof(buf) - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == ESPIPE)
		do
			n = read(fd, buf, sizeof(buf) - 1);
		while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	errno = 0;
	*ret = strtoll(buf, &end, 10);
	return errno || end == buf ? -EBADMSG : 0;
}

static int fault_open(const char *path, int flags, char *what, size_t whatlen)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd < 0) {
		snprintf(what, whatlen, "opening '%s'", path);
		return -errno;
	}
	return fd;
}

/* Write each of @w into @dir, in order. */
static int fault_writes(const char *dir, const struct fault_write *w,
			size_t n, char *what, size_t whatlen)
{
	char path[512];
	int fd, r;

	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, w[i].file);
		fd = fault_open(path, O_WRONLY, what, whatlen);
		if (fd < 0)
			return fd;
		r = fault_fd_put(fd, w[i].value);
		close(fd);
		if (r < 0) {
			snprintf(what, whatlen, "writing %lld to '%s'",
				 w[i].value, path);
			return r;
		}
	}
	return 0;
}

/* Back to the kernel's defaults; an attribute the kernel lacks is fine. */
static int fault_reset_attr(const struct step_env *env, const char *attr,
			    char *what, size_t whatlen)
{
	bool page = strcmp(attr, "fail_page_alloc") == 0;
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/%s", fault_debugfs(env), attr);
	if (access(dir, F_OK) < 0)
		return 0;
	if (page)
		return fault_writes(dir, fault_page_defaults,
				    ARRAY_SIZE(fault_page_defaults), what,
				    whatlen);
	return fault_writes(dir, fault_slab_defaults,
			    ARRAY_SIZE(fault_slab_defaults), what, whatlen);
}

int fault_reset(const struct step_env *env, char *what, size_t whatlen)
{
	int r = fault_reset_attr(env, "failslab", what, whatlen);

	if (r < 0)
		return r;
	return fault_reset_attr(env, "fail_page_alloc", what, whatlen);
}

static void fault_close(struct fault_state *f)
{
	if (f->proc_fd >= 0)
		close(f->proc_fd);
	if (f->times_fd >= 0)
		close(f->times_fd);
	if (f->prob_fd >= 0)
		close(f->prob_fd);
	f->proc_fd = f->times_fd = f->prob_fd = -1;
	f->attr[0] = '\0';
}

/*
 * Disarm what is armed and record whether it fired: stop the attribute,
 * read the count, clear the task's mark, then reset the attribute's other
 * files with ordinary opens (nothing can fail them any more).
 */
static int fault_disarm(struct step_ctx *ctx, char *what, size_t whatlen)
{
	struct fault_state *f = &ctx->fault;
	long long v;
	int r = 0, r2;

	if (!f->attr[0])
		return 0;
	if (f->prob_fd >= 0 && (r = fault_fd_put(f->prob_fd, 0)) < 0)
		snprintf(what, whatlen, "writing 0 to %s/probability", f->dir);
	if (f->nth)
		/* 0 once injected; the count left otherwise. */
		f->outcome = fault_fd_get(f->proc_fd, &v) == 0 && v == 0 ?
				     FAULT_FIRED : FAULT_MISSED;
	else
		/* times goes down by one per injected failure. */
		f->outcome = fault_fd_get(f->times_fd, &v) == 0 &&
					     v < f->times ?
				     FAULT_FIRED : FAULT_MISSED;
	if ((f->nth || f->task) && (r2 = fault_fd_put(f->proc_fd, 0)) < 0 &&
	    r == 0) {
		r = r2;
		snprintf(what, whatlen, "writing 0 to %s", f->nth ?
			 "/proc/thread-self/fail-nth" : "/proc/self/make-it-fail");
	}
	if (r == 0)
		r = fault_reset_attr(ctx->env, f->dir, what, whatlen);
	fault_close(f);
	return r;
}

int fault_before_step(struct step_ctx *ctx, struct step_result *res)
{
	struct fault_state *f = &ctx->fault;
	char what[600];
	int r;

	if (!f->attr[0] || f->arm_step != ctx->step)
		return 0;
	if (f->nth || f->task) {
		r = fault_fd_put(f->proc_fd, f->nth ? f->nth : 1);
		if (r < 0) {
			step_error(res, "arming the fault for this step: "
				   "writing %s: %s", f->nth ?
				   "/proc/thread-self/fail-nth" :
				   "/proc/self/make-it-fail",
				   util_errno_desc(-r));
			fault_disarm(ctx, what, sizeof(what));
			return r;
		}
	}
	if (f->nth)
		return 0;
	/* The attribute goes live last, once the task is marked. */
	r = fault_fd_put(f->prob_fd, f->probability);
	if (r < 0) {
		step_error(res, "arming the fault for this step: writing "
			   "%s/probability: %s", f->dir, util_errno_desc(-r));
		fault_disarm(ctx, what, sizeof(what));
	}
	return r;
}

void fault_after_step(struct step_ctx *ctx, struct step_result *res)
{
	struct fault_state *f = &ctx->fault;
	char what[600];
	int r;

	if (!f->attr[0] || f->arm_step != ctx->step)
		return;
	r = fault_disarm(ctx, what, sizeof(what));
	if (r < 0 && res->verdict == VERDICT_PASS)
		step_error(res, "disarming the fault after this step: %s: %s",
			   what, util_errno_desc(-r));
}

/* Open what the disarm will need, then configure the attribute. */
static int fault_arm(struct step_ctx *ctx, const struct fault_plan *p,
		     char *what, size_t whatlen)
{
	struct fault_state *f = &ctx->fault;
	char dir[256], path[512];
	int r;

	f->proc_fd = f->times_fd = f->prob_fd = -1;
	snprintf(f->attr, sizeof(f->attr), "%s", p->attr);
	snprintf(f->dir, sizeof(f->dir), "%s", p->dir);
	f->arm_step = ctx->step + 1;
	f->task = p->task;
	f->nth = p->nth;
	f->times = p->times;
	snprintf(dir, sizeof(dir), "%s/%s", fault_debugfs(ctx->env), p->dir);

	if (p->nth || p->task) {
		snprintf(path, sizeof(path), "%s/%s", fault_proc(ctx->env),
			 p->nth ? "thread-self/fail-nth" : "self/make-it-fail");
		r = fault_open(path, O_RDWR, what, whatlen);
		if (r < 0)
			goto fail;
		f->proc_fd = r;
	}
	if (!p->nth) {
		snprintf(path, sizeof(path), "%s/times", dir);
		r = fault_open(path, O_RDONLY, what, whatlen);
		if (r < 0)
			goto fail;
		f->times_fd = r;
		snprintf(path, sizeof(path), "%s/probability", dir);
		r = fault_open(path, O_WRONLY, what, whatlen);
		if (r < 0)
			goto fail;
		f->prob_fd = r;
	}
	/* All but the final probability, which fault_before_step() writes. */
	f->probability = p->nth ? 0 : p->w[p->n - 1].value;
	r = fault_writes(dir, p->w, p->nth ? p->n : p->n - 1, what, whatlen);
	if (r < 0)
		goto fail;
	return 0;

fail:
	fault_reset_attr(ctx->env, p->dir, path, sizeof(path));
	fault_close(f);
	return r;
}

static int fault_run(struct step_ctx *ctx, struct json_object *step,
		     struct step_result *res)
{
	struct fault_state *f = &ctx->fault;
	char err[256], what[600];
	struct fault_plan p;
	bool fired;
	int r;

	if (fault_plan(step, &p, err, sizeof(err)) < 0) {
		step_error(res, "%s", err);
		return 0;
	}
	/* A fault still armed (nothing ran after it) is replaced. */
	r = fault_disarm(ctx, what, sizeof(what));
	if (r < 0)
		goto fail;

	if (strcmp(p.attr, "off") == 0) {
		r = fault_reset(ctx->env, what, sizeof(what));
		if (r < 0)
			goto fail;
		res->verdict = VERDICT_PASS;
		fired = f->outcome == FAULT_FIRED;
		if (p.expect_injected < 0 ||
		    (f->outcome != FAULT_NONE && fired == p.expect_injected))
			return 0;
		res->verdict = VERDICT_FAIL;
		step_expected(res, "the last armed fault %s",
			      p.expect_injected ? "to have been injected" :
						  "not to have fired");
		step_got(res, "%s", f->outcome == FAULT_NONE ?
			 "no fault was armed in this scenario" :
			 fired ? "it was injected" : "it never fired");
		return 0;
	}

	f->outcome = FAULT_NONE;
	r = fault_arm(ctx, &p, what, sizeof(what));
	if (r < 0)
		goto fail;
	res->verdict = VERDICT_PASS;
	return 0;

fail:
	step_error(res, "%s: %s", what, util_errno_desc(-r));
	return 0;
}

const struct step_ops step_fault = {
	.name = "fault",
	.keys = fault_keys,
	.run = fault_run,
};
