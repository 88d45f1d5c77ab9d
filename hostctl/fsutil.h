/* SPDX-License-Identifier: GPL-2.0-only */
/* Small file-system helpers that several hostctl files share. */
#ifndef VLALAB_HOSTCTL_FSUTIL_H
#define VLALAB_HOSTCTL_FSUTIL_H

#include <stddef.h>

/* mkdir -p with mode 0755: 0, or -ENAMETOOLONG or the mkdir errno. */
int fs_mkdir_p(const char *path);

/*
 * The last @max bytes of the file at @path (all of it when shorter) in a
 * malloc'd, NUL-terminated buffer, with its length. 0 or -errno.
 */
int fs_read_tail(const char *path, size_t max, char **ret, size_t *ret_len);

#endif
