// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbuild_run(): the kernel build pipeline with its cache. The key is
 * computed from the inputs first, so a hit never touches the tree or make.
 * On a miss: lock the flavour, prepare the tree (tree.c), configure and
 * verify, make bzImage and modules in obj/<flavour>, install the modules,
 * copy the artefacts and write manifest.json last.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"

/* The flavour a new flavour's trees are copied from. */
#define SEED_FROM "patched"
#define TAIL_LINES 30

int kbuild_cache_dir(char *buf, size_t len)
{
	const char *s = getenv("VLALAB_CACHE");

	if (s && *s)
		return kb_path(buf, len, "%s", s);
	s = getenv("XDG_CACHE_HOME");
	if (s && *s)
		return kb_path(buf, len, "%s/vlalab", s);
	s = getenv("HOME");
	if (!s || !*s)
		return -ENOENT;
	return kb_path(buf, len, "%s/.cache/vlalab", s);
}

/* The key's flavour for a user's tree (kbuild_opts.tree), with and
 * without our series; never a folder of kernel/flavours/. */
#define TREE_FLAVOUR "tree"
#define TREE_SERIES_FLAVOUR "tree+series"

static bool flavour_is_tree(const char *f)
{
	return !strcmp(f, TREE_FLAVOUR) || !strcmp(f, TREE_SERIES_FLAVOUR);
}

/* Reads and parses the series of kernel_dir and line (none: an empty
 * one) into *s. */
static int read_series(const char *kernel_dir, const char *line,
		       struct kb_series *s, char **ret_text, char *err,
		       size_t errlen)
{
	const struct kb_line *l = kb_line_get(line);
	char path[PATH_MAX], *text = NULL;
	int r;

	if (!l)
		return kbuild_line_check(line, err, errlen);
	r = kb_line_patches_dir(l, kernel_dir, path, sizeof(path));
	if (r == 0)
		r = kb_path(path + strlen(path), sizeof(path) - strlen(path),
			    "/series");
	if (r < 0)
		return r;
	r = fileio_read(path, FILEIO_ALL, &text, NULL, NULL);
	if (r == -ENOENT) {
		text = strdup("");
		r = text ? 0 : -ENOMEM;
	}
	if (r < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", path,
			 strerror(-r));
		return r;
	}
	r = kb_series_parse(path, text, s, err, errlen);
	if (r < 0) {
		free(text);
		return r;
	}
	*ret_text = text;
	return 0;
}

int kbuild_without_check(const char *kernel_dir, const char *line,
			 const char *const *without, size_t n, char *err,
			 size_t errlen)
{
	struct kb_series s = { 0 };
	char *text = NULL, **removed = NULL;
	size_t nremoved = 0;
	int r;

	r = read_series(kernel_dir, line, &s, &text, err, errlen);
	if (r == 0)
		r = kb_series_without(&s, without, n, &removed, &nremoved, err,
				      errlen);
	kb_strv_free(removed, nremoved);
	kb_series_free(&s);
	free(text);
	return r;
}

int kbuild_series_resolve(const char *kernel_dir, const char *line,
			  const char *name, char **ret_full, char *err,
			  size_t errlen)
{
	struct kb_series s = { 0 };
	char *text = NULL, **removed = NULL, *full = NULL;
	size_t nremoved = 0;
	int r;

	r = read_series(kernel_dir, line, &s, &text, err, errlen);
	if (r == 0)
		r = kb_series_without(&s, &name, 1, &removed, &nremoved, err,
				      errlen);
	if (r == 0) {
		full = strdup(removed[0]);
		r = full ? 0 : -ENOMEM;
	}
	kb_strv_free(removed, nremoved);
	kb_series_free(&s);
	free(text);
	if (r == 0)
		*ret_full = full;
	return r;
}

/* Everything the key and the manifest are made of. */
struct inputs {
	const struct kb_line *line;
	char source_version[128];
	char compiler[256];
	char *series_text;
	size_t series_len;
	struct kb_series series; /* without the left-out patches */
	char **without; /* the left-out patches' full names */
	size_t nwithout;
	char **patch_data;
	size_t *patch_len;
	/* configs/: base.config first, then by name; then the flavour's
	 * own, named flavours/<flavour>/<file> */
	char **frag_names;
	char **frag_paths; /* where each was read, for merge_config.sh */
	char **frag_data;
	size_t *frag_len;
	size_t nfrags;
	struct kb_fragment *frags;
	char *evidence_text; /* kernel/evidence, NULL without one */
	size_t evidence_len;
	struct kb_evidence_spec evidence;
	/* modules/: our out-of-tree modules, built against the kernel */
	struct kb_extmods extmods;
};

static void inputs_free(struct inputs *in)
{
	for (size_t i = 0; i < in->series.n; i++)
		free(in->patch_data ? in->patch_data[i] : NULL);
	free(in->patch_data);
	free(in->patch_len);
	kb_series_free(&in->series);
	kb_strv_free(in->without, in->nwithout);
	free(in->series_text);
	for (size_t i = 0; i < in->nfrags; i++) {
		free(in->frag_data ? in->frag_data[i] : NULL);
		if (in->frags)
			kb_fragment_free(&in->frags[i]);
	}
	kb_extmods_free(&in->extmods);
	kb_strv_free(in->frag_names, in->nfrags);
	kb_strv_free(in->frag_paths, in->nfrags);
	free(in->frag_data);
	free(in->frag_len);
	free(in->frags);
	free(in->evidence_text);
	kb_evidence_spec_free(&in->evidence);
}

static int source_version(const char *tarball, const struct kb_line *l,
			  char *buf, size_t len)
{
	char *argv[] = { "dpkg-query", "-W", "-f=${Version}",
			 (char *)l->package, NULL };
	bool is_default = !strcmp(tarball, l->tarball);
	struct stat st;

	if (is_default && kb_run_capture(argv, NULL, buf, len) == 0 && buf[0])
		return 0;
	/* Not the packaged tarball, or no dpkg: identify it by size and mtime. */
	if (stat(tarball, &st) < 0)
		return -errno;
	return kb_path(buf, len, "tarball:%lld:%lld", (long long)st.st_size,
		       (long long)st.st_mtime);
}

#define grow(pp, n) grow_array((void **)(pp), (n), sizeof(**(pp)))

static bool grow_array(void **p, size_t n, size_t size)
{
	void *q = reallocarray(*p, n ? n : 1, size);

	if (!q)
		return false;
	*p = q;
	return true;
}

/* Reads and parses the *.config fragments of dir, appending them to in.
 * Those of configs/ (prefix NULL) keep their bare names, base.config first;
 * others are named prefix/<file>. */
static int add_fragments(struct inputs *in, const char *dir, const char *prefix,
			 struct kb_progress *p)
{
	char **names = NULL;
	size_t n = 0, total;
	int r;

