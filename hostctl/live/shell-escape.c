// SPDX-License-Identifier: GPL-2.0-only
/* The shell's "~." escape (shell-escape.h). */
#include "live/shell-escape.h"

void escape_init(struct escape *e)
{
	e->line_start = true;
	e->tilde = false;
}

size_t escape_feed(struct escape *e, const char *in, size_t n, char *out,
		   bool *ret_quit)
{
	size_t len = 0;

	*ret_quit = false;
	for (size_t i = 0; i < n; i++) {
		char c = in[i];

		if (e->tilde) {
			e->tilde = false;
			if (c == '.') {
				*ret_quit = true;
				return len;
			}
			out[len++] = '~';
			if (c == '~') {
				e->line_start = false;
				continue;
			}
		} else if (e->line_start && c == '~') {
			e->tilde = true;
			continue;
		}
		out[len++] = c;
		e->line_start = c == '\r' || c == '\n';
	}
	return len;
}
