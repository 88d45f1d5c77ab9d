// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/base/escape.c: text made safe for terminals and
 * line formats (esc_term_*()), and for XML.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "tap.h"

/* One call of esc_term_*() into a string. */
static char *term(int how, const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (how == 0)
		esc_term_putn(f, s, strlen(s));
	else if (how == 1)
		esc_term_printf(f, "[%s]\n", s);
	else
		esc_term_xml_put(f, s);
	fclose(f);
	return buf;
}

static void term_case(int how, const char *in, const char *want,
		      const char *what)
{
	char *got = term(how, in);

	if (!ok(got && !strcmp(got, want), what) && got) {
		for (size_t i = 0; got[i]; i++)
			got[i] = got[i] == '\n' ? '|' : got[i];
		printf("#   got '%s'\n", got);
	}
	free(got);
}

/* The rule for text that leaves for a terminal or a line (escape.h). */
static void test_term(void)
{
	term_case(0, "plain text: a\\b 'c' \"d\" <e> \u00e9\u2603\t",
		  "plain text: a\\b 'c' \"d\" <e> \u00e9\u2603\t",
		  "ordinary text, tab and UTF-8 unchanged");
	term_case(0, "\x1b]52;c;eA==\x07", "\\x1b]52;c;eA==\\x07",
		  "OSC 52: ESC and BEL escaped");
	term_case(0, "a\rok 2 b\nc\x7f", "a\\x0dok 2 b\\x0ac\\x7f",
		  "\\r, \\n and DEL escaped");
	term_case(0,
		  "\xc2\x9b"
		  "2J \xc2\x85 \xc2\xa0",
		  "\\xc2\\x9b2J \\xc2\\x85 \xc2\xa0",
		  "C1 controls escaped, U+00A0 kept");
	term_case(0,
		  "a\xe2\x80\xa8"
		  "b\xe2\x80\xa9",
		  "a\\xe2\\x80\\xa8b\\xe2\\x80\\xa9",
		  "U+2028 and U+2029 escaped");
	term_case(0, "\x9b\xff\xc3", "\\x9b\\xff\\xc3",
		  "bytes of invalid UTF-8 escaped");
	term_case(1, "x\ny\r", "[x\\x0ay\\x0d]\n",
		  "printf: the line's own newline kept, the value's escaped");
	term_case(2, "<a>&\n\x1b\r\xc2\x85",
		  "&lt;a&gt;&amp;\n\\x1b\\x0d\\xc2\\x85",
		  "XML: entities, newline kept, controls escaped");
}

int main(void)
{
	test_term();
	return tap_done();
}
