// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seeding a flavour's first build from another flavour's trees, so that a
 * second flavour does not cost a second cold build (docs/kernel.md,
 * "Seeding a new flavour").
 *
 * trees/<from> and obj/<from> are copied with `cp -a --reflink=auto`
 * (mtimes kept) to trees/<to> and obj/<to>. Kbuild's records in the object
 * tree name the source by its absolute path (`-I<cache>/trees/<from>/...`
 * in each .cmd, the dependency lists in .cmd and .d files, objtool's own
 * build under obj/), so those are rewritten to the new paths: make then
 * compares the same command lines and dependencies it recorded, and only
 * the files the flavour's patches touch (git apply gives them a new mtime)
 * and what depends on them are compiled again.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"

/* The largest .cmd or .d file rewritten; kbuild's are below 1 MiB. */
#define SEED_FILE_MAX (16u << 20)

struct rewrite {
	const char *from[2], *to[2];
	int err;
	unsigned files;
};

static struct rewrite *rw;

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* An occurrence of a path prefix, when the next byte ends the name's
 * component (so trees/patched does not match trees/patched2). */
static const char *find_prefix(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	for (const char *p = strstr(s, prefix); p; p = strstr(p + 1, prefix)) {
		char c = p[n];

		if (c == '/' || c == '\0' || c == '"' || c == '\'' ||
		    c == ' ' || c == '\n' || c == '\t' || c == ':' || c == ')')
			return p;
	}
	return NULL;
}

static int rewrite_text(const char *text, char **ret)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	const char *s = text;

	if (!f)
		return -ENOMEM;
	for (;;) {
		const char *best = NULL;
		int which = 0;

		for (int i = 0; i < 2; i++) {
			const char *p = find_prefix(s, rw->from[i]);

			if (p && (!best || p < best)) {
				best = p;
				which = i;
			}
		}
		if (!best)
			break;
		fwrite(s, 1, best - s, f);
		fputs(rw->to[which], f);
		s = best + strlen(rw->from[which]);
	}
	fputs(s, f);
	if (fclose(f) != 0) {
		free(out);
		return -ENOMEM;
	}
	*ret = out;
	return 0;
}

static int rewrite_visit(const char *path, const struct stat *st, int type,
			 struct FTW *ftw)
{
	char *text = NULL, *out = NULL;
	size_t len = 0;
	int r;

	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode) ||
	    (!ends_with(path, ".cmd") && !ends_with(path, ".d")))
		return 0;
	r = fileio_read(path, SEED_FILE_MAX, &text, &len, NULL);
	if (r < 0)
		goto out;
	if (strlen(text) != len || (!find_prefix(text, rw->from[0]) &&
				    !find_prefix(text, rw->from[1])))
		goto out;
	r = rewrite_text(text, &out);
	if (r == 0) {
		/* In place, without an fsync per file: a seed that fails
		 * half-way is removed whole (kb_seed_flavour()). */
		int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

		if (fd < 0)
			r = -errno;
		if (r == 0)
			r = fileio_write_all(fd, out, strlen(out));
		if (fd >= 0 && close(fd) < 0 && r == 0)
			r = -errno;
	}
	if (r == 0) {
		/* Keep the mtime: nothing should look newer than it was. */
		struct timespec ts[2] = { st->st_atim, st->st_mtim };

		if (utimensat(AT_FDCWD, path, ts, 0) < 0)
			r = -errno;
		rw->files++;
	}
out:
	free(text);
	free(out);
	if (r < 0) {
		rw->err = r;
		return 1; /* stop the walk */
	}
	return 0;
}

static int copy_tree(const char *src, const char *dst, int log_fd)
{
	char tmp[PATH_MAX];
	int r;

	r = kb_path(tmp, sizeof(tmp), "%s.seed", dst);
	if (r == 0)
		r = kb_rm_rf(tmp);
	if (r == 0) {
		char *argv[] = { "cp", "-a",	    "--reflink=auto",
				 "--", (char *)src, tmp,
				 NULL };

		r = kb_run_logged(argv, NULL, log_fd, NULL, NULL);
	}
	if (r == 0 && rename(tmp, dst) < 0)
		r = -errno;
	if (r < 0)
		kb_rm_rf(tmp);
	return r;
}

