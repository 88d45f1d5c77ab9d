// SPDX-License-Identifier: GPL-2.0-only
/*
 * How a VM ended (vmend.h): one decision from a wait's return and the
 * VM's state, and one table of what each end is called and means.
 */
#include <errno.h>
#include <stddef.h>

#include "vm/vmend.h"

static const struct {
	const char *name;
	bool survived;
} ends[] = {
	[VM_END_RUNNING] = { "running", true },
	[VM_END_POWEROFF] = { "poweroff", true },
	[VM_END_REBOOT] = { "reboot", true },
	/* The host gave up on it while its domain ran. */
	[VM_END_HANG] = { "running", false },
	[VM_END_TIMEOUT] = { "running", false },
	[VM_END_SILENT] = { "died", false },
	[VM_END_INTERRUPTED] = { "running", false },
	[VM_END_PROTOCOL] = { "died", false },
	/* Its domain may run on still: the host cannot tell. */
	[VM_END_LOST] = { "running", false },
	[VM_END_DIED] = { "died", false },
};

enum vm_end vm_end_of(struct vm *vm, int r, bool hang, enum vm_end expect)
{
	if (r == 0)
		return hang ? VM_END_HANG : VM_END_RUNNING;
	if (r == -ETIMEDOUT)
		return VM_END_TIMEOUT;
	if (r == -EINTR)
		return VM_END_INTERRUPTED;
	if (r == VM_END_NOW)
		return vm_dead(vm) ? VM_END_DIED : VM_END_RUNNING;
	if (vm_lost(vm))
		return VM_END_LOST;
	if (vm_proto_error(vm))
		return VM_END_PROTOCOL;
	if (vm_end_stopped(expect) && vm_guest_stopped(vm, VM_STOP_EVENT_MS))
		return expect;
	if (vm_silent(vm))
		return VM_END_SILENT;
	return VM_END_DIED;
}

const char *vm_end_name(enum vm_end e)
{
	return (size_t)e < sizeof(ends) / sizeof(ends[0]) ? ends[e].name :
							    "died";
}

bool vm_end_survived(enum vm_end e)
{
	return (size_t)e < sizeof(ends) / sizeof(ends[0]) && ends[e].survived;
}

bool vm_end_stopped(enum vm_end e)
{
	return e == VM_END_POWEROFF || e == VM_END_REBOOT;
}
