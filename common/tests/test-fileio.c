// SPDX-License-Identifier: GPL-2.0-only
/*
 * fileio_read(): bounds, truncation, empty and large files, errors.
 * fileio_write_atomic(): the new file or the old one, never a part; its
 * temporary file never opened through what was planted at its name, and
 * made with its mode from the start.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "tap.h"

static char dir[256];

static const char *write_file(const char *name, const char *text, size_t len)
{
	static char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		exit(99);
	}
	return path;
}

static void test_small(void)
{
	const char *path = write_file("small", "hello\n", 6);
	bool truncated = true;
	char *buf = NULL;
	size_t len = 0;

	is_int(fileio_read(path, FILEIO_ALL, &buf, &len, &truncated), 0,
	       "a small file is read");
	is_str(buf, "hello\n", "with its content");
	is_int(len, 6, "and its length");
	ok(!truncated, "not truncated");
	free(buf);

	is_int(fileio_read(path, 6, &buf, NULL, &truncated), 0,
	       "a bound of exactly the size");
	ok(!truncated, "does not truncate");
	free(buf);

	is_int(fileio_read(path, 5, &buf, &len, &truncated), 0,
	       "a bound one short");
	is_str(buf, "hello", "reads up to the bound, NUL-terminated");
	ok(truncated && len == 5, "and says the file held more");
	free(buf);

	is_int(fileio_read(path, 0, &buf, &len, &truncated), 0, "a bound of 0");
	ok(buf && buf[0] == '\0' && len == 0 && truncated,
	   "gives an empty text, truncated");
	free(buf);
}

static void test_empty(void)
{
	const char *path = write_file("empty", "", 0);
	bool truncated = true;
	char *buf = NULL;
	size_t len = 1;

	is_int(fileio_read(path, 64, &buf, &len, &truncated), 0,
	       "an empty file is read");
	ok(buf && buf[0] == '\0' && len == 0 && !truncated,
	   "as an allocated empty text");
	free(buf);
}

static void test_large(void)
{
	size_t n = 300000, len = 0;
	char *text = malloc(n), *buf = NULL;
	const char *path;
	bool truncated = true;

	if (!text)
		exit(99);
	for (size_t i = 0; i < n; i++)
		text[i] = (char)('a' + i % 26);
	path = write_file("large", text, n);
	is_int(fileio_read(path, FILEIO_ALL, &buf, &len, &truncated), 0,
	       "a file of many chunks is read whole");
	ok(len == n && !memcmp(buf, text, n) && buf[n] == '\0' && !truncated,
	   "byte for byte");
	free(buf);

	is_int(fileio_read(path, 100000, &buf, &len, &truncated), 0,
	       "a bound between chunks");
	ok(len == 100000 && !memcmp(buf, text, len) && buf[len] == '\0' &&
		   truncated,
	   "stops at the bound");
	free(buf);
	free(text);
}

static void test_errors(void)
{
	char path[512], mark, *buf = &mark;

	snprintf(path, sizeof(path), "%s/missing", dir);
	is_int(fileio_read(path, FILEIO_ALL, &buf, NULL, NULL), -ENOENT,
	       "a missing file is -ENOENT");
	is_int(fileio_read(dir, FILEIO_ALL, &buf, NULL, NULL), -EISDIR,
	       "a directory is read(2)'s -EISDIR");
	ok(buf == &mark, "and nothing is returned on an error");
}

/* Files in dir whose name starts with @prefix. */
static int count_files(const char *prefix)
{
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		exit(99);
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, prefix, strlen(prefix));
	closedir(d);
	return n;
}

