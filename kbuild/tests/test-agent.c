// SPDX-License-Identifier: GPL-2.0-only
/*
 * A stand-in for guestd in the boot test: proves /init exec'd the agent as
 * PID 1 in a working userspace (proc and debugfs mounted, modules staged for
 * this release), prints one line, runs the image's iproute2 bridge (a
 * dynamic host program: its loader and libraries must be there too),
 * prints its result, and powers the guest off.
 */
#include <stdio.h>
#include <sys/reboot.h>
#include <sys/wait.h>
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
	{
		pid_t pid = fork();
		int status = -1;

		if (pid == 0) {
			execl("/usr/sbin/bridge", "bridge", "-V", (char *)NULL);
			perror("vlalab-test-agent: exec /usr/sbin/bridge");
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, &status, 0);
		printf("vlalab-test-agent: bridge -V exit=%d\n",
		       pid > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		fflush(stdout);
	}
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}
