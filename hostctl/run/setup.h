/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What run and bench share before anything boots: the cache, the kernel
 * build (a cache hit when nothing changed), the guest image with guestd,
 * and the libvirt URI with its embedded driver's config written.
 */
#ifndef VLALAB_SETUP_H
#define VLALAB_SETUP_H

#include <limits.h>
#include <stdbool.h>

#include <json-c/json.h>

#include "kbuild.h"

/*
 * Host programs every guest image holds, with their shared libraries:
 * iproute2's bridge and ip, for scenarios that cross-check guestd against a
 * real netlink client (issue 4). Installed under /usr/sbin, so busybox's own
 * ip applet in /sbin stays first in PATH for /init. dropbear and OpenSSH's
 * sftp-server (where dropbear looks for it) for the SSH port (docs/repro.md).
 */
extern const struct kbuild_image_program setup_image_programs[];
extern const size_t setup_n_image_programs;

struct setup {
	char cache_dir[PATH_MAX];
	char uri[PATH_MAX + 64];
	struct kbuild_result kernel;
	struct kbuild_image_result image;
	char kernel_path[PATH_MAX + 16]; /* bzImage */
	char modules_dir[PATH_MAX + 96]; /* modules/lib/modules/<release> */
	struct json_object *manifest; /* owned; NULL if unreadable */
	char ssh_client_key[PATH_MAX]; /* <cache>/ssh/client_ed25519 */
	char ssh_client_pub[PATH_MAX + 32]; /* its public part, one line */
	char vms_dir[PATH_MAX + 8]; /* <cache>/vms: the live VMs' state */
};

/*
 * Fill @ret: @cache and @uri may be NULL for the defaults; @initrd, when
 * set, replaces the guest image (tests boot hostile guests that way). Logs
 * once to stderr on failure and returns a negative errno.
 */
int setup_prepare(const char *cache, const char *uri, const char *initrd,
		  struct setup *ret);
/* Which kernel to build: all fields may be zero for the defaults. */
struct setup_kernel {
	const char *kernel_dir; /* patches/ and configs/; NULL: the repo's */
	const char *flavour; /* NULL: patched; kbuild_flavour_check() first */
	const char *line; /* NULL: 6.1; kbuild_line_check() first */
	const char *const *without; /* patches left out: file names or unique
				     * prefixes; kbuild_without_check() first */
	size_t n_without;
	/* A user's tree to build instead (kbuild_opts.tree), with our
	 * series on a copy when tree_series. */
	const char *tree;
	bool tree_series;
	/* A kernel built elsewhere (kbuild_external()): its bzImage, its
	 * modules and optionally its .config. */
	const char *ext_kernel, *ext_modules, *ext_config;
	/* folders of the tree's tools/testing/selftests to put in the
	 * image (the kselftest steps' DIRs) */
	const char *const *kselftests;
	size_t n_kselftests;
};

/* setup_prepare() with that kernel (k may be NULL). */
int setup_prepare_kernel(const char *cache, const char *uri, const char *initrd,
			 const struct setup_kernel *k, struct setup *ret);
void setup_free(struct setup *s);

/*
 * The hello bounds' factor for the prepared kernel (runner_opts): a KASAN
 * kernel boots several times slower (RUNNER_SANITIZER_BOOT_SCALE). A
 * kernel not built here (no build directory) or a config that cannot be
 * read: 1, the bounds as they are.
 */
unsigned int setup_boot_scale(const struct setup *s);

#endif
