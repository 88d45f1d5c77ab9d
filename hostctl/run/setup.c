// SPDX-License-Identifier: GPL-2.0-only
/*
 * Preparing a run: kernel, image and libvirt URI. This is the runner's
 * caller, so it logs (once, with context) on failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm/confine.h"
#include "base/fsutil.h"
#include "run/runner.h"
#include "run/setup.h"
#include "live/sshc.h"
#include "vm/uri.h"

/* Embedded-driver roots, <cache>/libvirt and libvirt-1.., to choose from. */
#define SETUP_EMBED_SLOTS 4u

#ifndef VLALAB_SRCDIR
#error "VLALAB_SRCDIR (the repository root) must be defined by the build"
#endif
#ifndef VLALAB_GUESTD_PATH
#error "VLALAB_GUESTD_PATH (the built guestd) must be defined by the build"
#endif

/*
 * Claim slot for this process: an flock on <cache>/locks/libvirt-<slot>.lock,
 * held (the descriptor left open) until hostctl exits. Two hostctls that
 * start together can both see a root's driver.pid unlocked before either
 * libvirt takes it; the flock decides between them atomically. Returns 1
 * when claimed, 0 when another hostctl holds it, or a negative errno.
 */
static int claim_slot(const char *cache_dir, unsigned int slot)
{
	char path[PATH_MAX + 64];
	int fd;

	if (snprintf(path, sizeof(path), "%s/locks", cache_dir) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = fs_mkdir_p(path);
	if (fd < 0)
		return fd;
	snprintf(path, sizeof(path), "%s/locks/libvirt-%u.lock", cache_dir,
		 slot);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int r = errno == EWOULDBLOCK ? 0 : -errno;

		close(fd);
		return r;
	}
	return 1;
}

/*
 * The default URI: the first embedded-driver root that no other hostctl
 * has claimed and no other libvirt user holds, so that runs can go side by
 * side. -EBUSY when every one is taken (@buf then names the first).
 */
static int default_uri(const char *cache_dir, char *buf, size_t len)
{
	int r;

	for (unsigned int slot = 0; slot < SETUP_EMBED_SLOTS; slot++) {
		r = uri_default(cache_dir, slot, buf, len);
		if (r < 0)
			return r;
		if (uri_embed_busy(buf))
			continue;
		r = claim_slot(cache_dir, slot);
		if (r != 0)
			return r < 0 ? r : 0;
	}
	/* All busy: name the first in the message; none is ours. */
	r = uri_default(cache_dir, 0, buf, len);
	return r < 0 ? r : -EBUSY;
}

/*
 * Write the embedded driver's qemu.conf; as root, with QEMU confined to
 * CONFINE_USER (confine.h): its driver directory reachable, the cache's
 * SSH key not. Logs once; 0 or a negative errno.
 */
/*
 * Whether hostctl confines QEMU for @uri (NULL: the default, embedded):
 * as root, on an embedded root. Then look its user up (confine_init()),
 * into @user and @group. 1 when confined, 0 when not, or a negative
 * errno, logged.
 */
static int confine_check(const char *uri, char *user, size_t ulen, char *group,
			 size_t glen)
{
	char root[PATH_MAX];
	int r;

	if (geteuid() != 0 ||
	    (uri && uri_embed_root(uri, root, sizeof(root)) < 0))
		return 0;
	r = confine_init(user, ulen, group, glen);
	if (r == -ENOENT)
		fprintf(stderr,
			"hostctl: as root, hostctl runs QEMU as the user '%s', and there is none: " CONFINE_USER_HINT
			"\n",
			CONFINE_USER);
	else if (r < 0)
		fprintf(stderr, "hostctl: looking up QEMU's user '%s': %s\n",
			CONFINE_USER, strerror(-r));
	return r < 0 ? r : 1;
}

/*
 * Write the embedded driver's qemu.conf; as root, with QEMU confined to
 * CONFINE_USER (confine.h): its driver directory reachable, the cache's
 * SSH key not. Logs once; 0 or a negative errno.
 */
