// SPDX-License-Identifier: GPL-2.0-only
/*
 * write: one open() and one write() of a value, the way `echo value > path`
 * (or `>>` with append) does it, checking success or the exact errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guestd.h"

/* fork_write takes the same keys. */
const struct step_key step_write_keys[] = {
	{ "path", KEY_STRING, true },
	{ "value", KEY_STRING, true },
	{ "append", KEY_BOOL, false },
	{ "expect_errno", KEY_STRING, false },
	{ NULL },
};

static int write_run(struct step_ctx *ctx, struct json_object *step,
		     struct step_result *res)
{
	const char *path = step_str(step, "path");
	const char *value = step_str(step, "value");
	const char *expect = step_str(step, "expect_errno");
	bool append = step_bool(step, "append", false);
	struct json_object *v;
	size_t len;
	const char *where = NULL;
	char shown[512];
	ssize_t n = -1;
	int want = 0, err = 0, fd;

	/* The value may hold NUL bytes ("\u0000"): its JSON length counts. */
	json_object_object_get_ex(step, "value", &v);
	len = (size_t)json_object_get_string_len(v);
	if (expect && proto_errno_parse(expect, &want) < 0) {
		step_error(res, "unknown errno name '%s'", expect);
		return 0;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY |
		  (append ? O_APPEND : O_TRUNC));
	if (fd < 0) {
		err = errno;
		where = "open";
	} else {
		n = write(fd, value, len);
		if (n < 0) {
			err = errno;
			where = "write";
		}
		/* Some files only report at close; don't lose that. */
		if (close(fd) < 0 && err == 0 && errno != EINTR) {
			err = errno;
			where = "close";
		}
	}

	if (want ? err == want : err == 0 && (size_t)n == len) {
		res->verdict = VERDICT_PASS;
		return 0;
	}
	if (!step_errno_mismatch(res, want, err, where)) {
		if ((size_t)n != len)
			step_got(res, "short write (%zd of %zu bytes)", n, len);
		else
			step_got(res, "success (wrote %zd bytes)", n);
	}
	util_escape(shown, sizeof(shown), value, len, 200);
	snprintf(res->reason, sizeof(res->reason), "%s '%s' to '%s'",
		 append ? "appending" : "writing", shown, path);
	return 0;
}

const struct step_ops step_write = {
	.name = "write",
	.keys = step_write_keys,
	.run = write_run,
};
