// SPDX-License-Identifier: GPL-2.0-only
/*
 * Console crash classifier. The log is read one line at a time: each line is
 * cleaned (ANSI escapes, CR, NUL and other control bytes dropped, the
 * "[   12.345678]" timestamp and a "[T123]"/"[C1]" caller id removed) and fed
 * to a small state machine that opens an incident on a header line ("WARNING:",
 * "kernel BUG at", "UBSAN:", "Kernel panic - not syncing:", ...), collects its
 * kernel RIP and call trace, and closes it on its end marker. The rules, the
 * title formats and the merge policy are documented in docs/crashes.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/report.h"

#define REPORT_LINE_MAX 512
#define REPORT_FN_MAX 128

/*
 * The name of each kind, in enum order. A scenario's expect_incident may
 * name any kind but unknown, so the list ends there: report_kind_choices
 * is the validator's NULL-terminated choice list too.
 */
const char *const report_kind_choices[] = {
	[REPORT_PANIC] = "panic",
	[REPORT_OOPS] = "oops",
	[REPORT_BUG] = "bug",
	[REPORT_WARNING] = "warning",
	[REPORT_UBSAN] = "ubsan",
	[REPORT_KASAN] = "kasan",
	[REPORT_SOFT_LOCKUP] = "soft-lockup",
	[REPORT_HUNG_TASK] = "hung-task",
	[REPORT_DOUBLE_FAULT] = "double-fault",
	[REPORT_STACK_GUARD] = "stack-guard",
	[REPORT_FORTIFY] = "fortify",
	[REPORT_USERCOPY] = "usercopy",
	[REPORT_LOCKDEP] = "lockdep",
	[REPORT_KMEMLEAK] = "kmemleak",
	[REPORT_UNKNOWN] = NULL,
};

const char *report_kind_name(enum report_kind k)
{
	if ((unsigned int)k >= REPORT_UNKNOWN)
		return "unknown";
	return report_kind_choices[k];
}

/*
 * Functions that report or route a crash rather than cause it: the guilty
 * function is the first RIP or call-trace frame not listed here. An entry
 * ending in '*' is a prefix.
 */
static const char *const report_skip[] = {
	/* stack dumping and printing */
	"dump_stack",
	"dump_stack_lvl",
	"__dump_stack",
	"show_stack",
	"show_trace_log_lvl",
	"_printk",
	"printk",
	"vprintk*",
	"__warn_printk",
	/* panic, oops and BUG/WARN plumbing */
	"panic",
	"__warn",
	"warn_slowpath_fmt",
	"report_bug",
	"handle_bug",
	"die",
	"die_addr",
	"oops_end",
	"make_task_dead",
	"do_exit",
	"rewind_stack_and_make_dead",
	"rewind_stack_do_exit",
	"do_trap",
	"do_error_trap",
	"exc_invalid_op",
	"asm_exc_invalid_op",
	"exc_general_protection",
	"asm_exc_general_protection",
	"page_fault_oops",
	"kernelmode_fixup_or_oops",
	"__bad_area_nosemaphore",
	"bad_area_nosemaphore",
	"do_user_addr_fault",
	"exc_page_fault",
	"asm_exc_page_fault",
	"handle_page_fault",
	"handle_stack_overflow",
	"exc_double_fault",
	"asm_exc_double_fault",
	"df_debug",
	"check_panic_on_warn",
	"refcount_warn_saturate",
	/* sanitizers and hardening reporters */
	"ubsan_epilogue",
	"ubsan_prologue",
	"__ubsan_handle_*",
	"kasan_report*",
	"__kasan_*",
	"kasan_*",
	"__asan_*",
	"print_report",
	"print_address_description*",
	"fortify_panic",
	"__fortify_panic",
	"__fortify_report",
	"fortify_report",
	"usercopy_abort",
	"__check_object_size",
	"check_object_size",
	"check_heap_object",
	"__check_heap_object",
	"check_stack_object",
	"__check_stack_object",
	"__stack_chk_fail",
	/* lockdep and the might-sleep check: the guilty one takes the lock */
	"check_noncircular",
	"check_prev_add",
	"check_prevs_add",
	"validate_chain",
	"__lock_acquire",
	"lock_acquire",
	"lock_release",
	"print_circular_bug",
	"print_deadlock_bug",
	"check_deadlock",
	"print_usage_bug",
	"print_unlock_imbalance_bug",
	"mark_lock*",
	"mark_usage",
	"lockdep_rcu_suspicious",
	"_raw_spin_lock*",
	"_raw_read_lock*",
	"_raw_write_lock*",
	"__mutex_lock*",
	"mutex_lock_nested",
	"__might_resched",
	"__might_sleep",
	/* allocators, where might-sleep checks its callers */
	"__kmalloc*",
	"kmalloc_trace",
	"__kmem_cache_alloc*",
	"kmem_cache_alloc*",
	"slab_pre_alloc_hook*",
	/* LKDTM's dispatch */
	"lkdtm_do_action",
	"direct_entry",
	/* scheduling: a hung task's stack starts in the scheduler */
	"__schedule",
	"schedule",
	"schedule_timeout",
	"schedule_preempt_disabled",
	"schedule_hrtimeout*",
	"io_schedule",
	"io_schedule_timeout",
	"__wait_for_common",
	"wait_for_completion*",
	"context_switch",
	"__switch_to",
	"__switch_to_asm",
	/* the watchdog's interrupt path (soft lockups) */
	"watchdog_timer_fn",
	"__hrtimer_run_queues",
	"hrtimer_interrupt",
	"__sysvec_apic_timer_interrupt",
	"sysvec_apic_timer_interrupt",
	"asm_sysvec_apic_timer_interrupt",
};

