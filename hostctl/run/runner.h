/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scheduler: boots guests and runs scenarios on them one after another,
 * each scenario a list of boots run the same way. Scenarios without boots
 * share a VM while each passes cleanly; the rest continue on a fresh VM. A
 * scenario with boots or a disk has a VM of its own per boot. KVM that
 * never says hello falls back to TCG. Results go into the struct res_run
 * the caller prepared. With runner_opts.jobs > 1, that many lanes do this
 * at once, the longest scenario first (runner.c).
 */
#ifndef VLALAB_RUNNER_H
#define VLALAB_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "vm/accel.h"
#include "base/boundlog.h"
#include "results/results.h"
#include "run/hosts.h"
#include "scenario/scenario.h"

/* Bounds for the first hello, in ms: KVM is probed, TCG is slow. */
#define RUNNER_HELLO_KVM_MS 10000
#define RUNNER_HELLO_TCG_MS 120000
/* TCG with -icount runs single-threaded and counts every instruction: a
 * debug kernel took over 120 s to its hello on a loaded host. */
#define RUNNER_HELLO_ICOUNT_MS 480000
/* The bound for a scenario's own boot to be up: a resume reads its image. */
#define RUNNER_HELLO_BOOT_MS 120000
/* A KASAN kernel's guest runs about 4.7 times slower than the patched
 * one's (docs/performance.md, "The debug flavour's cost"): the bounds
 * above are this many times longer for it (runner_opts.boot_scale). */
#define RUNNER_SANITIZER_BOOT_SCALE 4
/* A cloud image's first boot runs systemd and cloud-init (Python) before
 * guestd: its hello bound is this many times the initramfs's. */
#define RUNNER_CLOUD_BOOT_SCALE 3
/* How long a guest that ran an expect_incident scenario gets for its
 * console to catch up and to die of a late panic, in ms. */
#define RUNNER_SETTLE_MS 1000

struct progress;
struct guest_stats;
struct cloud_image;
struct vm;

/* hostctl run --clock: what guest time counts under TCG. */
enum run_clock { RUN_CLOCK_AUTO, RUN_CLOCK_ICOUNT, RUN_CLOCK_WALL };

/* "auto", "icount", "wall" -> *ret; -EINVAL otherwise. */
int run_clock_parse(const char *s, enum run_clock *ret);

struct runner_opts {
	const char *uri;
	/*
	 * hostctl run's hosts when several (run/hosts.h), else NULL: each
	 * lane runs on one, a host's job count of them (else @jobs), and
	 * "embedded" is @uri.
	 */
	const struct run_hosts *hosts;
	const char *cache_dir; /* for the accelerator verdict */
	const char *run_dir;
	const char *run_id;
	const char *kernel; /* bzImage */
	const char *initrd;
	const char *cmdline; /* NULL: the default */
	/* QEMU's machine type, "pc" or "q35"; NULL: DOMAIN_MACHINE_DEFAULT.
	 * A scenario's boot may name its own. */
	const char *machine;
	enum accel_choice accel;
	bool icount; /* under TCG, run VMs with -icount (domain.h) */
	/* The hello bounds' factor, and the heartbeat silence bound's:
	 * RUNNER_SANITIZER_BOOT_SCALE for a KASAN kernel; 0 or 1: as they
	 * are. */
	unsigned int boot_scale;
	struct boundlog *events; /* events.jsonl */
	uint64_t console_max_mb; /* each console log's bound; 0: default */
	struct progress *progress;
	/* Post-mortem bundles (postmortem.h): the build's vmlinux and tree,
	 * the dump's cap and format. NULL paths: no stack.txt. */
	const char *vmlinux;
	const char *tree;
	uint64_t dump_max_mb;
	const char *dump_format;
	bool keep; /* keep scenario disk images (boots.c), cloud overlays */
	/*
	 * The cloud image (cloud.h), or NULL when no VM boots it: the VMs of
	 * scenarios with "image": "cloud" boot it, and all VMs but those of
	 * scenarios with their own disks when all_cloud (--image cloud:PATH).
	 */
	const struct cloud_image *cloud;
	bool all_cloud;
	/*
	 * hostctl run -j: up to this many VMs at once (0 or 1: one), the
	 * longest scenario first by @expect_ms (per run->v[i], an earlier
	 * run's duration; 0 or a NULL array: unknown).
	 */
	unsigned int jobs;
	const uint64_t *expect_ms;
	/*
	 * Keep one spare VM booted ahead while scenarios are pending, which
	 * the next lane that needs a fresh VM takes instead of booting one.
	 */
	bool spare;
	/*
	 * Restore the fresh shared VMs (the spare's too) from an image saved
	 * right after hello (vm/snapshot.h) rather than boot them, under TCG
	 * on the initramfs; a missing image is made first, a failure boots.
	 */
	bool restore;
	/* The SSH port: guest_env's vms_dir and ssh_host_key, or NULL. */
	const char *vms_dir;
	const char *ssh_host_key;
	/*
	 * hostctl repro: called on the shared VM after a scenario's steps,
	 * before the crash judge looks at its boot; the VM lives until it
	 * returns. NULL for a plain run.
	 */
	void (*hold)(void *data, struct vm *vm, const char *label,
		     const char *domain, const struct res_scenario *sc);
	void *hold_data;
	/* Each exec step's "output" event (guest_env's), or NULL. */
	void (*output)(void *data, const struct proto_output *o);
	void *output_data;
	/*
	 * The VMs named before this call, NULL for none: its VMs are
	 * numbered on from there (vmN, console-vmN.log), and it is set to
	 * the last one named (the run library's second call, on another
	 * flavour, into the same run directory).
	 */
	unsigned int *vmno;
};

/* What runner_run() returns when it does not return a negative errno. */
enum runner_result {
	RUNNER_RAN = 0, /* the run happened: its verdicts say how it went */
	/* A result file could not be written, and the run stopped. */
	RUNNER_WRITE_FAILED = 1,
};

/* shared-vm.c: qboot when it is installed, else SeaBIOS (NULL): the
 * firmware every VM boots with (and bench's raw QEMU). */
const char *runner_firmware(void);

/*
 * Run every scenario of @run that is not done yet; @scn[i] is the scenario
 * file behind run->v[i]. Sets run->accelerator. Before and after each
 * scenario, @o->run_dir's summary.json is replaced (atomically) by @run
 * as far as it got, marked incomplete, so that a hostctl killed mid-run
 * leaves one behind. Returns RUNNER_RAN (0) when the run happened (its
 * verdicts say how it went); RUNNER_WRITE_FAILED when writing a result file failed
 * (@err: "writing 'PATH': REASON"), after which the run stopped, every
 * VM is gone and the scenarios left are errors; or a negative errno with
 * @err set when nothing could start (connecting to libvirt failed).
 * On 0, run->complete says whether the run got to its end: no when a
 * signal left scenarios unrun. @stats, when not NULL, gets the numbers
 * of the first 16 boots (guest.h).
 */
int runner_run(const struct runner_opts *o, struct scenario *const *scn,
	       struct res_run *run, struct guest_stats *stats, char *err,
	       size_t errlen);

/* run-scenario.c: a res_scenario for @s with its steps' kinds and names;
 * 0 or -ENOMEM. */
int runner_result_init(const struct scenario *s, struct res_scenario *ret);

#endif
