// SPDX-License-Identifier: GPL-2.0-only
/*
 * sleep: pass after ms milliseconds of both the guest's clocks: its
 * CLOCK_MONOTONIC and its kernel's jiffies, which times() returns in
 * USER_HZ units.
 *
 * The kernel measures ages in jiffies (kmemleak's 5 s minimum age,
 * timers, delayed work). With CONFIG_HZ_PERIODIC, jiffies count tick
 * interrupts, and when the host starves QEMU's vCPU the missed ticks are
 * not replayed: under host load 17, 6 s of CLOCK_MONOTONIC were less
 * than 5 s of jiffies and edac/kmemleak-finds-leaks found no leak old
 * enough to report. So the step waits until the jiffies have advanced
 * by ms too; on an idle host both clocks agree and it returns as before.
 */
#include <sys/times.h>
#include <unistd.h>

#include "guestd.h"

static uint64_t ticks_times(void)
{
	struct tms t;

	return (uint64_t)(unsigned long)times(&t);
}

uint64_t (*step_sleep_ticks)(void) = ticks_times;
long step_sleep_hz;

/* The ticks of @hz per second in @ms, rounded up. */
static uint64_t ms_to_ticks(uint64_t ms, uint64_t hz)
{
	return (ms * hz + 999) / 1000;
}

static int sleep_run(struct step_ctx *ctx, struct json_object *step,
		     struct step_result *res)
{
	uint64_t ms = (uint64_t)step_int(step, "ms", 0);
	long hz = step_sleep_hz > 0 ? step_sleep_hz : sysconf(_SC_CLK_TCK);
	uint64_t start = step_sleep_ticks(), need, got;

	(void)ctx;
	step_msleep(ms);
	if (hz > 0) {
		need = ms_to_ticks(ms, (uint64_t)hz);
		/* The step's timeout bounds this wait. */
		while ((got = step_sleep_ticks() - start) < need)
			step_msleep((need - got) * 1000 / (uint64_t)hz + 1);
	}
	res->verdict = VERDICT_PASS;
	return 0;
}

const struct step_ops step_sleep = {
	.name = "sleep",
	.run = sleep_run,
};
