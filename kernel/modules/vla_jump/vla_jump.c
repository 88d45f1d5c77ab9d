// SPDX-License-Identifier: GPL-2.0-only
/*
 * vla_jump: a stack VLA whose size comes from a debugfs write, run on a
 * kthread's vmap'd stack, to show what the seed means by "even if the stack
 * has a guard page, VLAs can be used to jump past it" (issue 15).
 *
 * A write of N to <debugfs>/vla_jump/run places a buffer, the victim, in
 * the vmalloc area right below a new kthread's stack, so that the victim's
 * trailing guard page is the page below the stack, and fills it with a
 * canary. The kthread then runs jump_fill(N), which declares u8 buf[N] and
 * writes a 16-byte marker at its start, the lowest address:
 *
 *  - N that fits in the stack: the victim stays intact;
 *  - N that moves the stack pointer into the guard page: the first access
 *    faults with nowhere to push the exception frame, and the kernel
 *    reports "stack guard page was hit" from the double fault, fatal;
 *  - N that moves it below the guard page: the writes land in the victim
 *    with no fault at all. The module prints a "BUG: vla_jump:" report of
 *    what changed there, and <debugfs>/vla_jump/report says it too.
 *
 * vla_jump_probed is this file built with -fstack-clash-protection: GCC
 * then touches every page it moves the stack pointer over, so the jump
 * hits the guard page as well, and only the kthread dies (the probe comes
 * after the move, so the oops runs below the guard page, in the victim;
 * the report says how much it changed there). A fixed-size array cannot
 * express the jump: its size is part of the frame, which
 * -Wframe-larger-than checks.
 *
 * A write returns the count when jump_fill() returned, -EFAULT when its
 * kthread died.
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/numa.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

/* The smallest victim: with its guard page, it ends where the stack begins. */
#define VICTIM_MIN (2 * PAGE_SIZE)
#define VICTIM_CANARY 0x5a
#define JUMP_MAX (4 * THREAD_SIZE)
#define PLACE_TRIES 64
#define DUMP_MAX 128

static const char jump_mark[16] = "vla_jump marker";

struct jump_run {
	size_t bytes;
	unsigned long buf; /* the VLA's lowest address */
	struct completion started;
	bool done; /* jump_fill() returned */
};

struct jump_try {
	void *probe;
	u8 *victim;
	size_t victim_bytes;
	struct task_struct *task;
};

static struct dentry *jump_dir;
static DEFINE_MUTEX(jump_lock);
static char jump_report[256]; /* under jump_lock */

/*
 * The shape the seed warns about: an array sized by its caller's input. As
 * a header would be, only its first bytes are written.
 */
static noinline void jump_fill(struct jump_run *run)
{
	u8 buf[run->bytes];

	run->buf = (unsigned long)buf;
	memcpy(buf, jump_mark, sizeof(jump_mark));
	barrier_data(buf);
}

static int jump_thread(void *data)
{
	struct jump_run *run = data;

	complete(&run->started);
	jump_fill(run);
	run->done = true;
	return 0;
}

/*
 * Creates a kthread, not yet running, and a victim whose vmalloc area (the
 * buffer and its guard page) ends where the kthread's stack begins.
 * vmalloc takes the lowest free range that fits: a one-page probe shows
 * where the lowest hole starts, the victim is sized to end, with its guard
 * page, at the next THREAD_ALIGN boundary above it, and the stack usually
 * comes right there. A try that did not place them so (a hole too small, a
 * cached stack) is kept until the run ends, so that the next try cannot
 * take the same place. Returns the index of the placed try, or -errno.
 */
static int jump_place(struct jump_try *tries, struct jump_run *run)
{
	int i;

	for (i = 0; i < PLACE_TRIES; i++) {
		struct jump_try *t = &tries[i];
		struct task_struct *task;
		unsigned long start, end;

		t->probe = vmalloc(PAGE_SIZE);
		if (!t->probe)
			return -ENOMEM;
		start = (unsigned long)t->probe + 2 * PAGE_SIZE;
		end = ALIGN(start + VICTIM_MIN + PAGE_SIZE, THREAD_ALIGN);
		t->victim_bytes = end - start - PAGE_SIZE;
		t->victim = vmalloc(t->victim_bytes);
		if (!t->victim)
			return -ENOMEM;
		if ((unsigned long)t->victim != start)
			continue;
		task = kthread_create(jump_thread, run, "vla_jump/%d", i);
		if (IS_ERR(task))
			return PTR_ERR(task);
		get_task_struct(task);
		t->task = task;
		if ((unsigned long)task_stack_page(task) == end)
			return i;
	}
	return -EAGAIN;
}

