// SPDX-License-Identifier: GPL-2.0-only
/*
 * The host's reader of the framed mode (hostctl/guest/framed.c) on any
 * console bytes, fed in pieces whose sizes the input's first byte picks.
 * Invariants: every payload handed on is a frame that is in the input,
 * whole (framing it again gives those bytes, newline included), with no
 * newline in it, and their numbers rise strictly; a frame dropped is
 * counted as a problem.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "guest/framed.h"

struct check {
	const uint8_t *data;
	size_t size;
	uint64_t last;
	bool any;
};

static int on_payload(void *userdata, uint64_t seq, const char *payload,
		      size_t len)
{
	struct check *c = userdata;
	char *line;
	size_t n;

	assert(!memchr(payload, '\n', len));
	assert(!c->any || seq > c->last);
	c->last = seq;
	c->any = true;
	assert(frame_encode(seq, payload, len, &line, &n) == 0);
	/* The frame, newline included, or "\r\n" for its newline. */
	assert(memmem(c->data, c->size, line, n) ||
	       (line[n - 1] = '\r', memmem(c->data, c->size, line, n)));
	free(line);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct check c = { .data = data, .size = size };
	struct framed_reader fr;
	size_t chunk = size ? (size_t)data[0] + 1 : 1;

	framed_init(&fr);
	fr.on_payload = on_payload;
	fr.userdata = &c;
	for (size_t off = 0; off < size; off += chunk)
		assert(framed_feed(&fr, (const char *)data + off,
				   size - off < chunk ? size - off : chunk) ==
		       0);
	assert(framed_finish(&fr) == 0);
	assert(fr.frames == 0 || c.any);
	framed_free(&fr);
	return 0;
}
