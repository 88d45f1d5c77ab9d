// SPDX-License-Identifier: GPL-2.0-only
/*
 * A user's kernel tree (usertree.c) on tiny trees in a scratch folder:
 * the key's identity of a git checkout (a dirty one refused, untracked
 * files ignored) and of a plain folder, whether patched's object tree may
 * seed it, and the private copy the series is applied to, with the user's
 * tree left untouched.
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

static void set_mtime(const char *rel, time_t t)
{
	char path[PATH_MAX];
	struct timespec ts[2] = { { t, 0 }, { t, 0 } };

	kb_path(path, sizeof(path), "%s/%s", tmp, rel);
	utimensat(AT_FDCWD, path, ts, 0);
}

static int git(const char *rel, const char *a, const char *b, const char *c)
{
	char dir[PATH_MAX], out[256];
	char *argv[] = {
		"git", "-c", "user.name=t", "-c",      "user.email=t@e",
		"-C",  dir,  (char *)a,	    (char *)b, (char *)c,
		NULL
	};

	kb_path(dir, sizeof(dir), "%s/%s", tmp, rel);
	return kb_run_output(argv, NULL, out, sizeof(out));
}

static const char patch[] = "Subject: [PATCH] a: shout\n"
			    "\n"
			    "diff --git a/a.c b/a.c\n"
			    "--- a/a.c\n"
			    "+++ b/a.c\n"
			    "@@ -1,2 +1,2 @@\n"
			    "-one\n"
			    "+ONE\n"
			    " two\n";

int main(void)
{
	char tree[PATH_MAX], id[128], id2[128], err[1024], path[PATH_MAX];
	char copy[PATH_MAX], *s;
	time_t now = time(NULL);
	int r;

	printf("TAP version 13\n");
	snprintf(tmp, sizeof(tmp), "/tmp/kbuild-usertree-XXXXXX");
	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}

	/* A git checkout. */
	tfile_put(tmp, "git/a.c", "one\ntwo\n");
	tfile_put(tmp, "git/Makefile", "all:\n");
	kb_path(tree, sizeof(tree), "%s/git", tmp);
	if (git("git", "init", "-q", NULL) < 0 ||
	    git("git", "add", "-A", NULL) < 0 ||
	    git("git", "commit", "-qm", "base") < 0) {
		printf("Bail out! git\n");
		return 1;
	}
	r = kb_usertree_id(tree, id, sizeof(id), err, sizeof(err));
	okf(r == 0 && !strncmp(id, "git:", 4) && strlen(id) == 44,
	    "a clean checkout is its commit: %s", r == 0 ? id : err);
	tfile_put(tmp, "git/untracked.c", "x\n");
	r = kb_usertree_id(tree, id2, sizeof(id2), err, sizeof(err));
	okf(r == 0 && !strcmp(id, id2), "an untracked file changes nothing");
	tfile_put(tmp, "git/a.c", "one\ntwo\nthree\n");
	r = kb_usertree_id(tree, id2, sizeof(id2), err, sizeof(err));
	okf(r == -EBUSY && strstr(err, "uncommitted changes") &&
		    strstr(err, "a.c"),
	    "a changed tracked file is refused, naming it: %s", err);
	tfile_put(tmp, "git/a.c", "one\ntwo\n");
	git("git", "commit", "-qam", "same");

	/* A plain folder: names, sizes and mtimes. */
	tfile_put(tmp, "plain/a.c", "one\n");
	tfile_put(tmp, "plain/sub/b.c", "two\n");
	set_mtime("plain/a.c", now - 100);
	kb_path(path, sizeof(path), "%s/plain", tmp);
	r = kb_usertree_id(path, id, sizeof(id), err, sizeof(err));
	okf(r == 0 && !strncmp(id, "files:", 6), "a plain folder: %s",
	    r == 0 ? id : err);
	r = kb_usertree_id(path, id2, sizeof(id2), err, sizeof(err));
	okf(r == 0 && !strcmp(id, id2), "the same twice");
	set_mtime("plain/a.c", now - 50);
	r = kb_usertree_id(path, id2, sizeof(id2), err, sizeof(err));
	okf(r == 0 && strcmp(id, id2), "a new mtime is a new id");
	r = kb_usertree_id("/nonexistent/tree", id2, sizeof(id2), err,
			   sizeof(err));
	okf(r == -ENOENT && strstr(err, "/nonexistent/tree"),
	    "a missing tree: %s", err);

	/* Seeding: patched's tree and objects, and trees made from it. */
	tfile_put(tmp, "from/a.c", "one\n");
	tfile_put(tmp, "from/b.c", "two\n");
	tfile_put(tmp, "from/c.c", "three\n");
	tfile_put(tmp, "fromobj/a.o", "obj\n");
	set_mtime("from/a.c", now - 1000);
	set_mtime("from/b.c", now - 1000);
	set_mtime("from/c.c", now - 1000);
	set_mtime("fromobj/a.o", now - 500);
	{
		char from[PATH_MAX], fobj[PATH_MAX], to[PATH_MAX];
		char *cp[] = { "cp", "-a", from, to, NULL };

		kb_path(from, sizeof(from), "%s/from", tmp);
		kb_path(fobj, sizeof(fobj), "%s/fromobj", tmp);
		kb_path(to, sizeof(to), "%s/to", tmp);
		kb_run_output(cp, NULL, err, sizeof(err));
		r = kb_usertree_seedable(to, from, fobj, err, sizeof(err));
		is_int(r, 1, "a copy with its mtimes can be seeded");
		tfile_put(tmp, "to/b.c", "TWO\n");
		r = kb_usertree_seedable(to, from, fobj, err, sizeof(err));
		is_int(r, 1, "and with a file changed since the objects");
		set_mtime("to/b.c", now - 700);
		r = kb_usertree_seedable(to, from, fobj, err, sizeof(err));
		okf(r == 0 && strstr(err, "'b.c'"),
		    "not with one older than the objects: %s", err);
		set_mtime("to/b.c", now);
		tfile_put(tmp, "to/a.c", "ONE\n");
		tfile_put(tmp, "to/c.c", "THREE\n");
		r = kb_usertree_seedable(to, from, fobj, err, sizeof(err));
		okf(r == 0 && strstr(err, "3 of its files differ"),
		    "nor when most files differ: %s", err);
	}

	/* The private copy, at the commit, and the series on it. */
	kb_path(copy, sizeof(copy), "%s/copy", tmp);
	r = kb_usertree_id(tree, id, sizeof(id), err, sizeof(err));
	if (r == 0)
		r = kb_usertree_copy(tree, id, copy, 2);
	is_int(r, 0, "a copy of the checkout");
	s = tfile_get(tmp, "copy/a.c");
	is_str(s, "one\ntwo\n", "holds its files");
	free(s);
	tfile_put(tmp, "p/0001-shout.patch", patch);
	kb_path(path, sizeof(path), "%s/p/0001-shout.patch", tmp);
	{
		struct kb_progress p;

		kb_progress_init(&p, stdout, false);
		r = kb_tree_apply(&(struct kb_tree_opts){ .log_fd = 2,
							  .p = &p },
				  copy, path, "# (failed)");
	}
	is_int(r, 0, "the series applies to the copy");
	s = tfile_get(tmp, "copy/a.c");
	is_str(s, "ONE\ntwo\n", "the copy is patched");
	free(s);
	s = tfile_get(tmp, "git/a.c");
	is_str(s, "one\ntwo\n", "the user's tree is not");
	free(s);
	r = kb_usertree_copy(tree, id, copy, 2);
	s = tfile_get(tmp, "copy/a.c");
	okf(r == 0 && !strcmp(s, "one\ntwo\n"),
	    "copying again puts the commit back");
	free(s);
	tfile_put(tmp, "git/a.c", "one\n2\n");
	git("git", "commit", "-qam", "two");
	r = kb_usertree_id(tree, id, sizeof(id), err, sizeof(err));
	if (r == 0)
		r = kb_usertree_copy(tree, id, copy, 2);
	s = tfile_get(tmp, "copy/a.c");
	okf(r == 0 && !strcmp(s, "one\n2\n"),
	    "and follows a new commit of the user's tree");
	free(s);

	kb_rm_rf(tmp);
	return tap_done();
}
