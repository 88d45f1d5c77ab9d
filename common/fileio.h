/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reading a whole file into memory: the one helper of the tree (guestd,
 * kbuild and hostctl all use it).
 */
#ifndef VLALAB_FILEIO_H
#define VLALAB_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
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

#endif
