// SPDX-License-Identifier: GPL-2.0-only
/* Small file-system helpers for kbuild. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"

int kb_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

int kb_mkdir_p(const char *path, mode_t mode)
{
	char buf[PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (char *s = buf + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(buf, mode) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	if (mkdir(buf, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int kb_copy_file(const char *src, const char *dst)
{
	char tmp[PATH_MAX];
	struct stat st;
	int in, out = -1, r;

	r = kb_path(tmp, sizeof(tmp), "%s.tmp.%ld", dst, (long)getpid());
	if (r < 0)
		return r;
	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	if (fstat(in, &st) < 0) {
		r = -errno;
		goto out;
	}
	out = fileio_create_tmp(tmp, st.st_mode & 0777);
	if (out < 0) {
		r = out;
		out = -1;
		goto out;
	}
	for (;;) {
		ssize_t n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0);

		if (n < 0 &&
		    (errno == EXDEV || errno == ENOSYS || errno == EINVAL)) {
			char buf[65536];

			n = read(in, buf, sizeof(buf));
			if (n > 0)
				r = fileio_write_all(out, buf, n);
			if (r < 0)
				goto out;
		}
		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			goto out;
		}
		if (n == 0)
			break;
	}
	if (close(out) < 0) {
		out = -1;
		r = -errno;
		goto out;
	}
	out = -1;
	if (rename(tmp, dst) < 0)
		r = -errno;
out:
	if (out >= 0)
		close(out);
	if (r < 0)
		unlink(tmp);
	close(in);
	return r;
}

double kb_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

bool kb_grow_array(void **p, size_t n, size_t size)
{
	void *q = reallocarray(*p, n ? n : 1, size);

	if (!q)
		return false;
	*p = q;
	return true;
}

void kb_strv_free(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int kb_strv_push(char ***v, size_t n, const char *s)
{
	char **nv = realloc(*v, (n + 2) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[n] = strdup(s);
	nv[n + 1] = NULL;
	return nv[n] ? 0 : -ENOMEM;
}

static int list_entries(const char *dir, const char *suffix, bool dirs,
			char ***ret_names, size_t *ret_n)
{
	size_t slen = strlen(suffix), n = 0;
	char **names = NULL;
	struct dirent *de;
	DIR *d;
	int r = 0;

	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct stat st;
		char **nv;

		if (de->d_name[0] == '.' || len < slen ||
		    strcmp(de->d_name + len - slen, suffix))
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, 0) < 0 ||
		    !(dirs ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode)))
			continue;
		nv = realloc(names, (n + 1) * sizeof(*names));
		if (!nv) {
			r = -ENOMEM;
			goto out;
		}
		names = nv;
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			r = -ENOMEM;
			goto out;
		}
		n++;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	*ret_names = names;
	*ret_n = n;
	names = NULL;
out:
	if (names)
		kb_strv_free(names, n);
	closedir(d);
	return r;
}

int kb_list_dir(const char *dir, const char *suffix, char ***ret_names,
		size_t *ret_n)
{
	return list_entries(dir, suffix, false, ret_names, ret_n);
}

int kb_list_subdirs(const char *dir, char ***ret_names, size_t *ret_n)
{
	return list_entries(dir, "", true, ret_names, ret_n);
}
