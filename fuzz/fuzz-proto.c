// SPDX-License-Identifier: GPL-2.0-only
/*
 * The protocol's line splitter and event decoder, on anything a guest may
 * send. The input is split twice, in one feed and in two at a point its
 * first byte picks, and each time every line must come out whole, in order,
 * NUL-terminated, as a plain split at '\n' gives it. Every line that
 * decodes must round-trip: encoded again it is one line within
 * PROTO_LINE_MAX that decodes to the same event (docs/reliability.md,
 * "Fuzzing", finding 3). Each line also goes through the terminal status
 * line, which must stay one line, cut to the width.
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "ttyline.h"

struct split {
	const uint8_t *data; /* the whole input */
	size_t size;
	size_t off; /* where the next line starts */
};

static void check_event(const char *line, size_t len)
{
	static struct proto_event ev, back;
	char err[256], *out;
	size_t out_len;
	int r;

	if (proto_event_decode(line, len, &ev, err, sizeof(err)) < 0) {
		assert(err[0]);
		return;
	}
	assert(proto_event_encode(&ev, &out, &out_len) == 0);
	assert(out_len > 0 && out[out_len - 1] == '\n');
	assert(out_len <= PROTO_LINE_MAX && !memchr(out, '\n', out_len - 1));
	r = proto_event_decode(out, out_len - 1, &back, err, sizeof(err));
	assert(r == 0 && memcmp(&ev, &back, sizeof(ev)) == 0);
	free(out);
}

/* Into a fixed, unbuffered stream: open_memstream()'s allocation per line
 * was a third of the harness's time. */
static void check_ttyline(const char *line)
{
	static char buf[256];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	long size;

	assert(f);
	setvbuf(f, NULL, _IONBF, 0);
	/* Not a terminal: 80 columns, so at most 79 bytes after the erase. */
	ttyline_show(f, line, 2);
	size = ftell(f);
	assert(fclose(f) == 0);
	assert(size >= 4 && size <= 4 + 79 && memcmp(buf, "\r\033[K", 4) == 0);
}

static int on_line(const char *line, size_t len, void *userdata)
{
	struct split *s = userdata;
	const uint8_t *start = s->data + s->off;
	const uint8_t *nl = memchr(start, '\n', s->size - s->off);

	assert(nl && (size_t)(nl - start) == len);
	assert(memcmp(line, start, len) == 0 && line[len] == '\0');
	s->off += len + 1;
	check_event(line, len);
	check_ttyline(line);
	return 0;
}

/* Returns what the splitter returned. */
static int feed(struct proto_linebuf *lb, const uint8_t *data, size_t size,
		size_t cut)
{
	struct split s = { .data = data, .size = size };
	int r;

	lb->len = 0;
	r = proto_linebuf_feed(lb, (const char *)data, cut, on_line, &s);
	if (r == 0)
		r = proto_linebuf_feed(lb, (const char *)data + cut, size - cut,
				       on_line, &s);
	if (r == 0) {
		/* What is left is the start of a line without its '\n'. */
		assert(!memchr(data + s.off, '\n', size - s.off));
		assert(lb->len == size - s.off);
	} else {
		/* Only a line too long stops it. */
		assert(r == -E2BIG && lb->len == PROTO_LINE_MAX - 1);
		assert(memcmp(lb->buf, data + s.off, lb->len) == 0);
	}
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct proto_linebuf lb;

	if (!lb.buf && proto_linebuf_init(&lb) < 0)
		abort();
	feed(&lb, data, size, size);
	if (size > 0)
		feed(&lb, data, size, (size_t)data[0] * size / 256);
	return 0;
}
