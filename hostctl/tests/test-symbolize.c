// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/symbolize.c. The frame grammar: the frames the
 * kernel prints (a plain one, "? ", a RIP's segment, .cold, a module with
 * and without a build ID) parse; the shell and awk payloads of issue 28,
 * over-long names, bad hex and bad modules do not. The resolver, on this
 * test's own executable standing in for vmlinux (and, copied to a
 * modules folder, for a .ko): a return address inside a function inlined
 * into another resolves to both file:line places, and lines that are not
 * frames come out byte for byte.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fcntl.h>

#include <elfutils/libdwelf.h>
#include <libelf.h>

#include "crash/symbolize.h"
#include "tap.h"

/* This build has DWARF: the resolver's line tests can run. */
static bool have_dwarf;

static int parse(const char *line, struct sym_frame *f)
{
	return sym_parse_frame(line, strlen(line), f);
}

static void test_good(void)
{
	struct sym_frame f;
	const char *l;

	l = "[    5.945475]  dump_stack_lvl+0x33/0x42";
	is_int(parse(l, &f), 0, "a plain frame parses");
	is_str(f.name, "dump_stack_lvl", "its name");
	ok(f.offset == 0x33 && f.size == 0x42, "its offset and size");
	is_str(f.module, "", "no module");
	ok(!f.exact, "a return address");
	ok(f.start == 16 && f.end == strlen(l), "its bytes in the line");

	l = "[    5.945684]  ? _printk+0x68/0x7f";
	is_int(parse(l, &f), 0, "an unreliable frame parses");
	is_str(f.name, "_printk", "the '?' is not part of the name");

	l = "[    2.212809] RIP: 0010:fortify_panic+0xf/0x11";
	is_int(parse(l, &f), 0, "a RIP line parses");
	ok(f.exact && strcmp(f.name, "fortify_panic") == 0 && f.offset == 0xf,
	   "the RIP's segment is dropped, its address is exact");

	is_int(parse(" lkdtm_ARRAY_BOUNDS.cold+0xa3/0xea\r", &f), 0,
	       ".cold and a CR parse");
	is_str(f.name, "lkdtm_ARRAY_BOUNDS.cold", "the name keeps .cold");
	ok(f.end == strlen(" lkdtm_ARRAY_BOUNDS.cold+0xa3/0xea"),
	   "the CR is not part of the frame");

	l = "[    1.0]  dsa_loop_get_strings+0x1c/0x90 [dsa_loop]";
	is_int(parse(l, &f), 0, "a module frame parses");
	is_str(f.module, "dsa_loop", "its module");
	ok(f.end == strlen("[    1.0]  dsa_loop_get_strings+0x1c/0x90"),
	   "the frame ends before the module");

	is_int(parse("  f+0x1/0x2 [my-mod 0123456789abcdef]", &f), 0,
	       "a module with a build ID parses");
	is_str(f.module, "my-mod", "its module, without the build ID");
	is_int(parse("a$b_c.1+0xffffffffffffffff/0xFFFFFFFFFFFFFFFF", &f), 0,
	       "every symbol character and 16 hex digits parse");
}

