// SPDX-License-Identifier: GPL-2.0-only
/*
 * The silence rule and the vCPU threads' run_delay it discounts
 * (silence.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vm/silence.h"

bool silence_is_vcpu(const char *comm)
{
	unsigned int n;
	char acc[4];
	int end = 0;

	return sscanf(comm, "CPU %u/%3[A-Z]%n", &n, acc, &end) == 2 &&
	       (comm[end] == '\0' || comm[end] == '\n') &&
	       (strcmp(acc, "TCG") == 0 || strcmp(acc, "KVM") == 0);
}

/* The first line of @dir/@tid/@file, at most @len - 1 bytes; 0 or -errno. */
static int read_small(int dir, const char *tid, const char *file, char *buf,
		      size_t len)
{
	char path[NAME_MAX + 32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", tid, file);
	fd = openat(dir, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	buf[n] = '\0';
	return 0;
}

int silence_sample_read(const char *task_dir, struct silence_sample *ret)
{
	struct silence_sample s = { 0 };
	struct dirent *e;
	DIR *d;

	*ret = s;
	d = opendir(task_dir);
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		char comm[32], stat[128];
		uint64_t run, delay;

		if (e->d_name[0] == '.' ||
		    read_small(dirfd(d), e->d_name, "comm", comm,
			       sizeof(comm)) < 0 ||
		    !silence_is_vcpu(comm) ||
		    read_small(dirfd(d), e->d_name, "schedstat", stat,
			       sizeof(stat)) < 0 ||
		    sscanf(stat, "%" SCNu64 " %" SCNu64, &run, &delay) != 2)
			continue;
		s.delay_ns += delay;
		s.nvcpus++;
	}
	closedir(d);
	*ret = s;
	return 0;
}

uint64_t silence_starved_us(const struct silence_sample *from,
			    const struct silence_sample *to)
{
	if (!from->nvcpus || from->nvcpus != to->nvcpus ||
	    to->delay_ns < from->delay_ns)
		return 0;
	return (to->delay_ns - from->delay_ns) / to->nvcpus / 1000;
}

bool silence_over(uint64_t silence_us, uint64_t starved_us, uint64_t limit_us)
{
	/*
	 * A hung guest whose vCPU spins waits for a host CPU too: on a
	 * loaded host, uncapped, the bound would stretch with the load.
	 */
	if (starved_us > limit_us)
		starved_us = limit_us;
	return silence_us > limit_us && silence_us - limit_us > starved_us;
}
