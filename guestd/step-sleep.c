// SPDX-License-Identifier: GPL-2.0-only
/* sleep: pass after ms milliseconds. */
#include "guestd.h"

static int sleep_run(struct step_ctx *ctx, struct json_object *step,
		     struct step_result *res)
{
	step_msleep((uint64_t)step_int(step, "ms", 0));
	res->verdict = VERDICT_PASS;
	return 0;
}

const struct step_ops step_sleep = {
	.name = "sleep",
	.run = sleep_run,
};
