// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/schedule.c: the longest first, the selection's order
 * with one lane, and never two running scenarios with one exclusive
 * resource, checked over every step of a simulated run of two lanes;
 * the retry once of a scenario whose host failed; a lane kept on its kind
 * of VM; the default lane count from CPUs and memory; what a scenario is
 * expected to cost its lane.
 */
#include <stdio.h>
#include <string.h>

#include "run/schedule.h"
#include "scenario/scenario.h"
#include "tap.h"

static void test_order(void)
{
	struct sched_item v[] = {
		{ .expect_ms = 2000 },
		{ .expect_ms = 0 },
		{ .expect_ms = 30000 },
		{ .expect_ms = 30000 },
	};
	struct sched s = { .v = v, .n = 4, .longest_first = true };

	ok(sched_pending(&s), "pending");
	is_int(sched_next(&s, 0), 2, "the longest first");
	is_int(sched_next(&s, 0), 3, "equals in the selection's order");
	is_int(sched_next(&s, 0), 1, "an unknown one counts as 10 s");
	is_int(sched_next(&s, 0), 0, "then the shortest");
	ok(sched_next(&s, 0) == SCHED_NONE, "running ones are no pending ones");
	ok(!sched_pending(&s), "none pending");
	for (size_t i = 0; i < 4; i++)
		sched_done(&s, i);
	ok(sched_next(&s, 0) == SCHED_NONE, "then none");

	for (size_t i = 0; i < 4; i++)
		v[i].state = SCHED_PENDING;
	s.longest_first = false;
	is_int(sched_next(&s, 0), 0, "one lane: the selection's order");
	is_int(sched_next(&s, 0), 1, "...and on");
}

/*
 * Two lanes over four scenarios, three of them on one disk: at every
 * step at most one of those runs, a lane waits rather than take a second,
 * and every scenario runs once.
 */
static void test_exclusive(void)
{
	struct sched_item v[] = {
		{ .expect_ms = 9000, .resource = "disk-a" },
		{ .expect_ms = 8000, .resource = "disk-a" },
		{ .expect_ms = 7000, .resource = "disk-b" },
		{ .expect_ms = 6000, .resource = "disk-a" },
	};
	struct sched s = { .v = v, .n = 4, .longest_first = true };
	size_t lane[2] = { SCHED_NONE, SCHED_NONE }, runs[4] = { 0 };
	bool both = true, waited = false;

	for (int step = 0; step < 40; step++) {
		size_t on_a = 0;

		/* Each step the lane that started first ends its scenario. */
		for (int l = 0; l < 2; l++) {
			if (lane[l] != SCHED_NONE && lane[l] != SCHED_WAIT)
				continue;
			lane[l] = sched_next(&s, 0);
			if (lane[l] == SCHED_WAIT)
				waited = true;
			else if (lane[l] != SCHED_NONE)
				runs[lane[l]]++;
		}
		for (size_t i = 0; i < 4; i++)
			on_a += v[i].state == SCHED_RUNNING && v[i].resource &&
				!strcmp(v[i].resource, "disk-a");
		if (on_a > 1)
			both = false;
		if (lane[step % 2] < 4) {
			sched_done(&s, lane[step % 2]);
			lane[step % 2] = SCHED_NONE;
		}
	}
	ok(both, "never two scenarios on disk-a at once");
	ok(waited, "a lane waited for disk-a rather than take it");
	for (size_t i = 0; i < 4; i++)
		okf(runs[i] == 1, "scenario %zu ran once", i);
}

/* A host fails under two running scenarios: each runs again once. */
static void test_retry(void)
{
	struct sched_item v[3] = { { .expect_ms = 3 }, { .expect_ms = 2 },
				   { .expect_ms = 1 } };
	struct sched s = { .v = v, .n = 3, .longest_first = true };

	is_int(sched_next(&s, 0), 0, "lane on host A takes 0");
	is_int(sched_next(&s, 0), 1, "lane on host B takes 1");
	ok(sched_running(&s), "two running");
	ok(sched_retry(&s, 1), "host B failed under 1: it goes back");
	ok(sched_pending(&s) && v[1].state == SCHED_PENDING, "1 is pending");
	is_int(sched_next(&s, 0), 1, "host A's next lane takes 1 again");
	ok(!sched_retry(&s, 1), "only once: the caller decides it");
	is_int(v[1].state, SCHED_RUNNING, "...and it stays running meanwhile");
	sched_done(&s, 1);
	sched_done(&s, 0);
	ok(!sched_running(&s), "none running");
	is_int(sched_next(&s, 0), 2, "the last one");
	sched_done(&s, 2);
	ok(sched_next(&s, 0) == SCHED_NONE && !sched_running(&s), "all done");
	ok(!sched_retry(&s, 7), "out of range: no");
}

