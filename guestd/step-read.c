// SPDX-License-Identifier: GPL-2.0-only
/*
 * read: the whole file (up to STEPSPEC_READ_MAX), compared exactly (one
 * trailing newline ignored) and/or against a regex that must or must not
 * match, and/or its exact length in bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guestd.h"

/* How much of a file a failure shows. */
#define READ_SHOW 1536

static size_t strip_newline(const char *s, size_t len)
{
	return len > 0 && s[len - 1] == '\n' ? len - 1 : len;
}

static void got_content(struct step_result *res, const char *buf, size_t len,
			bool truncated)
{
	char shown[READ_SHOW + 64];

	util_escape(shown, sizeof(shown), buf, len, READ_SHOW);
	step_got(res, "content '%s'%s", shown,
		 truncated ? " (file longer than 1 MiB)" : "");
}

/* The line around match @m, for "must not match" failures. */
static void got_line(struct step_result *res, const char *buf,
		     const regmatch_t *m)
{
	const char *start = buf + m->rm_so, *end;
	char shown[READ_SHOW + 64];
	unsigned int lineno = 1;

	while (start > buf && start[-1] != '\n')
		start--;
	end = strchr(buf + m->rm_eo, '\n');
	if (!end)
		end = buf + strlen(buf);
	for (const char *p = buf; p < start; p++)
		lineno += *p == '\n';
	util_escape(shown, sizeof(shown), start, (size_t)(end - start),
		    READ_SHOW);
	step_got(res, "line %u matches: '%s'", lineno, shown);
}

static int read_run(struct step_ctx *ctx, struct json_object *step,
		    struct step_result *res)
{
	const char *path = step_str(step, "path");
	const char *equals = step_str(step, "equals");
	const char *match = step_str(step, "match");
	const char *not_match = step_str(step, "not_match");
	bool has_length = json_object_object_get_ex(step, "length", NULL);
	int64_t length = step_int(step, "length", 0);
	regex_t re_match, re_not;
	bool have_match = false, have_not = false, truncated;
	char rerr[256], shown[READ_SHOW + 64];
	regmatch_t m;
	char *buf = NULL;
	size_t len;
	int r;

	if (!equals && !match && !not_match && !has_length) {
		step_error(
			res,
			"read needs 'equals', 'match', 'not_match' or 'length'");
		return 0;
	}
	if (match && util_regcomp(&re_match, match, rerr, sizeof(rerr)) < 0) {
		step_error(res, "bad regex '%s' in 'match': %s", match, rerr);
		goto out;
	}
	have_match = match != NULL;
	if (not_match &&
	    util_regcomp(&re_not, not_match, rerr, sizeof(rerr)) < 0) {
		step_error(res, "bad regex '%s' in 'not_match': %s", not_match,
			   rerr);
		goto out;
	}
	have_not = not_match != NULL;

	res->verdict = VERDICT_FAIL;
	snprintf(res->reason, sizeof(res->reason), "reading '%s'", path);
	if (equals) {
		util_escape(shown, sizeof(shown), equals, strlen(equals),
			    READ_SHOW);
		step_expected(res, "content '%s'", shown);
	} else if (match) {
		step_expected(res, "a line matching '%s'", match);
	} else if (not_match) {
		step_expected(res, "no line matching '%s'", not_match);
	} else {
		step_expected(res, "%lld bytes", (long long)length);
	}

	r = fileio_read(path, STEPSPEC_READ_MAX, &buf, &len, &truncated);
	if (r < 0) {
		step_got(res, "errno %s from reading '%s' (%s)",
			 proto_errno_name(-r), path, strerror(-r));
		goto out;
	}
	if (equals &&
	    (strip_newline(buf, len) != strip_newline(equals, strlen(equals)) ||
	     memcmp(buf, equals, strip_newline(buf, len)) != 0)) {
		got_content(res, buf, len, truncated);
		goto out;
	}
	if (match && regexec(&re_match, buf, 0, NULL, 0) != 0) {
		step_expected(res, "a line matching '%s'", match);
		got_content(res, buf, len, truncated);
		goto out;
	}
	if (not_match && regexec(&re_not, buf, 1, &m, 0) == 0) {
		step_expected(res, "no line matching '%s'", not_match);
		got_line(res, buf, &m);
		goto out;
	}
	if (has_length && (truncated || (int64_t)len != length)) {
		step_expected(res, "%lld bytes", (long long)length);
		util_escape(shown, sizeof(shown), buf, len, READ_SHOW);
		step_got(res, "%zu%s bytes: '%s'", len, truncated ? "+" : "",
			 shown);
		goto out;
	}
	res->verdict = VERDICT_PASS;
	res->expected[0] = res->got[0] = res->reason[0] = '\0';
out:
	if (have_match)
		regfree(&re_match);
	if (have_not)
		regfree(&re_not);
	free(buf);
	return 0;
}

const struct step_ops step_read = {
	.name = "read",
	.run = read_run,
};
