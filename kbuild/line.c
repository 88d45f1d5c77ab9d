// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel lines (docs/kernel.md, "Lines"): each is one of Debian's
 * linux-source-X.Y packages, with its own series. 6.1, the default, keeps
 * every name it had before lines existed (kernel/patches/series,
 * trees/<flavour>, a key without a line), so that its cached kernels stay
 * hits; another line's series is kernel/patches/<line>/series, its trees
 * and object trees <flavour>@<line>, and its key hashes the line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "kb.h"

static const struct kb_line lines[] = {
	{ "6.1", "linux-source-6.1", "/usr/src/linux-source-6.1.tar.xz" },
	{ "6.12", "linux-source-6.12", "/usr/src/linux-source-6.12.tar.xz" },
};

const struct kb_line *kb_line_get(const char *line)
{
	if (!line)
		line = KBUILD_DEFAULT_LINE;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (!strcmp(lines[i].name, line))
			return &lines[i];
	return NULL;
}

bool kb_line_is_default(const struct kb_line *l)
{
	return !strcmp(l->name, KBUILD_DEFAULT_LINE);
}

int kbuild_line_check(const char *line, char *err, size_t errlen)
{
	size_t len = 0;

	if (kb_line_get(line))
		return 0;
	len = snprintf(err, errlen, "unknown kernel line '%s' (known:", line);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (len < errlen)
			len += snprintf(err + len, errlen - len, "%s %s",
					i ? "," : "", lines[i].name);
	if (len < errlen)
		snprintf(err + len, errlen - len, ")");
	return -EINVAL;
}

const char *kbuild_line_at(size_t i)
{
	return i < sizeof(lines) / sizeof(lines[0]) ? lines[i].name : NULL;
}

const char *kbuild_line_tarball(const char *line)
{
	const struct kb_line *l = kb_line_get(line);

	return l ? l->tarball : NULL;
}

int kb_line_name(const struct kb_line *l, const char *flavour, char *buf,
		 size_t len)
{
	if (kb_line_is_default(l))
		return kb_path(buf, len, "%s", flavour);
	return kb_path(buf, len, "%s@%s", flavour, l->name);
}

int kb_line_patches_dir(const struct kb_line *l, const char *kernel_dir,
			char *buf, size_t len)
{
	if (kb_line_is_default(l))
		return kb_path(buf, len, "%s/patches", kernel_dir);
	return kb_path(buf, len, "%s/patches/%s", kernel_dir, l->name);
}

int kb_line_patch_path(const char *patches_dir, const char *shared_dir,
		       const char *name, char *buf, size_t len)
{
	struct stat st;
	int r;

	r = kb_path(buf, len, "%s/%s", patches_dir, name);
	if (r < 0 || !shared_dir || stat(buf, &st) == 0 || errno != ENOENT)
		return r;
	return kb_path(buf, len, "%s/%s", shared_dir, name);
}
