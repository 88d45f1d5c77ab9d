// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbuild_external(): a kernel built elsewhere, staged as a build of the
 * cache (builds/<key>/ with bzImage, config, modules/, gen_init_cpio and a
 * manifest), so that the image, the scenarios' requires and the results
 * treat it like one of ours (docs/kernel.md, "A kernel built elsewhere").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"

#define EXTERNAL_FORMAT "1"

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Which lib/modules/<release> folder @given means: an INSTALL_MOD_PATH
 * tree or that folder itself, for the bzImage's release only. */
static int find_modules(const char *given, const char *release, char *buf,
			size_t len, char *err, size_t errlen)
{
	char real[PATH_MAX], path[PATH_MAX], **names = NULL;
	const char *base;
	size_t n = 0;
	int r;

	if (!realpath(given, real) || !is_dir(real)) {
		r = access(given, F_OK) < 0 ? -errno : -ENOTDIR;
		snprintf(err, errlen, "the modules '%s': %s", given,
			 strerror(-r));
		return r;
	}
	r = kb_path(path, sizeof(path), "%s/lib/modules/%s", real, release);
	if (r < 0)
		return r;
	if (is_dir(path))
		goto found;
	base = strrchr(real, '/') ? strrchr(real, '/') + 1 : real;
	if (!strcmp(base, release)) {
		snprintf(path, sizeof(path), "%s", real);
		goto found;
	}
	r = kb_path(path, sizeof(path), "%s/lib/modules", real);
	if (r == 0 && kb_list_subdirs(path, &names, &n) == 0 && n) {
		snprintf(
			err, errlen,
			"the modules '%s' are for %s%s, not for the bzImage's release %s",
			given, names[0], n > 1 ? " and others" : "", release);
		kb_strv_free(names, n);
		return -EINVAL;
	}
	kb_strv_free(names, n);
	r = kb_path(path, sizeof(path), "%s/modules.dep", real);
	if (r == 0 && access(path, F_OK) == 0) {
		snprintf(
			err, errlen,
			"the modules '%s' are lib/modules/%s, not the bzImage's release %s",
			given, base, release);
		return -EINVAL;
	}
	snprintf(
		err, errlen,
		"'%s' is neither an INSTALL_MOD_PATH tree (with lib/modules/%s) nor lib/modules/%s itself",
		given, release, release);
	return -EINVAL;
found:
	r = kb_path(real, sizeof(real), "%s/modules.dep", path);
	if (r == 0 && access(real, F_OK) < 0) {
		snprintf(
			err, errlen,
			"'%s' has no modules.dep (run depmod, or make modules_install)",
			path);
		return -EINVAL;
	}
	return kb_path(buf, len, "%s", path);
}

/* The kernel's .config: the file given, else IKCONFIG in configs.ko or
 * in the bzImage. *ret_from says which. */
static int find_config(const char *given, const char *moddir,
		       const unsigned char *img, size_t imglen, char **ret,
		       char *from, size_t fromlen, char *err, size_t errlen)
{
	struct kb_config cfg = { 0 };
	const unsigned char *pl;
	char path[PATH_MAX], why[512], *data = NULL;
	size_t len = 0, pllen;
	int r;

	if (given) {
		r = fileio_read(given, KB_IKCONFIG_MAX, ret, NULL, NULL);
		if (r < 0) {
			snprintf(err, errlen, "the config '%s': %s", given,
				 strerror(-r));
			return r;
		}
		r = kb_config_parse(*ret, &cfg);
		if (r < 0 || !cfg.n) {
			snprintf(err, errlen,
				 "the config '%s' has no CONFIG_ option lines",
				 given);
			kb_config_free(&cfg);
			free(*ret);
			return -EINVAL;
		}
		kb_config_free(&cfg);
		if (!realpath(given, path))
			snprintf(path, sizeof(path), "%s", given);
		snprintf(from, fromlen, "%s", path);
		return 0;
	}
	r = kb_path(path, sizeof(path), "%s/kernel/kernel/configs.ko", moddir);
	if (r == 0 &&
	    fileio_read(path, KB_BZIMAGE_MAX, &data, &len, NULL) == 0) {
		r = kb_ikconfig_find((unsigned char *)data, len, ret, &len);
		free(data);
		if (r == 0) {
			snprintf(from, fromlen, "ikconfig:%s", path);
			return 0;
		}
	}
	r = kb_bzimage_payload(img, imglen, &pl, &pllen, why, sizeof(why));
	if (r == 0)
		r = kb_gunzip(pl, pllen, KB_VMLINUX_MAX, &data, &len);
	if (r == 0) {
		r = kb_ikconfig_find((unsigned char *)data, len, ret, &len);
		free(data);
		if (r == 0) {
			snprintf(from, fromlen, "ikconfig:bzImage");
			return 0;
		}
		snprintf(why, sizeof(why), "%s",
			 r == -ENOENT ?
				 "no IKCONFIG in it (CONFIG_IKCONFIG is off)" :
				 "its IKCONFIG blob does not unpack");
	} else if (r != -EOPNOTSUPP && r != -EINVAL) {
		snprintf(why, sizeof(why), "its payload does not gunzip: %s",
			 strerror(-r));
	}
	snprintf(
		err, errlen,
		"no config for this kernel: the bzImage has none (%s) and the modules have no kernel/kernel/configs.ko; give --config FILE, the scenarios' requires are checked against it",
		why);
	return -ENOENT;
}

