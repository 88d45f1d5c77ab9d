// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pure parsers for .config files, config fragments and Kconfig files, and
 * the check that every option a fragment asks for reached the final .config
 * with the requested value. No I/O here: callers pass text.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kb.h"

static bool sym_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Copies [s, s+n) into dst[cap]; -EINVAL when empty or too long. */
static int copy_span(char *dst, size_t cap, const char *s, size_t n)
{
	if (n == 0 || n >= cap)
		return -EINVAL;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return 0;
}

int kb_config_line(const char *line, char name[KB_SYM_MAX],
		   char value[KB_VAL_MAX])
{
	const char *s = line, *e;
	size_t n;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '#') {
		static const char tail[] = " is not set";

		s++;
		while (*s == ' ')
			s++;
		if (strncmp(s, "CONFIG_", 7))
			return KB_CFG_OTHER;
		s += 7;
		for (e = s; sym_char(*e); e++)
			;
		/* "# CONFIG_FOO is not set", optionally with trailing blanks. */
		if (strncmp(e, tail, sizeof(tail) - 1))
			return KB_CFG_OTHER;
		for (const char *t = e + sizeof(tail) - 1; *t; t++)
			if (!isspace((unsigned char)*t))
				return KB_CFG_OTHER;
		if (copy_span(name, KB_SYM_MAX, s, e - s) < 0)
			return -EINVAL;
		strcpy(value, "n");
		return KB_CFG_UNSET;
	}
	if (*s == '\0' || *s == '\n' || *s == '\r')
		return KB_CFG_OTHER;
	if (strncmp(s, "CONFIG_", 7))
		return -EINVAL;
	s += 7;
	for (e = s; sym_char(*e); e++)
		;
	if (*e != '=' || copy_span(name, KB_SYM_MAX, s, e - s) < 0)
		return -EINVAL;
	s = e + 1;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (copy_span(value, KB_VAL_MAX, s, n) < 0)
		return -EINVAL;
	return KB_CFG_SET;
}

/* Iterates over the lines of text: copies each into line[cap] (truncated
 * lines are reported as too long through *ret_long). */
static const char *next_line(const char *text, char *line, size_t cap,
			     bool *ret_long)
{
	const char *e = strchr(text, '\n');
	size_t n = e ? (size_t)(e - text) : strlen(text);

	*ret_long = n >= cap;
	if (n >= cap)
		n = cap - 1;
	memcpy(line, text, n);
	line[n] = '\0';
	if (n && line[n - 1] == '\r')
		line[n - 1] = '\0';
	return e ? e + 1 : text + strlen(text);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct kb_config_entry *x = a, *y = b;

	return strcmp(x->name, y->name);
}

struct seq_entry {
	struct kb_config_entry e;
	size_t seq;
};

static int cmp_seq(const void *a, const void *b)
{
	const struct seq_entry *x = a, *y = b;
	int c = strcmp(x->e.name, y->e.name);

	if (c)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void kb_config_free(struct kb_config *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].name);
		free(c->v[i].value);
	}
	free(c->v);
	c->v = NULL;
	c->n = 0;
}

int kb_config_parse(const char *text, struct kb_config *ret)
{
	struct kb_config c = { 0 };
	char line[KB_SYM_MAX + KB_VAL_MAX + 16];
	char name[KB_SYM_MAX], value[KB_VAL_MAX];
	size_t cap = 0, out = 0;
	const char *p = text;

	while (*p) {
		bool too_long;
		int k;

		p = next_line(p, line, sizeof(line), &too_long);
		k = kb_config_line(line, name, value);
		if (k <= KB_CFG_OTHER || too_long)
			continue; /* kconfig writes only well-formed lines */
		if (c.n == cap) {
			struct kb_config_entry *nv =
				realloc(c.v, (cap * 2 + 64) * sizeof(*nv));

			if (!nv)
				goto nomem;
			c.v = nv;
			cap = cap * 2 + 64;
		}
		c.v[c.n].name = strdup(name);
		c.v[c.n].value = strdup(value);
		c.n++;
		if (!c.v[c.n - 1].name || !c.v[c.n - 1].value)
			goto nomem;
	}
	/* Sort by name, keeping the order of equal names (seq), then keep
	 * the last assignment of each name. */
	if (c.n) {
		struct seq_entry *tmp = malloc(c.n * sizeof(*tmp));

		if (!tmp)
			goto nomem;
		for (size_t i = 0; i < c.n; i++)
			tmp[i] = (struct seq_entry){ c.v[i], i };
		qsort(tmp, c.n, sizeof(*tmp), cmp_seq);
		for (size_t i = 0; i < c.n; i++) {
			if (i + 1 < c.n &&
			    !strcmp(tmp[i].e.name, tmp[i + 1].e.name)) {
				free(tmp[i].e.name);
				free(tmp[i].e.value);
				continue;
			}
			c.v[out++] = tmp[i].e;
		}
		free(tmp);
		c.n = out;
	}
	*ret = c;
	return 0;
nomem:
	kb_config_free(&c);
	return -ENOMEM;
}

