// SPDX-License-Identifier: GPL-2.0-only
/*
 * The source tree and patch machinery on a tiny fake kernel tarball:
 * apply, partial revert keeping the common prefix, a patch that does not
 * apply (name and hunk shown, tree restored), re-unpacking when a revert
 * fails or the source version changes, and adoption of an unrecorded tree.
 * Runs tar and git, quickly.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"
#include "tap.h"
#include "tfile.h"

static char tmp[64];

static bool file_is(const char *rel, const char *want)
{
	char *t = tfile_get(tmp, rel);
	bool ok = !strcmp(t, want);

	free(t);
	return ok;
}

static struct timespec mtime_of(const char *rel)
{
	char path[PATH_MAX];
	struct stat st = { 0 };

	kb_path(path, sizeof(path), "%s/%s", tmp, rel);
	stat(path, &st);
	return st.st_mtim;
}

static const char orig[] = "one\ntwo\nthree\nfour\nfive\n";

static const char patch_a[] = "From 1 Mon Sep 17 00:00:00 2001\n"
			      "From: Test <test@example.org>\n"
			      "Subject: [PATCH 1/2] lib/a: shout three\n"
			      "\n"
			      "---\n"
			      " lib/a.c | 2 +-\n"
			      "\n"
			      "diff --git a/lib/a.c b/lib/a.c\n"
			      "--- a/lib/a.c\n"
			      "+++ b/lib/a.c\n"
			      "@@ -1,5 +1,5 @@\n"
			      " one\n"
			      " two\n"
			      "-three\n"
			      "+THREE\n"
			      " four\n"
			      " five\n";

static const char patch_b[] = "Subject: [PATCH 2/2] lib/b: shout four\n"
			      "\n"
			      "diff --git a/lib/b.c b/lib/b.c\n"
			      "--- a/lib/b.c\n"
			      "+++ b/lib/b.c\n"
			      "@@ -2,4 +2,4 @@\n"
			      " two\n"
			      " three\n"
			      "-four\n"
			      "+FOUR\n"
			      " five\n";

/* 0002 as another line's own file: the same place, another change. */
static const char patch_b_port[] = "Subject: [PATCH 2/2] lib/b: capitalise four\n"
				   "\n"
				   "diff --git a/lib/b.c b/lib/b.c\n"
				   "--- a/lib/b.c\n"
				   "+++ b/lib/b.c\n"
				   "@@ -3,3 +3,3 @@\n"
				   " three\n"
				   "-four\n"
				   "+Four\n"
				   " five\n";

/* Context that is not in the file: does not apply. */
static const char patch_bad[] =
	"Subject: [PATCH] lib/b: against another version\n"
	"\n"
	"diff --git a/lib/b.c b/lib/b.c\n"
	"--- a/lib/b.c\n"
	"+++ b/lib/b.c\n"
	"@@ -1,3 +1,3 @@\n"
	" uno\n"
	"-dos\n"
	"+DOS\n"
	" tres\n";

static int run(char *const argv[])
{
	pid_t pid;
	int r = kb_spawn(argv, NULL, -1, -1, 2, &pid);

	return r < 0 ? r : kb_wait(pid, NULL);
}

/* kb_tree_prepare() of trees/<name> with the series series_text of
 * patches/<line> (NULL: patches/ itself), whose names fall back to
 * patches/ for another line. */
static int prepare_line(const char *name, const char *line,
			const char *version, const char *series_text,
			char **ret_msg)
{
	char cache[PATH_MAX], tarball[PATH_MAX], patches[PATH_MAX],
		shared[PATH_MAX], tree[PATH_MAX], err[256];
	struct kb_series s = { 0 };
	struct kb_progress p;
	size_t len = 0;
	FILE *msg;
	int r;

	kb_path(cache, sizeof(cache), "%s/cache", tmp);
	kb_path(tarball, sizeof(tarball), "%s/linux.tar.xz", tmp);
	kb_path(shared, sizeof(shared), "%s/patches", tmp);
	if (line)
		kb_path(patches, sizeof(patches), "%s/patches/%s", tmp, line);
	else
		kb_path(patches, sizeof(patches), "%s/patches", tmp);
	*ret_msg = NULL;
	msg = open_memstream(ret_msg, &len);
	kb_progress_init(&p, msg, false);
	r = kb_series_parse("series", series_text, &s, err, sizeof(err));
	if (r == 0)
		r = kb_tree_prepare(
			&(struct kb_tree_opts){
				.cache_dir = cache,
				.flavour = name,
				.tarball = tarball,
				.source_version = version,
				.patches_dir = patches,
				.shared_dir = line ? shared : NULL,
				.series = &s,
				.log_fd = -1,
				.p = &p,
			},
			tree, sizeof(tree));
	kb_series_free(&s);
	fclose(msg);
	return r;
}

