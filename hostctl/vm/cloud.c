// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cloud image's files: the image itself (a user's, checked, or the
 * locally built one), the modules disk of a kernel build, the NoCloud
 * seed, and each VM's overlay. Library code: negative errno, no logging
 * (the scripts and programs it runs say their own errors on stderr).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm/cloud.h"
#include "fileio.h"
#include "base/fsutil.h"

/* The most a script's output may hold: a path, a few lines. */
#define CLOUD_OUT_MAX 65536

int cloud_spec_path(const char *spec, const char **ret)
{
	size_t n = strlen(CLOUD_SPEC_PREFIX);

	if (strncmp(spec, CLOUD_SPEC_PREFIX, n) != 0 || spec[n] == '\0')
		return -EINVAL;
	*ret = spec + n;
	return 0;
}

int cloud_check_qcow2(const char *path, char *ret, size_t len)
{
	static const unsigned char magic[4] = { 'Q', 'F', 'I', 0xfb };
	unsigned char buf[4];
	char abs[PATH_MAX];
	struct stat st;
	ssize_t n;
	int fd, r = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (S_ISDIR(st.st_mode))
		r = -EISDIR;
	else if ((n = pread(fd, buf, sizeof(buf), 0)) < 0)
		r = -errno;
	else if (n != sizeof(buf) || memcmp(buf, magic, sizeof(buf)) != 0)
		r = -EMEDIUMTYPE;
	close(fd);
	if (r == 0 && !realpath(path, abs))
		r = -errno;
	if (r == 0 && snprintf(ret, len, "%s", abs) >= (int)len)
		r = -ENAMETOOLONG;
	return r;
}

/*
 * Run @argv with its standard output into a temporary file and put the
 * last line of that output in @ret. 0, -EIO (it failed, or said
 * nothing), or -errno.
 */
static int run_last_line(char *const argv[], char *ret, size_t len)
{
	char tmp[] = "/tmp/vlalab-cloud-out-XXXXXX";
	char *out = NULL, *line;
	size_t n = 0;
	int fd, r;

	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	close(fd);
	r = fs_run(argv, tmp, NULL);
	if (r == 0)
		r = fileio_read(tmp, CLOUD_OUT_MAX, &out, &n, NULL);
	unlink(tmp);
	if (r < 0)
		return r;
	while (n > 0 && out[n - 1] == '\n')
		out[--n] = '\0';
	line = strrchr(out, '\n');
	line = line ? line + 1 : out;
	if (!*line)
		r = -EIO;
	else if (snprintf(ret, len, "%s", line) >= (int)len)
		r = -ENAMETOOLONG;
	free(out);
	return r;
}

int cloud_build_local(const char *srcdir, const char *cache, char *ret,
		      size_t len)
{
	char script[PATH_MAX], path[PATH_MAX];
	char *argv[] = { script, (char *)cache, NULL };
	int r;

	if (snprintf(script, sizeof(script), "%s/images/cloud/build.sh",
		     srcdir) >= (int)sizeof(script))
		return -ENAMETOOLONG;
	r = run_last_line(argv, path, sizeof(path));
	if (r < 0)
		return r;
	/* The script's word: still check what it names. */
	return cloud_check_qcow2(path, ret, len);
}

static uint64_t tree_bytes;

static int add_size(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)path;
	(void)flag;
	(void)ftw;
	/* Each file's blocks and an inode's worth of metadata. */
	tree_bytes += (uint64_t)st->st_blocks * 512 + 4096;
	return 0;
}

