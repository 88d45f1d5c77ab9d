// SPDX-License-Identifier: GPL-2.0-only
/*
 * Our out-of-tree modules, kernel/modules/<name>/ (a Kbuild file and its
 * sources): read for the cache key, and staged into the object tree, where
 * make.c builds each with M= against the kernel it has just built and
 * installs it beside the tree's own modules (docs/kernel.md, "Our
 * modules"). Staging copies them, since a build with M= writes its objects
 * into the module's folder, and the repository's must stay clean. A module
 * with a `flavours` file is built only for the flavours it lists, and
 * counts in no other flavour's key.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
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

/*
 * Whether the module in dir/name is built for flavour: yes without a
 * `flavours` file; with one, when a line names it. The file holds one
 * flavour a line, each patched, vanilla or a folder of kernel/flavours/;
 * `#` starts a comment line and blank lines are skipped.
 */
static int extmod_wanted(const char *kernel_dir, const char *dir,
			 const char *name, const char *flavour, bool *ret,
			 char *err, size_t errlen)
{
	char path[PATH_MAX], *text = NULL, *line, *next, *end;
	bool wanted = false;
	unsigned lineno = 0;
	int r;

	r = kb_path(path, sizeof(path), "%s/%s/flavours", dir, name);
	if (r == 0)
		r = fileio_read(path, KB_EXTMOD_FILE_MAX, &text, NULL, NULL);
	if (r == -ENOENT) {
		*ret = true;
		return 0;
	}
	if (r < 0)
		return r;
	for (line = text; r == 0 && line; line = next) {
		char lerr[256];

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		line += strspn(line, " \t");
		end = line + strcspn(line, " \t");
		if (!*line || *line == '#')
			continue;
		if (end[strspn(end, " \t")]) {
			snprintf(err, errlen, "%s:%u: one flavour a line", path,
				 lineno);
			r = -EINVAL;
			break;
		}
		*end = '\0';
		r = kbuild_flavour_check(kernel_dir, line, lerr, sizeof(lerr));
		if (r == -EINVAL)
			snprintf(err, errlen, "%s:%u: %s", path, lineno, lerr);
		if (r == 0 && !strcmp(line, flavour))
			wanted = true;
	}
	free(text);
	if (r == 0)
		*ret = wanted;
	return r;
}

int kb_extmods_read(const char *kernel_dir, const char *flavour,
		    struct kb_extmods *ret, char *err, size_t errlen)
{
	struct kb_extmods m = { 0 };
	char dir[PATH_MAX];
	size_t kept = 0;
	int r;

	r = kb_path(dir, sizeof(dir), "%s/modules", kernel_dir);
	if (r < 0)
		return r;
	r = kb_list_subdirs(dir, &m.dirs, &m.ndirs);
	if (r == -ENOENT) {
		*ret = m;
		return 0;
	}
	/* Keep, in order, the modules this flavour builds. */
	for (size_t i = 0; r == 0 && i < m.ndirs; i++) {
		bool wanted = false;
		char *d = m.dirs[i];

		r = extmod_wanted(kernel_dir, dir, d, flavour, &wanted, err,
				  errlen);
		m.dirs[i] = NULL;
		if (r == 0 && wanted)
			m.dirs[kept++] = d;
		else
			free(d);
	}
	for (size_t i = kept; i < m.ndirs; i++)
		free(m.dirs[i]);
	m.ndirs = kept;
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
