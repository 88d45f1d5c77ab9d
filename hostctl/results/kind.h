/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kinds of kernel incident: what the console classifier
 * (crash/report.c) finds, what summary.json calls an incident and what a
 * scenario's expect_incident may name (docs/crashes.md). Pure.
 */
#ifndef VLALAB_HOSTCTL_KIND_H
#define VLALAB_HOSTCTL_KIND_H

enum report_kind {
	REPORT_PANIC,
	REPORT_OOPS,
	REPORT_BUG,
	REPORT_WARNING,
	REPORT_UBSAN,
	REPORT_KASAN,
	REPORT_SOFT_LOCKUP,
	REPORT_HUNG_TASK,
	REPORT_DOUBLE_FAULT,
	REPORT_STACK_GUARD,
	REPORT_FORTIFY,
	REPORT_USERCOPY,
	REPORT_LOCKDEP,
	REPORT_KMEMLEAK,
	REPORT_UNKNOWN,
};

/* Every kind's name but unknown's, in enum order, then NULL. */
extern const char *const report_kind_choices[];

/* "panic", "oops", "bug", "warning", "ubsan", ... or "unknown". */
const char *report_kind_name(enum report_kind k);

#endif
