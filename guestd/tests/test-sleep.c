// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sleep step waits for the kernel's jiffies as well as for
 * CLOCK_MONOTONIC: a tick source that loses two ticks of three stands for
 * a vCPU the host starves (step-sleep.c).
 */
#include <json-c/json.h>
#include <string.h>

#include "guestd.h"
#include "tap.h"

static uint64_t lag_base_us;

/* Jiffies of a starved vCPU: 100 Hz ticks, two of three lost. */
static uint64_t lagging_ticks(void)
{
	return (guestd_now_us() - lag_base_us) / 30000;
}

int main(void)
{
	struct step_ctx ctx = { 0 };
	struct step_result res = { .verdict = VERDICT_CRASH };
	struct json_object *step = json_tokener_parse("{\"kind\":\"sleep\",\"ms\":30}");
	char err[256];
	uint64_t t0, ms;

	lag_base_us = guestd_now_us();
	step_sleep_ticks = lagging_ticks;
	step_sleep_hz = 100;
	ok(step && step_check(step_table, step, err, sizeof(err)) == 0,
	   "the sleep step is valid");
	t0 = guestd_now_us();
	step_find(step_table, "sleep")->run(&ctx, step, &res);
	ms = (guestd_now_us() - t0) / 1000;
	is_int(res.verdict, VERDICT_PASS, "sleep with lagging jiffies passes");
	okf(ms >= 90 && ms < 600,
	    "after 30 ms of jiffies too, not of CLOCK_MONOTONIC alone (%llu ms)",
	    (unsigned long long)ms);
	ok(lagging_ticks() >= 3, "the jiffies advanced by 3 ticks");
	json_object_put(step);
	return tap_done();
}
