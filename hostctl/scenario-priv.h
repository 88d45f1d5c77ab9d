/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files that load and validate a scenario file share, and no
 * other file of hostctl includes (they use scenario.h): scenario.c loads,
 * scenario-errors.c collects what the checks find.
 */
#ifndef VLALAB_SCENARIO_PRIV_H
#define VLALAB_SCENARIO_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "jsonstrict.h"
#include "scenario.h"

/* Room for a JSON path in messages ("$.steps[3].expect"). */
#define SCN_PATH_MAX JSONSTRICT_PATH_MAX

/* What one file's validation collects into. */
struct scn_ctx {
	const char *file;
	struct scn_errors *errs;
	size_t nerr;
	uint64_t step_timeout_ms;
	bool cleanup; /* checking the cleanup list's steps */
};

/* ---- scenario-errors.c ---- */

/*
 * Record an error, "file: path: reason" (or "file: reason" when @path is
 * NULL): the file is then refused.
 */
void scn_error(struct scn_ctx *ctx, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Record a warning, in the same form: the file is valid, but fragile. */
void scn_warn(struct scn_ctx *ctx, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Whether @v is of JSON type @want; if not, an error says "expected
 * @want_name, got ...".
 */
bool scn_expect_type(struct scn_ctx *ctx, const char *path,
		     struct json_object *v, enum json_type want,
		     const char *want_name);

/* Drop the errors after the first @n (@errs may be NULL). */
void scn_errors_truncate(struct scn_errors *errs, size_t n);

#endif
