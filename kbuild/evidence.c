// SPDX-License-Identifier: GPL-2.0-only
/*
 * Code and stack evidence per function (docs/evidence.md): for each
 * function kernel/evidence names, the size of its generated code, its
 * stack frame from -fstack-usage and the -Wvla and -Wframe-larger-than
 * warnings the compiler gave in it.
 *
 * Each object is compiled once more, outside make: the command kbuild
 * recorded in obj/<dir>/.<name>.o.cmd (so the same flags as the build's),
 * with -fstack-usage, its output in builds/<key>/evidence/<variant>/ and
 * without the dependency file and objtool's pass. A variant adds flags to
 * that command (CONFIG_BCH_CONST_PARAMS, which no fragment can set: only
 * a driver's select does). The object tree is never written.
 *
 * The parsers (the spec, .su files, nm -S, the compiler's warnings) are
 * pure and unit-tested; kb_evidence_collect() runs the programs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wordexp.h>

#include "fileio.h"
#include "kb.h"

/* A compiler's or nm's output kept for the parsers. */
#define EVIDENCE_OUTPUT_MAX (1u << 20)
#define EVIDENCE_ARGS_MAX 1024

void kb_evidence_spec_free(struct kb_evidence_spec *s)
{
	for (size_t i = 0; i < s->nfn; i++) {
		free(s->fn[i].object);
		free(s->fn[i].function);
	}
	free(s->fn);
	for (size_t i = 0; i < s->nvar; i++) {
		free(s->var[i].name);
		free(s->var[i].object);
		kb_strv_free(s->var[i].flags, s->var[i].nflags);
	}
	free(s->var);
	memset(s, 0, sizeof(*s));
}