/* Reports what the run changed in the victim, here and in the log. */
static void jump_check(const struct jump_try *t, const struct jump_run *run,
		       unsigned long stack)
{
	unsigned long victim = (unsigned long)t->victim;
	size_t first = t->victim_bytes, last = 0, changed = 0, i;
	const char *mark = "not in the victim";

	for (i = 0; i < t->victim_bytes; i++) {
		if (t->victim[i] == VICTIM_CANARY)
			continue;
		changed++;
		first = min(first, i);
		last = i;
	}
	if (run->buf >= victim && run->buf - victim < t->victim_bytes)
		mark = memcmp((void *)run->buf, jump_mark, sizeof(jump_mark)) ?
			       "overwritten" :
			       "found";
	if (run->done)
		scnprintf(jump_report, sizeof(jump_report),
			  "vla %zu bytes, starts %lu below the stack\nvictim %zu bytes below the guard page: changed %zu\nmarker %s\n",
			  run->bytes, stack - run->buf, t->victim_bytes, changed,
			  mark);
	else
		scnprintf(jump_report, sizeof(jump_report),
			  "vla %zu bytes, its kthread died\nvictim %zu bytes below the guard page: changed %zu\nmarker %s\n",
			  run->bytes, t->victim_bytes, changed, mark);
	/* A thread that died has had its fault reported by the kernel. */
	if (!changed || !run->done)
		return;
	pr_err("BUG: vla_jump: a VLA of %zu bytes jumped the stack guard page and changed %zu bytes of the vmalloc area below it\n",
	       run->bytes, changed);
	pr_err(KBUILD_MODNAME ": the VLA starts %lu bytes below the stack, at offset %lu of the victim (marker %s); changed offsets %zu..%zu of %zu\n",
	       stack - run->buf, run->buf - victim, mark, first, last,
	       t->victim_bytes);
	print_hex_dump(KERN_ERR, KBUILD_MODNAME ": victim: ", DUMP_PREFIX_NONE, 16, 1,
		       t->victim + first, min_t(size_t, last - first + 1, DUMP_MAX),
		       true);
}

static int jump_run_one(size_t bytes)
{
	struct jump_run run = { .bytes = bytes };
	struct jump_try *tries, *t;
	unsigned long stack;
	int i, ret;

	tries = kcalloc(PLACE_TRIES, sizeof(*tries), GFP_KERNEL);
	if (!tries)
		return -ENOMEM;
	init_completion(&run.started);
	ret = jump_place(tries, &run);
	if (ret >= 0) {
		t = &tries[ret];
		memset(t->victim, VICTIM_CANARY, t->victim_bytes);
		pr_info(KBUILD_MODNAME ": a VLA of %zu bytes on a %lu-byte stack, %zu bytes of victim below its guard page (placed in %d tries)\n",
			bytes, (unsigned long)THREAD_SIZE, t->victim_bytes,
			ret + 1);
		stack = (unsigned long)task_stack_page(t->task);
		wake_up_process(t->task);
		/*
		 * Stopped before it ran, it would skip jump_thread; once it
		 * runs, kthread_stop() waits for its end, a return or the
		 * oops of a fault that it survives.
		 */
		wait_for_completion(&run.started);
		kthread_stop(t->task);
		put_task_struct(t->task);
		t->task = NULL;
		jump_check(t, &run, stack);
		ret = run.done ? 0 : -EFAULT;
	}
	for (i = 0; i < PLACE_TRIES; i++) {
		t = &tries[i];
		if (t->task) {
			/* Not yet run: it exits without calling jump_thread. */
			kthread_stop(t->task);
			put_task_struct(t->task);
		}
		vfree(t->victim);
		vfree(t->probe);
	}
	kfree(tries);
	return ret;
}

static ssize_t jump_run_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	unsigned int bytes;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &bytes);
	if (ret)
		return ret;
	if (bytes < sizeof(jump_mark) || bytes > JUMP_MAX)
		return -EINVAL;
	mutex_lock(&jump_lock);
	ret = jump_run_one(bytes);
	mutex_unlock(&jump_lock);
	return ret ? ret : count;
}

static ssize_t jump_report_read(struct file *file, char __user *ubuf,
				size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&jump_lock);
	ret = simple_read_from_buffer(ubuf, count, ppos, jump_report,
				      strlen(jump_report));
	mutex_unlock(&jump_lock);
	return ret;
}

static const struct file_operations jump_run_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = jump_run_write,
	.llseek = default_llseek,
};

static const struct file_operations jump_report_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = jump_report_read,
	.llseek = default_llseek,
};

static int __init vla_jump_init(void)
{
	jump_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("run", 0200, jump_dir, NULL, &jump_run_fops);
	debugfs_create_file("report", 0400, jump_dir, NULL, &jump_report_fops);
	return 0;
}

static void __exit vla_jump_exit(void)
{
	debugfs_remove_recursive(jump_dir);
}

module_init(vla_jump_init);
module_exit(vla_jump_exit);

MODULE_DESCRIPTION("A stack VLA sized from debugfs that jumps the stack guard page");
MODULE_LICENSE("GPL");
