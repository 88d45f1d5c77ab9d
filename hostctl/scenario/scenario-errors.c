// SPDX-License-Identifier: GPL-2.0-only
/*
 * What validating a scenario file finds: errors and warnings, each one line
 * "file: $.json.path: reason" in a struct scn_errors, collected so that a
 * user fixes a file in one go.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "scenario/scenario-priv.h"

static int scn_msgs_add(char ***msgs, size_t *n, char *msg)
{
	char **v;

	v = realloc(*msgs, (*n + 1) * sizeof(*v));
	if (!v) {
		free(msg);
		return -ENOMEM;
	}
	*msgs = v;
	(*msgs)[(*n)++] = msg;
	return 0;
}

int scn_errors_add(struct scn_errors *errs, char *msg)
{
	if (!errs) {
		free(msg);
		return 0;
	}
	return scn_msgs_add(&errs->msgs, &errs->n, msg);
}

/* "file: path: reason" (or "file: reason" when @path is NULL), or NULL. */
static char *scn_vmsg(struct scn_ctx *ctx, const char *path, const char *fmt,
		      va_list ap)
{
	char *reason = NULL, *msg = NULL;
	int r;

	if (vasprintf(&reason, fmt, ap) < 0)
		return NULL;
	if (path)
		r = asprintf(&msg, "%s: %s: %s", ctx->file, path, reason);
	else
		r = asprintf(&msg, "%s: %s", ctx->file, reason);
	free(reason);
	return r < 0 ? NULL : msg;
}

void scn_error(struct scn_ctx *ctx, const char *path, const char *fmt, ...)
{
	char *msg;
	va_list ap;

	ctx->nerr++;
	va_start(ap, fmt);
	msg = scn_vmsg(ctx, path, fmt, ap);
	va_end(ap);
	if (msg)
		scn_errors_add(ctx->errs, msg);
}

void scn_warn(struct scn_ctx *ctx, const char *path, const char *fmt, ...)
{
	char *msg;
	va_list ap;

	va_start(ap, fmt);
	msg = scn_vmsg(ctx, path, fmt, ap);
	va_end(ap);
	if (!msg)
		return;
	if (ctx->errs)
		scn_msgs_add(&ctx->errs->warns, &ctx->errs->nwarns, msg);
	else
		free(msg);
}

bool scn_expect_type(struct scn_ctx *ctx, const char *path,
		     struct json_object *v, enum json_type want,
		     const char *want_name)
{
	if (json_object_get_type(v) == want)
		return true;
	scn_error(ctx, path, "expected %s, got %s", want_name,
		  stepspec_json_type_name(v));
	return false;
}

void scn_errors_truncate(struct scn_errors *errs, size_t n)
{
	while (errs && errs->n > n)
		free(errs->msgs[--errs->n]);
}

void scn_errors_free(struct scn_errors *errs)
{
	if (!errs)
		return;
	for (size_t i = 0; i < errs->n; i++)
		free(errs->msgs[i]);
	free(errs->msgs);
	errs->msgs = NULL;
	errs->n = 0;
	for (size_t i = 0; i < errs->nwarns; i++)
		free(errs->warns[i]);
	free(errs->warns);
	errs->warns = NULL;
	errs->nwarns = 0;
}
