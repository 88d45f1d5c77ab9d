// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trees a build compiles in, before it configures: a new flavour's
 * trees seeded from the patched flavour's (seed.c), a user's tree's
 * object tree seeded from patched's when that is safe, the copy of a
 * user's tree with our series applied, and the object tree wiped when
 * its source was unpacked again (tree.c: tree-id).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"

/* Wipes the object tree when it was built from another unpacking of the
 * source (tree.c: tree-id), then records the current id. */
int kb_prepare_obj(const char *tree, const char *obj, struct kb_progress *p,
		   bool *ret_incremental)
{
	char tid_path[PATH_MAX], oid_path[PATH_MAX], cfg[PATH_MAX];
	char *tid = NULL, *oid = NULL;
	struct stat st;
	int r;

	r = kb_path(tid_path, sizeof(tid_path), "%s/.vlalab/tree-id", tree);
	if (r == 0)
		r = kb_path(oid_path, sizeof(oid_path), "%s/.vlalab-tree-id",
			    obj);
	if (r == 0)
		r = kb_path(cfg, sizeof(cfg), "%s/.config", obj);
	if (r < 0)
		return r;
	r = fileio_read(tid_path, FILEIO_ALL, &tid, NULL, NULL);
	if (r < 0)
		return r;
	if (fileio_read(oid_path, FILEIO_ALL, &oid, NULL, NULL) == 0 &&
	    strcmp(oid, tid)) {
		kb_progress_stage(
			p,
			"wiping the object tree (the source was unpacked again)");
		r = kb_rm_rf(obj);
		if (r < 0)
			goto out;
	}
	r = kb_mkdir_p(obj, 0755);
	if (r == 0)
		r = fileio_write_atomic(oid_path, tid, strlen(tid));
	*ret_incremental = stat(cfg, &st) == 0;
out:
	free(tid);
	free(oid);
	return r;
}

/* A flavour of our own that has no tree yet starts from a copy of the
 * patched flavour's trees (seed.c; from, its name on the line), under that
 * flavour's lock, so that it
 * compiles only what its fragments and patches change. *ret_secs: the
 * copy's seconds, or -1 when there was nothing to seed from (or no need). */
int kb_prepare_seed(const char *cache, const char *from, const char *flavour,
		    int log_fd, struct kb_progress *p, double *ret_secs)
{
	char path[PATH_MAX];
	unsigned files = 0;
	struct stat st;
	double t0;
	int fd = -1, r;

	*ret_secs = -1;
	r = kb_path(path, sizeof(path), "%s/trees/%s", cache, flavour);
	if (r < 0)
		return r;
	if (stat(path, &st) == 0)
		return 0;
	r = kb_cache_lock(cache, from, p, &fd);
	if (r < 0)
		return r;
	kb_progress_stage(p, "seeding the trees from another flavour's");
	t0 = kb_now();
	r = kb_seed_flavour(cache, from, flavour, log_fd, &files);
	close(fd);
	if (r == -ENOENT)
		kb_msg(p,
		       "kbuild: no %s object tree built from its tree to seed '%s' from: a cold build",
		       from, flavour);
	else if (r == -EEXIST)
		kb_msg(p,
		       "kbuild: obj/%s exists without trees/%s, so it is not seeded: a cold build",
		       flavour, flavour);
	if (r == -ENOENT || r == -EEXIST)
		return 0;
	if (r < 0) {
		kb_msg(p,
		       "kbuild: cannot seed '%s' from the %s flavour's trees in '%s': %s",
		       flavour, from, cache, strerror(-r));
		return r;
	}
	*ret_secs = kb_now() - t0;
	kb_msg(p,
	       "kbuild: seeded '%s' from the %s flavour's trees in %.0f s (%u records rewritten)",
	       flavour, from, *ret_secs, files);
	return 0;
}

/* Whether obj/<from> was built from trees/<from> (tree.c: tree-id). */
static bool obj_built_from_tree(const char *cache, const char *from)
{
	char tid_path[PATH_MAX], oid_path[PATH_MAX], *tid = NULL, *oid = NULL;
	bool same;

	if (kb_path(tid_path, sizeof(tid_path), "%s/trees/%s/.vlalab/tree-id",
		    cache, from) < 0 ||
	    kb_path(oid_path, sizeof(oid_path), "%s/obj/%s/.vlalab-tree-id",
		    cache, from) < 0)
		return false;
	same = fileio_read(tid_path, FILEIO_ALL, &tid, NULL, NULL) == 0 &&
	       fileio_read(oid_path, FILEIO_ALL, &oid, NULL, NULL) == 0 &&
	       !strcmp(tid, oid);
	free(tid);
	free(oid);
	return same;
}

/* A user's tree's first build starts from patched's object tree when
 * that is safe (kb_usertree_seedable(): every file that differs from
 * trees/patched is newer than patched's objects, so make sees each
 * difference), under patched's lock; else it is cold, and says why. */
