// SPDX-License-Identifier: GPL-2.0-only
/*
 * The lanes' scheduler (schedule.h): longest first, an exclusive resource
 * held by one running scenario at a time.
 */
#include <string.h>

#include "run/schedule.h"
#include "scenario/scenario.h"

static uint64_t expected(const struct sched_item *it)
{
	return it->expect_ms ? it->expect_ms : SCHED_UNKNOWN_MS;
}

uint64_t sched_expect(const struct scenario *s, uint64_t recorded_ms,
		      bool all_cloud)
{
	uint64_t ms = recorded_ms;

	if (!ms)
		ms = SCHED_UNKNOWN_MS * (s->nboots ? s->nboots : 1);
	if (s->cloud && !s->nboots && !all_cloud)
		ms += SCHED_CLOUD_BOOT_MS;
	return ms;
}

/* Whether a running scenario holds @res. */
static bool held(const struct sched *s, const char *res)
{
	for (size_t i = 0; res && i < s->n; i++)
		if (s->v[i].state == SCHED_RUNNING && s->v[i].resource &&
		    !strcmp(s->v[i].resource, res))
			return true;
	return false;
}

/*
 * What ranks @it for a lane with a VM of kind @vm: its expected duration,
 * SCHED_SWITCH_MS more on the lane's kind (the others would cost it a
 * fresh VM).
 */
static uint64_t rank(const struct sched_item *it, unsigned int vm)
{
	return expected(it) + (vm && it->vm == vm ? SCHED_SWITCH_MS : 0);
}

size_t sched_next(struct sched *s, unsigned int vm)
{
	size_t pick = SCHED_NONE;
	bool pending = false;

	for (size_t i = 0; i < s->n; i++) {
		const struct sched_item *it = &s->v[i];

		if (it->state != SCHED_PENDING)
			continue;
		pending = true;
		if (held(s, it->resource))
			continue;
		if (pick == SCHED_NONE) {
			pick = i;
			if (!s->longest_first)
				break;
		} else if (rank(it, vm) > rank(&s->v[pick], vm)) {
			pick = i;
		}
	}
	if (pick == SCHED_NONE)
		return pending ? SCHED_WAIT : SCHED_NONE;
	s->v[pick].state = SCHED_RUNNING;
	return pick;
}

bool sched_pending(const struct sched *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].state == SCHED_PENDING)
			return true;
	return false;
}

void sched_done(struct sched *s, size_t i)
{
	if (i < s->n)
		s->v[i].state = SCHED_DONE;
}

bool sched_running(const struct sched *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].state == SCHED_RUNNING)
			return true;
	return false;
}

bool sched_retry(struct sched *s, size_t i)
{
	if (i >= s->n || s->v[i].retried)
		return false;
	s->v[i].retried = true;
	s->v[i].state = SCHED_PENDING;
	return true;
}

unsigned int sched_default_lanes(long cpus, uint64_t avail_mib, uint64_t vm_mib)
{
	uint64_t n = cpus > 0 ? (uint64_t)cpus : 1;

	if (vm_mib && avail_mib / vm_mib < n)
		n = avail_mib / vm_mib;
	if (n < 1)
		n = 1;
	return n > SCHED_LANES_MAX ? SCHED_LANES_MAX : (unsigned int)n;
}
