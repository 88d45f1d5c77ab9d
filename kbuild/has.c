// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a build has, asked of its files: a .config option, a module
 * (kbuild_has_config(), kbuild_has_module(), for a scenario's requires),
 * and a module's path in a module list (kb_modlist_find()).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "kb.h"

int kbuild_has_config(const char *config_path, const char *opt,
		      char **ret_value, char *err, size_t errlen)
{
	size_t olen = strlen(opt), vlen = 0;
	const char *val = NULL;
	char *config = NULL, *copy = NULL;
	int r;

	r = fileio_read(config_path, FILEIO_ALL, &config, NULL, NULL);
	if (r < 0) {
		if (err && errlen)
			snprintf(err, errlen, "cannot read '%s': %s",
				 config_path, strerror(-r));
		return r;
	}
	for (const char *l = config; l && *l;) {
		const char *nl = strchr(l, '\n');

		if (strncmp(l, opt, olen) == 0 && l[olen] == '=') {
			val = l + olen + 1;
			vlen = (nl ? (size_t)(nl - l) : strlen(l)) - olen - 1;
			break;
		}
		l = nl ? nl + 1 : NULL;
	}
	r = val && vlen == 1 && (val[0] == 'y' || val[0] == 'm');
	if (ret_value && val) {
		copy = strndup(val, vlen);
		if (!copy)
			r = -ENOMEM;
	}
	free(config);
	if (r >= 0 && ret_value)
		*ret_value = copy;
	return r;
}

/* Module names compare with '-' and '_' equal, as modprobe does. */
static bool module_eq(const char *a, size_t alen, const char *b)
{
	size_t i;

	for (i = 0; i < alen && b[i]; i++) {
		char x = a[i] == '-' ? '_' : a[i];
		char y = b[i] == '-' ? '_' : b[i];

		if (x != y)
			return false;
	}
	return i == alen && !b[i];
}

bool kbuild_module_name_eq(const char *a, const char *b)
{
	return module_eq(a, strlen(a), b);
}

const char *kb_modlist_find(const char *text, const char *module,
			    size_t *ret_len)
{
	for (const char *l = text; l && *l;) {
		const char *nl = strchr(l, '\n');
		const char *end = nl ? nl : l + strlen(l);
		const char *colon = memchr(l, ':', end - l);
		const char *base, *ko;

		if (colon)
			end = colon;
		base = l;
		for (const char *p = l; p < end; p++)
			if (*p == '/')
				base = p + 1;
		ko = NULL;
		for (const char *p = base; p + 3 <= end; p++)
			if (strncmp(p, ".ko", 3) == 0)
				ko = p;
		if (ko && module_eq(base, ko - base, module)) {
			*ret_len = end - l;
			return l;
		}
		l = nl ? nl + 1 : NULL;
	}
	return NULL;
}

static bool modlist_has(const char *text, const char *module)
{
	size_t len;

	return kb_modlist_find(text, module, &len) != NULL;
}

static int name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int not_dots(const struct dirent *de)
{
	return strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
}

/*
 * Whether a .ko file below @dir, in name order, is @module (*found); the
 * whole tree is read either way, and its first error returned.
 */
static int ko_walk(const char *dir, const char *module, bool *found, int depth)
{
	struct dirent **names = NULL;
	int n, r = 0;

	if (depth > 16)
		return 0;
	n = scandir(dir, &names, not_dots, name_cmp);
	if (n < 0)
		return -errno;
	for (int i = 0; i < n && r == 0; i++) {
		const char *name = names[i]->d_name;
		char *path = NULL;
		struct stat st;

		if (asprintf(&path, "%s/%s", dir, name) < 0) {
			r = -ENOMEM;
			break;
		}
		if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
			/* lstat: never into the build/ and source/ links. */
			r = ko_walk(path, module, found, depth + 1);
		else if (strstr(name, ".ko") && modlist_has(name, module))
			*found = true;
		free(path);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return r;
}

int kbuild_has_module(const char *modules_dir, const char *name, char *err,
		      size_t errlen)
{
	char *path = NULL, *text = NULL;
	bool found = false;
	int r;

	/* The modules built: modules.dep, or without one the .ko files. */
	if (asprintf(&path, "%s/modules.dep", modules_dir) < 0) {
		path = NULL;
		r = -ENOMEM;
	} else {
		r = fileio_read(path, FILEIO_ALL, &text, NULL, NULL);
	}
	if (r == 0)
		found = modlist_has(text, name);
	else if (r == -ENOENT)
		r = ko_walk(modules_dir, name, &found, 0);
	free(path);
	free(text);
	if (r < 0) {
		if (err && errlen)
			snprintf(err, errlen,
				 "cannot read the modules in '%s': %s",
				 modules_dir, strerror(-r));
		return r;
	}
	/* And those built in, when the build lists them. */
	if (asprintf(&path, "%s/modules.builtin", modules_dir) < 0)
		return -ENOMEM;
	text = NULL;
	r = fileio_read(path, FILEIO_ALL, &text, NULL, NULL);
	if (r < 0 && r != -ENOENT) {
		if (err && errlen)
			snprintf(err, errlen, "cannot read '%s': %s", path,
				 strerror(-r));
		free(path);
		return r;
	}
	if (r == 0 && !found)
		found = modlist_has(text, name);
	free(text);
	free(path);
	return found;
}