/* Copies sobj to dobj and rewrites its records from stree and sobj to
 * dtree and dobj; on failure nothing of dobj is left. */
static int copy_obj(const char *stree, const char *sobj, const char *dtree,
		    const char *dobj, int log_fd, unsigned *ret_files)
{
	struct rewrite w = { 0 };
	char link[PATH_MAX];
	int r;

	r = kb_path(link, sizeof(link), "%s/source", dobj);
	if (r == 0)
		r = copy_tree(sobj, dobj, log_fd);
	if (r < 0)
		return r;
	w.from[0] = stree;
	w.to[0] = dtree;
	w.from[1] = sobj;
	w.to[1] = dobj;
	rw = &w;
	if (nftw(dobj, rewrite_visit, 32, FTW_PHYS) < 0)
		r = -errno;
	else
		r = w.err;
	rw = NULL;
	/* make re-creates it too, but nothing should point at the old tree. */
	if (r == 0 && (unlink(link) < 0 && errno != ENOENT))
		r = -errno;
	if (r == 0 && symlink(dtree, link) < 0)
		r = -errno;
	if (r < 0) {
		kb_rm_rf(dobj);
		return r;
	}
	if (ret_files)
		*ret_files = w.files;
	return 0;
}

int kb_seed_obj(const char *from_tree, const char *from_obj,
		const char *to_tree, const char *to_obj, int log_fd,
		unsigned *ret_files)
{
	struct stat st;

	if (stat(to_obj, &st) == 0)
		return -EEXIST;
	return copy_obj(from_tree, from_obj, to_tree, to_obj, log_fd,
			ret_files);
}

int kb_seed_flavour(const char *cache, const char *from, const char *to,
		    int log_fd, unsigned *ret_files)
{
	char stree[PATH_MAX], sobj[PATH_MAX], dtree[PATH_MAX], dobj[PATH_MAX];
	char tid_path[PATH_MAX], oid_path[PATH_MAX];
	char *tid = NULL, *oid = NULL;
	struct stat st;
	int r;

	r = kb_path(stree, sizeof(stree), "%s/trees/%s", cache, from);
	if (r == 0)
		r = kb_path(sobj, sizeof(sobj), "%s/obj/%s", cache, from);
	if (r == 0)
		r = kb_path(dtree, sizeof(dtree), "%s/trees/%s", cache, to);
	if (r == 0)
		r = kb_path(dobj, sizeof(dobj), "%s/obj/%s", cache, to);
	if (r == 0)
		r = kb_path(tid_path, sizeof(tid_path), "%s/.vlalab/tree-id",
			    stree);
	if (r == 0)
		r = kb_path(oid_path, sizeof(oid_path), "%s/.vlalab-tree-id",
			    sobj);
	if (r < 0)
		return r;
	/* Only into a flavour that has neither tree yet. */
	if (stat(dtree, &st) == 0 || stat(dobj, &st) == 0)
		return -EEXIST;
	/* Only from an object tree built from that very tree. */
	if (fileio_read(tid_path, FILEIO_ALL, &tid, NULL, NULL) < 0 ||
	    fileio_read(oid_path, FILEIO_ALL, &oid, NULL, NULL) < 0 ||
	    strcmp(tid, oid)) {
		r = -ENOENT;
		goto out;
	}
	r = copy_tree(stree, dtree, log_fd);
	if (r == 0)
		r = copy_obj(stree, sobj, dtree, dobj, log_fd, ret_files);
	if (r < 0) {
		/* Half a seed is worse than none: the build starts cold. */
		kb_rm_rf(dtree);
		goto out;
	}
out:
	free(tid);
	free(oid);
	return r;
}