static bool report_fn_skipped(const char *fn)
{
	for (size_t i = 0; i < sizeof(report_skip) / sizeof(report_skip[0]);
	     i++) {
		const char *s = report_skip[i];
		size_t n = strlen(s);

		if (n && s[n - 1] == '*') {
			if (strncmp(fn, s, n - 1) == 0)
				return true;
		} else if (strcmp(fn, s) == 0) {
			return true;
		}
	}
	return false;
}

/* Panic messages that are the consequence of an earlier incident. */
static const char *const report_follow_on[] = {
	"Fatal exception",	    "Attempted to kill init",
	"panic_on_warn set",	    "softlockup: hung tasks",
	"hung_task: blocked tasks", "Machine halted",
	"Fatal machine check",	    "Oops - BUG",
	"panic_on_oops set",
};

/* The parser's view of the incident being built (always the last one). */
struct incident {
	struct report r;
	char head[192]; /* title without " in <guilty>" */
	bool head_is_title; /* panics: head is the whole title */
	char key[64]; /* lockup/hung-task identity, for merging repeats */
	char msg_fn[REPORT_FN_MAX]; /* named by the header itself */
	char rip_fn[REPORT_FN_MAX];
	char trace_fn[REPORT_FN_MAX];
	bool open; /* lines still extend it */
	bool header_phase; /* no CPU:/RIP:/Call Trace: line yet */
	bool in_trace, trace_seen, task_marker, trace_done;
	bool ended; /* its end marker was seen (sticky) */
	bool tail; /* after the end marker: register dumps still belong to it */
	bool want_access; /* KASAN: take Read/Write from the next line */
};

struct parser {
	struct report *reps;
	size_t n, cap;
	struct incident cur;
	bool have_cur;
	size_t cut_off; /* offset of a pending "cut here" line */
	double cut_ts;
	int cut_age; /* lines since it, -1 when none */
};

static bool starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static void copy_str(char *dst, size_t size, const char *src, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/*
 * Clean one raw line into out: drop NUL, CR and other control bytes and ANSI
 * CSI/OSC/two-byte escapes; keep tabs. Truncates at REPORT_LINE_MAX - 1.
 */
static void clean_line(const char *p, size_t n, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == 0x1b) {
			if (i + 1 < n && p[i + 1] == '[') {
				i += 2;
				while (i < n && !((unsigned char)p[i] >= 0x40 &&
						  (unsigned char)p[i] <= 0x7e))
					i++;
			} else if (i + 1 < n && p[i + 1] == ']') {
				i += 2;
				while (i < n && p[i] != 0x07 && p[i] != 0x1b)
					i++;
			} else {
				i++;
			}
			continue;
		}
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			continue;
		if (o < REPORT_LINE_MAX - 1)
			out[o++] = (char)c;
	}
	out[o] = '\0';
}

