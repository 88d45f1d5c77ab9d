// SPDX-License-Identifier: GPL-2.0-only
/*
 * boundlog: a part within its bound is kept whole; a longer one keeps its
 * head, a mark with the bytes cut and its last lines; parts are bounded
 * each; a write that fails (a file size limit, as a full disk) is kept and
 * leaves the file ending in a whole line.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "base/boundlog.h"
#include "fileio.h"
#include "tap.h"

static char dir[256], path[512];

/* Line @i: 99 bytes, "line NNNN xxx...". */
static void line_of(char *buf, unsigned int i)
{
	memset(buf, 'x', 99);
	memcpy(buf, "line ", 5);
	buf[5] = (char)('0' + i / 1000 % 10);
	buf[6] = (char)('0' + i / 100 % 10);
	buf[7] = (char)('0' + i / 10 % 10);
	buf[8] = (char)('0' + i % 10);
}

/* Lines @from..@to-1 as they are in the file, each with its '\n'. */
static void expect_lines(char *out, unsigned int from, unsigned int to)
{
	for (unsigned int i = from; i < to; i++, out += 100) {
		line_of(out, i);
		out[99] = '\n';
	}
	*out = '\0';
}

static char *slurp(void)
{
	char *buf = NULL;

	if (fileio_read(path, FILEIO_ALL, &buf, NULL, NULL) < 0)
		exit(99);
	return buf;
}

static void test_within(void)
{
	struct boundlog b;
	char line[99], want[2048];
	uint64_t cut = 1;
	char *got;

	is_int(boundlog_open(&b, path, 4096, BOUNDLOG_MARK_JSON), 0, "open");
	for (unsigned int i = 0; i < 10; i++) {
		line_of(line, i);
		boundlog_line(&b, line, sizeof(line));
	}
	is_int(boundlog_part_end(&b, &cut), 0, "a part within its bound");
	is_int(cut, 0, "cuts nothing");
	is_int(boundlog_close(&b), 0, "close");
	got = slurp();
	expect_lines(want, 0, 10);
	is_str(got, want, "every line, in order");
	free(got);
}

static void test_cut(void)
{
	char line[99], *want, *got, *p;
	struct boundlog b;
	uint64_t cut = 0;

	want = malloc(64 * 1024);
	if (!want)
		exit(99);
	/* 4096: a head of 3072 bytes (30 lines), a tail of 1024 (10). */
	is_int(boundlog_open(&b, path, 4096, BOUNDLOG_MARK_JSON), 0, "open");
	for (unsigned int i = 0; i < 100; i++) {
		line_of(line, i);
		boundlog_line(&b, line, sizeof(line));
	}
	is_int(boundlog_part_end(&b, &cut), 0, "a part past its bound");
	is_int(cut, 6000, "60 lines of 100 bytes cut");
	for (unsigned int i = 100; i < 105; i++) {
		line_of(line, i);
		boundlog_line(&b, line, sizeof(line));
	}
	is_int(boundlog_close(&b), 0, "the next part, closed");
	got = slurp();
	expect_lines(want, 0, 30);
	p = want + strlen(want);
	p += sprintf(p, "{\"host\":\"cut\",\"bytes\":6000}\n");
	expect_lines(p, 90, 100);
	expect_lines(p + strlen(p), 100, 105);
	is_str(got, want, "head, mark, tail; the next part whole");
	free(got);

	is_int(boundlog_open(&b, path, 4096, BOUNDLOG_MARK_TEXT), 0, "open");
	for (unsigned int i = 0; i < 41; i++) {
		line_of(line, i);
		boundlog_line(&b, line, sizeof(line));
	}
	is_int(boundlog_close(&b), 0, "closing ends the part");
	got = slurp();
	ok(strstr(got, "[vlalab: 100 bytes cut]\nline 0031") != NULL,
	   "the text mark, before the tail");
	free(got);
	free(want);
}

/*
 * A stream log of 65536 bytes: a head of 327 lines (32700 bytes), a ring
 * of 163 (16300), fed bytes in pieces that split lines. The file is
 * within its bound and current (its last line the last one ended) at
 * every step, and ends as head, mark, tail.
 */
