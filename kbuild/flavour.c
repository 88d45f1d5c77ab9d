// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a flavour is: patched and vanilla, built in, or a folder of
 * kernel/flavours/ with config fragments or patches in it; and the check
 * of a name against them, for the build, for hostctl's verbs and for a
 * module's `flavours` file (extmod.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kb.h"

/* A flavour's own fragments live in kernel/flavours/<name>/; its name is
 * used in cache paths, so it is short and plain. */
static bool flavour_name_ok(const char *f)
{
	size_t n = strlen(f);

	if (n == 0 || n > KBUILD_FLAVOUR_MAX || f[0] == '-')
		return false;
	return strspn(f, "abcdefghijklmnopqrstuvwxyz0123456789-") == n;
}

bool kb_flavour_is_builtin(const char *f)
{
	return !strcmp(f, "patched") || !strcmp(f, "vanilla");
}

int kbuild_flavour_check(const char *kernel_dir, const char *flavour, char *err,
			 size_t errlen)
{
	char dir[PATH_MAX], **names = NULL, **frags = NULL;
	size_t nnames = 0, nfrags = 0, len = 0;
	char known[256] = "patched, vanilla";
	int r;

	if (kb_flavour_is_builtin(flavour))
		return 0;
	r = kb_path(dir, sizeof(dir), "%s/flavours", kernel_dir);
	if (r < 0)
		return r;
	r = kb_list_subdirs(dir, &names, &nnames);
	if (r < 0 && r != -ENOENT)
		return r;
	len = strlen(known);
	for (size_t i = 0; i < nnames && len < sizeof(known); i++)
		len += snprintf(known + len, sizeof(known) - len, ", %s",
				names[i]);
	kb_strv_free(names, nnames);
	if (!flavour_name_ok(flavour)) {
		snprintf(err, errlen, "bad flavour name '%s' (known: %s)",
			 flavour, known);
		return -EINVAL;
	}
	r = kb_path(dir, sizeof(dir), "%s/flavours/%s", kernel_dir, flavour);
	if (r < 0)
		return r;
	r = kb_list_dir(dir, ".config", &frags, &nfrags);
	kb_strv_free(frags, nfrags);
	if (r == -ENOENT || r == -ENOTDIR) {
		snprintf(err, errlen, "unknown flavour '%s' (known: %s)",
			 flavour, known);
		return -EINVAL;
	}
	if (r == 0 && !nfrags) {
		r = kb_list_dir(dir, ".patch", &frags, &nfrags);
		kb_strv_free(frags, nfrags);
	}
	if (r < 0)
		return r;
	if (!nfrags) {
		snprintf(
			err, errlen,
			"flavour '%s': no config fragments (*.config) and no patches (*.patch) in '%s'",
			flavour, dir);
		return -EINVAL;
	}
	return 0;
}
