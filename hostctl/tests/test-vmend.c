// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/vmend.c's table: the word summary.json and
 * events.jsonl give each end of a VM ("ended"), whether its guest
 * survived it, and which ends are the stops a boot may expect.
 */
#include <stdio.h>

#include "vm/vmend.h"
#include "tap.h"

int main(void)
{
	static const struct {
		enum vm_end e;
		const char *name;
		bool survived, stopped;
	} t[] = {
		{ VM_END_RUNNING, "running", true, false },
		{ VM_END_POWEROFF, "poweroff", true, true },
		{ VM_END_REBOOT, "reboot", true, true },
		{ VM_END_HANG, "running", false, false },
		{ VM_END_TIMEOUT, "running", false, false },
		{ VM_END_SILENT, "died", false, false },
		{ VM_END_INTERRUPTED, "running", false, false },
		{ VM_END_PROTOCOL, "died", false, false },
		{ VM_END_LOST, "running", false, false },
		{ VM_END_DIED, "died", false, false },
	};
	char what[128];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(what, sizeof(what), "end %d is '%s'", t[i].e,
			 t[i].name);
		is_str(vm_end_name(t[i].e), t[i].name, what);
		snprintf(what, sizeof(what), "end %d: the guest %s", t[i].e,
			 t[i].survived ? "survived" : "did not survive");
		ok(vm_end_survived(t[i].e) == t[i].survived, what);
		snprintf(what, sizeof(what), "end %d: %sa stop", t[i].e,
			 t[i].stopped ? "" : "not ");
		ok(vm_end_stopped(t[i].e) == t[i].stopped, what);
	}
	is_str(vm_end_name((enum vm_end)99), "died", "an unknown end died");
	return tap_done();
}