static bool word_ok(const char *w, bool flag)
{
	if (!*w || strlen(w) > 200)
		return false;
	if (flag)
		return w[0] == '-' && strspn(w, "abcdefghijklmnopqrstuvwxyz"
						"ABCDEFGHIJKLMNOPQRSTUVWXYZ"
						"0123456789_-=,.") == strlen(w);
	return w[0] != '.' && w[0] != '/' && !strstr(w, "..") &&
	       strspn(w,
		      "abcdefghijklmnopqrstuvwxyz"
		      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./") == strlen(w);
}

static bool object_ok(const char *w)
{
	size_t n = strlen(w);

	return word_ok(w, false) && n > 2 && !strcmp(w + n - 2, ".o");
}

int kb_evidence_spec_parse(const char *file, const char *text,
			   struct kb_evidence_spec *ret, char *err,
			   size_t errlen)
{
	struct kb_evidence_spec s = { 0 };
	char *copy = strdup(text), *line, *save = NULL;
	unsigned lineno = 0;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	for (char *p = copy; p && r == 0; p = line) {
		char *nl = strchr(p, '\n'), *w[64];
		size_t nw = 0;

		line = nl ? nl + 1 : NULL;
		if (nl)
			*nl = '\0';
		lineno++;
		for (char *t = strtok_r(p, " \t", &save); t && nw < 64;
		     t = strtok_r(NULL, " \t", &save))
			w[nw++] = t;
		if (!nw || w[0][0] == '#')
			continue;
		if (!strcmp(w[0], "function") && nw == 3 && object_ok(w[1]) &&
		    word_ok(w[2], false) && !strchr(w[2], '/')) {
			void *v = reallocarray(s.fn, s.nfn + 1, sizeof(*s.fn));

			if (!v) {
				r = -ENOMEM;
				break;
			}
			s.fn = v;
			s.fn[s.nfn].object = strdup(w[1]);
			s.fn[s.nfn].function = strdup(w[2]);
			if (!s.fn[s.nfn++].function || !s.fn[s.nfn - 1].object)
				r = -ENOMEM;
			continue;
		}
		if (!strcmp(w[0], "variant") && nw >= 4 && nw < 64 &&
		    word_ok(w[1], false) && !strchr(w[1], '/') &&
		    strcmp(w[1], KB_EVIDENCE_BUILD) && object_ok(w[2])) {
			struct kb_evidence_variant *var;
			bool ok = true;
			void *v;

			for (size_t i = 3; i < nw; i++)
				ok = ok && word_ok(w[i], true);
			if (!ok)
				goto bad;
			v = reallocarray(s.var, s.nvar + 1, sizeof(*s.var));
			if (!v) {
				r = -ENOMEM;
				break;
			}
			s.var = v;
			var = &s.var[s.nvar++];
			memset(var, 0, sizeof(*var));
			var->name = strdup(w[1]);
			var->object = strdup(w[2]);
			var->flags = calloc(nw - 3, sizeof(*var->flags));
			if (!var->name || !var->object || !var->flags) {
				r = -ENOMEM;
				break;
			}
			for (size_t i = 3; i < nw; i++) {
				var->flags[var->nflags] = strdup(w[i]);
				if (!var->flags[var->nflags++])
					r = -ENOMEM;
			}
			continue;
		}
bad:
		snprintf(
			err, errlen,
			"%s:%u: not 'function OBJECT.o NAME' or 'variant NAME OBJECT.o -FLAG...'",
			file, lineno);
		r = -EINVAL;
	}
	free(copy);
	if (r < 0) {
		kb_evidence_spec_free(&s);
		return r;
	}
	*ret = s;
	return 0;
}

/* A symbol that is fn itself or one of GCC's parts of it (fn.cold,
 * fn.constprop.0, fn.isra.0, fn.part.0). */
static bool symbol_of(const char *sym, size_t len, const char *fn)
{
	size_t n = strlen(fn);

	return len >= n && !strncmp(sym, fn, n) && (len == n || sym[n] == '.');
}

int kb_su_parse(const char *text, const char *fn, long *ret_bytes, char *kind,
		size_t kindlen)
{
	long best = -1;

	for (const char *s = text; s && *s;) {
		const char *e = strchr(s, '\n'), *t1, *t2, *name;
		size_t len = e ? (size_t)(e - s) : strlen(s);

		/* path:line:col:name<TAB>bytes<TAB>kind */
		t1 = memchr(s, '\t', len);
		t2 = t1 ? memchr(t1 + 1, '\t', len - (t1 + 1 - s)) : NULL;
		if (t1 && t2) {
			name = t1;
			while (name > s && name[-1] != ':')
				name--;
			if (symbol_of(name, t1 - name, fn)) {
				long b = strtol(t1 + 1, NULL, 10);

				/* The function itself wins over its parts. */
				if (best < 0 ||
				    (size_t)(t1 - name) == strlen(fn)) {
					best = b;
					snprintf(kind, kindlen, "%.*s",
						 (int)(s + len - t2 - 1),
						 t2 + 1);
				}
			}
		}
		s = e ? e + 1 : NULL;
	}
	*ret_bytes = best;
	return best < 0 ? -ENOENT : 0;
}

int kb_nm_code_size(const char *text, const char *fn, long *ret_bytes,
		    char *symbols, size_t symlen)
{
	long total = -1;
	size_t used = 0;

	if (symlen)
		symbols[0] = '\0';
	for (const char *s = text; s && *s;) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		char addr[32], size[32], type[4], name[256];

		/* address size type name: functions are t or T */
		if (len < 300 &&
		    sscanf(s, "%31s %31s %3s %255s", addr, size, type, name) ==
			    4 &&
		    (!strcmp(type, "t") || !strcmp(type, "T")) &&
		    symbol_of(name, strlen(name), fn)) {
			total = (total < 0 ? 0 : total) +
				strtol(size, NULL, 16);
			if (used < symlen)
				used += snprintf(symbols + used, symlen - used,
						 "%s%s", used ? " " : "", name);
		}
		s = e ? e + 1 : NULL;
	}
	*ret_bytes = total;
	return total < 0 ? -ENOENT : 0;
}

