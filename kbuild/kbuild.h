/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel pipeline: unpack Debian's linux-source-6.1, apply the patch
 * series, merge and verify the config fragments, build bzImage and modules
 * in a cached object tree, and pack the guest initramfs.
 *
 * Everything lives in the cache directory (docs/kernel.md):
 *   trees/<flavour>/        unpacked source, .vlalab/ records what is applied
 *   obj/<flavour>/          the O= object tree, kept for incremental builds
 *   builds/<key>/           bzImage, vmlinux, System.map, config, modules/,
 *                           manifest.json (written last: a hit), build.log
 *   images/<key>/           initramfs.cpio.gz
 *   uses.log, locks/        who used which build and image (uses.c)
 *
 * Functions return 0 or a negative errno. Details a user must read (a patch
 * that does not apply, dropped config options, a failed make) are printed
 * once to opts->msg (stderr when NULL), since only they know the context.
 */
#ifndef VLALAB_KBUILD_H
#define VLALAB_KBUILD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define KBUILD_DEFAULT_TARBALL "/usr/src/linux-source-6.1.tar.xz"
#define KBUILD_DEFAULT_FLAVOUR "patched"
/* The kernel line (docs/kernel.md, "Lines"): Debian's linux-source-<line>. */
#define KBUILD_DEFAULT_LINE "6.1"

/* 0 if line is a known kernel line; -EINVAL with err listing them. */
int kbuild_line_check(const char *line, char *err, size_t errlen);
/* The name of the i-th known line (from 0, the default first), or NULL
 * past the last: to go through every line. */
const char *kbuild_line_at(size_t i);
/* The source tarball of a known line (/usr/src/linux-source-<line>.tar.xz),
 * or NULL. */
const char *kbuild_line_tarball(const char *line);

/* ${VLALAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/vlalab} into buf; 0 or -errno. */
int kbuild_cache_dir(char *buf, size_t len);

/*
 * The cache's record of its own uses (uses.c; docs/nightly.md, "gc"): a
 * line per use in <cache>/uses.log, and a shared flock on
 * <cache>/locks/<kind>-<key>.lock held until the process exits. kbuild
 * records each build and image it finds or makes; hostctl the cloud image.
 */
#define KBUILD_CACHE_USES "uses.log"
#define KBUILD_CACHE_KEY_MAX 80 /* "ext-" or "cloud-" and 64 hex digits */
#define KBUILD_CACHE_RUN_MAX 64

/* Whether s is a key or run id the log can hold: 1 to max of [A-Za-z0-9-_.],
 * not starting with '.'. */
bool kbuild_cache_name_ok(const char *s, size_t max);

/* Names this process's uses from now on (hostctl run's run id); without
 * it, "<date>-<time>-<pid>" of the first use. 0 or -EINVAL. */
int kbuild_cache_run_id(const char *id);

/* Records a use of builds/<key> (kind "build") or images/<key> ("image")
 * in cache. 0 or -errno: a use that cannot be recorded is an error. */
int kbuild_cache_use(const char *cache, const char *kind, const char *key);

struct kbuild_cache_use {
	time_t when;
	bool build; /* else an image */
	char key[KBUILD_CACHE_KEY_MAX + 1];
	char run[KBUILD_CACHE_RUN_MAX];
};

/* Reads cache's uses.log, oldest first, into *ret (malloc'd). -ENOENT when
 * there is none; -EBADMSG for a line that is not a use, *ret_line its
 * number; another -errno. */
int kbuild_cache_uses_read(const char *cache, struct kbuild_cache_use **ret,
			   size_t *ret_n, size_t *ret_line);

/* Takes the lock of an entry exclusively without waiting, for its removal:
 * 0 and *ret_fd, -EWOULDBLOCK when a hostctl uses it, another -errno.
 * Without create (a dry run), a lock file that is not there is not made:
 * 0 and *ret_fd -1. */
int kbuild_cache_lock(const char *cache, const char *kind, const char *key,
		      bool create, int *ret_fd);
/* Drops it; gone: the entry was removed, so its lock file goes too. */
int kbuild_cache_unlock(const char *cache, const char *kind, const char *key,
			int fd, bool gone);

/* The longest flavour name. */
#define KBUILD_FLAVOUR_MAX 32

/*
 * A flavour is "patched" (the series applied), "vanilla" (no patches), or
 * the name of a folder kernel/flavours/<name>/ whose *.config fragments are
 * merged after configs/ on the patched tree (docs/kernel.md, "Flavours").
 * 0 if kernel_dir has flavour; -EINVAL with err saying why and listing the
 * known ones; another -errno if kernel_dir cannot be read.
 */
