// SPDX-License-Identifier: GPL-2.0-only
/*
 * wait_for: poll a path every WAIT_POLL_MS until it exists (and, with
 * match, its content matches; with not_match, it does not), for at most
 * within_ms.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "guestd.h"

#define WAIT_POLL_MS 20
#define WAIT_READ_MAX (1024 * 1024)
#define WAIT_SHOW 1536

static int wait_for_run(struct step_ctx *ctx, struct json_object *step,
			struct step_result *res)
{
	const char *path = step_str(step, "path");
	const char *match = step_str(step, "match");
	const char *not_match = step_str(step, "not_match");
	bool content = match || not_match;
	uint64_t within_ms = (uint64_t)step_int(step, "within_ms", 0);
	uint64_t start = guestd_now_us(), deadline, now;
	char rerr[256], shown[WAIT_SHOW + 64];
	int last_err = 0;
	size_t len = 0;
	char *buf = NULL;
	regex_t re, not_re;
	struct stat st;

	if (match && util_regcomp(&re, match, rerr, sizeof(rerr)) < 0) {
		step_error(res, "bad regex '%s' in 'match': %s", match, rerr);
		return 0;
	}
	if (not_match &&
	    util_regcomp(&not_re, not_match, rerr, sizeof(rerr)) < 0) {
		step_error(res, "bad regex '%s' in 'not_match': %s", not_match,
			   rerr);
		if (match)
			regfree(&re);
		return 0;
	}
	deadline = start + within_ms * 1000;
	for (;;) {
		free(buf);
		buf = NULL;
		if (content) {
			last_err = -fileio_read(path, WAIT_READ_MAX, &buf, &len,
						NULL);
			if (last_err == 0 &&
			    (!match || regexec(&re, buf, 0, NULL, 0) == 0) &&
			    (!not_match ||
			     regexec(&not_re, buf, 0, NULL, 0) != 0))
				break;
		} else {
			last_err = stat(path, &st) < 0 ? errno : 0;
			if (last_err == 0)
				break;
		}
		now = guestd_now_us();
		if (now >= deadline) {
			res->verdict = VERDICT_FAIL;
			if (match && not_match)
				step_expected(res,
					      "'%s' matching '%s' and not '%s' "
					      "within %llu ms",
					      path, match, not_match,
					      (unsigned long long)within_ms);
			else if (match)
				step_expected(
					res,
					"'%s' matching '%s' within %llu ms",
					path, match,
					(unsigned long long)within_ms);
			else if (not_match)
				step_expected(res,
					      "'%s' not matching '%s' within "
					      "%llu ms",
					      path, not_match,
					      (unsigned long long)within_ms);
			else
				step_expected(res,
					      "'%s' to exist within %llu ms",
					      path,
					      (unsigned long long)within_ms);
			if (last_err) {
				step_got(res, "errno %s after %llu ms",
					 util_errno_desc(last_err),
					 (unsigned long long)(now - start) /
						 1000);
			} else {
				util_escape(shown, sizeof(shown), buf, len,
					    WAIT_SHOW);
				step_got(res, "content '%s' after %llu ms",
					 shown,
					 (unsigned long long)(now - start) /
						 1000);
			}
			snprintf(res->reason, sizeof(res->reason),
				 "waiting for '%s'", path);
			goto out;
		}
		step_msleep((deadline - now) / 1000 < WAIT_POLL_MS ?
				    (deadline - now + 999) / 1000 :
				    WAIT_POLL_MS);
	}
	res->verdict = VERDICT_PASS;
out:
	free(buf);
	if (match)
		regfree(&re);
	if (not_match)
		regfree(&not_re);
	return 0;
}

const struct step_ops step_wait_for = {
	.name = "wait_for",
	.run = wait_for_run,
};
