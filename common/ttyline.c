// SPDX-License-Identifier: GPL-2.0-only
/*
 * The terminal status line (ttyline.h): "\r\033[K" and the line, cut so
 * that it never wraps.
 */
#include <string.h>
#include <sys/ioctl.h>

#include "ttyline.h"

#define TTYLINE_ERASE "\r\033[K"

unsigned int ttyline_cols(FILE *f, unsigned int min_cols)
{
	struct winsize ws;

	/* One column is kept free: at least two, then. */
	if (min_cols < 2)
		min_cols = 2;
	if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= min_cols)
		return ws.ws_col;
	return 80;
}

void ttyline_show(FILE *f, const char *line, unsigned int min_cols)
{
	size_t max = ttyline_cols(f, min_cols) - 1, len = strlen(line);

	fputs(TTYLINE_ERASE, f);
	fwrite(line, 1, len < max ? len : max, f);
	fflush(f);
}

void ttyline_clear(FILE *f)
{
	fputs(TTYLINE_ERASE, f);
	fflush(f);
}
