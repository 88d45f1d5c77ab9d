// SPDX-License-Identifier: GPL-2.0-only
/*
 * A user's kernel tree (hostctl run --tree DIR, docs/kernel.md "Your own
 * kernel"): what names it in the cache key, whether patched's object tree
 * can seed its first build, and the private copy our series is applied to.
 * The user's tree is only read: every build goes to an O= object tree in
 * the cache, and git runs with --no-optional-locks so that not even its
 * index is refreshed.
 */
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kb.h"

static bool is_git_top(const char *tree)
{
	char top[PATH_MAX], real[PATH_MAX];
	char *argv[] = { "git",	      "--no-optional-locks", "-C", (char *)tree,
			 "rev-parse", "--show-toplevel",     NULL };

	return kb_run_capture(argv, NULL, top, sizeof(top)) == 0 &&
	       realpath(tree, real) && !strcmp(top, real);
}

/* The file list of a folder that is not a git checkout: "path size
 * mtime" lines, sorted so that the order readdir gives does not count. */
struct flist {
	char **v;
	size_t n, cap;
	size_t skip; /* the tree's path length, for relative names */
	int err;
};

static struct flist *fl;

static int flist_visit(const char *path, const struct stat *st, int type,
		       struct FTW *ftw)
{
	char *line;

	(void)ftw;
	if (type != FTW_F && type != FTW_SL)
		return 0;
	if (asprintf(&line, "%s %lld %lld.%09ld", path + fl->skip,
		     (long long)st->st_size, (long long)st->st_mtim.tv_sec,
		     st->st_mtim.tv_nsec) < 0) {
		fl->err = -ENOMEM;
		return 1;
	}
	if (fl->n == fl->cap) {
		size_t cap = fl->cap ? fl->cap * 2 : 4096;
		char **v = reallocarray(fl->v, cap, sizeof(*v));

		if (!v) {
			free(line);
			fl->err = -ENOMEM;
			return 1;
		}
		fl->v = v;
		fl->cap = cap;
	}
	fl->v[fl->n++] = line;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int kb_files_id(const char *tree, char ret_hex[65])
{
	struct flist l = { .skip = strlen(tree) };
	struct kb_hash *h = NULL;
	int r;

	fl = &l;
	r = nftw(tree, flist_visit, 32, FTW_PHYS) < 0 ? -errno : l.err;
	fl = NULL;
	if (r == 0 && !l.n)
		r = -ENOENT;
	if (r == 0) {
		qsort(l.v, l.n, sizeof(*l.v), cmp_str);
		r = kb_hash_new(&h);
	}
	for (size_t i = 0; r == 0 && i < l.n; i++)
		r = kb_hash_add_str(h, "file", l.v[i]);
	if (r == 0)
		r = kb_hash_final(h, ret_hex);
	kb_hash_free(h);
	kb_strv_free(l.v, l.n);
	return r;
}

int kb_usertree_id(const char *tree, char *buf, size_t len, char *err,
		   size_t errlen)
{
	char *head[] = { "git",	      "--no-optional-locks",
			 "-C",	      (char *)tree,
			 "rev-parse", "--verify",
			 "HEAD",      NULL };
	char *status[] = { "git",
			   "--no-optional-locks",
			   "-C",
			   (char *)tree,
			   "status",
			   "--porcelain",
			   "--untracked-files=no",
			   NULL };
	char out[4096], hex[65];
	struct stat st;
	int r;

	if (stat(tree, &st) < 0 || !S_ISDIR(st.st_mode)) {
		r = stat(tree, &st) < 0 ? -errno : -ENOTDIR;
		snprintf(err, errlen, "'%s': %s", tree, strerror(-r));
		return r;
	}
	if (!is_git_top(tree)) {
		r = kb_files_id(tree, hex);
		if (r < 0) {
			snprintf(err, errlen,
				 "cannot list the files of '%s': %s", tree,
				 strerror(-r));
			return r;
		}
		return kb_path(buf, len, "files:%s", hex);
	}
	r = kb_run_capture(head, NULL, out, sizeof(out));
	if (r < 0 || strlen(out) != 40) {
		snprintf(err, errlen,
			 "'%s' is a git checkout without a commit at HEAD",
			 tree);
		return -EINVAL;
	}
	r = kb_path(buf, len, "git:%s", out);
	if (r < 0)
		return r;
	r = kb_run_capture(status, NULL, out, sizeof(out));
	if (r < 0) {
		snprintf(err, errlen, "git status in '%s' failed", tree);
		return r;
	}
	if (*out) {
		snprintf(
			err, errlen,
			"'%s' has uncommitted changes to tracked files (%.*s); commit or stash them: the cache key names the commit, so a build of other content could not be told from its build",
			tree, (int)strcspn(out, "\n"), out);
		return -EBUSY;
	}
	return 0;
}

/* The newest mtime below a folder. */
static struct timespec newest;

static int newest_visit(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	(void)path;
	(void)ftw;
	if (type == FTW_F && (st->st_mtim.tv_sec > newest.tv_sec ||
			      (st->st_mtim.tv_sec == newest.tv_sec &&
			       st->st_mtim.tv_nsec > newest.tv_nsec)))
		newest = st->st_mtim;
	return 0;
}

struct seedable {
	const char *tree, *from;
	struct timespec newest;
	char bad[PATH_MAX];
	unsigned same, newer;
};

static struct seedable *sd;

static int seed_visit(const char *path, const struct stat *st, int type,
		      struct FTW *ftw)
{
	const char *rel = path + strlen(sd->tree);
	char other[PATH_MAX];
	struct stat ost;

