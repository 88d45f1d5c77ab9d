// SPDX-License-Identifier: GPL-2.0-only
/*
 * End to end: build the kernel (or find it in the user's cache), pack the
 * initramfs with a stand-in agent and iproute2's bridge (with its shared
 * libraries), boot both in QEMU (TCG, no libvirt) and read the serial
 * console until /init says it starts the agent, the agent says it is alive
 * and the guest ran `bridge -V`. QEMU is killed after, or at the bound.
 *
 * Usage: test-boot AGENT
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kb.h"
#include "tap.h"

#define BOOT_BOUND_S 300.0
#define BRIDGE_MARK "vlalab-test-agent: bridge -V exit="

/* The agent's last line, read to its end. */
static bool bridge_line_done(const char *console)
{
	const char *s = strstr(console, BRIDGE_MARK);

	return s && strchr(s, '\n');
}
#define CONSOLE_MAX (1 << 20)

int main(int argc, char *argv[])
{
	struct kbuild_result kr;
	struct kbuild_image_result ir;
	char kernel[PATH_MAX + 16], *console;
	static const struct kbuild_image_program progs[] = { { "/sbin/bridge", "/usr/sbin/bridge" } };
	bool init_seen = false, agent_seen = false, bridge_seen = false;
	size_t used = 0;
	double t0;
	pid_t pid;
	int pipefd[2], r;
	struct stat st;

	if (argc != 2) {
		fprintf(stderr, "usage: %s AGENT\n", argv[0]);
		return 2;
	}
	if (stat(KBUILD_DEFAULT_TARBALL, &st) < 0) {
		printf("1..0 # SKIP no %s\n", KBUILD_DEFAULT_TARBALL);
		return 77;
	}
	r = kbuild_run(&(struct kbuild_opts){ .kernel_dir = VLALAB_SRCDIR "/kernel", .progress = true }, &kr);
	okf(r == 0, "kernel built or found in the cache (r=%d)", r);
	if (r < 0)
		return tap_done();
	printf("# kernel %s (%s, %.1fs)\n", kr.dir, kr.cache_hit ? "cache hit" : "built", kr.seconds);
	if (access(progs[0].host, X_OK) < 0) {
		printf("1..0 # SKIP no %s (install iproute2)\n", progs[0].host);
		return 77;
	}
	r = kbuild_image_build(&(struct kbuild_image_opts){ .kernel = &kr, .guestd = argv[1], .progress = true,
							     .programs = progs, .n_programs = 1 },
			       &ir);
	okf(r == 0, "initramfs packed (r=%d)", r);
	if (r < 0)
		return tap_done();
	printf("# image %s (%.2f MiB)\n", ir.path, ir.size / 1048576.0);
	okf(ir.size <= 8u << 20, "the image is at most 8 MiB");

	r = kb_path(kernel, sizeof(kernel), "%s/bzImage", kr.dir);
	if (r < 0 || pipe2(pipefd, O_CLOEXEC) < 0)
		return 1;
	{
		char *qemu[] = { "qemu-system-x86_64", "-accel", "tcg", "-m", "512", "-smp", "2", "-nographic",
				 "-no-reboot", "-kernel", kernel, "-initrd", ir.path, "-append",
				 "console=ttyS0 panic=-1", NULL };

		r = kb_spawn(qemu, NULL, -1, pipefd[1], pipefd[1], &pid);
	}
	close(pipefd[1]);
	if (r == -ENOENT) {
		printf("# SKIP qemu-system-x86_64 is not installed\n");
		return 77;
	}
	okf(r == 0, "QEMU started (r=%d)", r);
	if (r < 0)
		return tap_done();
	console = calloc(1, CONSOLE_MAX + 1);
	if (!console)
		return 1;
	t0 = kb_now();
	while (!bridge_line_done(console) && kb_now() - t0 < BOOT_BOUND_S) {
		struct pollfd pfd = { .fd = pipefd[0], .events = POLLIN };
		ssize_t n;

		if (poll(&pfd, 1, 500) <= 0)
			continue;
		n = read(pipefd[0], console + used, CONSOLE_MAX - used);
		if (n <= 0)
			break;
		used += n;
		console[used] = '\0';
		init_seen = strstr(console, "vlalab-init: starting agent /sbin/guestd") != NULL;
		agent_seen = init_seen && strstr(console, "vlalab-test-agent: alive pid=1") != NULL;
		bridge_seen = agent_seen && strstr(console, "bridge utility, ") != NULL &&
			      (strstr(console, BRIDGE_MARK "0\r") || strstr(console, BRIDGE_MARK "0\n"));
		if (used == CONSOLE_MAX)
			break;
	}
	printf("# console after %.1fs:\n", kb_now() - t0);
	for (char *s = strtok(console, "\n"); s; s = strtok(NULL, "\n"))
		printf("#   %s\n", s);
	kill(pid, SIGKILL);
	kb_wait(pid, NULL);
	close(pipefd[0]);
	free(console);
	okf(init_seen, "/init printed 'vlalab-init: starting agent /sbin/guestd'");
	okf(agent_seen, "the agent ran as PID 1 with proc, debugfs, tracefs and the modules in place");
	okf(bridge_seen, "the guest ran /usr/sbin/bridge -V (iproute2, its loader and libraries in the image)");
	return tap_done();
}
