// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbuild_image_build() without a kernel build: a fake kernel result whose
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

#include "fileio.h"
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
	if (kb_mkdir_p(dir, 0755) < 0 || fileio_write_atomic(path, text, strlen(text)) < 0 ||
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

/* ldd's output as parsed text; no program runs. */
static void test_ldd_parse(void)
{
	static const char bridge[] =
		"\tlinux-vdso.so.1 (0x00007fa4d6214000)\n"
		"\tlibmnl.so.0 => /lib/x86_64-linux-gnu/libmnl.so.0 (0x00007fa4d61ca000)\n"
		"\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007fa4d5fdc000)\n"
		"\t/lib64/ld-linux-x86-64.so.2 (0x00007fa4d6216000)\n";
	char **v = NULL, err[512] = "";
	size_t n = 0;

	okf(kb_ldd_parse(bridge, &v, &n, err, sizeof(err)) == 0 && n == 3 &&
		    !strcmp(v[0], "/lib/x86_64-linux-gnu/libmnl.so.0") &&
		    !strcmp(v[1], "/lib/x86_64-linux-gnu/libc.so.6") && !strcmp(v[2], "/lib64/ld-linux-x86-64.so.2"),
	    "ldd: libraries and the interpreter in order, no vDSO");
	kb_strv_free(v, n);
	okf(kb_ldd_parse("\tnot a dynamic executable", &v, &n, err, sizeof(err)) == 0 && n == 0,
	    "ldd: a static program loads nothing");
	okf(kb_ldd_parse("\tlibgone.so.1 => not found\n", &v, &n, err, sizeof(err)) == -EINVAL &&
		    strstr(err, "'libgone.so.1' not found"),
	    "ldd: a missing library is an error naming it: %s", err);
	okf(kb_ldd_parse("\tnot found\n", &v, &n, err, sizeof(err)) == -EINVAL && strstr(err, "unexpected"),
	    "ldd: 'not found' without a name is an unexpected line: %s", err);
	okf(kb_ldd_parse("\tsomething odd\n", &v, &n, err, sizeof(err)) == -EINVAL && strstr(err, "something odd"),
	    "ldd: an unexpected line is an error: %s", err);
}

/* The closure of a real host program: the loader and libc at least. */
static void test_closure(void)
{
	char **v = NULL, err[512] = "";
	bool libc = false, ld = false;
	size_t n = 0;
	int r;

	r = kb_program_libs("/bin/true", &v, &n, err, sizeof(err));
	for (size_t i = 0; r == 0 && i < n; i++) {
		libc |= strstr(v[i], "/libc.so.6") != NULL;
		ld |= !strcmp(v[i], "/lib64/ld-linux-x86-64.so.2");
	}
	okf(r == 0 && libc && ld, "/bin/true loads libc.so.6 and /lib64/ld-linux-x86-64.so.2 (r=%d %s)", r, err);
	kb_strv_free(v, n);
	r = kb_program_libs("/bin/busybox", &v, &n, err, sizeof(err));
	okf(r == 0 && n == 0, "static busybox loads nothing (r=%d %s)", r, err);
	r = kb_program_libs("/nonexistent/program", &v, &n, err, sizeof(err));
	okf(r < 0 && strstr(err, "/nonexistent/program"), "a missing program is an error: %s", err);
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *s = text; (s = strstr(s, line)); s++)
		if ((s == text || s[-1] == '\n') && (s[n] == '\n' || s[n] == '\0'))
			return true;
	return false;
}

/* An image whose inputs are all the test's own (a stand-in busybox, no host
 * program): its key, and its spec with the temporary folder as @T@, pinned
 * to what main's image.c gave before the split into image.c, imgtree.c and
 * hostfiles.c. */
#define IMAGE_KEY_PIN "bd90e963c4691c3139815b44007fd9ae4a372f76ea6ac8906b1b5275595ca897"
#define IMAGE_SPEC_PIN "b73b7b83ec307227aa654c0aea4d8c333ce45b927fc7369247624d1a7ee319dd"