	r = kb_list_dir(dir, ".config", &names, &n);
	if (r < 0) {
		kb_msg(p,
		       "kbuild: cannot list the config fragments in '%s': %s",
		       dir, strerror(-r));
		return r;
	}
	for (size_t i = 0; !prefix && i < n; i++) {
		if (!strcmp(names[i], "base.config")) {
			char *b = names[i];

			memmove(names + 1, names, i * sizeof(*names));
			names[0] = b;
		}
	}
	total = in->nfrags + n;
	if (!grow(&in->frag_names, total) || !grow(&in->frag_paths, total) ||
	    !grow(&in->frag_data, total) || !grow(&in->frag_len, total) ||
	    !grow(&in->frags, total)) {
		kb_strv_free(names, n);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		size_t k = in->nfrags;
		char shown[PATH_MAX];
		unsigned line = 0;

		if (prefix)
			r = asprintf(&in->frag_names[k], "%s/%s", prefix,
				     names[i]) < 0 ?
				    -ENOMEM :
				    0;
		else
			in->frag_names[k] = names[i], names[i] = NULL;
		if (r == 0)
			r = asprintf(&in->frag_paths[k], "%s/%s", dir,
				     names[i] ? names[i] : in->frag_names[k]) <
					    0 ?
				    -ENOMEM :
				    0;
		if (r < 0) {
			in->frag_names[k] = in->frag_paths[k] = NULL;
			break;
		}
		in->frag_data[k] = NULL;
		memset(&in->frags[k], 0, sizeof(in->frags[k]));
		in->nfrags++;
		r = fileio_read(in->frag_paths[k], FILEIO_ALL,
				&in->frag_data[k], &in->frag_len[k], NULL);
		if (r < 0) {
			kb_msg(p, "kbuild: cannot read '%s': %s",
			       in->frag_paths[k], strerror(-r));
			break;
		}
		snprintf(shown, sizeof(shown), "%s%s", prefix ? "" : "configs/",
			 in->frag_names[k]);
		r = kb_fragment_parse(shown, in->frag_data[k], &in->frags[k],
				      &line);
		if (r == -EINVAL)
			kb_msg(p,
			       "kbuild: %s:%u: not an option line (CONFIG_X=v or '# CONFIG_X is not set')",
			       in->frag_paths[k], line);
		if (r < 0)
			break;
	}
	kb_strv_free(names, n);
	return r;
}

/* Another line's fragments (configs/<line>/, appended from first on, named
 * configs/<line>/<file>): one named as a fragment of configs/ takes its
 * place in the merge order, and that one is dropped; the others stay
 * at the end (docs/kernel.md, "Lines"). */
static void line_fragments_override(struct inputs *in, size_t first)
{
	size_t n = first;

	for (size_t k = first; k < in->nfrags; k++) {
		const char *base = strrchr(in->frag_names[k], '/') + 1;
		size_t to = n++;

		for (size_t i = 0; i < first; i++) {
			if (strcmp(in->frag_names[i], base))
				continue;
			free(in->frag_names[i]);
			free(in->frag_paths[i]);
			free(in->frag_data[i]);
			kb_fragment_free(&in->frags[i]);
			to = i;
			n--;
			break;
		}
		in->frag_names[to] = in->frag_names[k];
		in->frag_paths[to] = in->frag_paths[k];
		in->frag_data[to] = in->frag_data[k];
		in->frag_len[to] = in->frag_len[k];
		in->frags[to] = in->frags[k];
	}
	in->nfrags = n;
}

/* Appends the *.patch files of a flavour's folder dir to the series, in
 * name order (git format-patch numbers them), each named prefix/<file>:
 * they apply on top of the series and are hashed and listed like its
 * patches. */
static int add_flavour_patches(struct inputs *in, const char *dir,
			       const char *prefix, struct kb_progress *p)
{
	char **names = NULL, path[PATH_MAX];
	size_t n = 0, total;
	int r;

	r = kb_list_dir(dir, ".patch", &names, &n);
	if (r < 0) {
		kb_msg(p, "kbuild: cannot list the patches in '%s': %s", dir,
		       strerror(-r));
		return r;
	}
	total = in->series.n + n;
	if (!grow(&in->series.v, total) || !grow(&in->patch_data, total + 1) ||
	    !grow(&in->patch_len, total + 1)) {
		kb_strv_free(names, n);
		return -ENOMEM;
	}
	for (size_t i = 0; r == 0 && i < n; i++) {
		size_t k = in->series.n;

		in->patch_data[k] = NULL;
		if (asprintf(&in->series.v[k].name, "%s/%s", prefix, names[i]) <
		    0) {
			r = -ENOMEM;
			break;
		}
		in->series.v[k].line = 0;
		in->series.n++;
		r = kb_path(path, sizeof(path), "%s/%s", dir, names[i]);
		if (r == 0)
			r = fileio_read(path, FILEIO_ALL, &in->patch_data[k],
					&in->patch_len[k], NULL);
		if (r < 0)
			kb_msg(p, "kbuild: cannot read '%s': %s", path,
			       strerror(-r));
	}
	kb_strv_free(names, n);
	return r;
}

static int read_inputs(const char *kernel_dir, const struct kb_line *l,
		       const char *flavour, const struct kbuild_opts *opts,
		       struct inputs *in, struct kb_progress *p)
{
	bool with_patches = strcmp(flavour, "vanilla") != 0 &&
			    strcmp(flavour, TREE_FLAVOUR) != 0;
	char patches_dir[PATH_MAX], configs_dir[PATH_MAX], path[PATH_MAX],
		err[1024], shared_dir[PATH_MAX];
	char **present = NULL, **shared = NULL;
	size_t npresent = 0, nshared = 0;
	bool other = !kb_line_is_default(l);
	int r;

	r = kb_line_patches_dir(l, kernel_dir, patches_dir,
				sizeof(patches_dir));
	if (r == 0)
		r = kb_path(shared_dir, sizeof(shared_dir), "%s/patches",
			    kernel_dir);
	if (r == 0)
		r = kb_path(configs_dir, sizeof(configs_dir), "%s/configs",
			    kernel_dir);
	if (r == 0)
		r = kb_path(path, sizeof(path), "%s/series", patches_dir);
	if (r < 0)
		return r;

	/* The series: a missing file is an empty series, unless patches exist. */
	if (with_patches) {
		r = fileio_read(path, FILEIO_ALL, &in->series_text,
				&in->series_len, NULL);
		if (r == -ENOENT) {
			in->series_text = strdup("");
			in->series_len = 0;
			r = in->series_text ? 0 : -ENOMEM;
		}
		if (r < 0) {
			kb_msg(p, "kbuild: cannot read '%s': %s", path,
			       strerror(-r));
			return r;
		}
		r = kb_series_parse(path, in->series_text, &in->series, err,
				    sizeof(err));
		if (r == -EINVAL)
			kb_msg(p, "kbuild: %s", err);
		if (r < 0)
			return r;
		r = kb_list_dir(patches_dir, "", &present, &npresent);
		if (r == -ENOENT)
			r = 0;
		if (r == 0 && other)
			r = kb_list_dir(shared_dir, "", &shared, &nshared);
		if (r == -ENOENT)
			r = 0;
		if (r == 0)
			r = kb_series_check_shared(path, &in->series, present,
						   npresent, shared, nshared,
						   err, sizeof(err));
		kb_strv_free(present, npresent);
		kb_strv_free(shared, nshared);
		if (r == 0)
			r = kb_series_without(&in->series, opts->without,
					      opts->n_without, &in->without,
					      &in->nwithout, err, sizeof(err));
		if (r == -EINVAL)
			kb_msg(p, "kbuild: %s", err);
		if (r < 0)
			return r;
		in->patch_data =
			calloc(in->series.n + 1, sizeof(*in->patch_data));
		in->patch_len =
			calloc(in->series.n + 1, sizeof(*in->patch_len));
		if (!in->patch_data || !in->patch_len)
			return -ENOMEM;
		for (size_t i = 0; i < in->series.n; i++) {
			r = kb_line_patch_path(patches_dir,
					       other ? shared_dir : NULL,
					       in->series.v[i].name, path,
					       sizeof(path));
			if (r == 0)
				r = fileio_read(path, FILEIO_ALL,
						&in->patch_data[i],
						&in->patch_len[i], NULL);
			if (r < 0) {
				kb_msg(p, "kbuild: cannot read '%s': %s", path,
				       strerror(-r));
				return r;
			}
		}
	} else {
		in->series_text = strdup("");
		if (!in->series_text)
			return -ENOMEM;
	}

