// SPDX-License-Identifier: GPL-2.0-only
/*
 * The console crash classifier on any console log: every report must lie
 * inside the log, in order, with a known kind and terminated strings, and
 * the console tail given for a reason must hold no control byte but tab
 * and newline.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "crash/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *log = (const char *)data;
	struct report *reps;
	ssize_t n;
	char *tail;

	n = report_parse(log, size, &reps);
	assert(n >= 0);
	assert(n == 0 || reps);
	for (ssize_t i = 0; i < n; i++) {
		const struct report *r = &reps[i];

		assert(r->kind <= REPORT_UNKNOWN);
		assert(strcmp(report_kind_name(r->kind), "") != 0);
		assert(memchr(r->title, '\0', sizeof(r->title)) && r->title[0]);
		assert(memchr(r->guilty, '\0', sizeof(r->guilty)));
		assert(r->start <= r->end && r->end <= size);
		assert(i == 0 || reps[i - 1].start <= r->start);
		assert(r->ts == -1 || r->ts >= 0);
	}
	free(reps);

	tail = report_console_tail(log, size, 1 + (size ? data[0] % 64 : 0));
	assert(tail);
	for (const char *p = tail; *p; p++)
		assert((unsigned char)*p >= 0x20 || *p == '\t' || *p == '\n');
	free(tail);
	return 0;
}