static int confine_uri(const struct setup *s)
{
	char user[64], group[64], root[PATH_MAX], path[PATH_MAX + 16];
	int r, confined;

	confined =
		confine_check(s->uri, user, sizeof(user), group, sizeof(group));
	if (confined < 0)
		return confined;
	r = confined ?
		    uri_prepare(s->uri, user, group, confine_namespaces_ok()) :
		    uri_prepare(s->uri, NULL, NULL, false);
	if (r < 0) {
		fprintf(stderr, "hostctl: preparing libvirt URI '%s': %s\n",
			s->uri, strerror(-r));
		return r;
	}
	if (!confined)
		return 0;
	/* QEMU reads its master key from the driver's lib/qemu/domain-N-*. */
	uri_embed_root(s->uri, root, sizeof(root));
	snprintf(path, sizeof(path), "%s/lib/qemu", root);
	r = fs_mkdir_p(path);
	if (r == 0)
		r = confine_path(path, CONFINE_READ);
	if (r == 0)
		r = confine_path(s->ssh_client_key, CONFINE_DENY);
	if (r < 0) {
		fprintf(stderr,
			"hostctl: confining QEMU to the user '%s' under '%s': %s\n",
			CONFINE_USER, root, confine_strerror(r));
		return r;
	}
	return 0;
}

const struct kbuild_image_program setup_image_programs[] = {
	{ "/sbin/bridge", "/usr/sbin/bridge" },
	{ "/sbin/ip", "/usr/sbin/ip" },
	{ "/usr/sbin/dropbear", "/usr/sbin/dropbear" },
	{ "/usr/lib/openssh/sftp-server", "/usr/lib/sftp-server" },
};
const size_t setup_n_image_programs =
	sizeof(setup_image_programs) / sizeof(setup_image_programs[0]);

void setup_free(struct setup *s)
{
	json_object_put(s->manifest);
	s->manifest = NULL;
}

int setup_prepare(const char *cache, const char *uri, const char *initrd,
		  struct setup *ret)
{
	return setup_prepare_kernel(cache, uri, initrd, NULL, ret);
}

