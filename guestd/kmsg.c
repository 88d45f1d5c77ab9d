// SPDX-License-Identifier: GPL-2.0-only
/*
 * /dev/kmsg: parsing its records, reading it without blocking, and keeping
 * a bounded log of the recent records a scenario has seen, so kmsg_expect
 * can look back to when the scenario or the previous step began.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guestd.h"

/* A record with its dictionary fits: the kernel's limit is 8 KiB. */
#define KMSG_BUF_SIZE (16 * 1024)

static int parse_u64(const char **p, const char *end, uint64_t *ret)
{
	uint64_t v = 0;
	const char *s = *p;

	if (s == end || *s < '0' || *s > '9')
		return -EINVAL;
	while (s < end && *s >= '0' && *s <= '9') {
		if (v > (UINT64_MAX - 9) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*s - '0');
		s++;
	}
	*p = s;
	*ret = v;
	return 0;
}

int kmsg_parse(const char *line, size_t len, struct kmsg_record *ret)
{
	const char *p = line, *end = line + len, *semi;
	uint64_t pri, seq, ts;

	semi = memchr(line, ';', len);
	if (!semi)
		return -EINVAL;
	if (parse_u64(&p, semi, &pri) < 0 || p == semi || *p++ != ',')
		return -EINVAL;
	if (parse_u64(&p, semi, &seq) < 0 || p == semi || *p++ != ',')
		return -EINVAL;
	if (parse_u64(&p, semi, &ts) < 0 || p == semi || *p != ',')
		return -EINVAL;
	ret->prio = (uint32_t)(pri & 7);
	ret->seq = seq;
	ret->ts_us = ts;
	ret->msg = semi + 1;
	ret->msg_len = (size_t)(end - (semi + 1));
	return 0;
}

int kmsg_reader_open(struct kmsg_reader *rd, const char *path, bool from_end)
{
	struct stat st;

	memset(rd, 0, sizeof(*rd));
	rd->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (rd->fd < 0)
		return -errno;
	rd->is_chr = fstat(rd->fd, &st) == 0 && S_ISCHR(st.st_mode);
	rd->buf = malloc(KMSG_BUF_SIZE);
	if (!rd->buf) {
		close(rd->fd);
		rd->fd = -1;
		return -ENOMEM;
	}
	if (from_end)
		lseek(rd->fd, 0, SEEK_END);
	return 0;
}

void kmsg_reader_close(struct kmsg_reader *rd)
{
	if (rd->fd >= 0)
		close(rd->fd);
	rd->fd = -1;
	free(rd->buf);
	rd->buf = NULL;
}

int kmsg_reader_next(struct kmsg_reader *rd, struct kmsg_record *ret)
{
	for (;;) {
		char *line = rd->buf + rd->off;
		char *nl = memchr(line, '\n', rd->len - rd->off);
		ssize_t n;

		if (nl) {
			size_t l = (size_t)(nl - line);

			rd->off += l + 1;
			/* Dictionary lines start with a space. */
			if (l == 0 || line[0] == ' ')
				continue;
			if (kmsg_parse(line, l, ret) == 0)
				return 1;
			continue;
		}
		memmove(rd->buf, rd->buf + rd->off, rd->len - rd->off);
		rd->len -= rd->off;
		rd->off = 0;
		/* A line longer than the buffer (only in a file): drop it. */
		if (rd->len == KMSG_BUF_SIZE)
			rd->len = 0;
		n = read(rd->fd, rd->buf + rd->len, KMSG_BUF_SIZE - rd->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EPIPE) {
			/* The kernel overwrote records we had not read. */
			rd->lost++;
			continue;
		}
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		rd->len += (size_t)n;
	}
}

int kmsg_clock_find(struct kmsg_reader *rd, unsigned int id,
		    uint64_t *ret_ts_us)
{
	struct kmsg_record rec;
	char want[64];
	size_t len;
	int r;

	len = (size_t)snprintf(want, sizeof(want), KMSG_CLOCK_MARK " %u", id);
	while ((r = kmsg_reader_next(rd, &rec)) > 0) {
		if (rec.msg_len == len && memcmp(rec.msg, want, len) == 0) {
			*ret_ts_us = rec.ts_us;
			return 0;
		}
	}
	return r < 0 ? r : -ENOENT;
}

