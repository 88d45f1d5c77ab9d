// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/uri.c: the embedded driver's URI (its root
 * percent-escaped, one per slot), --connect against LIBVIRT_DEFAULT_URI, and
 * the qemu.conf written under the root, confined or not.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "vm/uri.h"
#include "tap.h"
#include "testdir.h"

static char tmpdir[] = "/tmp/hostctl-test-XXXXXX";

/* @path's start into @buf (at most @size - 1 bytes); false if unreadable. */
static bool slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	buf[0] = '\0';
	if (!f)
		return false;
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	return true;
}

static void test_uri(void)
{
	char uri[4096], cache[256], path[512];
	char buf[1024] = "";

	is_int(uri_default("/root/.cache/vlalab", 0, uri, sizeof(uri)), 0,
	       "default uri");
	is_str(uri, "qemu:///embed?root=/root/.cache/vlalab/libvirt",
	       "default uri text");
	is_int(uri_default("/a b&c", 0, uri, sizeof(uri)), 0, "uri escaped");
	is_str(uri, "qemu:///embed?root=/a%20b%26c/libvirt",
	       "space and & escaped");
	is_int(uri_default("/x", 0, uri, 10), -ENAMETOOLONG, "uri too long");
	is_str(uri_choose("qemu:///system", "qemu+ssh://h/system"),
	       "qemu:///system", "--connect wins over LIBVIRT_DEFAULT_URI");
	is_str(uri_choose(NULL, "qemu+ssh://h/system"), "qemu+ssh://h/system",
	       "LIBVIRT_DEFAULT_URI without --connect");
	ok(!uri_remote(NULL) && !uri_remote("qemu:///system") &&
		   !uri_remote("qemu:///embed?root=/tmp/x") &&
		   !uri_remote("qemu+unix:///system") &&
		   !uri_remote("test:///default") && !uri_remote("bogus"),
	   "local URIs are not remote");
	ok(uri_remote("qemu+tcp://127.0.0.1:16510/system") &&
		   uri_remote("qemu+ssh://h/system") &&
		   uri_remote("qemu://h/system") &&
		   uri_remote("qemu+ssh:///system") &&
		   uri_remote("qemu+ext:///system?command=/bin/x"),
	   "a host or a network transport is remote");
	ok(uri_choose(NULL, "") == NULL,
	   "an empty LIBVIRT_DEFAULT_URI: embedded");
	ok(uri_choose(NULL, NULL) == NULL, "neither: embedded");

	snprintf(cache, sizeof(cache), "%s/c d", tmpdir);
	is_int(uri_default("/c", 2, uri, sizeof(uri)), 0, "slot 2");
	is_str(uri, "qemu:///embed?root=/c/libvirt-2", "slot 2 root");
	uri_default(cache, 0, uri, sizeof(uri));
	is_int(uri_prepare(uri, NULL, NULL, false), 0, "qemu.conf written");
	snprintf(path, sizeof(path), "%s/c d/libvirt/etc/qemu.conf", tmpdir);
	ok(slurp(path, buf, sizeof(buf)), "qemu.conf under the unescaped root");
	ok(strstr(buf, "user = \"root\"") &&
		   strstr(buf, "stdio_handler = \"file\""),
	   "qemu.conf content");
	ok(strstr(buf, "capability_filters = [ \"cpu-unavailable-features\" ]\n") !=
		   NULL,
	   "qemu.conf: libvirt reads the guest's CPU in two QMP calls");
	is_int(uri_prepare("qemu:///system", "vlalab", "vlalab", true), 0,
	       "other URIs untouched");
	is_int(uri_prepare(uri, "vla\"lab", "vlalab", true), -EINVAL,
	       "a user name that cannot be quoted");
	is_int(uri_prepare(uri, "vlalab", NULL, true), -EINVAL,
	       "a user without a group");
	is_int(uri_prepare(uri, "vlalab", "kvm", true), 0,
	       "confined qemu.conf written");
	slurp(path, buf, sizeof(buf));
	ok(strstr(buf, "user = \"vlalab\"\n") &&
		   strstr(buf, "group = \"kvm\"\n") &&
		   strstr(buf, "seccomp_sandbox = 1\n") &&
		   strstr(buf, "namespaces = [ \"mount\" ]\n") &&
		   !strstr(buf, "\"root\""),
	   "confined qemu.conf: QEMU's user, seccomp, a mount namespace");
	ok(strstr(buf, "capability_filters = [ \"cpu-unavailable-features\" ]\n") !=
		   NULL,
	   "confined qemu.conf: the guest's CPU in two QMP calls");
	is_int(uri_prepare(uri, "vlalab", "kvm", false), 0,
	       "confined, no namespaces");
	slurp(path, buf, sizeof(buf));
	ok(strstr(buf, "namespaces = []\n") != NULL,
	   "no mount namespace where the machine allows none");
}

int main(void)
{
	if (!testdir_make(tmpdir))
		return 1;
	test_uri();
	testdir_remove(tmpdir);
	return tap_done();
}
