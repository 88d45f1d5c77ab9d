// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a kernel built elsewhere says about itself (docs/kernel.md, "A
 * kernel built elsewhere"): the release in a bzImage's setup header, and
 * the .config that CONFIG_IKCONFIG embeds, as the kernel's own
 * scripts/extract-ikconfig finds it. The blob sits between the markers
 * "IKCFG_ST" and "IKCFG_ED", gzip-compressed, in vmlinux (and so in the
 * bzImage's compressed payload) or in kernel/configs.ko when IKCONFIG=m.
 *
 * Pure: every offset read from the image is checked against its length,
 * since the image is whatever file the user named.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kb.h"

#define HDR_SETUP_SECTS 0x1f1
#define HDR_MAGIC 0x202
#define HDR_VERSION 0x206
#define HDR_KERNEL_VERSION 0x20e
#define HDR_PAYLOAD_OFFSET 0x248
#define HDR_PAYLOAD_LENGTH 0x24c
#define IKCFG_ST "IKCFG_ST"
#define IKCFG_ED "IKCFG_ED"

static uint32_t le16(const unsigned char *p)
{
	return p[0] | (uint32_t)p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
	return le16(p) | le16(p + 2) << 16;
}

static int check_header(const unsigned char *img, size_t len, char *err,
			size_t errlen)
{
	if (len < HDR_PAYLOAD_LENGTH + 4 ||
	    memcmp(img + HDR_MAGIC, "HdrS", 4)) {
		snprintf(err, errlen,
			 "not a bzImage (no \"HdrS\" setup header at 0x%x)",
			 HDR_MAGIC);
		return -EINVAL;
	}
	return 0;
}

int kb_bzimage_release(const unsigned char *img, size_t len, char *buf,
		       size_t buflen, char *err, size_t errlen)
{
	size_t off, n;
	int r;

	r = check_header(img, len, err, errlen);
	if (r < 0)
		return r;
	off = le16(img + HDR_KERNEL_VERSION);
	if (!off) {
		snprintf(err, errlen, "the bzImage names no kernel version");
		return -EINVAL;
	}
	off += 0x200;
	if (off >= len) {
		snprintf(
			err, errlen,
			"the bzImage's version string at 0x%zx is past its end",
			off);
		return -EINVAL;
	}
	/* "6.1.192 (user@host) #1 SMP ...": the release is the first word. */
	n = strcspn((const char *)img + off, " ");
	if (off + n >= len || !n || n >= buflen ||
	    strspn((const char *)img + off,
		   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.+-_~") <
		    n) {
		snprintf(
			err, errlen,
			"the bzImage's version string at 0x%zx is not a release",
			off);
		return -EINVAL;
	}
	memcpy(buf, img + off, n);
	buf[n] = '\0';
	return 0;
}

static const char *compression_name(const unsigned char *p, size_t len)
{
	static const struct {
		const char *name;
		const char *magic;
		size_t n;
	} m[] = {
		{ "xz",
		  "\xfd"
		  "7zXZ",
		  5 },
		{ "zstd", "\x28\xb5\x2f\xfd", 4 },
		{ "lz4", "\x02\x21\x4c\x18", 4 },
		{ "lzo", "\x89LZO", 4 },
		{ "bzip2", "BZh", 3 },
		{ "lzma", "\x5d\x00\x00", 3 },
	};

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (len >= m[i].n && !memcmp(p, m[i].magic, m[i].n))
			return m[i].name;
	return "an unknown format";
}

int kb_bzimage_payload(const unsigned char *img, size_t len,
		       const unsigned char **ret, size_t *ret_len, char *err,
		       size_t errlen)
{
	size_t sects, start, off, plen;
	int r;

	r = check_header(img, len, err, errlen);
	if (r < 0)
		return r;
	if (le16(img + HDR_VERSION) < 0x208) {
		snprintf(
			err, errlen,
			"boot protocol %u.%02u names no payload (2.08 or later does)",
			le16(img + HDR_VERSION) >> 8,
			le16(img + HDR_VERSION) & 0xff);
		return -EOPNOTSUPP;
	}
	sects = img[HDR_SETUP_SECTS] ? img[HDR_SETUP_SECTS] : 4;
	start = (sects + 1) * 512;
	off = le32(img + HDR_PAYLOAD_OFFSET);
	plen = le32(img + HDR_PAYLOAD_LENGTH);
	if (start > len || off > len - start || plen > len - start - off ||
	    plen < 18) {
		snprintf(
			err, errlen,
			"the bzImage's payload (0x%zx + 0x%zx, %zu bytes) is not inside its %zu bytes",
			start, off, plen, len);
		return -EINVAL;
	}
	if (memcmp(img + start + off, "\x1f\x8b\x08", 3)) {
		snprintf(
			err, errlen,
			"the bzImage's payload is compressed with %s; this reader takes gzip only",
			compression_name(img + start + off, plen));
		return -EOPNOTSUPP;
	}
	*ret = img + start + off;
	*ret_len = plen;
	return 0;
}

int kb_gunzip(const unsigned char *in, size_t len, size_t max, char **ret,
	      size_t *ret_len)
{
	z_stream z = { 0 };
	size_t cap = 1u << 20, n = 0;
	char *out = NULL, *q;
	int zr;

	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return -ENOMEM;
	z.next_in = (unsigned char *)in;
	z.avail_in = len > UINT32_MAX ? UINT32_MAX : (uInt)len;
	do {
		if (n == cap || !out) {
			if (out)
				cap *= 2;
			if (cap > max + 1)
				cap = max + 1;
			q = realloc(out, cap + 1);
			if (!q) {
				zr = Z_MEM_ERROR;
				break;
			}
			out = q;
		}
		z.next_out = (unsigned char *)out + n;
		z.avail_out = cap - n;
		zr = inflate(&z, Z_NO_FLUSH);
		n = cap - z.avail_out;
		if (n > max) {
			zr = Z_BUF_ERROR;
			break;
		}
	} while (zr == Z_OK);
	inflateEnd(&z);
	if (zr != Z_STREAM_END) {
		free(out);
		return zr == Z_MEM_ERROR ? -ENOMEM :
		       n > max		 ? -EFBIG :
					   -EBADMSG;
	}
	out[n] = '\0';
	*ret = out;
	*ret_len = n;
	return 0;
}

int kb_ikconfig_find(const unsigned char *data, size_t len, char **ret_text,
		     size_t *ret_len)
{
	const unsigned char *p = memmem(data, len, IKCFG_ST, 8), *e;
	struct kb_config cfg = { 0 };
	char *text = NULL;
	size_t n = 0;
	int r;

	if (!p)
		return -ENOENT;
	p += 8;
	e = memmem(p, len - (p - data), IKCFG_ED, 8);
	if (!e)
		return -EBADMSG;
	r = kb_gunzip(p, e - p, KB_IKCONFIG_MAX, &text, &n);
	if (r < 0)
		return r;
	/* What came out must read as a .config with options in it. */
	if (strlen(text) != n || kb_config_parse(text, &cfg) < 0 || !cfg.n) {
		kb_config_free(&cfg);
		free(text);
		return -EBADMSG;
	}
	kb_config_free(&cfg);
	*ret_text = text;
	*ret_len = n;
	return 0;
}
