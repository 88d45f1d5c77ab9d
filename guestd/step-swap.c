// SPDX-License-Identifier: GPL-2.0-only
/*
 * swap: mkswap and swapon a block device, in C (no busybox needed), after
 * optionally checking the signature the device holds first: "SWAPSPACE2"
 * for a plain swap area, "S1SUSPEND" while a hibernation image is on it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <time.h>
#include <unistd.h>

#include "guestd.h"

static void random_bytes(uint8_t *buf, size_t len)
{
	struct timespec ts;

	/* Early in boot the RNG may not be ready: never wait for it. */
	if (getrandom(buf, len, GRND_NONBLOCK) == (ssize_t)len)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)((ts.tv_nsec >> (i % 4 * 8)) ^ (i * 151) ^
				   getpid());
}

static int dev_size(int fd, uint64_t *ret)
{
	struct stat st;

	if (ioctl(fd, BLKGETSIZE64, ret) == 0)
		return 0;
	if (fstat(fd, &st) < 0)
		return -errno;
	*ret = (uint64_t)st.st_size;
	return 0;
}

/* Check and rewrite the header; 1 when @res got a verdict. */
static int swap_header(const char *path, struct json_object *step,
		       struct step_result *res, char *done, size_t donelen)
{
	const char *want_sig = step_str(step, "signature");
	bool mk = step_bool(step, "mkswap", true);
	size_t psize = (size_t)sysconf(_SC_PAGESIZE);
	char sig[64];
	uint8_t uuid[16];
	uint64_t size = 0;
	char *page;
	int fd, r = 0;

	page = calloc(1, psize);
	if (!page)
		return -ENOMEM;
	fd = open(path, (mk ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd < 0) {
		step_errno_mismatch(res, 0, errno, "open");
		snprintf(res->reason, sizeof(res->reason), "opening '%s'",
			 path);
		r = 1;
		goto out;
	}
	/*
	 * The kernel writes and resets hibernation signatures with bios that
	 * bypass the page cache: drop any cached copy of the header first.
	 */
	posix_fadvise(fd, 0, (off_t)psize, POSIX_FADV_DONTNEED);
	if (pread(fd, page, psize, 0) != (ssize_t)psize ||
	    dev_size(fd, &size)) {
		step_errno_mismatch(res, 0, errno ? errno : EIO, "read");
		snprintf(res->reason, sizeof(res->reason),
			 "reading the first page of '%s'", path);
		r = 1;
		goto out;
	}
	swap_signature(page, psize, sig, sizeof(sig));
	if (want_sig && strcmp(sig, want_sig) != 0) {
		res->verdict = VERDICT_FAIL;
		step_expected(res, "signature '%s'", want_sig);
		step_got(res, "signature '%s'", sig);
		snprintf(res->reason, sizeof(res->reason),
			 "the swap signature of '%s'", path);
		r = 1;
		goto out;
	}
	util_fmt(done, donelen, "signature '%s'", sig);
	if (!mk)
		goto out;
	random_bytes(uuid, sizeof(uuid));
	if (swap_header_build(page, psize, size, uuid) < 0) {
		step_error(res, "'%s' is too small for swap (%llu bytes)", path,
			   (unsigned long long)size);
		r = 1;
		goto out;
	}
	if (pwrite(fd, page, psize, 0) != (ssize_t)psize || fsync(fd) < 0) {
		step_errno_mismatch(res, 0, errno ? errno : EIO, "write");
		snprintf(res->reason, sizeof(res->reason),
			 "writing the swap header to '%s'", path);
		r = 1;
		goto out;
	}
	util_fmt(done, donelen, "signature '%s'; mkswap: %llu pages", sig,
		 (unsigned long long)(size / psize));
out:
	if (fd >= 0)
		close(fd);
	free(page);
	return r;
}

static int swap_run(struct step_ctx *ctx, struct json_object *step,
		    struct step_result *res)
{
	const char *dev = step_str(step, "device");
	const char *expect = step_str(step, "expect_errno");
	const char *dev_dir = ctx->env->dev_dir ? ctx->env->dev_dir : "/dev";
	bool on = step_bool(step, "swapon", true);
	char path[512], done[256] = "";
	int want = 0, err = 0, r;

	if (!swap_dev_name_ok(dev)) {
		step_error(
			res,
			"device '%s' is not a block device name ([a-z0-9]{1,31})",
			dev);
		return 0;
	}
	if (expect && proto_errno_parse(expect, &want) < 0) {
		step_error(res, "unknown errno name '%s'", expect);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s", dev_dir, dev);
	r = swap_header(path, step, res, done, sizeof(done));
	if (r != 0)
		return r < 0 ? r : 0;
	if (on && !ctx->env->no_swapon && swapon(path, 0) < 0)
		err = errno;
	if (want ? err == want : err == 0) {
		res->verdict = VERDICT_PASS;
		step_got(res, "%s%s", done, on ? "; swapon" : "");
		return 0;
	}
	if (!step_errno_mismatch(res, want, err, "swapon"))
		step_got(res, "success (%s)", done);
	snprintf(res->reason, sizeof(res->reason), "swapon '%s'", path);
	return 0;
}

const struct step_ops step_swap = {
	.name = "swap",
	.run = swap_run,
};
