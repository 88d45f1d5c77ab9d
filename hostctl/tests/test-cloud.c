// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/cloud.c: --image cloud:PATH's form, and a qcow2
 * told by its magic.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "vm/cloud.h"
#include "tap.h"
#include "testdir.h"

static char tmpdir[] = "/tmp/hostctl-test-XXXXXX";

/* --image cloud:PATH: the form, and a qcow2 by its magic. */
static void test_cloud(void)
{
	char path[PATH_MAX], abs[PATH_MAX];
	const char *got = NULL;
	FILE *f;

	is_int(cloud_spec_path("cloud:/a/b.qcow2", &got), 0, "cloud:PATH");
	ok(got && !strcmp(got, "/a/b.qcow2"), "its PATH");
	is_int(cloud_spec_path("cloud:", &got), -EINVAL, "no PATH refused");
	is_int(cloud_spec_path("/a/b.qcow2", &got), -EINVAL,
	       "no cloud: refused");
	snprintf(path, sizeof(path), "%s/img", tmpdir);
	is_int(cloud_check_qcow2(path, abs, sizeof(abs)), -ENOENT,
	       "a missing image");
	f = fopen(path, "w");
	fputs("QFI", f);
	fclose(f);
	is_int(cloud_check_qcow2(path, abs, sizeof(abs)), -EMEDIUMTYPE,
	       "three bytes are no qcow2");
	f = fopen(path, "w");
	fputs("QFI\xfb\x00\x00\x00\x03", f);
	fclose(f);
	is_int(cloud_check_qcow2(path, abs, sizeof(abs)), 0, "a qcow2");
	ok(!strcmp(abs, path), "its absolute path");
	is_int(cloud_check_qcow2(tmpdir, abs, sizeof(abs)), -EISDIR,
	       "a folder refused");
}

int main(void)
{
	if (!testdir_make(tmpdir))
		return 1;
	test_cloud();
	testdir_remove(tmpdir);
	return tap_done();
}
