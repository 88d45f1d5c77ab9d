/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One updating status line on a terminal: each call rewrites the line
 * ("\r", then erase to its end), cut to the terminal's width, since a line
 * that wraps can no longer be rewritten. libc only: hostctl's run
 * progress and kbuild's build progress share it.
 */
#ifndef VLALAB_TTYLINE_H
#define VLALAB_TTYLINE_H

#include <stdio.h>

/*
 * The width of the terminal behind @f in columns; 80 when @f is not a
 * terminal or reports fewer than @min_cols columns.
 */
unsigned int ttyline_cols(FILE *f, unsigned int min_cols);

/*
 * Replace the line under the cursor of @f with @line, cut to one column
 * less than ttyline_cols(@f, @min_cols), and flush.
 */
void ttyline_show(FILE *f, const char *line, unsigned int min_cols);

/* Erase the line under the cursor of @f, and flush. */
void ttyline_clear(FILE *f);

#endif
