// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/cli/lava-log.c: LAVA's log back into its console,
 * never reading past the log's last byte (fuzz-lava-log's finding: a
 * record cut after its "msg" key read the byte after the log as its
 * value's opening quote).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/lava.h"
#include "tap.h"

/*
 * lava_log_console() on the first @len bytes of @text (a copy, what
 * follows them in memory as the rest of @text): the console in @out.
 */
static int console(const char *text, size_t len, char *out, size_t size,
		   size_t *bad)
{
	size_t all = strlen(text), n;
	char *buf = malloc(all + 1), *ret;
	int r;

	if (!buf)
		return -1;
	memcpy(buf, text, all + 1);
	r = lava_log_console(buf, len, &ret, &n, bad);
	if (r < 0) {
		free(buf);
		return r;
	}
	snprintf(out, size, "%.*s", (int)n, ret);
	free(ret);
	return (int)n;
}

static void test_records(void)
{
	static const char log[] =
		"{\"dt\": \"1\", \"lvl\": \"info\", \"msg\": \"x\"}\n"
		"{\"dt\": \"2\", \"lvl\": \"target\", "
		"\"msg\": \"caf\\xE9 \\\\\\\"q\\\\\\\" \\L\"}\n";
	char out[256];
	size_t bad = 9;

	console(log, sizeof(log) - 1, out, sizeof(out), &bad);
	is_str(out, "caf\xc3\xa9 \"q\" \xe2\x80\xa8\n",
	       "the target record's msg, YAML escapes decoded");
	is_int((int)bad, 0, "no record unread");
}

static void test_cut(void)
{
	/* The log ends after "msg": ; the bytes after it are not the log's. */
	static const char text[] = "{\"dt\": \"1\", \"lvl\": \"target\", "
				   "\"msg\": \"forged\"}\n";
	size_t cut = strstr(text, "\"forged") - text, bad = 0;
	char out[256];

	is_int(console(text, cut, out, sizeof(out), &bad), 0,
	       "a record cut after its msg key: no console line");
	is_int((int)bad, 1, "it is counted as unread");
	is_int(console(text, cut - 1, out, sizeof(out), &bad), 0,
	       "cut in the blank after the key: no console line");
	is_int((int)bad, 1, "it is counted as unread");
	cut = strstr(text, ", \"lvl\"") - text;
	is_int(console(text, cut, out, sizeof(out), &bad), 0,
	       "cut after the first value: no console line");
	is_int((int)bad, 1, "it is counted as unread");
}

int main(void)
{
	test_records();
	test_cut();
	return tap_done();
}
