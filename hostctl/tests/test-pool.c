// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/pool.c's pure parts: the qcow2 header read that
 * decides how a cloud VM's overlay is made on a remote host (its backing
 * file's name and its virtual size, or none; no image, a name that does
 * not fit or is not a string refused), that no host is remote, and the
 * sink a remote memory dump is downloaded into (bounded, whole or not at
 * all).
 * Uploads and dumps need a daemon: hostctl-remote (integration) runs them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "vm/pool.h"
#include "tap.h"
#include "testdir.h"

static char tmpdir[] = "/tmp/hostctl-test-XXXXXX";

/*
 * A qcow2 header of virtual size @size, with backing file name @name of
 * @nlen bytes at offset 512 (none for NULL), written to @path.
 */
static void write_qcow2(const char *path, const char *magic, uint64_t size,
			const char *name, uint32_t nlen)
{
	unsigned char hd[1024] = { 0 };
	uint64_t off = name ? 512 : 0;
	FILE *f = fopen(path, "w");

	memcpy(hd, magic, 4);
	hd[7] = 3;
	for (int i = 0; i < 8; i++) {
		hd[8 + i] = (unsigned char)(off >> (56 - 8 * i));
		hd[24 + i] = (unsigned char)(size >> (56 - 8 * i));
	}
	for (int i = 0; i < 4; i++)
		hd[16 + i] = (unsigned char)(nlen >> (24 - 8 * i));
	if (name)
		memcpy(hd + 512, name, nlen);
	if (f) {
		fwrite(hd, 1, sizeof(hd), f);
		fclose(f);
	}
}

/* The sink: at most its bound, and @path replaced whole or not at all. */
static void test_sink(void)
{
	struct pool_sink s;
	char path[256], *x = NULL;
	size_t n = 0;
	struct stat st;

	snprintf(path, sizeof(path), "%s/vmcore", tmpdir);
	fileio_write_atomic(path, "an earlier one", 14);
	is_int(pool_sink_open(&s, path, 10), 0, "a sink of 10 bytes opens");
	is_int(pool_sink_write(&s, "01234", 5), 0, "5 bytes go in");
	is_int(pool_sink_write(&s, "567890", 6), -EFBIG,
	       "6 more are past its bound");
	ok(s.got == 5, "none of them was counted");
	pool_sink_abort(&s);
	ok(access(s.tmp, F_OK) < 0, "aborted: its temporary file is gone");
	ok(fileio_read(path, 64, &x, &n, NULL) == 0 && n == 14 &&
		   !memcmp(x, "an earlier one", 14),
	   "and the file it was for is as it was");
	free(x);
	x = NULL;
	is_int(pool_sink_open(&s, path, 10), 0, "another opens");
	ok(pool_sink_write(&s, "01234", 5) == 0 &&
		   pool_sink_write(&s, "56789", 5) == 0,
	   "10 bytes go in, its bound");
	ok(stat(path, &st) == 0 && st.st_size == 14,
	   "the file is not touched before the end");
	is_int(pool_sink_commit(&s), 0, "committed");
	ok(fileio_read(path, 64, &x, &n, NULL) == 0 && n == 10 &&
		   !memcmp(x, "0123456789", 10),
	   "the file holds them, whole");
	ok(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600,
	   "root's alone, as a local dump");
	ok(access(s.tmp, F_OK) < 0, "no temporary file left");
	pool_sink_abort(&s);
	ok(access(path, F_OK) == 0, "an abort after the commit removes nothing");
	free(x);
	ok(pool_dump_max(512 * 1024) == (512ULL << 20) + POOL_DUMP_SLACK,
	   "a dump of a 512 MiB guest: its memory and the headers' slack");
}

int main(void)
{
	char path[256], buf[64];
	uint64_t size = 0;

	if (!testdir_make(tmpdir))
		return 1;
	snprintf(path, sizeof(path), "%s/disk.qcow2", tmpdir);

	write_qcow2(path, "QFI\xfb", 8ULL << 30, "/cache/base.qcow2", 17);
	is_int(pool_qcow2_backing(path, buf, sizeof(buf), &size), 1,
	       "an overlay has a backing file");
	is_str(buf, "/cache/base.qcow2", "its name");
	ok(size == 8ULL << 30, "its virtual size");

	write_qcow2(path, "QFI\xfb", 1 << 20, NULL, 0);
	is_int(pool_qcow2_backing(path, buf, sizeof(buf), &size), 0,
	       "a base image has none");
	ok(!buf[0] && size == 1 << 20, "no name, its size");

	write_qcow2(path, "QFI\xfb", 1 << 20, "/a/long/name", 12);
	is_int(pool_qcow2_backing(path, buf, 8, &size), -ENAMETOOLONG,
	       "a name that does not fit");
	write_qcow2(path, "QFI\xfb", 1 << 20, "/a\0b", 4);
	is_int(pool_qcow2_backing(path, buf, sizeof(buf), &size), -EINVAL,
	       "a name with a NUL in it is no path");
	write_qcow2(path, "RAW!", 1 << 20, NULL, 0);
	is_int(pool_qcow2_backing(path, buf, sizeof(buf), &size), -EINVAL,
	       "not a qcow2 image");
	snprintf(path, sizeof(path), "%s/missing", tmpdir);
	is_int(pool_qcow2_backing(path, buf, sizeof(buf), &size), -ENOENT,
	       "no file");
	ok(!vm_host_remote(NULL), "no host is not remote");
	test_sink();
	testdir_remove(tmpdir);
	return tap_done();
}
