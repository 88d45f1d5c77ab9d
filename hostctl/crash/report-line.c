// SPDX-License-Identifier: GPL-2.0-only
/*
 * One line of a console log, for the classifier (report.c): the line
 * cleaned of control bytes and escapes, its timestamp and caller id
 * stripped, a symbol's name without its offset, and the header lines that
 * open an incident with their kind and title (docs/crashes.md). Also the
 * console's tail as a reason shows it (report_console_tail()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/report.h"
#include "crash/report-priv.h"

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

bool report_fn_skipped(const char *fn)
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

/*
 * Clean one raw line into out: drop NUL, CR and other control bytes and ANSI
 * CSI/OSC/two-byte escapes; keep tabs. Truncates at REPORT_LINE_MAX - 1.
 */
void report_clean_line(const char *p, size_t n, char *out)
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
const char *report_strip_prefix(const char *s, double *ts)
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
bool report_symbol_name(const char *s, char *fn)
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

bool report_follow_on_panic(const char *msg)
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
	if (!report_symbol_name(q, fn))
		fn[0] = '\0';
}

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
bool report_classify(const char *s, struct header *h)
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
		if (starts(s, "detected buffer overflow in ")) {
			/* 6.1: "detected buffer overflow in memcpy", BUG() */
			report_symbol_name(
				s + strlen("detected buffer overflow in "), fn);
		} else if ((q = strstr(s, ": detected buffer overflow: "))) {
			/* 6.12: "memcpy: detected buffer overflow: 20 byte
			 * write of buffer size 16" in a WARN, then BUG() */
			char name[REPORT_FN_MAX];

			copy_str(name, sizeof(name), s, (size_t)(q - s));
			if (!report_symbol_name(name, fn))
				fn[0] = '\0';
			h->bug_follows = true;
		} else if (!starts(s, "detected") &&
			   !report_symbol_name(s, fn)) {
			fn[0] = '\0';
		}
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