static void test_bad(void)
{
	char line[SYM_LINE_MAX + 64];
	struct sym_frame f;

	/* Issue 28's payloads, and variants without blanks that reached
	 * awk and bash's $((...)) through decode_stacktrace.sh. */
	is_int(parse("[    1.0]  x\"||system(\"touch /tmp/T/p1\")||\"+0x1/0x2",
		     &f),
	       -EINVAL, "the awk payload is not a frame");
	is_int(parse("[    1.0]  x\"||system(\"touch${IFS}/tmp/T/p1\")>=0||\"+0x1/0x2",
		     &f),
	       -EINVAL, "the awk payload without blanks is not a frame");
	is_int(parse("[    1.0]  f+a[$(touch /tmp/T/p2)]/0x1 [mod]", &f),
	       -EINVAL, "the $(...) payload is not a frame");
	is_int(parse("[    1.0]  ? x+0x1/0x2 ksys_write+a[$(touch${IFS}/tmp/T/p2)]/0x1",
		     &f),
	       -EINVAL, "the $(...) payload without blanks is not a frame");
	is_int(parse("  f+0x1/0x2 [$(touch /tmp/T/p3)]", &f), -EINVAL,
	       "a payload as the module is not a frame");
	is_int(parse("  f`id`+0x1/0x2", &f), -EINVAL, "backquotes");
	is_int(parse("  f;id+0x1/0x2", &f), -EINVAL, "a semicolon");

	memset(line, 'a', SYM_NAME_MAX);
	strcpy(line + SYM_NAME_MAX, "+0x1/0x2");
	is_int(parse(line, &f), 0, "a name of SYM_NAME_MAX parses");
	memset(line, 'a', SYM_NAME_MAX + 1);
	strcpy(line + SYM_NAME_MAX + 1, "+0x1/0x2");
	is_int(parse(line, &f), -EINVAL, "one longer does not");
	memset(line, ' ', sizeof(line));
	strcpy(line + SYM_LINE_MAX - 5, "f+0x1/0x2");
	is_int(parse(line, &f), -EINVAL, "a line over SYM_LINE_MAX is copied");

	is_int(parse(" f+0xg/0x2", &f), -EINVAL, "bad hex digit");
	is_int(parse(" f+0x/0x2", &f), -EINVAL, "no hex digit");
	is_int(parse(" f+1/0x2", &f), -EINVAL, "no 0x");
	is_int(parse(" f+0x1/0x2x", &f), -EINVAL, "trailing junk");
	is_int(parse(" f+0x1/0x", &f), -EINVAL, "no size");
	is_int(parse(" f+0x11111111111111111/0x2", &f), -EINVAL,
	       "17 hex digits");
	is_int(parse(" +0x1/0x2", &f), -EINVAL, "no name");
	is_int(parse(" f+0x1/0x2 [mo$d]", &f), -EINVAL, "bad module character");
	is_int(parse(" f+0x1/0x2[mod]", &f), -EINVAL, "no blank before [");
	is_int(parse(" f+0x1/0x2 [mod xyz]", &f), -EINVAL, "bad build ID");
	is_int(parse(" f+0x1/0x2 []", &f), -EINVAL, "empty module");
	memset(line, 0, sizeof(line));
	strcpy(line, " f+0x1/0x2 [");
	memset(line + strlen(line), 'm', SYM_MODULE_MAX + 1);
	strcat(line, "]");
	is_int(parse(line, &f), -EINVAL, "module name too long");
	is_int(parse("[    2.1] RIP: 0033:0x466bc0", &f), -EINVAL,
	       "a user RIP without a symbol");
	is_int(parse("[    1.0] Call Trace:", &f), -EINVAL, "not a frame");
	is_int(parse("[    1.0]", &f), -EINVAL, "a timestamp alone");
	is_int(parse("", &f), -EINVAL, "an empty line");
	is_int(sym_parse_frame(" f\0g+0x1/0x2", 12, &f), -EINVAL, "a NUL byte");
	is_int(parse(" 001:f+0x1/0x2", &f), -EINVAL, "a short segment");
}

/*
 * A function inlined into another, and the return address of a call in
 * it: a frame inside the inlined code, as in a kernel trace.
 */
static uintptr_t seen_ra;
/* The lines of the calls of capture() and sym_test_inner() below. */
static const int inner_line = __LINE__ + 11;
static const int outer_line = __LINE__ + 17;

__attribute__((noinline)) static void capture(void)
{
	seen_ra = (uintptr_t)__builtin_return_address(0);
	__asm__ volatile("" ::: "memory");
}

static inline __attribute__((always_inline)) void sym_test_inner(void)
{
	capture();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void sym_test_outer(void);
__attribute__((noinline)) void sym_test_outer(void)
{
	sym_test_inner();
	__asm__ volatile("" ::: "memory");
}

/* sym_decode() of @text into a file, read back into a malloc'd string. */
static char *decode(struct sym_ctx *c, const char *text, struct sym_stats *st)
{
	FILE *f = tmpfile();
	char *buf;
	long len;

	if (!f)
		abort();
	if (sym_decode(c, text, strlen(text), f, st) < 0)
		printf("# sym_decode failed\n");
	len = ftell(f);
	buf = malloc((size_t)len + 1);
	rewind(f);
	if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len)
		abort();
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* Whether a line of @text starts with @pre and ends with @suf. */
static bool has_line(const char *text, const char *pre, const char *suf)
{
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (n >= strlen(pre) + strlen(suf) &&
		    strncmp(p, pre, strlen(pre)) == 0 &&
		    strncmp(p + n - strlen(suf), suf, strlen(suf)) == 0)
			return true;
		p = nl ? nl + 1 : NULL;
	}
	return false;
}

