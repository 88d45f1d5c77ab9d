// SPDX-License-Identifier: GPL-2.0-only
/*
 * The source tree of a flavour: trees/<flavour>/ unpacked from the tarball
 * (a stamp records the source version), with the patch series applied.
 *
 * trees/<flavour>/.vlalab/ holds source-version and applied/: a copy of
 * every applied patch and applied/series, their order. The record always
 * matches the tree. To move to a new series, the patches after the common
 * prefix (same names, same content) are reverse-applied newest first, and
 * the rest of the new series is applied with `git apply` (atomic per patch,
 * works outside a repository). Unchanged patches are never touched, so
 * their files keep their mtimes and make rebuilds only what changed.
 */
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"

#define REJ_LINES_MAX 80

int kb_tree_makefile_version(const char *tree, char *buf, size_t len)
{
	char path[PATH_MAX], *text = NULL;
	long v[3] = { -1, -1, -1 };
	static const char *const keys[] = { "VERSION = ", "PATCHLEVEL = ",
					    "SUBLEVEL = " };
	int r;

	r = kb_path(path, sizeof(path), "%s/Makefile", tree);
	if (r < 0)
		return r;
	r = fileio_read(path, FILEIO_ALL, &text, NULL, NULL);
	if (r < 0)
		return r;
	for (int i = 0; i < 3; i++) {
		for (const char *s = text; s && *s;
		     s = strchr(s, '\n'), s = s ? s + 1 : NULL) {
			if (!strncmp(s, keys[i], strlen(keys[i]))) {
				v[i] = strtol(s + strlen(keys[i]), NULL, 10);
				break;
			}
		}
	}
	free(text);
	if (v[0] < 0 || v[1] < 0 || v[2] < 0)
		return -EBADMSG;
	return snprintf(buf, len, "%ld.%ld.%ld", v[0], v[1], v[2]) < (int)len ?
		       0 :
		       -ENAMETOOLONG;
}

/* "6.1.192-3" -> "6.1.192". */
static void upstream_version(const char *src, char *buf, size_t len)
{
	size_t n = strcspn(src, "-+~");

	snprintf(buf, len, "%.*s", (int)n, src);
}

/* .vlalab/tree-id names one unpacking of the tree. The object tree records
 * the id it was built from; unpacked files carry the archive's old mtimes,
 * so a new id means the object tree must be wiped (prepare.c). */
static int write_tree_id(const char *tree, bool adopted)
{
	char path[PATH_MAX], id[64];
	struct timespec ts;
	int r;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (adopted)
		snprintf(id, sizeof(id), "adopted");
	else
		snprintf(id, sizeof(id), "%lld.%09ld.%ld", (long long)ts.tv_sec,
			 ts.tv_nsec, (long)getpid());
	r = kb_path(path, sizeof(path), "%s/.vlalab/tree-id", tree);
	if (r == 0)
		r = fileio_write_atomic(path, id, strlen(id));
	return r;
}

static int unpack(const struct kb_tree_opts *o, const char *tree)
{
	char tmp[PATH_MAX], stamp[PATH_MAX];
	int r;

	r = kb_path(tmp, sizeof(tmp), "%s.unpack", tree);
	if (r < 0)
		return r;
	kb_progress_stage(o->p, "unpacking the kernel source");
	r = kb_rm_rf(tmp);
	if (r == 0)
		r = kb_mkdir_p(tmp, 0755);
	if (r == 0) {
		char *argv[] = { "tar", "-xf", (char *)o->tarball,
				 "-C",	tmp,   "--strip-components=1",
				 NULL };

		r = kb_run_logged(argv, NULL, o->log_fd, NULL, NULL);
		if (r < 0)
			kb_msg(o->p,
			       "kbuild: cannot unpack '%s' into '%s' (see the build log)",
			       o->tarball, tmp);
	}
	if (r == 0)
		r = kb_rm_rf(tree);
	if (r == 0 && rename(tmp, tree) < 0)
		r = -errno;
	if (r == 0)
		r = kb_path(stamp, sizeof(stamp), "%s/.vlalab/applied", tree);
	if (r == 0)
		r = kb_mkdir_p(stamp, 0755);
	if (r == 0)
		r = kb_path(stamp, sizeof(stamp), "%s/.vlalab/source-version",
			    tree);
	if (r == 0)
		r = fileio_write_atomic(stamp, o->source_version,
					strlen(o->source_version));
	if (r == 0)
		r = write_tree_id(tree, false);
	return r;
}