	r = kb_path(path, sizeof(path), "%s/evidence", kernel_dir);
	if (r == 0)
		r = fileio_read(path, FILEIO_ALL, &in->evidence_text,
				&in->evidence_len, NULL);
	if (r == -ENOENT)
		r = 0;
	else if (r < 0)
		kb_msg(p, "kbuild: cannot read '%s': %s", path, strerror(-r));
	else {
		r = kb_evidence_spec_parse(path, in->evidence_text,
					   &in->evidence, err, sizeof(err));
		if (r == -EINVAL)
			kb_msg(p, "kbuild: %s", err);
	}
	if (r < 0)
		return r;

	r = add_fragments(in, configs_dir, NULL, p);
	if (r == 0 && !in->nfrags) {
		kb_msg(p, "kbuild: no config fragments (*.config) in '%s'",
		       configs_dir);
		r = -ENOENT;
	}
	if (r == 0 && other && !flavour_is_tree(flavour)) {
		char ldir[PATH_MAX], prefix[PATH_MAX];
		size_t first = in->nfrags;

		r = kb_path(ldir, sizeof(ldir), "%s/%s", configs_dir, l->name);
		if (r == 0)
			r = kb_path(prefix, sizeof(prefix), "configs/%s",
				    l->name);
		if (r == 0 && access(ldir, F_OK) == 0)
			r = add_fragments(in, ldir, prefix, p);
		if (r == 0)
			line_fragments_override(in, first);
	}
	if (r == 0 && !kb_flavour_is_builtin(flavour) &&
	    !flavour_is_tree(flavour)) {
		char fdir[PATH_MAX], prefix[PATH_MAX];

		r = kb_path(fdir, sizeof(fdir), "%s/flavours/%s", kernel_dir,
			    flavour);
		if (r == 0)
			r = kb_path(prefix, sizeof(prefix), "flavours/%s",
				    flavour);
		if (r == 0)
			r = add_fragments(in, fdir, prefix, p);
		if (r == 0)
			r = add_flavour_patches(in, fdir, prefix, p);
	}
	if (r == 0) {
		err[0] = '\0';
		r = kb_extmods_read(kernel_dir, flavour, &in->extmods, err,
				    sizeof(err));
		if (r == -EINVAL && err[0])
			kb_msg(p, "kbuild: %s", err);
		else if (r < 0)
			kb_msg(p,
			       "kbuild: cannot read the modules in '%s/modules': %s",
			       kernel_dir, strerror(-r));
	}
	return r;
}

static int compute_key(const struct inputs *in, const char *flavour,
		       char key[65])
{
	struct kb_blob *patches, *frags;
	struct kb_key_input ki;
	int r;

	patches = calloc(in->series.n + 1, sizeof(*patches));
	frags = calloc(in->nfrags + 1, sizeof(*frags));
	if (!patches || !frags) {
		free(patches);
		free(frags);
		return -ENOMEM;
	}
	for (size_t i = 0; i < in->series.n; i++)
		patches[i] = (struct kb_blob){ in->series.v[i].name,
					       in->patch_data[i],
					       in->patch_len[i] };
	for (size_t i = 0; i < in->nfrags; i++)
		frags[i] = (struct kb_blob){ in->frag_names[i],
					     in->frag_data[i],
					     in->frag_len[i] };
	ki = (struct kb_key_input){
		.line = in->line->name,
		.source_version = in->source_version,
		.compiler = in->compiler,
		.flavour = flavour,
		.series = { "series", in->series_text, in->series_len },
		.patches = patches,
		.npatches = in->series.n,
		.fragments = frags,
		.nfragments = in->nfrags,
		.without = (const char *const *)in->without,
		.nwithout = in->nwithout,
		.evidence = { "evidence", in->evidence_text, in->evidence_len },
		.extmods = in->extmods.files,
		.nextmods = in->extmods.nfiles,
	};
	r = kb_cache_key(&ki, key);
	free(patches);
	free(frags);
	return r;
}

bool kb_cache_hit(const char *dir, struct kbuild_result *ret)
{
	struct kb_manifest m;
	char path[PATH_MAX], *text = NULL;
	bool hit = false;

	if (kb_path(path, sizeof(path), "%s/manifest.json", dir) < 0 ||
	    fileio_read(path, FILEIO_ALL, &text, NULL, NULL) < 0)
		return false;
	if (kb_manifest_parse(text, &m) == 0) {
		snprintf(ret->release, sizeof(ret->release), "%s", m.release);
		hit = true;
		kb_manifest_free(&m);
	}
	free(text);
	return hit;
}

static int make_target(const char *tree, const char *obj, int jobs,
		       char *const *targets, int log_fd, struct kb_progress *p)
{
	char objarg[PATH_MAX + 4], jarg[32];
	char *argv[16];
	int n = 0, r;

	r = kb_path(objarg, sizeof(objarg), "O=%s", obj);
	if (r < 0)
		return r;
	snprintf(jarg, sizeof(jarg), "-j%d", jobs);
	argv[n++] = "make";
	argv[n++] = "-C";
	argv[n++] = (char *)tree;
	argv[n++] = objarg;
	argv[n++] = "ARCH=x86_64";
	argv[n++] = jarg;
	/* A recipe's output stays together: warnings follow their CC line. */
	argv[n++] = "-Otarget";
	for (; *targets && n < 15; targets++)
		argv[n++] = *targets;
	argv[n] = NULL;
	return kb_run_logged(argv, NULL, log_fd, p, NULL);
}

/*
 * Builds each of our modules (kernel/modules/<name>/) with M= against the
 * kernel in obj, and installs it into modpath as modules_install did the
 * tree's (lib/modules/<release>/extra/, modules.dep updated), so that
 * modprobe and a scenario's requires find it like any other.
 */
static int build_extmods(const char *tree, const char *obj,
			 const struct kb_extmods *m, const char *modpath,
			 int jobs, int log_fd, struct kb_progress *p)
{
	char root[PATH_MAX], marg[PATH_MAX + 4], iarg[PATH_MAX + 32];
	int r;

	if (!m->ndirs)
		return 0;
	kb_progress_stage(p, "building kernel/modules");
	r = kb_path(root, sizeof(root), "%s/%s", obj, KB_EXTMOD_STAGE);
	if (r == 0)
		r = kb_extmods_stage(m, root);
	if (r == 0)
		r = kb_path(iarg, sizeof(iarg), "INSTALL_MOD_PATH=%s", modpath);
	for (size_t i = 0; r == 0 && i < m->ndirs; i++) {
		r = kb_path(marg, sizeof(marg), "M=%s/%s", root, m->dirs[i]);
		if (r == 0)
			r = make_target(tree, obj, jobs,
					(char *[]){ marg, "modules", NULL },
					log_fd, NULL);
		if (r == 0)
			r = make_target(tree, obj, jobs,
					(char *[]){ marg, iarg,
						    "INSTALL_MOD_STRIP=1",
						    "modules_install", NULL },
					log_fd, NULL);
	}
	return r;
}

static void print_make_failure(struct kb_progress *p, const char *what,
			       const char *log_path)
{
	kb_msg(p, "kbuild: %s failed; full log: %s; last %d lines:", what,
	       log_path, TAIL_LINES);
	kb_print_tail(p->out, log_path, TAIL_LINES);
	fflush(p->out);
}

/* Walks the tree's Kconfig files (other architectures skipped) for the
 * definitions of name. */
