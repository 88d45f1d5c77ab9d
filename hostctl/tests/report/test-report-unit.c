// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the console classifier on synthetic logs: junk bytes (CR,
 * ANSI escapes, NUL), half lines, cut-off and interleaved reports, follow-on
 * panics and lockup repeats, offsets and timestamps. A few checks read the
 * real corpus (argv[1]) for what the .expected format does not hold (fatal,
 * offsets). And the console tail a reason quotes (report_console_tail()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/report.h"
#include "tap.h"

#define WARN_LOG                                                                                   \
	"[    0.967476] ------------[ cut here ]------------\n"                                    \
	"[    0.967583] WARNING: CPU: 0 PID: 35 at net/bridge/br_vlan.c:85 br_vlan_add+0xf/0x20\n" \
	"[    0.967916] Modules linked in:\n"                                                      \
	"[    0.968085] CPU: 0 PID: 35 Comm: sh Not tainted 6.1.192 #1\n"                          \
	"[    0.968458] RIP: 0010:br_vlan_add+0xf/0x20\n"                                          \
	"[    0.970404] Call Trace:\n"                                                             \
	"[    0.971156]  <TASK>\n"                                                                 \
	"[    0.971301]  br_vlan_add_cmd.isra.0+0x18/0x24\n"                                       \
	"[    0.971873]  entry_SYSCALL_64_after_hwframe+0x4b/0xb5\n"                               \
	"[    0.973854]  </TASK>\n"                                                                \
	"[    0.973985] ---[ end trace 0000000000000000 ]---\n"

static ssize_t parse(const char *log, size_t len, struct report **reps)
{
	*reps = NULL;
	return report_parse(log, len, reps);
}

static ssize_t parse_str(const char *log, struct report **reps)
{
	return parse(log, strlen(log), reps);
}

static void test_clean_warning(void)
{
	struct report *r;
	ssize_t n = parse_str("boot noise\n" WARN_LOG "after\n", &r);

	is_int(n, 1, "one WARNING");
	if (n != 1)
		goto out;
	is_int(r[0].kind, REPORT_WARNING, "kind warning");
	is_str(r[0].title, "WARNING in br_vlan_add", "warning title");
	is_str(r[0].guilty, "br_vlan_add", "warning guilty");
	ok(!r[0].corrupted, "complete warning is not corrupted");
	ok(!r[0].fatal, "a warning is not fatal");
	is_int(r[0].start, strlen("boot noise\n"),
	       "starts at the cut-here line");
	is_int(r[0].end, strlen("boot noise\n" WARN_LOG),
	       "ends after the end marker");
	ok(r[0].ts > 0.967475 && r[0].ts < 0.967477, "ts of the first line");
out:
	free(r);
}

/* The same log with CRLF, ANSI colours and NUL bytes sprinkled in. */
static void test_junk(void)
{
	const char *src = WARN_LOG;
	size_t cap = strlen(src) * 3 + 64, o = 0;
	char *buf = malloc(cap);
	struct report *r = NULL;
	ssize_t n;

	if (!ok(buf != NULL, "malloc"))
		return;
	memcpy(buf,
	       "\x1b[0m\x1b"
	       "c\0\0",
	       6);
	o = 6;
	for (const char *p = src; *p; p++) {
		if (*p == '\n') {
			memcpy(buf + o, "\x1b[32m\r\n", 7);
			o += 7;
		} else if (*p == 'W') {
			buf[o++] = '\0';
			buf[o++] = 'W';
		} else {
			buf[o++] = *p;
		}
	}
	n = parse(buf, o, &r);
	is_int(n, 1, "junk: one report");
	if (n == 1) {
		is_str(r[0].title, "WARNING in br_vlan_add",
		       "junk: same title");
		ok(!r[0].corrupted, "junk: not corrupted");
		is_int(r[0].end, o, "junk: end covers the whole raw log");
	}
	free(r);
	free(buf);
}

static void test_half_lines(void)
{
	struct report *r;
	ssize_t n;

	n = parse_str("", &r);
	is_int(n, 0, "empty log: no report");
	free(r);
	n = parse("[    0.9", 8, &r);
	is_int(n, 0, "half a timestamp: no report");
	free(r);
	n = parse_str("[    0.967583] WARNING: CPU: 0 PID: 35 at net/bri", &r);
	is_int(n, 1, "half a WARNING line is a report");
	if (n == 1) {
		ok(r[0].corrupted, "half a WARNING line is corrupted");
		is_str(r[0].title, "WARNING", "no guilty: bare title");
	}
	free(r);
	n = parse("\0\0\0\r\r\x1b[", 7, &r);
	is_int(n, 0, "only junk: no report");
	free(r);
	n = report_parse(NULL, 0, &r);
	is_int(n, 0, "NULL log of length 0");
	free(r);
	is_int(report_parse(NULL, 5, &r), -EINVAL, "NULL log of length 5");
	is_int(report_parse("x", 1, NULL), -EINVAL, "NULL ret");
}

/* Every prefix of a real report parses without crashing and never gains reports. */
static void test_all_prefixes(void)
{
	size_t len = strlen(WARN_LOG);
	bool sane = true, cut_ok = true;

	for (size_t i = 0; i <= len; i++) {
		struct report *r = NULL;
		ssize_t n = parse(WARN_LOG, i, &r);

		if (n < 0 || n > 1)
			sane = false;
		if (n == 1 && i < len - 1 && !r[0].corrupted) {
			cut_ok = false;
			printf("# prefix %zu not corrupted\n", i);
		}
		if (n == 1 && r[0].end > i)
			sane = false;
		free(r);
	}
	ok(sane, "every prefix: 0 or 1 report within bounds");
	ok(cut_ok, "every cut before the end marker is corrupted");
}

static void test_interleaved(void)
{
	struct report *r;
	ssize_t n = parse_str(
		"[    1.0] WARNING: CPU: 0 PID: 1 at a.c:1 foo+0x1/0x2\n"
		"[    1.1] CPU: 0 PID: 1 Comm: sh\n"
		"[    1.2] RIP: 0010:foo+0x1/0x2\n"
		"[    1.3] kernel BUG at b.c:2!\n"
		"[    1.4] invalid opcode: 0000 [#1] SMP\n"
		"[    1.5] CPU: 0 PID: 2 Comm: sh\n"
		"[    1.6] RIP: 0010:bar+0x1/0x2\n"
		"[    1.7] ---[ end trace 0000000000000000 ]---\n",
		&r);

	is_int(n, 2, "interleaved: two reports");
	if (n == 2) {
		ok(r[0].corrupted, "the interrupted WARNING is corrupted");
		is_str(r[0].title, "WARNING in foo", "interrupted title");
		is_str(r[1].title, "kernel BUG in bar", "second title");
		ok(!r[1].corrupted, "second is complete");
		ok(r[0].end <= r[1].start, "no overlap");
	}
	free(r);
}

static void test_follow_on_panic(void)
{
	static const char log[] = WARN_LOG
		"[    1.0] Kernel panic - not syncing: panic_on_warn set ...\n"
		"[    1.1] Kernel Offset: disabled\n"
		"[    1.2] ---[ end Kernel panic - not syncing: panic_on_warn set ... ]---\n";
	struct report *r;
	ssize_t n = parse_str(log, &r);

	is_int(n, 1, "warning + panic_on_warn: one report");
	if (n == 1) {
		is_int(r[0].kind, REPORT_WARNING, "kind of the warning");
		ok(r[0].fatal, "fatal");
		is_int(r[0].end, strlen(log), "extends to the panic's end");
	}
	free(r);
	n = parse_str(
		"[    1.0] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000000\n",
		&r);
	is_int(n, 1, "a lone follow-on panic is its own report");
	if (n == 1) {
		is_int(r[0].kind, REPORT_PANIC, "kind panic");
		is_str(r[0].title, "kernel panic: Attempted to kill init!",
		       "exitcode dropped");
		ok(r[0].fatal, "panic is fatal");
	}
	free(r);
}

static void test_lockups(void)
{
	const char *one =
		"[   30.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [sh:35]\n"
		"[   30.1] CPU: 0 PID: 35 Comm: sh Not tainted 6.1.192 #1\n"
		"[   30.2] RIP: 0010:lkdtm_SOFTLOCKUP+0x10/0x20\n"
		"[   30.3] Call Trace:\n"
		"[   30.4]  <IRQ>\n"
		"[   30.4]  watchdog_timer_fn+0x1/0x2\n"
		"[   30.4]  </IRQ>\n"
		"[   30.4]  <TASK>\n"
		"[   30.5]  direct_entry+0x18/0x24\n"
		"[   30.6]  </TASK>\n";
	char buf[2048];
	struct report *r;
	ssize_t n;

	snprintf(buf, sizeof(buf), "%s%s", one, one);
	n = parse_str(buf, &r);
	is_int(n, 1, "repeated soft lockup on one CPU: one report");
	if (n == 1) {
		is_int(r[0].kind, REPORT_SOFT_LOCKUP, "soft lockup kind");
		is_str(r[0].title, "BUG: soft lockup in lkdtm_SOFTLOCKUP",
		       "soft lockup title");
		ok(!r[0].corrupted, "complete");
		is_int(r[0].end, strlen(buf), "covers both");
	}
	free(r);
	n = parse_str(
		"[   40.0] INFO: task sh:35 blocked for more than 10 seconds.\n"
		"[   40.1]       Not tainted 6.1.192 #1\n"
		"[   40.2] task:sh state:D stack:0 pid:35 ppid:1 flags:0x00004000\n"
		"[   40.3] Call Trace:\n"
		"[   40.4]  <TASK>\n"
		"[   40.5]  __schedule+0x1/0x2\n"
		"[   40.5]  schedule+0x1/0x2\n"
		"[   40.5]  schedule_timeout+0x1/0x2\n"
		"[   40.6]  lkdtm_HUNG_TASK+0x1/0x2\n"
		"[   40.7]  </TASK>\n",
		&r);
	is_int(n, 1, "hung task: one report");
	if (n == 1) {
		is_str(r[0].title, "INFO: task hung in lkdtm_HUNG_TASK",
		       "hung task title");
		ok(!r[0].corrupted, "hung task complete");
	}
	free(r);
}

static void test_other_kinds(void)
{
	struct report *r;
	ssize_t n = parse_str(
		"[    2.0] ==================================================================\n"
		"[    2.0] BUG: KASAN: slab-out-of-bounds in foo_bar+0x2f5/0x330\n"
		"[    2.1] Write of size 8 at addr ffff88004fab1858 by task sh/30\n"
		"[    2.2] CPU: 0 PID: 30 Comm: sh Not tainted\n"
		"[    2.3] Call Trace:\n"
		"[    2.4]  dump_stack+0x292/0x395\n"
		"[    2.4]  kasan_report+0x230/0x340\n"
		"[    2.5]  foo_bar+0x2f5/0x330\n"
		"[    2.6] ==================================================================\n"
		"[    3.0] traps: PANIC: double fault, error_code: 0x0\n"
		"[    3.1] CPU: 0 PID: 30 Comm: sh Not tainted\n"
		"[    3.2] RIP: 0010:deep_fn+0x1/0x2\n"
		"[    3.3] Kernel panic - not syncing: Machine halted.\n"
		"[    3.4] Kernel Offset: disabled\n",
		&r);

	is_int(n, 2, "kasan + double fault");
	if (n == 2) {
		is_int(r[0].kind, REPORT_KASAN, "kasan kind");
		is_str(r[0].title, "KASAN: slab-out-of-bounds Write in foo_bar",
		       "kasan title");
		ok(!r[0].corrupted, "kasan complete");
		is_int(r[1].kind, REPORT_DOUBLE_FAULT, "double fault kind");
		is_str(r[1].title, "PANIC: double fault in deep_fn",
		       "double fault title");
		ok(r[1].fatal, "double fault fatal");
		ok(!r[1].corrupted, "double fault complete");
	}
	free(r);
	n = parse_str(
		"[    5.0] general protection fault: 0000 [#1] SMP\n"
		"[    5.1] CPU: 0 PID: 30 Comm: sh Not tainted\n"
		"[    5.2] Call Trace:\n"
		"[    5.3]  [<ffffffff81234567>] ? junk_fn+0x1/0x2\n"
		"[    5.3]  [<ffffffff81234567>] old_style_fn.constprop.3+0x1/0x2\n"
		"[    5.4] ---[ end trace 0000000000000000 ]---\n",
		&r);
	is_int(n, 1, "old-style frames: one report");
	if (n == 1)
		ok(r[0].corrupted == false, "old-style report complete");
	if (n == 1)
		is_str(r[0].title, "general protection fault in old_style_fn",
		       "old-style frame, suffix dropped");
	free(r);
	n = parse_str(
		"[    6.0] rcu: INFO: rcu_sched detected stalls on CPUs/tasks:\n"
		"[    6.1] CPU: 0 PID: 30 Comm: sh Not tainted\n"
		"[    6.2] RIP: 0010:spin_fn+0x1/0x2\n"
		"[    6.3] Call Trace:\n"
		"[    6.4]  <TASK>\n"
		"[    6.5]  </TASK>\n",
		&r);
	is_int(n, 1, "a lone RCU stall is a report");
	if (n == 1)
		is_str(r[0].title, "INFO: rcu detected stall in spin_fn",
		       "rcu stall title");
	free(r);
	is_str(report_kind_name(REPORT_STACK_GUARD), "stack-guard",
	       "kind name");
	is_str(report_kind_name((enum report_kind)99), "unknown",
	       "bad kind name");
}

/* The debug flavour's reporters: lockdep, kmemleak, might-sleep. */
static void test_debug_kinds(void)
{
	struct report *r;
	ssize_t n = parse_str(
		"[    7.0] ======================================================\n"
		"[    7.0] WARNING: possible circular locking dependency detected\n"
		"[    7.0] 6.1.192 #1 Not tainted\n"
		"[    7.0] ------------------------------------------------------\n"
		"[    7.0] sh/35 is trying to acquire lock:\n"
		"[    7.0] ffff888003a8b0b8 (&priv->lock){+.+.}-{3:3}, at: model_inject+0x20/0x90\n"
		"[    7.0] \n"
		"[    7.0] the existing dependency chain (in reverse order) is:\n"
		"[    7.0] \n"
		"[    7.0] -> #1 (&mci->lock){+.+.}-{3:3}:\n"
		"[    7.0]        __mutex_lock+0x8d/0x7c0\n"
		"[    7.0]        model_isr+0x31/0x60\n"
		"[    7.1] \n"
		"[    7.1] stack backtrace:\n"
		"[    7.1] CPU: 0 PID: 35 Comm: sh Not tainted 6.1.192 #1\n"
		"[    7.1] Call Trace:\n"
		"[    7.1]  <TASK>\n"
		"[    7.1]  dump_stack_lvl+0x45/0x5e\n"
		"[    7.1]  check_noncircular+0x10a/0x120\n"
		"[    7.1]  __lock_acquire+0x1172/0x1e50\n"
		"[    7.1]  lock_acquire+0xc4/0x2d0\n"
		"[    7.1]  __mutex_lock+0x8d/0x7c0\n"
		"[    7.1]  mutex_lock_nested+0x16/0x20\n"
		"[    7.1]  model_inject+0x20/0x90\n"
		"[    7.1]  full_proxy_write+0x50/0x80\n"
		"[    7.1]  </TASK>\n"
		"[    8.0] kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)\n"
		"[    9.0] BUG: sleeping function called from invalid context at mm/slab.h:736\n"
		"[    9.0] in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: 35, name: sh\n"
		"[    9.1] Call Trace:\n"
		"[    9.1]  <TASK>\n"
		"[    9.1]  dump_stack_lvl+0x45/0x5e\n"
		"[    9.1]  __might_resched.cold+0xf8/0x10c\n"
		"[    9.1]  __kmalloc+0x1d4/0x2f0\n"
		"[    9.1]  atomic_fn+0x20/0x90\n"
		"[    9.1]  </TASK>\n",
		&r);

	is_int(n, 3, "lockdep, kmemleak, might-sleep: three reports");
	if (n == 3) {
		is_int(r[0].kind, REPORT_LOCKDEP, "lockdep kind");
		is_str(r[0].title, "possible deadlock in model_inject",
		       "lockdep title: the function taking the lock");
		ok(!r[0].corrupted, "lockdep report complete");
		is_int(r[1].kind, REPORT_KMEMLEAK, "kmemleak kind");
		is_str(r[1].title, "kmemleak: suspected memory leak",
		       "kmemleak title");
		is_int(r[2].kind, REPORT_BUG, "might-sleep is a BUG");
		is_str(r[2].title,
		       "BUG: sleeping function called from invalid context in atomic_fn",
		       "might-sleep title");
	}
	free(r);
	n = parse_str("[    7.0] WARNING: inconsistent lock state\n"
		      "[    7.1] Call Trace:\n"
		      "[    7.1]  <TASK>\n"
		      "[    7.1]  _raw_spin_lock+0x30/0x40\n"
		      "[    7.1]  irq_fn+0x20/0x90\n"
		      "[    7.1]  </TASK>\n",
		      &r);
	is_int(n, 1, "inconsistent lock state: one report");
	if (n == 1)
		is_str(r[0].title, "inconsistent lock state in irq_fn",
		       "inconsistent lock state title");
	free(r);
	is_str(report_kind_name(REPORT_LOCKDEP), "lockdep", "lockdep name");
	is_str(report_kind_name(REPORT_KMEMLEAK), "kmemleak", "kmemleak name");
}

/* What the .expected format does not show, checked on the real corpus. */
static int read_corpus(const char *dir, const char *name, char **ret,
		       size_t *ret_len)
{
	char path[4096];
	FILE *f;
	long sz;
	char *buf;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		return -errno;
	if (fseek(f, 0, SEEK_END) < 0 || (sz = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) < 0 || !(buf = malloc((size_t)sz + 1))) {
		fclose(f);
		return -EIO;
	}
	if (fread(buf, 1, (size_t)sz, f) != (size_t)sz) {
		free(buf);
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*ret = buf;
	*ret_len = (size_t)sz;
	return 0;
}

static void test_corpus_fatal(const char *dir)
{
	static const struct {
		const char *name;
		bool fatal;
		const char *first; /* what the incident's first line holds */
	} cases[] = {
		{ "bug-oops-panic.log", true, "cut here" },
		{ "bug.log", false, "cut here" },
		{ "exhaust-stack.log", true,
		  "BUG: TASK stack guard page was hit" },
		{ "corrupt-stack.log", true,
		  "Kernel panic - not syncing: stack-protector" },
		{ "array-bounds.log", false, "==========" },
		{ "fortify-mem-object.log", false,
		  "detected buffer overflow in memcpy" },
		{ "softlockup.log", false, "watchdog: BUG: soft lockup" },
		{ "hung-task.log", false, "INFO: task sh:36 blocked" },
		{ "exception-in-init.log", true,
		  "BUG: kernel NULL pointer dereference" },
		{ "warning-panic-on-warn.log", true, "cut here" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *log = NULL, what[256];
		size_t len;
		struct report *r = NULL;
		ssize_t n;

		if (read_corpus(dir, cases[i].name, &log, &len) < 0) {
			snprintf(what, sizeof(what), "read corpus '%s'",
				 cases[i].name);
			ok(0, what);
			continue;
		}
		n = parse(log, len, &r);
		snprintf(what, sizeof(what),
			 "%s: one report, fatal=%d, starts at '%s'",
			 cases[i].name, cases[i].fatal, cases[i].first);
		ok(n == 1 && r[0].fatal == cases[i].fatal &&
			   r[0].start < r[0].end && r[0].end <= len &&
			   memmem(log + r[0].start,
				  strcspn(log + r[0].start, "\n"),
				  cases[i].first, strlen(cases[i].first)) &&
			   r[0].ts > 0,
		   what);
		free(r);
		free(log);
	}
}

/*
 * Deterministic mutation: flip, insert junk into and truncate a real log
 * many times; every result must stay within bounds and NUL-terminated.
 */
static void test_mutations(const char *dir)
{
	static const char junk[] = { '\0', '\r', '\n', 0x1b, '[',
				     ']',  '-',	 ' ',  '<',  '+' };
	char *log = NULL;
	size_t len;
	unsigned int seed = 12345;
	bool sane = true;

	if (read_corpus(dir, "exhaust-stack.log", &log, &len) < 0) {
		ok(0, "read corpus 'exhaust-stack.log'");
		return;
	}
	for (int round = 0; round < 300 && sane; round++) {
		char *m = malloc(len);
		size_t mlen;
		struct report *r = NULL;
		ssize_t n;

		if (!m) {
			sane = false;
			break;
		}
		memcpy(m, log, len);
		for (int k = 0; k < 40; k++) {
			seed = seed * 1103515245u + 12345u;
			m[(seed >> 8) % len] = junk[(seed >> 4) % sizeof(junk)];
		}
		seed = seed * 1103515245u + 12345u;
		mlen = len - (seed >> 8) % (len / 4);
		n = parse(m, mlen, &r);
		if (n < 0)
			sane = false;
		for (ssize_t i = 0; i < n; i++) {
			if (r[i].start > r[i].end || r[i].end > mlen ||
			    strnlen(r[i].title, sizeof(r[i].title)) ==
				    sizeof(r[i].title) ||
			    strnlen(r[i].guilty, sizeof(r[i].guilty)) ==
				    sizeof(r[i].guilty) ||
			    (i > 0 && r[i].start < r[i - 1].start))
				sane = false;
		}
		free(r);
		free(m);
	}
	ok(sane, "300 mutated copies of exhaust-stack.log parse within bounds");
	free(log);
}

/* A console log's tail as hostctl gives it for a reason. */
static void test_console_tail(void)
{
	char log[512], *tail;
	size_t len = 0;

	for (int i = 1; i <= 30; i++)
		len += snprintf(log + len, sizeof(log) - len, "line %d\r\n", i);
	len += snprintf(log + len, sizeof(log) - len, "bell\a\n");
	tail = report_console_tail(log, len, 3);
	is_str(tail, "line 29\nline 30\nbell?", "last 3 lines, cleaned");
	free(tail);
}

/*
 * 6.12's fortify report (corpus/fortify-*-612.log): a WARN, then
 * fortify_panic()'s BUG() in lib/string_helpers.c, one incident; a BUG
 * elsewhere, or one that does not follow at once, is an incident of its own.
 */
#define FORTIFY_612                                                                      \
	"[    0.1] ------------[ cut here ]------------\n"                                  \
	"[    0.1] memcpy: detected buffer overflow: 20 byte write of buffer size 16\n"      \
	"[    0.1] WARNING: CPU: 0 PID: 63 at lib/string_helpers.c:1032 "                    \
	"__fortify_report+0x50/0x80\n"                                                       \
	"[    0.1] RIP: 0010:__fortify_report+0x50/0x80\n"                                   \
	"[    0.1] Call Trace:\n"                                                            \
	"[    0.1]  <TASK>\n"                                                                \
	"[    0.1]  __fortify_panic+0x9/0x10\n"                                              \
	"[    0.1]  lkdtm_FORTIFY_MEM_OBJECT+0x147/0x150\n"                                  \
	"[    0.1]  </TASK>\n"                                                               \
	"[    0.1] ---[ end trace 0000000000000000 ]---\n"
#define BUG_612(file)                                                                    \
	"[    0.2] ------------[ cut here ]------------\n"                                  \
	"[    0.2] kernel BUG at " file "!\n"                                                \
	"[    0.2] Oops: invalid opcode: 0000 [#1] SMP\n"                                    \
	"[    0.2] CPU: 0 UID: 0 PID: 63 Comm: guestd Tainted: G        W 6.12.118 #1\n"     \
	"[    0.2] RIP: 0010:__fortify_panic+0x9/0x10\n"                                     \
	"[    0.2] Call Trace:\n"                                                            \
	"[    0.2]  <TASK>\n"                                                                \
	"[    0.2]  lkdtm_FORTIFY_MEM_OBJECT+0x147/0x150\n"                                  \
	"[    0.2]  </TASK>\n"                                                               \
	"[    0.2] ---[ end trace 0000000000000000 ]---\n"

static void test_fortify_612(void)
{
	static const char one[] = FORTIFY_612 BUG_612("lib/string_helpers.c:1040");
	static const char other[] = FORTIFY_612 BUG_612("mm/slub.c:10");
	static const char later[] = FORTIFY_612 "[    0.15] unrelated\n" WARN_LOG
		BUG_612("lib/string_helpers.c:1040");
	struct report *r;
	ssize_t n = parse_str(one, &r);

	is_int(n, 1, "fortify WARN + its BUG: one report");
	if (n == 1) {
		is_int(r[0].kind, REPORT_FORTIFY, "kind fortify");
		is_str(r[0].title,
		       "BUG: fortify: memcpy overflow in lkdtm_FORTIFY_MEM_OBJECT",
		       "6.1's title");
		ok(!r[0].corrupted, "complete");
		is_int(r[0].end, strlen(one), "extends to the BUG's end");
	}
	free(r);
	n = parse_str(other, &r);
	is_int(n, 2, "a BUG elsewhere after a fortify WARN is its own");
	free(r);
	n = parse_str(later, &r);
	is_int(n, 3, "a BUG after another incident is its own");
	free(r);
}

int main(int argc, char **argv)
{
	test_clean_warning();
	test_junk();
	test_half_lines();
	test_all_prefixes();
	test_interleaved();
	test_follow_on_panic();
	test_fortify_612();
	test_lockups();
	test_other_kinds();
	test_debug_kinds();
	test_console_tail();
	if (argc > 1) {
		test_corpus_fatal(argv[1]);
		test_mutations(argv[1]);
	}
	return tap_done();
}