/*
 * Strip "[   12.345678] " and "[    T123] " prefixes and the one space after
 * them, keeping a call-trace frame's own indentation; *ts = -1 if none.
 */
static const char *strip_prefix(const char *s, double *ts)
{
	*ts = -1;
	if (s[0] == '[') {
		const char *q = s + 1;
		char *end;
		double v;

		while (*q == ' ')
			q++;
		v = strtod(q, &end);
		if (end != q && *end == ']' && q[0] >= '0' && q[0] <= '9') {
			*ts = v;
			s = end + 1;
		}
	}
	if (s[0] == '[') {
		const char *q = s + 1;

		while (*q == ' ')
			q++;
		if ((q[0] == 'T' || q[0] == 'C') && q[1] >= '0' &&
		    q[1] <= '9') {
			q++;
			while (*q >= '0' && *q <= '9')
				q++;
			if (*q == ']')
				s = q + 1;
		}
	}
	if (*ts >= 0 && s[0] == ' ')
		s++;
	return s;
}

/*
 * Copy a symbol "func+0x1f/0x30" or "func.cold+0x.." or "func.isra.0" into fn,
 * without offset and compiler suffixes. Returns false when s holds no symbol
 * (e.g. "0x47b7a0").
 */
static bool symbol_name(const char *s, char *fn)
{
	size_t n = strcspn(s, "+ \t/[(");

	if (n == 0 || (s[0] == '0' && s[1] == 'x'))
		return false;
	copy_str(fn, REPORT_FN_MAX, s, n);
	for (char *d = strchr(fn, '.'); d; d = strchr(d + 1, '.')) {
		if (starts(d, ".cold") || starts(d, ".isra") ||
		    starts(d, ".constprop") || starts(d, ".part") ||
		    starts(d, ".llvm")) {
			*d = '\0';
			break;
		}
	}
	for (const char *c = fn; *c; c++) {
		if (!(*c == '_' || *c == '.' || (*c >= 'a' && *c <= 'z') ||
		      (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
			return false;
	}
	return fn[0] != '\0';
}

static bool follow_on_panic(const char *msg)
{
	for (size_t i = 0;
	     i < sizeof(report_follow_on) / sizeof(report_follow_on[0]); i++)
		if (strstr(msg, report_follow_on[i]))
			return true;
	return false;
}

/*
 * A panic title is "kernel panic: " and the message, with "+0x1f/0x30"
 * offsets and ", exitcode=..." style details removed so that titles are stable.
 */
static void panic_title(const char *msg, char *out, size_t size)
{
	static const char prefix[] = "kernel panic: ";
	char buf[REPORT_LINE_MAX];
	size_t o = sizeof(prefix) - 1;

	memcpy(buf, prefix, o);
	for (const char *p = msg; *p && o < sizeof(buf) - 1; p++) {
		if (p[0] == '+' && p[1] == '0' && p[2] == 'x') {
			p += 3;
			while (*p && *p != ' ' && *p != ',')
				p++;
			if (!*p)
				break;
		}
		if (starts(p, " exitcode=") || starts(p, ", exitcode="))
			break;
		buf[o++] = *p;
	}
	while (o && buf[o - 1] == ' ')
		o--;
	copy_str(out, size, buf, o);
}

/* Write the finished incident's title, guilty and corrupted into its slot. */
static void finish(struct parser *p)
{
	struct incident *c = &p->cur;
	const char *g = "";
	char t[sizeof(c->head) + sizeof(c->r.guilty) + 8];

	if (!p->have_cur || !p->n)
		return;
	if (c->msg_fn[0])
		g = c->msg_fn;
	else if (c->rip_fn[0] && !report_fn_skipped(c->rip_fn))
		g = c->rip_fn;
	else if (c->trace_fn[0])
		g = c->trace_fn;
	copy_str(c->r.guilty, sizeof(c->r.guilty), g, strlen(g));
	if (c->head_is_title || !g[0])
		snprintf(t, sizeof(t), "%s", c->head);
	else
		snprintf(t, sizeof(t), "%s in %s", c->head, g);
	copy_str(c->r.title, sizeof(c->r.title), t, strlen(t));
	c->r.corrupted = !c->ended ||
			 (!c->trace_seen && !c->rip_fn[0] && !c->msg_fn[0]);
	p->reps[p->n - 1] = c->r;
}

static int start_incident(struct parser *p, size_t off, double ts)
{
	if (p->have_cur)
		finish(p);
	if (p->n == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 8;
		struct report *reps = realloc(p->reps, cap * sizeof(*reps));

		if (!reps)
			return -ENOMEM;
		p->reps = reps;
		p->cap = cap;
	}
	p->n++;
	memset(&p->cur, 0, sizeof(p->cur));
	p->have_cur = true;
	p->cur.open = true;
	p->cur.header_phase = true;
	if (p->cut_age >= 0 && p->cut_age <= 3) {
		off = p->cut_off;
		ts = p->cut_ts;
	}
	p->cut_age = -1;
	p->cur.r.start = off;
	p->cur.r.end = off;
	p->cur.r.ts = ts;
	p->cur.r.kind = REPORT_UNKNOWN;
	return 0;
}

/* The symbol after "... at file:line " on a WARNING line, or after "in ". */
static void fn_after(const char *s, const char *marker, char *fn)
{
	const char *q = strstr(s, marker);

	if (!q)
		return;
	q += strlen(marker);
	if (strcmp(marker, " at ") == 0) {
		q = strchr(q, ' '); /* skip "file:line" */
		if (!q)
			return;
		q++;
	}
	if (!symbol_name(q, fn))
		fn[0] = '\0';
}

struct header {
	enum report_kind kind;
	char head[192];
	char key[64];
	char msg_fn[REPORT_FN_MAX];
	bool is_panic, head_is_title, want_access, rcu_stall;
	bool one_line; /* the header is the whole report (kmemleak's) */
	const char *panic_msg;
};

/* Copy s up to the first of stop into out, prefixed by prefix. */
static void head_upto(char *out, size_t size, const char *prefix, const char *s,
		      const char *stop)
{
	size_t n = strcspn(s, stop);

	while (n && s[n - 1] == ' ')
		n--;
	snprintf(out, size, "%s%.*s", prefix, (int)n, s);
}

/*
 * Lockdep's reports open with a "WARNING: " line of their own; syzbot's
 * names for them, so that titles read the same in both. The report ends
 * with its call trace; the guilty function is the one taking the lock.
 */
static bool lockdep_title(const char *s, struct header *h)
{
	static const struct {
		const char *line, *title;
	} known[] = {
		{ "possible circular locking dependency detected",
		  "possible deadlock" },
		{ "possible recursive locking detected", "possible deadlock" },
		{ "possible irq lock inversion dependency detected",
		  "possible deadlock" },
		{ "inconsistent lock state", "inconsistent lock state" },
		{ "suspicious RCU usage", "suspicious RCU usage" },
		{ "bad unlock balance detected", "bad unlock balance" },
		{ "held lock freed", "held lock freed" },
		{ "lock held when returning to user space",
		  "lock held when returning to user space" },
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (starts(s, known[i].line)) {
			h->kind = REPORT_LOCKDEP;
			snprintf(h->head, sizeof(h->head), "%s",
				 known[i].title);
			return true;
		}
	}
	return false;
}

/* Recognise an incident's header line. Returns true and fills h. */
static bool classify(const char *s, struct header *h)
{
	const char *q;

	memset(h, 0, sizeof(*h));
	if (starts(s, "lkdtm: "))
		return false;
	if ((q = strstr(s, "Kernel panic - not syncing: "))) {
		q += strlen("Kernel panic - not syncing: ");
		h->kind = REPORT_PANIC;
		h->is_panic = true;
		h->head_is_title = true;
		h->panic_msg = q;
		panic_title(q, h->head, sizeof(h->head));
		if (strstr(q, "stack-protector:"))
			fn_after(q, "corrupted in: ", h->msg_fn);
		return true;
	}
	if (strstr(s, "detected buffer overflow")) {
		char fn[REPORT_FN_MAX] = "";

		h->kind = REPORT_FORTIFY;
		if (starts(s, "detected buffer overflow in "))
			symbol_name(s + strlen("detected buffer overflow in "),
				    fn);
		else if (!starts(s, "detected"))
			symbol_name(s, fn);
		if (fn[0])
			snprintf(h->head, sizeof(h->head),
				 "BUG: fortify: %s overflow", fn);
		else
			snprintf(h->head, sizeof(h->head),
				 "BUG: fortify: buffer overflow");
		return true;
	}
	if (starts(s, "usercopy: Kernel memory")) {
		h->kind = REPORT_USERCOPY;
		snprintf(h->head, sizeof(h->head), "BUG: bad usercopy");
		return true;
	}
	if (strstr(s, "stack guard page was hit")) {
		h->kind = REPORT_STACK_GUARD;
		snprintf(h->head, sizeof(h->head),
			 "BUG: stack guard page was hit");
		return true;
	}
	if (strstr(s, "PANIC: double fault")) {
		h->kind = REPORT_DOUBLE_FAULT;
		snprintf(h->head, sizeof(h->head), "PANIC: double fault");
		return true;
	}
	if (strstr(s, "BUG: soft lockup")) {
		h->kind = REPORT_SOFT_LOCKUP;
		snprintf(h->head, sizeof(h->head), "BUG: soft lockup");
		if ((q = strstr(s, "CPU#")))
			head_upto(h->key, sizeof(h->key), "", q, " ");
		return true;
	}
	if (starts(s, "INFO: task ") && strstr(s, " blocked for more than ")) {
		h->kind = REPORT_HUNG_TASK;
		snprintf(h->head, sizeof(h->head), "INFO: task hung");
		head_upto(h->key, sizeof(h->key), "", s + strlen("INFO: task "),
			  " ");
		return true;
	}
	if (starts(s, "BUG: KASAN: ")) {
		h->kind = REPORT_KASAN;
		head_upto(h->head, sizeof(h->head),
			  "KASAN: ", s + strlen("BUG: KASAN: "), " ");
		fn_after(s, " in ", h->msg_fn);
		h->want_access = true;
		return true;
	}
	if (starts(s, "UBSAN: ")) {
		h->kind = REPORT_UBSAN;
		head_upto(h->head, sizeof(h->head),
			  "UBSAN: ", s + strlen("UBSAN: "), " ");
		return true;
	}
	if (starts(s, "WARNING: ") && lockdep_title(s + strlen("WARNING: "), h))
		return true;
	if (starts(s, "kmemleak: ") &&
	    strstr(s, " new suspected memory leak")) {
		h->kind = REPORT_KMEMLEAK;
		h->one_line = true;
		h->head_is_title = true;
		snprintf(h->head, sizeof(h->head),
			 "kmemleak: suspected memory leak");
		return true;
	}
	if (starts(s, "WARNING: ")) {
		h->kind = REPORT_WARNING;
		snprintf(h->head, sizeof(h->head), "WARNING");
		fn_after(s, " at ", h->msg_fn);
		if (h->msg_fn[0] && report_fn_skipped(h->msg_fn))
			h->msg_fn[0] = '\0';
		return true;
	}
	if (starts(s, "kernel BUG at ")) {
		h->kind = REPORT_BUG;
		snprintf(h->head, sizeof(h->head), "kernel BUG");
		return true;
	}
	if (starts(s, "BUG: kernel NULL pointer dereference")) {
		h->kind = REPORT_OOPS;
		snprintf(h->head, sizeof(h->head),
			 "BUG: kernel NULL pointer dereference");
		return true;
	}
	if (starts(s, "BUG: unable to handle")) {
		h->kind = REPORT_OOPS;
		snprintf(h->head, sizeof(h->head),
			 "BUG: unable to handle kernel paging request");
		return true;
	}
	if (starts(s, "general protection fault")) {
		h->kind = REPORT_OOPS;
		snprintf(h->head, sizeof(h->head), "general protection fault");
		return true;
	}
	if (starts(s, "Oops: ")) {
		h->kind = REPORT_OOPS;
		snprintf(h->head, sizeof(h->head), "Oops");
		return true;
	}
	if (starts(s, "BUG: ")) {
		h->kind = REPORT_BUG;
		head_upto(h->head, sizeof(h->head),
			  "BUG: ", s + strlen("BUG: "), ":,!");
		if ((q = strstr(h->head, " at ")))
			h->head[q - h->head] = '\0';
		return true;
	}
	if (strstr(s, "INFO: rcu") && strstr(s, "detected stall")) {
		h->kind = REPORT_UNKNOWN;
		h->rcu_stall = true;
		snprintf(h->head, sizeof(h->head), "INFO: rcu detected stall");
		return true;
	}
	return false;
}

/* Lines printed after "---[ end trace" that still belong to the oops. */
static bool tail_line(const char *s)
{
	static const char *const tails[] = {
		"RIP: ",
		"RSP: ",
		"RAX: ",
		"RDX: ",
		"RBP: ",
		"R10: ",
		"R13: ",
		"R08: ",
		"R09: ",
		"R11: ",
		"R12: ",
		"R14: ",
		"R15: ",
		"FS: ",
		"CS: ",
		"CR2: ",
		"DR0: ",
		"DR3: ",
		"DR6: ",
		"Code: ",
		"PKRU: ",
		"Kernel Offset:",
		"note: ",
		"Modules linked in:",
		"---[ end Kernel panic",
	};

	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++)
		if (starts(s, tails[i]))
			return true;
	return false;
}

/* Feed one non-header line (or the rest of a header line) to the open incident. */
static void body_line(struct incident *c, const char *s)
{
	char fn[REPORT_FN_MAX];

	if (c->want_access) {
		if (starts(s, "Read of size") || starts(s, "Write of size")) {
			size_t n = strlen(c->head);

			snprintf(c->head + n, sizeof(c->head) - n, " %s",
				 starts(s, "Read") ? "Read" : "Write");
			c->want_access = false;
		}
	}
	if (starts(s, "CPU: ") && strstr(s, " PID: ")) {
		c->header_phase = false;
		return;
	}
	if (starts(s, "RIP: ") || starts(s, "EIP: ")) {
		const char *q = s + 5;

		c->header_phase = false;
		if (starts(q, "0010:"))
			q += 5;
		else if (starts(q, "0033:") || q[0] == '0')
			return; /* user mode or an unsymbolized address */
		if (!c->rip_fn[0] && symbol_name(q, fn))
			memcpy(c->rip_fn, fn, sizeof(fn));
		return;
	}
	if (starts(s, "Call Trace:")) {
		c->header_phase = false;
		if (!c->trace_done)
			c->in_trace = true;
		return;
	}
	if (!c->in_trace)
		return;
	if (strstr(s, "<TASK>")) {
		c->task_marker = true;
		return;
	}
	if (strstr(s, "</TASK>")) {
		c->in_trace = false;
		c->trace_done = true;
		return;
	}
	if (s[0] == '<' || strstr(s, "<IRQ>") || strstr(s, "</IRQ>") ||
	    strstr(s, "<NMI>") || strstr(s, "</NMI>") || strstr(s, "<EOI>"))
		return;
	if (s[0] != ' ' && s[0] != '\t') {
		/* registers inside <TASK>; without markers a flush-left line ends the trace */
		if (!c->task_marker) {
			c->in_trace = false;
			c->trace_done = true;
		}
		return;
	}
	while (*s == ' ' || *s == '\t')
		s++;
	if (starts(s, "[<")) {
		/* older kernels: " [<ffffffff81234567>] func+0x1/0x2" */
		const char *q = strstr(s, ">] ");

		if (!q)
			return;
		s = q + 3;
	}
	if (starts(s, "? "))
		return; /* unreliable frame */
	if (!symbol_name(s, fn))
		return;
	c->trace_seen = true;
	if (!c->trace_fn[0] && !report_fn_skipped(fn))
		memcpy(c->trace_fn, fn, sizeof(fn));
}

/* Markers that end an incident: returns true when s ends c. */
static bool end_line(struct incident *c, const char *s)
{
	if ((starts(s, "---[ end trace") ||
	     starts(s, "---[ end Kernel panic")) &&
	    strstr(s, "]---"))
		return true;
	if (starts(s, "Kernel Offset:") && c->r.fatal)
		return true;
	if ((c->r.kind == REPORT_UBSAN || c->r.kind == REPORT_KASAN) &&
	    starts(s, "=====") && !c->header_phase)
		return true;
	/* reports without an end marker end with their call trace */
	if ((c->r.kind == REPORT_PANIC || c->r.kind == REPORT_HUNG_TASK ||
	     c->r.kind == REPORT_SOFT_LOCKUP || c->r.kind == REPORT_LOCKDEP ||
	     c->r.kind == REPORT_UNKNOWN) &&
	    c->trace_done)
		return true;
	return false;
}

static int feed(struct parser *p, size_t off, size_t end, const char *raw)
{
	struct incident *c = &p->cur;
	struct header h;
	double ts;
	const char *s = strip_prefix(raw, &ts);
	int r;

	if (p->cut_age >= 0)
		p->cut_age++;
	/*
	 * "cut here" and the "=====" rule that opens UBSAN/KASAN reports are
	 * the first line of the incident whose header follows.
	 */
	if (strstr(s, "------------[ cut here ]------------") ||
	    (starts(s, "==========") &&
	     (!p->have_cur || !c->open || c->tail))) {
		p->cut_off = off;
		p->cut_ts = ts;
		p->cut_age = 0;
		if (p->have_cur && c->tail)
			c->open = false;
		return 0;
	}
	if (classify(s, &h)) {
		if (h.is_panic && follow_on_panic(h.panic_msg) && p->have_cur) {
			/* the panic is a consequence of the last incident */
			c->r.fatal = true;
			c->r.end = end;
			c->open = true;
			if (c->ended)
				c->tail = true;
			return 0;
		}
		if (p->have_cur && c->open && !c->ended && c->header_phase &&
		    !h.is_panic) {
			/* "Oops:", "invalid opcode:", "kernel BUG at" after the real header */
			c->r.end = end;
			return 0;
		}
		if (p->have_cur &&
		    ((h.key[0] && c->r.kind == h.kind &&
		      strcmp(c->key, h.key) == 0) ||
		     (h.rcu_stall && (c->r.kind == REPORT_SOFT_LOCKUP ||
				      c->r.kind == REPORT_HUNG_TASK)))) {
			/*
			 * The lockup detector repeats itself, and RCU sees the
			 * same stuck CPU: one incident.
			 */
			c->r.end = end;
			c->open = true;
			c->tail = false;
			c->in_trace = false;
			c->trace_done = false;
			c->task_marker = false;
			return 0;
		}
		r = start_incident(p, off, ts);
		if (r < 0)
			return r;
		c->r.kind = h.kind;
		c->r.fatal = h.is_panic;
		c->r.end = end;
		memcpy(c->head, h.head, sizeof(c->head));
		memcpy(c->key, h.key, sizeof(c->key));
		memcpy(c->msg_fn, h.msg_fn, sizeof(c->msg_fn));
		c->head_is_title = h.head_is_title;
		c->want_access = h.want_access;
		if (h.one_line) {
			c->ended = true;
			c->tail = true;
		}
		return 0;
	}
	if (!p->have_cur || !c->open)
		return 0;
	if (c->tail) {
		if (tail_line(s)) {
			c->r.end = end;
			if (starts(s, "---[ end Kernel panic"))
				c->r.fatal = true;
		} else {
			c->open = false;
		}
		return 0;
	}
	c->r.end = end;
	body_line(c, s);
	if (end_line(c, s)) {
		c->ended = true;
		c->tail = true;
	}
	return 0;
}

ssize_t report_parse(const char *log, size_t len, struct report **ret)
{
	struct parser p = { .cut_age = -1 };
	char line[REPORT_LINE_MAX];
	size_t off = 0;

	if (!ret || (!log && len))
		return -EINVAL;
	while (off < len) {
		const char *nl = memchr(log + off, '\n', len - off);
		size_t end = nl ? (size_t)(nl - log) + 1 : len;
		int r;

		clean_line(log + off, end - off, line);
		r = feed(&p, off, end, line);
		if (r < 0) {
			free(p.reps);
			return r;
		}
		off = end;
	}
	if (p.have_cur)
		finish(&p);
	*ret = p.reps;
	return (ssize_t)p.n;
}

char *report_console_tail(const char *log, size_t len, unsigned int nlines)
{
	char *buf, *start;
	size_t n = len, j = 0;

	buf = malloc(len + 1);
	if (!buf)
		return NULL;
	while (n > 0 && (log[n - 1] == '\n' || log[n - 1] == '\r'))
		n--;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = log[i];

		if (c == '\r')
			continue;
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			c = '?';
		buf[j++] = c;
	}
	buf[j] = '\0';
	start = buf + j;
	for (unsigned int lines = 0; start > buf; start--) {
		if (start[-1] == '\n' && ++lines == nlines)
			break;
	}
	memmove(buf, start, strlen(start) + 1);
	return buf;
}
