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

int cloud_seed(const char *srcdir, const char *out, const char *guestd,
	       const char *client_pub, const char *host_key)
{
	char script[PATH_MAX];
	char *argv[] = { script,	   (char *)out,
			 (char *)guestd,   (char *)client_pub,
			 (char *)host_key, NULL };

	if (snprintf(script, sizeof(script), "%s/images/cloud/seed.sh",
		     srcdir) >= (int)sizeof(script))
		return -ENAMETOOLONG;
	return fs_run(argv, NULL, NULL);
}

int cloud_overlay(const char *base, const char *path)
{
	char *argv[] = { "qemu-img",   "create",     "-q",    "-f",
			 "qcow2",      "-F",	     "qcow2", "-b",
			 (char *)base, (char *)path, NULL };

	return fs_run(argv, NULL, NULL);
}
