// SPDX-License-Identifier: GPL-2.0-only
/*
 * A kernel built elsewhere (ikconfig.c): the release from a bzImage's
 * setup header, its gzip payload, and the IKCONFIG blob in it, on a
 * bzImage made here byte by byte; and every way such a file can be wrong.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kb.h"
#include "tap.h"

#define CONFIG_TEXT \
	"CONFIG_MODULES=y\n# CONFIG_KASAN is not set\nCONFIG_FTRACE=y\n"

/* gzip of len bytes at in into out (a buffer of cap); its length. */
static size_t gz(const void *in, size_t len, unsigned char *out, size_t cap)
{
	z_stream z = { 0 };

	if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	z.next_in = (unsigned char *)in;
	z.avail_in = len;
	z.next_out = out;
	z.avail_out = cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	deflateEnd(&z);
	return cap - z.avail_out;
}

static void put16(unsigned char *p, unsigned v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

static void put32(unsigned char *p, unsigned v)
{
	put16(p, v & 0xffff);
	put16(p + 2, v >> 16);
}

/* A vmlinux with an IKCONFIG blob (or with marker, the blob's text). */
static size_t vmlinux(unsigned char *out, size_t cap, const char *config)
{
	size_t n = 0;

	memset(out, 0x90, 4096);
	n = 4096;
	memcpy(out + n, "IKCFG_ST", 8);
	n += 8;
	n += gz(config, strlen(config), out + n, cap - n - 4096);
	memcpy(out + n, "IKCFG_ED", 8);
	n += 8;
	memset(out + n, 0xcc, 2048);
	return n + 2048;
}

/* A bzImage: 4 setup sectors (setup_sects 0 means 4 as well), the
 * version string in the setup code, then the gzip'd vmlinux. */
static size_t bzimage(unsigned char *out, size_t cap, const char *config,
		      const char *version)
{
	static unsigned char vm[1 << 16], pl[1 << 16];
	size_t vlen = vmlinux(vm, sizeof(vm), config), plen;
	size_t start = 5 * 512;

	plen = gz(vm, vlen, pl, sizeof(pl));
	memset(out, 0, cap);
	out[0x1f1] = 4;
	memcpy(out + 0x202, "HdrS", 4);
	put16(out + 0x206, 0x20f);
	put16(out + 0x20e, 0x600 - 0x200);
	strcpy((char *)out + 0x600, version);
	put32(out + 0x248, 0x100);
	put32(out + 0x24c, plen);
	memcpy(out + start + 0x100, pl, plen);
	return start + 0x100 + plen + 64;
}

int main(void)
{
	static unsigned char img[1 << 17];
	char rel[65], err[512], *text = NULL;
	const unsigned char *pl;
	size_t len, pllen, tlen;
	int r;

	printf("TAP version 13\n");
	len = bzimage(img, sizeof(img), CONFIG_TEXT,
		      "6.1.192-vlalab (root@vm) #1 SMP Fri Dec 4 2026");
	r = kb_bzimage_release(img, len, rel, sizeof(rel), err, sizeof(err));
	is_int(r, 0, "the release of a bzImage");
	is_str(rel, "6.1.192-vlalab", "is the version string's first word");

	r = kb_bzimage_payload(img, len, &pl, &pllen, err, sizeof(err));
	is_int(r, 0, "its payload");
	r = kb_gunzip(pl, pllen, KB_VMLINUX_MAX, &text, &tlen);
	is_int(r, 0, "gunzips");
	if (r == 0) {
		char *cfg = NULL;
		size_t clen = 0;

		r = kb_ikconfig_find((unsigned char *)text, tlen, &cfg, &clen);
		is_int(r, 0, "the vmlinux has an IKCONFIG blob");
		is_str(r == 0 ? cfg : "", CONFIG_TEXT,
		       "which is the config put in");
		free(cfg);
		is_int(kb_gunzip(pl, pllen, 1000, &cfg, &clen), -EFBIG,
		       "more than max bytes out is -EFBIG");
		free(text);
	}

	/* Bad input, each with its reason. */
	r = kb_bzimage_release(img, 0x200, rel, sizeof(rel), err, sizeof(err));
	okf(r == -EINVAL && strstr(err, "not a bzImage"),
	    "a short file is not a bzImage: %s", err);
	memcpy(img + 0x202, "HdrX", 4);
	r = kb_bzimage_release(img, len, rel, sizeof(rel), err, sizeof(err));
	okf(r == -EINVAL && strstr(err, "HdrS"), "nor one without HdrS: %s",
	    err);
	memcpy(img + 0x202, "HdrS", 4);
	put16(img + 0x20e, 0xffff);
	r = kb_bzimage_release(img, len, rel, sizeof(rel), err, sizeof(err));
	okf(r == -EINVAL && strstr(err, "past its end"),
	    "a version string past the end: %s", err);
	put16(img + 0x20e, 0x600 - 0x200);
	strcpy((char *)img + 0x600, "6.1/../x (root)");
	r = kb_bzimage_release(img, len, rel, sizeof(rel), err, sizeof(err));
	okf(r == -EINVAL && strstr(err, "not a release"),
	    "a release with a '/': %s", err);
	pllen = img[0x24c] | img[0x24d] << 8;
	put32(img + 0x24c, 0x7fffffff);
	r = kb_bzimage_payload(img, len, &pl, &pllen, err, sizeof(err));
	okf(r == -EINVAL && strstr(err, "not inside"),
	    "a payload past the end: %s", err);
	put32(img + 0x24c, pllen);
	memcpy(img + 5 * 512 + 0x100,
	       "\xfd"
	       "7zXZ",
	       6);
	r = kb_bzimage_payload(img, len, &pl, &pllen, err, sizeof(err));
	okf(r == -EOPNOTSUPP && strstr(err, "xz"), "an xz payload is named: %s",
	    err);
	put16(img + 0x206, 0x207);
	r = kb_bzimage_payload(img, len, &pl, &pllen, err, sizeof(err));
	okf(r == -EOPNOTSUPP && strstr(err, "2.07"),
	    "boot protocol 2.07 has no payload field: %s", err);

	is_int(kb_ikconfig_find((const unsigned char *)"no marker here", 14,
				&text, &tlen),
	       -ENOENT, "no IKCFG_ST is -ENOENT");
	is_int(kb_ikconfig_find((const unsigned char *)"IKCFG_ST\x1f\x8b", 10,
				&text, &tlen),
	       -EBADMSG, "IKCFG_ST without IKCFG_ED is -EBADMSG");
	{
		static unsigned char vm[1 << 16];
		size_t n = vmlinux(vm, sizeof(vm), "not a config\n");

		is_int(kb_ikconfig_find(vm, n, &text, &tlen), -EBADMSG,
		       "a blob without CONFIG_ lines is -EBADMSG");
		vm[4096 + 8 + 12] ^= 0xff;
		n = vmlinux(vm, sizeof(vm), CONFIG_TEXT);
		vm[4096 + 8 + 20] ^= 0xff;
		is_int(kb_ikconfig_find(vm, n, &text, &tlen), -EBADMSG,
		       "a corrupt gzip blob is -EBADMSG");
	}
	return tap_done();
}
