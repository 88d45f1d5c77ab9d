/* SPDX-License-Identifier: GPL-2.0-only */
/* What the scenario library's unit tests share (scn-test.c). */
#ifndef VLALAB_SCN_TEST_H
#define VLALAB_SCN_TEST_H

#include <json-c/json.h>

/* The test's arguments: data/, scenarios/ and the integration fixtures. */
extern const char *data_dir, *shipped_dir, *fixtures_dir;

/* Sets them from argv, or exits 2 with the usage. */
void scn_test_args(int argc, char *argv[]);
/* A list of the run request as it goes out, or "(null)". */
const char *list_text(struct json_object *list);
/* A formatted string, malloc'd; aborts when out of memory. */
char *xasprintf(const char *fmt, ...);
/* Write text to a fresh file under /tmp and return its path. */
char *tmp_file(const char *text);

#endif
