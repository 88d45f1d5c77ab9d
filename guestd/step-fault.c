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
 * the scenario process, and fault_reset() is the kind's reset hook, which
 * the runner calls once a child that began a fault step is gone, however
 * it ended.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guestd.h"

/*
 * The kernel's defaults (FAULT_ATTR_INITIALIZER, mm/failslab.c,
 * mm/page_alloc.c), which fault_reset() writes back: probability first,
 * so that nothing fails while the rest changes.
 */
/* clang-format off */
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
/* clang-format on */

static bool fault_key_in(const char *const *list, const char *key)
{
	for (; *list; list++)
		if (strcmp(*list, key) == 0)
			return true;
	return false;
}

/* The bounds of fault's integer @key, as its spec has them. */
static void fault_bounds(const char *key, int64_t *min, int64_t *max)
{
	const struct stepspec_key *k =
		stepspec_key_find(stepspec_find("fault")->keys, key);

	*min = k->min;
	*max = k->max;
}

/* Append @key's value (or @def) as @file, refusing it outside its bounds. */
static int fault_add_int(struct fault_plan *p, struct json_object *step,
			 const char *key, const char *file, int64_t def,
			 char *err, size_t errlen)
{
	int64_t v = step_int(step, key, def), min, max;

	fault_bounds(key, &min, &max);
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

/* A kernel symbol as stack traces print it: "br_vlan_add", "f.isra.0". */
static bool fault_symbol_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= FAULT_AT_MAX)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.')
			return false;
	return true;
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
	allowed = stepspec_fault_keys(attr);
	if (!allowed) {
		snprintf(err, errlen,
			 "unknown attr '%.64s' (want failslab, "
			 "fail_page_alloc, fail_nth or off)",
			 attr);
		return -EINVAL;
	}
	json_object_object_foreach(step, key, val) {
		(void)val;
		if (strcmp(key, "kind") == 0 || strcmp(key, "name") == 0 ||
		    strcmp(key, "timeout_ms") == 0 || strcmp(key, "attr") == 0)
			continue;
		if (!fault_key_in(allowed, key)) {
			snprintf(err, errlen,
				 "key '%.64s' does not go with "
				 "attr '%s'",
				 key, attr);
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
		const char *at = step_str(step, "at");
		int64_t nth = step_int(step, "nth", 0), min, max;
		int64_t tries =
			step_int(step, "max_tries", PROTO_FAULT_TRIES_DEFAULT);

		if (at && json_object_object_get_ex(step, "nth", NULL)) {
			snprintf(err, errlen,
				 "attr 'fail_nth' takes 'nth' or "
				 "'at', not both");
			return -EINVAL;
		}
		if (!at && json_object_object_get_ex(step, "max_tries", NULL)) {
			snprintf(err, errlen, "'max_tries' goes with 'at'");
			return -EINVAL;
		}
		fault_bounds("nth", &min, &max);
		if (at) {
			if (!fault_symbol_ok(at)) {
				snprintf(
					err, errlen,
					"'at' must be a function "
					"name ([A-Za-z0-9_.], 1..%d bytes), not "
					"'%.64s'",
					FAULT_AT_MAX - 1, at);
				return -EINVAL;
			}
			if (tries < 1 || tries > PROTO_FAULT_TRIES_MAX) {
				snprintf(err, errlen,
					 "'max_tries' must be "
					 "1..%d",
					 PROTO_FAULT_TRIES_MAX);
				return -EINVAL;
			}
			snprintf(p.at, sizeof(p.at), "%s", at);
			p.max_tries = (unsigned int)tries;
		} else if (nth < min || nth > max) {
			snprintf(err, errlen,
				 "attr 'fail_nth' needs 'nth' "
				 "%lld..%lld or 'at'",
				 (long long)min, (long long)max);
			return -EINVAL;
		} else {
			p.nth = (unsigned int)nth;
		}
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
	if (fault_add_int(&p, step, "interval", "interval", 1, err, errlen) <
		    0 ||
	    fault_add_int(&p, step, "times", "times", 1, err, errlen) < 0 ||
	    fault_add_int(&p, step, "space", "space", 0, err, errlen) < 0 ||
	    fault_add_int(&p, step, "verbose", "verbose", 2, err, errlen) < 0)
		return -EINVAL;
	p.times = p.w[2].value;
	fault_add_bool(&p, step, "ignore_gfp_wait", "ignore-gfp-wait", false);
	if (page) {
		fault_add_bool(&p, step, "ignore_gfp_highmem",
			       "ignore-gfp-highmem", false);
		if (fault_add_int(&p, step, "min_order", "min-order", 0, err,
				  errlen) < 0)
			return -EINVAL;
	}
	p.w[p.n++] = (struct fault_write){ "task-filter", p.task };
	if (fault_add_int(&p, step, "probability", "probability", 100, err,
			  errlen) < 0)
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
static int fault_writes(const char *dir, const struct fault_write *w, size_t n,
			char *what, size_t whatlen)
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

/*
 * fail-nth counts every call into fault injection, page allocations that
 * fail_page_alloc's filters let through included: SLUB's first try at a
 * higher-order slab page (__GFP_NOWARN, no reclaim) is one, and it comes
 * only when a slab needs a new page, so the count moves with the slabs'
 * state; its failure is silent and absorbed by the fallback to the
 * minimum order. A min-order no order reaches takes page allocations out
 * of the count, so fail-nth counts slab allocations only. Returns 0 or
 * -errno; a kernel without fail_page_alloc is fine.
 */
static int fault_pages_uncounted(const struct step_env *env, char *what,
				 size_t whatlen)
{
	static const struct fault_write w = { "min-order", 4294967295LL };
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/fail_page_alloc", fault_debugfs(env));
	if (access(dir, F_OK) < 0)
		return 0;
	return fault_writes(dir, &w, 1, what, whatlen);
}

/*
 * A fault armed for a step fails the task's calls, guestd's own included:
 * a heap that grows (brk: a new VMA) or a stack that grows (a new maple
 * node) in the middle of the step is such a call, and glibc absorbs a
 * failed brk by falling back to mmap, so the step then goes on and does
 * its work with the fault spent elsewhere. Whether those calls happen
 * depends on the heap's state, so they also move any count. So before
 * arming, give the heap room that stays (a top chunk of FAULT_HEAP_ROOM
 * that free() does not give back, its pages touched) and grow the stack
 * by FAULT_STACK_ROOM: the step's own small allocations then reach the
 * kernel no more.
 */
#define FAULT_HEAP_ROOM (4 << 20)
#define FAULT_STACK_ROOM (256 << 10)

static __attribute__((noinline)) void fault_grow_stack(void)
{
	volatile char room[FAULT_STACK_ROOM];

	for (size_t i = 0; i < sizeof(room); i += 4096)
		room[i] = 0;
}

static void fault_make_room(void)
{
	static bool tuned;
	char *p;

	if (!tuned) {
		/* Serve big blocks from the heap; never trim it back. */
		mallopt(M_MMAP_THRESHOLD, 2 * FAULT_HEAP_ROOM);
		mallopt(M_TRIM_THRESHOLD, 16 * FAULT_HEAP_ROOM);
		tuned = true;
	}
	p = malloc(FAULT_HEAP_ROOM);
	if (p) {
		memset(p, 0, FAULT_HEAP_ROOM);
		free(p);
	}
	fault_grow_stack();
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
	f->at[0] = '\0';
}

/*
 * Disarm what is armed and record whether it fired: stop the attribute,
 * read the count, clear the task's mark, then reset the attribute's other
 * files with ordinary opens (nothing can fail them any more).
 */
static int fault_disarm(struct step_ctx *ctx, char *what, size_t whatlen)
{
	struct fault_state *f = &ctx->fault;
	bool nth = f->nth || f->at[0];
	long long v;
	int r = 0, r2;

	if (!f->attr[0])
		return 0;
	if (f->prob_fd >= 0 && (r = fault_fd_put(f->prob_fd, 0)) < 0)
		snprintf(what, whatlen, "writing 0 to %s/probability", f->dir);
	if (nth)
		/* 0 once injected; the count left otherwise. */
		f->outcome = fault_fd_get(f->proc_fd, &v) == 0 && v == 0 ?
				     FAULT_FIRED :
				     FAULT_MISSED;
	else
		/* times goes down by one per injected failure. */
		f->outcome = fault_fd_get(f->times_fd, &v) == 0 &&
					     v < f->times ?
				     FAULT_FIRED :
				     FAULT_MISSED;
	if ((nth || f->task) && (r2 = fault_fd_put(f->proc_fd, 0)) < 0 &&
	    r == 0) {
		r = r2;
		snprintf(what, whatlen, "writing 0 to %s",
			 nth ? "/proc/thread-self/fail-nth" :
			       "/proc/self/make-it-fail");
	}
	if (r == 0)
		/* fail_nth changed both attributes. */
		r = nth ? fault_reset(ctx->env, what, whatlen) :
			  fault_reset_attr(ctx->env, f->dir, what, whatlen);
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
	fault_make_room();
	if (f->nth || f->task) {
		r = fault_fd_put(f->proc_fd, f->nth ? f->nth : 1);
		if (r < 0) {
			step_error(res,
				   "arming the fault for this step: "
				   "writing %s: %s",
				   f->nth ? "/proc/thread-self/fail-nth" :
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
		step_error(res,
			   "arming the fault for this step: writing "
			   "%s/probability: %s",
			   f->dir, util_errno_desc(-r));
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

/*
 * The allocator's and fault injection's own frames, by prefix: a stack's
 * first frame that is none of these is the call the fault hit.
 */
static const char *const fault_alloc_prefixes[] = { "dump_stack",
						    "fail_dump",
						    "should_fail",
						    "__should_fail",
						    "slab_pre_alloc_hook",
						    "kmem_cache_alloc",
						    "__kmem_cache_alloc",
						    "kmalloc",
						    "__kmalloc",
						    "kvmalloc",
						    "__kvmalloc",
						    "kmemdup",
						    "kstrdup",
						    "kstrndup",
						    "krealloc",
						    "__do_kmalloc",
						    "slab_alloc",
						    "__slab_alloc",
						    "___slab_alloc",
						    "new_slab",
						    "allocate_slab",
						    "alloc_slab_page",
						    "alloc_pages",
						    "__alloc_pages",
						    "prepare_alloc_pages",
						    "__get_free_pages",
						    "get_zeroed_page",
						    "folio_alloc",
						    "__folio_alloc",
						    "vma_alloc_folio",
						    "__alloc_skb",
						    "alloc_skb",
						    "__netdev_alloc_skb",
						    "kmalloc_reserve",
						    "__vmalloc",
						    "vmalloc",
						    "vzalloc",
						    NULL };

bool fault_frame_is_allocator(const char *fn)
{
	for (size_t i = 0; fault_alloc_prefixes[i]; i++)
		if (strncmp(fn, fault_alloc_prefixes[i],
			    strlen(fault_alloc_prefixes[i])) == 0)
			return true;
	return false;
}

int fault_frame_parse(const char *line, struct fault_frame *ret)
{
	struct fault_frame fr = { .reliable = true };
	size_t n = 0;

	while (*line == ' ' || *line == '\t')
		line++;
	if (line[0] == '?' && line[1] == ' ') {
		fr.reliable = false;
		line += 2;
	}
	while (isalnum((unsigned char)line[n]) || line[n] == '_' ||
	       line[n] == '.')
		n++;
	if (n == 0 || n >= sizeof(fr.fn) || strncmp(line + n, "+0x", 3))
		return -EINVAL;
	memcpy(fr.fn, line, n);
	fr.fn[n] = '\0';
	*ret = fr;
	return 0;
}

/* What the kernel log says of one injected failure. */
struct fault_hit {
	bool reported; /* a "FAULT_INJECTION:" report was logged */
	bool has_target; /* its stack holds the target, reliably */
	char first[FAULT_AT_MAX]; /* its first non-allocator frame */
	char trace[768]; /* its frames up to the target, "a < b" */
};

#define FAULT_REPORT_LINES 128

/*
 * Read the first fault injection report logged since @since: the banner,
 * then dump_stack()'s lines up to "</TASK>". Only reliable frames count;
 * a "? fn" frame is a guess of the unwinder.
 */
static void fault_scan(const struct kmsg_log *log, uint64_t since,
		       const char *target, struct fault_hit *h)
{
	static const char banner[] = "FAULT_INJECTION: forcing a failure";
	const struct kmsg_entry *e;
	struct fault_frame fr;
	unsigned int lines = 0;
	size_t len = 0;

	memset(h, 0, sizeof(*h));
	while ((e = kmsg_log_next(log, &since))) {
		const char *m = e->msg + strspn(e->msg, " \t");

		if (strncmp(m, banner, sizeof(banner) - 1) == 0) {
			if (h->reported)
				break;
			h->reported = true;
			continue;
		}
		if (!h->reported)
			continue;
		if (++lines > FAULT_REPORT_LINES || strcmp(m, "</TASK>") == 0)
			break;
		if (fault_frame_parse(m, &fr) < 0 || !fr.reliable)
			continue;
		if (!h->first[0] && !fault_frame_is_allocator(fr.fn))
			snprintf(h->first, sizeof(h->first), "%s", fr.fn);
		if (!h->has_target && h->first[0] && len < sizeof(h->trace)) {
			int w = snprintf(h->trace + len, sizeof(h->trace) - len,
					 "%s%s", len ? " < " : "", fr.fn);

			len += w > 0 ? (size_t)w : 0;
		}
		if (strcmp(fr.fn, target) == 0)
			h->has_target = true;
	}
}

/* Append "; @fmt" to @buf, which may be empty. */
__attribute__((format(printf, 3, 4))) static void
fault_append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strnlen(buf, size);
	char more[PROTO_TEXT_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(more, sizeof(more), fmt, ap);
	va_end(ap);
	if (len + 1 < size)
		util_fmt(buf + len, size - len, "%s%s", len ? "; " : "", more);
}

/*
 * The search of a fail_nth fault aimed "at" a function: run the step with
 * fail-nth 1, 2, 3, ... and read the stack each injected failure logs,
 * until one holds the target. A try that failed another call is the
 * step's own error path at work (the kernel rolls back what it did), so
 * the next try starts from the same state. The step's result is the
 * result of the try that hit the target.
 */
static void fault_search(struct step_ctx *ctx, const struct step_ops *ops,
			 struct json_object *step, struct step_result *res)
{
	struct fault_state *f = &ctx->fault;
	char hits[PROTO_TEXT_MAX / 2] = "", what[600];
	struct fault_hit h;
	unsigned int n;
	long long left;
	int r, r2;

	f->outcome = FAULT_MISSED;
	if (!ctx->kmsg) {
		step_error(res,
			   "the fault search for '%s' reads each injected "
			   "failure's stack from /dev/kmsg, which guestd could "
			   "not open",
			   f->at);
		goto out;
	}
	for (n = 1; n <= f->max_tries; n++) {
		uint64_t mark;

		memset(res, 0, sizeof(*res));
		res->verdict = VERDICT_ERROR;
		kmsg_log_drain(ctx->kmsg);
		mark = kmsg_log_mark(ctx->kmsg);
		fault_make_room();
		r = fault_fd_put(f->proc_fd, n);
		if (r < 0) {
			step_error(res,
				   "arming try %u of the fault search: "
				   "writing /proc/thread-self/fail-nth: %s",
				   n, util_errno_desc(-r));
			goto out;
		}
		r = ops->run(ctx, step, res);
		if (r < 0)
			step_error(res, "guestd could not run the step: %s",
				   util_errno_desc(-r));
		/* 0 once the nth call failed; what is left of n otherwise. */
		r2 = fault_fd_get(f->proc_fd, &left);
		if (r2 == 0)
			r2 = fault_fd_put(f->proc_fd, 0);
		if (r2 < 0) {
			step_error(res,
				   "disarming try %u of the fault search: "
				   "/proc/thread-self/fail-nth: %s",
				   n, util_errno_desc(-r2));
			goto out;
		}
		if (left != 0) {
			res->verdict = VERDICT_FAIL;
			res->reason[0] = '\0';
			step_expected(res,
				      "a fault-injectable call with '%s' "
				      "on its stack",
				      f->at);
			step_got(res, "the step made only %u such call%s%s%s",
				 n - 1, n == 2 ? "" : "s", hits[0] ? ": " : "",
				 hits);
			goto out;
		}
		kmsg_log_drain(ctx->kmsg);
		fault_scan(ctx->kmsg, mark, f->at, &h);
		if (h.has_target) {
			f->outcome = FAULT_FIRED;
			if (res->verdict == VERDICT_PASS && !res->got[0])
				util_fmt(res->got, sizeof(res->got),
					 "the fault hit '%s' at call %u: %s",
					 f->at, n, h.trace);
			else
				fault_append(res->verdict == VERDICT_ERROR ?
						     res->reason :
						     res->got,
					     sizeof(res->got),
					     "the fault hit "
					     "'%s' at call %u: %s",
					     f->at, n, h.trace);
			goto out;
		}
		/* __GFP_NOWARN calls fail without a report (FAULT_NOWARN). */
		fault_append(hits, sizeof(hits), "%u %s", n,
			     h.first[0] ? h.first :
			     h.reported ? "(no frame outside the "
					  "allocator)" :
					  "(no report: __GFP_NOWARN?)");
	}
	res->verdict = VERDICT_FAIL;
	res->reason[0] = '\0';
	step_expected(res,
		      "a call with '%s' on its stack among the step's "
		      "first %u fault-injectable calls",
		      f->at, f->max_tries);
	step_got(res, "none: %s", hits);
out:
	r = fault_reset(ctx->env, what, sizeof(what));
	if (r < 0 && res->verdict == VERDICT_PASS)
		step_error(res, "disarming the fault after this step: %s: %s",
			   what, util_errno_desc(-r));
	fault_close(f);
}

void fault_run_step(struct step_ctx *ctx, const struct step_ops *ops,
		    struct json_object *step, struct step_result *res)
{
	struct fault_state *f = &ctx->fault;
	int r;

	if (f->attr[0] && f->arm_step == ctx->step && f->at[0]) {
		fault_search(ctx, ops, step, res);
		return;
	}
	if (fault_before_step(ctx, res) == 0) {
		r = ops->run(ctx, step, res);
		if (r < 0)
			step_error(res, "guestd could not run the step: %s",
				   util_errno_desc(-r));
	}
	fault_after_step(ctx, res);
}

/* Open what the disarm will need, then configure the attribute. */
static int fault_arm(struct step_ctx *ctx, const struct fault_plan *p,
		     char *what, size_t whatlen)
{
	struct fault_state *f = &ctx->fault;
	bool nth = p->nth || p->at[0];
	char dir[256], path[512];
	int r;

	f->proc_fd = f->times_fd = f->prob_fd = -1;
	snprintf(f->attr, sizeof(f->attr), "%s", p->attr);
	snprintf(f->dir, sizeof(f->dir), "%s", p->dir);
	f->arm_step = ctx->step + 1;
	f->task = p->task;
	f->nth = p->nth;
	snprintf(f->at, sizeof(f->at), "%s", p->at);
	f->max_tries = p->max_tries;
	f->times = p->times;
	snprintf(dir, sizeof(dir), "%s/%s", fault_debugfs(ctx->env), p->dir);

	if (nth || p->task) {
		snprintf(path, sizeof(path), "%s/%s", fault_proc(ctx->env),
			 nth ? "thread-self/fail-nth" : "self/make-it-fail");
		r = fault_open(path, O_RDWR, what, whatlen);
		if (r < 0)
			goto fail;
		f->proc_fd = r;
	}
	if (!nth) {
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
	f->probability = nth ? 0 : p->w[p->n - 1].value;
	r = fault_writes(dir, p->w, nth ? p->n : p->n - 1, what, whatlen);
	if (r == 0 && nth)
		r = fault_pages_uncounted(ctx->env, what, whatlen);
	if (r < 0)
		goto fail;
	return 0;

fail:
	if (nth)
		fault_reset(ctx->env, path, sizeof(path));
	else
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
		step_got(res, "%s",
			 f->outcome == FAULT_NONE ?
				 "no fault was armed in this scenario" :
			 fired ? "it was injected" :
				 "it never fired");
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
	.run = fault_run,
	.reset = fault_reset,
};
