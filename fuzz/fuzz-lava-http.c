// SPDX-License-Identifier: GPL-2.0-only
/*
 * A LAVA server's reply, lava_reply_parse() (hostctl/cli/lava-http.c:
 * the status line, the headers, Content-Length, chunked bodies), on any
 * bytes after the first, which picks whether the stream closed cleanly
 * and the bound on the body (0: LAVA_REMOTE_LOG_MAX, else 16 bytes per
 * unit above one). Invariants: a reply taken has a status of 0 to 999 and
 * its body in place, NUL-terminated, no longer than the reply nor the
 * bound; a reply refused says why.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/lava.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lava_reply r = { 0 };
	char err[256] = "", *buf;
	size_t max, len;
	bool clean;

	if (!size)
		return 0;
	clean = data[0] & 1;
	max = data[0] >> 1 ? (size_t)(data[0] >> 1) << 4 : LAVA_REMOTE_LOG_MAX;
	len = size - 1;
	/* As read_reply() hands it over: a NUL after the bytes read. */
	buf = malloc(len + 1);
	assert(buf);
	memcpy(buf, data + 1, len);
	buf[len] = '\0';
	if (lava_reply_parse(buf, len, clean, max, &r, err, sizeof(err)) < 0) {
		assert(err[0]);
		free(buf);
		return 0;
	}
	assert(r.body == buf);
	assert(r.status >= 0 && r.status <= 999);
	assert(r.len <= len && r.len <= max && r.body[r.len] == '\0');
	lava_reply_free(&r);
	return 0;
}
