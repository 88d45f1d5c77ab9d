// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/cloud.c: --image cloud:PATH's form, a qcow2
 * told by its magic, and the NoCloud seed: two made of the same inputs
 * in different seconds are the same bytes (images/cloud/seed.sh, then
 * cloud_iso_settle()), so that a remote host's pool finds it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fileio.h"

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

/* A file @name of @tmpdir holding @text, its path into @path. */
static void put(char *path, size_t len, const char *name, const char *text)
{
	FILE *f;

	snprintf(path, len, "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The tools seed.sh runs, or the first one missing. */
static const char *seed_tools_missing(void)
{
	static const char *const tools[] = { "cloud-localds", "genisoimage",
					     "strip", "gzip", "base64" };
	char cmd[128];

	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		snprintf(cmd, sizeof(cmd), "command -v %s > /dev/null",
			 tools[i]);
		if (system(cmd) != 0)
			return tools[i];
	}
	return NULL;
}

/* Two seeds of the same inputs, made in two seconds: the same bytes. */
static void test_seed(void)
{
	char pub[PATH_MAX], key[PATH_MAX], a[PATH_MAX], b[PATH_MAX];
	char *x = NULL, *y = NULL, why[160];
	size_t xn = 0, yn = 0;
	const char *missing = seed_tools_missing();
	struct timespec tick = { .tv_nsec = 10 * 1000 * 1000 };
	time_t t;

	if (missing) {
		snprintf(why, sizeof(why),
			 "the seed's bytes # SKIP '%s' is not installed",
			 missing);
		ok(1, why);
		return;
	}
	put(pub, sizeof(pub), "client.pub",
	    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeKeyForTheSeedTestOnly0000000000000 t\n");
	put(key, sizeof(key), "host_key", "a host key's bytes\n");
	snprintf(a, sizeof(a), "%s/seed-a.img", tmpdir);
	snprintf(b, sizeof(b), "%s/seed-b.img", tmpdir);
	is_int(cloud_seed(VLALAB_SRCDIR, a, VLALAB_GUESTD_PATH, pub, key), 0,
	       "a seed is made");
	/*
	 * The next one in another second, as genisoimage's clocks count:
	 * a wait for the clock, at most a second.
	 */
	t = time(NULL);
	while (time(NULL) == t)
		nanosleep(&tick, NULL);
	is_int(cloud_seed(VLALAB_SRCDIR, b, VLALAB_GUESTD_PATH, pub, key), 0,
	       "a second one, a second later");
	is_int(fileio_read(a, CLOUD_SEED_MAX, &x, &xn, NULL) |
		       fileio_read(b, CLOUD_SEED_MAX, &y, &yn, NULL),
	       0, "both read back");
	ok(x && y && xn == yn && xn > 0 && !memcmp(x, y, xn),
	   "the same inputs give the same bytes");
	ok(x && xn > 32768 + 46 && !memcmp(x + 32768 + 1, "CD001", 5) &&
		   !memcmp(x + 32768 + 40, "cidata", 6),
	   "an ISO 9660 image labelled cidata still");
	free(x);
	free(y);
}

/* What is no ISO 9660 image is refused and left as it was. */
static void test_settle_refuses(void)
{
	char path[PATH_MAX], *x = NULL;
	size_t n = 0;

	put(path, sizeof(path), "not-an-iso", "hello\n");
	is_int(cloud_iso_settle(path), -EINVAL, "a file too short refused");
	ok(fileio_read(path, 64, &x, &n, NULL) == 0 && n == 6 &&
		   !memcmp(x, "hello\n", 6),
	   "and left alone");
	free(x);
}

int main(void)
{
	if (!testdir_make(tmpdir))
		return 1;
	test_cloud();
	test_seed();
	test_settle_refuses();
	testdir_remove(tmpdir);
	return tap_done();
}