	if (type == FTW_D && ftw->level == 1 &&
	    !strcmp(path + ftw->base, ".git"))
		return FTW_SKIP_SUBTREE;
	if (type != FTW_F)
		return FTW_CONTINUE;
	if (kb_path(other, sizeof(other), "%s%s", sd->from, rel) == 0 &&
	    lstat(other, &ost) == 0 && ost.st_size == st->st_size &&
	    ost.st_mtim.tv_sec == st->st_mtim.tv_sec &&
	    ost.st_mtim.tv_nsec == st->st_mtim.tv_nsec) {
		sd->same++;
		return FTW_CONTINUE;
	}
	if (st->st_mtim.tv_sec > sd->newest.tv_sec ||
	    (st->st_mtim.tv_sec == sd->newest.tv_sec &&
	     st->st_mtim.tv_nsec > sd->newest.tv_nsec)) {
		sd->newer++;
		return FTW_CONTINUE;
	}
	snprintf(sd->bad, sizeof(sd->bad), "%s", rel + 1);
	return FTW_STOP;
}

int kb_usertree_seedable(const char *tree, const char *from_tree,
			 const char *from_obj, char *err, size_t errlen)
{
	struct seedable s = { .tree = tree, .from = from_tree };
	int r;

	newest = (struct timespec){ 0 };
	if (nftw(from_obj, newest_visit, 32, FTW_PHYS) < 0)
		return -errno;
	s.newest = newest;
	sd = &s;
	r = nftw(tree, seed_visit, 32, FTW_PHYS | FTW_ACTIONRETVAL);
	sd = NULL;
	if (r < 0)
		return -errno;
	if (s.bad[0]) {
		snprintf(err, errlen,
			 "'%s' differs from %s's and is older than its objects",
			 s.bad, from_tree);
		return 0;
	}
	/* Seeding is correct then too, but the copy buys nothing. */
	if (s.same < s.newer) {
		snprintf(err, errlen,
			 "%u of its files differ from %s's, %u are the same",
			 s.newer, from_tree, s.same);
		return 0;
	}
	return 1;
}

int kb_usertree_copy(const char *tree, const char *id, const char *copy,
		     int log_fd)
{
	char tmp[PATH_MAX];
	struct stat st;
	int r;

	r = kb_path(tmp, sizeof(tmp), "%s.tmp", copy);
	if (r < 0)
		return r;
	if (strncmp(id, "git:", 4)) {
		/* Not git: a fresh copy, mtimes kept. */
		char *cp[] = { "cp", "-a", "--reflink=auto", "--", (char *)tree,
			       tmp,  NULL };

		r = kb_rm_rf(tmp);
		if (r == 0)
			r = kb_run_logged(cp, NULL, log_fd, NULL, NULL);
		if (r == 0)
			r = kb_rm_rf(copy);
		if (r == 0 && rename(tmp, copy) < 0)
			r = -errno;
		return r;
	}
	if (stat(copy, &st) < 0) {
		char *clone[] = {
			"git", "clone",	     "-q", "--shared", "--no-checkout",
			"--",  (char *)tree, tmp,  NULL
		};

		r = kb_rm_rf(tmp);
		if (r == 0)
			r = kb_run_logged(clone, NULL, log_fd, NULL, NULL);
		if (r == 0 && rename(tmp, copy) < 0)
			r = -errno;
		if (r < 0)
			return r;
	}
	/* checkout -f writes what differs with a new mtime, so the object
	 * tree sees each change; clean removes what the last series added. */
	{
		char *checkout[] = { "git",	 "-C",		 (char *)copy,
				     "checkout", "-q",		 "-f",
				     "--detach", (char *)id + 4, NULL };
		char *clean[] = { "git", "-C", (char *)copy, "clean",
				  "-q",	 "-f", "-d",	     NULL };

		r = kb_run_logged(checkout, NULL, log_fd, NULL, NULL);
		if (r == 0)
			r = kb_run_logged(clean, NULL, log_fd, NULL, NULL);
	}
	return r;
}
