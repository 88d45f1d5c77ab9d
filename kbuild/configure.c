// SPDX-License-Identifier: GPL-2.0-only
/*
 * The config of a build: allnoconfig, the fragments merged with
 * merge_config.sh, olddefconfig, then the check that every requested
 * value survived; each one that did not is explained from the tree's
 * Kconfig (where it is defined, its dependencies and their values).
 */
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "kb.h"

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
		if (!kb_grow(missing, *nmissing + 1)) {
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
int kb_configure(const char *tree, const char *obj, const struct kb_inputs *in,
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
	r = kb_make(tree, obj, jobs, (char *[]){ "allnoconfig", NULL }, log_fd,
		    NULL);
	if (r < 0) {
		kb_make_failure(p, "make allnoconfig", log_path);
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
		kb_make_failure(p, "merge_config.sh", log_path);
		goto out;
	}
	r = kb_make(tree, obj, jobs, (char *[]){ "olddefconfig", NULL }, log_fd,
		    NULL);
	if (r < 0) {
		kb_make_failure(p, "make olddefconfig", log_path);
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
