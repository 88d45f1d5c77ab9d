/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * QEMU's user (docs/architecture.md, "QEMU's user"). When hostctl runs as
 * root on its embedded libvirt driver, QEMU runs as the system user
 * CONFINE_USER instead, in libvirt's seccomp sandbox, and hostctl grants
 * that user what each VM opens by name, nothing more: search (never
 * list) on the directories it cannot otherwise pass, read on a kernel,
 * an initramfs or a read-only disk it cannot otherwise read, read and
 * write on the disks the guest writes. The grants are POSIX ACL entries
 * for that one user, made with setfacl(1); the files keep their owner
 * and mode. Process-wide state: one QEMU user per hostctl.
 */
#ifndef VLALAB_HOSTCTL_CONFINE_H
#define VLALAB_HOSTCTL_CONFINE_H

#include <stdbool.h>
#include <stddef.h>

#include "vm/domain.h"

#define CONFINE_USER "vlalab"

/* The one line that says how to make the user (./bootstrap does). */
#define CONFINE_USER_HINT                                                    \
	"create it with ./bootstrap, or: useradd --system --no-create-home " \
	"--home-dir /nonexistent --shell /usr/sbin/nologin --groups kvm "    \
	"--user-group " CONFINE_USER

enum confine_access {
	CONFINE_READ, /* read the file */
	CONFINE_WRITE, /* read and write the file */
	CONFINE_DENY, /* nothing at all, whatever its mode says */
};

/*
 * Turn confinement on: look CONFINE_USER up and put its name and its
 * primary group's into @user and @group. -ENOENT when there is no such
 * user (or group), another -errno on a lookup error.
 */
int confine_init(char *user, size_t ulen, char *group, size_t glen);

/* True once confine_init() succeeded. */
bool confine_on(void);

/*
 * Whether this machine lets a process have a mount namespace of its own
 * (a container without CAP_SYS_ADMIN does not): libvirt's "mount"
 * namespace for QEMU needs one.
 */
bool confine_namespaces_ok(void);

/*
 * Give QEMU's user @a on @path (which must exist), and search on each
 * directory above it it could not otherwise pass; CONFINE_DENY touches
 * @path only. A no-op while confinement is off. 0 or -errno: -EIO when
 * setfacl failed (its message is on stderr), -ENOPKG when there is none.
 */
int confine_path(const char *path, enum confine_access a);

/* What confine_path()'s error @r means, for a message. */
const char *confine_strerror(int r);

/*
 * confine_path() for what @dc's QEMU opens by name: its kernel,
 * initramfs and firmware to read, each disk to read or, unless read-only,
 * to write. On failure, names the file in @err.
 */
int confine_domain(const struct domain_config *dc, char *err, size_t errlen);

#endif