static const char *kc_tree;
static const char *kc_name;
static struct kb_ksyms *kc_out;

static int kc_visit(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	const char *rel = path + strlen(kc_tree) + 1;
	const char *base = path + ftw->base;
	char *text = NULL;

	if (type == FTW_D) {
		if (!strncmp(rel, "arch/", 5) && ftw->level == 2 &&
		    strcmp(rel, "arch/x86"))
			return FTW_SKIP_SUBTREE;
		if (!strcmp(rel, ".vlalab") || !strcmp(rel, "Documentation") ||
		    !strcmp(rel, "tools"))
			return FTW_SKIP_SUBTREE;
		return FTW_CONTINUE;
	}
	if (type != FTW_F || strncmp(base, "Kconfig", 7))
		return FTW_CONTINUE;
	if (fileio_read(path, FILEIO_ALL, &text, NULL, NULL) < 0)
		return FTW_CONTINUE;
	if (strstr(text, kc_name))
		kb_kconfig_scan(rel, text, kc_name, kc_out);
	free(text);
	return FTW_CONTINUE;
}

/* One option that did not survive: where the tree defines it and what
 * its dependencies are. false when the tree's Kconfig does not define it. */
static bool explain_one(struct kb_progress *p, const char *tree,
			const struct kb_mismatch *m,
			const struct kb_config *cfg)
{
	struct kb_ksyms syms = { 0 };
	bool defined;

	kb_msg(p, "  %s:%u: CONFIG_%s: wanted %s, got %s", m->file, m->line,
	       m->name, m->want, m->got);
	kc_tree = tree;
	kc_name = m->name;
	kc_out = &syms;
	nftw(tree, kc_visit, 32, FTW_PHYS | FTW_ACTIONRETVAL);
	defined = syms.n > 0;
	if (!syms.n)
		kb_msg(p, "    no 'config %s' in this tree's Kconfig files",
		       m->name);
	for (size_t j = 0; j < syms.n; j++) {
		const struct kb_ksym *s = &syms.v[j];

		kb_msg(p, "    defined at %s:%u%s", s->file, s->line,
		       s->has_prompt ?
			       "" :
			       " (no prompt: only another option's select sets it)");
		if (!s->ndeps)
			kb_msg(p, "    no depends on");
		for (size_t k = 0; k < s->ndeps; k++) {
			char vals[512];

			kb_expr_values(s->deps[k].expr, cfg, vals,
				       sizeof(vals));
			kb_msg(p, "    %s %s  [%s]  (%s:%u)", s->deps[k].kind,
			       s->deps[k].expr, vals, s->deps[k].file,
			       s->deps[k].line);
		}
	}
	kb_ksyms_free(&syms);
	return defined;
}

static void explain_mismatches(struct kb_progress *p, const char *tree,
			       const struct kb_mismatch *mm, size_t n,
			       const struct kb_config *cfg)
{
	kb_msg(p,
	       "kbuild: %zu requested config option%s did not survive olddefconfig:",
	       n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n; i++)
		explain_one(p, tree, &mm[i], cfg);
}

/* A user's tree: a fragment's option that did not make it into its
 * .config (its Kconfig lacks it, or its dependencies differ from 6.1's)
 * moves from mm to *missing, as "file:line: CONFIG_X=v: why" lines,
 * reported with the reasons: the scenarios that require it skip. Those
 * of base.config stay errors: without them no guest boots or talks. */
static int split_missing(struct kb_progress *p, const char *tree,
			 const struct kb_config *cfg, struct kb_mismatch *mm,
			 size_t *nmm, char ***missing, size_t *nmissing)
{
	size_t keep = 0, n = 0;

	for (size_t i = 0; i < *nmm; i++)
		n += strcmp(mm[i].file, "configs/base.config") != 0;
	if (n)
		kb_msg(p,
		       "kbuild: %zu option%s of our fragments did not make it into this tree's config; the scenarios that require %s will skip:",
		       n, n == 1 ? "" : "s", n == 1 ? "it" : "them");
	for (size_t i = 0; i < *nmm; i++) {
		char *line;
		bool defined;

		if (!strcmp(mm[i].file, "configs/base.config")) {
			mm[keep++] = mm[i];
			continue;
		}
		defined = explain_one(p, tree, &mm[i], cfg);
		if (asprintf(&line, "%s:%u: CONFIG_%s=%s: %s%s", mm[i].file,
			     mm[i].line, mm[i].name, mm[i].want,
			     defined ? "got " : "not in this tree's Kconfig",
			     defined ? mm[i].got : "") < 0)
			return -ENOMEM;
		if (!grow(missing, *nmissing + 1)) {
			free(line);
			return -ENOMEM;
		}
		(*missing)[(*nmissing)++] = line;
	}
	*nmm = keep;
	return 0;
}

/* allnoconfig, merge_config.sh -m with every fragment, olddefconfig, then
 * the check that each requested value made it. With absent (a user's
 * tree), options that did not make it are listed there (split_missing()). */
static int configure(const char *tree, const char *obj, const struct inputs *in,
		     int jobs, int log_fd, const char *log_path,
		     struct kb_progress *p, char ***absent, size_t *nabsent)
{
	char merge[PATH_MAX], dotconfig[PATH_MAX], *text = NULL;
	struct kb_config cfg = { 0 };
	struct kb_mismatch *mm = NULL;
	char **argv = NULL;
	size_t nmm = 0;
	int r;

	kb_progress_stage(p, "configuring");
	r = make_target(tree, obj, jobs, (char *[]){ "allnoconfig", NULL },
			log_fd, NULL);
	if (r < 0) {
		print_make_failure(p, "make allnoconfig", log_path);
		goto out;
	}
	r = kb_path(merge, sizeof(merge), "%s/scripts/kconfig/merge_config.sh",
		    tree);
	if (r == 0)
		r = kb_path(dotconfig, sizeof(dotconfig), "%s/.config", obj);
	if (r < 0)
		goto out;
	argv = calloc(in->nfrags + 8, sizeof(*argv));
	if (!argv) {
		r = -ENOMEM;
		goto out;
	}
	argv[0] = "sh";
	argv[1] = merge;
	argv[2] = "-m";
	argv[3] = "-O";
	argv[4] = (char *)obj;
	argv[5] = dotconfig;
	for (size_t i = 0; i < in->nfrags; i++)
		argv[6 + i] = in->frag_paths[i];
	r = kb_run_logged(argv, obj, log_fd, NULL, NULL);
	if (r < 0) {
		print_make_failure(p, "merge_config.sh", log_path);
		goto out;
	}
	r = make_target(tree, obj, jobs, (char *[]){ "olddefconfig", NULL },
			log_fd, NULL);
	if (r < 0) {
		print_make_failure(p, "make olddefconfig", log_path);
		goto out;
	}
	r = fileio_read(dotconfig, FILEIO_ALL, &text, NULL, NULL);
	if (r == 0)
		r = kb_config_parse(text, &cfg);
	if (r == 0)
		r = kb_config_verify(in->frags, in->nfrags, &cfg, &mm, &nmm);
	if (r == 0 && absent)
		r = split_missing(p, tree, &cfg, mm, &nmm, absent, nabsent);
	if (r < 0)
		goto out;
	if (nmm) {
		explain_mismatches(p, tree, mm, nmm, &cfg);
		r = -EINVAL;
	}
out:
	free(mm);
	kb_config_free(&cfg);
	free(text);
	free(argv);
	return r;
}

/* Wipes the object tree when it was built from another unpacking of the
 * source (tree.c: tree-id), then records the current id. */
