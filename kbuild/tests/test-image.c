// SPDX-License-Identifier: GPL-2.0-only
/*
 * image_build() without a kernel build: a fake kernel result whose
 * gen_init_cpio just prints the spec, so the gzip'ed "image" is the spec
 * and can be checked line by line. Also: the image key changes with each
 * input and a second call is a cache hit.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kb.h"
#include "tap.h"

static char tmp[64];

static void put(const char *rel, const char *text, mode_t mode)
{
	char path[PATH_MAX], dir[PATH_MAX];

	if (kb_path(path, sizeof(path), "%s/%s", tmp, rel) < 0)
		exit(1);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	if (kb_mkdir_p(dir, 0755) < 0 || kb_write_file_atomic(path, text, strlen(text)) < 0 ||
	    chmod(path, mode) < 0) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

/* The spec packed into the image: gunzip -c. */
static char *unpacked(const char *image)
{
	char *argv[] = { "gzip", "-dc", (char *)image, NULL };
	char *buf = calloc(1, 1 << 20);

	if (buf && kb_run_capture(argv, NULL, buf, 1 << 20) < 0)
		buf[0] = '\0';
	return buf;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *s = text; (s = strstr(s, line)); s++)
		if ((s == text || s[-1] == '\n') && (s[n] == '\n' || s[n] == '\0'))
			return true;
	return false;
}

int main(void)
{
	struct kbuild_result k = { 0 };
	struct image_result r1, r2, r3;
	struct image_opts o;
	char cache[PATH_MAX], path[PATH_MAX], extra[PATH_MAX], agent[PATH_MAX], init[PATH_MAX];
	char *spec, line[PATH_MAX * 2];
	int r;

	snprintf(tmp, sizeof(tmp), "/tmp/kbuild-test-image-XXXXXX");
	if (!mkdtemp(tmp) || access("/bin/busybox", X_OK) < 0) {
		printf("1..0 # SKIP no temp dir or no /bin/busybox (busybox-static)\n");
		return 77;
	}
	/* A fake build: gen_init_cpio echoes its spec; one staged module with
	 * the build and source links modules_install makes. */
	put("build/gen_init_cpio", "#!/bin/sh\nexec cat \"$1\"\n", 0755);
	put("build/modules/lib/modules/6.1.192/kernel/net/dsa/dsa_loop.ko", "ELF", 0644);
	put("build/modules/lib/modules/6.1.192/modules.dep", "kernel/net/dsa/dsa_loop.ko:\n", 0644);
	if (kb_path(path, sizeof(path), "%s/build/modules/lib/modules/6.1.192/build", tmp) < 0 ||
	    symlink("/usr/src/linux", path) < 0)
		return 1;
	put("init", "#!/bin/busybox sh\necho init\n", 0755);
	put("agent", "agent v1", 0755);
	put("extra/etc/vlalab/scenarios/a.json", "{}", 0644);
	snprintf(k.dir, sizeof(k.dir), "%s/build", tmp);
	snprintf(k.key, sizeof(k.key), "%s", "kernelkey1");
	snprintf(k.release, sizeof(k.release), "6.1.192");
	kb_path(cache, sizeof(cache), "%s/cache", tmp);
	kb_path(init, sizeof(init), "%s/init", tmp);
	kb_path(agent, sizeof(agent), "%s/agent", tmp);
	kb_path(extra, sizeof(extra), "%s/extra", tmp);
	o = (struct image_opts){ .cache_dir = cache, .kernel = &k, .guestd = agent, .extra_dir = extra,
				 .init = init };

	r = image_build(&o, &r1);
	CHECK(r == 0 && !r1.cache_hit && r1.size > 0, "an image is packed (r=%d)", r);
	spec = unpacked(r1.path);
	CHECK(has_line(spec, "nod /dev/console 600 0 0 c 5 1") && has_line(spec, "nod /dev/null 666 0 0 c 1 3"),
	      "console and null nodes come from the spec");
	CHECK(has_line(spec, "file /bin/busybox /bin/busybox 755 0 0"), "busybox");
	CHECK(has_line(spec, "slink /bin/sh /bin/busybox 777 0 0") &&
		      has_line(spec, "slink /sbin/modprobe /bin/busybox 777 0 0"),
	      "applet links where busybox --list-full puts them");
	snprintf(line, sizeof(line), "file /init %s 755 0 0", init);
	CHECK(has_line(spec, line), "/init");
	snprintf(line, sizeof(line), "file /sbin/guestd %s 755 0 0", agent);
	CHECK(has_line(spec, line), "/sbin/guestd");
	snprintf(line, sizeof(line),
		 "file /lib/modules/6.1.192/kernel/net/dsa/dsa_loop.ko %s/build/modules/lib/modules/6.1.192/kernel/net/dsa/dsa_loop.ko 644 0 0",
		 tmp);
	CHECK(has_line(spec, line), "staged modules under /lib/modules/<release>");
	CHECK(!strstr(spec, "/lib/modules/6.1.192/build"), "without the build link to the host");
	snprintf(line, sizeof(line), "file /etc/vlalab/scenarios/a.json %s/extra/etc/vlalab/scenarios/a.json 644 0 0",
		 tmp);
	CHECK(has_line(spec, line) && has_line(spec, "dir /etc/vlalab/scenarios 755 0 0"), "extra files under /");
	CHECK(strstr(spec, "dir /etc/vlalab/scenarios") < strstr(spec, "file /etc/vlalab/scenarios/a.json"),
	      "a folder comes before its files");
	free(spec);

	r = image_build(&o, &r2);
	CHECK(r == 0 && r2.cache_hit && !strcmp(r1.key, r2.key) && !strcmp(r1.path, r2.path),
	      "the same inputs are a cache hit");

#define VARY(what, stmt, undo)                                                                      \
	do {                                                                                        \
		stmt;                                                                               \
		r = image_build(&o, &r3);                                                           \
		CHECK(r == 0 && strcmp(r3.key, r1.key) != 0 && !r3.cache_hit, "key changes with %s", what); \
		undo;                                                                               \
	} while (0)

	VARY("the kernel key", snprintf(k.key, sizeof(k.key), "kernelkey2"),
	     snprintf(k.key, sizeof(k.key), "kernelkey1"));
	VARY("guestd's content", put("agent", "agent v2", 0755), put("agent", "agent v1", 0755));
	VARY("no guestd", o.guestd = NULL, o.guestd = agent);
	VARY("/init's content", put("init", "#!/bin/busybox sh\necho other\n", 0755),
	     put("init", "#!/bin/busybox sh\necho init\n", 0755));
	VARY("an extra file's content", put("extra/etc/vlalab/scenarios/a.json", "{ }", 0644),
	     put("extra/etc/vlalab/scenarios/a.json", "{}", 0644));
	VARY("an extra file's mode", put("extra/etc/vlalab/scenarios/a.json", "{}", 0755),
	     put("extra/etc/vlalab/scenarios/a.json", "{}", 0644));
	r = image_build(&o, &r3);
	CHECK(r == 0 && r3.cache_hit && !strcmp(r3.key, r1.key), "undoing every change gives the first key back");

	put("extra/bad name", "x", 0644);
	r = image_build(&o, &r3);
	CHECK(r == -EINVAL, "a file name with a blank is refused (r=%d)", r);

	kb_rm_rf(tmp);
	return tap_done();
}