/* Reads applied/series: the names of the applied patches, in order. */
static int read_applied(const char *tree, char ***ret_names, char ***ret_sums,
			size_t *ret_n)
{
	char path[PATH_MAX], *text = NULL;
	char **names = NULL, **sums = NULL;
	size_t n = 0;
	int r;

	r = kb_path(path, sizeof(path), "%s/.vlalab/applied/series", tree);
	if (r < 0)
		return r;
	r = fileio_read(path, FILEIO_ALL, &text, NULL, NULL);
	if (r == -ENOENT) {
		*ret_names = *ret_sums = NULL;
		*ret_n = 0;
		return 0;
	}
	if (r < 0)
		return r;
	for (char *s = text, *e; *s; s = e + 1) {
		char **nv, **sv;

		e = strchr(s, '\n');
		if (!e)
			break;
		*e = '\0';
		if (!*s)
			continue;
		nv = realloc(names, (n + 1) * sizeof(*nv));
		if (!nv) {
			r = -ENOMEM;
			goto out;
		}
		names = nv;
		sv = realloc(sums, (n + 1) * sizeof(*sv));
		if (!sv) {
			r = -ENOMEM;
			goto out;
		}
		sums = sv;
		names[n] = strdup(s);
		sums[n] = malloc(65);
		n++;
		if (!names[n - 1] || !sums[n - 1]) {
			r = -ENOMEM;
			goto out;
		}
		r = kb_path(path, sizeof(path), "%s/.vlalab/applied/%s", tree,
			    s);
		if (r == 0)
			r = kb_sha256_file_hex(path, sums[n - 1]);
		if (r < 0)
			goto out;
	}
	*ret_names = names;
	*ret_sums = sums;
	*ret_n = n;
	names = sums = NULL;
out:
	if (names)
		kb_strv_free(names, n);
	if (sums)
		kb_strv_free(sums, n);
	free(text);
	return r;
}

static int write_applied(const char *tree, char *const *names, size_t n)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	r = kb_path(path, sizeof(path), "%s/.vlalab/applied/series", tree);
	if (r < 0)
		return r;
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s\n", names[i]);
	if (fclose(f) != 0) {
		free(buf);
		return -ENOMEM;
	}
	r = fileio_write_atomic(path, buf, len);
	free(buf);
	return r;
}

static int git_apply(const char *tree, const char *patch, bool reverse,
		     int log_fd)
{
	char *fwd[] = { "git", "apply", "--whitespace=nowarn", (char *)patch,
			NULL };
	char *rev[] = { "git",	       "apply", "-R", "--whitespace=nowarn",
			(char *)patch, NULL };

	return kb_run_logged(reverse ? rev : fwd, tree, log_fd, NULL, NULL);
}

static FILE *rej_out;
static unsigned rej_count;

static int print_rej(const char *path, const struct stat *st, int type,
		     struct FTW *ftw)
{
	size_t len = strlen(path);
	char *text = NULL;
	unsigned lines = 0;

	if (type != FTW_F || len < 4 || strcmp(path + len - 4, ".rej"))
		return 0;
	if (fileio_read(path, FILEIO_ALL, &text, NULL, NULL) < 0)
		return 0;
	rej_count++;
	for (const char *s = text; *s && lines < REJ_LINES_MAX; lines++) {
		const char *e = strchr(s, '\n');
		int l = e ? (int)(e - s) : (int)strlen(s);

		fprintf(rej_out, "  | %.*s\n", l, s);
		s += l + (e ? 1 : 0);
		if (lines + 1 == REJ_LINES_MAX && *s)
			fprintf(rej_out, "  | ... (truncated)\n");
	}
	free(text);
	return 0;
}

/* Shows why a patch does not apply: git's own message, then the rejected
 * hunks, from `git apply --reject` run on a scratch copy of the files the
 * patch touches (the tree itself is left as it was). */
