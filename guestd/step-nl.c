// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the netlink steps share: interface lookup and judging the kernel's
 * answer against expect_errno and expect_extack.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "guestd.h"
#include "nl.h"

int nl_step_ifindex(struct step_result *res, struct json_object *step,
		    const char *what, const char *name, int *ret)
{
	struct nl_ack ack = { 0 };
	char where[64];
	int r = nl_if_index(name, ret);

	if (r == 0)
		return 0;
	/* The kernel would say ENODEV too: a step may expect it. */
	ack.err = -r;
	snprintf(where, sizeof(where), "SIOCGIFINDEX('%.16s')", name);
	nl_step_judge(res, step, where, what, 0, &ack);
	return -ENODEV;
}

int nl_step_judge(struct step_result *res, struct json_object *step,
		  const char *where, const char *what, int r,
		  const struct nl_ack *ack)
{
	const char *expect = step_str(step, "expect_errno");
	const char *pattern = step_str(step, "expect_extack");
	bool errno_ok, extack_ok = true;
	char rerr[256];
	regex_t re;
	int want = 0;

	if (expect && proto_errno_parse(expect, &want) < 0) {
		step_error(res, "unknown errno name '%s'", expect);
		return 0;
	}
	if (r < 0) {
		step_error(res, "%s: %s over netlink: %s", what, where,
			   util_errno_desc(-r));
		return 0;
	}
	if (pattern) {
		if (util_regcomp(&re, pattern, rerr, sizeof(rerr)) < 0) {
			step_error(res, "expect_extack: %s", rerr);
			return 0;
		}
		extack_ok = regexec(&re, ack->extack, 0, NULL, 0) == 0;
		regfree(&re);
	}
	errno_ok = want ? ack->err == want : ack->err == 0;
	if (errno_ok && extack_ok) {
		res->verdict = VERDICT_PASS;
		return 0;
	}
	if (!step_errno_mismatch(res, want, ack->err, where))
		step_got(res, "success");
	if (pattern) {
		char exp[PROTO_TEXT_MAX];

		snprintf(exp, sizeof(exp), "%s", res->expected);
		step_expected(res, "%s with extack matching '%s'", exp,
			      pattern);
	}
	if (ack->extack[0] || pattern) {
		char got[PROTO_TEXT_MAX];

		snprintf(got, sizeof(got), "%s", res->got);
		step_got(res, "%s, extack '%s'", got, ack->extack);
	}
	snprintf(res->reason, sizeof(res->reason), "%s", what);
	return 0;
}
