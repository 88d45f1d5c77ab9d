/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cloud image type (docs/repro.md, "Cloud images"): a qcow2 holding a
 * whole Debian userland (the locally built one, images/cloud/build.sh, or
 * a user's, --image cloud:PATH), booted with our kernel by direct boot
 * from a qcow2 overlay per VM so that the image is never written, with
 * the build's modules on a disk of their own and a NoCloud seed
 * (images/cloud/seed.sh) that installs guestd at first boot. No libvirt:
 * files and the programs that make them (qemu-img, mkfs.ext4, the
 * scripts of images/cloud/).
 */
#ifndef VLALAB_CLOUD_H
#define VLALAB_CLOUD_H

#include <limits.h>
#include <stddef.h>

/* --image's prefix for a user's cloud image. */
#define CLOUD_SPEC_PREFIX "cloud:"
/* The modules disk's file in a kernel build's folder, and its label. */
#define CLOUD_MODULES_DISK "cloud-modules.img"
#define CLOUD_MODULES_LABEL "vlalab-mods"

/* What every cloud VM of a run boots from; the overlay is per VM. */
struct cloud_image {
	char base[PATH_MAX]; /* the qcow2 the overlays sit on */
	char modules[PATH_MAX]; /* the modules disk, raw ext4 */
	char seed[PATH_MAX]; /* the NoCloud seed, raw iso9660 */
};

/*
 * The PATH of an --image value "cloud:PATH" in *@ret (pointing into
 * @spec); -EINVAL when @spec is not of that form or PATH is empty.
 */
int cloud_spec_path(const char *spec, const char **ret);

/*
 * Whether @path is a qcow2 image: 0; -ENOENT, -EACCES (or another open
 * errno) when it cannot be read; -EMEDIUMTYPE when it is not a qcow2 (its
 * first bytes are not "QFI\xfb"). Its absolute path goes to @ret.
 */
int cloud_check_qcow2(const char *path, char *ret, size_t len);

/*
 * Build or find the locally built image: images/cloud/build.sh @cache,
 * whose progress goes to stderr; its path (the script's last line of
 * output) in @ret. 0, -EIO when the script failed (it said why), or
 * another -errno.
 */
int cloud_build_local(const char *srcdir, const char *cache, char *ret,
		      size_t len);

/*
 * The modules disk of the kernel build in @kernel_dir: an ext4 file
 * system labelled CLOUD_MODULES_LABEL holding @kernel_dir/modules/lib/
 * modules (so the release's folder at its top, for /lib/modules), made
 * once (mkfs.ext4 -d) and kept in the build's folder, which its key
 * names. Its path in @ret. 0 or -errno (-EIO: mkfs.ext4 failed).
 */
int cloud_modules_disk(const char *kernel_dir, char *ret, size_t len);

/*
 * The NoCloud seed @out: images/cloud/seed.sh @out @guestd @client_pub
 * @host_key, its clocks settled (cloud_iso_settle()), so that the same
 * inputs give the same bytes, which a remote host's pool (pool.c, named
 * by content) has already from an earlier run. 0, -EIO when the script
 * failed (it said why), or -errno.
 */
int cloud_seed(const char *srcdir, const char *out, const char *guestd,
	       const char *client_pub, const char *host_key);

/* The date every clock of a seed is set to: 2000-01-01 00:00:00 UTC. */
#define CLOUD_ISO_EPOCH_YEAR 2000
/* A seed is a few hundred KiB: a bound on what is read of one. */
#define CLOUD_SEED_MAX (64 << 20)

/*
 * Settle the clocks of the ISO 9660 image @path (genisoimage's, with
 * Rock Ridge and Joliet): the volume descriptors' dates, every directory
 * record's and every Rock Ridge timestamp become CLOUD_ISO_EPOCH_YEAR's
 * first second, the file replaced whole. 0, -EINVAL for no such image
 * (nothing is written then), -EFBIG past CLOUD_SEED_MAX, or -errno.
 */
int cloud_iso_settle(const char *path);

/*
 * A qcow2 overlay @path on @base (qemu-img create -b), for one VM. 0,
 * -EIO when qemu-img failed, or -errno.
 */
int cloud_overlay(const char *base, const char *path);

#endif
