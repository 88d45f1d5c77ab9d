/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host's reader of the framed mode (common/frame.h): it takes a
 * console log, kernel text and frames mixed, in pieces of any size, and
 * hands on the payload of each well-formed frame with a good checksum and
 * the next sequence number, in order. Everything else that claims to be a
 * frame is a problem, reported through @on_problem with a one-line reason:
 * a damaged frame (a bad checksum, a malformed header, a line cut short at
 * the end of the log or longer than the protocol allows), a gap (numbers
 * that never came), a replay (a number that came already: a forgery took
 * it, or the line is repeated). Console text without the prefix is not a
 * problem: it is the kernel's. Pure: no I/O, so tests and the fuzzer feed
 * it bytes.
 */
#ifndef VLALAB_FRAMED_H
#define VLALAB_FRAMED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "guest/session.h"

enum framed_problem {
	FRAMED_DAMAGED,
	FRAMED_GAP,
	FRAMED_REPLAY,
	FRAMED_CUT, /* the log ends inside a frame */
	FRAMED_TOO_LONG,
	FRAMED__COUNT,
};

/* "damaged", "gap", ...: the word of each problem. */
const char *framed_problem_name(enum framed_problem p);

struct framed_reader {
	/* A frame's payload, in order; a negative return stops the feed. */
	int (*on_payload)(void *userdata, uint64_t seq, const char *payload,
			  size_t len);
	/* A problem: @why is one line, escaped, no newline. */
	void (*on_problem)(void *userdata, enum framed_problem p,
			   const char *why);
	void *userdata;

	uint64_t next_seq; /* the number the next frame must have */
	uint64_t lineno; /* console lines so far */
	uint64_t frames; /* payloads handed on */
	uint64_t problems[FRAMED__COUNT];
	/* During on_problem: the number of the frame it is about (the one
	 * due, for damage, a gap or a cut; the one repeated, for a replay). */
	uint64_t problem_seq;
	char *buf; /* the line being gathered */
	size_t len, cap;
	bool skip; /* inside a line too long to keep */
	bool skip_framed; /* ... that held the prefix */
};

void framed_init(struct framed_reader *fr);
void framed_free(struct framed_reader *fr);

/*
 * Feed @len bytes of console. Returns 0, -ENOMEM, or what @on_payload
 * returned when it refused a payload (the feed stops there).
 */
int framed_feed(struct framed_reader *fr, const char *data, size_t len);

/* The log's end: a frame without its newline is FRAMED_CUT. 0 or -errno. */
int framed_finish(struct framed_reader *fr);

/* The problems counted so far, all kinds. */
uint64_t framed_problems(const struct framed_reader *fr);

/*
 * A framed console log through the session a local run uses
 * (guest/session.h): the payloads, in order, go to session_feed(), and
 * each scenario of @scs is expected (session_expect()) as soon as the
 * guest has said hello and the one before it has ended: the order the
 * guest took its run requests in. The first line the session refuses
 * stops the feed; its reason is in s.err.
 */
struct framed_run {
	struct session s;
	struct res_scenario *scs;
	size_t n, next; /* scenarios, and the next to expect */
	int refused; /* session_feed()'s error, or 0 */
};

/* framed_reader's on_payload for a framed_run in @userdata. */
int framed_run_payload(void *userdata, uint64_t seq, const char *payload,
		       size_t len);

#endif