/* <cache>/tools/gen_init_cpio, compiled once from the kernel source: the
 * image is packed with it as with our builds' own. */
static int gen_init_cpio(const char *cache, const char *tarball, int log_fd,
			 char *buf, size_t len)
{
	char tools[PATH_MAX], src[PATH_MAX], c[PATH_MAX], tmp[PATH_MAX];
	int r;

	r = kb_path(tools, sizeof(tools), "%s/tools", cache);
	if (r == 0)
		r = kb_path(buf, len, "%s/gen_init_cpio", tools);
	if (r == 0)
		r = kb_path(src, sizeof(src), "%s/gen_init_cpio.src", tools);
	if (r == 0)
		r = kb_path(c, sizeof(c), "%s/usr/gen_init_cpio.c", src);
	if (r == 0)
		r = kb_path(tmp, sizeof(tmp), "%s.tmp", buf);
	if (r < 0)
		return r;
	if (access(buf, X_OK) == 0)
		return 0;
	r = kb_rm_rf(src);
	if (r == 0)
		r = kb_mkdir_p(src, 0755);
	if (r == 0) {
		char *tar[] = { "tar",
				"-xf",
				(char *)tarball,
				"-C",
				src,
				"--strip-components=1",
				"--wildcards",
				"*/usr/gen_init_cpio.c",
				NULL };

		r = kb_run_logged(tar, NULL, log_fd, NULL, NULL);
	}
	if (r == 0) {
		char *cc[] = { "gcc", "-O2", "-o", tmp, c, NULL };

		r = kb_run_logged(cc, NULL, log_fd, NULL, NULL);
	}
	if (r == 0 && rename(tmp, buf) < 0)
		r = -errno;
	kb_rm_rf(src);
	return r;
}

static int compute_key(const char *sha, const char *config, const char *moddir,
		       char ret[65])
{
	struct kb_hash *h = NULL;
	char mods[65];
	int r;

	r = kb_files_id(moddir, mods);
	if (r == 0)
		r = kb_hash_new(&h);
	if (r == 0)
		r = kb_hash_add_str(h, "vlalab-external", EXTERNAL_FORMAT);
	if (r == 0)
		r = kb_hash_add_str(h, "bzimage", sha);
	if (r == 0)
		r = kb_hash_add_str(h, "config", config);
	if (r == 0)
		r = kb_hash_add_str(h, "modules", mods);
	if (r == 0)
		r = kb_hash_final(h, ret);
	kb_hash_free(h);
	return r;
}

/* Copies what the build folder holds, then writes its manifest last. */
static int stage(const struct kbuild_external_opts *o, const char *dir,
		 const char *moddir, const char *config, const char *gen,
		 const struct kb_manifest *m, int log_fd)
{
	char path[PATH_MAX], *json = NULL;
	int fd, r;

	r = kb_path(path, sizeof(path), "%s/bzImage", dir);
	if (r == 0)
		r = kb_copy_file(o->bzimage, path);
	if (r == 0)
		r = kb_path(path, sizeof(path), "%s/config", dir);
	if (r == 0)
		r = fileio_write_atomic(path, config, strlen(config));
	if (r == 0)
		r = kb_path(path, sizeof(path), "%s/gen_init_cpio", dir);
	if (r == 0)
		r = kb_copy_file(gen, path);
	if (r == 0)
		r = kb_path(path, sizeof(path), "%s/modules/lib/modules", dir);
	if (r == 0)
		r = kb_rm_rf(path);
	if (r == 0)
		r = kb_mkdir_p(path, 0755);
	if (r == 0) {
		char dst[PATH_MAX];
		char *cp[] = { "cp", "-a",	     "--reflink=auto",
			       "--", (char *)moddir, dst,
			       NULL };

		r = kb_path(dst, sizeof(dst), "%s/%s", path, m->release);
		if (r == 0)
			r = kb_run_logged(cp, NULL, log_fd, NULL, NULL);
	}
	if (r < 0)
		return r;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = syncfs(fd) < 0 ? -errno : 0;
	close(fd);
	if (r == 0)
		r = kb_manifest_to_json(m, &json);
	if (r == 0)
		r = kb_path(path, sizeof(path), "%s/manifest.json", dir);
	if (r == 0)
		r = fileio_write_atomic(path, json, strlen(json));
	free(json);
	return r;
}

