/* SPDX-License-Identifier: GPL-2.0-only */
/* Small file-system helpers that several hostctl files share. */
#ifndef VLALAB_HOSTCTL_FSUTIL_H
#define VLALAB_HOSTCTL_FSUTIL_H

#include <stddef.h>

/* mkdir -p with mode 0755: 0, or -ENAMETOOLONG or the mkdir errno. */
int fs_mkdir_p(const char *path);

/*
 * mkdir -p, the last folder for its owner alone: made, or made again,
 * 0700. 0; -ENOTDIR when @path is not a folder (a symbolic link is not);
 * -EPERM when another user owns it; or the mkdir or chmod errno.
 */
int fs_mkdir_private(const char *path);

/*
 * The last @max bytes of the file at @path (all of it when shorter) in a
 * malloc'd, NUL-terminated buffer, with its length. 0 or -errno.
 */
int fs_read_tail(const char *path, size_t max, char **ret, size_t *ret_len);

/*
 * Run @argv (argv[0] looked up in PATH), no shell, its standard output
 * into @out_path (created or truncated, mode 0644) or /dev/null when
 * NULL, its standard error the caller's, and wait for it. 0 when it
 * exited 0; -EIO when it failed (*ret_status, when not NULL, gets its
 * exit status, or 128 + the signal that killed it); another -errno when
 * it could not run.
 */
int fs_run(char *const argv[], const char *out_path, int *ret_status);

#endif
