// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/snapshot.c: the key of a saved image (what
 * makes another, what does not), a slot's paths and name, its lock
 * between holders, and the "restored" request it sends.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "proto.h"
#include "vm/domain.h"
#include "vm/snapshot.h"
#include "tap.h"
#include "testdir.h"

static char dir[] = "/tmp/vlalab-test-snapshot-XXXXXX";
static char kernel[256], initrd[256], other[256];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static struct domain_config base(void)
{
	return (struct domain_config){
		.name = "vlalab-20261207-000000-1-1",
		.kernel = kernel,
		.initrd = initrd,
		.memory_mib = 512,
		.machine = "q35",
	};
}

static void key_of(const struct domain_config *c, const char *hv, char *key)
{
	if (snapshot_key(c, hv, key, SNAPSHOT_KEY_LEN) < 0)
		strcpy(key, "error");
}

static void test_key(void)
{
	struct domain_config c = base();
	char k0[SNAPSHOT_KEY_LEN], k[SNAPSHOT_KEY_LEN];
	struct timespec ts[2] = { { 1, 0 }, { 1, 0 } };

	key_of(&c, "7.2.0", k0);
	ok(strlen(k0) == 16 && strspn(k0, "0123456789abcdef") == 16,
	   "a key is 16 hex digits");
	key_of(&c, "7.2.0", k);
	is_str(k, k0, "the same domain, the same key");

	/* What differs between the VMs of one image: the same key. */
	c.name = "vlalab-20261207-000000-1-2";
	key_of(&c, "7.2.0", k);
	is_str(k, k0, "another VM's name: the same key");
	c = base();
	c.ssh_socket = "/cache/vms/a.ssh";
	key_of(&c, "7.2.0", k0);
	c.ssh_socket = "/cache/vms/b.ssh";
	key_of(&c, "7.2.0", k);
	is_str(k, k0, "another SSH socket path: the same key");
	c.ssh_socket = NULL;
	key_of(&c, "7.2.0", k);
	ok(strcmp(k, k0) != 0, "no SSH port: another key (another device)");

	/* Each part of the domain that matters: another key. */
	c = base();
	key_of(&c, "7.2.0", k0);
	key_of(&c, "8.0.0", k);
	ok(strcmp(k, k0) != 0, "another QEMU: another key");
	c.machine = "pc";
	key_of(&c, "7.2.0", k);
	ok(strcmp(k, k0) != 0, "another machine: another key");
	c = base();
	c.memory_mib = 1024;
	key_of(&c, "7.2.0", k);
	ok(strcmp(k, k0) != 0, "another memory size: another key");
	c = base();
	c.nic = true;
	key_of(&c, "7.2.0", k);
	ok(strcmp(k, k0) != 0, "a NIC: another key");
	c = base();
	c.vcpus = 2;
	key_of(&c, "7.2.0", k);
	ok(strcmp(k, k0) != 0, "two vCPUs: another key");
	c = base();
	c.icount = true;
	key_of(&c, "7.2.0", k);
	ok(strcmp(k, k0) != 0, "icount: another key");
	c = base();
	c.cmdline = "console=ttyS0 panic=-1 rdinit=/init loglevel=8";
	key_of(&c, "7.2.0", k);
	ok(strcmp(k, k0) != 0, "another command line: another key");
	c = base();
	c.accel = DOMAIN_ACCEL_KVM;
	key_of(&c, "7.2.0", k);
	ok(strcmp(k, k0) != 0, "KVM: another key");
	c = base();
	c.initrd = other;
	key_of(&c, "7.2.0", k);
	ok(strcmp(k, k0) != 0, "another image: another key");

	/* The same paths, other files: a rebuilt kernel or image. */
	c = base();
	write_file(kernel, "a kernel, rebuilt");
	key_of(&c, "7.2.0", k);
	ok(strcmp(k, k0) != 0, "the kernel rewritten: another key");
	key_of(&c, "7.2.0", k0);
	utimensat(AT_FDCWD, initrd, ts, 0);
	key_of(&c, "7.2.0", k);
	ok(strcmp(k, k0) != 0, "the image touched: another key");

	unlink(initrd);
	is_int(snapshot_key(&c, "7.2.0", k, sizeof(k)), -ENOENT,
	       "the image missing: -ENOENT");
	write_file(initrd, "an initramfs");
	c.kernel = NULL;
	is_int(snapshot_key(&c, "7.2.0", k, sizeof(k)), -EINVAL,
	       "no kernel: -EINVAL");
}

