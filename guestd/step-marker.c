// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker: "set" writes a random token and the current CLOCK_MONOTONIC
 * uptime to /run/vlalab-marker (tmpfs, so guest memory) and reports the
 * token; "check" reads it back. After a resume from hibernation the same
 * token is there and the uptime has gone on from where it was; after a
 * fresh boot there is none. hostctl compares the tokens across boots.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "guestd.h"

static uint64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int marker_set(const char *path, struct step_result *res)
{
	uint64_t token, now = mono_ms();
	FILE *f;

	if (getrandom(&token, sizeof(token), GRND_NONBLOCK) !=
	    (ssize_t)sizeof(token))
		token = guestd_now_us() * 6364136223846793005ULL ^ getpid();
	f = fopen(path, "we");
	if (!f)
		return -errno;
	fprintf(f, "%016" PRIx64 " %" PRIu64 "\n", token, now);
	if (fclose(f) != 0)
		return -errno;
	res->verdict = VERDICT_PASS;
	step_got(res, "token %016" PRIx64 " at uptime %" PRIu64 " ms", token,
		 now);
	return 0;
}

static int marker_check(const char *path, const char *expect,
			struct step_result *res)
{
	bool want = !expect || strcmp(expect, "absent") != 0;
	uint64_t now = mono_ms(), at;
	char token[17];
	size_t len;
	char *text;
	int r;

	r = fileio_read(path, 256, &text, &len, NULL);
	if (r == -ENOENT) {
		res->verdict = want ? VERDICT_FAIL : VERDICT_PASS;
		step_got(res, "no marker");
		if (want) {
			step_expected(res, "a marker");
			snprintf(res->reason, sizeof(res->reason),
				 "reading '%s'", path);
		}
		return 0;
	}
	if (r < 0)
		return r;
	if (sscanf(text, "%16[0-9a-f] %" SCNu64, token, &at) != 2 ||
	    strlen(token) != 16) {
		free(text);
		step_error(res, "'%s' does not hold a marker", path);
		return 0;
	}
	free(text);
	step_got(res,
		 "token %s, set at uptime %" PRIu64 " ms, now %" PRIu64 " ms",
		 token, at, now);
	if (!want || now < at)
		snprintf(res->reason, sizeof(res->reason), "reading '%s'",
			 path);
	if (!want) {
		res->verdict = VERDICT_FAIL;
		step_expected(res, "no marker");
	} else if (now < at) {
		res->verdict = VERDICT_FAIL;
		step_expected(res, "uptime at least %" PRIu64 " ms", at);
	} else {
		res->verdict = VERDICT_PASS;
	}
	return 0;
}

static int marker_run(struct step_ctx *ctx, struct json_object *step,
		      struct step_result *res)
{
	const char *action = step_str(step, "action");
	const char *expect = step_str(step, "expect");
	const char *dir = ctx->env->run_dir ? ctx->env->run_dir : "/run";
	char path[512];

	snprintf(path, sizeof(path), "%s/vlalab-marker", dir);
	if (expect && strcmp(expect, "present") != 0 &&
	    strcmp(expect, "absent") != 0) {
		step_error(res, "expect '%s' is not present or absent", expect);
		return 0;
	}
	if (strcmp(action, "set") == 0) {
		if (expect) {
			step_error(res, "'expect' goes with action 'check'");
			return 0;
		}
		return marker_set(path, res);
	}
	if (strcmp(action, "check") == 0)
		return marker_check(path, expect, res);
	step_error(res, "action '%s' is not set or check", action);
	return 0;
}

const struct step_ops step_marker = {
	.name = "marker",
	.run = marker_run,
};
