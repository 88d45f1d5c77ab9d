// SPDX-License-Identifier: GPL-2.0-only
/*
 * LAVA's log (lava-run's output, a server's job log) back into its
 * console, lava_log_console() (hostctl/cli/lava-log.c), on any bytes in a
 * buffer of exactly their size, no NUL after them, as fileio and the
 * HTTP client hand it over. Invariants: what is not records comes back
 * as itself, in place; a log of records gives at most 3 bytes of console
 * for each 2 of the log, and no more unreadable records than lines.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/lava.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1), *out;
	size_t len, bad, lines = 1;

	assert(buf);
	memcpy(buf, data, size);
	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	if (lava_log_console(buf, size, &out, &len, &bad) < 0) {
		free(buf);
		return 0;
	}
	if (out == buf) {
		assert(len == size && bad == 0);
		assert(!memcmp(out, data, size));
	} else {
		assert(len <= size + size / 2 + 8);
		assert(bad <= lines);
	}
	free(out);
	return 0;
}
