// SPDX-License-Identifier: GPL-2.0-only
/* /dev/kmsg records: parsing, reading a growing file, the bounded log. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "guestd.h"
#include "tap.h"
#include "testutil.h"

static void test_parse(void)
{
	struct kmsg_record rec;
	const char *l;

	l = "6,339,5140900,-;NET: Registered protocol family 10";
	is_int(kmsg_parse(l, strlen(l), &rec), 0, "parse a record");
	is_int(rec.prio, 6, "prio");
	is_int((long long)rec.seq, 339, "seq");
	is_int((long long)rec.ts_us, 5140900, "timestamp");
	ok(rec.msg_len == strlen("NET: Registered protocol family 10") &&
	   memcmp(rec.msg, "NET: Registered protocol family 10",
		  rec.msg_len) == 0, "message");

	l = "14,7,12,c,caller=T1;a;b";
	is_int(kmsg_parse(l, strlen(l), &rec), 0, "a facility and extra fields");
	is_int(rec.prio, 6, "the level only, facility masked off");
	ok(rec.msg_len == 3 && memcmp(rec.msg, "a;b", 3) == 0,
	   "the message keeps its own ';'");

	l = "4,8,9,-;";
	is_int(kmsg_parse(l, strlen(l), &rec), 0, "an empty message");
	is_int((long long)rec.msg_len, 0, "of length 0");

	is_int(kmsg_parse("abc", 3, &rec), -EINVAL, "no ';' is rejected");
	is_int(kmsg_parse("6,1;x", 5, &rec), -EINVAL, "too few fields");
	is_int(kmsg_parse("6,x,1,-;m", 9, &rec), -EINVAL, "a non-numeric seq");
	is_int(kmsg_parse("", 0, &rec), -EINVAL, "an empty line");
	l = "6,99999999999999999999999,1,-;m";
	is_int(kmsg_parse(l, strlen(l), &rec), -EINVAL, "an overflowing seq");
}

static void test_reader(void)
{
	char *dir = tu_tmpdir(), path[512];
	struct kmsg_reader rd;
	struct kmsg_record rec;

	snprintf(path, sizeof(path), "%s/kmsg", dir);
	tu_write(path, "6,1,10,-;first\n SUBSYSTEM=net\n DEVICE=n2\n"
		 "garbage line\n3,2,20,-;second\n4,3,30,-;thi", O_TRUNC);
	is_int(kmsg_reader_open(&rd, path, false), 0, "open a fake kmsg");
	ok(!rd.is_chr, "a regular file is not a character device");
	is_int(kmsg_reader_next(&rd, &rec), 1, "first record");
	is_int((long long)rec.seq, 1, "seq 1");
	is_int(kmsg_reader_next(&rd, &rec), 1,
	       "dictionary and garbage lines are skipped");
	is_int((long long)rec.seq, 2, "seq 2");
	is_int(rec.prio, 3, "its prio");
	is_int(kmsg_reader_next(&rd, &rec), 0, "a partial record waits");
	tu_write(path, "rd\n", O_APPEND);
	is_int(kmsg_reader_next(&rd, &rec), 1, "and completes when it grows");
	ok(rec.msg_len == 5 && memcmp(rec.msg, "third", 5) == 0,
	   "with its whole message");
	is_int(kmsg_reader_next(&rd, &rec), 0, "then nothing");
	kmsg_reader_close(&rd);

	is_int(kmsg_reader_open(&rd, path, true), 0, "open from the end");
	is_int(kmsg_reader_next(&rd, &rec), 0, "old records are skipped");
	tu_write(path, "6,4,40,-;fourth\n", O_APPEND);
	is_int(kmsg_reader_next(&rd, &rec), 1, "a new one is read");
	is_int((long long)rec.seq, 4, "seq 4");
	kmsg_reader_close(&rd);
	is_int(kmsg_reader_open(&rd, "/nonexistent/kmsg", false), -ENOENT,
	       "a missing path is -ENOENT");
	tu_rmrf(dir);
}

static void test_log(void)
{
	char *dir = tu_tmpdir(), path[512], msg[32];
	const struct kmsg_entry *e;
	struct kmsg_record rec;
	struct kmsg_log log;
	size_t scanned;
	regex_t re;

	snprintf(path, sizeof(path), "%s/kmsg", dir);
	tu_write(path, "6,1,10,-;before the scenario\n", O_TRUNC);
	is_int(kmsg_log_open(&log, path), 0, "open a log");
	is_int(kmsg_log_drain(&log), 0, "drain it");
	is_int((long long)kmsg_log_mark(&log), 0,
	       "nothing seen: mark 0 (everything read from now on counts)");
	ok(regcomp(&re, "^line [0-9]+7$", REG_EXTENDED | REG_NEWLINE) == 0,
	   "regex");
	for (unsigned int i = 0; i < KMSG_LOG_RECORDS + 10; i++) {
		snprintf(msg, sizeof(msg), "line %u", i);
		rec = (struct kmsg_record){ .seq = 100 + i, .prio = 6,
					    .msg = msg, .msg_len = strlen(msg) };
		kmsg_log_add(&log, &rec);
	}
	is_int((long long)log.count, KMSG_LOG_RECORDS, "the log is bounded");
	is_int((long long)log.dropped, 10, "the oldest 10 were dropped");
	is_int((long long)kmsg_log_mark(&log), 100 + KMSG_LOG_RECORDS + 10,
	       "the mark is after the newest");
	e = kmsg_log_find(&log, 0, &re, &scanned);
	ok(e && strcmp(e->msg, "line 17") == 0,
	   "find the first match that is still kept");
	e = kmsg_log_find(&log, 100 + 1000, &re, &scanned);
	ok(e && strcmp(e->msg, "line 1007") == 0 && scanned == 8,
	   "find from a seq on");
	e = kmsg_log_find(&log, kmsg_log_mark(&log), &re, &scanned);
	ok(!e && scanned == 0, "nothing after the mark");
	e = kmsg_log_last(&log, 0);
	ok(e && e->seq == 100 + KMSG_LOG_RECORDS + 9, "the last entry");
	ok(!kmsg_log_last(&log, kmsg_log_mark(&log)),
	   "no last entry after the mark");
	regfree(&re);
	kmsg_log_close(&log);
	tu_rmrf(dir);
}

/* The clock marker: found among other records; never written to a file. */
static void test_clock(void)
{
	char *dir = tu_tmpdir(), path[512];
	struct kmsg_reader rd;
	struct kmsg_clock clk;
	struct stat st;
	off_t size;
	uint64_t ts = 0;

	snprintf(path, sizeof(path), "%s/kmsg", dir);
	tu_write(path,
		 "6,1,10,-;" KMSG_CLOCK_MARK " 5\n"
		 "6,2,20,-;" KMSG_CLOCK_MARK " 50\n"
		 "6,3,30,-;" KMSG_CLOCK_MARK " 4\n"
		 "7,4,40,-;" KMSG_CLOCK_MARK " 5\n",
		 O_TRUNC);
	is_int(kmsg_reader_open(&rd, path, false), 0, "open a fake kmsg");
	is_int(kmsg_clock_find(&rd, 4, &ts), 0, "marker 4 is found");
	is_int((long long)ts, 30, "with its own stamp, not 5's or 50's");
	is_int(kmsg_clock_find(&rd, 5, &ts), 0, "marker 5, read on");
	is_int((long long)ts, 40, "the one after 4, not the one before");
	is_int(kmsg_clock_find(&rd, 6, &ts), -ENOENT, "no marker 6");
	kmsg_reader_close(&rd);

	size = stat(path, &st) == 0 ? st.st_size : -1;
	is_int(kmsg_clock_measure(path, &clk), -ENOTTY,
	       "a regular file is no kernel log");
	ok(stat(path, &st) == 0 && size > 0 && st.st_size == size,
	   "and nothing was written to it");
	ok(!clk.t0_us && !clk.ts_us && !clk.t1_us, "nothing measured");
	is_int(kmsg_clock_measure("/nonexistent/kmsg", &clk), -ENOENT,
	       "a missing path is -ENOENT");
	tu_rmrf(dir);
}

int main(void)
{
	test_parse();
	test_reader();
	test_log();
	test_clock();
	return tap_done();
}
