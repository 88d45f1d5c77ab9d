// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmsg_expect: a kernel log line matching a regex must appear (or, with
 * absent, must not) among the records logged since the previous step began
 * (since "step"), since the scenario began (since "scenario") or since
 * the kernel booted (since "boot": the whole log /dev/kmsg still holds,
 * read afresh, then what comes during the scenario), waiting up to
 * within_ms for it.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "guestd.h"

#define KMSG_POLL_MS 20
#define KMSG_SHOW 1536

static void wait_a_little(struct kmsg_log *log, uint64_t ms)
{
	struct pollfd pfd = { .fd = log->rd.fd, .events = POLLIN };

	if (ms > KMSG_POLL_MS)
		ms = KMSG_POLL_MS;
	/* poll() on a regular file returns at once: sleep instead. */
	if (log->rd.is_chr)
		poll(&pfd, 1, (int)ms);
	else
		step_msleep(ms);
}

/*
 * since "boot": the first record in the whole log at @path that matches
 * @re, its text into @buf; 1 found, 0 not, or -errno.
 */
static int boot_scan(const char *path, const regex_t *re, uint64_t *ret_seq,
		     char *buf, size_t len)
{
	struct kmsg_reader rd;
	struct kmsg_record rec;
	int r;

	r = kmsg_reader_open(&rd, path, false);
	if (r < 0)
		return r;
	while ((r = kmsg_reader_next(&rd, &rec)) > 0) {
		char msg[PROTO_TEXT_MAX];
		size_t n = rec.msg_len < sizeof(msg) - 1 ? rec.msg_len :
							   sizeof(msg) - 1;

		memcpy(msg, rec.msg, n);
		msg[n] = '\0';
		if (regexec(re, msg, 0, NULL, 0) == 0) {
			*ret_seq = rec.seq;
			util_escape(buf, len, msg, n, KMSG_SHOW);
			r = 1;
			break;
		}
	}
	kmsg_reader_close(&rd);
	return r;
}

static int kmsg_expect_run(struct step_ctx *ctx, struct json_object *step,
			   struct step_result *res)
{
	const char *match = step_str(step, "match");
	const char *since = step_str(step, "since");
	bool absent = step_bool(step, "absent", false);
	uint64_t within_ms = (uint64_t)step_int(step, "within_ms", 0);
	const struct kmsg_entry *e, *last;
	uint64_t start, now, mark;
	const char *since_text;
	char rerr[256], shown[KMSG_SHOW + 64];
	size_t scanned;
	regex_t re;
	int r;

	if (!since || strcmp(since, "step") == 0) {
		mark = ctx->prev_step_mark;
		since_text = ctx->step ? "since the previous step began" :
					 "since the scenario began";
	} else if (strcmp(since, "scenario") == 0) {
		mark = ctx->scenario_mark;
		since_text = "since the scenario began";
	} else if (strcmp(since, "boot") == 0) {
		mark = ctx->scenario_mark;
		since_text = "since boot";
	} else {
		step_error(
			res,
			"'since' must be 'step', 'scenario' or 'boot', not '%s'",
			since);
		return 0;
	}
	if (!ctx->kmsg) {
		step_error(res, "the kernel log '%s' could not be opened",
			   ctx->env->kmsg_path);
		return 0;
	}
	if (util_regcomp(&re, match, rerr, sizeof(rerr)) < 0) {
		step_error(res, "bad regex '%s' in 'match': %s", match, rerr);
		return 0;
	}

	if (strcmp(since_text, "since boot") == 0) {
		uint64_t seq = 0;

		r = boot_scan(ctx->env->kmsg_path ? ctx->env->kmsg_path :
						    "/dev/kmsg",
			      &re, &seq, shown, sizeof(shown));
		if (r < 0) {
			step_error(res, "reading the kernel log failed: %s",
				   util_errno_desc(-r));
			goto out;
		}
		if (r > 0 && !absent) {
			res->verdict = VERDICT_PASS;
			goto out;
		}
		if (r > 0) {
			res->verdict = VERDICT_FAIL;
			snprintf(res->reason, sizeof(res->reason),
				 "kernel log %s", since_text);
			step_expected(res,
				      "no kernel log line matching '%s' %s",
				      match, since_text);
			step_got(res, "record %llu: '%s'",
				 (unsigned long long)seq, shown);
			goto out;
		}
	}
	start = guestd_now_us();
	for (;;) {
		r = kmsg_log_drain(ctx->kmsg);
		if (r < 0) {
			step_error(res, "reading the kernel log failed: %s",
				   util_errno_desc(-r));
			goto out;
		}
		e = kmsg_log_find(ctx->kmsg, mark, &re, &scanned);
		now = guestd_now_us();
		if (e || now - start >= within_ms * 1000)
			break;
		wait_a_little(ctx->kmsg, within_ms - (now - start) / 1000);
	}

	if (!!e != absent) {
		res->verdict = VERDICT_PASS;
		goto out;
	}
	res->verdict = VERDICT_FAIL;
	snprintf(res->reason, sizeof(res->reason), "kernel log %s", since_text);
	if (absent) {
		step_expected(res, "no kernel log line matching '%s' %s", match,
			      since_text);
		util_escape(shown, sizeof(shown), e->msg, strlen(e->msg),
			    KMSG_SHOW);
		step_got(res, "record %llu: '%s'", (unsigned long long)e->seq,
			 shown);
		goto out;
	}
	step_expected(res, "a kernel log line matching '%s' %s%s", match,
		      since_text, within_ms ? " (waited)" : "");
	last = kmsg_log_last(ctx->kmsg, mark);
	if (!last) {
		step_got(res, "no kernel log records %s after %llu ms",
			 since_text, (unsigned long long)(now - start) / 1000);
		goto out;
	}
	util_escape(shown, sizeof(shown), last->msg, strlen(last->msg),
		    KMSG_SHOW);
	step_got(res, "no match in %zu records after %llu ms; the last: '%s'",
		 scanned, (unsigned long long)(now - start) / 1000, shown);
out:
	regfree(&re);
	return 0;
}

const struct step_ops step_kmsg_expect = {
	.name = "kmsg_expect",
	.run = kmsg_expect_run,
};
