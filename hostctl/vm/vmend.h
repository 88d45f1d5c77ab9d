/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How a VM ended, decided once (vm_end_of()) for every wait on a guest:
 * the run's boots (guest.c, run/), the crash judge's "survived" and
 * summary.json's and events.jsonl's "ended" (vm_end_name(), one table).
 */
#ifndef VLALAB_VMEND_H
#define VLALAB_VMEND_H

#include <stdbool.h>

#include "vm/vm.h"

/* From the channel's end to libvirt's lifecycle event, in ms. */
#define VM_STOP_EVENT_MS 5000

/*
 * vm_end_of()'s @r when no wait ended: the VM as it stands, running or
 * dead.
 */
#define VM_END_NOW 1

enum vm_end {
	VM_END_RUNNING, /* it runs: no wait ended it */
	VM_END_POWEROFF, /* its guest powered itself off, as its boot expects */
	VM_END_REBOOT, /* its guest reset itself, as its boot expects */
	VM_END_HANG, /* the host saw its guest hang (a step past its bound) */
	VM_END_TIMEOUT, /* the host's bound for the wait passed */
	VM_END_SILENT, /* no heartbeat: it hangs, and vm.c ended it */
	VM_END_INTERRUPTED, /* a signal or a failed result file ended the wait */
	VM_END_PROTOCOL, /* its guest broke the protocol: vm.c ended it */
	VM_END_LOST, /* its host's connection closed: the host lost it */
	VM_END_DIED, /* it died otherwise */
};

/*
 * How @vm ended, from the wait on it that returned @r (vm_wait()'s 0,
 * -ETIMEDOUT, -EINTR or -EPIPE; VM_END_NOW: no wait, as it stands): @hang
 * says the host saw a hang in that wait, @expect how its boot is to end
 * (VM_END_RUNNING, VM_END_POWEROFF or VM_END_REBOOT). A VM that died with
 * a stop expected gets up to VM_STOP_EVENT_MS for libvirt to say whether
 * its guest stopped itself.
 */
enum vm_end vm_end_of(struct vm *vm, int r, bool hang, enum vm_end expect);

/*
 * summary.json's and events.jsonl's word for @e: "running", "poweroff",
 * "reboot" or "died" (docs/scenarios.md, "Several boots").
 */
const char *vm_end_name(enum vm_end e);

/* Whether the guest outlived an end @e: it runs, or stopped as expected. */
bool vm_end_survived(enum vm_end e);

/* Whether @e is the stop its boot expects (VM_END_POWEROFF, _REBOOT). */
bool vm_end_stopped(enum vm_end e);

#endif