static int obj_sync_tree_id(const char *tree, const char *obj,
			    struct kb_progress *p, bool *ret_incremental)
{
	char tid_path[PATH_MAX], oid_path[PATH_MAX], cfg[PATH_MAX];
	char *tid = NULL, *oid = NULL;
	struct stat st;
	int r;

	r = kb_path(tid_path, sizeof(tid_path), "%s/.vlalab/tree-id", tree);
	if (r == 0)
		r = kb_path(oid_path, sizeof(oid_path), "%s/.vlalab-tree-id",
			    obj);
	if (r == 0)
		r = kb_path(cfg, sizeof(cfg), "%s/.config", obj);
	if (r < 0)
		return r;
	r = fileio_read(tid_path, FILEIO_ALL, &tid, NULL, NULL);
	if (r < 0)
		return r;
	if (fileio_read(oid_path, FILEIO_ALL, &oid, NULL, NULL) == 0 &&
	    strcmp(oid, tid)) {
		kb_progress_stage(
			p,
			"wiping the object tree (the source was unpacked again)");
		r = kb_rm_rf(obj);
		if (r < 0)
			goto out;
	}
	r = kb_mkdir_p(obj, 0755);
	if (r == 0)
		r = fileio_write_atomic(oid_path, tid, strlen(tid));
	*ret_incremental = stat(cfg, &st) == 0;
out:
	free(tid);
	free(oid);
	return r;
}

int kb_cache_commit(const char *obj, const char *dir, const char *manifest,
		    char *ret_path, size_t pathlen)
{
	static const char *const files[][2] = {
		{ "arch/x86/boot/bzImage", "bzImage" },
		{ "vmlinux", "vmlinux" },
		{ "System.map", "System.map" },
		{ ".config", "config" },
		{ "usr/gen_init_cpio", "gen_init_cpio" },
	};
	char src[PATH_MAX], dst[PATH_MAX], *text;
	size_t len;
	int fd, r = 0;

	snprintf(ret_path, pathlen, "%s", dir);
	for (size_t i = 0; r == 0 && i < sizeof(files) / sizeof(files[0]);
	     i++) {
		r = kb_path(src, sizeof(src), "%s/%s", obj, files[i][0]);
		if (r == 0)
			r = kb_path(dst, sizeof(dst), "%s/%s", dir,
				    files[i][1]);
		if (r == 0) {
			snprintf(ret_path, pathlen, "%s", dst);
			r = kb_copy_file(src, dst);
		}
	}
	if (r < 0)
		return r;
	/* The artefacts and the installed modules reach the disk before
	 * the manifest that names them. */
	snprintf(ret_path, pathlen, "%s", dir);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = syncfs(fd) < 0 ? -errno : 0;
	close(fd);
	if (r < 0)
		return r;
	r = kb_path(dst, sizeof(dst), "%s/manifest.json", dir);
	if (r < 0)
		return r;
	snprintf(ret_path, pathlen, "%s", dst);
	len = strlen(manifest);
	text = malloc(len + 1);
	if (!text)
		return -ENOMEM;
	memcpy(text, manifest, len);
	text[len] = '\n';
	r = fileio_write_atomic(dst, text, len + 1);
	free(text);
	return r;
}

struct warnings {
	unsigned vla, frame; /* every object, from the ledger */
	bool complete;
	unsigned log_vla, log_frame; /* this build's log */
};

/* Folds this build's log into obj/.vlalab-warnings, also after a failed
 * make: what it compiled will not be compiled again. */
static int update_ledger(const char *obj, const char *log_path,
			 bool incremental, struct warnings *ret)
{
	struct kb_ledger l = { .complete = !incremental };
	char path[PATH_MAX], *text = NULL, *log = NULL, *out = NULL;
	size_t loglen = 0;
	int r;

	r = kb_path(path, sizeof(path), "%s/.vlalab-warnings", obj);
	if (r < 0)
		return r;
	if (fileio_read(path, FILEIO_ALL, &text, NULL, NULL) == 0 &&
	    kb_ledger_parse(text, &l) < 0)
		l = (struct kb_ledger){ .complete = false };
	r = fileio_read(log_path, FILEIO_ALL, &log, &loglen, NULL);
	if (r == 0)
		r = kb_ledger_update(&l, log, loglen);
	if (r == 0)
		r = kb_ledger_to_text(&l, &out);
	if (r == 0)
		r = fileio_write_atomic(path, out, strlen(out));
	if (r == 0 && ret) {
		kb_ledger_totals(&l, &ret->vla, &ret->frame);
		ret->complete = l.complete;
		kb_count_warnings(log, loglen, &ret->log_vla, &ret->log_frame);
	}
	kb_ledger_free(&l);
	free(text);
	free(log);
	free(out);
	return r;
}

/* The manifest of this build, as JSON in *@ret (malloc'd). */
static int make_manifest(const char *flavour, const char *key,
			 const char *release, const struct inputs *in,
			 double secs, bool incremental,
			 const struct warnings *w, const char *seeded_from,
			 double seed_secs, struct kb_evidence *ev, size_t nev,
			 const struct kb_manifest *ut, char **ret)
{
	struct kb_manifest m = { 0 };
	int r = 0;

	m.tree_path = ut->tree_path;
	m.tree_id = ut->tree_id;
	m.tree_series = ut->tree_series;
	m.absent = ut->absent;
	m.nabsent = ut->nabsent;

	/* A user's tree is no Debian line. */
	m.line = ut->tree_path ? NULL : (char *)in->line->name;
	m.source_version = (char *)in->source_version;
	m.compiler = (char *)in->compiler;
	m.flavour = (char *)flavour;
	snprintf(m.key, sizeof(m.key), "%s", key);
	snprintf(m.release, sizeof(m.release), "%s", release);
	m.patches = calloc(in->series.n + 1, sizeof(*m.patches));
	m.fragments = calloc(in->nfrags + 1, sizeof(*m.fragments));
	if (!m.patches || !m.fragments) {
		r = -ENOMEM;
		goto out;
	}
	m.npatches = in->series.n;
	for (size_t i = 0; r == 0 && i < in->series.n; i++) {
		m.patches[i].name = in->series.v[i].name;
		r = kb_sha256_hex(in->patch_data[i], in->patch_len[i],
				  m.patches[i].sha256);
	}
	m.nfragments = in->nfrags;
	m.without = in->without;
	m.nwithout = in->nwithout;
	for (size_t i = 0; r == 0 && i < in->nfrags; i++) {
		m.fragments[i].name = in->frag_names[i];
		r = kb_sha256_hex(in->frag_data[i], in->frag_len[i],
				  m.fragments[i].sha256);
	}
	if (r < 0)
		goto out;
	m.build_seconds = secs;
	m.timestamp = time(NULL);
	m.incremental = incremental;
	m.seeded_from = (char *)seeded_from;
	m.cold = !incremental && !seeded_from;
	m.seed_seconds = seed_secs;
	m.evidence = ev;
	m.nevidence = nev;
	m.warn_vla = w->vla;
	m.warn_frame = w->frame;
	m.warn_complete = w->complete;
	m.log_vla = w->log_vla;
	m.log_frame = w->log_frame;
	r = kb_manifest_to_json(&m, ret);
out:
	free(m.patches);
	free(m.fragments);
	return r;
}

static int lock_flavour(const char *cache, const char *flavour,
			struct kb_progress *p, int *ret_fd)
{
	char path[PATH_MAX];
	int fd, r;

