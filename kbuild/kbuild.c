// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbuild_run(): the kernel build pipeline with its cache. The key is
 * computed from the inputs first (inputs.c), so a hit (cache.c) never
 * touches the tree or make. On a miss: lock the flavour, prepare the tree
 * (tree.c, prepare.c), configure and verify (configure.c), make bzImage
 * and modules in obj/<flavour> and install the modules (make.c), then copy
 * the artefacts and write manifest.json last (cache.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"

int kbuild_run(const struct kbuild_opts *opts, struct kbuild_result *ret)
{
	const struct kb_line *l = kb_line_get(opts->line);
	const char *tarball = opts->tarball ? opts->tarball :
			      l		    ? l->tarball :
					      KBUILD_DEFAULT_TARBALL;
	const char *flavour = opts->tree    ? (opts->tree_series ?
						       KB_TREE_SERIES_FLAVOUR :
						       KB_TREE_FLAVOUR) :
			      opts->flavour ? opts->flavour :
					      KBUILD_DEFAULT_FLAVOUR;
	/* The folders' and the lock's name: the flavour's, or for a user's
	 * tree "tree-" and a hash of its path. */
	char name[KBUILD_FLAVOUR_MAX + 8], user_src[PATH_MAX];
	char **absent = NULL;
	size_t nabsent = 0;
	char cache[PATH_MAX], tree[PATH_MAX], obj[PATH_MAX], dir[PATH_MAX],
		log_path[PATH_MAX];
	char patches_dir[PATH_MAX], shared_dir[PATH_MAX], path[PATH_MAX];
	struct kbuild_result res = { 0 };
	struct kb_inputs in = { 0 };
	struct kb_progress p;
	double t0 = kb_now(), tbuild;
	struct kb_evidence *ev = NULL;
	size_t nev = 0;
	bool incremental = false, seeded = false;
	double seed_secs = -1;
	int jobs = opts->jobs, lock_fd = -1, log_fd = -1, r, r2;
	struct kb_warnings warn = { 0 };
	char key[65], *release = NULL, *manifest = NULL;
	struct stat st;

	kb_progress_init(&p, opts->msg, opts->progress);
	if (!opts->kernel_dir)
		return -EINVAL;
	if (!l || (opts->tree && !kb_line_is_default(l))) {
		char err[256];

		if (l)
			snprintf(
				err, sizeof(err),
				"a user's tree is not a Debian line: no --line with --tree");
		else
			kbuild_line_check(opts->line, err, sizeof(err));
		kb_msg(&p, "kbuild: %s", err);
		return -EINVAL;
	}
	in.line = l;
	r = kb_line_name(l, flavour, name, sizeof(name));
	if (r < 0)
		return r;
	if (opts->tree) {
		char hex[65], what[PATH_MAX + 16];

		if (!realpath(opts->tree, user_src)) {
			r = -errno;
			kb_msg(&p, "kbuild: the tree '%s': %s", opts->tree,
			       strerror(-r));
			return r;
		}
		snprintf(what, sizeof(what), "%s%s", user_src,
			 opts->tree_series ? "\n+series" : "");
		r = kb_sha256_hex(what, strlen(what), hex);
		if (r < 0)
			return r;
		snprintf(name, sizeof(name), "tree-%.12s", hex);
		if (opts->n_without && !opts->tree_series) {
			kb_msg(&p,
			       "kbuild: leaving patches out of a user's tree needs the series on it");
			return -EINVAL;
		}
	} else if (!kb_flavour_is_builtin(flavour)) {
		char err[512];

		r = kbuild_flavour_check(opts->kernel_dir, flavour, err,
					 sizeof(err));
		if (r == -EINVAL)
			kb_msg(&p, "kbuild: %s", err);
		if (r < 0)
			return r;
	}
	if (jobs <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = n > 0 ? (int)n : 1;
	}
	r = opts->cache_dir ?
		    kb_path(cache, sizeof(cache), "%s", opts->cache_dir) :
		    kbuild_cache_dir(cache, sizeof(cache));
	if (r < 0)
		return r;
	if (!opts->tree && stat(tarball, &st) < 0) {
		r = -errno;
		kb_msg(&p, "kbuild: kernel source '%s': %s (install %s)",
		       tarball, strerror(-r), l->package);
		return r;
	}
	r = kb_line_patches_dir(l, opts->kernel_dir, patches_dir,
				sizeof(patches_dir));
	if (r == 0)
		r = kb_path(shared_dir, sizeof(shared_dir), "%s/patches",
			    opts->kernel_dir);
	if (r < 0)
		return r;

	/* The key, from the inputs alone. */
	if (opts->tree) {
		char err[PATH_MAX + 512];

		r = kb_usertree_id(user_src, in.source_version,
				   sizeof(in.source_version), err, sizeof(err));
		if (r < 0) {
			kb_msg(&p, "kbuild: %s", err);
			if (r == -EBUSY)
				r = -EINVAL;
			goto out;
		}
	} else {
		r = kb_source_version(tarball, l, in.source_version,
				      sizeof(in.source_version));
	}
	if (r < 0)
		goto out;
	r = kb_run_capture((char *[]){ "gcc", "--version", NULL }, NULL,
			   in.compiler, sizeof(in.compiler));
	if (r < 0) {
		kb_msg(&p, "kbuild: cannot run 'gcc --version': %s",
		       strerror(-r));
		goto out;
	}
	*strchrnul(in.compiler, '\n') = '\0';
	if (opts->n_without && !strcmp(flavour, "vanilla")) {
		kb_msg(&p,
		       "kbuild: leaving patches out needs a flavour with the series, not '%s'",
		       flavour);
		r = -EINVAL;
		goto out;
	}
	r = kb_inputs_read(opts->kernel_dir, l, flavour, opts, &in, &p);
	if (r < 0)
		goto out;
	r = kb_inputs_key(&in, flavour, key);
	if (r < 0)
		goto out;
	snprintf(res.key, sizeof(res.key), "%s", key);
	r = kb_path(dir, sizeof(dir), "%s/builds/%s", cache, key);
	if (r == 0)
		r = kb_path(res.config, sizeof(res.config), "%s/config", dir);
	if (r == 0 && opts->tree && !opts->tree_series)
		r = kb_path(res.tree, sizeof(res.tree), "%s", user_src);
	else if (r == 0)
		r = kb_path(res.tree, sizeof(res.tree), "%s/trees/%s", cache,
			    name);
	if (r < 0)
		goto out;
	snprintf(res.dir, sizeof(res.dir), "%s", dir);
	if (opts->key_only) {
		res.cache_hit = kb_cache_hit(dir, &res);
		goto done;
	}
	/* Before the hit check, so that gc --cache leaves the build alone
	 * while this process lives, whether it finds or makes it. */
	if (!opts->config_only) {
		r = kb_cache_use(&p, cache, "build", key);
		if (r < 0)
			goto out;
	}
	if (!opts->config_only && kb_cache_hit(dir, &res)) {
		res.cache_hit = true;
		goto done;
	}

	r = kb_mkdir_p(cache, 0755);
	if (r == 0)
		r = kb_cache_lock(cache, name, &p, &lock_fd);
	if (r < 0)
		goto out;
	/* Someone else may have built it while we waited. */
	if (!opts->config_only && kb_cache_hit(dir, &res)) {
		res.cache_hit = true;
		goto done;
	}
	if (opts->obj_dir)
		r = kb_path(obj, sizeof(obj), "%s", opts->obj_dir);
	else
		r = kb_path(obj, sizeof(obj), "%s/obj/%s", cache, name);
	if (r < 0)
		goto out;
	if (opts->config_only)
		r = kb_path(log_path, sizeof(log_path), "%s.config.log", obj);
	else
		r = kb_path(log_path, sizeof(log_path), "%s/build.log", dir);
	/* With config_only the log sits beside obj (which may be wiped). */
	if (r == 0)
		r = kb_mkdir_p(opts->config_only ? obj : dir, 0755);
	if (r < 0)
		goto out;
	log_fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (log_fd < 0) {
		r = -errno;
		kb_msg(&p, "kbuild: cannot create the log '%s': %s", log_path,
		       strerror(-r));
		goto out;
	}

	if (opts->tree) {
		if (opts->tree_series)
			r = kb_prepare_copy(opts, cache, name,
					    in.source_version, &in, patches_dir,
					    log_fd, &p, tree, sizeof(tree),
					    obj);
		else
			r = kb_path(tree, sizeof(tree), "%s", user_src);
		if (r == 0 && !opts->obj_dir)
			r = kb_prepare_seed_usertree(cache, tree, obj, log_fd,
						     &p, &seed_secs);
		seeded = seed_secs >= 0;
		if (r == 0)
			r = kb_mkdir_p(obj, 0755);
		if (r < 0)
			goto out;
		r = kb_path(path, sizeof(path), "%s/.config", obj);
		if (r < 0)
			goto out;
		incremental = stat(path, &st) == 0;
		goto configure;
	}
	if (!opts->obj_dir && !kb_flavour_is_builtin(flavour)) {
		char from[KBUILD_FLAVOUR_MAX + 8];

		r = kb_line_name(l, KB_SEED_FROM, from, sizeof(from));
		if (r == 0)
			r = kb_prepare_seed(cache, from, name, log_fd, &p,
					    &seed_secs);
		if (r < 0)
			goto out;
		seeded = seed_secs >= 0;
	}
	r = kb_tree_prepare(
		&(struct kb_tree_opts){
			.cache_dir = cache,
			.flavour = name,
			.tarball = tarball,
			.source_version = in.source_version,
			.patches_dir = patches_dir,
			.shared_dir = kb_line_is_default(l) ? NULL : shared_dir,
			.kernel_dir = opts->kernel_dir,
			.series = &in.series,
			.log_fd = log_fd,
			.p = &p,
		},
		tree, sizeof(tree));
	if (r < 0)
		goto out;
	r = kb_prepare_obj(tree, obj, &p, &incremental);
	if (r < 0)
		goto out;
configure:
	r = kb_configure(tree, obj, &in, jobs, log_fd, log_path, &p,
			 opts->tree ? &absent : NULL, &nabsent);
	if (r < 0)
		goto out;
	res.n_missing = nabsent;
	if (opts->config_only) {
		r = kb_path(res.config, sizeof(res.config), "%s/.config", obj);
		if (r < 0)
			goto out;
		res.dir[0] = '\0';
		kb_progress_done(&p);
		goto done;
	}

	tbuild = kb_now();
	kb_progress_stage(&p, "building bzImage and modules");
	r = kb_make(tree, obj, jobs, (char *[]){ "bzImage", "modules", NULL },
		    log_fd, &p);
	r2 = kb_make_ledger(obj, log_path, incremental, &warn);
	if (r < 0) {
		kb_make_failure(&p, "make bzImage modules", log_path);
		goto out;
	}
	if (r2 < 0) {
		r = r2;
		kb_msg(&p,
		       "kbuild: cannot update the warning ledger in '%s': %s",
		       obj, strerror(-r));
		goto out;
	}
	r = kb_path(path, sizeof(path), "%s/include/config/kernel.release",
		    obj);
	if (r == 0)
		r = fileio_read(path, FILEIO_ALL, &release, NULL, NULL);
	if (r < 0)
		goto out;
	*strchrnul(release, '\n') = '\0';
	if (strlen(release) >= sizeof(res.release)) {
		r = -ENAMETOOLONG;
		goto out;
	}
	snprintf(res.release, sizeof(res.release), "%s", release);

	kb_progress_stage(&p, "installing modules");
	r = kb_path(path, sizeof(path), "%s/modules", dir);
	if (r == 0)
		r = kb_rm_rf(path);
	if (r == 0) {
		char mp[PATH_MAX + 32];

		r = kb_path(mp, sizeof(mp), "INSTALL_MOD_PATH=%s", path);
		if (r == 0)
			/* vmlinux keeps the debug info; the image needs none. */
			r = kb_make(tree, obj, jobs,
				    (char *[]){ mp, "INSTALL_MOD_STRIP=1",
						"modules_install", NULL },
				    log_fd, NULL);
		if (r < 0) {
			kb_make_failure(&p, "make modules_install", log_path);
			goto out;
		}
	}
	r = kb_make_extmods(tree, obj, &in.extmods, path, jobs, log_fd, &p);
	if (r < 0) {
		kb_make_failure(&p, "building kernel/modules", log_path);
		goto out;
	}
	/* The manifest's build_seconds: make and modules_install, not the
	 * evidence compiles. */
	tbuild = kb_now() - tbuild;
	/* The evidence measures our series' functions in Debian's tree. */
	if (in.evidence.nfn && !opts->tree) {
		kb_progress_stage(&p, "measuring code and stack (evidence)");
		r = kb_path(path, sizeof(path), "%s/evidence", dir);
		if (r == 0)
			r = kb_rm_rf(path);
		if (r == 0)
			r = kb_evidence_collect(obj, path, &in.evidence, &ev,
						&nev);
		if (r < 0) {
			kb_msg(&p,
			       "kbuild: cannot measure the functions of kernel/evidence in '%s': %s (compiler output in '%s')",
			       obj, strerror(-r), path);
			goto out;
		}
	}
	snprintf(path, sizeof(path), "the manifest of %s", key);
	r = kb_cache_manifest(flavour, key, res.release, &in, tbuild,
			      incremental, &warn, seeded ? KB_SEED_FROM : NULL,
			      seed_secs, ev, nev,
			      &(struct kb_manifest){
				      .tree_path = opts->tree ? user_src : NULL,
				      .tree_id = in.source_version,
				      .tree_series = opts->tree_series,
				      .absent = absent,
				      .nabsent = nabsent,
			      },
			      &manifest);
	if (r == 0)
		r = kb_cache_commit(obj, dir, manifest, path, sizeof(path));
	if (r < 0) {
		kb_msg(&p,
		       "kbuild: writing '%s': %s; the build is not cached (no manifest.json)",
		       path, strerror(-r));
		goto out;
	}
	kb_progress_stage(&p, "done");
	kb_progress_done(&p);
done:
	res.seconds = kb_now() - t0;
	*ret = res;
	r = 0;
out:
	kb_progress_done(&p);
	free(release);
	free(manifest);
	if (log_fd >= 0)
		close(log_fd);
	if (lock_fd >= 0)
		close(lock_fd);
	kb_inputs_free(&in);
	kb_evidence_free(ev, nev);
	kb_strv_free(absent, nabsent);
	return r;
}
