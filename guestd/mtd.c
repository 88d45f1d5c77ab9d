// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the MTD step kinds share: the pure parts (the test pattern, the
 * choice of bits to clear, the checksum, sysfs counter parsing, how one
 * read is classified) and thin wrappers of the mtd char device ioctls of
 * <mtd/mtd-user.h>. The pure parts are unit tested on the host; the
 * ioctls only run in the guest, against nandsim.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "guestd.h"

/* xorshift64*: small, fast and the same on every build. */
static uint64_t mtd_prng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * UINT64_C(2685821657736338717);
}

/* A nonzero PRNG state from two inputs (splitmix64's finaliser). */
static uint64_t mtd_prng_seed(uint64_t a, uint64_t b)
{
	uint64_t z = a * UINT64_C(0x9e3779b97f4a7c15) + b + 1;

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	z ^= z >> 31;
	return z ? z : 1;
}

void mtd_pattern(uint64_t seed, uint64_t page, uint8_t *buf, size_t len)
{
	uint64_t s = mtd_prng_seed(seed, page), v = 0;

	for (size_t i = 0; i < len; i++) {
		if (i % 8 == 0)
			v = mtd_prng_next(&s);
		buf[i] = (uint8_t)(v >> (8 * (i % 8)));
	}
}

uint64_t mtd_checksum(const uint8_t *buf, size_t len)
{
	return proto_fnv1a(PROTO_FNV_INIT, buf, len);
}

static bool bit_is_set(const uint8_t *buf, size_t bit)
{
	return buf[bit / 8] & (1u << (bit % 8));
}

int mtd_pick_bits(const uint8_t *buf, size_t len, unsigned int k, uint64_t seed,
		  size_t *ret_bits)
{
	size_t set = 0;
	uint64_t s = mtd_prng_seed(seed, k);

	if (k > MTD_FLIP_MAX)
		return -EINVAL;
	for (size_t b = 0; b < len * 8; b++)
		set += bit_is_set(buf, b);
	if (set < k)
		return -ENOSPC;
	for (unsigned int j = 0; j < k; j++) {
		/* The r-th set bit not chosen yet, counting from bit 0. */
		size_t r = (size_t)(mtd_prng_next(&s) % (set - j));

		for (size_t b = 0; b < len * 8; b++) {
			bool taken = false;

			if (!bit_is_set(buf, b))
				continue;
			for (unsigned int i = 0; i < j; i++)
				taken |= ret_bits[i] == b;
			if (taken)
				continue;
			if (r-- == 0) {
				ret_bits[j] = b;
				break;
			}
		}
	}
	return 0;
}

int mtd_parse_counter(const char *text, size_t len, uint32_t *ret)
{
	uint64_t v = 0;
	size_t i;

	if (len > 0 && text[len - 1] == '\n')
		len--;
	if (len == 0 || len > 10)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9')
			return -EINVAL;
		v = v * 10 + (uint64_t)(text[i] - '0');
	}
	if (v > UINT32_MAX)
		return -ERANGE;
	*ret = (uint32_t)v;
	return 0;
}

enum mtd_outcome mtd_classify(int r, bool data_matches)
{
	if (r == -EBADMSG)
		return MTD_FAILED;
	if (r != 0 && r != -EUCLEAN)
		return MTD_ERROR;
	if (!data_matches)
		return MTD_SILENT;
	return r ? MTD_CORRECTED : MTD_CLEAN;
}

size_t mtd_diff(const uint8_t *a, const uint8_t *b, size_t len,
		size_t *ret_first)
{
	size_t n = 0;

	for (size_t i = len; i-- > 0;)
		if (a[i] != b[i]) {
			n++;
			*ret_first = i;
		}
	return n;
}

int mtd_dev_name(const char *path, char *name, size_t size)
{
	if (!stepspec_mtd_dev_ok(path))
		return -EINVAL;
	snprintf(name, size, "mtd%s", path + strlen("/dev/mtd"));
	return 0;
}

