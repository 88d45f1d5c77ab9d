// SPDX-License-Identifier: GPL-2.0-only
/*
 * A wait on one VM (vm.h): the event loop runs until a condition holds,
 * a descriptor is readable, the VM dies or a deadline passes; a guest
 * that is up and sends nothing for its silence bound, not counting the
 * time its vCPUs waited for the host (silence.h), dies of it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "vm/vm.h"
#include "vm/vm-priv.h"

/* QEMU's vCPUs now; no sample without QEMU's pid. */
static void sample_vcpus(const struct vm *vm, struct silence_sample *ret)
{
	char dir[32];

	*ret = (struct silence_sample){ 0 };
	if (vm->qemu_pid <= 0)
		return;
	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)vm->qemu_pid);
	silence_sample_read(dir, ret);
}

/*
 * The silence rule (silence.h), judged as of the loop's last turn, not
 * now: what the guest sent since then waits unread in its channel. With
 * hostctl run -j, another lane may have held the thread for seconds (a
 * memory dump) and handed it to this one before the loop turned again;
 * judged against now, a guest that went on talking the whole time would
 * be called hung. The vCPUs are sampled after each line of the guest's,
 * at most once a tick: a sample a little late discounts a little less.
 * True when the guest hangs: the VM is dead then.
 */
static bool silent_past(struct vm *vm, uint64_t now)
{
	uint64_t silence, limit = vm->silence_ms * 1000, starved = 0;
	struct silence_sample s;

	if (vm->rx_sample_us != vm->last_rx_us &&
	    now - vm->rx_sampled_us >= VM_TICK_MS * 1000) {
		sample_vcpus(vm, &vm->rx_sample);
		vm->rx_sample_us = vm->last_rx_us;
		vm->rx_sampled_us = now;
	}
	if (vm_loop_last_us <= vm->last_rx_us ||
	    vm_loop_last_us - vm->last_rx_us <= limit)
		return false;
	silence = vm_loop_last_us - vm->last_rx_us;
	/* A sample of an earlier line would count more than the silence. */
	if (vm->rx_sample_us == vm->last_rx_us) {
		sample_vcpus(vm, &s);
		starved = silence_starved_us(&vm->rx_sample, &s);
	}
	if (!silence_over(silence, starved, limit))
		return false;
	vm->silent = !vm->dead;
	if (starved >= 1000000)
		vm_die(vm,
		       "the guest sent nothing, not even a heartbeat, for %" PRIu64
		       " s (%" PRIu64 " s of wall time, %" PRIu64
		       " s of which its vCPUs waited for a host CPU)",
		       vm->silence_ms / 1000, silence / 1000000,
		       starved / 1000000);
	else
		vm_die(vm,
		       "the guest sent nothing, not even a heartbeat, for %" PRIu64
		       " s",
		       vm->silence_ms / 1000);
	return true;
}

int vm_wait(struct vm *vm, bool (*done)(void *arg), void *arg,
	    uint64_t timeout_ms)
{
	uint64_t deadline = vm_now_us() + timeout_ms * 1000;

	for (;;) {
		uint64_t now;

		if (done && done(arg))
			return 0;
		if (vm->dead)
			return -EPIPE;
		if (vm_interrupted)
			return -EINTR;
		now = vm_now_us();
		if (vm->up && !vm->paused && silent_past(vm, now))
			return -EPIPE;
		if (now >= deadline)
			return -ETIMEDOUT;
		if (vm_loop_step() < 0) {
			vm_die(vm, "the event loop failed: %s",
			       virGetLastErrorMessage());
			return -EPIPE;
		}
	}
}

void vm_set_silence_ms(struct vm *vm, uint64_t ms)
{
	vm->silence_ms = ms;
}

bool vm_guest_stopped(struct vm *vm, uint64_t timeout_ms)
{
	uint64_t deadline = vm_now_us() + timeout_ms * 1000;

	/* The channel's end can come before libvirt's lifecycle event. */
	while (!vm->stopped && !vm_interrupted && vm_now_us() < deadline)
		if (vm_loop_step() < 0)
			break;
	return vm->guest_stopped;
}

static void fd_ready(int watch, int fd, int events, void *opaque)
{
	(void)watch;
	(void)fd;
	(void)events;
	*(bool *)opaque = true;
}

static bool flag_set(void *arg)
{
	return *(bool *)arg;
}

int vm_wait_fd(struct vm *vm, int fd, uint64_t timeout_ms)
{
	bool ready = false;
	int watch = -1, r;

	if (fd >= 0) {
		watch = virEventAddHandle(fd, VIR_EVENT_HANDLE_READABLE,
					  fd_ready, &ready, NULL);
		if (watch < 0)
			return -ENOMEM;
	}
	r = vm_wait(vm, flag_set, &ready,
		    timeout_ms ? timeout_ms : UINT64_MAX / 2000);
	if (watch >= 0)
		virEventRemoveHandle(watch);
	return r;
}
