/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a run shows while it goes: on a terminal one updating line (which
 * VM, which scenario, which step), and a result line per scenario.
 */
#ifndef VLALAB_PROGRESS_H
#define VLALAB_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include "results.h"

struct progress {
	FILE *f; /* where progress goes, or NULL for none */
	bool live; /* f is a TTY: keep one updating line */
	bool results; /* print a result line per scenario */
	bool line_shown; /* a live line is on screen */
};

/* Rewrite the live line; nothing unless @p is live. NULL @p is fine. */
void progress_status(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The result line of @sc (res_text_scenario()), if @p prints results. */
void progress_result(struct progress *p, const struct res_scenario *sc);
/* Erase the live line if one is shown. */
void progress_clear(struct progress *p);

#endif