static void test_pinned(const struct kbuild_result *k)
{
	char cache[PATH_MAX], bb[PATH_MAX], init[PATH_MAX], agent[PATH_MAX], extra[PATH_MAX];
	const char *ks[] = { "ftrace" };
	struct kbuild_image_opts o;
	struct kbuild_image_result res = { 0 };
	char hex[65] = "", *spec, *out;
	size_t tl = strlen(tmp), n = 0;
	int r;

	put("pin/busybox", "#!/bin/sh\nprintf 'bin/sh\\nsbin/modprobe\\nusr/bin/env\\nbin/busybox\\n'\n", 0755);
	put("pin/init", "#!/bin/busybox sh\necho pinned\n", 0755);
	put("pin/agent", "agent pinned", 0755);
	put("pin/extra/etc/vlalab/scenarios/b.json", "{\"pin\":1}", 0644);
	put("pin/extra/usr/bin/tool", "#!/bin/sh\n", 0755);
	kb_path(cache, sizeof(cache), "%s/pin/cache", tmp);
	kb_path(bb, sizeof(bb), "%s/pin/busybox", tmp);
	kb_path(init, sizeof(init), "%s/pin/init", tmp);
	kb_path(agent, sizeof(agent), "%s/pin/agent", tmp);
	kb_path(extra, sizeof(extra), "%s/pin/extra", tmp);
	o = (struct kbuild_image_opts){ .cache_dir = cache, .kernel = k, .busybox = bb, .guestd = agent,
					.extra_dir = extra, .init = init, .kselftests = ks, .n_kselftests = 1 };
	r = kbuild_image_build(&o, &res);
	okf(r == 0 && !strcmp(res.key, IMAGE_KEY_PIN), "the image key as before the split (r=%d, %s)", r, res.key);
	spec = unpacked(res.path);
	out = calloc(1, 1 << 20);
	if (!spec || !out)
		exit(1);
	for (const char *s = spec; *s && n + 4 < 1 << 20;) {
		if (!strncmp(s, tmp, tl)) {
			memcpy(out + n, "@T@", 3);
			n += 3;
			s += tl;
		} else {
			out[n++] = *s++;
		}
	}
	okf(n > 0 && kb_sha256_hex(out, n, hex) == 0 && !strcmp(hex, IMAGE_SPEC_PIN),
	    "the image's spec as before the split (sha256 %s)", hex);
	free(out);
	free(spec);
}

