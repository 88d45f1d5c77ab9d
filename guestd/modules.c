// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loading and unloading kernel modules with the syscalls themselves, so a
 * step sees the kernel's real errno (modprobe(8) would turn it into text).
 * modules.dep says which .ko files a module needs; modules.builtin says
 * which modules are built in and so "load" trivially.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guestd.h"

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

/* modules.dep of a full distribution kernel is about 1 MiB. */
#define MOD_FILE_MAX (32 * 1024 * 1024)
#define MOD_DEPTH_MAX 64

static int real_finit_module(int fd, const char *params, int flags)
{
	if (syscall(SYS_finit_module, fd, params, flags) < 0)
		return -errno;
	return 0;
}

static int real_delete_module(const char *name, unsigned int flags)
{
	if (syscall(SYS_delete_module, name, flags) < 0)
		return -errno;
	return 0;
}

const struct mod_sys mod_sys_real = {
	.finit_module = real_finit_module,
	.delete_module = real_delete_module,
};

void mod_name_normalize(char *name)
{
	for (; *name; name++)
		if (*name == '-')
			*name = '_';
}

/* Does @path ("kernel/x/foo-bar.ko.xz") name module @name ("foo_bar")? */
static bool path_is_module(const char *path, size_t len, const char *name)
{
	const char *base = path, *dot;
	size_t n;

	for (size_t i = 0; i < len; i++)
		if (path[i] == '/')
			base = path + i + 1;
	n = (size_t)(path + len - base);
	dot = memmem(base, n, ".ko", 3);
	if (!dot)
		return false;
	n = (size_t)(dot - base);
	if (n != strlen(name))
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = base[i] == '-' ? '_' : base[i];

		if (c != name[i])
			return false;
	}
	return true;
}

/* One line of modules.dep, split in place. */
struct dep_line {
	char *path;
	char *deps; /* space-separated paths */
	int state; /* 0 new, 1 in progress, 2 added */
};

struct dep_table {
	struct dep_line *lines;
	size_t n;
	char **out;
	size_t nout;
	const char *dir;
};

