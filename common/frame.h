/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The framed mode of the protocol (docs/protocol.md, "Framed mode"): on a
 * console shared with the kernel (a LAVA job's serial line), guestd writes
 * each protocol line as
 *
 *   VLALAB1 <seq> <crc> <json>\n
 *
 * <seq> the line's number from 0, in decimal without leading zeros;
 * <crc> the CRC-32 (IEEE 802.3, zlib's) of "<seq> <json>" as 8 lower-case
 * hex digits; <json> the line common/proto.c encodes, without its newline.
 * A kernel message written into the middle of a line breaks its checksum;
 * a line that copies the format (a test that prints one) takes a number
 * guestd's own line then repeats, and hostctl's reader (guest/framed.h)
 * reports both. The CRC is no secret: it catches damage, the sequence
 * catches a forgery.
 */
#ifndef VLALAB_FRAME_H
#define VLALAB_FRAME_H

#include <stddef.h>
#include <stdint.h>

#define FRAME_PREFIX "VLALAB1 "
#define FRAME_PREFIX_LEN (sizeof(FRAME_PREFIX) - 1)
/* The largest sequence number: a line past it is refused. */
#define FRAME_SEQ_MAX 999999999ULL
/* Prefix, seq, blank, crc, blank: what a frame adds to its payload. */
#define FRAME_OVERHEAD (FRAME_PREFIX_LEN + 9 + 1 + 8 + 1)

/* CRC-32 of @len bytes, continuing from @crc (0 to start). */
uint32_t frame_crc32(uint32_t crc, const void *data, size_t len);

/*
 * Frame @len bytes of @payload (no newline in them) as line @seq, its
 * newline included, into a new buffer: *@ret and its length *@ret_len.
 * Returns 0, -EINVAL for a payload holding a newline or a seq past
 * FRAME_SEQ_MAX, or -ENOMEM.
 */
int frame_encode(uint64_t seq, const char *payload, size_t len, char **ret,
		 size_t *ret_len);

enum frame_result {
	FRAME_NONE, /* no FRAME_PREFIX in the line: console text */
	FRAME_OK, /* a well-formed frame with a good checksum */
	FRAME_BAD, /* the prefix, but malformed or a bad checksum */
};

/*
 * Look for a frame in one console line (@len bytes, no newline; a
 * trailing '\r' is ignored). The prefix may follow other text on the line
 * (a kernel message's tail without its newline): what precedes it is left
 * to the caller, as *@ret_skip bytes. For FRAME_OK, *@ret_seq and the
 * payload (*@ret_payload, *@ret_plen, pointing into @line) are set.
 */
enum frame_result frame_parse(const char *line, size_t len, size_t *ret_skip,
			      uint64_t *ret_seq, const char **ret_payload,
			      size_t *ret_plen);

#endif