int mtd_sysfs_counter(const struct mtd_dev *dev, const char *attr,
		      uint32_t *ret)
{
	char path[128], *buf;
	size_t len;
	bool trunc;
	int r;

	snprintf(path, sizeof(path), "/sys/class/mtd/%s/%s", dev->name, attr);
	r = fileio_read(path, 64, &buf, &len, &trunc);
	if (r < 0)
		return r;
	r = trunc ? -EINVAL : mtd_parse_counter(buf, len, ret);
	free(buf);
	return r;
}

int mtd_dev_open(const char *path, struct mtd_dev *ret, char *what,
		 size_t whatlen)
{
	struct mtd_dev d = { .fd = -1 };
	int r;

	if (mtd_dev_name(path, d.name, sizeof(d.name)) < 0) {
		snprintf(what, whatlen, "'%s' is not /dev/mtdN", path);
		return -EINVAL;
	}
	snprintf(what, whatlen, "open('%s')", path);
	d.fd = open(path, O_RDWR | O_CLOEXEC);
	if (d.fd < 0)
		return -errno;
	snprintf(what, whatlen, "MEMGETINFO on '%s'", path);
	if (ioctl(d.fd, MEMGETINFO, &d.info) < 0) {
		r = -errno;
		goto fail;
	}
	r = -EOPNOTSUPP;
	snprintf(what, whatlen, "'%s': page %u, OOB %u, block %u bytes", path,
		 d.info.writesize, d.info.oobsize, d.info.erasesize);
	if (d.info.writesize == 0 || d.info.erasesize == 0 ||
	    d.info.writesize > MTD_PAGE_MAX || d.info.oobsize > MTD_OOB_MAX ||
	    d.info.erasesize % d.info.writesize)
		goto fail;
	snprintf(what, whatlen, "reading /sys/class/mtd/%s/ecc_step_size",
		 d.name);
	r = mtd_sysfs_counter(&d, "ecc_step_size", &d.step_size);
	if (r == 0 && (d.step_size == 0 || d.info.writesize % d.step_size))
		r = -EOPNOTSUPP;
	if (r < 0)
		goto fail;
	what[0] = '\0';
	*ret = d;
	return 0;
fail:
	close(d.fd);
	return r;
}

void mtd_dev_close(struct mtd_dev *dev)
{
	if (dev->fd >= 0)
		close(dev->fd);
	dev->fd = -1;
}

uint64_t mtd_pages(const struct mtd_dev *dev)
{
	return dev->info.size / dev->info.writesize;
}

int mtd_read_page(const struct mtd_dev *dev, uint64_t page, uint8_t *data,
		  uint8_t *oob, uint8_t mode,
		  struct mtd_read_req_ecc_stats *ret_stats)
{
	struct mtd_read_req req = {
		.start = page * dev->info.writesize,
		.len = dev->info.writesize,
		.ooblen = oob ? dev->info.oobsize : 0,
		.usr_data = (uintptr_t)data,
		.usr_oob = (uintptr_t)oob,
		.mode = mode,
	};
	int r = 0;

	if (ioctl(dev->fd, MEMREAD, &req) < 0)
		r = -errno;
	*ret_stats = req.ecc_stats;
	return r;
}

int mtd_write_page(const struct mtd_dev *dev, uint64_t page,
		   const uint8_t *data, const uint8_t *oob, uint8_t mode)
{
	struct mtd_write_req req = {
		.start = page * dev->info.writesize,
		.len = dev->info.writesize,
		.ooblen = oob ? dev->info.oobsize : 0,
		.usr_data = (uintptr_t)data,
		.usr_oob = (uintptr_t)oob,
		.mode = mode,
	};

	return ioctl(dev->fd, MEMWRITE, &req) < 0 ? -errno : 0;
}

int mtd_erase(const struct mtd_dev *dev, uint64_t start, uint64_t len)
{
	struct erase_info_user64 ei = { .start = start, .length = len };

	return ioctl(dev->fd, MEMERASE64, &ei) < 0 ? -errno : 0;
}

int mtd_ecc_stats(const struct mtd_dev *dev, struct mtd_ecc_stats *ret)
{
	return ioctl(dev->fd, ECCGETSTATS, ret) < 0 ? -errno : 0;
}