int kb_prepare_seed_usertree(const char *cache, const char *src,
			     const char *obj, int log_fd, struct kb_progress *p,
			     double *ret_secs)
{
	char stree[PATH_MAX], sobj[PATH_MAX], why[PATH_MAX + 128];
	unsigned files = 0;
	struct stat st;
	double t0;
	int fd = -1, r;

	*ret_secs = -1;
	if (stat(obj, &st) == 0)
		return 0;
	r = kb_path(stree, sizeof(stree), "%s/trees/" KB_SEED_FROM, cache);
	if (r == 0)
		r = kb_path(sobj, sizeof(sobj), "%s/obj/" KB_SEED_FROM, cache);
	if (r < 0)
		return r;
	r = kb_cache_lock(cache, KB_SEED_FROM, p, &fd);
	if (r < 0)
		return r;
	kb_progress_stage(p, "checking whether " KB_SEED_FROM
			     "'s object tree can seed this tree's");
	if (!obj_built_from_tree(cache, KB_SEED_FROM)) {
		kb_msg(p,
		       "kbuild: no %s object tree built from its tree to seed from: a cold build",
		       KB_SEED_FROM);
		goto out;
	}
	r = kb_usertree_seedable(src, stree, sobj, why, sizeof(why));
	if (r == 0)
		kb_msg(p,
		       "kbuild: not seeded from the %s flavour's object tree (%s): a cold build",
		       KB_SEED_FROM, why);
	if (r <= 0)
		goto out;
	kb_progress_stage(p, "seeding the object tree from the " KB_SEED_FROM
			     " flavour's");
	t0 = kb_now();
	r = kb_seed_obj(stree, sobj, src, obj, log_fd, &files);
	if (r < 0) {
		kb_msg(p,
		       "kbuild: cannot seed '%s' from the %s flavour's object tree: %s",
		       obj, KB_SEED_FROM, strerror(-r));
		goto out;
	}
	*ret_secs = kb_now() - t0;
	kb_msg(p,
	       "kbuild: seeded the object tree from the %s flavour's in %.0f s (%u records rewritten)",
	       KB_SEED_FROM, *ret_secs, files);
out:
	close(fd);
	return r < 0 ? r : 0;
}

/* With our series (kbuild_opts.tree_series): trees/<name> holds a copy of
 * the user's tree at its id with the series applied. A record beside it
 * (<copy>.applied: the id and the series' hash) says what it holds, so an
 * unchanged copy is left alone. A copy of a folder that is not git gets
 * the user's old mtimes back, so its object tree is wiped then. */
int kb_prepare_copy(const struct kbuild_opts *opts, const char *cache,
		    const char *name, const char *id,
		    const struct kb_inputs *in, const char *patches_dir,
		    int log_fd, struct kb_progress *p, char *copy,
		    size_t copylen, const char *obj)
{
	char rec_path[PATH_MAX], hex[65], *rec = NULL, *want = NULL;
	struct kb_hash *h = NULL;
	int r;

	r = kb_path(copy, copylen, "%s/trees/%s", cache, name);
	if (r == 0)
		r = kb_path(rec_path, sizeof(rec_path), "%s.applied", copy);
	if (r == 0)
		r = kb_hash_new(&h);
	for (size_t i = 0; r == 0 && i < in->series.n; i++) {
		r = kb_hash_add_str(h, "patch", in->series.v[i].name);
		if (r == 0)
			r = kb_hash_add(h, "data", in->patch_data[i],
					in->patch_len[i]);
	}
	if (r == 0)
		r = kb_hash_final(h, hex);
	kb_hash_free(h);
	if (r == 0 && asprintf(&want, "%s\n%s\n", id, hex) < 0)
		r = -ENOMEM;
	if (r < 0)
		return r;
	if (fileio_read(rec_path, FILEIO_ALL, &rec, NULL, NULL) == 0 &&
	    !strcmp(rec, want))
		goto out;
	kb_progress_stage(p, "copying the tree to apply the series");
	unlink(rec_path);
	r = kb_mkdir_p(cache, 0755);
	if (r == 0) {
		char trees[PATH_MAX];

		r = kb_path(trees, sizeof(trees), "%s/trees", cache);
		if (r == 0)
			r = kb_mkdir_p(trees, 0755);
	}
	if (r == 0)
		r = kb_usertree_copy(opts->tree, id, copy, log_fd);
	if (r < 0) {
		kb_msg(p, "kbuild: cannot copy the tree '%s' to '%s': %s",
		       opts->tree, copy, strerror(-r));
		goto out;
	}
	if (strncmp(id, "git:", 4)) {
		r = kb_rm_rf(obj);
		if (r < 0)
			goto out;
	}
	kb_progress_stage(p, "applying patches");
	for (size_t i = 0; r == 0 && i < in->series.n; i++) {
		char src[PATH_MAX], msg[PATH_MAX + 256];

		r = kb_path(src, sizeof(src), "%s/%s", patches_dir,
			    in->series.v[i].name);
		if (r < 0)
			break;
		snprintf(
			msg, sizeof(msg),
			"kbuild: patch '%s' (series line %u) does not apply to the tree '%s' (%s):",
			in->series.v[i].name, in->series.v[i].line, opts->tree,
			id);
		r = kb_tree_apply(&(struct kb_tree_opts){ .log_fd = log_fd,
							  .p = p },
				  copy, src, msg);
		if (r < 0)
			r = -EINVAL;
	}
	if (r == 0)
		r = fileio_write_atomic(rec_path, want, strlen(want));
out:
	free(rec);
	free(want);
	return r;
}
