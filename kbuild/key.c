// SPDX-License-Identifier: GPL-2.0-only
/*
 * sha256 through OpenSSL's EVP interface, and the build cache key. Each
 * input is framed as tag, length and bytes, so moving bytes from one input
 * to the next always changes the key.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "kb.h"

struct kb_hash {
	EVP_MD_CTX *ctx;
};

int kb_hash_new(struct kb_hash **ret)
{
	struct kb_hash *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	h->ctx = EVP_MD_CTX_new();
	if (!h->ctx || EVP_DigestInit_ex(h->ctx, EVP_sha256(), NULL) != 1) {
		kb_hash_free(h);
		return -ENOMEM;
	}
	*ret = h;
	return 0;
}

void kb_hash_free(struct kb_hash *h)
{
	if (!h)
		return;
	EVP_MD_CTX_free(h->ctx);
	free(h);
}

static int hash_raw(struct kb_hash *h, const void *data, size_t len)
{
	return EVP_DigestUpdate(h->ctx, data, len) == 1 ? 0 : -EIO;
}

int kb_hash_add(struct kb_hash *h, const char *tag, const void *data,
		size_t len)
{
	unsigned char lenbuf[8];
	uint64_t l = len;
	int r;

	for (int i = 0; i < 8; i++)
		lenbuf[i] = (unsigned char)(l >> (8 * i));
	r = hash_raw(h, tag, strlen(tag) + 1);
	if (r == 0)
		r = hash_raw(h, lenbuf, sizeof(lenbuf));
	if (r == 0 && len)
		r = hash_raw(h, data, len);
	return r;
}

int kb_hash_add_str(struct kb_hash *h, const char *tag, const char *s)
{
	return kb_hash_add(h, tag, s ? s : "", s ? strlen(s) : 0);
}

static void to_hex(const unsigned char *md, unsigned n, char *hex)
{
	static const char digits[] = "0123456789abcdef";

	for (unsigned i = 0; i < n; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[2 * n] = '\0';
}

int kb_hash_final(struct kb_hash *h, char ret_hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;

	if (EVP_DigestFinal_ex(h->ctx, md, &n) != 1 || n != 32)
		return -EIO;
	to_hex(md, n, ret_hex);
	return 0;
}

int kb_sha256_hex(const void *data, size_t len, char ret_hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned n = 0;

	if (EVP_Digest(data, len, md, &n, EVP_sha256(), NULL) != 1 || n != 32)
		return -EIO;
	to_hex(md, n, ret_hex);
	return 0;
}

int kbuild_sha256_hex(const void *data, size_t len, char ret_hex[65])
{
	return kb_sha256_hex(data, len, ret_hex);
}

int kb_sha256_file_hex(const char *path, char ret_hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	EVP_MD_CTX *ctx = NULL;
	char buf[65536];
	unsigned n = 0;
	int fd, r = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ctx = EVP_MD_CTX_new();
	if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) {
		r = -ENOMEM;
		goto out;
	}
	for (;;) {
		ssize_t got = read(fd, buf, sizeof(buf));

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r = -errno;
			goto out;
		}
		if (got == 0)
			break;
		if (EVP_DigestUpdate(ctx, buf, got) != 1) {
			r = -EIO;
			goto out;
		}
	}
	if (EVP_DigestFinal_ex(ctx, md, &n) != 1 || n != 32) {
		r = -EIO;
		goto out;
	}
	to_hex(md, n, ret_hex);
out:
	EVP_MD_CTX_free(ctx);
	close(fd);
	return r;
}

int kb_cache_key(const struct kb_key_input *in, char ret_hex[65])
{
	struct kb_hash *h = NULL;
	char count[32];
	int r;

	r = kb_hash_new(&h);
	if (r < 0)
		return r;
	r = kb_hash_add_str(h, "vlalab-kbuild-key", "1");
	/* The default line (or NULL) hashes no line: its keys are those from
	 * before lines existed, so that its cached kernels stay hits. */
	if (r == 0 && in->line && strcmp(in->line, KBUILD_DEFAULT_LINE))
		r = kb_hash_add_str(h, "line", in->line);
	if (r == 0)
		r = kb_hash_add_str(h, "source-version", in->source_version);
	if (r == 0)
		r = kb_hash_add_str(h, "compiler", in->compiler);
	if (r == 0)
		r = kb_hash_add_str(h, "flavour", in->flavour);
	if (r == 0)
		r = kb_hash_add(h, "series", in->series.data, in->series.len);
	snprintf(count, sizeof(count), "%zu", in->npatches);
	if (r == 0)
		r = kb_hash_add_str(h, "patches", count);
	for (size_t i = 0; r == 0 && i < in->npatches; i++) {
		r = kb_hash_add_str(h, "patch-name", in->patches[i].name);
		if (r == 0)
			r = kb_hash_add(h, "patch", in->patches[i].data,
					in->patches[i].len);
	}
	snprintf(count, sizeof(count), "%zu", in->nfragments);
	if (r == 0)
		r = kb_hash_add_str(h, "fragments", count);
	for (size_t i = 0; r == 0 && i < in->nfragments; i++) {
		r = kb_hash_add_str(h, "fragment-name", in->fragments[i].name);
		if (r == 0)
			r = kb_hash_add(h, "fragment", in->fragments[i].data,
					in->fragments[i].len);
	}
	if (in->nwithout) {
		snprintf(count, sizeof(count), "%zu", in->nwithout);
		if (r == 0)
			r = kb_hash_add_str(h, "without", count);
		for (size_t i = 0; r == 0 && i < in->nwithout; i++)
			r = kb_hash_add_str(h, "without-name", in->without[i]);
	}
	if (r == 0 && in->evidence.data)
		r = kb_hash_add(h, "evidence", in->evidence.data,
				in->evidence.len);
	if (in->nextmods) {
		snprintf(count, sizeof(count), "%zu", in->nextmods);
		if (r == 0)
			r = kb_hash_add_str(h, "extmods", count);
		for (size_t i = 0; r == 0 && i < in->nextmods; i++) {
			r = kb_hash_add_str(h, "extmod-name",
					    in->extmods[i].name);
			if (r == 0)
				r = kb_hash_add(h, "extmod",
						in->extmods[i].data,
						in->extmods[i].len);
		}
	}
	if (r == 0)
		r = kb_hash_final(h, ret_hex);
	kb_hash_free(h);
	return r;
}