int kbuild_flavour_check(const char *kernel_dir, const char *flavour, char *err,
			 size_t errlen);

/* The hex SHA-256 of @len bytes at @data into @ret_hex. 0 or -EIO. */
int kbuild_sha256_hex(const void *data, size_t len, char ret_hex[65]);

struct kbuild_opts {
	const char *cache_dir; /* NULL: kbuild_cache_dir() */
	const char *
		kernel_dir; /* the repo's kernel/ folder (patches/, configs/) */
	const char *tarball; /* NULL: the line's, kbuild_line_tarball() */
	/* The kernel line, "6.1" or "6.12" (NULL: KBUILD_DEFAULT_LINE): the
	 * source package, the series (kernel/patches/<line>/series beside
	 * 6.1's kernel/patches/series), the key, trees/ and obj/. */
	const char *line;
	const char *flavour; /* NULL: "patched"; kbuild_flavour_check() */
	int jobs; /* 0: nproc */
	bool progress; /* print progress to msg (TTY: one updating line; else plain lines) */
	/* Additions to the agreed interface: */
	bool config_only; /* stop after the verified .config; nothing cached in builds/ */
	/* Stop after the key: result's key and dir (builds/<key>/), and
	 * cache_hit when that build is cached; nothing built or locked. */
	bool key_only;
	const char *
		obj_dir; /* NULL: <cache>/obj/<flavour>; tests use a scratch one */
	FILE *msg; /* progress and failure details; NULL: stderr */
	/* Patches of the series to leave out (patched flavour only): each a
	 * file name or a prefix of exactly one ("0001"). A different key and
	 * manifest.json's "without"; trees/ and obj/ move as for a series
	 * change. */
	const char *const *without;
	size_t n_without;
	/* A user's kernel tree to build instead of the Debian tarball, or
	 * NULL (docs/kernel.md, "Your own kernel"): built with O= into
	 * obj/tree-<hash of its path>, never written; keyed by its commit
	 * (a git checkout with uncommitted changes is refused) or by its
	 * files' names, sizes and mtimes. flavour is ignored. Our fragments
	 * are merged and verified; a fragment's option that does not make
	 * it (the tree's Kconfig lacks it or its dependencies differ) is
	 * reported and listed in the manifest ("tree": "missing_options"),
	 * not an error, except those of base.config. */
	const char *tree;
	/* With tree: apply our series (without the left-out patches) on a
	 * private copy, trees/tree-<hash>. */
	bool tree_series;
};

/* Checks opts-style without names against the series of kernel_dir and line (NULL: 6.1) before a
 * build: 0, or -EINVAL with err naming the bad one and listing the series
 * (a usage error), or another -errno if the series cannot be read. */
int kbuild_without_check(const char *kernel_dir, const char *line,
			 const char *const *without, size_t n, char *err,
			 size_t errlen);

/* The full file name of the patch of line's series (NULL: 6.1's) that
 * name (a file name or a prefix of exactly one, as for without) means,
 * malloc'd into *ret_full: 0, or -EINVAL with err saying why and listing
 * the series, or another -errno if the series cannot be read. */
int kbuild_series_resolve(const char *kernel_dir, const char *line,
			  const char *name, char **ret_full, char *err,
			  size_t errlen);

/* What a build has, for a scenario's requires (docs/scenarios.md). Both
 * read the build's files on each call; when one cannot be read they return
 * its -errno and, if err is not NULL, say which in it ("cannot read '<path>':
 * <reason>"). */

/* Whether the .config at config_path sets opt ("CONFIG_FOO") to y or m: 1 or
 * 0. *ret_value, when ret_value is not NULL, is then the option's value as
 * written (malloc'd), or NULL when it is not set. */
int kbuild_has_config(const char *config_path, const char *opt,
		      char **ret_value, char *err, size_t errlen);

/* Whether the build whose staged lib/modules/<release> is modules_dir has the
 * module name: 1 or 0. Built as a module per modules.dep (without one, a .ko
 * file below modules_dir), or built in per modules.builtin if there is one;
 * names compare as kbuild_module_name_eq() says. */
int kbuild_has_module(const char *modules_dir, const char *name, char *err,
		      size_t errlen);

/* Whether the module name of that build takes the parameter param: 1 or 0,
 * from the "parmtype=" entries of its .ko's .modinfo section (modules.dep
 * names the file) or, built in, of modules.builtin.modinfo. A module that is
 * not built is an error (-ENOENT), as is a compressed .ko (-EOPNOTSUPP). */
int kbuild_has_module_param(const char *modules_dir, const char *name,
			    const char *param, char *err, size_t errlen);

