// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/snapshot.c: the key of a saved image (what
 * makes another, what does not), a slot's paths and name, its lock
 * between holders, and the "restored" request it sends.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <libvirt/libvirt.h>

#include "proto.h"
#include "vm/domain.h"
#include "vm/snapshot.h"
#include "vm/vm.h"
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

/* Save a running domain of the test driver, @name or a new one, to @path. */
static int save_domain(virConnectPtr conn, const char *name,
		       const char *path, char *uuid)
{
	char xml[256];
	virDomainPtr d;
	int r;

	d = virDomainLookupByName(conn, name);
	if (!d) {
		snprintf(xml, sizeof(xml),
			 "<domain type='test'><name>%s</name>"
			 "<memory>1024</memory><os><type>hvm</type></os>"
			 "</domain>",
			 name);
		d = virDomainCreateXML(conn, xml, 0);
	}
	if (!d)
		return -1;
	r = virDomainGetUUIDString(d, uuid) < 0 || virDomainSave(d, path) < 0 ?
		    -1 :
		    0;
	virDomainFree(d);
	return r;
}

/* Whether the restore XML of @s holds the UUID @uuid; its return. */
static int restore_uuid(struct vm_host *h, const struct snapshot_slot *s,
			const char *uuid, bool *has)
{
	const char *xml = "<domain type='kvm'>\n  <name>n</name>\n</domain>\n";
	char err[512], want[128], *rx = NULL;
	int r = snapshot_restore_xml(h, s, xml, &rx, err, sizeof(err));

	snprintf(want, sizeof(want), "<name>n</name>\n<uuid>%s</uuid>\n",
		 uuid);
	*has = rx && strstr(rx, want);
	if (r < 0)
		printf("# %s\n", err);
	free(rx);
	return r;
}

/*
 * snapshot_restore_xml() on images the test driver saves: the image's
 * UUID goes into the XML, read from the image once per process as long
 * as the image on disk is the same file (an image that changed under the
 * same size and time is not read again: the only way to see that it is
 * not), and read again once it is another (made anew, or touched).
 */
static void test_restore_xml(void)
{
	char err[512], uuid[VIR_UUID_STRING_BUFLEN], uuid2[VIR_UUID_STRING_BUFLEN];
	char tmp[PATH_MAX + 8];
	struct timespec ts[2];
	struct snapshot_slot s;
	virConnectPtr conn;
	struct vm_host *h;
	struct stat st;
	bool has;
	int fd;

	if (vm_host_open("test:///default", &h, err, sizeof(err)) < 0) {
		printf("# test:///default: %s\n", err);
		ok(0, "the test driver opens");
		return;
	}
	conn = virConnectOpen("test:///default");
	snapshot_slot(dir, "0123456789abcdef", 1, &s);
	if (!conn || save_domain(conn, "test", s.path, uuid) < 0 ||
	    stat(s.path, &st) < 0) {
		ok(0, "the test driver saves a domain");
		return;
	}
	is_int(restore_uuid(h, &s, uuid, &has), 0, "a restore XML");
	ok(has, "with the image's UUID after the name");
	/* The same file, its bytes changed under the same size and times. */
	fd = open(s.path, O_WRONLY | O_CLOEXEC);
	for (off_t k = 0; fd >= 0 && k < st.st_size; k++)
		if (write(fd, "x", 1) != 1)
			break;
	if (fd >= 0)
		close(fd);
	ts[0] = st.st_atim;
	ts[1] = st.st_mtim;
	utimensat(AT_FDCWD, s.path, ts, 0);
	is_int(restore_uuid(h, &s, uuid, &has), 0,
	       "the same image again: not read again");
	ok(has, "...its UUID as read the first time");
	ts[1].tv_sec -= 10;
	utimensat(AT_FDCWD, s.path, ts, 0);
	is_int(restore_uuid(h, &s, uuid, &has), -EIO,
	       "touched: read again (and these bytes are no image)");
	/* Made anew: another domain's image renamed into place. */
	snprintf(tmp, sizeof(tmp), "%s.tmp", s.path);
	if (save_domain(conn, "vlalab-other", tmp, uuid2) < 0 ||
	    rename(tmp, s.path) < 0) {
		ok(0, "a second image");
	} else {
		is_int(restore_uuid(h, &s, uuid2, &has), 0, "made anew");
		ok(has && strcmp(uuid, uuid2), "...its own UUID");
	}
	unlink(s.path);
	is_int(restore_uuid(h, &s, uuid2, &has), -ENOENT, "gone: -ENOENT");
	virConnectClose(conn);
	vm_host_close(h);
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
	test_restore_xml();
	testdir_remove(dir);
	return tap_done();
}
