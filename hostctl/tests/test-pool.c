// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/pool.c's pure parts: the qcow2 header read that
 * decides how a cloud VM's overlay is made on a remote host (its backing
 * file's name and its virtual size, or none; no image, a name that does
 * not fit or is not a string refused), that no host is remote, and the
 * sink a remote memory dump is downloaded into (bounded, whole or not at
 * all). And pool-reap.c's: a volume's owner read from its name, and the
 * reaping of dead runs' volumes in a pool of libvirt's test driver.
 * Uploads and dumps need a daemon: hostctl-remote (integration) runs them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "fileio.h"
#include "vm/owner.h"
#include "vm/pool.h"
#include "vm/vm.h"
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

/* A volume name's owner, "<what>~<pid>~<start>~<host>". */
static void test_tag_parse(void)
{
	struct owner o;
	size_t what = 0;

	is_int(pool_tag_parse("dump-vlalab-r-1~42~123456~lab1.example", &o,
			      &what),
	       0, "a dump's volume names its owner");
	ok(o.pid == 42 && o.start == 123456 && !strcmp(o.host, "lab1.example") &&
		   what == strlen("dump-vlalab-r-1"),
	   "its pid, start, host and what it is");
	is_int(pool_tag_parse("0123~1~2~h/x", &o, &what), -EINVAL,
	       "a host with a slash refused");
	is_int(pool_tag_parse("x~0~2~h", &o, &what), -EINVAL, "pid 0 refused");
	is_int(pool_tag_parse("x~1~~h", &o, &what), -EINVAL,
	       "an empty start refused");
	is_int(pool_tag_parse("x~1~2~", &o, &what), -EINVAL,
	       "an empty host refused");
	is_int(pool_tag_parse("x~99999999999~2~h", &o, &what), -EINVAL,
	       "a pid past int refused");
	is_int(pool_tag_parse("vlalab-r-1-vda", &o, &what), -EINVAL,
	       "a name without an owner");
}

/* A pid no process has: a child that exited and was reaped. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

static void vol(virStoragePoolPtr pool, const char *name)
{
	char xml[512];
	virStorageVolPtr v;

	snprintf(xml, sizeof(xml),
		 "<volume><name>%s</name><capacity>1</capacity></volume>",
		 name);
	v = virStorageVolCreateXML(pool, xml, 0);
	if (v)
		virStorageVolFree(v);
	else
		printf("# volume '%s': %s\n", name, virGetLastErrorMessage());
}

static bool has(virStoragePoolPtr pool, const char *name)
{
	virStorageVolPtr v = virStorageVolLookupByName(pool, name);

	if (v)
		virStorageVolFree(v);
	return v != NULL;
}

static void count(const char *vol, const struct owner *o, const char *failed,
		  void *data)
{
	(void)vol;
	(void)o;
	*(int *)data += !failed;
}

#define HEX1 "1111111111111111111111111111111111111111111111111111111111111111"
#define HEX2 "2222222222222222222222222222222222222222222222222222222222222222"
#define HEX3 "3333333333333333333333333333333333333333333333333333333333333333"
#define HEX4 "4444444444444444444444444444444444444444444444444444444444444444"

/*
 * The pool "vlalab" of libvirt's test driver, with volumes of a dead
 * hostctl, a live one, another machine's and the cache's: only the dead
 * one's go, and the uploads it cut short.
 */
static void test_reap(void)
{
	char err[512] = "", dead[320], live[320], foreign[320], name[640];
	struct owner self;
	struct vm_host *h;
	virConnectPtr conn;
	virStoragePoolPtr pool;
	int cb = 0;

	if (vm_host_open("test:///default", &h, err, sizeof(err)) < 0) {
		printf("# test:///default: %s\n", err);
		ok(0, "the test driver opens");
		return;
	}
	conn = virConnectOpen("test:///default");
	pool = virStoragePoolDefineXML(
		conn,
		"<pool type='dir'><name>" POOL_NAME "</name>"
		"<target><path>/nonexistent/vlalab</path></target></pool>",
		0);
	ok(pool && virStoragePoolCreate(pool, 0) == 0,
	   "the test driver's pool 'vlalab' starts");
	owner_self("", &self);
	snprintf(live, sizeof(live), "~%d~%llu~%s", (int)self.pid,
		 (unsigned long long)self.start, self.host);
	snprintf(dead, sizeof(dead), "~%d~%llu~%s", (int)dead_pid(),
		 (unsigned long long)self.start, self.host);
	snprintf(foreign, sizeof(foreign), "~%d~1~another-host",
		 (int)dead_pid());
	snprintf(name, sizeof(name), "vlalab-d-1-vda%s", dead);
	vol(pool, name);
	snprintf(name, sizeof(name), "dump-vlalab-d-1%s", dead);
	vol(pool, name);
	snprintf(name, sizeof(name), "vlalab-l-1-vda%s", live);
	vol(pool, name);
	snprintf(name, sizeof(name), "vlalab-f-1-vda%s", foreign);
	vol(pool, name);
	/* The cache: complete; cut short by the dead one; under way by a
	 * live one; an old run's, with no marker. */
	vol(pool, HEX1);
	vol(pool, HEX1 ".ok");
	vol(pool, HEX2);
	snprintf(name, sizeof(name), HEX2 ".up%s", dead);
	vol(pool, name);
	vol(pool, HEX3);
	snprintf(name, sizeof(name), HEX3 ".up%s", live);
	vol(pool, name);
	vol(pool, HEX4);
	vol(pool, "vlalab-old-1-vda");
	is_int(pool_reap(h, self.host, true, count, &cb, err, sizeof(err)), 5,
	       "a dry run counts 5");
	ok(has(pool, HEX2), "and deletes nothing");
	cb = 0;
	is_int(pool_reap(h, self.host, false, count, &cb, err, sizeof(err)), 5,
	       "5 volumes reaped");
	is_int(cb, 5, "each said");
	snprintf(name, sizeof(name), "vlalab-d-1-vda%s", dead);
	ok(!has(pool, name), "the dead hostctl's overlay went");
	snprintf(name, sizeof(name), "dump-vlalab-d-1%s", dead);
	ok(!has(pool, name), "its dump went");
	snprintf(name, sizeof(name), HEX2 ".up%s", dead);
	ok(!has(pool, name) && !has(pool, HEX2),
	   "its upload cut short went, with its marker");
	ok(!has(pool, HEX4), "an upload cut short without a marker went");
	snprintf(name, sizeof(name), "vlalab-l-1-vda%s", live);
	ok(has(pool, name), "a live hostctl's overlay stays");
	snprintf(name, sizeof(name), "vlalab-f-1-vda%s", foreign);
	ok(has(pool, name), "another machine's stays");
	ok(has(pool, HEX1) && has(pool, HEX1 ".ok"),
	   "a complete file of the cache stays");
	ok(has(pool, HEX3), "an upload a live hostctl makes stays");
	ok(has(pool, "vlalab-old-1-vda"), "a volume without an owner stays");
	is_int(pool_reap(h, self.host, false, NULL, NULL, err, sizeof(err)), 0,
	       "a second pass reaps nothing");
	if (pool) {
		virStoragePoolDestroy(pool);
		virStoragePoolUndefine(pool);
		virStoragePoolFree(pool);
	}
	virConnectClose(conn);
	vm_host_close(h);
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
	test_tag_parse();
	test_reap();
	testdir_remove(tmpdir);
	return tap_done();
}
