// SPDX-License-Identifier: GPL-2.0-only
/*
 * Seeding a flavour's trees from patched's (seed.c) in a scratch cache: the
 * copies, the .cmd and .d records rewritten to the new paths with their
 * mtimes kept, the source link, and the cases that must not seed.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"
#include "tap.h"
#include "tfile.h"

static char tmp[64];

static time_t mtime(const char *rel)
{
	char path[PATH_MAX];
	struct stat st;

	kb_path(path, sizeof(path), "%s/%s", tmp, rel);
	return stat(path, &st) == 0 ? st.st_mtime : -1;
}

static void set_mtime(const char *rel, time_t t)
{
	char path[PATH_MAX];
	struct timespec ts[2] = { { t, 0 }, { t, 0 } };

	kb_path(path, sizeof(path), "%s/%s", tmp, rel);
	utimensat(AT_FDCWD, path, ts, 0);
}

int main(void)
{
	char cmd[1024], want[1024], link[PATH_MAX], path[PATH_MAX];
	unsigned files = 0;
	char *text;
	ssize_t n;

	snprintf(tmp, sizeof(tmp), "/tmp/vlalab-test-seed-XXXXXX");
	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	tfile_put(tmp, "trees/patched/lib/bch.c", "int x;\n");
	tfile_put(tmp, "trees/patched/.vlalab/tree-id", "1.2.3");
	tfile_put(tmp, "obj/patched/.vlalab-tree-id", "1.2.3");
	snprintf(
		cmd, sizeof(cmd),
		"cmd_lib/bch.o := gcc -I%s/trees/patched/include -c -o lib/bch.o %s/trees/patched/lib/bch.c ; objtool %s/obj/patched/lib/bch.o\n"
		"deps_lib/bch.o := %s/trees/patched/lib/bch.c %s/trees/patched2/x.h\n",
		tmp, tmp, tmp, tmp, tmp);
	tfile_put(tmp, "obj/patched/lib/.bch.o.cmd", cmd);
	tfile_put(tmp, "obj/patched/lib/bch.o", "ELF");
	tfile_put(tmp, "obj/patched/.missing-syscalls.d", cmd);
	tfile_put(tmp, "obj/patched/lib/bch.s", cmd);
	set_mtime("obj/patched/lib/.bch.o.cmd", 1000000000);
	set_mtime("obj/patched/lib/bch.o", 1000000000);

	ok(kb_seed_flavour(tmp, "patched", "vla", -1, &files) == 0,
	   "vla is seeded from patched");
	okf(files == 2, "two records rewritten (got %u)", files);
	snprintf(
		want, sizeof(want),
		"cmd_lib/bch.o := gcc -I%s/trees/vla/include -c -o lib/bch.o %s/trees/vla/lib/bch.c ; objtool %s/obj/vla/lib/bch.o\n"
		"deps_lib/bch.o := %s/trees/vla/lib/bch.c %s/trees/patched2/x.h\n",
		tmp, tmp, tmp, tmp, tmp);
	text = tfile_get(tmp, "obj/vla/lib/.bch.o.cmd");
	is_str(text, want,
	       "the .cmd names the new trees, and not a longer name");
	free(text);
	text = tfile_get(tmp, "obj/vla/.missing-syscalls.d");
	ok(!strcmp(text, want), "a .d file too");
	free(text);
	text = tfile_get(tmp, "obj/vla/lib/bch.s");
	ok(!strcmp(text, cmd), "an output that is not a record is left alone");
	free(text);
	ok(mtime("obj/vla/lib/.bch.o.cmd") == 1000000000 &&
		   mtime("obj/vla/lib/bch.o") == 1000000000,
	   "mtimes are kept");
	text = tfile_get(tmp, "trees/vla/lib/bch.c");
	ok(!strcmp(text, "int x;\n"), "the source tree is copied");
	free(text);
	text = tfile_get(tmp, "obj/patched/lib/.bch.o.cmd");
	ok(!strcmp(text, cmd), "patched's records are untouched");
	free(text);
	kb_path(path, sizeof(path), "%s/obj/vla/source", tmp);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	kb_path(path, sizeof(path), "%s/trees/vla", tmp);
	okf(!strcmp(link, path), "obj/vla/source points at trees/vla: %s",
	    link);

	ok(kb_seed_flavour(tmp, "patched", "vla", -1, NULL) == -EEXIST,
	   "a flavour with trees is not seeded again");
	tfile_put(tmp, "obj/patched/.vlalab-tree-id", "4.5.6");
	ok(kb_seed_flavour(tmp, "patched", "kmalloc", -1, NULL) == -ENOENT,
	   "not from an object tree of another unpacking");
	kb_path(path, sizeof(path), "%s/trees/kmalloc", tmp);
	ok(access(path, F_OK) < 0, "and nothing of it is left");

	kb_rm_rf(tmp);
	return tap_done();
}