static void show_rejects(const struct kb_tree_opts *o, const char *tree,
			 const char *patch)
{
	char scratch[PATH_MAX], *text = NULL, out[4096];
	char *check[] = { "git",	 "apply",
			  "--check",	 "--whitespace=nowarn",
			  (char *)patch, NULL };
	char *rej[] = { "git",	       "apply",
			"--reject",    "--whitespace=nowarn",
			(char *)patch, NULL };

	kb_run_output(check, tree, out, sizeof(out));
	for (char *s = out; *s;) {
		char *e = strchr(s, '\n');

		if (e)
			*e = '\0';
		kb_msg(o->p, "  git: %s", s);
		s = e ? e + 1 : s + strlen(s);
	}
	if (kb_path(scratch, sizeof(scratch), "%s.reject", tree) < 0 ||
	    kb_rm_rf(scratch) < 0 || kb_mkdir_p(scratch, 0755) < 0 ||
	    fileio_read(patch, FILEIO_ALL, &text, NULL, NULL) < 0)
		goto out;
	for (char *s = text; *s;) {
		char *e = strchr(s, '\n');
		char src[PATH_MAX], dst[PATH_MAX];

		if (e)
			*e = '\0';
		if (!strncmp(s, "--- a/", 6) && !strstr(s, "..") &&
		    kb_path(src, sizeof(src), "%s/%s", tree, s + 6) == 0 &&
		    kb_path(dst, sizeof(dst), "%s/%s", scratch, s + 6) == 0) {
			char *slash = strrchr(dst, '/');

			*slash = '\0';
			kb_mkdir_p(dst, 0755);
			*slash = '/';
			kb_copy_file(src, dst);
		}
		s = e ? e + 1 : s + strlen(s);
	}
	kb_run_output(rej, scratch, out, sizeof(out));
	kb_progress_done(o->p);
	rej_out = o->p->out;
	rej_count = 0;
	nftw(scratch, print_rej, 16, FTW_PHYS);
	if (!rej_count)
		kb_msg(o->p,
		       "  (no hunk applies: the files it patches are missing or the patch is malformed)");
	fflush(o->p->out);
out:
	free(text);
	kb_rm_rf(scratch);
}

int kb_tree_apply(const struct kb_tree_opts *o, const char *tree,
		  const char *patch, const char *failed)
{
	int r = git_apply(tree, patch, false, o->log_fd);

	if (r < 0) {
		kb_msg(o->p, "%s", failed);
		show_rejects(o, tree, patch);
	}
	return r;
}

/* Where the patch named name is read from (kb_tree_opts). */
static int patch_source(const struct kb_tree_opts *o, const char *name,
			char *buf, size_t len)
{
	if (strchr(name, '/'))
		return kb_path(buf, len, "%s/%s", o->kernel_dir, name);
	return kb_line_patch_path(o->patches_dir, o->shared_dir, name, buf,
				  len);
}

