// SPDX-License-Identifier: GPL-2.0-only
/*
 * write: one open() and one write() of a value, the way `echo value > path`
 * (or `>>` with append) does it, checking success or the exact errno;
 * with repeat, that many times in a row, each one checked.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guestd.h"

/*
 * One open(), write() and close(): *ret_n is what write() returned, and
 * the errno and the call that failed, if one did.
 */
static void write_once(const char *path, const char *value, size_t len,
		       bool append, ssize_t *ret_n, int *ret_err,
		       const char **ret_where)
{
	ssize_t n = -1;
	int fd;

	*ret_err = 0;
	*ret_where = NULL;
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY |
				(append ? O_APPEND : O_TRUNC));
	if (fd < 0) {
		*ret_err = errno;
		*ret_where = "open";
	} else {
		n = write(fd, value, len);
		if (n < 0) {
			*ret_err = errno;
			*ret_where = "write";
		}
		/* Some files only report at close; don't lose that. */
		if (close(fd) < 0 && *ret_err == 0 && errno != EINTR) {
			*ret_err = errno;
			*ret_where = "close";
		}
	}
	*ret_n = n;
}

static int write_run(struct step_ctx *ctx, struct json_object *step,
		     struct step_result *res)
{
	const char *path = step_str(step, "path");
	const char *value = step_str(step, "value");
	const char *expect = step_str(step, "expect_errno");
	bool append = step_bool(step, "append", false);
	int64_t repeat = step_int(step, "repeat", 1), i;
	struct json_object *v;
	size_t len;
	const char *where = NULL;
	char shown[512], which[64] = "";
	ssize_t n = -1;
	int want = 0, err = 0;

	/* The value may hold NUL bytes ("\u0000"): its JSON length counts. */
	json_object_object_get_ex(step, "value", &v);
	len = (size_t)json_object_get_string_len(v);
	if (expect && proto_errno_parse(expect, &want) < 0) {
		step_error(res, "unknown errno name '%s'", expect);
		return 0;
	}
	if (repeat < 1) {
		step_error(res, "'repeat' must be at least 1");
		return 0;
	}
	for (i = 0; i < repeat; i++) {
		write_once(path, value, len, append, &n, &err, &where);
		if (!(want ? err == want : err == 0 && (size_t)n == len))
			break;
	}
	if (i == repeat) {
		res->verdict = VERDICT_PASS;
		return 0;
	}
	if (!step_errno_mismatch(res, want, err, where)) {
		if ((size_t)n != len)
			step_got(res, "short write (%zd of %zu bytes)", n, len);
		else
			step_got(res, "success (wrote %zd bytes)", n);
	}
	if (repeat > 1)
		snprintf(which, sizeof(which), " (write %lld of %lld)",
			 (long long)i + 1, (long long)repeat);
	util_escape(shown, sizeof(shown), value, len, 200);
	snprintf(res->reason, sizeof(res->reason), "%s '%s' to '%s'%s",
		 append ? "appending" : "writing", shown, path, which);
	return 0;
}

const struct step_ops step_write = {
	.name = "write",
	.run = write_run,
};