	r = kb_path(path, sizeof(path), "%s/locks", cache);
	if (r == 0)
		r = kb_mkdir_p(path, 0755);
	if (r == 0)
		r = kb_path(path, sizeof(path), "%s/locks/%s.lock", cache,
			    flavour);
	if (r < 0)
		return r;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		kb_progress_stage(p,
				  "waiting for another build of this flavour");
		while (flock(fd, LOCK_EX) < 0) {
			if (errno != EINTR) {
				r = -errno;
				close(fd);
				return r;
			}
		}
	}
	*ret_fd = fd;
	return 0;
}

/* A flavour of our own that has no tree yet starts from a copy of the
 * patched flavour's trees (seed.c; from, its name on the line), under that
 * flavour's lock, so that it
 * compiles only what its fragments and patches change. *ret_secs: the
 * copy's seconds, or -1 when there was nothing to seed from (or no need). */
static int seed(const char *cache, const char *from, const char *flavour,
		int log_fd, struct kb_progress *p, double *ret_secs)
{
	char path[PATH_MAX];
	unsigned files = 0;
	struct stat st;
	double t0;
	int fd = -1, r;

	*ret_secs = -1;
	r = kb_path(path, sizeof(path), "%s/trees/%s", cache, flavour);
	if (r < 0)
		return r;
	if (stat(path, &st) == 0)
		return 0;
	r = lock_flavour(cache, from, p, &fd);
	if (r < 0)
		return r;
	kb_progress_stage(p, "seeding the trees from another flavour's");
	t0 = kb_now();
	r = kb_seed_flavour(cache, from, flavour, log_fd, &files);
	close(fd);
	if (r == -ENOENT)
		kb_msg(p,
		       "kbuild: no %s object tree built from its tree to seed '%s' from: a cold build",
		       from, flavour);
	else if (r == -EEXIST)
		kb_msg(p,
		       "kbuild: obj/%s exists without trees/%s, so it is not seeded: a cold build",
		       flavour, flavour);
	if (r == -ENOENT || r == -EEXIST)
		return 0;
	if (r < 0) {
		kb_msg(p,
		       "kbuild: cannot seed '%s' from the %s flavour's trees in '%s': %s",
		       flavour, from, cache, strerror(-r));
		return r;
	}
	*ret_secs = kb_now() - t0;
	kb_msg(p,
	       "kbuild: seeded '%s' from the %s flavour's trees in %.0f s (%u records rewritten)",
	       flavour, from, *ret_secs, files);
	return 0;
}

/* Whether obj/<from> was built from trees/<from> (tree.c: tree-id). */
static bool obj_built_from_tree(const char *cache, const char *from)
{
	char tid_path[PATH_MAX], oid_path[PATH_MAX], *tid = NULL, *oid = NULL;
	bool same;

	if (kb_path(tid_path, sizeof(tid_path), "%s/trees/%s/.vlalab/tree-id",
		    cache, from) < 0 ||
	    kb_path(oid_path, sizeof(oid_path), "%s/obj/%s/.vlalab-tree-id",
		    cache, from) < 0)
		return false;
	same = fileio_read(tid_path, FILEIO_ALL, &tid, NULL, NULL) == 0 &&
	       fileio_read(oid_path, FILEIO_ALL, &oid, NULL, NULL) == 0 &&
	       !strcmp(tid, oid);
	free(tid);
	free(oid);
	return same;
}

/* A user's tree's first build starts from patched's object tree when
 * that is safe (kb_usertree_seedable(): every file that differs from
 * trees/patched is newer than patched's objects, so make sees each
 * difference), under patched's lock; else it is cold, and says why. */
static int seed_usertree(const char *cache, const char *src, const char *obj,
			 int log_fd, struct kb_progress *p, double *ret_secs)
{
	char stree[PATH_MAX], sobj[PATH_MAX], why[PATH_MAX + 128];
	unsigned files = 0;
	struct stat st;
	double t0;
	int fd = -1, r;

	*ret_secs = -1;
	if (stat(obj, &st) == 0)
		return 0;
	r = kb_path(stree, sizeof(stree), "%s/trees/" SEED_FROM, cache);
	if (r == 0)
		r = kb_path(sobj, sizeof(sobj), "%s/obj/" SEED_FROM, cache);
	if (r < 0)
		return r;
	r = lock_flavour(cache, SEED_FROM, p, &fd);
	if (r < 0)
		return r;
	kb_progress_stage(p, "checking whether " SEED_FROM
			     "'s object tree can seed this tree's");
	if (!obj_built_from_tree(cache, SEED_FROM)) {
		kb_msg(p,
		       "kbuild: no %s object tree built from its tree to seed from: a cold build",
		       SEED_FROM);
		goto out;
	}
	r = kb_usertree_seedable(src, stree, sobj, why, sizeof(why));
	if (r == 0)
		kb_msg(p,
		       "kbuild: not seeded from the %s flavour's object tree (%s): a cold build",
		       SEED_FROM, why);
	if (r <= 0)
		goto out;
	kb_progress_stage(p, "seeding the object tree from the " SEED_FROM
			     " flavour's");
	t0 = kb_now();
	r = kb_seed_obj(stree, sobj, src, obj, log_fd, &files);
	if (r < 0) {
		kb_msg(p,
		       "kbuild: cannot seed '%s' from the %s flavour's object tree: %s",
		       obj, SEED_FROM, strerror(-r));
		goto out;
	}
	*ret_secs = kb_now() - t0;
	kb_msg(p,
	       "kbuild: seeded the object tree from the %s flavour's in %.0f s (%u records rewritten)",
	       SEED_FROM, *ret_secs, files);
out:
	close(fd);
	return r < 0 ? r : 0;
}

/* With our series (kbuild_opts.tree_series): trees/<name> holds a copy of
 * the user's tree at its id with the series applied. A record beside it
 * (<copy>.applied: the id and the series' hash) says what it holds, so an
 * unchanged copy is left alone. A copy of a folder that is not git gets
 * the user's old mtimes back, so its object tree is wiped then. */
static int prepare_copy(const struct kbuild_opts *opts, const char *cache,
			const char *name, const char *id,
			const struct inputs *in, const char *patches_dir,
			int log_fd, struct kb_progress *p, char *copy,
			size_t copylen, const char *obj)
{
	char rec_path[PATH_MAX], hex[65], *rec = NULL, *want = NULL;
	struct kb_hash *h = NULL;
	int r;

	r = kb_path(copy, copylen, "%s/trees/%s", cache, name);
	if (r == 0)
		r = kb_path(rec_path, sizeof(rec_path), "%s.applied", copy);
	if (r == 0)
		r = kb_hash_new(&h);
	for (size_t i = 0; r == 0 && i < in->series.n; i++) {
		r = kb_hash_add_str(h, "patch", in->series.v[i].name);
		if (r == 0)
			r = kb_hash_add(h, "data", in->patch_data[i],
					in->patch_len[i]);
	}
	if (r == 0)
		r = kb_hash_final(h, hex);
	kb_hash_free(h);
	if (r == 0 && asprintf(&want, "%s\n%s\n", id, hex) < 0)
		r = -ENOMEM;
	if (r < 0)
		return r;
	if (fileio_read(rec_path, FILEIO_ALL, &rec, NULL, NULL) == 0 &&
	    !strcmp(rec, want))
		goto out;
	kb_progress_stage(p, "copying the tree to apply the series");
	unlink(rec_path);
	r = kb_mkdir_p(cache, 0755);
	if (r == 0) {
		char trees[PATH_MAX];

		r = kb_path(trees, sizeof(trees), "%s/trees", cache);
		if (r == 0)
			r = kb_mkdir_p(trees, 0755);
	}
	if (r == 0)
		r = kb_usertree_copy(opts->tree, id, copy, log_fd);
	if (r < 0) {
		kb_msg(p, "kbuild: cannot copy the tree '%s' to '%s': %s",
		       opts->tree, copy, strerror(-r));
		goto out;
	}
	if (strncmp(id, "git:", 4)) {
		r = kb_rm_rf(obj);
		if (r < 0)
			goto out;
	}
	kb_progress_stage(p, "applying patches");
	for (size_t i = 0; r == 0 && i < in->series.n; i++) {
		char src[PATH_MAX], msg[PATH_MAX + 256];

		r = kb_path(src, sizeof(src), "%s/%s", patches_dir,
			    in->series.v[i].name);
		if (r < 0)
			break;
		snprintf(
			msg, sizeof(msg),
			"kbuild: patch '%s' (series line %u) does not apply to the tree '%s' (%s):",
			in->series.v[i].name, in->series.v[i].line, opts->tree,
			id);
		r = kb_tree_apply(&(struct kb_tree_opts){ .log_fd = log_fd,
							  .p = p },
				  copy, src, msg);
		if (r < 0)
			r = -EINVAL;
	}
	if (r == 0)
		r = fileio_write_atomic(rec_path, want, strlen(want));
out:
	free(rec);
	free(want);
	return r;
}

