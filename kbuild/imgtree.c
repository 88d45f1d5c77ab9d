// SPDX-License-Identifier: GPL-2.0-only
/*
 * The folders an image takes whole (the staged modules, extra_dir, the
 * kernel's selftest folders): read sorted by path (kb_img_tree_read()),
 * added to the image's key file by file (kb_img_tree_hash()) and written
 * as gen_init_cpio spec lines (kb_img_tree_spec()).
 */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kb.h"

void kb_img_tree_free(struct kb_img_tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->v[i].rel);
		free(t->v[i].target);
		free(t->v[i].src);
	}
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

/* nftw has no user pointer: one walk at a time, through these. */
static struct kb_img_tree *walk_out;
static size_t walk_root_len;
static bool walk_modules;
static int walk_err;

bool kb_img_bad_name(const char *s)
{
	for (; *s; s++)
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			return true;
	return false;
}

static int walk_visit(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	struct kb_img_entry e = { 0 }, *nv;
	char target[PATH_MAX];
	ssize_t n;

	if (ftw->level == 0)
		return 0;
	if (kb_img_bad_name(path + walk_root_len)) {
		walk_err = -EINVAL;
		return 1;
	}
	if (type == FTW_D) {
		e.type = 'd';
	} else if (type == FTW_SL) {
		/* modules_install links build and source to host paths. */
		if (walk_modules && (!strcmp(path + ftw->base, "build") ||
				     !strcmp(path + ftw->base, "source")))
			return 0;
		n = readlink(path, target, sizeof(target) - 1);
		if (n < 0) {
			walk_err = -errno;
			return 1;
		}
		target[n] = '\0';
		if (kb_img_bad_name(target)) {
			walk_err = -EINVAL;
			return 1;
		}
		e.type = 'l';
		e.target = strdup(target);
	} else if (type == FTW_F && S_ISREG(st->st_mode)) {
		e.type = 'f';
		e.src = strdup(path);
	} else {
		return 0; /* sockets, fifos, device files: not copied */
	}
	e.mode = st->st_mode & 07777;
	e.rel = strdup(path + walk_root_len);
	nv = realloc(walk_out->v, (walk_out->n + 1) * sizeof(*nv));
	if (nv)
		walk_out->v = nv;
	if (!nv || !e.rel || (e.type == 'l' && !e.target) ||
	    (e.type == 'f' && !e.src)) {
		free(e.rel);
		free(e.target);
		free(e.src);
		walk_err = -ENOMEM;
		return 1;
	}
	walk_out->v[walk_out->n++] = e;
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct kb_img_entry *)a)->rel,
		      ((const struct kb_img_entry *)b)->rel);
}

/* Lists root's contents sorted by path, so parents come before children and
 * the order never depends on the file system. A name with whitespace, which
 * the spec format cannot carry, is -EINVAL. */
int kb_img_tree_read(const char *root, bool modules, struct kb_img_tree *ret)
{
	struct kb_img_tree t = { 0 };
	int r;

	walk_out = &t;
	walk_root_len = strlen(root);
	while (walk_root_len > 1 && root[walk_root_len - 1] == '/')
		walk_root_len--;
	walk_modules = modules;
	walk_err = 0;
	r = nftw(root, walk_visit, 32, FTW_PHYS);
	if (r < 0)
		r = -errno;
	else if (walk_err)
		r = walk_err;
	if (r < 0) {
		kb_img_tree_free(&t);
		return r;
	}
	if (t.n)
		qsort(t.v, t.n, sizeof(*t.v), cmp_entry);
	*ret = t;
	return 0;
}

int kb_img_tree_hash(struct kb_hash *h, const char *tag,
		     const struct kb_img_tree *t)
{
	int r = kb_hash_add_str(h, tag, "");

	for (size_t i = 0; r == 0 && i < t->n; i++) {
		const struct kb_img_entry *e = &t->v[i];
		char meta[32], sum[65];

		snprintf(meta, sizeof(meta), "%c %o", e->type, e->mode);
		r = kb_hash_add_str(h, "path", e->rel);
		if (r == 0)
			r = kb_hash_add_str(h, "meta", meta);
		if (r == 0 && e->type == 'l')
			r = kb_hash_add_str(h, "target", e->target);
		if (r == 0 && e->type == 'f') {
			r = kb_sha256_file_hex(e->src, sum);
			if (r == 0)
				r = kb_hash_add_str(h, "sha256", sum);
		}
	}
	return r;
}

void kb_img_tree_spec(FILE *f, const char *prefix, const struct kb_img_tree *t)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct kb_img_entry *e = &t->v[i];

		if (e->type == 'd')
			fprintf(f, "dir %s%s %o 0 0\n", prefix, e->rel,
				e->mode);
		else if (e->type == 'l')
			fprintf(f, "slink %s%s %s 777 0 0\n", prefix, e->rel,
				e->target);
		else
			fprintf(f, "file %s%s %s %o 0 0\n", prefix, e->rel,
				e->src, e->mode);
	}
}