int main(void)
{
	struct kbuild_result k = { 0 };
	struct kbuild_image_result r1, r2, r3;
	struct kbuild_image_opts o;
	char cache[PATH_MAX], path[PATH_MAX], extra[PATH_MAX], agent[PATH_MAX], init[PATH_MAX];
	char *spec, line[PATH_MAX * 2];
	char prog[PATH_MAX], libc[PATH_MAX], ld[PATH_MAX];
	struct kbuild_image_program progs[2];
	int r;

	test_ldd_parse();
	test_closure();
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
	/* A dynamic program of our own (a copy of /bin/true, so that its
	 * content can change), and one that takes busybox's /sbin/ip. */
	kb_path(prog, sizeof(prog), "%s/prog", tmp);
	if (kb_run_capture((char *[]){ "cp", "/bin/true", prog, NULL }, NULL, line, sizeof(line)) < 0)
		return 1;
	progs[0] = (struct kbuild_image_program){ prog, "/usr/sbin/prog" };
	progs[1] = (struct kbuild_image_program){ "/bin/true", "/sbin/ip" };
	o = (struct kbuild_image_opts){ .cache_dir = cache, .kernel = &k, .guestd = agent, .extra_dir = extra,
					.init = init, .programs = progs, .n_programs = 2 };

	r = kbuild_image_build(&o, &r1);
	okf(r == 0 && !r1.cache_hit && r1.size > 0, "an image is packed (r=%d)", r);
	spec = unpacked(r1.path);
	okf(has_line(spec, "nod /dev/console 600 0 0 c 5 1") && has_line(spec, "nod /dev/null 666 0 0 c 1 3"),
	    "console and null nodes come from the spec");
	okf(has_line(spec, "file /bin/busybox /bin/busybox 755 0 0"), "busybox");
	okf(has_line(spec, "slink /bin/sh /bin/busybox 777 0 0") &&
		    has_line(spec, "slink /sbin/modprobe /bin/busybox 777 0 0"),
	    "applet links where busybox --list-full puts them");
	snprintf(line, sizeof(line), "file /init %s 755 0 0", init);
	okf(has_line(spec, line), "/init");
	snprintf(line, sizeof(line), "file /sbin/guestd %s 755 0 0", agent);
	okf(has_line(spec, line), "/sbin/guestd");
	snprintf(line, sizeof(line),
		 "file /lib/modules/6.1.192/kernel/net/dsa/dsa_loop.ko %s/build/modules/lib/modules/6.1.192/kernel/net/dsa/dsa_loop.ko 644 0 0",
		 tmp);
	okf(has_line(spec, line), "staged modules under /lib/modules/<release>");
	okf(!strstr(spec, "/lib/modules/6.1.192/build"), "without the build link to the host");
	snprintf(line, sizeof(line), "file /etc/vlalab/scenarios/a.json %s/extra/etc/vlalab/scenarios/a.json 644 0 0",
		 tmp);
	okf(has_line(spec, line) && has_line(spec, "dir /etc/vlalab/scenarios 755 0 0"), "extra files under /");
	okf(strstr(spec, "dir /etc/vlalab/scenarios") < strstr(spec, "file /etc/vlalab/scenarios/a.json"),
	    "a folder comes before its files");
	snprintf(line, sizeof(line), "file /usr/sbin/prog %s 755 0 0", prog);
	okf(has_line(spec, line), "a host program at its guest path");
	okf(!has_line(spec, "slink /sbin/ip /bin/busybox 777 0 0") &&
		    has_line(spec, "file /sbin/ip /usr/bin/true 755 0 0"),
	    "a host program replaces the busybox applet at its path, symlinks resolved");
	okf(realpath("/lib64/ld-linux-x86-64.so.2", ld) && realpath("/lib/x86_64-linux-gnu/libc.so.6", libc),
	    "the host has the loader and libc where Debian puts them");
	snprintf(line, sizeof(line), "file /lib64/ld-linux-x86-64.so.2 %s 755 0 0", ld);
	okf(has_line(spec, line) && has_line(spec, "dir /lib64 755 0 0") &&
		    strstr(spec, "dir /lib64 ") < strstr(spec, "file /lib64/"),
	    "the ELF interpreter at its PT_INTERP path, after its folder");
	snprintf(line, sizeof(line), "file /lib/x86_64-linux-gnu/libc.so.6 %s 755 0 0", libc);
	okf(has_line(spec, line) && has_line(spec, "dir /lib/x86_64-linux-gnu 755 0 0"),
	    "libc where the loader looks for it");
	{
		const char *first = strstr(spec, "file /lib/x86_64-linux-gnu/libc.so.6 ");

		okf(first && !strstr(first + 1, "file /lib/x86_64-linux-gnu/libc.so.6 "),
		    "a library two programs share is in once");
		first = strstr(spec, "dir /lib/x86_64-linux-gnu ");
		okf(first && !strstr(first + 1, "dir /lib/x86_64-linux-gnu "), "a library folder is made once");
	}
	free(spec);

	/* guestd is dynamic (json-c, libmnl): its libraries come along even
	 * when no other program is asked for. */
	{
		struct kbuild_image_opts og = o;
		struct kbuild_image_result rg;

		og.guestd = prog;
		og.programs = NULL;
		og.n_programs = 0;
		r = kbuild_image_build(&og, &rg);
		okf(r == 0, "an image with a dynamic guestd is packed (r=%d)", r);
		spec = unpacked(rg.path);
		snprintf(line, sizeof(line), "file /sbin/guestd %s 755 0 0", prog);
		okf(has_line(spec, line), "the dynamic guestd at /sbin/guestd");
		snprintf(line, sizeof(line), "file /lib/x86_64-linux-gnu/libc.so.6 %s 755 0 0", libc);
		okf(has_line(spec, line), "guestd's libraries with it");
		snprintf(line, sizeof(line), "file /lib64/ld-linux-x86-64.so.2 %s 755 0 0", ld);
		okf(has_line(spec, line), "and its loader");
		okf(strcmp(rg.key, r1.key) != 0, "another key than the image with programs");
		free(spec);
	}

	/* A kselftest step's folder, from the kernel's tree. */
	put("tree/tools/testing/selftests/ftrace/ftracetest", "#!/bin/sh\n", 0755);
	put("tree/tools/testing/selftests/ftrace/test.d/functions", "x=1\n", 0644);
	snprintf(k.tree, sizeof(k.tree), "%s/tree", tmp);
	{
		struct kbuild_image_opts ok = o;
		struct kbuild_image_result rk, rk2;
		const char *ks[] = { "ftrace" }, *bad[] = { ".." }, *none[] = { "net" };

		ok.kselftests = ks;
		ok.n_kselftests = 1;
		r = kbuild_image_build(&ok, &rk);
		okf(r == 0 && strcmp(rk.key, r1.key) != 0, "an image with selftests has its own key (r=%d)", r);
		spec = unpacked(rk.path);
		snprintf(line, sizeof(line),
			 "file /usr/lib/kselftest/ftrace/ftracetest %s/tree/tools/testing/selftests/ftrace/ftracetest 755 0 0",
			 tmp);
		okf(has_line(spec, line), "the tree's tools/testing/selftests/ftrace at /usr/lib/kselftest/ftrace");
		okf(has_line(spec, "dir /usr/lib/kselftest/ftrace 755 0 0") &&
			    has_line(spec, "dir /usr/lib/kselftest/ftrace/test.d 755 0 0"),
		    "with its folders");
		free(spec);
		put("tree/tools/testing/selftests/ftrace/test.d/functions", "x=2\n", 0644);
		r = kbuild_image_build(&ok, &rk2);
		okf(r == 0 && strcmp(rk.key, rk2.key) != 0, "the key changes with a selftest file's content");
		ok.kselftests = bad;
		okf(kbuild_image_build(&ok, &rk2) == -EINVAL, "a folder name '..' is refused");
		ok.kselftests = none;
		okf(kbuild_image_build(&ok, &rk2) == -ENOENT, "a folder the tree lacks is an error");
	}
	test_pinned(&k);

	r = kbuild_image_build(&o, &r2);
	okf(r == 0 && r2.cache_hit && !strcmp(r1.key, r2.key) && !strcmp(r1.path, r2.path),
	    "the same inputs are a cache hit");

#define VARY(what, stmt, undo)                                                                      \
	do {                                                                                        \
		stmt;                                                                               \
		r = kbuild_image_build(&o, &r3);                                                           \
		okf(r == 0 && strcmp(r3.key, r1.key) != 0 && !r3.cache_hit, "key changes with %s", what);   \
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
	VARY("a program's content",
	     kb_run_capture((char *[]){ "sh", "-c", "printf x >> \"$0\"", prog, NULL }, NULL, line, sizeof(line)),
	     kb_run_capture((char *[]){ "cp", "/bin/true", prog, NULL }, NULL, line, sizeof(line)));
	VARY("a program's guest path", progs[0].guest = "/usr/bin/prog", progs[0].guest = "/usr/sbin/prog");
	VARY("no programs", o.n_programs = 0, o.n_programs = 2);
	VARY("an extra file's mode", put("extra/etc/vlalab/scenarios/a.json", "{}", 0755),
	     put("extra/etc/vlalab/scenarios/a.json", "{}", 0644));
	r = kbuild_image_build(&o, &r3);
	okf(r == 0 && r3.cache_hit && !strcmp(r3.key, r1.key), "undoing every change gives the first key back");

	put("extra/bad name", "x", 0644);
	r = kbuild_image_build(&o, &r3);
	okf(r == -EINVAL, "a file name with a blank is refused (r=%d)", r);
	kb_rm_rf(extra);
	progs[0].guest = "usr/sbin/prog";
	r = kbuild_image_build(&o, &r3);
	okf(r == -EINVAL, "a relative guest path is refused (r=%d)", r);

	kb_rm_rf(tmp);
	return tap_done();
}