int cloud_modules_disk(const char *kernel_dir, char *ret, size_t len)
{
	char tree[PATH_MAX], tmp[PATH_MAX + 32], size[32];
	char *argv[] = { "mkfs.ext4", "-q", "-F", "-L", CLOUD_MODULES_LABEL,
			 "-d",	      tree, tmp,  size, NULL };
	uint64_t mib;
	int r;

	if (snprintf(ret, len, "%s/" CLOUD_MODULES_DISK, kernel_dir) >=
		    (int)len ||
	    snprintf(tree, sizeof(tree), "%s/modules/lib/modules",
		     kernel_dir) >= (int)sizeof(tree))
		return -ENAMETOOLONG;
	if (access(ret, R_OK) == 0)
		return 0;
	tree_bytes = 0;
	if (nftw(tree, add_size, 16, FTW_PHYS) != 0)
		return errno ? -errno : -EIO;
	/* Twice what the tree takes, and room for ext4's own metadata. */
	mib = tree_bytes * 2 / (1024 * 1024) + 16;
	snprintf(size, sizeof(size), "%" PRIu64 "M", mib);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%d", ret, (int)getpid());
	r = fs_run(argv, NULL, NULL);
	/* Whole or not at all: another hostctl may be making it too. */
	if (r == 0 && rename(tmp, ret) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

/*
 * An ISO 9660 image (ECMA-119) as genisoimage writes it, to settle its
 * clocks: the volume descriptors' dates, each directory record's, and
 * the Rock Ridge TF entries' (SUSP, in a record's system use area or in
 * its continuation area). Every one becomes CLOUD_ISO_EPOCH's date.
 */
struct iso {
	unsigned char *buf;
	size_t len, bs; /* the bytes, and the logical block size */
	unsigned int records; /* walked so far: a bound on a looping image */
};

/* At most this many directory records and SUSP areas in a seed. */
#define ISO_RECORDS_MAX 4096
#define ISO_DEPTH_MAX 8

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* A 7-byte date of a directory record or a TF entry (ECMA-119 9.1.5). */
static void iso_date7(unsigned char *p)
{
	static const unsigned char d[7] = {
		CLOUD_ISO_EPOCH_YEAR - 1900, 1, 1, 0, 0, 0, 0
	};

	memcpy(p, d, sizeof(d));
}

/* A 17-byte date of a volume descriptor or a long-form TF (8.4.26.1). */
static void iso_date17(unsigned char *p)
{
	char d[17];

	snprintf(d, sizeof(d), "%04d010100000000", CLOUD_ISO_EPOCH_YEAR);
	memcpy(p, d, 16);
	p[16] = 0;
}

/*
 * The SUSP entries of @len bytes at @off: each TF's timestamps settled,
 * a CE's continuation area walked too. -EINVAL for an entry that does
 * not fit.
 */
static int iso_susp(struct iso *iso, size_t off, size_t len, unsigned int depth)
{
	size_t end = off + len;

	if (end > iso->len || end < off || depth > ISO_DEPTH_MAX ||
	    ++iso->records > ISO_RECORDS_MAX)
		return -EINVAL;
	while (off + 4 <= end) {
		unsigned char *e = iso->buf + off;
		size_t elen = e[2], tlen, t;

		if (elen < 4 || off + elen > end)
			return -EINVAL;
		if (!memcmp(e, "ST", 2))
			break;
		if (!memcmp(e, "TF", 2) && elen >= 5) {
			tlen = e[4] & 0x80 ? 17 : 7;
			t = 5;
			for (int bit = 0; bit < 7; bit++) {
				if (!(e[4] & 1 << bit))
					continue;
				if (t + tlen > elen)
					return -EINVAL;
				if (tlen == 17)
					iso_date17(e + t);
				else
					iso_date7(e + t);
				t += tlen;
			}
		} else if (!memcmp(e, "CE", 2) && elen >= 28) {
			uint64_t at =
				(uint64_t)le32(e + 4) * iso->bs + le32(e + 12);
			int r = iso_susp(iso, at, le32(e + 20), depth + 1);

			if (r < 0)
				return r;
		}
		off += elen;
	}
	return 0;
}

/* The directory of @size bytes at block @block, and those below it. */
static int iso_dir(struct iso *iso, uint32_t block, uint32_t size,
		   unsigned int depth)
{
	size_t off = (size_t)block * iso->bs, end = off + size;
	int r;

	if (depth > ISO_DEPTH_MAX || end > iso->len || end < off)
		return -EINVAL;
	while (off < end) {
		unsigned char *d = iso->buf + off;
		size_t dlen = d[0], su;

		if (dlen == 0) {
			/* Records do not cross a block: the next one's. */
			off = (off / iso->bs + 1) * iso->bs;
			continue;
		}
		if (dlen < 34 || off + dlen > end ||
		    33 + (size_t)d[32] > dlen ||
		    ++iso->records > ISO_RECORDS_MAX)
			return -EINVAL;
		iso_date7(d + 18);
		su = 33 + (size_t)d[32] + !(d[32] & 1);
		if (su < dlen) {
			r = iso_susp(iso, off + su, dlen - su, depth);
			if (r < 0)
				return r;
		}
		/* A directory, not "." (\0) or ".." (\1): its records too. */
		if ((d[25] & 2) && !(d[32] == 1 && d[33] <= 1)) {
			r = iso_dir(iso, le32(d + 2), le32(d + 10), depth + 1);
			if (r < 0)
				return r;
		}
		off += dlen;
	}
	return 0;
}

int cloud_iso_settle(const char *path)
{
	struct iso iso = { 0 };
	char *buf = NULL;
	bool cut = false;
	size_t off;
	int r;

	r = fileio_read(path, CLOUD_SEED_MAX, &buf, &iso.len, &cut);
	if (r < 0)
		return r;
	iso.buf = (unsigned char *)buf;
	if (cut) {
		r = -EFBIG;
		goto out;
	}
	r = -EINVAL;
	/* The volume descriptors, from block 16 (2048 bytes) to the end. */
	for (off = 16 * 2048; off + 2048 <= iso.len; off += 2048) {
		unsigned char *v = iso.buf + off;

		if (memcmp(v + 1, "CD001", 5) != 0)
			goto out;
		if (v[0] == 255) {
			r = 0;
			break;
		}
		if (v[0] != 1 && v[0] != 2)
			continue;
		iso.bs = (size_t)v[128] | (size_t)v[129] << 8;
		if (iso.bs < 512 || iso.bs > 2048 || (iso.bs & (iso.bs - 1)))
			goto out;
		iso_date17(v + 813);
		iso_date17(v + 830);
		iso_date17(v + 864);
		/* The root's record, and its tree. */
		iso_date7(v + 156 + 18);
		if (iso_dir(&iso, le32(v + 156 + 2), le32(v + 156 + 10), 0) < 0)
			goto out;
	}
	if (r == 0)
		r = fileio_write_atomic(path, iso.buf, iso.len);
out:
	free(buf);
	return r;
}

int cloud_seed(const char *srcdir, const char *out, const char *guestd,
	       const char *client_pub, const char *host_key)
{
	char script[PATH_MAX];
	char *argv[] = { script,	   (char *)out,
			 (char *)guestd,   (char *)client_pub,
			 (char *)host_key, NULL };
	int r;

	if (snprintf(script, sizeof(script), "%s/images/cloud/seed.sh",
		     srcdir) >= (int)sizeof(script))
		return -ENAMETOOLONG;
	r = fs_run(argv, NULL, NULL);
	/* The same bytes for the same inputs: a remote pool has it then. */
	return r < 0 ? r : cloud_iso_settle(out);
}

int cloud_overlay(const char *base, const char *path)
{
	char *argv[] = { "qemu-img",   "create",     "-q",    "-f",
			 "qcow2",      "-F",	     "qcow2", "-b",
			 (char *)base, (char *)path, NULL };

	return fs_run(argv, NULL, NULL);
}