static void copy_file(const char *from, const char *to)
{
	char buf[65536];
	FILE *in = fopen(from, "r"), *out = fopen(to, "w");
	size_t n;

	if (!in || !out)
		abort();
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			abort();
	fclose(in);
	if (fclose(out) != 0)
		abort();
}

static void test_resolve(void)
{
	char dir[] = "/tmp/vlalab-test-sym-XXXXXX", ko[256], want[256];
	char self[4096], text[2048], *out;
	struct sym_ctx *c = NULL;
	struct sym_stats st;
	unsigned long off;
	ssize_t n;

	sym_test_outer();
	off = (unsigned long)(seen_ra - (uintptr_t)sym_test_outer);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0 || !mkdtemp(dir))
		abort();
	self[n] = '\0';
	snprintf(ko, sizeof(ko), "%s/kernel", dir);
	mkdir(ko, 0755);
	snprintf(ko, sizeof(ko), "%s/kernel/sym-test.ko", dir);
	copy_file(self, ko);

	is_int(sym_open("/nonexistent/vmlinux", NULL, NULL, &c), -ENOENT,
	       "a missing vmlinux: -ENOENT");
	is_int(sym_open(self, dir, NULL, &c), 0, "this test opens as vmlinux");
	if (!c)
		return;
	snprintf(text, sizeof(text),
		 "[    1.0] Call Trace:\n"
		 "[    1.0]  sym_test_outer+0x%lx/0x%lx\n"
		 "[    1.0]  x\"||system(\"touch${IFS}%s/p1\")>=0||\"+0x1/0x2\n"
		 "[    1.0]  ? sym_test_outer+0x%lx/0x%lx [sym_test]\n"
		 "[    1.0]  no_such_symbol_here+0x1/0x2\n"
		 "[    1.0]  sym_test_outer+0x1/0x2 [no_such_module]\n"
		 "[    1.0]  sym_test_outer+0x3/0x2\n"
		 "no newline at the end",
		 off, off + 0x100, dir, off, off + 0x100);
	out = decode(c, text, &st);
	tap_diag("decoded", out);
	have_dwarf = strstr(out, "(inlined)") != NULL;
	if (!have_dwarf) {
		/* Without DWARF (a build without -g), only the counts. */
		is_int(st.frames, 5, "five frames");
		printf("# this build has no line info: the rest skipped\n");
	} else {
		char pre[128], suf[128];

		snprintf(suf, sizeof(suf), "/test-symbolize.c:%d) (inlined)",
			 inner_line);
		okf(has_line(out, "[    1.0]  sym_test_inner (", suf),
		    "the inlined function at line %d", inner_line);
		snprintf(pre, sizeof(pre),
			 "[    1.0]  sym_test_outer+0x%lx/0x%lx (", off,
			 off + 0x100);
		snprintf(suf, sizeof(suf), "/test-symbolize.c:%d)", outer_line);
		okf(has_line(out, pre, suf), "its caller at line %d",
		    outer_line);
		ok(strstr(out, "(inlined)\n[    1.0]  sym_test_outer+") != NULL,
		   "the inlined function's line comes first");
		snprintf(want, sizeof(want),
			 "[    1.0]  ? sym_test_outer+0x%lx/0x%lx (", off,
			 off + 0x100);
		okf(strstr(out, want) &&
			    strstr(strstr(out, want), ") [sym_test]\n"),
		    "a module frame resolves against its .ko, '-' read as '_'");
		is_int(st.frames, 5, "five frames");
		is_int(st.located, 2, "two with file:line");
		is_int(st.unknown, 3, "three not found");
	}
	snprintf(
		want, sizeof(want),
		"[    1.0]  x\"||system(\"touch${IFS}%s/p1\")>=0||\"+0x1/0x2\n",
		dir);
	ok(strstr(out, want) != NULL, "the payload line is copied as it is");
	ok(strstr(out, "[    1.0]  no_such_symbol_here+0x1/0x2\n") &&
		   strstr(out, "sym_test_outer+0x1/0x2 [no_such_module]\n") &&
		   strstr(out, "[    1.0]  sym_test_outer+0x3/0x2\n"),
	   "unknown symbol, module, offset past the end: copied");
	ok(strstr(out, "[    1.0] Call Trace:\n") && strlen(out) >= 21 &&
		   strcmp(out + strlen(out) - 21, "no newline at the end") == 0,
	   "other lines are copied, the last without its missing newline");
	snprintf(want, sizeof(want), "%s/p1", dir);
	ok(access(want, F_OK) < 0, "no payload ran");
	free(out);
	sym_close(c);
	unlink(ko);
	snprintf(ko, sizeof(ko), "%s/kernel", dir);
	rmdir(ko);
	rmdir(dir);
}

