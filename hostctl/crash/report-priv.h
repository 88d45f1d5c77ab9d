/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the console crash classifier's two parts share: report-line.c reads
 * one console line (cleans it, strips its timestamp, names its symbols and
 * tells an incident's header line), report.c's state machine builds the
 * incidents from those lines. Pure, as report.h says.
 */
#ifndef VLALAB_HOSTCTL_REPORT_PRIV_H
#define VLALAB_HOSTCTL_REPORT_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "crash/report.h"

#define REPORT_LINE_MAX 512
#define REPORT_FN_MAX 128

static inline bool starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static inline void copy_str(char *dst, size_t size, const char *src, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

struct header {
	enum report_kind kind;
	char head[192];
	char key[64];
	char msg_fn[REPORT_FN_MAX];
	bool is_panic, head_is_title, want_access, rcu_stall;
	bool one_line; /* the header is the whole report (kmemleak's) */
	/*
	 * 6.12's fortify report: a WARN, then fortify_panic()'s BUG() in
	 * lib/string_helpers.c for the same overflow (report.c folds it in).
	 */
	bool bug_follows;
	const char *panic_msg;
};

/* The guilty function is never @fn: it reports or routes a crash. */
bool report_fn_skipped(const char *fn);
/*
 * Clean one raw line of @n bytes into @out (REPORT_LINE_MAX bytes): drop
 * NUL, CR and other control bytes and ANSI escapes; keep tabs.
 */
void report_clean_line(const char *p, size_t n, char *out);
/*
 * Strip the "[   12.345678] " and "[    T123] " prefixes of @s; *@ts is the
 * timestamp, or -1 if none.
 */
const char *report_strip_prefix(const char *s, double *ts);
/*
 * The symbol at the start of @s into @fn (REPORT_FN_MAX bytes), without
 * its offset and compiler suffixes; false when @s holds none.
 */
bool report_symbol_name(const char *s, char *fn);
/* A panic message that is the consequence of an earlier incident. */
bool report_follow_on_panic(const char *msg);
/* Recognise an incident's header line: true, with @h filled. */
bool report_classify(const char *s, struct header *h);

#endif
