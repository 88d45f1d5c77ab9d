// SPDX-License-Identifier: GPL-2.0-only
#include <stddef.h>

#include "results/kind.h"

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