static void test_stream(void)
{
	char line[100], piece[100 * 2000], *want, *got, *p;
	size_t len, max_len = 0, off;
	bool current = true;
	struct boundlog b;
	uint64_t cut;

	want = malloc(64 * 1024);
	if (!want)
		exit(99);
	is_int(boundlog_open_stream(&b, path, 4096), -EINVAL,
	       "a stream's bound holds a few long lines");
	is_int(boundlog_open_stream(&b, path, 65536), 0, "open a stream");
	for (unsigned int i = 0; i < 2000; i++) {
		line_of(piece + i * 100, i);
		piece[i * 100 + 99] = '\n';
	}
	for (off = 0; off < sizeof(piece); off += 37) {
		size_t n = sizeof(piece) - off < 37 ? sizeof(piece) - off : 37;
		size_t ended = (off + n) / 100;

		if (boundlog_bytes(&b, piece + off, n) < 0)
			current = false;
		if (fileio_read(path, FILEIO_ALL, &got, &len, NULL) < 0)
			exit(99);
		if (len > max_len)
			max_len = len;
		line_of(line, (unsigned int)ended - 1);
		line[99] = '\n';
		if (ended && (len < 100 || memcmp(got + len - 100, line, 100)))
			current = false;
		free(got);
	}
	okf(max_len <= 65536 + 40, "the file stays within its bound (%zu)",
	    max_len);
	ok(current, "and ends in the last line ended, at every step");
	cut = boundlog_cut(&b);
	is_int(boundlog_bytes(&b, "no newline", 10), 0, "a line not ended");
	is_int(boundlog_close(&b), 0, "close");
	got = slurp();
	expect_lines(want, 0, 327);
	p = want + strlen(want);
	p += sprintf(p, "[vlalab: 151000 bytes cut]\n");
	expect_lines(p, 1837, 2000);
	strcat(p, "no newline\n");
	is_str(got, want, "head, mark, tail, the unended line");
	okf(cut >= 151000 - 16400 && cut <= 151000, "the cut so far (%llu)",
	    (unsigned long long)cut);
	free(got);

	/* A line longer than BOUNDLOG_STREAM_LINE comes as pieces. */
	is_int(boundlog_open_stream(&b, path, 65536), 0, "open again");
	memset(piece, 'y', BOUNDLOG_STREAM_LINE + 10);
	piece[BOUNDLOG_STREAM_LINE + 10] = '\n';
	is_int(boundlog_bytes(&b, piece, BOUNDLOG_STREAM_LINE + 11), 0,
	       "a long line");
	is_int(boundlog_close(&b), 0, "close");
	if (fileio_read(path, FILEIO_ALL, &got, &len, NULL) < 0)
		exit(99);
	ok(len == BOUNDLOG_STREAM_LINE + 12 &&
		   got[BOUNDLOG_STREAM_LINE] == '\n',
	   "split at BOUNDLOG_STREAM_LINE bytes");
	free(got);
	free(want);
}

static void test_full(void)
{
	struct rlimit saved, small;
	struct boundlog b;
	char line[99], *got;
	size_t len;
	int r = 0;
	unsigned int i;

	is_int(boundlog_open(&b, path, 1 << 20, BOUNDLOG_MARK_JSON), 0, "open");
	/* Past 2050 bytes write(2) fails as on a full disk, mid-line. */
	signal(SIGXFSZ, SIG_IGN);
	if (getrlimit(RLIMIT_FSIZE, &saved) < 0)
		exit(99);
	small = saved;
	small.rlim_cur = 2050;
	if (setrlimit(RLIMIT_FSIZE, &small) < 0)
		exit(99);
	for (i = 0; i < 100 && r == 0; i++) {
		line_of(line, i);
		r = boundlog_line(&b, line, sizeof(line));
	}
	if (setrlimit(RLIMIT_FSIZE, &saved) < 0)
		exit(99);
	is_int(r, -EFBIG, "the write that fails says so");
	is_int(i, 21, "at the 21st line");
	is_int(boundlog_error(&b), -EFBIG, "the error is kept");
	line_of(line, 99);
	is_int(boundlog_line(&b, line, sizeof(line)), -EFBIG,
	       "and every later line gets it");
	is_int(boundlog_close(&b), -EFBIG, "and close");
	if (fileio_read(path, FILEIO_ALL, &got, &len, NULL) < 0)
		exit(99);
	is_int(len, 2000, "the 20 whole lines stay");
	ok(len && got[len - 1] == '\n', "the file ends in a whole line");
	free(got);
}

/*
 * Two logs of one file (hostctl run -j's lanes): their lines interleave
 * in the order written, each log cuts its own part, and a write that
 * fails cuts the file back to the last whole line of either log.
 */
