// SPDX-License-Identifier: GPL-2.0-only
/*
 * A stand-in for guestd in the boot test: proves /init exec'd the agent as
 * PID 1 in a working userspace (proc and debugfs mounted, modules staged for
 * this release), prints one line, and powers the guest off.
 */
#include <stdio.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

int main(void)
{
	struct utsname u;
	struct stat st;
	char mods[300];
	int ok;

	uname(&u);
	snprintf(mods, sizeof(mods), "/lib/modules/%s/modules.dep", u.release);
	ok = getpid() == 1 && stat("/proc/self", &st) == 0 && stat("/sys/kernel/debug", &st) == 0 &&
	     stat("/sys/kernel/tracing/trace", &st) == 0 && stat(mods, &st) == 0;
	printf("vlalab-test-agent: %s pid=%d release=%s\n", ok ? "alive" : "broken", (int)getpid(), u.release);
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
