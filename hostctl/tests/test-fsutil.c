// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/base/fsutil.c: a file's tail (a console log as
 * hostctl reads it for a reason), mkdir -p and its private form, and a
 * program run without a shell.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "tap.h"
#include "testdir.h"

static char tmpdir[] = "/tmp/hostctl-test-XXXXXX";

static void test_read_tail(void)
{
	char path[512], *buf = NULL;
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/console.log", tmpdir);
	f = fopen(path, "w");
	for (int i = 1; i <= 30; i++)
		fprintf(f, "line %d\r\n", i);
	fputs("bell\a\n", f);
	fclose(f);
	is_int(fs_read_tail(path, 16384, &buf, &len), 0, "a short file");
	ok(buf && len == 9 * 8 + 21 * 9 + 6 && strlen(buf) == len &&
		   !strncmp(buf, "line 1\r\n", 8) &&
		   !strcmp(buf + len - 6, "bell\a\n"),
	   "read whole, NUL-terminated");
	free(buf);
	buf = NULL;
	is_int(fs_read_tail(path, 15, &buf, &len), 0, "a longer file");
	is_str(buf, "line 30\r\nbell\a\n", "its last 15 bytes");
	is_int(len, 15, "and their length");
	free(buf);
	is_int(fs_read_tail("/nonexistent/x", 16, &buf, &len), -ENOENT,
	       "a missing file");
}

static void test_mkdir(void)
{
	char path[512], link[512], longer[PATH_MAX + 8];
	struct stat st;

	snprintf(path, sizeof(path), "%s/a/b/c", tmpdir);
	is_int(fs_mkdir_p(path), 0, "mkdir -p");
	ok(stat(path, &st) == 0 && S_ISDIR(st.st_mode), "the folders made");
	is_int(fs_mkdir_p(path), 0, "and again: no error");
	chmod(path, 0755);
	is_int(fs_mkdir_private(path), 0, "an existing folder made private");
	ok(stat(path, &st) == 0 && (st.st_mode & 07777) == 0700, "it is 0700");
	snprintf(link, sizeof(link), "%s/link", tmpdir);
	if (symlink(path, link) < 0) {
		ok(0, "symlink");
		return;
	}
	is_int(fs_mkdir_private(link), -ENOTDIR,
	       "a symbolic link to a folder refused");
	snprintf(link, sizeof(link), "%s/file", tmpdir);
	close(open(link, O_WRONLY | O_CREAT, 0600));
	is_int(fs_mkdir_p(link), -ENOTDIR, "a file where the folder goes");
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	is_int(fs_mkdir_p(longer), -ENAMETOOLONG, "a path too long");
}

static void test_run(void)
{
	char out[512], buf[64] = "";
	char *echo[] = { "echo", "a;b $(x)", NULL };
	char *no[] = { "false", NULL };
	char *gone[] = { "/nonexistent/prog", NULL };
	int status = -1;
	FILE *f;

	snprintf(out, sizeof(out), "%s/out", tmpdir);
	is_int(fs_run(echo, out, NULL), 0, "a program that exits 0");
	f = fopen(out, "r");
	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	is_str(buf, "a;b $(x)\n", "its output, its argument unseen by a shell");
	is_int(fs_run(no, NULL, &status), -EIO, "a program that fails");
	is_int(status, 1, "its exit status");
	is_int(fs_run(gone, NULL, NULL), -ENOENT, "no such program");
}

int main(void)
{
	if (!testdir_make(tmpdir))
		return 1;
	test_read_tail();
	test_mkdir();
	test_run();
	testdir_remove(tmpdir);
	return tap_done();
}
