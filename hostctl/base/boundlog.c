// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bounded log (boundlog.h): a head on disk, a ring of whole lines in
 * memory for the tail, and a file that only ever ends in a whole line.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/boundlog.h"
#include "fileio.h"

/* A line up to this long is written from the stack. */
#define BOUNDLOG_LINE_BUF 8192

int boundlog_open(struct boundlog *b, const char *path, uint64_t max,
		  enum boundlog_mark mark)
{
	memset(b, 0, sizeof(*b));
	b->fd = -1;
	b->good_at = &b->good;
	if (max < 4096 || max > SIZE_MAX / 2)
		return -EINVAL;
	if (snprintf(b->path, sizeof(b->path), "%s", path) >=
	    (int)sizeof(b->path))
		return -ENAMETOOLONG;
	b->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC,
		     0644);
	if (b->fd < 0)
		return -errno;
	b->mark = mark;
	b->tail_max = max / BOUNDLOG_TAIL_SHARE;
	b->head_max = max - b->tail_max;
	return 0;
}

int boundlog_open_more(struct boundlog *b, struct boundlog *first)
{
	memset(b, 0, sizeof(*b));
	b->fd = open(first->path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (b->fd < 0)
		return -errno;
	snprintf(b->path, sizeof(b->path), "%s", first->path);
	b->mark = first->mark;
	b->tail_max = first->tail_max;
	b->head_max = first->head_max;
	/* The file's last whole line, by any of its logs: the first's. */
	if (first->good_at == &first->good) {
		first->shared_good = first->good;
		first->good_at = &first->shared_good;
	}
	b->good_at = first->good_at;
	return 0;
}

int boundlog_open_stream(struct boundlog *b, const char *path, uint64_t max)
{
	int r;

	if (max < BOUNDLOG_STREAM_MIN)
		return -EINVAL;
	r = boundlog_open(b, path, max, BOUNDLOG_MARK_TEXT);
	if (r < 0)
		return r;
	/* A head of a half, a ring of a quarter, a tail on disk of a half. */
	b->stream = true;
	b->head_max = max / 2;
	return 0;
}

int boundlog_error(const struct boundlog *b)
{
	return b->err;
}

/*
 * Write @len bytes (@len > 0). On an error, keep it and cut the file back
 * to its last whole line: a failed write may have written part of one,
 * and the piece before it may have been one's start too.
 */
static int put(struct boundlog *b, const char *buf, size_t len)
{
	int r;

	if (b->err)
		return b->err;
	r = fileio_write_all(b->fd, buf, len);
	if (r < 0) {
		b->err = r;
		/* Best effort: the error to report stays the write's. */
		(void)!ftruncate(b->fd, *b->good_at);
		return r;
	}
	b->size += (off_t)len;
	/* Where the file ends: another log may append to it too. */
	if (buf[len - 1] == '\n')
		*b->good_at = b->good_at == &b->good ?
				      b->size :
				      lseek(b->fd, 0, SEEK_CUR);
	return 0;
}

/* Drop the oldest line of the ring. */
static void ring_drop(struct boundlog *b)
{
	size_t n = 0;

	while (n < b->ring_len) {
		char c = b->ring[(b->ring_start + n) % b->tail_max];

		n++;
		if (c == '\n')
			break;
	}
	b->ring_start = (b->ring_start + n) % b->tail_max;
	b->ring_len -= n;
	b->cut += n;
}

static void ring_put(struct boundlog *b, const char *p, size_t len)
{
	size_t end = (b->ring_start + b->ring_len) % b->tail_max;
	size_t first = len < b->tail_max - end ? len : b->tail_max - end;

	memcpy(b->ring + end, p, first);
	memcpy(b->ring, p + first, len - first);
	b->ring_len += len;
}

/* The cut mark, if anything was cut, and the tail in memory. */
static int put_tail(struct boundlog *b)
{
	size_t first = b->tail_max - b->ring_start;
	char mark[96 + BOUNDLOG_VM_MAX];
	int n, r = 0;

	if (b->cut) {
		if (b->mark == BOUNDLOG_MARK_JSON && b->vm[0])
			n = snprintf(
				mark, sizeof(mark),
				"{\"vm\":\"%s\",\"host\":\"cut\",\"bytes\":%" PRIu64
				"}\n",
				b->vm, b->cut);
		else if (b->mark == BOUNDLOG_MARK_JSON)
			n = snprintf(mark, sizeof(mark),
				     "{\"host\":\"cut\",\"bytes\":%" PRIu64
				     "}\n",
				     b->cut);
		else
			n = snprintf(mark, sizeof(mark),
				     "[vlalab: %" PRIu64 " bytes cut]\n",
				     b->cut);
		r = put(b, mark, (size_t)n);
	}
	if (r == 0 && b->ring_len) {
		if (first > b->ring_len)
			first = b->ring_len;
		r = put(b, b->ring + b->ring_start, first);
		if (r == 0 && b->ring_len > first)
			r = put(b, b->ring, b->ring_len - first);
	}
	return r;
}

/* A stream log's file back to its head, the mark and the tail in memory. */
static int rewrite(struct boundlog *b)
{
	int r;

	if (b->err)
		return b->err;
	if (ftruncate(b->fd, b->head_end) < 0) {
		b->err = -errno;
		return b->err;
	}
	b->size = b->good = b->head_end;
	r = put_tail(b);
	b->disk_tail = (uint64_t)(b->size - b->head_end);
	b->disk_cut = b->cut;
	return r;
}

/* A line of a stream log whose head is full: into the ring and the file. */
static int stream_tail_line(struct boundlog *b, const char *line, size_t len)
{
	int r;

	if (b->disk_tail + len + 1 > b->head_max)
		return rewrite(b);
	r = put(b, line, len);
	if (r == 0)
		r = put(b, "\n", 1);
	b->disk_tail += len + 1;
	return r;
}

int boundlog_line(struct boundlog *b, const char *line, size_t len)
{
	char small[BOUNDLOG_LINE_BUF], *buf = small;
	int r;

	if (b->err)
		return b->err;
	if (b->head + len + 1 <= b->head_max) {
		/* One write per line, with its '\n'. */
		if (len + 1 > sizeof(small)) {
			buf = malloc(len + 1);
			if (!buf)
				return -ENOMEM;
		}
		memcpy(buf, line, len);
		buf[len] = '\n';
		r = put(b, buf, len + 1);
		if (buf != small)
			free(buf);
		if (r == 0)
			b->head += len + 1;
		return r;
	}
	/* The head is full: no later line of this part goes there. */
	b->head = b->head_max;
	if (b->stream && !b->tailing) {
		b->tailing = true;
		b->head_end = b->size;
		b->disk_tail = 0;
	}
	if (len + 1 > b->tail_max) {
		b->cut += len + 1;
		return 0;
	}
	if (!b->ring) {
		b->ring = malloc(b->tail_max);
		if (!b->ring)
			return -ENOMEM;
	}
	while (b->ring_len + len + 1 > b->tail_max)
		ring_drop(b);
	ring_put(b, line, len);
	ring_put(b, "\n", 1);
	return b->stream ? stream_tail_line(b, line, len) : 0;
}

int boundlog_vm_tag(char *buf, size_t len, const char *vm)
{
	int n = snprintf(buf, len, "{\"vm\":\"%s\",", vm);

	if (n < 0 || (size_t)n >= len || strlen(vm) >= BOUNDLOG_VM_MAX)
		return -ENAMETOOLONG;
	return n;
}

int boundlog_vm_line(struct boundlog *b, const char *vm, const char *line,
		     size_t len)
{
	char small[BOUNDLOG_LINE_BUF], *buf = small;
	const char *brace = memchr(line, '{', len);
	size_t rest;
	int n, r;

	if (!brace)
		return -EINVAL;
	rest = len - (size_t)(brace - line) - 1;
	if (rest + 16 + BOUNDLOG_VM_MAX > sizeof(small)) {
		buf = malloc(rest + 16 + BOUNDLOG_VM_MAX);
		if (!buf)
			return -ENOMEM;
	}
	n = boundlog_vm_tag(buf, 16 + BOUNDLOG_VM_MAX, vm);
	if (n < 0) {
		r = n;
		goto out;
	}
	memcpy(buf + n, brace + 1, rest);
	snprintf(b->vm, sizeof(b->vm), "%s", vm);
	r = boundlog_line(b, buf, (size_t)n + rest);
out:
	if (buf != small)
		free(buf);
	return r;
}

int boundlog_bytes(struct boundlog *b, const char *buf, size_t len)
{
	int r;

	if (b->err)
		return b->err;
	while (len) {
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) : len;
		size_t room = sizeof(b->pend) - b->pend_len;

		if (n > room) {
			/* A line too long for a line: split it. */
			memcpy(b->pend + b->pend_len, buf, room);
			buf += room;
			len -= room;
			b->pend_len = 0;
			r = boundlog_line(b, b->pend, sizeof(b->pend));
			if (r < 0)
				return r;
			continue;
		}
		memcpy(b->pend + b->pend_len, buf, n);
		b->pend_len += n;
		if (!nl)
			break;
		buf += n + 1;
		len -= n + 1;
		r = boundlog_line(b, b->pend, b->pend_len);
		b->pend_len = 0;
		if (r < 0)
			return r;
	}
	return 0;
}

int boundlog_flush(struct boundlog *b)
{
	size_t n = b->pend_len;

	if (b->err || !n)
		return b->err;
	b->pend_len = 0;
	return boundlog_line(b, b->pend, n);
}

uint64_t boundlog_cut(const struct boundlog *b)
{
	return b->cut;
}

int boundlog_part_end(struct boundlog *b, uint64_t *ret_cut)
{
	int r = 0;

	if (ret_cut)
		*ret_cut = b->cut;
	if (!b->stream)
		r = put_tail(b);
	else if (b->tailing && b->cut != b->disk_cut)
		r = rewrite(b);
	free(b->ring);
	b->ring = NULL;
	b->ring_start = b->ring_len = 0;
	b->head = b->cut = 0;
	b->tailing = false;
	b->disk_tail = b->disk_cut = 0;
	return r < 0 ? r : b->err;
}

int boundlog_close(struct boundlog *b)
{
	int r;

	if (b->fd < 0)
		return b->err;
	/* An error of either is kept, and part_end() returns it. */
	(void)boundlog_flush(b);
	r = boundlog_part_end(b, NULL);
	if (close(b->fd) < 0 && r == 0)
		r = -errno;
	b->fd = -1;
	return r;
}