int kb_tree_prepare(const struct kb_tree_opts *o, char *tree, size_t treelen)
{
	char **old_names = NULL, **old_sums = NULL, **new_sums = NULL,
	     **new_names = NULL;
	size_t nold = 0, nold_alloc = 0, nnew = o->series->n, prefix, applied;
	char path[PATH_MAX], *stamp = NULL;
	bool fresh = false, need_unpack = false;
	struct stat st;
	int r;

	r = kb_path(tree, treelen, "%s/trees/%s", o->cache_dir, o->flavour);
	if (r < 0)
		return r;
	r = kb_path(path, sizeof(path), "%s/.vlalab/source-version", tree);
	if (r < 0)
		return r;
	if (stat(tree, &st) < 0) {
		need_unpack = true;
	} else if (fileio_read(path, FILEIO_ALL, &stamp, NULL, NULL) < 0) {
		char meta[PATH_MAX], have[64], want[64];

		/* A tree unpacked by hand (or by the set-up's trial build),
		 * with no record: adopt it when its Makefile matches the
		 * package's upstream version and nothing says it is patched. */
		upstream_version(o->source_version, want, sizeof(want));
		r = kb_path(meta, sizeof(meta), "%s/.vlalab", tree);
		if (r < 0)
			return r;
		if (stat(meta, &st) == 0 ||
		    kb_tree_makefile_version(tree, have, sizeof(have)) < 0 ||
		    strcmp(have, want)) {
			need_unpack = true;
		} else {
			r = kb_path(meta, sizeof(meta), "%s/.vlalab/applied",
				    tree);
			if (r == 0)
				r = kb_mkdir_p(meta, 0755);
			if (r == 0)
				r = fileio_write_atomic(
					path, o->source_version,
					strlen(o->source_version));
			if (r == 0)
				r = write_tree_id(tree, true);
			if (r < 0)
				return r;
			kb_msg(o->p,
			       "kbuild: adopted the unpacked tree '%s' (linux %s)",
			       tree, have);
		}
	} else if (strcmp(stamp, o->source_version)) {
		need_unpack = true;
	}
	free(stamp);
	if (need_unpack) {
		r = unpack(o, tree);
		if (r < 0)
			return r;
		fresh = true;
	}

	r = read_applied(tree, &old_names, &old_sums, &nold);
	if (r < 0)
		goto out;
	nold_alloc = nold;
	new_names = calloc(nnew + 1, sizeof(*new_names));
	new_sums = calloc(nnew + 1, sizeof(*new_sums));
	if (!new_names || !new_sums) {
		r = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nnew; i++) {
		new_names[i] = o->series->v[i].name;
		new_sums[i] = malloc(65);
		if (!new_sums[i]) {
			r = -ENOMEM;
			goto out;
		}
		r = patch_source(o, new_names[i], path, sizeof(path));
		if (r == 0)
			r = kb_sha256_file_hex(path, new_sums[i]);
		if (r < 0)
			goto out;
	}
	prefix = kb_series_common_prefix(old_names, old_sums, nold, new_names,
					 new_sums, nnew);

	if (nold > prefix)
		kb_progress_stage(o->p, "reverting patches");
	while (nold > prefix) {
		r = kb_path(path, sizeof(path), "%s/.vlalab/applied/%s", tree,
			    old_names[nold - 1]);
		if (r < 0)
			goto out;
		r = git_apply(tree, path, true, o->log_fd);
		if (r < 0) {
			kb_msg(o->p,
			       "kbuild: cannot revert '%s' in '%s': unpacking the tree again",
			       old_names[nold - 1], tree);
			r = unpack(o, tree);
			if (r < 0)
				goto out;
			fresh = true;
			prefix = 0;
			break;
		}
		unlink(path);
		nold--;
		r = write_applied(tree, old_names, nold);
		if (r < 0)
			goto out;
	}
	if (fresh)
		nold = 0;

	if (nnew > prefix)
		kb_progress_stage(o->p, "applying patches");
	for (applied = prefix; applied < nnew; applied++) {
		char src[PATH_MAX], msg[PATH_MAX + 256];

		r = patch_source(o, new_names[applied], src, sizeof(src));
		if (r < 0)
			goto out;
		if (strchr(new_names[applied], '/'))
			snprintf(
				msg, sizeof(msg),
				"kbuild: patch '%s' (the flavour's) does not apply on top of the series to linux-source %s:",
				new_names[applied], o->source_version);
		else
			snprintf(
				msg, sizeof(msg),
				"kbuild: patch '%s' (series line %u) does not apply to linux-source %s:",
				new_names[applied], o->series->v[applied].line,
				o->source_version);
		r = kb_tree_apply(o, tree, src, msg);
		if (r < 0)
			break;
		r = kb_path(path, sizeof(path), "%s/.vlalab/applied/%s", tree,
			    new_names[applied]);
		if (r == 0 && strchr(new_names[applied], '/')) {
			/* flavours/<name>/<file>: its folder first. */
			*strrchr(path, '/') = '\0';
			r = kb_mkdir_p(path, 0755);
			path[strlen(path)] = '/';
		}
		if (r == 0)
			r = kb_copy_file(src, path);
		if (r == 0)
			r = write_applied(tree, new_names, applied + 1);
		if (r < 0)
			goto out;
	}
	if (applied < nnew) {
		int r2 = 0;

		/* Put the tree back to the common prefix, so the record and the
		 * tree agree and nothing half-applied stays behind. */
		while (applied > prefix && r2 == 0) {
			applied--;
			r2 = kb_path(path, sizeof(path),
				     "%s/.vlalab/applied/%s", tree,
				     new_names[applied]);
			if (r2 == 0)
				r2 = git_apply(tree, path, true, o->log_fd);
			if (r2 == 0) {
				unlink(path);
				r2 = write_applied(tree, new_names, applied);
			}
		}
		r = -EINVAL;
		goto out;
	}
	r = 0;
out:
	kb_strv_free(old_names, nold_alloc);
	kb_strv_free(old_sums, nold_alloc);
	kb_strv_free(new_sums, nnew);
	free(new_names);
	return r;
}
