// SPDX-License-Identifier: GPL-2.0-only
/*
 * sample and delta: counting in a scenario. sample reads a number out of a
 * file (what the one capture group of a regex catches) and keeps it under a
 * name; a later delta reads the same file the same way and checks how much
 * the number moved since: exactly, at least and/or at most so much,
 * polling for up to within_ms until it holds. "ce_count went up by exactly
 * 1" is a sample before the injection and a delta of 1 after it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guestd.h"

#define SAMPLE_READ_MAX (1024 * 1024)
#define SAMPLE_POLL_MS 20
#define SAMPLE_SHOW 512

int sample_parse(const char *buf, const char *pattern, int64_t *ret, char *err,
		 size_t errlen)
{
	char rerr[256], num[64];
	regmatch_t m[2];
	long long v;
	size_t len;
	regex_t re;
	char *end;
	int r = -EINVAL;

	if (util_regcomp(&re, pattern, rerr, sizeof(rerr)) < 0) {
		snprintf(err, errlen, "bad regex '%s': %s", pattern, rerr);
		return -EINVAL;
	}
	if (re.re_nsub != 1) {
		snprintf(err, errlen,
			 "regex '%s' has %zu capture groups, not 1", pattern,
			 re.re_nsub);
		goto out;
	}
	if (regexec(&re, buf, 2, m, 0) != 0) {
		snprintf(err, errlen, "no line matches '%s'", pattern);
		r = -ENOENT;
		goto out;
	}
	len = m[1].rm_so < 0 ? 0 : (size_t)(m[1].rm_eo - m[1].rm_so);
	if (len == 0 || len >= sizeof(num)) {
		snprintf(err, errlen, "'%s' captured %s", pattern,
			 len ? "more than 63 bytes" : "nothing");
		goto out;
	}
	memcpy(num, buf + m[1].rm_so, len);
	num[len] = '\0';
	errno = 0;
	v = strtoll(num, &end, 0);
	if (errno || *end) {
		char shown[160];

		util_escape(shown, sizeof(shown), num, len, 64);
		snprintf(err, errlen, "'%s' captured '%s', not an integer",
			 pattern, shown);
		goto out;
	}
	*ret = v;
	r = 0;
out:
	regfree(&re);
	return r;
}

struct sample *sample_find(struct sample_set *set, const char *name)
{
	for (size_t i = 0; i < set->n; i++)
		if (strcmp(set->v[i].name, name) == 0)
			return &set->v[i];
	return NULL;
}

int sample_set_put(struct sample_set *set, const char *name, const char *path,
		   const char *match, int64_t value)
{
	struct sample *s = sample_find(set, name);
	char *p, *m;

	if (strlen(name) >= STEPSPEC_SAMPLE_NAME_MAX)
		return -ENAMETOOLONG;
	if (!s && set->n == STEPSPEC_SAMPLE_MAX)
		return -ENOSPC;
	p = strdup(path);
	m = strdup(match);
	if (!p || !m) {
		free(p);
		free(m);
		return -ENOMEM;
	}
	if (!s) {
		s = &set->v[set->n++];
		snprintf(s->name, sizeof(s->name), "%s", name);
	} else {
		free(s->path);
		free(s->match);
	}
	s->path = p;
	s->match = m;
	s->value = value;
	return 0;
}

void sample_set_free(struct sample_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->v[i].path);
		free(set->v[i].match);
	}
	set->n = 0;
}

bool delta_of(int64_t now, int64_t then, int64_t *ret)
{
	return !__builtin_sub_overflow(now, then, ret);
}

bool delta_holds(int64_t delta, const struct delta_bounds *b)
{
	if (b->has_equals && delta != b->equals)
		return false;
	if (b->has_at_least && delta < b->at_least)
		return false;
	if (b->has_at_most && delta > b->at_most)
		return false;
	return true;
}

void delta_describe(const struct delta_bounds *b, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	if (b->has_equals)
		len += (size_t)snprintf(buf, size, "exactly %" PRId64,
					b->equals);
	if (b->has_at_least && len < size)
		len += (size_t)snprintf(buf + len, size - len,
					"%sat least %" PRId64, len ? ", " : "",
					b->at_least);
	if (b->has_at_most && len < size)
		snprintf(buf + len, size - len, "%sat most %" PRId64,
			 len ? ", " : "", b->at_most);
}

/* Read @path and parse it with @match; on failure describe it in @res. */
static int sample_read(const char *path, const char *match, int64_t *ret,
		       char *err, size_t errlen)
{
	char *buf = NULL, shown[SAMPLE_SHOW + 64], why[256];
	size_t len;
	int r;

	r = fileio_read(path, SAMPLE_READ_MAX, &buf, &len, NULL);
	if (r < 0) {
		snprintf(err, errlen, "errno %s from reading '%s'",
			 util_errno_desc(-r), path);
		return r;
	}
	r = sample_parse(buf, match, ret, why, sizeof(why));
	if (r < 0) {
		util_escape(shown, sizeof(shown), buf, len, SAMPLE_SHOW);
		util_fmt(err, errlen, "%s in '%s'", why, shown);
	}
	free(buf);
	return r;
}

