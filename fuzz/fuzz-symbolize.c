// SPDX-License-Identifier: GPL-2.0-only
/*
 * The call-trace symbolizer on any console text. Every line the frame
 * grammar takes must be what it says: the frame inside the line, after a
 * blank or at its start, a name of symbol characters, the module of
 * module characters. sym_decode() against this harness's own executable
 * (standing in for vmlinux) must succeed and, when no frame resolved,
 * give back the text byte for byte.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/symbolize.h"

static bool sym_char(char ch, const char *more)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
	       (ch >= 'A' && ch <= 'Z') || (ch && strchr(more, ch));
}

static void check_line(const char *line, size_t len)
{
	struct sym_frame f;

	if (sym_parse_frame(line, len, &f) < 0)
		return;
	assert(len <= SYM_LINE_MAX);
	assert(f.start < f.end && f.end <= len);
	assert(f.start == 0 || line[f.start - 1] == ' ' ||
	       line[f.start - 1] == '\t');
	assert(f.name[0] && strlen(f.name) <= SYM_NAME_MAX);
	for (const char *p = f.name; *p; p++)
		assert(sym_char(*p, "_.$"));
	assert(strlen(f.module) <= SYM_MODULE_MAX);
	for (const char *p = f.module; *p; p++)
		assert(sym_char(*p, "_-"));
	assert(memmem(line + f.start, f.end - f.start, f.name, strlen(f.name)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sym_ctx *c;
	const char *text = (const char *)data;
	struct sym_stats st;
	char *out = NULL;
	size_t olen = 0;
	FILE *f;

	for (size_t i = 0; i < size;) {
		const char *nl = memchr(text + i, '\n', size - i);
		size_t n = nl ? (size_t)(nl - text - i) : size - i;

		check_line(text + i, n);
		i += n + 1;
	}
	if (!c && sym_open("/proc/self/exe", NULL, NULL, &c) < 0)
		abort();
	f = open_memstream(&out, &olen);
	assert(f);
	assert(sym_decode(c, text, size, f, &st) == 0);
	assert(fclose(f) == 0);
	assert(st.located + st.symbol_only + st.unknown == st.frames);
	if (st.located == 0)
		assert(olen == size && memcmp(out, text, size) == 0);
	free(out);
	return 0;
}