static void test_write_atomic(void)
{
	const char *path = write_file("atomic", "old\n", 4);
	struct rlimit saved, small;
	char big[8192], *buf;
	size_t len;

	is_int(fileio_write_atomic(path, "new text\n", 9), 0,
	       "an atomic write");
	is_int(fileio_read(path, FILEIO_ALL, &buf, &len, NULL), 0,
	       "reads back");
	ok(len == 9 && !memcmp(buf, "new text\n", 9), "the new text, whole");
	free(buf);

	/* A file size limit makes write(2) fail with EFBIG, as a full disk
	 * fails it with ENOSPC: the old file must stay whole. */
	memset(big, 'x', sizeof(big));
	signal(SIGXFSZ, SIG_IGN);
	if (getrlimit(RLIMIT_FSIZE, &saved) < 0)
		exit(99);
	small = saved;
	small.rlim_cur = 4096;
	if (setrlimit(RLIMIT_FSIZE, &small) < 0)
		exit(99);
	is_int(fileio_write_atomic(path, big, sizeof(big)), -EFBIG,
	       "a write past the limit is -EFBIG");
	if (setrlimit(RLIMIT_FSIZE, &saved) < 0)
		exit(99);
	is_int(fileio_read(path, FILEIO_ALL, &buf, &len, NULL), 0,
	       "the file is still there");
	ok(len == 9 && !memcmp(buf, "new text\n", 9),
	   "with the last complete text");
	free(buf);
	is_int(count_files("atomic.tmp."), 0, "no temporary file is left");
	is_int(fileio_write_atomic("/nonexistent-dir/x", "a", 1), -ENOENT,
	       "a missing directory is -ENOENT");
}

static bool holds(const char *path, const char *text)
{
	size_t len = 0;
	char *buf;
	bool same;

	if (fileio_read(path, FILEIO_ALL, &buf, &len, NULL) < 0)
		return false;
	same = len == strlen(text) && !memcmp(buf, text, len);
	free(buf);
	return same;
}

/*
 * Someone who can write the folder plants a symbolic link at the
 * temporary name (it is predictable: the pid): the write must not go
 * through it, to an existing file or to create a new one.
 */
static void test_planted_link(void)
{
	const char *victim = write_file("victim", "secret\n", 7);
	char path[512], tmp[600], gone[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/planted", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid());
	if (symlink(victim, tmp) < 0)
		exit(99);
	is_int(fileio_write_atomic(path, "new\n", 4), 0,
	       "a write with a link planted at its temporary name");
	ok(holds(victim, "secret\n"), "the link's target is untouched");
	ok(lstat(path, &st) == 0 && S_ISREG(st.st_mode) && holds(path, "new\n"),
	   "the file is a regular file with the new text");
	ok(lstat(tmp, &st) < 0 && errno == ENOENT, "the planted link is gone");

	/* A dangling link: O_CREAT alone would create its target. */
	snprintf(gone, sizeof(gone), "%s/created-through-link", dir);
	if (symlink(gone, tmp) < 0)
		exit(99);
	is_int(fileio_write_atomic(path, "newer\n", 6), 0,
	       "a write with a dangling link planted");
	ok(lstat(gone, &st) < 0 && errno == ENOENT,
	   "nothing is created where the link points");
	ok(holds(path, "newer\n"), "the file has the newer text");

	/* The key's mode from the start: the temporary file too. */
	snprintf(tmp, sizeof(tmp), "%s/key.tmp", dir);
	{
		int fd = fileio_create_tmp(tmp, 0600);

		ok(fd >= 0 && fstat(fd, &st) == 0 &&
			   (st.st_mode & 07777) == 0600,
		   "a temporary file is created 0600 when asked");
		if (fd >= 0)
			close(fd);
	}
	unlink(tmp);
	snprintf(tmp, sizeof(tmp), "%s/key", dir);
	is_int(fileio_write_atomic_mode(tmp, "k\n", 2, 0600), 0,
	       "an atomic write with mode 0600");
	ok(stat(tmp, &st) == 0 && (st.st_mode & 07777) == 0600,
	   "the file is 0600");
}

int main(void)
{
	static const char *const names[] = { "small",	"empty",  "large",
					     "atomic",	"victim", "planted",
					     "key" };
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[512];

	snprintf(dir, sizeof(dir), "%s/fileio-test-XXXXXX", tmp);
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 99;
	}
	test_small();
	test_empty();
	test_large();
	test_errors();
	test_write_atomic();
	umask(022);
	test_planted_link();
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
	return tap_done();
}