static void test_slot(void)
{
	struct snapshot_slot a, b;

	char d[64];

	unsetenv(SNAPSHOT_DIR_ENV);
	is_int(snapshot_dir("/cache", d, sizeof(d)), 0, "the images' folder");
	is_str(d, "/cache/snapshots", "in the cache");
	setenv(SNAPSHOT_DIR_ENV, "/elsewhere", 1);
	snapshot_dir("/cache", d, sizeof(d));
	is_str(d, "/elsewhere", "or where " SNAPSHOT_DIR_ENV " says");
	unsetenv(SNAPSHOT_DIR_ENV);
	is_int(snapshot_slot("/c", "0123456789abcdef", 2, &a), 0, "a slot");
	is_str(a.name, "vlalab-snap-0123456789abcdef-2",
	       "its domain's name: the key and the slot");
	is_str(a.path, "/c/0123456789abcdef-2.save", "its image");
	is_str(a.lock, "/c/0123456789abcdef-2.lock", "its lock, beside it");

	snapshot_slot(dir, "0123456789abcdef", 0, &a);
	snapshot_slot(dir, "0123456789abcdef", 0, &b);
	is_int(snapshot_lock(&a, false), 0, "a shared lock");
	is_int(snapshot_lock(&b, false), 0, "two holders share it");
	is_int(snapshot_lock(&a, true), -EWOULDBLOCK,
	       "no exclusive lock while another shares it");
	ok(a.lock_fd < 0, "a failed lock holds nothing");
	snapshot_unlock(&b);
	is_int(snapshot_lock(&a, true), 0, "exclusive once alone");
	is_int(snapshot_lock(&b, false), -EWOULDBLOCK,
	       "no shared lock while one makes the image");
	is_int(snapshot_lock(&a, false), 0, "exclusive made shared");
	is_int(snapshot_lock(&b, false), 0, "then shared again");
	snapshot_unlock(&a);
	snapshot_unlock(&b);
}

static void test_greeting(void)
{
	char id1[PROTO_BOOT_ID_MAX], id2[PROTO_BOOT_ID_MAX];
	struct proto_restored r;
	enum proto_request_type t;
	struct json_object *obj = NULL;
	char err[256], *line = NULL, *line2 = NULL;
	size_t len, len2;
	struct timespec now;

	is_int(snapshot_greeting(id1, &line, &len), 0, "a greeting");
	is_int(snapshot_greeting(id2, &line2, &len2), 0, "another");
	ok(strlen(id1) == 36 && id1[14] == '4', "a version 4 UUID");
	ok(strcmp(id1, id2) != 0, "a new boot id each time");
	ok(line && len && line[len - 1] == '\n', "one line");
	ok(line &&
		   proto_request_decode(line, len - 1, &t, &obj, err,
					sizeof(err)) == 0 &&
		   t == PROTO_REQ_RESTORED,
	   "a restored request");
	ok(obj && proto_restored_decode(obj, &r, err, sizeof(err)) == 0,
	   "that decodes strictly");
	is_str(r.boot_id, id1, "with its boot id");
	clock_gettime(CLOCK_REALTIME, &now);
	ok(r.wall_ns <= (uint64_t)now.tv_sec * 1000000000 +
				   (uint64_t)now.tv_nsec &&
		   r.wall_ns + 60ULL * 1000000000 >
			   (uint64_t)now.tv_sec * 1000000000,
	   "and the host's wall clock");
	json_object_put(obj);
	free(line);
	free(line2);
}

int main(void)
{
	if (!testdir_make(dir))
		return 1;
	snprintf(kernel, sizeof(kernel), "%s/bzImage", dir);
	snprintf(initrd, sizeof(initrd), "%s/initramfs.cpio.gz", dir);
	snprintf(other, sizeof(other), "%s/other.cpio.gz", dir);
	write_file(kernel, "a kernel");
	write_file(initrd, "an initramfs");
	write_file(other, "another initramfs");
	test_key();
	test_slot();
	test_greeting();
	testdir_remove(dir);
	return tap_done();
}
