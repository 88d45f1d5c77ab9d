// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run's progress (progress.h): the live line through common/ttyline,
 * and each scenario's end: the text formatter's line, the plain line and
 * the KTAP test. What the guest named goes out through escape.h's
 * esc_term_*() (results-text.c's, for the text and KTAP): no control byte
 * of its reaches the terminal.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/escape.h"
#include "results/progress.h"
#include "ttyline.h"

void progress_status(struct progress *p, const char *fmt, ...)
{
	char line[512], safe[sizeof(line) * 4];
	va_list ap;
	FILE *m;

	if (!p || !p->f || !p->live || !fmt)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* Each byte escaped is 4: the whole line fits, cut or not. */
	m = fmemopen(safe, sizeof(safe), "w");
	if (!m)
		return;
	esc_term_putn(m, line, strlen(line));
	if (fclose(m) != 0)
		return;
	/* One screen line, or it wraps and \r no longer rewrites it. */
	ttyline_show(p->f, safe, 2);
	p->line_shown = true;
}

void progress_clear(struct progress *p)
{
	if (!p || !p->f || !p->line_shown)
		return;
	ttyline_clear(p->f);
	p->line_shown = false;
}

/*
 * Flush every KTAP stream; the first that fails is the answer. A pipe
 * whose reader went away (hostctl run --format ktap | head) is no
 * failure of the run's: that stream ends there, and the run goes on
 * (results.ktap and summary.json hold it all).
 */
static int ktap_flush(struct progress *p, const char **ret_name)
{
	for (size_t i = 0; i < PROGRESS_KTAP_MAX; i++) {
		FILE *f = p->ktap[i];

		if (!f)
			continue;
		errno = 0;
		if (fflush(f) == EOF && errno == EPIPE) {
			p->ktap[i] = NULL;
			continue;
		}
		if (ferror(f)) {
			*ret_name = p->ktap_name[i];
			return errno ? -errno : -EIO;
		}
	}
	return 0;
}

int progress_color_parse(const char *s, enum progress_color *ret)
{
	static const char *const names[] = { "auto", "always", "never" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i]) == 0) {
			*ret = (enum progress_color)i;
			return 0;
		}
	return -EINVAL;
}

bool progress_color_on(enum progress_color mode, FILE *f)
{
	const char *no = getenv("NO_COLOR");

	if (mode != PROGRESS_COLOR_AUTO)
		return mode == PROGRESS_COLOR_ALWAYS;
	return f && isatty(fileno(f)) && !(no && *no);
}

/* The SGR colour of @v's word: green, red, bold red or yellow. */
static const char *verdict_sgr(enum proto_verdict v)
{
	switch (v) {
	case VERDICT_PASS:
		return "32";
	case VERDICT_FAIL:
	case VERDICT_XPASS:
		return "31";
	case VERDICT_SKIP:
	case VERDICT_XFAIL:
		return "33";
	default:
		return "1;31";
	}
}

/*
 * What res_text_scenario() (@sc) or res_text_totals() (@run) prints, on
 * @f, with one word painted in @sgr: the first of a scenario's lines, the
 * last " -> " word of the totals. Their text is escaped already; off
 * colour, or when it cannot be held in memory, it goes out as it is.
 */
static void put_painted(FILE *f, const struct res_scenario *sc,
			const struct res_run *run, const char *sgr)
{
	char *buf = NULL, *at = NULL, *next;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (m) {
		if (sc)
			res_text_scenario(sc, m);
		else
			res_text_totals(run, m);
	}
	if (!m || fclose(m) != 0 || !buf) {
		free(buf);
		if (sc)
			res_text_scenario(sc, f);
		else
			res_text_totals(run, f);
		return;
	}
	if (sc)
		at = buf;
	for (next = buf; !sc && (next = strstr(next, " -> ")); next += 4)
		at = next + 4;
	if (at)
		fprintf(f, "%.*s\033[%sm%.*s\033[0m%s", (int)(at - buf), buf,
			sgr, (int)strcspn(at, " \n"), at,
			at + strcspn(at, " \n"));
	else
		fputs(buf, f);
	free(buf);
}

void progress_totals(struct progress *p, const struct res_run *run, FILE *f)
{
	if (p && p->color)
		put_painted(f, NULL, run, res_run_ok(run) ? "32" : "1;31");
	else
		res_text_totals(run, f);
}

int progress_begin(struct progress *p, const struct res_run *run,
		   const char **ret_name)
{
	if (!p)
		return 0;
	p->total = run->n;
	p->ended = 0;
	for (size_t i = 0; i < PROGRESS_KTAP_MAX; i++)
		if (p->ktap[i])
			res_ktap_begin(run, p->ktap[i]);
	return ktap_flush(p, ret_name);
}

int progress_result(struct progress *p, const struct res_scenario *sc,
		    const char **ret_name)
{
	if (!p)
		return 0;
	p->ended++;
	progress_clear(p);
	if (p->f && p->results) {
		if (p->color)
			put_painted(p->f, sc, NULL, verdict_sgr(sc->verdict));
		else
			res_text_scenario(sc, p->f);
		fflush(p->f);
	}
	if (p->plain) {
		esc_term_printf(p->plain,
				"[%zu/%zu] %s %s %" PRIu64 ".%" PRIu64 " s\n",
				p->ended, p->total, sc->name,
				proto_verdict_name(sc->verdict),
				sc->duration_ms / 1000,
				sc->duration_ms % 1000 / 100);
		fflush(p->plain);
	}
	for (size_t i = 0; i < PROGRESS_KTAP_MAX; i++)
		if (p->ktap[i])
			res_ktap_scenario(sc, p->ended, p->ktap[i]);
	return ktap_flush(p, ret_name);
}

void progress_duration(uint64_t ms, char *buf, size_t len)
{
	uint64_t s = ms / 1000;

	if (s < 60)
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64 "s", s,
			 ms % 1000 / 100);
	else if (s < 3600)
		snprintf(buf, len, "%" PRIu64 "m%02" PRIu64 "s", s / 60,
			 s % 60);
	else
		snprintf(buf, len, "%" PRIu64 "h%02" PRIu64 "m%02" PRIu64 "s",
			 s / 3600, s / 60 % 60, s % 60);
}

void progress_closing(const struct res_run *run, uint64_t wall_ms,
		      const char *dir, FILE *f)
{
	char took[32];

	progress_duration(wall_ms, took, sizeof(took));
	if (run->repro_until_step) {
		/* What a repro's steps gave is no verdict of its scenario. */
		esc_term_printf(
			f,
			"vlalab: repro %s, steps 1-%u of %u: %s in %s (no verdict of the scenario); results: %s\n",
			run->n ? run->v[0].name : "?", run->repro_until_step,
			run->repro_steps,
			run->n ? proto_verdict_name(run->v[0].verdict) : "none",
			took, dir);
		return;
	}
	fprintf(f, "vlalab: %zu scenario%s: ", run->n, run->n == 1 ? "" : "s");
	if (!res_text_run_counts(run, f))
		fputs("none", f);
	esc_term_printf(f, " in %s; results: %s\n", took, dir);
}

int progress_end(struct progress *p, const struct res_run *run,
		 const char **ret_name)
{
	if (!p)
		return 0;
	progress_clear(p);
	for (size_t i = 0; i < PROGRESS_KTAP_MAX; i++)
		if (p->ktap[i])
			res_ktap_end(run, p->ktap[i]);
	return ktap_flush(p, ret_name);
}