int setup_prepare_kernel(const char *cache, const char *uri, const char *initrd,
			 const struct setup_kernel *k, struct setup *ret)
{
	static const struct setup_kernel defaults = { 0 };
	struct kbuild_opts kopts = { 0 };
	struct kbuild_image_opts iopts = { 0 };
	char path[PATH_MAX + 32], logs[PATH_MAX + 64];
	char qemu_user[64], qemu_group[64];
	struct setup s = { 0 };
	int r;

	if (cache)
		r = snprintf(s.cache_dir, sizeof(s.cache_dir), "%s", cache) >=
				    (int)sizeof(s.cache_dir) ?
			    -ENAMETOOLONG :
			    0;
	else
		r = kbuild_cache_dir(s.cache_dir, sizeof(s.cache_dir));
	if (r == 0)
		r = fs_mkdir_p(s.cache_dir);
	if (r < 0) {
		fprintf(stderr, "hostctl: cache directory '%s': %s\n",
			s.cache_dir, strerror(-r));
		return r;
	}
	if (!initrd && access(VLALAB_GUESTD_PATH, X_OK) < 0) {
		r = -errno;
		fprintf(stderr,
			"hostctl: guestd '%s' is missing (%s); build it with meson first\n",
			VLALAB_GUESTD_PATH, strerror(-r));
		return r;
	}

	/* Before a kernel build of minutes, not after: QEMU's user. */
	r = confine_check(uri_choose(uri, getenv("LIBVIRT_DEFAULT_URI")),
			  qemu_user, sizeof(qemu_user), qemu_group,
			  sizeof(qemu_group));
	if (r < 0)
		return r;

	kopts.cache_dir = s.cache_dir;
	if (!k)
		k = &defaults;
	kopts.kernel_dir = k->kernel_dir ? k->kernel_dir :
					   VLALAB_SRCDIR "/kernel";
	kopts.flavour = k->flavour;
	kopts.line = k->line;
	kopts.without = k->without;
	kopts.n_without = k->n_without;
	kopts.tree = k->tree;
	kopts.tree_series = k->tree_series;
	/* Plain lines every few seconds when stderr is not a terminal, so
	 * that a cold build in CI is never silent for minutes. */
	kopts.progress = true;
	if (k->ext_kernel)
		r = kbuild_external(
			&(struct kbuild_external_opts){
				.cache_dir = s.cache_dir,
				.bzimage = k->ext_kernel,
				.modules = k->ext_modules,
				.config = k->ext_config,
			},
			&s.kernel);
	else
		r = kbuild_run(&kopts, &s.kernel);
	if (r < 0) {
		fprintf(stderr, "hostctl: %s the kernel failed: %s\n",
			k->ext_kernel ? "staging" : "building", strerror(-r));
		return r;
	}
	r = sshc_client_key(s.cache_dir, s.ssh_client_key,
			    sizeof(s.ssh_client_key), s.ssh_client_pub,
			    sizeof(s.ssh_client_pub), logs, sizeof(logs));
	if (r < 0) {
		fprintf(stderr, "hostctl: %s\n", logs);
		return r;
	}
	/*
	 * The VMs' SSH sockets are bound there (by libvirt, which hands QEMU
	 * the listening socket), and their consoles' (hostctl console): it
	 * must exist first, and be root's alone, as each is a root shell.
	 */
	snprintf(s.vms_dir, sizeof(s.vms_dir), "%s/vms", s.cache_dir);
	r = fs_mkdir_private(s.vms_dir);
	if (r < 0) {
		fprintf(stderr, "hostctl: creating '%s' (mode 0700): %s\n",
			s.vms_dir, strerror(-r));
		return r;
	}
	iopts.ssh_authorized_key = s.ssh_client_pub;
	iopts.cache_dir = s.cache_dir;
	iopts.kernel = &s.kernel;
	iopts.guestd = VLALAB_GUESTD_PATH;
	iopts.programs = setup_image_programs;
	iopts.n_programs = setup_n_image_programs;
	iopts.kselftests = k->kselftests;
	iopts.n_kselftests = k->n_kselftests;
	iopts.progress = true;
	if (initrd) {
		if (access(initrd, R_OK) < 0 ||
		    !realpath(initrd, s.image.path)) {
			r = -errno;
			fprintf(stderr, "hostctl: initramfs '%s': %s\n", initrd,
				strerror(-r));
			return r;
		}
	} else {
		r = kbuild_image_build(&iopts, &s.image);
	}
	if (r < 0) {
		fprintf(stderr,
			"hostctl: building the guest image failed: %s\n",
			strerror(-r));
		return r;
	}
	snprintf(s.kernel_path, sizeof(s.kernel_path), "%s/bzImage",
		 s.kernel.dir);
	if (snprintf(s.modules_dir, sizeof(s.modules_dir),
		     "%s/modules/lib/modules/%s", s.kernel.dir,
		     s.kernel.release) >= (int)sizeof(s.modules_dir)) {
		fprintf(stderr, "hostctl: path too long under '%s'\n",
			s.kernel.dir);
		return -ENAMETOOLONG;
	}
	snprintf(path, sizeof(path), "%s/manifest.json", s.kernel.dir);
	s.manifest = json_object_from_file(path);

	uri = uri_choose(uri, getenv("LIBVIRT_DEFAULT_URI"));
	if (uri)
		r = snprintf(s.uri, sizeof(s.uri), "%s", uri) >=
				    (int)sizeof(s.uri) ?
			    -ENAMETOOLONG :
			    0;
	else
		r = default_uri(s.cache_dir, s.uri, sizeof(s.uri));
	if (r == -EBUSY && !uri) {
		fprintf(stderr,
			"hostctl: all %u libvirt roots of the cache '%s' are in use by other runs of hostctl; wait for one to end, or give --connect URI\n",
			SETUP_EMBED_SLOTS, s.cache_dir);
		setup_free(&s);
		return r;
	}
	if (r < 0) {
		fprintf(stderr, "hostctl: preparing libvirt URI '%s': %s\n",
			s.uri, strerror(-r));
		setup_free(&s);
		return r;
	}
	r = confine_uri(&s);
	if (r < 0) {
		setup_free(&s);
		return r;
	}
	/*
	 * libvirt logs warnings (a root-run QEMU "taints" the domain) to
	 * stderr; keep them in the cache unless the user chose otherwise.
	 */
	snprintf(logs, sizeof(logs), "3:file:%s/libvirt-hostctl.log",
		 s.cache_dir);
	setenv("LIBVIRT_LOG_OUTPUTS", logs, 0);
	*ret = s;
	return 0;
}

unsigned int setup_boot_scale(const struct setup *s)
{
	char path[PATH_MAX + 16];

	if (!*s->kernel.dir || snprintf(path, sizeof(path), "%s/config",
					s->kernel.dir) >= (int)sizeof(path))
		return 1;
	return kbuild_has_config(path, "CONFIG_KASAN", NULL, NULL, 0) == 1 ?
		       RUNNER_SANITIZER_BOOT_SCALE :
		       1;
}