void kb_warnings_in(const char *text, const char *fn, unsigned *ret_vla,
		    unsigned *ret_frame)
{
	bool in = false;

	*ret_vla = *ret_frame = 0;
	for (const char *s = text; s && *s;) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		const char *f = memmem(s, len, ": In function ", 14);

		if (f) {
			/* 'name' in the C locale, ‘name’ in UTF-8 ones. */
			const char *name = f + 14, *end = s + len, *q;

			if (name < end && *name == '\'')
				name++;
			else if (end - name >= 3 &&
				 !memcmp(name, "\xe2\x80\x98", 3))
				name += 3;
			q = name;
			while (q < end && *q != '\'' && *q != '\xe2')
				q++;
			in = q < end && symbol_of(name, q - name, fn);
		} else if (memmem(s, len, ": At top level:", 15)) {
			in = false;
		} else if (in && memmem(s, len, "warning:", 8)) {
			if (memmem(s, len, "[-Wvla]", 7) ||
			    memmem(s, len, "[-Wvla-larger-than=]", 20))
				(*ret_vla)++;
			if (memmem(s, len, "[-Wframe-larger-than", 20))
				(*ret_frame)++;
		}
		s = e ? e + 1 : NULL;
	}
}

/* The recorded compile command of obj/<object> as an argv: the first
 * command of the .cmd line (objtool's pass after ';' left out), without
 * the dependency file, with -fstack-usage and the variant's flags, and
 * writing out_o. */
static int compile_argv(const char *objdir, const char *object,
			const char *out_o, char *const *flags, size_t nflags,
			wordexp_t *we, char ***ret)
{
	char path[PATH_MAX], *text = NULL, *cmd, **argv;
	const char *slash = strrchr(object, '/');
	size_t n = 0;
	int r;

	r = kb_path(path, sizeof(path), "%s/%.*s.%s.cmd", objdir,
		    slash ? (int)(slash + 1 - object) : 0, object,
		    slash ? slash + 1 : object);
	if (r < 0)
		return r;
	r = fileio_read(path, 4u << 20, &text, NULL, NULL);
	if (r < 0)
		return r;
	cmd = strstr(text, " := ");
	r = -EBADMSG;
	if (!cmd)
		goto out;
	cmd += 4;
	*strchrnul(cmd, '\n') = '\0';
	/* kbuild joins the compile and objtool's pass with " ; ". */
	if (strstr(cmd, " ; "))
		*strstr(cmd, " ; ") = '\0';
	if (wordexp(cmd, we, WRDE_NOCMD) != 0)
		goto out;
	argv = calloc(we->we_wordc + nflags + 4, sizeof(*argv));
	r = -ENOMEM;
	if (!argv)
		goto out;
	for (size_t i = 0; i < we->we_wordc; i++) {
		char *w = we->we_wordv[i];

		if (!strncmp(w, "-Wp,-MMD,", 9) || !strncmp(w, "-Wp,-MD,", 8))
			continue;
		if (!strcmp(w, "-o") && i + 1 < we->we_wordc) {
			argv[n++] = w;
			argv[n++] = (char *)out_o;
			i++;
			continue;
		}
		/* The source comes last: our flags go before it. */
		if (i + 1 == we->we_wordc) {
			argv[n++] = "-fstack-usage";
			for (size_t k = 0; k < nflags; k++)
				argv[n++] = flags[k];
		}
		argv[n++] = w;
	}
	argv[n] = NULL;
	*ret = argv;
	r = 0;
out:
	free(text);
	return r;
}

/* Compiles one object into dir and fills the entries of its functions. */
static int evidence_object(const char *objdir, const char *dir,
			   const char *variant, const char *object,
			   char *const *flags, size_t nflags,
			   const struct kb_evidence_spec *spec,
			   struct kb_evidence **v, size_t *n)
{
	char base[PATH_MAX], out_o[PATH_MAX], su[PATH_MAX], logp[PATH_MAX];
	char *out = NULL, *sutext = NULL, *nmout = NULL, **argv = NULL;
	wordexp_t we = { 0 };
	bool expanded = false;
	int r;

