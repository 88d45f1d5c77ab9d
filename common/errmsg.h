/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one-line reason that goes with a negative errno: library code in
 * vlalab does not log, it returns -errno and, where the caller gives a
 * buffer, says why there.
 */
#ifndef VLALAB_ERRMSG_H
#define VLALAB_ERRMSG_H

#include <stddef.h>

/*
 * Format the reason into @err (@errlen bytes, cut short if need be; no
 * buffer, no reason) and return @r, so that a caller can write
 * "return errmsg(err, errlen, -EINVAL, ...);".
 */
int errmsg(char *err, size_t errlen, int r, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
