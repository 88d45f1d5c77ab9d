/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a run shows while it goes, and the one place a scenario's end goes
 * out: on a terminal one updating line (which VM, which scenario, which
 * step); per scenario as it ends, the text report's line, a plain line
 * ("[12/52] dsa/mdb-full pass 4.1 s") for logs when stdout is not a
 * terminal, as kunit and avocado print, and its KTAP test, streamed to
 * the run directory's results.ktap and, with --format ktap, to stdout.
 */
#ifndef VLALAB_PROGRESS_H
#define VLALAB_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include "results/results.h"

/*
 * --color: whether the verdict words of the result lines are coloured
 * (pass green, fail red, error/timeout/crash bold red, skip/xfail
 * yellow). auto: when they go to a terminal and NO_COLOR
 * (https://no-color.org) is unset or empty.
 */
enum progress_color {
	PROGRESS_COLOR_AUTO,
	PROGRESS_COLOR_ALWAYS,
	PROGRESS_COLOR_NEVER,
};

/* "auto", "always" or "never" into *@ret: 0, or -EINVAL. */
int progress_color_parse(const char *s, enum progress_color *ret);

/* Whether @mode colours what goes to @f (auto: a TTY, no NO_COLOR). */
bool progress_color_on(enum progress_color mode, FILE *f);

/* The KTAP streams: results.ktap, and stdout for --format ktap. */
#define PROGRESS_KTAP_MAX 2

struct progress {
	FILE *f; /* where progress goes, or NULL for none */
	bool live; /* f is a TTY: keep one updating line */
	bool results; /* print a result line per scenario */
	bool color; /* colour the verdict of that line (--color) */
	bool line_shown; /* a live line is on screen */
	FILE *plain; /* the plain line per scenario goes here, or NULL */
	/* KTAP streams and their names (for errors); NULL slots unused. */
	FILE *ktap[PROGRESS_KTAP_MAX];
	const char *ktap_name[PROGRESS_KTAP_MAX];
	size_t total; /* scenarios in the run */
	size_t ended; /* scenarios that ended so far */
};

/* Rewrite the live line; nothing unless @p is live. NULL @p is fine. */
void progress_status(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A run of @run's scenarios begins: the KTAP header and plan go out, and
 * the count starts over. 0, or a negative errno when a KTAP stream could
 * not be written (*@ret_name names it). These three take a NULL @p.
 */
int progress_begin(struct progress *p, const struct res_run *run,
		   const char **ret_name);

/*
 * Scenario @sc ended: its text result line (if @p prints results), its
 * plain line and its KTAP test, numbered in the order scenarios end, each
 * flushed. 0, or a negative errno as progress_begin().
 */
int progress_result(struct progress *p, const struct res_scenario *sc,
		    const char **ret_name);

/* The run is over: KTAP's trailing diagnostics (res_ktap_end()). 0 or as
 * progress_begin(). */
int progress_end(struct progress *p, const struct res_run *run,
		 const char **ret_name);

/*
 * The run's totals (res_text_totals()) on @f, its closing word (OK green,
 * FAILED bold red) coloured when @p colours (--color). NULL @p is fine.
 */
void progress_totals(struct progress *p, const struct res_run *run, FILE *f);

/* Erase the live line if one is shown. */
void progress_clear(struct progress *p);

/* @ms as "41.2s", "12m03s" or "1h02m03s" into @buf. */
void progress_duration(uint64_t ms, char *buf, size_t len);

/*
 * The run's closing line, on a terminal or not: "vlalab: 69 scenarios:
 * 64 pass, 4 skip, 1 xfail in 12m03s; results: DIR", @wall_ms being the
 * whole run's wall time. A repro's run says so instead of its counts:
 * "vlalab: repro NAME, steps 1-4 of 10: pass in 41.2s (no verdict of the
 * scenario); results: DIR".
 */
void progress_closing(const struct res_run *run, uint64_t wall_ms,
		      const char *dir, FILE *f);

#endif