/* Whether two module names are one: '-' and '_' compare equal, as in modprobe. */
bool kbuild_module_name_eq(const char *a, const char *b);

/* With config_only, dir is empty and config points into the object tree. */
struct kbuild_result {
	char dir[PATH_MAX]; /* builds/<key>/: bzImage, vmlinux, System.map, config, modules/ (INSTALL_MOD_PATH tree), manifest.json, build.log */
	char key[65]; /* hex sha256 cache key */
	char release[65]; /* kernel release, as uname -r will say */
	bool cache_hit;
	/* Additions: */
	char config[PATH_MAX]; /* the verified .config (builds/<key>/config, or obj's with config_only) */
	char tree[PATH_MAX]; /* trees/<flavour>/: the source the kernel was built from */
	double seconds; /* wall time of this call */
	/* With opts->tree: how many fragment options did not make it into
	 * the tree's .config (reported, and in the manifest). */
	size_t n_missing;
};

int kbuild_run(const struct kbuild_opts *opts, struct kbuild_result *ret);

/* A kernel built elsewhere (hostctl run --kernel, docs/kernel.md). */
struct kbuild_external_opts {
	const char *cache_dir; /* NULL: kbuild_cache_dir() */
	const char *bzimage; /* an x86 bzImage */
	/* An INSTALL_MOD_PATH tree (lib/modules/<release>/ in it) or a
	 * lib/modules/<release> folder itself; <release> must be the
	 * bzImage's. */
	const char *modules;
	/* The kernel's .config, or NULL: then the IKCONFIG blob of
	 * modules' kernel/configs.ko or of the bzImage's gzip payload; with
	 * none, an error (requires could not be checked). */
	const char *config;
	/* For gen_init_cpio, compiled once into <cache>/tools/ from this
	 * source (NULL: the Debian tarball). */
	const char *tarball;
	FILE *msg; /* NULL: stderr */
};

/* Stages the kernel as a build in <cache>/builds/ext-<key> (bzImage,
 * config, modules/, gen_init_cpio, manifest.json with "external"), so that
 * the image, requires and the results treat it as any build; the key is
 * over the bzImage's and config's content and the modules' names, sizes
 * and mtimes. 0, or -errno after saying why to msg (-EINVAL for bad
 * input). */
int kbuild_external(const struct kbuild_external_opts *opts,
		    struct kbuild_result *ret);

/* Prints a build's measurements from its manifest (builds/<key>/ in dir):
 * the -Wvla and -Wframe-larger-than totals, whether it was seeded, and
 * per function of kernel/evidence and variant its code size, frame and
 * warnings (docs/evidence.md). -errno when the manifest cannot be read. */
int kbuild_evidence_print(const char *dir, FILE *out);

/* A host program to copy into the image, with the shared libraries it
 * loads (docs/kernel.md): host is its path here (symlinks followed), guest
 * its absolute path in the image. */
struct kbuild_image_program {
	const char *host;
	const char *guest;
};

struct kbuild_image_opts {
	const char *cache_dir; /* NULL: kbuild_cache_dir() */
	const struct kbuild_result *kernel;
	const char *
		guestd; /* guestd binary for /sbin/guestd (with its libraries), or NULL */
	const char *extra_dir; /* files copied under / in the image, or NULL */
	bool progress;
	/* Additions: */
	const char *init; /* NULL: VLALAB_SRCDIR "/images/init" */
	const char *busybox; /* NULL: /bin/busybox (busybox-static) */
	FILE *msg; /* NULL: stderr */
	const struct kbuild_image_program
		*programs; /* host programs and their libraries, or NULL */
	size_t n_programs;
	/* Folders of the kernel tree's tools/testing/selftests (kernel->tree)
	 * to carry at /usr/lib/kselftest/<dir>, each one path component;
	 * or NULL (docs/kselftest.md). */
	const char *const *kselftests;
	size_t n_kselftests;
	/* The SSH login (docs/repro.md): an OpenSSH public key line file
	 * authorised for root, or NULL for an image without one. Needs
	 * dropbear among the programs, and dropbearkey on the host. */
	const char *ssh_authorized_key;
};

struct kbuild_image_result {
	char path[PATH_MAX];
	/* With ssh_authorized_key: the image's dropbear host key, public part
	 * (one OpenSSH line), for hostctl to pin; else empty. */
	char ssh_host_key_pub[PATH_MAX];
	char key[65];
	bool cache_hit;
	uint64_t size;
};

int kbuild_image_build(const struct kbuild_image_opts *opts,
		       struct kbuild_image_result *ret);

#endif
