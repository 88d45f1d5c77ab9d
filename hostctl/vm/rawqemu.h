/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * QEMU started by hand, without libvirt, for `hostctl bench` only: the
 * yardstick a libvirt boot is measured against (docs/performance.md,
 * "Boot parity"). The same emulator, kernel, initramfs, command line,
 * firmware, machine, memory and vCPUs as the domain XML (domain.h), and
 * a minimal set of devices: the serial console and guestd's
 * virtio-serial port, each on a socket pair whose other end hostctl
 * holds, and the SSH port when the libvirt VM has one (guestd starts its
 * relay either way), in a session of its own as libvirt's QEMU is
 * (rawqemu.c says why). No monitor, no -S, no sandbox, no pvpanic or
 * vmcoreinfo, no PCIe root ports: what libvirt adds beyond that is what
 * the comparison measures.
 */
#ifndef VLALAB_HOSTCTL_RAWQEMU_H
#define VLALAB_HOSTCTL_RAWQEMU_H

#include <stdbool.h>
#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#include "vm/domain.h"

/* What libvirt runs for an x86_64 guest: the first of this name in PATH
 * (virQEMUCapsGetDefaultEmulator()). */
#define RAWQEMU_EMULATOR "qemu-system-x86_64"

/* The descriptors QEMU gets its socket pairs' ends as. */
#define RAWQEMU_FD_CONSOLE 3
#define RAWQEMU_FD_CHANNEL 4
#define RAWQEMU_FD_SSH 5
#define RAWQEMU_FD_MONITOR 6

struct rawqemu_config {
	const char *emulator; /* a path, or NULL: RAWQEMU_EMULATOR */
	enum domain_accel accel;
	const char *machine; /* "pc" or "q35"; NULL: DOMAIN_MACHINE_DEFAULT */
	uint64_t memory_mib; /* 0: DOMAIN_MEMORY_MIB_DEFAULT */
	unsigned int vcpus; /* 0: DOMAIN_VCPUS_DEFAULT; at most 2 */
	const char *kernel; /* bzImage */
	const char *initrd;
	const char *cmdline; /* NULL: domain_default_cmdline */
	const char *firmware; /* -bios (qboot), or NULL: SeaBIOS */
	bool ssh_port; /* the SSH port's virtserialport too */
	/* An HMP monitor on a socket pair (rawqemu_save() needs it). */
	bool monitor;
	/*
	 * A state rawqemu_save() wrote, to start from rather than boot:
	 * -incoming "exec:cat PATH", the path of [A-Za-z0-9/._-] only (the
	 * shell QEMU runs it with sees it); NULL: boot.
	 */
	const char *incoming;
	/* Run QEMU as CONFINE_USER when root, as libvirt does (confine.h);
	 * false: as hostctl's own user. */
	bool confine;
};

#define RAWQEMU_ARGS_MAX 48

/* An argument vector, NULL-terminated, and the strings it points to. */
struct rawqemu_argv {
	const char *argv[RAWQEMU_ARGS_MAX + 1];
	unsigned int argc;
	char machine[64], mem[32], smp[48], con[64], chan[64], ssh[64];
	char chan_port[128], ssh_port[128], mon[64];
	char incoming[PATH_MAX + 16];
};

/*
 * The command line for @c into @ret, pure: no file is looked at. 0, or
 * -EINVAL for a missing kernel or initramfs, a bad machine or vCPU count,
 * an incoming path of other characters.
 */
int rawqemu_argv(const struct rawqemu_config *c, struct rawqemu_argv *ret);

/* A running raw QEMU. */
struct rawqemu {
	pid_t pid; /* 0: none */
	int con_fd, chan_fd, ssh_fd, mon_fd; /* hostctl's ends, or -1 */
	bool restored; /* started from a state: its hello is a restored one */
	uint64_t t_exec_us; /* vm_now_us() right before fork() */
};

/*
 * Start QEMU for @c, its console and channel on socket pairs (the SSH
 * port's too, with c->ssh_port), as CONFINE_USER when c->confine and
 * hostctl is root. 0 or -errno (-ENOENT: no emulator in PATH, or no
 * such user).
 */
int rawqemu_start(const struct rawqemu_config *c, struct rawqemu *ret);

/*
 * Wait up to @timeout_ms for guestd's hello on the channel (one with
 * restored 1 for a QEMU started from a state, which the caller greeted
 * first: snapshot_greeting()), draining the console meanwhile, and put
 * the time from fork() to hello in @ret_us.
 * 0, -ETIMEDOUT, -EPIPE when QEMU closed the channel (it exited), -EPROTO
 * for a line that is no event, or another -errno.
 */
int rawqemu_wait_hello(struct rawqemu *q, unsigned int timeout_ms,
		       uint64_t *ret_us);

/*
 * Save the running guest's state to @path with QEMU's own migration
 * (stop, then migrate "exec:cat > PATH", which the monitor waits for),
 * then quit, waiting up to @timeout_ms for QEMU to exit: the state that
 * rawqemu_config.incoming restores. Needs rawqemu_config.monitor; @path
 * as for incoming and writable by QEMU's user. 0, -EINVAL (no monitor, a
 * bad path), -ETIMEDOUT, -EIO (QEMU failed or wrote no state).
 */
int rawqemu_save(struct rawqemu *q, const char *path, unsigned int timeout_ms);

/* Kill QEMU, reap it and close hostctl's ends. Accepts a stopped one. */
void rawqemu_stop(struct rawqemu *q);

#endif
