// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cache commit (kb_cache_commit()) on a full disk, and what the next
 * build makes of it (kb_cache_hit()). A fake object tree stands in for a
 * build; RLIMIT_FSIZE stands in for the full disk (a write past it fails
 * with EFBIG, as one past a full disk fails with ENOSPC): the copy of the
 * 1 MiB vmlinux fails, the error names that file, and the folder has no
 * manifest, so it is no hit. Then with room the same commit is a hit, and
 * a manifest cut short is not.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"
#include "tap.h"

/* A broken fixture is no test result: say so and stop. */
static void bail(const char *what, const char *path)
{
	printf("Bail out! %s %s\n", what, path);
	exit(1);
}

static char root[] = "/tmp/kbuild-test-cache-XXXXXX";

/* @root/obj/@rel of @size bytes. */
static void obj_file(const char *rel, size_t size)
{
	char path[PATH_MAX], *slash, *buf = calloc(1, size + 1);

	snprintf(path, sizeof(path), "%s/obj/%s", root, rel);
	slash = strrchr(path, '/');
	*slash = '\0';
	kb_mkdir_p(path, 0755);
	*slash = '/';
	if (fileio_write_atomic(path, buf, size) < 0)
		bail("writing '%s'", path);
	free(buf);
}

static char *manifest(void)
{
	struct kb_manifest m = { .source_version = "6.1.192-3",
				 .compiler = "gcc 12/x86_64",
				 .flavour = "patched",
				 .key = "0123",
				 .release = "6.1.192-test" };
	char *json = NULL;

	if (kb_manifest_to_json(&m, &json) < 0)
		bail("kb_manifest_to_json", "");
	return json;
}

int main(void)
{
	char obj[256], dir[256], path[PATH_MAX], failed[PATH_MAX];
	struct kbuild_result res = { 0 };
	struct rlimit lim, old;
	struct stat st;
	char *json;

	if (!mkdtemp(root))
		bail("mkdtemp", root);
	obj_file("arch/x86/boot/bzImage", 64 << 10);
	obj_file("vmlinux", 1 << 20);
	obj_file("System.map", 4096);
	obj_file(".config", 4096);
	obj_file("usr/gen_init_cpio", 4096);
	snprintf(obj, sizeof(obj), "%s/obj", root);
	snprintf(dir, sizeof(dir), "%s/builds/0123", root);
	kb_mkdir_p(dir, 0755);
	json = manifest();

	/* The disk fills while vmlinux is copied. */
	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 512 << 10;
	setrlimit(RLIMIT_FSIZE, &lim);
	is_int(kb_cache_commit(obj, dir, json, failed, sizeof(failed)), -EFBIG,
	       "a full disk fails the commit");
	snprintf(path, sizeof(path), "%s/vmlinux", dir);
	is_str(failed, path, "the error names the file");
	setrlimit(RLIMIT_FSIZE, &old);
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	ok(stat(path, &st) < 0 && errno == ENOENT, "no manifest.json");
	ok(!kb_cache_hit(dir, &res), "so the next build does not take it");
	snprintf(path, sizeof(path), "%s/vmlinux", dir);
	ok(stat(path, &st) < 0 && errno == ENOENT,
	   "and no half-copied vmlinux is left");

	/* With room: a hit. */
	is_int(kb_cache_commit(obj, dir, json, failed, sizeof(failed)), 0,
	       "with room it commits");
	ok(kb_cache_hit(dir, &res), "a hit");
	is_str(res.release, "6.1.192-test", "the manifest's release");
	ok(stat(path, &st) == 0 && st.st_size == 1 << 20, "vmlinux whole");

	/* A manifest cut short (written by hand: the commit never does). */
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	if (fileio_write_atomic(path, json, strlen(json) / 2) < 0)
		bail("writing '%s'", path);
	ok(!kb_cache_hit(dir, &res), "half a manifest is no hit");

	free(json);
	kb_rm_rf(root);
	return tap_done();
}
