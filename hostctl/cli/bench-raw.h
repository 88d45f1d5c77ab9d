/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hostctl bench's raw QEMU (vm/rawqemu.h) beside libvirt: a boot, and a
 * restore of a state QEMU itself saved; and the cold kernel build the
 * kernel's manifest records.
 */
#ifndef VLALAB_HOSTCTL_BENCH_RAW_H
#define VLALAB_HOSTCTL_BENCH_RAW_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

struct setup;

/* Raw QEMU's bound on exec -> hello, times the kernel's boot scale. */
#define BENCH_RAW_HELLO_MS 60000

/* What every raw QEMU of a bench shares: the VMs' kernel, image,
 * firmware, machine and accelerator ("kvm" or else TCG). */
struct bench_raw {
	const struct setup *su;
	const char *machine, *accel;
	/* The state bench_raw_save() made, "" before: its folder, its file. */
	char dir[PATH_MAX], state[PATH_MAX + 16];
};

/* Boot @i: exec -> hello into @ret_us. 0, or -errno after saying why. */
int bench_raw_boot(const struct bench_raw *b, unsigned int i, uint64_t *ret_us);

/*
 * Boot raw QEMU once, with a monitor, to hello and save its state with
 * QEMU's own migration (rawqemu_save()) into a folder of @b->su's cache
 * that QEMU's user may write. 0, or -errno after saying why.
 */
int bench_raw_save(struct bench_raw *b);

/*
 * Restore @i: raw QEMU started with -incoming from that state, greeted as
 * hostctl greets a restored guest (snapshot_greeting()), exec -> hello
 * (restored 1) into @ret_us. 0, or -errno after saying why.
 */
int bench_raw_restore(const struct bench_raw *b, unsigned int i,
		      uint64_t *ret_us);

/* Remove the saved state and its folder. */
void bench_raw_free(struct bench_raw *b);

/*
 * The cold build of the kernel under test: its manifest's build_seconds
 * (in µs, into @ret_us) when the manifest says "cold": true. 0; -ENOENT
 * when no cold build is recorded (no manifest, an incremental or seeded
 * build, or a manifest older than the field), with why in @why.
 */
int bench_cold_build(const struct setup *su, uint64_t *ret_us,
		     const char **why);

#endif
