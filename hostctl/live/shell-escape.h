/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shell's escape, as OpenSSH's: "~." at the start of a line leaves,
 * "~~" there sends one "~". Pure, for hostctl shell and its unit test.
 */
#ifndef VLALAB_SHELL_ESCAPE_H
#define VLALAB_SHELL_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

struct escape {
	bool line_start; /* the next byte starts a line */
	bool tilde; /* a '~' at a line's start is held back */
};

void escape_init(struct escape *e);
/*
 * Filter @n typed bytes from @in into @out, which has room for @n + 1
 * (a held '~' may come out with the next byte). Returns how many bytes
 * to send; *ret_quit is set on "~." (the bytes before it still go).
 */
size_t escape_feed(struct escape *e, const char *in, size_t n, char *out,
		   bool *ret_quit);

#endif