static void test_more(void)
{
	struct rlimit saved, small;
	struct boundlog a, b;
	char line[99], *got;
	uint64_t cut = 1;
	size_t len;
	int r = 0;

	is_int(boundlog_open(&a, path, 4096, BOUNDLOG_MARK_JSON), 0, "open");
	is_int(boundlog_open_more(&b, &a), 0, "a second log of the file");
	line_of(line, 0);
	boundlog_line(&a, line, sizeof(line));
	line_of(line, 1);
	boundlog_line(&b, line, sizeof(line));
	line_of(line, 2);
	boundlog_line(&a, line, sizeof(line));
	for (unsigned int i = 0; i < 59; i++) {
		line_of(line, 10 + i);
		boundlog_line(&b, line, sizeof(line));
	}
	is_int(boundlog_part_end(&a, &cut), 0, "the first's part ends");
	is_int(cut, 0, "the first cut nothing: the second's lines are its own");
	is_int(boundlog_part_end(&b, &cut), 0, "the second's part ends");
	/* 60 lines: a head of 30, a tail of 10, 20 cut. */
	is_int(cut, 2000, "the second cut its own: 20 lines");
	got = slurp();
	ok(!strncmp(got, "line 0000", 9) && strstr(got, "\nline 0001") &&
		   strstr(got, "line 0001") < strstr(got, "line 0002"),
	   "the lines in the order written");
	free(got);

	/* Past the file's size now plus 150 bytes a write fails: the
	 * second's line fits, the first's next one does not. */
	if (fileio_read(path, FILEIO_ALL, &got, &len, NULL) < 0)
		exit(99);
	free(got);
	signal(SIGXFSZ, SIG_IGN);
	if (getrlimit(RLIMIT_FSIZE, &saved) < 0)
		exit(99);
	small = saved;
	small.rlim_cur = len + 150;
	if (setrlimit(RLIMIT_FSIZE, &small) < 0)
		exit(99);
	line_of(line, 90);
	is_int(boundlog_line(&b, line, sizeof(line)), 0, "the second's line");
	line_of(line, 91);
	r = boundlog_line(&a, line, sizeof(line));
	if (setrlimit(RLIMIT_FSIZE, &saved) < 0)
		exit(99);
	is_int(r, -EFBIG, "the first's fails");
	(void)boundlog_close(&a);
	(void)boundlog_close(&b);
	if (fileio_read(path, FILEIO_ALL, &got, &len, NULL) < 0)
		exit(99);
	ok(len > 100 && !strncmp(got + len - 100, "line 0090", 9),
	   "the file ends in the second's whole line, kept");
	free(got);
}

/*
 * Every events.jsonl line names its VM: a guest's line, white space and
 * all, gets "vm" as its first member; a line that is no object is
 * refused; the JSON mark names the VM named last.
 */
static void test_vm_line(void)
{
	static const char want[] =
		"{\"vm\":\"vm2\",\"ev\":\"hello\",\"t_us\":1}\n"
		"{\"vm\":\"vm10\", \"ev\":\"bye\"}\n";
	static const char big[] = "{\"ev\":\"x\"}";
	static const char one[] = "{\"ev\":\"hello\",\"t_us\":1}";
	static const char two[] = "  { \"ev\":\"bye\"}";
	char tag[16], *got;
	struct boundlog b;

	is_int(boundlog_vm_tag(tag, sizeof(tag), "vm3"), 12,
	       "the tag's length");
	is_str(tag, "{\"vm\":\"vm3\",", "the tag");
	is_int(boundlog_vm_tag(tag, sizeof(tag), "vm12345"), -ENAMETOOLONG,
	       "a tag too long for its buffer");
	is_int(boundlog_open(&b, path, 4096, BOUNDLOG_MARK_JSON), 0, "open");
	is_int(boundlog_vm_line(&b, "vm2", one, strlen(one)), 0, "a line");
	is_int(boundlog_vm_line(&b, "vm10", two, strlen(two)), 0,
	       "a line with white space");
	is_int(boundlog_vm_line(&b, "vm10", "[1]", 3), -EINVAL,
	       "no object: refused");
	is_int(boundlog_part_end(&b, NULL), 0, "part end");
	is_int(boundlog_close(&b), 0, "close");
	got = slurp();
	is_str(got, want, "each line names its VM first");
	free(got);

	is_int(boundlog_open(&b, path, 4096, BOUNDLOG_MARK_JSON), 0, "open");
	for (unsigned int i = 0; i < 400; i++)
		boundlog_vm_line(&b, i < 200 ? "vm1" : "vm7", big,
				 sizeof(big) - 1);
	is_int(boundlog_close(&b), 0, "close");
	got = slurp();
	ok(strstr(got, "{\"vm\":\"vm7\",\"host\":\"cut\",\"bytes\":") != NULL,
	   "the mark names the VM named last");
	free(got);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

	snprintf(dir, sizeof(dir), "%s/boundlog-test-XXXXXX", tmp);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	snprintf(path, sizeof(path), "%s/log", dir);
	test_within();
	test_cut();
	test_stream();
	test_full();
	test_vm_line();
	test_more();
	unlink(path);
	rmdir(dir);
	return tap_done();
}