/*
 * A scenario's cost to its lane: its recorded duration, and the first
 * boot of a cloud VM that the duration leaves out; with none recorded, a
 * guess per boot.
 */
static void test_expect(void)
{
	struct scenario shared = { 0 }, cloud = { .cloud = true };
	struct scenario boots = { .nboots = 2 };
	struct sched_item v[3];
	struct sched s = { .v = v, .n = 3, .longest_first = true };

	is_int(sched_expect(&shared, 4301, false), 4301, "recorded: as is");
	is_int(sched_expect(&shared, 0, false), SCHED_UNKNOWN_MS,
	       "none recorded: the guess");
	is_int(sched_expect(&boots, 0, false), 2 * SCHED_UNKNOWN_MS,
	       "none recorded: the guess for each boot");
	is_int(sched_expect(&boots, 34096, false), 34096,
	       "recorded with its boots: as is");
	is_int(sched_expect(&cloud, 4301, false), 4301 + SCHED_CLOUD_BOOT_MS,
	       "on the cloud image: its VM's first boot on top");
	is_int(sched_expect(&cloud, 4301, true), 4301,
	       "every VM on the cloud image: no boot of its own");

	/*
	 * As in a stored run all: a cloud scenario whose steps took 4.3 s
	 * comes before one of 30 s and one of 10 s, not last.
	 */
	memset(v, 0, sizeof(v));
	v[0].expect_ms = sched_expect(&shared, 30000, false);
	v[1].expect_ms = sched_expect(&shared, 10000, false);
	v[2].expect_ms = sched_expect(&cloud, 4301, false);
	is_int(sched_next(&s, 0), 2, "the cloud scenario first");
	is_int(sched_next(&s, 0), 0, "then the longest of the rest");
}

/*
 * As in the bench's subset: a lane with a NIC VM (dsa) takes the next
 * dsa scenario rather than a bch one a little longer, which would cost
 * it a fresh VM, and so does a lane without one; a scenario longer by
 * more than a fresh VM still comes first, and a lane with no VM (after
 * a crash) takes the longest.
 */
static void test_vm(void)
{
	unsigned int nic = sched_vm(false, true), bare = sched_vm(false, false);
	struct sched_item v[] = {
		{ .expect_ms = 400, .vm = bare }, /* bch/flips-t4 */
		{ .expect_ms = 300, .vm = nic }, /* dsa/vlan-delete */
		{ .expect_ms = 450, .vm = bare }, /* bch/ecc-strength */
		{ .expect_ms = 250, .vm = nic }, /* dsa/load */
		{ .expect_ms = 4000, .vm = bare }, /* bch/random-bitflips */
		{ .expect_ms = 5000 }, /* hibernate/no-swap: VMs of its own */
	};
	struct sched s = { .v = v, .n = 6, .longest_first = true };

	ok(nic && bare && nic != bare && sched_vm(true, false) != bare,
	   "four kinds of shared VM, none 0");
	is_int(sched_next(&s, 0), 5, "no VM: the longest");
	is_int(sched_next(&s, nic), 4,
	       "a NIC VM: longer by more than a fresh VM comes first");
	is_int(sched_next(&s, nic), 1, "then its own kind before a bch one");
	is_int(sched_next(&s, bare), 2, "a bare VM: a bch one");
	is_int(sched_next(&s, nic), 3, "the NIC lane: dsa again");
	is_int(sched_next(&s, nic), 0, "...and what is left");
}

static void test_lanes(void)
{
	is_int(sched_default_lanes(2, 16000, 768), 2, "2 CPUs, memory enough");
	is_int(sched_default_lanes(8, 2000, 768), 2, "memory for two VMs");
	is_int(sched_default_lanes(4, 500, 768), 1, "at least one");
	is_int(sched_default_lanes(-1, 500, 0), 1, "CPUs unknown: one");
	is_int(sched_default_lanes(64, 1 << 20, 768), SCHED_LANES_MAX,
	       "at most SCHED_LANES_MAX");
}

int main(void)
{
	test_order();
	test_exclusive();
	test_retry();
	test_expect();
	test_vm();
	test_lanes();
	return tap_done();
}
