// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a build is made of, read from kernel/ before anything else: the
 * line's series and its patches (less those left out), the config
 * fragments (configs/, the line's configs/<line>/, the flavour's folder),
 * the flavour's own patches, kernel/evidence and kernel/modules. The cache
 * key is computed from them alone (kb_inputs_key()), so a hit never
 * touches the tree or make; the manifest lists them (cache.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"

/* A user's tree, with or without the series: no line or flavour folder. */
static bool flavour_is_tree(const char *f)
{
	return !strcmp(f, KB_TREE_FLAVOUR) ||
	       !strcmp(f, KB_TREE_SERIES_FLAVOUR);
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

void kb_inputs_free(struct kb_inputs *in)
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

int kb_source_version(const char *tarball, const struct kb_line *l, char *buf,
		      size_t len)
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

/* Reads and parses the *.config fragments of dir, appending them to in.
 * Those of configs/ (prefix NULL) keep their bare names, base.config first;
 * others are named prefix/<file>. */
static int add_fragments(struct kb_inputs *in, const char *dir,
			 const char *prefix, struct kb_progress *p)
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
	if (!kb_grow(&in->frag_names, total) ||
	    !kb_grow(&in->frag_paths, total) ||
	    !kb_grow(&in->frag_data, total) || !kb_grow(&in->frag_len, total) ||
	    !kb_grow(&in->frags, total)) {
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
static void line_fragments_override(struct kb_inputs *in, size_t first)
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
static int add_flavour_patches(struct kb_inputs *in, const char *dir,
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
	if (!kb_grow(&in->series.v, total) ||
	    !kb_grow(&in->patch_data, total + 1) ||
	    !kb_grow(&in->patch_len, total + 1)) {
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

int kb_inputs_read(const char *kernel_dir, const struct kb_line *l,
		   const char *flavour, const struct kbuild_opts *opts,
		   struct kb_inputs *in, struct kb_progress *p)
{
	bool with_patches = strcmp(flavour, "vanilla") != 0 &&
			    strcmp(flavour, KB_TREE_FLAVOUR) != 0;
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

int kb_inputs_key(const struct kb_inputs *in, const char *flavour, char key[65])
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
