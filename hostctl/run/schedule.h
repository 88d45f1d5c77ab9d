/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which scenario a free lane of hostctl run -j N takes next: the longest
 * first (by the duration an earlier run recorded), never one that needs an
 * exclusive resource a running scenario holds. With one lane the
 * selection's own order stays. Pure: the runner (runner.c) asks, and says
 * when a scenario starts and ends; the unit test drives it directly.
 */
#ifndef VLALAB_SCHEDULE_H
#define VLALAB_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct scenario;

/* A scenario no earlier run timed counts as this long, in ms, per boot. */
#define SCHED_UNKNOWN_MS 10000
/*
 * What a scenario on the cloud image costs its lane beyond the duration a
 * run records for it: its VM's first boot, cloud-init's, which is no
 * restore and which the recorded duration (its steps') leaves out; about
 * 70 s of guest time under TCG (docs/performance.md, "The local cloud
 * image"), 84 s in a loaded run all.
 */
#define SCHED_CLOUD_BOOT_MS 60000
/*
 * What a lane pays when the next scenario runs on another kind of VM than
 * the one it has: a fresh VM, restored (387 ms from one scenario's end to
 * the next one's start at -j 1, docs/performance.md) while the other lanes
 * load the cores, and its guest's first moments. A scenario on the lane's
 * own kind of VM counts this much longer (sched_next()).
 */
#define SCHED_SWITCH_MS 1000
/* The most lanes hostctl run -j takes. */
#define SCHED_LANES_MAX 16

enum sched_state { SCHED_PENDING, SCHED_RUNNING, SCHED_DONE };

struct sched_item {
	uint64_t expect_ms; /* sched_expect()'s; 0: SCHED_UNKNOWN_MS */
	/* An exclusive resource it needs (its disk image), or NULL. */
	const char *resource;
	/* The kind of shared VM it runs on (sched_vm()); 0: VMs of its own,
	 * or a fresh one it asks for. */
	unsigned int vm;
	enum sched_state state;
	bool retried; /* sched_retry() put it back once */
};

struct sched {
	struct sched_item *v;
	size_t n;
	bool longest_first; /* false: the selection's order */
};

/*
 * How long scenario @s keeps a lane busy, in ms, for the longest first:
 * @recorded_ms, the duration an earlier run recorded (0: none did, then
 * SCHED_UNKNOWN_MS for each of its boots), and, on the cloud image in a
 * run whose VMs boot the initramfs (@all_cloud false), the first boot of
 * its VM that the recorded duration leaves out.
 */
uint64_t sched_expect(const struct scenario *s, uint64_t recorded_ms,
		      bool all_cloud);

/*
 * The kind of shared VM a scenario runs on, or a lane has: on the cloud
 * image or the initramfs, with a NIC or without. Never 0.
 */
static inline unsigned int sched_vm(bool cloud, bool nic)
{
	return 1 + (cloud ? 1 : 0) + (nic ? 2 : 0);
}

/* sched_next()'s answers besides an index. */
#define SCHED_NONE ((size_t)-1) /* nothing is pending any more */
#define SCHED_WAIT ((size_t)-2) /* all pending ones wait for a resource */

/*
 * The scenario a free lane takes next, now marked running: the pending
 * one that runs longest (the earliest in the selection among equals), one
 * on the lane's kind of VM @vm (sched_vm(); 0: it has none) counting
 * SCHED_SWITCH_MS longer, or the first pending one without longest_first,
 * among those whose resource no running scenario holds. SCHED_WAIT when
 * each pending one waits for a resource, SCHED_NONE when none is pending.
 */
size_t sched_next(struct sched *s, unsigned int vm);

/* Whether any scenario is pending still. */
bool sched_pending(const struct sched *s);

/* Scenario @i ended: its resource is free again. */
void sched_done(struct sched *s, size_t i);

/* Whether any scenario is running still. */
bool sched_running(const struct sched *s);

/*
 * Scenario @i ran on a host that failed under it: pending again, for
 * another lane, once. False (and it stays running) when it was retried
 * already: the caller decides it.
 */
bool sched_retry(struct sched *s, size_t i);

/*
 * How many lanes the host holds by default: its CPUs, and its available
 * memory (@avail_mib) against each VM's (@vm_mib, QEMU's own overhead
 * included), at least 1 and at most SCHED_LANES_MAX.
 */
unsigned int sched_default_lanes(long cpus, uint64_t avail_mib,
				 uint64_t vm_mib);

#endif