int kbuild_external(const struct kbuild_external_opts *o,
		    struct kbuild_result *ret)
{
	struct kbuild_result res = { 0 };
	struct kb_manifest m = { 0 };
	struct kb_progress p;
	char cache[PATH_MAX], dir[PATH_MAX], moddir[PATH_MAX], gen[PATH_MAX];
	char bz[PATH_MAX], log_path[PATH_MAX], from[PATH_MAX + 16];
	char err[PATH_MAX + 512], release[65], sha[65], version[256];
	char *img = NULL, *config = NULL;
	size_t imglen = 0, off;
	double t0 = kb_now();
	int r, log_fd = -1;

	kb_progress_init(&p, o->msg, true);
	r = o->cache_dir ? kb_path(cache, sizeof(cache), "%s", o->cache_dir) :
			   kbuild_cache_dir(cache, sizeof(cache));
	if (r < 0)
		return r;
	if (!o->bzimage || !o->modules)
		return -EINVAL;
	if (!realpath(o->bzimage, bz)) {
		r = -errno;
		kb_msg(&p, "kbuild: the bzImage '%s': %s", o->bzimage,
		       strerror(-r));
		return r;
	}
	r = fileio_read(bz, KB_BZIMAGE_MAX, &img, &imglen, NULL);
	if (r < 0) {
		kb_msg(&p, "kbuild: the bzImage '%s': %s", o->bzimage,
		       r == -EFBIG ? "larger than 256 MiB" : strerror(-r));
		return r;
	}
	r = kb_bzimage_release((unsigned char *)img, imglen, release,
			       sizeof(release), err, sizeof(err));
	if (r == 0)
		r = find_modules(o->modules, release, moddir, sizeof(moddir),
				 err, sizeof(err));
	if (r == 0)
		r = find_config(o->config, moddir, (unsigned char *)img, imglen,
				&config, from, sizeof(from), err, sizeof(err));
	if (r < 0) {
		kb_msg(&p, "kbuild: --kernel '%s': %s", o->bzimage, err);
		r = r == -ENOMEM ? r : -EINVAL;
		goto out;
	}
	off = ((unsigned char)img[0x20e] | (unsigned char)img[0x20f] << 8) +
	      0x200;
	snprintf(version, sizeof(version), "%.*s",
		 (int)strnlen(img + off, imglen - off), img + off);
	r = kb_sha256_hex(img, imglen, sha);
	if (r == 0)
		r = compute_key(sha, config, moddir, res.key);
	if (r == 0)
		r = kb_path(dir, sizeof(dir), "%s/builds/%s", cache, res.key);
	if (r == 0)
		r = kb_path(res.config, sizeof(res.config), "%s/config", dir);
	if (r < 0)
		goto out;
	snprintf(res.dir, sizeof(res.dir), "%s", dir);
	snprintf(res.release, sizeof(res.release), "%s", release);
	r = kb_cache_use(&p, cache, "build", res.key);
	if (r < 0)
		goto out;
	if (kb_cache_hit(dir, &res)) {
		res.cache_hit = true;
		goto done;
	}
	r = kb_mkdir_p(dir, 0755);
	if (r == 0)
		r = kb_path(log_path, sizeof(log_path), "%s/build.log", dir);
	if (r < 0)
		goto out;
	log_fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (log_fd < 0) {
		r = -errno;
		goto out;
	}
	kb_progress_stage(&p, "staging the external kernel");
	r = gen_init_cpio(cache,
			  o->tarball ? o->tarball : KBUILD_DEFAULT_TARBALL,
			  log_fd, gen, sizeof(gen));
	if (r < 0) {
		kb_msg(&p,
		       "kbuild: cannot compile gen_init_cpio from '%s' (log: %s): %s",
		       o->tarball ? o->tarball : KBUILD_DEFAULT_TARBALL,
		       log_path, strerror(-r));
		goto out;
	}
	/* The version string names who built it and when, not the
	 * compiler. */
	m.source_version = "external";
	m.compiler = "unknown (built elsewhere)";
	m.ext_version = version;
	m.flavour = "external";
	snprintf(m.key, sizeof(m.key), "%s", res.key);
	snprintf(m.release, sizeof(m.release), "%s", release);
	m.timestamp = time(NULL);
	m.ext_bzimage = bz;
	snprintf(m.ext_sha256, sizeof(m.ext_sha256), "%s", sha);
	m.ext_modules = moddir;
	m.ext_config = from;
	r = stage(o, dir, moddir, config, gen, &m, log_fd);
	if (r < 0) {
		kb_msg(&p,
		       "kbuild: staging the kernel in '%s': %s; not cached (no manifest.json)",
		       dir, strerror(-r));
		goto out;
	}
done:
	kb_progress_done(&p);
	kb_msg(&p, "kbuild: external kernel %s (sha256 %.12s, config from %s)",
	       release, sha, from);
	res.seconds = kb_now() - t0;
	*ret = res;
	r = 0;
out:
	kb_progress_done(&p);
	if (log_fd >= 0)
		close(log_fd);
	free(img);
	free(config);
	return r;
}
