// SPDX-License-Identifier: GPL-2.0-only
/*
 * libvirt's event loop (vm.h): the clock, one turn of the loop with the
 * rule that a loop not run for a second was a busy host, who turns it (a
 * wait itself, or the scheduler of hostctl run -j's lanes) and the
 * interrupt that ends every wait. It calls no other part of vm/.
 */
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include <libvirt/libvirt.h>

#include "vm/vm.h"
#include "vm/vm-priv.h"

uint64_t vm_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

volatile sig_atomic_t vm_interrupted;

/*
 * The lanes of hostctl run -j (vm_set_yield()): a wait hands the loop to
 * them, and only the scheduler runs it (vm_loop_once()). The host the
 * loop serves, for the stall rule, and when the loop last ran.
 */
static void (*yield_fn)(void *data);
static void *yield_data;
struct vm_host *vm_loop_host;
uint64_t vm_loop_last_us;

int vm_loop_once(void)
{
	uint64_t now = vm_now_us(), gap = now - vm_loop_last_us;
	int r;

	/*
	 * The loop did not run for a while: the host was busy (a memory
	 * dump, another lane's domain start). What the guests sent meanwhile
	 * waits in their channels; their silence counts from now.
	 */
	if (vm_loop_last_us && gap > VM_STALL_MS * 1000 && vm_loop_host)
		for (struct vm *vm = vm_loop_host->vms; vm; vm = vm->next)
			vm->last_rx_us += gap;
	r = virEventRunDefaultImpl();
	vm_loop_last_us = vm_now_us();
	return r;
}

void vm_set_yield(void (*fn)(void *data), void *data)
{
	yield_fn = fn;
	yield_data = data;
}

bool vm_loop_yields(void)
{
	return yield_fn != NULL;
}

int vm_loop_step(void)
{
	if (!yield_fn)
		return vm_loop_once();
	yield_fn(yield_data);
	return 0;
}

void vm_interrupt(void)
{
	vm_interrupted = 1;
}
