/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Console crash classifier: turns a guest's serial console log into one
 * report per kernel incident (oops, BUG, WARNING, UBSAN, panic, lockup...),
 * each with a kind, a syzkaller-style title, the guilty function and a
 * "corrupted" flag. Pure: no I/O, no logging. docs/crashes.md describes the
 * kinds, the titles and how follow-on reports are merged.
 */
#ifndef VLALAB_HOSTCTL_REPORT_H
#define VLALAB_HOSTCTL_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "results/kind.h"

struct report {
	enum report_kind kind;
	/* e.g. "WARNING in br_vlan_add" */
	char title[256];
	/* function name without +0x../0x.. and .cold; may be "" */
	char guilty[128];
	/* no end marker (log cut off or interleaved) or no RIP/trace */
	bool corrupted;
	/* byte offsets of the incident in the log: [start, end) */
	size_t start, end;
	/* kernel timestamp of its first line in seconds, or -1 */
	double ts;
	/* the kernel panicked in (or right after) this incident */
	bool fatal;
};

/*
 * Parse a console log of len bytes (it may contain ANSI escapes, CR and NUL
 * bytes, and may be cut off anywhere) into incidents. Returns the number of
 * reports (>= 0) and sets *ret to a malloc'd array the caller frees (NULL
 * when there are none), or -ENOMEM (-EINVAL for NULL arguments).
 */
ssize_t report_parse(const char *log, size_t len, struct report **ret);

/*
 * The last @nlines lines of the console text @log (@len bytes), in a
 * malloc'd string for a reason or a terminal: trailing line ends dropped,
 * CRs removed, other control bytes but tab and newline shown as '?'.
 * NULL on ENOMEM.
 */
char *report_console_tail(const char *log, size_t len, unsigned int nlines);

#endif