int kmsg_clock_measure(const char *path, struct kmsg_clock *ret)
{
	static unsigned int next_id;
	struct kmsg_reader rd;
	unsigned int id = ++next_id;
	char line[64];
	ssize_t n;
	size_t len;
	int fd, r;

	memset(ret, 0, sizeof(*ret));
	r = kmsg_reader_open(&rd, path, true);
	if (r < 0)
		return r;
	if (!rd.is_chr) {
		kmsg_reader_close(&rd);
		return -ENOTTY;
	}
	/* Its own file: /dev/kmsg rate-limits writes per open file. */
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		kmsg_reader_close(&rd);
		return r;
	}
	len = (size_t)snprintf(line, sizeof(line),
			       "<7>" KMSG_CLOCK_MARK " %u\n", id);
	/* The kernel stamps and stores the record before write() returns. */
	ret->t0_us = guestd_now_us();
	n = write(fd, line, len);
	ret->t1_us = guestd_now_us();
	r = n < 0 ? -errno : 0;
	close(fd);
	if (r == 0 && (size_t)n != len)
		r = -EIO;
	if (r == 0)
		r = kmsg_clock_find(&rd, id, &ret->ts_us);
	kmsg_reader_close(&rd);
	if (r < 0)
		memset(ret, 0, sizeof(*ret));
	return r;
}

int kmsg_log_open(struct kmsg_log *log, const char *path)
{
	int r;

	memset(log, 0, sizeof(*log));
	log->rd.fd = -1;
	log->ring = calloc(KMSG_LOG_RECORDS, sizeof(*log->ring));
	if (!log->ring)
		return -ENOMEM;
	r = kmsg_reader_open(&log->rd, path, true);
	if (r < 0) {
		free(log->ring);
		log->ring = NULL;
	}
	return r;
}

void kmsg_log_close(struct kmsg_log *log)
{
	kmsg_reader_close(&log->rd);
	for (size_t i = 0; log->ring && i < log->count; i++)
		free(log->ring[(log->head + i) % KMSG_LOG_RECORDS].msg);
	free(log->ring);
	log->ring = NULL;
	log->count = 0;
}

int kmsg_log_add(struct kmsg_log *log, const struct kmsg_record *rec)
{
	struct kmsg_entry *e;
	char *msg;

	msg = strndup(rec->msg, rec->msg_len);
	if (!msg)
		return -ENOMEM;
	if (log->count == KMSG_LOG_RECORDS) {
		free(log->ring[log->head].msg);
		log->head = (log->head + 1) % KMSG_LOG_RECORDS;
		log->count--;
		log->dropped++;
	}
	e = &log->ring[(log->head + log->count) % KMSG_LOG_RECORDS];
	e->seq = rec->seq;
	e->prio = rec->prio;
	e->msg = msg;
	log->count++;
	log->seen = true;
	log->last_seq = rec->seq;
	return 0;
}

int kmsg_log_drain(struct kmsg_log *log)
{
	struct kmsg_record rec;
	int r;

	while ((r = kmsg_reader_next(&log->rd, &rec)) > 0) {
		r = kmsg_log_add(log, &rec);
		if (r < 0)
			return r;
	}
	return r;
}

uint64_t kmsg_log_mark(const struct kmsg_log *log)
{
	return log->seen ? log->last_seq + 1 : 0;
}

const struct kmsg_entry *kmsg_log_find(const struct kmsg_log *log,
				       uint64_t since, const regex_t *re,
				       size_t *ret_scanned)
{
	size_t scanned = 0;

	for (size_t i = 0; i < log->count; i++) {
		const struct kmsg_entry *e =
			&log->ring[(log->head + i) % KMSG_LOG_RECORDS];

		if (e->seq < since)
			continue;
		scanned++;
		if (regexec(re, e->msg, 0, NULL, 0) == 0) {
			*ret_scanned = scanned;
			return e;
		}
	}
	*ret_scanned = scanned;
	return NULL;
}

const struct kmsg_entry *kmsg_log_last(const struct kmsg_log *log,
				       uint64_t since)
{
	const struct kmsg_entry *e;

	if (log->count == 0)
		return NULL;
	e = &log->ring[(log->head + log->count - 1) % KMSG_LOG_RECORDS];
	return e->seq >= since ? e : NULL;
}

const struct kmsg_entry *kmsg_log_next(const struct kmsg_log *log,
				       uint64_t *since)
{
	for (size_t i = 0; i < log->count; i++) {
		const struct kmsg_entry *e =
			&log->ring[(log->head + i) % KMSG_LOG_RECORDS];

		if (e->seq < *since)
			continue;
		*since = e->seq + 1;
		return e;
	}
	return NULL;
}