/* Change one byte of @path's GNU build ID, so that it is another build. */
static void flip_build_id(const char *path)
{
	const void *id;
	unsigned char b;
	off_t at;
	Elf *elf;
	int fd;

	/* Mapped, the ID points into the file's image. */
	elf_version(EV_CURRENT);
	fd = open(path, O_RDWR);
	elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || dwelf_elf_gnu_build_id(elf, &id) <= 0)
		abort();
	at = (const char *)id - elf_rawfile(elf, NULL);
	elf_end(elf);
	if (pread(fd, &b, 1, at) != 1)
		abort();
	b ^= 0xff;
	if (pwrite(fd, &b, 1, at) != 1 || close(fd) != 0)
		abort();
}

/*
 * The staged modules are stripped: a module's DWARF comes from the .ko
 * of the same name and build ID in the object tree. @stripped is this
 * test's executable without its DWARF (objcopy --strip-debug, meson).
 */
static void test_objdir(const char *stripped)
{
	char d[] = "/tmp/vlalab-test-symobj-XXXXXX", path[512], mods[256];
	char self[4096], text[512], *out;
	struct sym_ctx *c = NULL;
	struct sym_stats st;
	unsigned long off;
	ssize_t n;

	if (!stripped || !have_dwarf) {
		printf("# skip the object tree: %s\n",
		       stripped ? "this build has no DWARF" :
				  "no stripped copy given");
		return;
	}
	off = (unsigned long)(seen_ra - (uintptr_t)sym_test_outer);
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n < 0 || !mkdtemp(d))
		abort();
	self[n] = '\0';
	snprintf(mods, sizeof(mods), "%s/mods", d);
	mkdir(mods, 0755);
	snprintf(path, sizeof(path), "%s/mods/sym-test.ko", d);
	copy_file(stripped, path);
	snprintf(path, sizeof(path), "%s/obj", d);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/obj/sub", d);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/obj/sub/sym_test.ko", d);
	copy_file(self, path);
	snprintf(path, sizeof(path), "%s/other", d);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/other/sym_test.ko", d);
	copy_file(self, path);
	flip_build_id(path);
	snprintf(text, sizeof(text),
		 "[    1.0]  sym_test_outer+0x%lx/0x%lx [sym_test]\n", off,
		 off + 0x100);

	snprintf(path, sizeof(path), "%s/obj", d);
	if (sym_open(self, mods, NULL, &c) < 0 || sym_set_objdir(c, path) < 0)
		abort();
	out = decode(c, text, &st);
	tap_diag("with the object tree", out);
	ok(st.located == 1 && strstr(out, "/test-symbolize.c:"),
	   "a stripped module takes file:line from the object tree's .ko");
	free(out);
	sym_close(c);

	snprintf(path, sizeof(path), "%s/other", d);
	if (sym_open(self, mods, NULL, &c) < 0 || sym_set_objdir(c, path) < 0)
		abort();
	out = decode(c, text, &st);
	ok(st.symbol_only == 1 && strcmp(out, text) == 0,
	   "not from a .ko of another build ID: the symbol only, line copied");
	free(out);
	sym_close(c);

	snprintf(path, sizeof(path), "rm -rf '%s'", d);
	if (system(path) != 0)
		printf("# could not remove %s\n", d);
}

int main(int argc, char **argv)
{
	test_good();
	test_bad();
	test_resolve();
	test_objdir(argc > 1 ? argv[1] : NULL);
	return tap_done();
}
