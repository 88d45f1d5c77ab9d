// SPDX-License-Identifier: GPL-2.0-only
/*
 * Our out-of-tree modules, kernel/modules/<name>/ (a Kbuild file and its
 * sources): read for the cache key, and staged into the object tree, where
 * kbuild.c builds each with M= against the kernel it has just built and
 * installs it beside the tree's own modules (docs/kernel.md, "Our
 * modules"). Staging copies them, since a build with M= writes its objects
 * into the module's folder, and the repository's must stay clean.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "kb.h"

static int extmods_add(struct kb_extmods *m, const char *dir, const char *name)
{
	char sub[PATH_MAX], path[PATH_MAX], **files = NULL;
	size_t nfiles = 0, total;
	struct kb_blob *v;
	int r;

	r = kb_path(sub, sizeof(sub), "%s/%s", dir, name);
	if (r == 0)
		r = kb_list_dir(sub, "", &files, &nfiles);
	if (r < 0)
		return r;
	total = m->nfiles + nfiles;
	v = realloc(m->files, (total + 1) * sizeof(*v));
	if (!v) {
		kb_strv_free(files, nfiles);
		return -ENOMEM;
	}
	m->files = v;
	for (size_t i = 0; r == 0 && i < nfiles; i++) {
		struct kb_blob *b = &m->files[m->nfiles];
		char *fname = NULL, *data = NULL;
		size_t len = 0;

		r = kb_path(path, sizeof(path), "%s/%s", sub, files[i]);
		if (r == 0)
			r = fileio_read(path, KB_EXTMOD_FILE_MAX, &data, &len,
					NULL);
		if (r == 0 && asprintf(&fname, "%s/%s", name, files[i]) < 0)
			r = -ENOMEM;
		if (r < 0) {
			free(data);
			break;
		}
		*b = (struct kb_blob){ fname, data, len };
		m->nfiles++;
	}
	kb_strv_free(files, nfiles);
	return r;
}

int kb_extmods_read(const char *kernel_dir, struct kb_extmods *ret)
{
	struct kb_extmods m = { 0 };
	char dir[PATH_MAX];
	int r;

	r = kb_path(dir, sizeof(dir), "%s/modules", kernel_dir);
	if (r < 0)
		return r;
	r = kb_list_subdirs(dir, &m.dirs, &m.ndirs);
	if (r == -ENOENT) {
		*ret = m;
		return 0;
	}
	for (size_t i = 0; r == 0 && i < m.ndirs; i++)
		r = extmods_add(&m, dir, m.dirs[i]);
	if (r < 0) {
		kb_extmods_free(&m);
		return r;
	}
	*ret = m;
	return 0;
}

void kb_extmods_free(struct kb_extmods *m)
{
	for (size_t i = 0; i < m->nfiles; i++) {
		free((char *)m->files[i].name);
		free((void *)m->files[i].data);
	}
	free(m->files);
	kb_strv_free(m->dirs, m->ndirs);
	*m = (struct kb_extmods){ 0 };
}

int kb_extmods_stage(const struct kb_extmods *m, const char *root)
{
	char path[PATH_MAX];
	int r;

	r = kb_rm_rf(root);
	for (size_t i = 0; r == 0 && i < m->ndirs; i++) {
		r = kb_path(path, sizeof(path), "%s/%s", root, m->dirs[i]);
		if (r == 0)
			r = kb_mkdir_p(path, 0755);
	}
	for (size_t i = 0; r == 0 && i < m->nfiles; i++) {
		r = kb_path(path, sizeof(path), "%s/%s", root,
			    m->files[i].name);
		if (r == 0)
			r = fileio_write_atomic(path, m->files[i].data,
						m->files[i].len);
	}
	return r;
}
