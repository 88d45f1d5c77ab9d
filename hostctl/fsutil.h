/* SPDX-License-Identifier: GPL-2.0-only */
/* Small file-system helpers that several hostctl files share. */
#ifndef VLALAB_HOSTCTL_FSUTIL_H
#define VLALAB_HOSTCTL_FSUTIL_H

/* mkdir -p with mode 0755: 0, or -ENAMETOOLONG or the mkdir errno. */
int fs_mkdir_p(const char *path);

#endif
