// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/pool.c's pure parts: the qcow2 header read that
 * decides how a cloud VM's overlay is made on a remote host (its backing
 * file's name and its virtual size, or none; no image, a name that does
 * not fit or is not a string refused), and that no host is remote.
 * Uploads and dumps need a daemon: hostctl-remote (integration) runs them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

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
	testdir_remove(tmpdir);
	return tap_done();
}
