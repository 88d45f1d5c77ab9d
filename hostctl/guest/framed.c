// SPDX-License-Identifier: GPL-2.0-only
/* Reading the framed mode back from a console log: see framed.h. */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "guest/framed.h"
#include "proto.h"

/* The longest console line kept: a frame of the longest protocol line. */
#define FRAMED_LINE_MAX (PROTO_LINE_MAX + FRAME_OVERHEAD + 256)

static const char *const problem_names[FRAMED__COUNT] = {
	[FRAMED_DAMAGED] = "damaged",	[FRAMED_GAP] = "gap",
	[FRAMED_REPLAY] = "replay",	[FRAMED_CUT] = "cut",
	[FRAMED_TOO_LONG] = "too long",
};

const char *framed_problem_name(enum framed_problem p)
{
	return (unsigned)p < FRAMED__COUNT ? problem_names[p] : "?";
}

void framed_init(struct framed_reader *fr)
{
	*fr = (struct framed_reader){ 0 };
}

void framed_free(struct framed_reader *fr)
{
	free(fr->buf);
	fr->buf = NULL;
	fr->len = fr->cap = 0;
}

uint64_t framed_problems(const struct framed_reader *fr)
{
	uint64_t n = 0;

	for (int i = 0; i < FRAMED__COUNT; i++)
		n += fr->problems[i];
	return n;
}

static __attribute__((format(printf, 3, 4))) void
problem(struct framed_reader *fr, enum framed_problem p, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	fr->problems[p]++;
	if (p != FRAMED_REPLAY)
		fr->problem_seq = fr->next_seq;
	if (!fr->on_problem)
		return;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	fr->on_problem(fr->userdata, p, why);
}

/* One whole console line, without its newline. */
static int take_line(struct framed_reader *fr, const char *line, size_t len)
{
	const char *payload;
	uint64_t seq;
	size_t skip, plen;

	fr->lineno++;
	switch (frame_parse(line, len, &skip, &seq, &payload, &plen)) {
	case FRAME_NONE:
		return 0;
	case FRAME_BAD:
		problem(fr, FRAMED_DAMAGED,
			"console line %" PRIu64
			": a damaged frame (bad header or checksum) where "
			"frame %" PRIu64 " was due",
			fr->lineno, fr->next_seq);
		return 0;
	case FRAME_OK:
		break;
	}
	if (seq < fr->next_seq) {
		fr->problem_seq = seq;
		problem(fr, FRAMED_REPLAY,
			"console line %" PRIu64 ": frame %" PRIu64
			" again after frame %" PRIu64
			" (a forged or repeated line)",
			fr->lineno, seq, fr->next_seq - 1);
		return 0;
	}
	if (seq == fr->next_seq + 1)
		problem(fr, FRAMED_GAP,
			"console line %" PRIu64 ": frame %" PRIu64
			" is missing",
			fr->lineno, fr->next_seq);
	else if (seq > fr->next_seq)
		problem(fr, FRAMED_GAP,
			"console line %" PRIu64 ": frames %" PRIu64
			" to %" PRIu64 " are missing",
			fr->lineno, fr->next_seq, seq - 1);
	fr->next_seq = seq + 1;
	fr->frames++;
	return fr->on_payload ?
		       fr->on_payload(fr->userdata, seq, payload, plen) :
		       0;
}

static int keep(struct framed_reader *fr, const char *data, size_t n)
{
	if (fr->len + n > fr->cap) {
		size_t cap = fr->cap ? fr->cap : 4096;
		char *p;

		while (cap < fr->len + n)
			cap *= 2;
		p = realloc(fr->buf, cap);
		if (!p)
			return -ENOMEM;
		fr->buf = p;
		fr->cap = cap;
	}
	memcpy(fr->buf + fr->len, data, n);
	fr->len += n;
	return 0;
}

/* A line grew past FRAMED_LINE_MAX: drop it, saying so if it was framed. */
static void too_long(struct framed_reader *fr)
{
	size_t skip;
	uint64_t seq;
	const char *payload;
	size_t plen;

	fr->skip = true;
	fr->skip_framed = frame_parse(fr->buf, fr->len, &skip, &seq, &payload,
				      &plen) != FRAME_NONE;
	fr->len = 0;
}

int framed_feed(struct framed_reader *fr, const char *data, size_t len)
{
	while (len) {
		const char *nl = memchr(data, '\n', len);
		size_t n = nl ? (size_t)(nl - data) : len;
		int r = 0;

		if (!fr->skip) {
			if (fr->len + n > FRAMED_LINE_MAX) {
				size_t room = FRAMED_LINE_MAX - fr->len;

				r = keep(fr, data, room);
				if (r < 0)
					return r;
				too_long(fr);
			} else if (nl && fr->len == 0) {
				r = take_line(fr, data, n);
			} else {
				r = keep(fr, data, n);
				if (r >= 0 && nl) {
					r = take_line(fr, fr->buf, fr->len);
					fr->len = 0;
				}
			}
		}
		if (fr->skip && nl) {
			fr->lineno++;
			if (fr->skip_framed)
				problem(fr, FRAMED_TOO_LONG,
					"console line %" PRIu64
					": a frame longer than %d bytes",
					fr->lineno, (int)FRAMED_LINE_MAX);
			fr->skip = fr->skip_framed = false;
		}
		if (r < 0)
			return r;
		if (!nl)
			break;
		data = nl + 1;
		len -= n + 1;
	}
	return 0;
}

int framed_finish(struct framed_reader *fr)
{
	const char *payload;
	size_t skip, plen;
	uint64_t seq;
	bool framed;

	framed = fr->skip ?
			 fr->skip_framed :
			 fr->len && frame_parse(fr->buf, fr->len, &skip, &seq,
						&payload, &plen) != FRAME_NONE;
	if (framed)
		problem(fr, FRAMED_CUT,
			"console line %" PRIu64 ": the log ends inside a frame",
			fr->lineno + 1);
	fr->len = 0;
	fr->skip = fr->skip_framed = false;
	return 0;
}

int framed_run_payload(void *userdata, uint64_t seq, const char *payload,
		       size_t len)
{
	struct framed_run *fr = userdata;
	int r;

	r = session_feed(&fr->s, payload, len);
	if (r < 0) {
		fr->refused = r;
		return r;
	}
	if (fr->s.hello_seen && session_idle(&fr->s) && fr->next < fr->n)
		session_expect(&fr->s, &fr->scs[fr->next++]);
	return 0;
}
