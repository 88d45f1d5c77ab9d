/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a whole file into memory and writing one, the helpers of the
 * tree (guestd, kbuild and hostctl all use them).
 */
#ifndef VLALAB_FILEIO_H
#define VLALAB_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <stdint.h>

/* A bound that never cuts: read the whole file. */
#define FILEIO_ALL SIZE_MAX

/*
 * Read up to @max bytes of @path into a NUL-terminated malloc'd buffer
 * (also for an empty file). @ret_len, when not NULL, gets the length
 * without the NUL; @ret_truncated, when not NULL, says whether the file
 * held more than @max bytes. Returns 0, or the negative errno of open(2),
 * read(2) or the allocation; nothing is returned then.
 */
int fileio_read(const char *path, size_t max, char **ret_buf, size_t *ret_len,
		bool *ret_truncated);

/*
 * Write all @len bytes of @buf to @fd, again after a short write or
 * EINTR. Returns 0, or the negative errno of write(2) (-ENOSPC, -EFBIG,
 * -EIO, ...); how much was written before the error is unknown.
 */
int fileio_write_all(int fd, const void *buf, size_t len);

/*
 * Create the temporary file @tmp for writing, with permission bits @mode
 * (less the umask) from the start: O_CREAT | O_EXCL | O_NOFOLLOW, so
 * whatever was at @tmp (a leftover, a planted symbolic link) is never
 * opened, let alone written through; an entry already there is unlinked
 * and the creation tried once more. Returns the descriptor (close-on-exec)
 * or a negative errno (-EEXIST when something took the name again).
 */
int fileio_create_tmp(const char *tmp, mode_t mode);

/*
 * Replace @path with @len bytes of @buf, all or nothing: written to
 * "@path.tmp.<pid>" (fileio_create_tmp()), fsync'd, then renamed over @path, so a reader (or a
 * crash, or a full disk) sees the old file or the new one, never a part.
 * Returns 0, or the negative errno of the step that failed (the temporary
 * file is removed then).
 */
int fileio_write_atomic(const char *path, const void *buf, size_t len);
/* The same, with the new file's permission bits (0600 for keys). */
int fileio_write_atomic_mode(const char *path, const void *buf, size_t len,
			     mode_t mode);

#endif