static int dep_table_parse(struct dep_table *t, char *buf)
{
	size_t cap = 0;

	for (char *line = buf; line && *line;) {
		char *nl = strchr(line, '\n'), *colon;

		if (nl)
			*nl = '\0';
		colon = strchr(line, ':');
		if (colon) {
			if (t->n == cap) {
				struct dep_line *n;

				cap = cap ? cap * 2 : 256;
				n = realloc(t->lines, cap * sizeof(*n));
				if (!n)
					return -ENOMEM;
				t->lines = n;
			}
			*colon = '\0';
			t->lines[t->n++] = (struct dep_line){
				.path = line,
				.deps = colon + 1,
			};
		}
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

static struct dep_line *dep_by_path(struct dep_table *t, const char *path,
				    size_t len)
{
	for (size_t i = 0; i < t->n; i++)
		if (strlen(t->lines[i].path) == len &&
		    memcmp(t->lines[i].path, path, len) == 0)
			return &t->lines[i];
	return NULL;
}

static int dep_out_add(struct dep_table *t, const char *path, size_t len)
{
	char **n;
	char *full;

	n = realloc(t->out, (t->nout + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	t->out = n;
	if (path[0] == '/') {
		full = strndup(path, len);
	} else if (asprintf(&full, "%s/%.*s", t->dir, (int)len, path) < 0) {
		full = NULL;
	}
	if (!full)
		return -ENOMEM;
	t->out[t->nout++] = full;
	return 0;
}

/* Add @d's dependencies, each after its own, then @d itself. */
static int dep_visit(struct dep_table *t, struct dep_line *d, int depth)
{
	const char *p = d->deps;
	int r;

	if (d->state == 2)
		return 0;
	if (d->state == 1 || depth > MOD_DEPTH_MAX)
		return -ELOOP;
	d->state = 1;
	while (*p) {
		size_t len;
		struct dep_line *dd;

		p += strspn(p, " \t");
		len = strcspn(p, " \t");
		if (len == 0)
			break;
		dd = dep_by_path(t, p, len);
		if (dd)
			r = dep_visit(t, dd, depth + 1);
		else
			r = dep_out_add(t, p, len);
		if (r < 0)
			return r;
		p += len;
	}
	d->state = 2;
	return dep_out_add(t, d->path, strlen(d->path));
}

static int builtin_has(const char *dir, const char *name, bool *ret)
{
	char path[4096];
	size_t len;
	char *buf;
	int r;

	snprintf(path, sizeof(path), "%s/modules.builtin", dir);
	r = fileio_read(path, MOD_FILE_MAX, &buf, &len, NULL);
	if (r == -ENOENT) {
		*ret = false;
		return 0;
	}
	if (r < 0)
		return r;
	*ret = false;
	for (char *line = buf; line < buf + len;) {
		char *nl = memchr(line, '\n', (size_t)(buf + len - line));
		size_t l = nl ? (size_t)(nl - line) :
				(size_t)(buf + len - line);

		if (path_is_module(line, l, name)) {
			*ret = true;
			break;
		}
		line += l + 1;
	}
	free(buf);
	return 0;
}

void mod_paths_free(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

int mod_resolve(const char *dir, const char *name, char ***ret_paths,
		size_t *ret_npaths, bool *ret_builtin)
{
	struct dep_table t = { .dir = dir };
	char path[4096], norm[256];
	struct dep_line *d = NULL;
	bool builtin;
	size_t len;
	char *buf = NULL;
	int r;

	if (snprintf(norm, sizeof(norm), "%s", name) >= (int)sizeof(norm))
		return -ENAMETOOLONG;
	mod_name_normalize(norm);
	snprintf(path, sizeof(path), "%s/modules.dep", dir);
	r = fileio_read(path, MOD_FILE_MAX, &buf, &len, NULL);
	if (r < 0)
		goto out;
	r = dep_table_parse(&t, buf);
	if (r < 0)
		goto out;
	for (size_t i = 0; i < t.n; i++) {
		if (path_is_module(t.lines[i].path, strlen(t.lines[i].path),
				   norm)) {
			d = &t.lines[i];
			break;
		}
	}
	if (!d) {
		r = builtin_has(dir, norm, &builtin);
		if (r < 0)
			goto out;
		if (!builtin) {
			r = -ENOENT;
			goto out;
		}
		*ret_paths = NULL;
		*ret_npaths = 0;
		*ret_builtin = true;
		r = 0;
		goto out;
	}
	r = dep_visit(&t, d, 0);
	if (r < 0)
		goto out;
	*ret_paths = t.out;
	*ret_npaths = t.nout;
	*ret_builtin = false;
	t.out = NULL;
	t.nout = 0;
out:
	mod_paths_free(t.out, t.nout);
	free(t.lines);
	free(buf);
	return r;
}

static bool is_compressed(const char *path)
{
	size_t n = strlen(path);

	return (n > 3 && strcmp(path + n - 3, ".xz") == 0) ||
	       (n > 3 && strcmp(path + n - 3, ".gz") == 0) ||
	       (n > 4 && strcmp(path + n - 4, ".zst") == 0);
}

int mod_load(const struct mod_sys *sys, const char *dir, const char *name,
	     const char *params, char *what, size_t whatlen)
{
	char **paths = NULL;
	size_t n = 0;
	bool builtin;
	int r;

	r = mod_resolve(dir, name, &paths, &n, &builtin);
	if (r < 0) {
		snprintf(what, whatlen, "looking up '%s' in '%s/modules.dep'",
			 name, dir);
		return r;
	}
	for (size_t i = 0; i < n; i++) {
		bool last = i + 1 == n;
		int fd = open(paths[i], O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			r = -errno;
			snprintf(what, whatlen, "opening '%s'", paths[i]);
			break;
		}
		r = sys->finit_module(fd, last ? params : "",
				      is_compressed(paths[i]) ?
					      MODULE_INIT_COMPRESSED_FILE :
					      0);
		close(fd);
		if (r == -EEXIST && !last)
			r = 0;
		if (r < 0) {
			snprintf(what, whatlen, "finit_module('%s')", paths[i]);
			break;
		}
	}
	mod_paths_free(paths, n);
	return r;
}

int mod_unload(const struct mod_sys *sys, const char *name)
{
	char norm[256];

	if (snprintf(norm, sizeof(norm), "%s", name) >= (int)sizeof(norm))
		return -ENAMETOOLONG;
	mod_name_normalize(norm);
	return sys->delete_module(norm, O_NONBLOCK);
}