const char *kb_config_get(const struct kb_config *c, const char *name)
{
	struct kb_config_entry key = { .name = (char *)name };
	struct kb_config_entry *e;

	if (!c->n)
		return NULL;
	e = bsearch(&key, c->v, c->n, sizeof(*c->v), cmp_entry);
	return e ? e->value : NULL;
}

void kb_fragment_free(struct kb_fragment *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++) {
		free(f->v[i].name);
		free(f->v[i].value);
	}
	free(f->v);
	free(f->file);
	memset(f, 0, sizeof(*f));
}

int kb_fragment_parse(const char *file, const char *text,
		      struct kb_fragment *ret, unsigned *ret_line)
{
	struct kb_fragment f = { 0 };
	char line[KB_SYM_MAX + KB_VAL_MAX + 16];
	char name[KB_SYM_MAX], value[KB_VAL_MAX];
	const char *p = text;
	unsigned lineno = 0;
	int r = 0;

	f.file = strdup(file);
	if (!f.file)
		return -ENOMEM;
	while (*p) {
		struct kb_want *nv;
		bool too_long;
		int k;

		p = next_line(p, line, sizeof(line), &too_long);
		lineno++;
		k = kb_config_line(line, name, value);
		if (k < 0 || too_long) {
			*ret_line = lineno;
			r = -EINVAL;
			goto out;
		}
		if (k == KB_CFG_OTHER)
			continue;
		/* CONFIG_X=n asks for the same as "is not set". */
		nv = realloc(f.v, (f.n + 1) * sizeof(*nv));
		if (!nv) {
			r = -ENOMEM;
			goto out;
		}
		f.v = nv;
		f.v[f.n].name = strdup(name);
		f.v[f.n].value = strdup(value);
		f.v[f.n].line = lineno;
		f.n++;
		if (!f.v[f.n - 1].name || !f.v[f.n - 1].value) {
			r = -ENOMEM;
			goto out;
		}
	}
	*ret = f;
	return 0;
out:
	kb_fragment_free(&f);
	return r;
}