int kbuild_run(const struct kbuild_opts *opts, struct kbuild_result *ret)
{
	const struct kb_line *l = kb_line_get(opts->line);
	const char *tarball = opts->tarball ? opts->tarball :
			      l		    ? l->tarball :
					      KBUILD_DEFAULT_TARBALL;
	const char *flavour = opts->tree ?
				      (opts->tree_series ? TREE_SERIES_FLAVOUR :
							   TREE_FLAVOUR) :
			      opts->flavour ? opts->flavour :
					      KBUILD_DEFAULT_FLAVOUR;
	/* The folders' and the lock's name: the flavour's, or for a user's
	 * tree "tree-" and a hash of its path. */
	char name[KBUILD_FLAVOUR_MAX + 8], user_src[PATH_MAX];
	char **absent = NULL;
	size_t nabsent = 0;
	char cache[PATH_MAX], tree[PATH_MAX], obj[PATH_MAX], dir[PATH_MAX],
		log_path[PATH_MAX];
	char patches_dir[PATH_MAX], shared_dir[PATH_MAX], path[PATH_MAX];
	struct kbuild_result res = { 0 };
	struct inputs in = { 0 };
	struct kb_progress p;
	double t0 = kb_now(), tbuild;
	struct kb_evidence *ev = NULL;
	size_t nev = 0;
	bool incremental = false, seeded = false;
	double seed_secs = -1;
	int jobs = opts->jobs, lock_fd = -1, log_fd = -1, r, r2;
	struct warnings warn = { 0 };
	char key[65], *release = NULL, *manifest = NULL;
	struct stat st;

	kb_progress_init(&p, opts->msg, opts->progress);
	if (!opts->kernel_dir)
		return -EINVAL;
	if (!l || (opts->tree && !kb_line_is_default(l))) {
		char err[256];

		if (l)
			snprintf(
				err, sizeof(err),
				"a user's tree is not a Debian line: no --line with --tree");
		else
			kbuild_line_check(opts->line, err, sizeof(err));
		kb_msg(&p, "kbuild: %s", err);
		return -EINVAL;
	}
	in.line = l;
	r = kb_line_name(l, flavour, name, sizeof(name));
	if (r < 0)
		return r;
	if (opts->tree) {
		char hex[65], what[PATH_MAX + 16];

		if (!realpath(opts->tree, user_src)) {
			r = -errno;
			kb_msg(&p, "kbuild: the tree '%s': %s", opts->tree,
			       strerror(-r));
			return r;
		}
		snprintf(what, sizeof(what), "%s%s", user_src,
			 opts->tree_series ? "\n+series" : "");
		r = kb_sha256_hex(what, strlen(what), hex);
		if (r < 0)
			return r;
		snprintf(name, sizeof(name), "tree-%.12s", hex);
		if (opts->n_without && !opts->tree_series) {
			kb_msg(&p,
			       "kbuild: leaving patches out of a user's tree needs the series on it");
			return -EINVAL;
		}
	} else if (!kb_flavour_is_builtin(flavour)) {
		char err[512];

		r = kbuild_flavour_check(opts->kernel_dir, flavour, err,
					 sizeof(err));
		if (r == -EINVAL)
			kb_msg(&p, "kbuild: %s", err);
		if (r < 0)
			return r;
	}
	if (jobs <= 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = n > 0 ? (int)n : 1;
	}
	r = opts->cache_dir ?
		    kb_path(cache, sizeof(cache), "%s", opts->cache_dir) :
		    kbuild_cache_dir(cache, sizeof(cache));
	if (r < 0)
		return r;
	if (!opts->tree && stat(tarball, &st) < 0) {
		r = -errno;
		kb_msg(&p, "kbuild: kernel source '%s': %s (install %s)",
		       tarball, strerror(-r), l->package);
		return r;
	}
	r = kb_line_patches_dir(l, opts->kernel_dir, patches_dir,
				sizeof(patches_dir));
	if (r == 0)
		r = kb_path(shared_dir, sizeof(shared_dir), "%s/patches",
			    opts->kernel_dir);
	if (r < 0)
		return r;

	/* The key, from the inputs alone. */
	if (opts->tree) {
		char err[PATH_MAX + 512];

		r = kb_usertree_id(user_src, in.source_version,
				   sizeof(in.source_version), err, sizeof(err));
		if (r < 0) {
			kb_msg(&p, "kbuild: %s", err);
			if (r == -EBUSY)
				r = -EINVAL;
			goto out;
		}
	} else {
		r = source_version(tarball, l, in.source_version,
				   sizeof(in.source_version));
	}
	if (r < 0)
		goto out;
	r = kb_run_capture((char *[]){ "gcc", "--version", NULL }, NULL,
			   in.compiler, sizeof(in.compiler));
	if (r < 0) {
		kb_msg(&p, "kbuild: cannot run 'gcc --version': %s",
		       strerror(-r));
		goto out;
	}
	*strchrnul(in.compiler, '\n') = '\0';
	if (opts->n_without && !strcmp(flavour, "vanilla")) {
		kb_msg(&p,
		       "kbuild: leaving patches out needs a flavour with the series, not '%s'",
		       flavour);
		r = -EINVAL;
		goto out;
	}
	r = read_inputs(opts->kernel_dir, l, flavour, opts, &in, &p);
	if (r < 0)
		goto out;
	r = compute_key(&in, flavour, key);
	if (r < 0)
		goto out;
	snprintf(res.key, sizeof(res.key), "%s", key);
	r = kb_path(dir, sizeof(dir), "%s/builds/%s", cache, key);
	if (r == 0)
		r = kb_path(res.config, sizeof(res.config), "%s/config", dir);
	if (r == 0 && opts->tree && !opts->tree_series)
		r = kb_path(res.tree, sizeof(res.tree), "%s", user_src);
	else if (r == 0)
		r = kb_path(res.tree, sizeof(res.tree), "%s/trees/%s", cache,
			    name);
	if (r < 0)
		goto out;
	snprintf(res.dir, sizeof(res.dir), "%s", dir);
	if (opts->key_only) {
		res.cache_hit = kb_cache_hit(dir, &res);
		goto done;
	}
	/* Before the hit check, so that gc --cache leaves the build alone
	 * while this process lives, whether it finds or makes it. */
	if (!opts->config_only) {
		r = kb_cache_use(&p, cache, "build", key);
		if (r < 0)
			goto out;
	}
	if (!opts->config_only && kb_cache_hit(dir, &res)) {
		res.cache_hit = true;
		goto done;
	}

	r = kb_mkdir_p(cache, 0755);
	if (r == 0)
		r = lock_flavour(cache, name, &p, &lock_fd);
	if (r < 0)
		goto out;
	/* Someone else may have built it while we waited. */
	if (!opts->config_only && kb_cache_hit(dir, &res)) {
		res.cache_hit = true;
		goto done;
	}
	if (opts->obj_dir)
		r = kb_path(obj, sizeof(obj), "%s", opts->obj_dir);
	else
		r = kb_path(obj, sizeof(obj), "%s/obj/%s", cache, name);
	if (r < 0)
		goto out;
	if (opts->config_only)
		r = kb_path(log_path, sizeof(log_path), "%s.config.log", obj);
	else
		r = kb_path(log_path, sizeof(log_path), "%s/build.log", dir);
	/* With config_only the log sits beside obj (which may be wiped). */
	if (r == 0)
		r = kb_mkdir_p(opts->config_only ? obj : dir, 0755);
	if (r < 0)
		goto out;
	log_fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (log_fd < 0) {
		r = -errno;
		kb_msg(&p, "kbuild: cannot create the log '%s': %s", log_path,
		       strerror(-r));
		goto out;
	}

	if (opts->tree) {
		if (opts->tree_series)
			r = prepare_copy(opts, cache, name, in.source_version,
					 &in, patches_dir, log_fd, &p, tree,
					 sizeof(tree), obj);
		else
			r = kb_path(tree, sizeof(tree), "%s", user_src);
		if (r == 0 && !opts->obj_dir)
			r = seed_usertree(cache, tree, obj, log_fd, &p,
					  &seed_secs);
		seeded = seed_secs >= 0;
		if (r == 0)
			r = kb_mkdir_p(obj, 0755);
		if (r < 0)
			goto out;
		r = kb_path(path, sizeof(path), "%s/.config", obj);
		if (r < 0)
			goto out;
		incremental = stat(path, &st) == 0;
		goto configure;
	}
	if (!opts->obj_dir && !kb_flavour_is_builtin(flavour)) {
		char from[KBUILD_FLAVOUR_MAX + 8];

		r = kb_line_name(l, SEED_FROM, from, sizeof(from));
		if (r == 0)
			r = seed(cache, from, name, log_fd, &p, &seed_secs);
		if (r < 0)
			goto out;
		seeded = seed_secs >= 0;
	}
	r = kb_tree_prepare(
		&(struct kb_tree_opts){
			.cache_dir = cache,
			.flavour = name,
			.tarball = tarball,
			.source_version = in.source_version,
			.patches_dir = patches_dir,
			.shared_dir = kb_line_is_default(l) ? NULL : shared_dir,
			.kernel_dir = opts->kernel_dir,
			.series = &in.series,
			.log_fd = log_fd,
			.p = &p,
		},
		tree, sizeof(tree));
	if (r < 0)
		goto out;
	r = obj_sync_tree_id(tree, obj, &p, &incremental);
	if (r < 0)
		goto out;
configure:
	r = configure(tree, obj, &in, jobs, log_fd, log_path, &p,
		      opts->tree ? &absent : NULL, &nabsent);
	if (r < 0)
		goto out;
	res.n_missing = nabsent;
	if (opts->config_only) {
		r = kb_path(res.config, sizeof(res.config), "%s/.config", obj);
		if (r < 0)
			goto out;
		res.dir[0] = '\0';
		kb_progress_done(&p);
		goto done;
	}

	tbuild = kb_now();
	kb_progress_stage(&p, "building bzImage and modules");
	r = make_target(tree, obj, jobs,
			(char *[]){ "bzImage", "modules", NULL }, log_fd, &p);
	r2 = update_ledger(obj, log_path, incremental, &warn);
	if (r < 0) {
		print_make_failure(&p, "make bzImage modules", log_path);
		goto out;
	}
	if (r2 < 0) {
		r = r2;
		kb_msg(&p,
		       "kbuild: cannot update the warning ledger in '%s': %s",
		       obj, strerror(-r));
		goto out;
	}
	r = kb_path(path, sizeof(path), "%s/include/config/kernel.release",
		    obj);
	if (r == 0)
		r = fileio_read(path, FILEIO_ALL, &release, NULL, NULL);
	if (r < 0)
		goto out;
	*strchrnul(release, '\n') = '\0';
	if (strlen(release) >= sizeof(res.release)) {
		r = -ENAMETOOLONG;
		goto out;
	}
	snprintf(res.release, sizeof(res.release), "%s", release);

	kb_progress_stage(&p, "installing modules");
	r = kb_path(path, sizeof(path), "%s/modules", dir);
	if (r == 0)
		r = kb_rm_rf(path);
	if (r == 0) {
		char mp[PATH_MAX + 32];

		r = kb_path(mp, sizeof(mp), "INSTALL_MOD_PATH=%s", path);
		if (r == 0)
			/* vmlinux keeps the debug info; the image needs none. */
			r = make_target(tree, obj, jobs,
					(char *[]){ mp, "INSTALL_MOD_STRIP=1",
						    "modules_install", NULL },
					log_fd, NULL);
		if (r < 0) {
			print_make_failure(&p, "make modules_install",
					   log_path);
			goto out;
		}
	}
	r = build_extmods(tree, obj, &in.extmods, path, jobs, log_fd, &p);
	if (r < 0) {
		print_make_failure(&p, "building kernel/modules", log_path);
		goto out;
	}
	/* The manifest's build_seconds: make and modules_install, not the
	 * evidence compiles. */
	tbuild = kb_now() - tbuild;
	/* The evidence measures our series' functions in Debian's tree. */
	if (in.evidence.nfn && !opts->tree) {
		kb_progress_stage(&p, "measuring code and stack (evidence)");
		r = kb_path(path, sizeof(path), "%s/evidence", dir);
		if (r == 0)
			r = kb_rm_rf(path);
		if (r == 0)
			r = kb_evidence_collect(obj, path, &in.evidence, &ev,
						&nev);
		if (r < 0) {
			kb_msg(&p,
			       "kbuild: cannot measure the functions of kernel/evidence in '%s': %s (compiler output in '%s')",
			       obj, strerror(-r), path);
			goto out;
		}
	}
	snprintf(path, sizeof(path), "the manifest of %s", key);
	r = make_manifest(flavour, key, res.release, &in, tbuild, incremental,
			  &warn, seeded ? SEED_FROM : NULL, seed_secs, ev, nev,
			  &(struct kb_manifest){
				  .tree_path = opts->tree ? user_src : NULL,
				  .tree_id = in.source_version,
				  .tree_series = opts->tree_series,
				  .absent = absent,
				  .nabsent = nabsent,
			  },
			  &manifest);
	if (r == 0)
		r = kb_cache_commit(obj, dir, manifest, path, sizeof(path));
	if (r < 0) {
		kb_msg(&p,
		       "kbuild: writing '%s': %s; the build is not cached (no manifest.json)",
		       path, strerror(-r));
		goto out;
	}
	kb_progress_stage(&p, "done");
	kb_progress_done(&p);
done:
	res.seconds = kb_now() - t0;
	*ret = res;
	r = 0;
out:
	kb_progress_done(&p);
	free(release);
	free(manifest);
	if (log_fd >= 0)
		close(log_fd);
	if (lock_fd >= 0)
		close(lock_fd);
	inputs_free(&in);
	kb_evidence_free(ev, nev);
	kb_strv_free(absent, nabsent);
	return r;
}
