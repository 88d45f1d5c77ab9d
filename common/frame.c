// SPDX-License-Identifier: GPL-2.0-only
/* The framed mode's lines: see frame.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"

uint32_t frame_crc32(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (int k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320U & -(crc & 1));
	}
	return ~crc;
}

int frame_encode(uint64_t seq, const char *payload, size_t len, char **ret,
		 size_t *ret_len)
{
	char head[32], *buf;
	uint32_t crc;
	int n;

	if (seq > FRAME_SEQ_MAX || memchr(payload, '\n', len))
		return -EINVAL;
	n = snprintf(head, sizeof(head), "%llu ", (unsigned long long)seq);
	crc = frame_crc32(0, head, (size_t)n);
	crc = frame_crc32(crc, payload, len);
	buf = malloc(FRAME_OVERHEAD + len + 2);
	if (!buf)
		return -ENOMEM;
	n = snprintf(buf, FRAME_OVERHEAD + 1, FRAME_PREFIX "%llu %08x ",
		     (unsigned long long)seq, crc);
	memcpy(buf + n, payload, len);
	buf[(size_t)n + len] = '\n';
	buf[(size_t)n + len + 1] = '\0';
	*ret = buf;
	*ret_len = (size_t)n + len + 1;
	return 0;
}

/* Decimal digits, no leading zero but "0" itself: 0 or -EINVAL. */
static int parse_seq(const char *s, size_t len, uint64_t *ret)
{
	uint64_t v = 0;

	if (len == 0 || len > 9 || (len > 1 && s[0] == '0'))
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*ret = v;
	return 0;
}

static int parse_crc(const char *s, uint32_t *ret)
{
	uint32_t v = 0;

	for (int i = 0; i < 8; i++) {
		char c = s[i];

		if (c >= '0' && c <= '9')
			v = v << 4 | (uint32_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (uint32_t)(c - 'a' + 10);
		else
			return -EINVAL;
	}
	*ret = v;
	return 0;
}

static const char *find_prefix(const char *line, size_t len)
{
	const char *p = line, *end = line + len;

	while ((size_t)(end - p) >= FRAME_PREFIX_LEN) {
		p = memchr(p, 'V', (size_t)(end - p) - FRAME_PREFIX_LEN + 1);
		if (!p)
			return NULL;
		if (memcmp(p, FRAME_PREFIX, FRAME_PREFIX_LEN) == 0)
			return p;
		p++;
	}
	return NULL;
}

enum frame_result frame_parse(const char *line, size_t len, size_t *ret_skip,
			      uint64_t *ret_seq, const char **ret_payload,
			      size_t *ret_plen)
{
	const char *p = find_prefix(line, len), *end = line + len, *sp;
	uint32_t want, crc;
	uint64_t seq;

	*ret_skip = p ? (size_t)(p - line) : len;
	if (!p)
		return FRAME_NONE;
	if (end > p && end[-1] == '\r')
		end--;
	p += FRAME_PREFIX_LEN;
	sp = memchr(p, ' ', (size_t)(end - p));
	if (!sp || parse_seq(p, (size_t)(sp - p), &seq) < 0)
		return FRAME_BAD;
	/* The crc, a blank, and a payload of at least one byte. */
	if (end - (sp + 1) < 10 || sp[9] != ' ' || parse_crc(sp + 1, &want) < 0)
		return FRAME_BAD;
	crc = frame_crc32(0, p, (size_t)(sp + 1 - p));
	crc = frame_crc32(crc, sp + 10, (size_t)(end - (sp + 10)));
	if (crc != want)
		return FRAME_BAD;
	*ret_seq = seq;
	*ret_payload = sp + 10;
	*ret_plen = (size_t)(end - (sp + 10));
	return FRAME_OK;
}