static int prepare(const char *version, const char *series_text, char **ret_msg)
{
	return prepare_line("patched", NULL, version, series_text, ret_msg);
}

int main(void)
{
	char *msg = NULL, *id1, *id2, *rec;
	struct timespec a1, a2;
	char path[PATH_MAX];
	int r;

	snprintf(tmp, sizeof(tmp), "/tmp/kbuild-test-tree-XXXXXX");
	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	kb_path(path, sizeof(path), "%s/src/linux-6.1/lib", tmp);
	kb_mkdir_p(path, 0755);
	kb_path(path, sizeof(path), "%s/patches", tmp);
	kb_mkdir_p(path, 0755);
	tfile_put(
		tmp, "src/linux-6.1/Makefile",
		"VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 192\nEXTRAVERSION =\n");
	tfile_put(tmp, "src/linux-6.1/lib/a.c", orig);
	tfile_put(tmp, "src/linux-6.1/lib/b.c", orig);
	tfile_put(tmp, "patches/0001-a.patch", patch_a);
	tfile_put(tmp, "patches/0002-b.patch", patch_b);
	tfile_put(tmp, "patches/0003-bad.patch", patch_bad);
	{
		char tarball[PATH_MAX], src[PATH_MAX];
		char *argv[] = { "tar", "-cJf",	     tarball, "-C",
				 src,	"linux-6.1", NULL };

		kb_path(tarball, sizeof(tarball), "%s/linux.tar.xz", tmp);
		kb_path(src, sizeof(src), "%s/src", tmp);
		if (run(argv) < 0) {
			printf("Bail out! tar\n");
			return 1;
		}
	}

	/* 1. Fresh unpack and the whole series. */
	r = prepare("6.1.192-3", "0001-a.patch\n0002-b.patch\n", &msg);
	okf(r == 0, "unpack and apply two patches (r=%d) %s", r, msg);
	free(msg);
	okf(file_is("cache/trees/patched/lib/a.c",
		    "one\ntwo\nTHREE\nfour\nfive\n"),
	    "0001 applied");
	okf(file_is("cache/trees/patched/lib/b.c",
		    "one\ntwo\nthree\nFOUR\nfive\n"),
	    "0002 applied");
	okf(file_is("cache/trees/patched/.vlalab/applied/series",
		    "0001-a.patch\n0002-b.patch\n"),
	    "the record lists both");
	okf(file_is("cache/trees/patched/.vlalab/source-version", "6.1.192-3"),
	    "the source version stamp");
	id1 = tfile_get(tmp, "cache/trees/patched/.vlalab/tree-id");

	/* 2. Same series again: nothing touched. */
	a1 = mtime_of("cache/trees/patched/lib/a.c");
	usleep(20000);
	r = prepare("6.1.192-3", "0001-a.patch\n0002-b.patch\n", &msg);
	free(msg);
	a2 = mtime_of("cache/trees/patched/lib/a.c");
	okf(r == 0 && a1.tv_sec == a2.tv_sec && a1.tv_nsec == a2.tv_nsec,
	    "an unchanged series touches nothing");

	/* 3. Drop the second patch: only it is reverted. */
	r = prepare("6.1.192-3", "0001-a.patch\n", &msg);
	free(msg);
	a2 = mtime_of("cache/trees/patched/lib/a.c");
	okf(r == 0 && file_is("cache/trees/patched/lib/b.c", orig),
	    "0002 reverted");
	okf(a1.tv_sec == a2.tv_sec && a1.tv_nsec == a2.tv_nsec,
	    "the common prefix (0001) was not touched");
	okf(file_is("cache/trees/patched/.vlalab/applied/series",
		    "0001-a.patch\n"),
	    "the record follows");

	/* 4. A patch that does not apply: named, hunk shown, tree restored. */
	r = prepare("6.1.192-3", "0001-a.patch\n0002-b.patch\n0003-bad.patch\n",
		    &msg);
	okf(r == -EINVAL, "a patch that does not apply fails (r=%d)", r);
	okf(msg && strstr(msg,
			  "patch '0003-bad.patch' (series line 3) does not apply"),
	    "the message names the patch and its series line");
	okf(msg && strstr(msg, "@@ -1,3 +1,3 @@") && strstr(msg, "+DOS"),
	    "the rejected hunk is shown");
	okf(msg && strstr(msg, "git: error: patch failed: lib/b.c:1"),
	    "git's reason is shown");
	for (char *s = msg ? strtok(msg, "\n") : NULL; s;
	     s = strtok(NULL, "\n"))
		printf("# %s\n", s);
	free(msg);
	okf(file_is("cache/trees/patched/lib/b.c", orig),
	    "0002 applied in the failed run was reverted");
	okf(file_is("cache/trees/patched/.vlalab/applied/series",
		    "0001-a.patch\n"),
	    "the record is back at the common prefix");
	kb_path(path, sizeof(path), "%s/cache/trees/patched/lib/b.c.rej", tmp);
	okf(access(path, F_OK) < 0, "no .rej left in the tree");

	/* 5. A revert that fails (tree edited by hand) unpacks again. */
	tfile_put(tmp, "cache/trees/patched/lib/a.c", "edited\n");
	r = prepare("6.1.192-3", "", &msg);
	okf(r == 0 && msg && strstr(msg, "cannot revert '0001-a.patch'"),
	    "a failed revert is reported");
	free(msg);
	okf(file_is("cache/trees/patched/lib/a.c", orig),
	    "the tree was unpacked again");
	id2 = tfile_get(tmp, "cache/trees/patched/.vlalab/tree-id");
	okf(strcmp(id1, id2) != 0, "a new unpacking gets a new tree-id");
	free(id1);
	id1 = id2;

	/* 6. A new source version unpacks again. */
	r = prepare("6.1.192-4", "0001-a.patch\n", &msg);
	free(msg);
	id2 = tfile_get(tmp, "cache/trees/patched/.vlalab/tree-id");
	okf(r == 0 && strcmp(id1, id2) != 0 &&
		    file_is("cache/trees/patched/.vlalab/source-version",
			    "6.1.192-4"),
	    "a new source version unpacks again");
	free(id1);
	free(id2);

	/* 7. A tree without a record, as unpacked by hand: adopted. */
	{
		char meta[PATH_MAX];

		kb_path(meta, sizeof(meta), "%s/cache/trees/patched/.vlalab",
			tmp);
		kb_rm_rf(meta);
		tfile_put(tmp, "cache/trees/patched/lib/a.c", orig);
	}
	r = prepare("6.1.192-3", "0001-a.patch\n", &msg);
	okf(r == 0 && msg && strstr(msg, "adopted"),
	    "an unrecorded tree of the right version is adopted");
	free(msg);
	rec = tfile_get(tmp, "cache/trees/patched/.vlalab/tree-id");
	okf(!strcmp(rec, "adopted"), "its tree-id says so");
	free(rec);
	okf(file_is("cache/trees/patched/lib/a.c",
		    "one\ntwo\nTHREE\nfour\nfive\n"),
	    "and patched");

	/* 8. Another line (docs/kernel.md, "Lines"): its series takes 0001
	 * from patches/ and its own 0002 from patches/6.12/, in a tree of its
	 * own; 6.1's tree is left as it was. */
	tfile_put(tmp, "patches/6.12/0002-b.patch", patch_b_port);
	r = prepare_line("patched@6.12", "6.12", "6.12.118-1",
			 "0001-a.patch\n0002-b.patch\n", &msg);
	okf(r == 0, "another line's series applies (r=%d) %s", r, msg);
	free(msg);
	okf(file_is("cache/trees/patched@6.12/lib/a.c",
		    "one\ntwo\nTHREE\nfour\nfive\n"),
	    "the shared 0001 from patches/");
	okf(file_is("cache/trees/patched@6.12/lib/b.c",
		    "one\ntwo\nthree\nFour\nfive\n"),
	    "the line's own 0002 from patches/6.12/, not 6.1's");
	okf(file_is("cache/trees/patched/lib/b.c", orig),
	    "6.1's tree untouched");

	kb_rm_rf(tmp);
	return tap_done();
}