	snprintf(base, sizeof(base), "%s", object);
	for (char *c = base; *c; c++)
		if (*c == '/')
			*c = '_';
	base[strlen(base) - 2] = '\0';
	r = kb_path(out_o, sizeof(out_o), "%s/%s.o", dir, base);
	if (r == 0)
		r = kb_path(su, sizeof(su), "%s/%s.su", dir, base);
	if (r == 0)
		r = kb_path(logp, sizeof(logp), "%s/%s.log", dir, base);
	if (r < 0)
		return r;
	r = compile_argv(objdir, object, out_o, flags, nflags, &we, &argv);
	expanded = r == 0 || r == -ENOMEM;
	if (r == -ENOENT)
		return 0; /* not built in this flavour */
	if (r < 0)
		goto out;
	out = malloc(EVIDENCE_OUTPUT_MAX);
	nmout = malloc(EVIDENCE_OUTPUT_MAX);
	r = out && nmout ? 0 : -ENOMEM;
	if (r == 0)
		r = kb_run_output(argv, objdir, out, EVIDENCE_OUTPUT_MAX);
	if (out)
		fileio_write_atomic(logp, out, strlen(out));
	if (r == 0)
		r = fileio_read(su, FILEIO_ALL, &sutext, NULL, NULL);
	if (r == 0)
		r = kb_run_capture((char *[]){ "nm", "-S", "--defined-only",
					       out_o, NULL },
				   NULL, nmout, EVIDENCE_OUTPUT_MAX);
	if (r < 0)
		goto out;
	for (size_t i = 0; i < spec->nfn; i++) {
		struct kb_evidence *e;
		char kind[64] = "", syms[256] = "";
		void *nv;

		if (strcmp(spec->fn[i].object, object))
			continue;
		nv = reallocarray(*v, *n + 1, sizeof(**v));
		if (!nv) {
			r = -ENOMEM;
			goto out;
		}
		*v = nv;
		e = &(*v)[(*n)++];
		memset(e, 0, sizeof(*e));
		kb_su_parse(sutext, spec->fn[i].function, &e->frame_bytes, kind,
			    sizeof(kind));
		kb_nm_code_size(nmout, spec->fn[i].function, &e->code_bytes,
				syms, sizeof(syms));
		kb_warnings_in(out, spec->fn[i].function, &e->vla_warnings,
			       &e->frame_warnings);
		e->object = strdup(object);
		e->function = strdup(spec->fn[i].function);
		e->variant = strdup(variant);
		e->symbols = strdup(syms);
		e->frame_kind = strdup(kind);
		if (!e->object || !e->function || !e->variant || !e->symbols ||
		    !e->frame_kind) {
			r = -ENOMEM;
			goto out;
		}
	}
	unlink(out_o);
out:
	if (expanded)
		wordfree(&we);
	free(argv);
	free(out);
	free(nmout);
	free(sutext);
	return r;
}

int kb_evidence_collect(const char *objdir, const char *dir,
			const struct kb_evidence_spec *spec,
			struct kb_evidence **ret, size_t *ret_n)
{
	struct kb_evidence *v = NULL;
	char vdir[PATH_MAX];
	size_t n = 0;
	int r = 0;

	/* The build's own flags: each object once, in spec order. */
	r = kb_path(vdir, sizeof(vdir), "%s/" KB_EVIDENCE_BUILD, dir);
	if (r == 0)
		r = kb_mkdir_p(vdir, 0755);
	for (size_t i = 0; r == 0 && i < spec->nfn; i++) {
		bool seen = false;

		for (size_t k = 0; k < i; k++)
			seen = seen ||
			       !strcmp(spec->fn[k].object, spec->fn[i].object);
		if (!seen)
			r = evidence_object(objdir, vdir, KB_EVIDENCE_BUILD,
					    spec->fn[i].object, NULL, 0, spec,
					    &v, &n);
	}
	for (size_t i = 0; r == 0 && i < spec->nvar; i++) {
		r = kb_path(vdir, sizeof(vdir), "%s/%s", dir,
			    spec->var[i].name);
		if (r == 0)
			r = kb_mkdir_p(vdir, 0755);
		if (r == 0)
			r = evidence_object(objdir, vdir, spec->var[i].name,
					    spec->var[i].object,
					    spec->var[i].flags,
					    spec->var[i].nflags, spec, &v, &n);
	}
	if (r < 0) {
		kb_evidence_free(v, n);
		return r;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

void kb_evidence_free(struct kb_evidence *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].object);
		free(v[i].function);
		free(v[i].variant);
		free(v[i].symbols);
		free(v[i].frame_kind);
	}
	free(v);
}
