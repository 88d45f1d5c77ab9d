// SPDX-License-Identifier: GPL-2.0-only
/*
 * readlink: a symbolic link's target, compared exactly and/or against a
 * regex; or, with expect_errno, the errno readlink(2) must fail with
 * (EINVAL for a path that is no link, ENOENT for one that is not there).
 */
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guestd.h"

/* How much of a target a failure shows. */
#define READLINK_SHOW 1536

static int readlink_run(struct step_ctx *ctx, struct json_object *step,
			struct step_result *res)
{
	const char *path = step_str(step, "path");
	const char *equals = step_str(step, "equals");
	const char *match = step_str(step, "match");
	const char *expect = step_str(step, "expect_errno");
	char target[PATH_MAX + 1], shown[READLINK_SHOW + 64], where[512];
	char rerr[256];
	int want = 0, err = 0;
	regex_t re;
	ssize_t n;

	(void)ctx;
	if (expect && proto_errno_parse(expect, &want) < 0) {
		step_error(res, "unknown errno name '%s'", expect);
		return 0;
	}
	if (match && util_regcomp(&re, match, rerr, sizeof(rerr)) < 0) {
		step_error(res, "bad regex '%s' in 'match': %s", match, rerr);
		return 0;
	}
	n = readlink(path, target, sizeof(target));
	if (n < 0) {
		err = errno;
		n = 0;
	} else if ((size_t)n == sizeof(target)) {
		step_error(res, "the target of '%s' is longer than %d bytes",
			   path, PATH_MAX);
		goto out;
	}
	target[n] = '\0';
	util_escape(shown, sizeof(shown), target, (size_t)n, READLINK_SHOW);

	res->verdict = VERDICT_FAIL;
	snprintf(res->reason, sizeof(res->reason), "reading the link '%s'",
		 path);
	if (want || err) {
		if (err == want) {
			res->verdict = VERDICT_PASS;
			res->expected[0] = res->got[0] = res->reason[0] = '\0';
			goto out;
		}
		util_fmt(where, sizeof(where), "readlink('%s')", path);
		if (!step_errno_mismatch(res, want, err, where))
			step_got(res, "target '%s'", shown);
		goto out;
	}
	if (equals && strcmp(target, equals) != 0) {
		util_escape(rerr, sizeof(rerr), equals, strlen(equals), 200);
		step_expected(res, "target '%s'", rerr);
		step_got(res, "target '%s'", shown);
		goto out;
	}
	if (match && regexec(&re, target, 0, NULL, 0) != 0) {
		step_expected(res, "a target matching '%s'", match);
		step_got(res, "target '%s'", shown);
		goto out;
	}
	res->verdict = VERDICT_PASS;
	res->expected[0] = res->got[0] = res->reason[0] = '\0';
out:
	if (match)
		regfree(&re);
	return 0;
}

const struct step_ops step_readlink = {
	.name = "readlink",
	.run = readlink_run,
};
