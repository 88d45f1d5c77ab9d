// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the scenario library's unit tests share: their three folders, a
 * step list as text, a formatted string, and a file of given text.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scn-test.h"

const char *data_dir, *shipped_dir, *fixtures_dir;

void scn_test_args(int argc, char *argv[])
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s DATA_DIR SCENARIOS_DIR FIXTURES_DIR\n", argv[0]);
		exit(2);
	}
	data_dir = argv[1];
	shipped_dir = argv[2];
	fixtures_dir = argv[3];
}

/* A list of the run request as it goes out, or "(null)". */
const char *list_text(struct json_object *list)
{
	const char *t = json_object_to_json_string_ext(
		list, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

	return list && t ? t : "(null)";
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	return s;
}

/* Write @text to a fresh file under /tmp and return its path. */
char *tmp_file(const char *text)
{
	char *path = strdup("/tmp/vlalab-test-scenario-XXXXXX");
	int fd = mkstemp(path);
	size_t len = strlen(text);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		abort();
	close(fd);
	return path;
}
