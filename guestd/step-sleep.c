// SPDX-License-Identifier: GPL-2.0-only
/* sleep: pass after ms milliseconds. */
#include "guestd.h"

static const struct step_key sleep_keys[] = {
	{ "ms", KEY_INT, true },
	{ NULL },
};

static int sleep_run(struct step_ctx *ctx, struct json_object *step,
		     struct step_result *res)
{
	step_msleep((uint64_t)step_int(step, "ms", 0));
	res->verdict = VERDICT_PASS;
	return 0;
}

const struct step_ops step_sleep = {
	.name = "sleep",
	.keys = sleep_keys,
	.run = sleep_run,
};
