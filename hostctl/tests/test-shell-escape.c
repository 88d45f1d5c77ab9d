// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/live/shell-escape.c: the shell's "~." escape, fed
 * what a user types.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "live/shell-escape.h"
#include "tap.h"

/* Feed @in in one go; what goes out, and whether it quit. */
static void esc_case(struct escape *e, const char *in, const char *want,
		     bool want_quit, const char *what)
{
	char out[64];
	bool quit;
	size_t n = escape_feed(e, in, strlen(in), out, &quit);

	out[n] = '\0';
	ok(strcmp(out, want) == 0 && quit == want_quit, what);
	if (strcmp(out, want) != 0)
		printf("# got '%s', want '%s'\n", out, want);
}

static void test_escape(void)
{
	struct escape e;

	escape_init(&e);
	esc_case(&e, "~.", "", true, "~. at the start leaves");
	escape_init(&e);
	esc_case(&e, "ls\r~.", "ls\r", true, "~. after a newline leaves");
	escape_init(&e);
	esc_case(&e, "a~.", "a~.", false, "~. mid-line is typed");
	escape_init(&e);
	esc_case(&e, "~~x", "~x", false, "~~ sends one ~");
	escape_init(&e);
	esc_case(&e, "~x", "~x", false, "~ then another key sends both");
	escape_init(&e);
	esc_case(&e, "~", "", false, "a lone ~ is held");
	esc_case(&e, ".", "", true, "... and . in the next read leaves");
	escape_init(&e);
	esc_case(&e, "\n~~.", "\n~.", false, "~~. sends ~. and stays");
}

int main(void)
{
	test_escape();
	return tap_done();
}
