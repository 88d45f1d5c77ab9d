// SPDX-License-Identifier: GPL-2.0-only
/*
 * guestd's /dev/kmsg reading on any bytes, as a file of records: each
 * record must have a syslog level and a message inside the reader's
 * buffer; it goes into the scenario's log of recent records and through
 * the WARNING/BUG counter, and the kmsg event guestd makes of it (as
 * kmsg_forward() in main.c does) must be one the host's decoder takes, and
 * the same once decoded.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "guestd.h"

static void check_event(const struct kmsg_record *rec)
{
	static struct proto_event ev, back;
	char err[256], *line;
	size_t len;

	memset(&ev, 0, sizeof(ev));
	ev.type = PROTO_EV_KMSG;
	snprintf(ev.u.kmsg.scenario, PROTO_NAME_MAX, "%s", "area/name");
	ev.u.kmsg.step = -1;
	ev.u.kmsg.seq = rec->seq;
	ev.u.kmsg.ts_us = rec->ts_us;
	ev.u.kmsg.prio = rec->prio;
	util_escape(ev.u.kmsg.msg, PROTO_TEXT_MAX, rec->msg, rec->msg_len, 0);
	assert(proto_event_encode(&ev, &line, &len) == 0);
	assert(proto_event_decode(line, len - 1, &back, err, sizeof(err)) == 0);
	assert(memcmp(&ev, &back, sizeof(ev)) == 0);
	free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmsg_log log = { .rd.fd = -1 };
	struct kmsg_record rec;
	uint64_t since = 0;
	char path[64];
	int fd, r;

	fd = memfd_create("kmsg", 0);
	assert(fd >= 0);
	assert(write(fd, data, size) == (ssize_t)size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	assert(kmsg_reader_open(&log.rd, path, false) == 0);
	close(fd);
	log.ring = calloc(KMSG_LOG_RECORDS, sizeof(*log.ring));
	assert(log.ring);

	while ((r = kmsg_reader_next(&log.rd, &rec)) > 0) {
		assert(rec.prio <= 7);
		assert(rec.msg >= log.rd.buf &&
		       rec.msg + rec.msg_len <= log.rd.buf + log.rd.len);
		audit_classify(rec.msg, rec.msg_len);
		check_event(&rec);
		assert(kmsg_log_add(&log, &rec) == 0);
	}
	assert(r == 0);
	assert(log.count <= KMSG_LOG_RECORDS);
	for (size_t n = 0; kmsg_log_next(&log, &since); n++)
		assert(n < log.count);
	kmsg_log_close(&log);
	return 0;
}
