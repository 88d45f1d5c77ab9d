// SPDX-License-Identifier: GPL-2.0-only
/*
 * Console crash classifier. The log is read one line at a time: each line is
 * cleaned (ANSI escapes, CR, NUL and other control bytes dropped, the
 * "[   12.345678]" timestamp and a "[T123]"/"[C1]" caller id removed) and fed
 * to a small state machine that opens an incident on a header line ("WARNING:",
 * "kernel BUG at", "UBSAN:", "Kernel panic - not syncing:", ...), collects its
 * kernel RIP and call trace, and closes it on its end marker. The rules, the
 * title formats and the merge policy are documented in docs/crashes.md.
 * This file is the state machine; what one line is (cleaned, stripped,
 * a header or not) is report-line.c's (report-priv.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/report.h"
#include "crash/report-priv.h"

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
	bool bug_follows; /* a fortify WARN: its BUG() is the same incident */
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
		if (!c->rip_fn[0] && report_symbol_name(q, fn))
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
	if (!report_symbol_name(s, fn))
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

/* A report that continues the incident: its lines extend it again. */
static void reopen(struct incident *c, size_t end)
{
	c->r.end = end;
	c->open = true;
	c->tail = false;
	c->in_trace = false;
	c->trace_done = false;
	c->task_marker = false;
}

/*
 * 6.12's fortify_panic(): the WARN that titles the overflow is followed at
 * once ("cut here" in between) by the BUG() in lib/string_helpers.c that
 * stops the task. Both are the one overflow.
 */
static bool fortify_bug(const struct parser *p, const char *s)
{
	return p->have_cur && p->cur.bug_follows && p->cut_age >= 0 &&
	       p->cut_age <= 3 &&
	       starts(s, "kernel BUG at lib/string_helpers.c:");
}

static int feed(struct parser *p, size_t off, size_t end, const char *raw)
{
	struct incident *c = &p->cur;
	struct header h;
	double ts;
	const char *s = report_strip_prefix(raw, &ts);
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
	if (report_classify(s, &h)) {
		if (h.is_panic && report_follow_on_panic(h.panic_msg) &&
		    p->have_cur) {
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
		if (fortify_bug(p, s)) {
			/* its "invalid opcode" is a header in the header phase */
			reopen(c, end);
			c->ended = false;
			c->header_phase = true;
			c->bug_follows = false;
			p->cut_age = -1;
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
			reopen(c, end);
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
		c->bug_follows = h.bug_follows;
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

		report_clean_line(log + off, end - off, line);
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
