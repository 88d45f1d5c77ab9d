// SPDX-License-Identifier: GPL-2.0-only
/*
 * The run's progress (progress.h): the live line through common/ttyline,
 * and the text formatter's line per scenario.
 */
#include <stdarg.h>
#include <stdio.h>

#include "progress.h"
#include "ttyline.h"

void progress_status(struct progress *p, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!p || !p->f || !p->live || !fmt)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* One screen line, or it wraps and \r no longer rewrites it. */
	ttyline_show(p->f, line, 2);
	p->line_shown = true;
}

void progress_clear(struct progress *p)
{
	if (!p || !p->f || !p->line_shown)
		return;
	ttyline_clear(p->f);
	p->line_shown = false;
}

void progress_result(struct progress *p, const struct res_scenario *sc)
{
	if (!p || !p->f || !p->results)
		return;
	progress_clear(p);
	res_text_scenario(sc, p->f);
	fflush(p->f);
}
