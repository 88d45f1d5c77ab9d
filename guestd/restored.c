// SPDX-License-Identifier: GPL-2.0-only
/*
 * A guest restored from an image the host saved right after its hello
 * (docs/protocol.md, "Restored guests"): the "restored" request gives it
 * the wall clock and a seed for the kernel's RNG, which would otherwise
 * be the saved guest's, the same in every guest restored from the image.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/random.h>

#include "guestd.h"
#include "proto.h"

/*
 * The seed goes in through RNDADDENTROPY, credited in full (the host's
 * getrandom() made it), then RNDRESEEDCRNG makes the kernel's CRNG take
 * it now rather than at its next scheduled reseed (Linux 4.17 and
 * later). Writing to /dev/urandom alone would mix it in uncredited.
 */
static int reseed(const unsigned char *seed, size_t len)
{
	/* struct rand_pool_info ends in a flexible array: the seed, after. */
	struct rand_pool_info *p;
	int fd, r = 0;

	if (len > PROTO_SEED_BYTES)
		return -EINVAL;
	p = malloc(sizeof(*p) + len);
	if (!p)
		return -ENOMEM;
	p->entropy_count = (int)len * 8;
	p->buf_size = (int)len;
	memcpy(p->buf, seed, len);
	fd = open("/dev/urandom", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	if (ioctl(fd, RNDADDENTROPY, p) < 0 || ioctl(fd, RNDRESEEDCRNG) < 0)
		r = -errno;
	close(fd);
out:
	free(p);
	return r;
}

int restored_apply(const struct proto_restored *r, char *why, size_t whylen)
{
	struct timespec ts = { .tv_sec = (time_t)(r->wall_ns / 1000000000),
			       .tv_nsec = (long)(r->wall_ns % 1000000000) };
	int err;

	why[0] = '\0';
	if (clock_settime(CLOCK_REALTIME, &ts) < 0) {
		err = -errno;
		snprintf(why, whylen, "setting the wall clock: %s",
			 util_errno_desc(-err));
		return err;
	}
	err = reseed(r->seed, sizeof(r->seed));
	if (err < 0) {
		snprintf(why, whylen, "reseeding the RNG: %s",
			 util_errno_desc(-err));
		return err;
	}
	return 0;
}

/*
 * hello's boot id: the one the host gave a restored guest, else the
 * kernel's, which a restored guest shares with every other restored from
 * the same image.
 */
void restored_boot_id(const char *given, char *dst, size_t size)
{
	char buf[64];
	ssize_t n;
	int fd;

	dst[0] = '\0';
	if (given[0]) {
		snprintf(dst, size, "%s", given);
		return;
	}
	fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < PROTO_BOOT_ID_MAX - 1)
		return;
	if (size >= PROTO_BOOT_ID_MAX &&
	    strspn(buf, "0123456789abcdef-") >= PROTO_BOOT_ID_MAX - 1) {
		memcpy(dst, buf, PROTO_BOOT_ID_MAX - 1);
		dst[PROTO_BOOT_ID_MAX - 1] = '\0';
	}
}