int kb_config_verify(const struct kb_fragment *frags, size_t nfrags,
		     const struct kb_config *cfg, struct kb_mismatch **ret,
		     size_t *ret_n)
{
	struct kb_mismatch *v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < nfrags; i++) {
		for (size_t j = 0; j < frags[i].n; j++) {
			const struct kb_want *w = &frags[i].v[j];
			const char *got = kb_config_get(cfg, w->name);
			struct kb_mismatch *nv;
			bool ok;

			if (!strcmp(w->value, "n"))
				ok = !got || !strcmp(got, "n");
			else
				ok = got && !strcmp(got, w->value);
			if (ok)
				continue;
			nv = realloc(v, (n + 1) * sizeof(*nv));
			if (!nv) {
				free(v);
				return -ENOMEM;
			}
			v = nv;
			v[n++] = (struct kb_mismatch){
				.file = frags[i].file,
				.line = w->line,
				.name = w->name,
				.want = w->value,
				.got = got ? got : "(absent)",
			};
		}
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

/* ---- Kconfig ---- */

void kb_ksyms_free(struct kb_ksyms *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		for (size_t j = 0; j < s->v[i].ndeps; j++) {
			free(s->v[i].deps[j].file);
			free(s->v[i].deps[j].kind);
			free(s->v[i].deps[j].expr);
		}
		free(s->v[i].deps);
		free(s->v[i].file);
	}
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

/* An open if/menu block and the conditions it puts on its entries. */
struct kc_block {
	bool is_menu;
	unsigned line;
	char *expr; /* "if" expression or the menu's depends on (joined) */
};

#define KC_DEPTH 64

static int add_dep(struct kb_ksym *s, const char *file, unsigned line,
		   const char *kind, const char *expr)
{
	struct kb_kdep *nv = realloc(s->deps, (s->ndeps + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	s->deps = nv;
	nv[s->ndeps] = (struct kb_kdep){
		.file = strdup(file),
		.line = line,
		.kind = strdup(kind),
		.expr = strdup(expr),
	};
	s->ndeps++;
	if (!nv[s->ndeps - 1].file || !nv[s->ndeps - 1].kind ||
	    !nv[s->ndeps - 1].expr)
		return -ENOMEM;
	return 0;
}

/* Indentation width of a line, tabs to 8. */
static unsigned indent_of(const char *s)
{
	unsigned w = 0;

	for (; *s == ' ' || *s == '\t'; s++)
		w = *s == '\t' ? (w + 8) & ~7u : w + 1;
	return w;
}

/* If s starts with the keyword kw followed by a blank or the end, returns
 * the rest with blanks skipped; else NULL. */
static const char *keyword(const char *s, const char *kw)
{
	size_t n = strlen(kw);

	if (strncmp(s, kw, n) || (s[n] && s[n] != ' ' && s[n] != '\t'))
		return NULL;
	s += n;
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static char *strip_dup(const char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	/* Drop a trailing "# comment". */
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '#') {
			n = i;
			while (n && isspace((unsigned char)s[n - 1]))
				n--;
			break;
		}
	}
	return strndup(s, n);
}

int kb_kconfig_scan(const char *file, const char *text, const char *name,
		    struct kb_ksyms *ret)
{
	static const char *const entry_kw[] = {
		"config",  "menuconfig", "choice",  "endchoice", "menu",
		"endmenu", "if",	 "endif",   "source",	 "rsource",
		"osource", "orsource",	 "comment", "mainmenu",
	};
	struct kc_block blocks[KC_DEPTH];
	unsigned depth = 0, lineno = 0, help_indent = 0;
	struct kb_ksym *cur = NULL; /* the matching entry being read */
	bool in_menu_head = false; /* depends on lines now belong to the menu */
	bool in_help = false;
	char *joined = NULL;
	const char *p = text;
	int r = 0;

	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		unsigned first = lineno + 1;
		const char *s, *rest;
		bool is_entry = false;

		/* Join backslash continuations. */
		free(joined);
		joined = strndup(p, n);
		if (!joined) {
			r = -ENOMEM;
			goto out;
		}
		lineno++;
		p = e ? e + 1 : p + n;
		while (strlen(joined) && joined[strlen(joined) - 1] == '\\' &&
		       *p) {
			const char *e2 = strchr(p, '\n');
			size_t n2 = e2 ? (size_t)(e2 - p) : strlen(p);
			size_t jl = strlen(joined) - 1;
			char *nj = realloc(joined, jl + n2 + 2);

			if (!nj) {
				r = -ENOMEM;
				goto out;
			}
			joined = nj;
			joined[jl] = ' ';
			memcpy(joined + jl + 1, p, n2);
			joined[jl + 1 + n2] = '\0';
			lineno++;
			p = e2 ? e2 + 1 : p + n2;
		}
		s = joined;
		while (*s == ' ' || *s == '\t')
			s++;
		if (in_help) {
			if (*s == '\0')
				continue;
			if (help_indent == 0)
				help_indent = indent_of(joined);
			if (indent_of(joined) >= help_indent)
				continue;
			in_help = false;
		}
		if (*s == '\0' || *s == '#')
			continue;
		for (size_t i = 0; i < sizeof(entry_kw) / sizeof(entry_kw[0]);
		     i++)
			if (keyword(s, entry_kw[i]))
				is_entry = true;
		if (is_entry) {
			cur = NULL;
			in_menu_head = false;
		}
		if ((rest = keyword(s, "config")) ||
		    (rest = keyword(s, "menuconfig"))) {
			size_t len = 0;

			while (sym_char(rest[len]))
				len++;
			if (len == strlen(name) && !strncmp(rest, name, len)) {
				struct kb_ksym *nv = realloc(
					ret->v, (ret->n + 1) * sizeof(*nv));

				if (!nv) {
					r = -ENOMEM;
					goto out;
				}
				ret->v = nv;
				cur = &nv[ret->n++];
				*cur = (struct kb_ksym){ .file = strdup(file),
							 .line = first };
				if (!cur->file) {
					r = -ENOMEM;
					goto out;
				}
				for (unsigned i = 0; i < depth; i++) {
					if (!blocks[i].expr)
						continue;
					r = add_dep(cur, file, blocks[i].line,
						    blocks[i].is_menu ?
							    "menu depends on" :
							    "if",
						    blocks[i].expr);
					if (r < 0)
						goto out;
				}
			}
		} else if ((rest = keyword(s, "if"))) {
			if (depth < KC_DEPTH)
				blocks[depth++] = (struct kc_block){
					.line = first, .expr = strip_dup(rest)
				};
		} else if ((rest = keyword(s, "menu"))) {
			if (depth < KC_DEPTH)
				blocks[depth++] =
					(struct kc_block){ .is_menu = true,
							   .line = first };
			in_menu_head = true;
		} else if (keyword(s, "endif") || keyword(s, "endmenu")) {
			if (depth) {
				depth--;
				free(blocks[depth].expr);
			}
		} else if ((rest = keyword(s, "depends"))) {
			const char *expr = keyword(rest, "on");

			if (!expr)
				continue;
			if (cur) {
				char *x = strip_dup(expr);

				r = x ? add_dep(cur, file, first, "depends on",
						x) :
					-ENOMEM;
				free(x);
				if (r < 0)
					goto out;
			} else if (in_menu_head && depth &&
				   blocks[depth - 1].is_menu) {
				struct kc_block *b = &blocks[depth - 1];
				char *x = strip_dup(expr);

				if (!x) {
					r = -ENOMEM;
					goto out;
				}
				if (b->expr) {
					char *j = NULL;

					if (asprintf(&j, "(%s) && (%s)",
						     b->expr, x) < 0)
						j = NULL;
					free(x);
					free(b->expr);
					b->expr = j;
				} else {
					b->expr = x;
					b->line = first;
				}
			}
		} else if (keyword(s, "help") || keyword(s, "---help---")) {
			in_help = true;
			help_indent = 0;
		} else if (cur &&
			   (keyword(s, "bool") || keyword(s, "tristate") ||
			    keyword(s, "string") || keyword(s, "int") ||
			    keyword(s, "hex") || keyword(s, "prompt") ||
			    keyword(s, "def_bool") ||
			    keyword(s, "def_tristate"))) {
			/* A type with a quoted string, or "prompt", is a prompt. */
			if (keyword(s, "prompt") ||
			    (!keyword(s, "def_bool") &&
			     !keyword(s, "def_tristate") && strchr(s, '"')))
				cur->has_prompt = true;
		}
	}
out:
	free(joined);
	while (depth)
		free(blocks[--depth].expr);
	return r;
}

void kb_expr_values(const char *expr, const struct kb_config *cfg, char *buf,
		    size_t len)
{
	size_t used = 0;

	if (!len)
		return;
	buf[0] = '\0';
	for (const char *s = expr; *s;) {
		const char *e = s, *val;
		bool upper = false, lower = false, dup = false;
		char sym[KB_SYM_MAX];

		if (!sym_char(*s)) {
			s++;
			continue;
		}
		for (; sym_char(*e); e++) {
			upper |= isupper((unsigned char)*e) != 0;
			lower |= islower((unsigned char)*e) != 0;
		}
		/* Symbols are upper case; skip m/y/n, numbers and functions. */
		if (!upper || lower || (size_t)(e - s) >= sizeof(sym)) {
			s = e;
			continue;
		}
		memcpy(sym, s, e - s);
		sym[e - s] = '\0';
		s = e;
		for (const char *q = buf; (q = strstr(q, sym)); q++)
			if ((q == buf || q[-1] == ' ') && q[strlen(sym)] == '=')
				dup = true;
		if (dup)
			continue;
		val = kb_config_get(cfg, sym);
		if (!val)
			val = "n";
		if (used + 1 < len) {
			int w = snprintf(buf + used, len - used, "%s%s=%s",
					 used ? " " : "", sym, val);

			if (w < 0)
				break;
			used += (size_t)w < len - used ? (size_t)w :
							 len - used - 1;
		}
	}
}