static int sample_run(struct step_ctx *ctx, struct json_object *step,
		      struct step_result *res)
{
	const char *name = step_str(step, "as");
	const char *path = step_str(step, "path");
	const char *match = step_str(step, "match");
	char err[PROTO_TEXT_MAX];
	int64_t v;
	int r;

	if (!ctx->samples) {
		step_error(res, "this scenario has no sample store");
		return 0;
	}
	snprintf(res->reason, sizeof(res->reason), "sampling '%s' from '%s'",
		 name, path);
	r = sample_read(path, match, &v, err, sizeof(err));
	if (r < 0) {
		res->verdict = VERDICT_FAIL;
		step_expected(res, "an integer captured by '%s'", match);
		step_got(res, "%s", err);
		return 0;
	}
	r = sample_set_put(ctx->samples, name, path, match, v);
	if (r < 0) {
		step_error(res, "cannot keep sample '%s': %s", name,
			   util_errno_desc(-r));
		return 0;
	}
	res->verdict = VERDICT_PASS;
	res->reason[0] = '\0';
	return 0;
}

static int delta_run(struct step_ctx *ctx, struct json_object *step,
		     struct step_result *res)
{
	const char *name = step_str(step, "of");
	uint64_t within_ms = (uint64_t)step_int(step, "within_ms", 0);
	uint64_t start = guestd_now_us(), deadline = start + within_ms * 1000;
	struct delta_bounds b = { 0 };
	char want[160], err[PROTO_TEXT_MAX];
	const struct sample *s;
	int64_t v = 0, d = 0;
	bool fits = true;
	int r;

	b.has_equals = json_object_object_get_ex(step, "equals", NULL);
	b.equals = step_int(step, "equals", 0);
	b.has_at_least = json_object_object_get_ex(step, "at_least", NULL);
	b.at_least = step_int(step, "at_least", 0);
	b.has_at_most = json_object_object_get_ex(step, "at_most", NULL);
	b.at_most = step_int(step, "at_most", 0);
	if (!b.has_equals && !b.has_at_least && !b.has_at_most) {
		step_error(res,
			   "delta needs 'equals', 'at_least' or 'at_most'");
		return 0;
	}
	s = ctx->samples ? sample_find(ctx->samples, name) : NULL;
	if (!s) {
		step_error(res, "no sample named '%s' was taken before", name);
		return 0;
	}
	delta_describe(&b, want, sizeof(want));
	for (;;) {
		r = sample_read(s->path, s->match, &v, err, sizeof(err));
		if (r == 0)
			fits = delta_of(v, s->value, &d);
		if (r == 0 && fits && delta_holds(d, &b)) {
			/* Say what was counted, as the mtd steps do. */
			res->verdict = VERDICT_PASS;
			step_got(res,
				 "%+" PRId64 " (from %" PRId64 " to %" PRId64
				 ")",
				 d, s->value, v);
			return 0;
		}
		if (guestd_now_us() >= deadline)
			break;
		step_msleep(SAMPLE_POLL_MS);
	}
	res->verdict = VERDICT_FAIL;
	snprintf(res->reason, sizeof(res->reason), "change of '%s' in '%s'",
		 name, s->path);
	if (within_ms)
		step_expected(res, "a change of %s within %" PRIu64 " ms", want,
			      within_ms);
	else
		step_expected(res, "a change of %s", want);
	if (r < 0)
		step_got(res, "%s", err);
	else if (!fits)
		step_got(res,
			 "a change too large for 64 bits (from %" PRId64
			 " to %" PRId64 ")",
			 s->value, v);
	else
		step_got(res, "%+" PRId64 " (from %" PRId64 " to %" PRId64 ")",
			 d, s->value, v);
	return 0;
}

const struct step_ops step_sample = {
	.name = "sample",
	.run = sample_run,
};

const struct step_ops step_delta = {
	.name = "delta",
	.run = delta_run,
};
