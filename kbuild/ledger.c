// SPDX-License-Identifier: GPL-2.0-only
/*
 * The warnings of a build: kb_count_warnings() counts a log's -Wvla and
 * -Wframe-larger-than= lines, and the warning ledger,
 * obj/<flavour>/.vlalab-warnings, keeps them per object so an incremental
 * build still reports the whole kernel's counts (kb_ledger_*()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb.h"

/* Count the line @p (@n bytes, no newline) if it is a -Wvla or a
 * -Wframe-larger-than= warning: the one rule both counters use. */
static void count_line(const char *p, size_t n, unsigned *vla, unsigned *frame)
{
	if (!memmem(p, n, "warning:", 8))
		return;
	if (memmem(p, n, "[-Wvla]", 7) ||
	    memmem(p, n, "[-Wvla-larger-than=]", 20))
		(*vla)++;
	if (memmem(p, n, "[-Wframe-larger-than", 20))
		(*frame)++;
}

void kb_count_warnings(const char *log, size_t len, unsigned *ret_vla,
		       unsigned *ret_frame)
{
	unsigned vla = 0, frame = 0;
	const char *p = log, *end;

	*ret_vla = *ret_frame = 0;
	if (!log || !len)
		return;
	end = log + len;
	while (p && p < end) {
		const char *e = memchr(p, '\n', end - p);
		size_t n = e ? (size_t)(e - p) : (size_t)(end - p);

		count_line(p, n, &vla, &frame);
		p = e ? e + 1 : end;
	}
	*ret_vla = vla;
	*ret_frame = frame;
}

/* ---- the warning ledger ---- */

void kb_ledger_free(struct kb_ledger *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].obj);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static int ledger_set(struct kb_ledger *l, const char *obj, size_t objlen,
		      unsigned vla, unsigned frame)
{
	struct kb_ledger_entry *nv;

	for (size_t i = 0; i < l->n; i++) {
		if (strlen(l->v[i].obj) == objlen &&
		    !strncmp(l->v[i].obj, obj, objlen)) {
			l->v[i].vla = vla;
			l->v[i].frame = frame;
			return 0;
		}
	}
	nv = realloc(l->v, (l->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	l->v = nv;
	nv[l->n].obj = strndup(obj, objlen);
	if (!nv[l->n].obj)
		return -ENOMEM;
	nv[l->n].vla = vla;
	nv[l->n].frame = frame;
	l->n++;
	return 0;
}

int kb_ledger_parse(const char *text, struct kb_ledger *ret)
{
	struct kb_ledger l = { 0 };
	const char *p = text, *e;
	int r = 0;

	if (!strncmp(p, "vlalab-warnings 1 complete\n", 27))
		l.complete = true;
	else if (strncmp(p, "vlalab-warnings 1 partial\n", 26))
		return -EBADMSG;
	p = strchr(p, '\n') + 1;
	for (; *p; p = e + 1) {
		unsigned vla, frame;
		const char *tab;

		e = strchr(p, '\n');
		if (!e)
			break;
		tab = memchr(p, '\t', e - p);
		if (!tab || sscanf(tab + 1, "%u\t%u", &vla, &frame) != 2) {
			r = -EBADMSG;
			break;
		}
		r = ledger_set(&l, p, tab - p, vla, frame);
		if (r < 0)
			break;
	}
	if (r < 0) {
		kb_ledger_free(&l);
		return r;
	}
	*ret = l;
	return 0;
}

int kb_ledger_to_text(const struct kb_ledger *l, char **ret)
{
	size_t len = 0;
	FILE *f = open_memstream(ret, &len);

	if (!f)
		return -ENOMEM;
	fprintf(f, "vlalab-warnings 1 %s\n",
		l->complete ? "complete" : "partial");
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].vla || l->v[i].frame)
			fprintf(f, "%s\t%u\t%u\n", l->v[i].obj, l->v[i].vla,
				l->v[i].frame);
	if (fclose(f) != 0) {
		free(*ret);
		return -ENOMEM;
	}
	return 0;
}

/* "  CC      net/x.o" or "  CC [M]  net/x.o": the object; else NULL. */
static const char *compiled_object(const char *s, size_t n, size_t *ret_len)
{
	const char *end = s + n, *o;

	if (n < 6 || strncmp(s, "  CC ", 5))
		return NULL;
	o = s + 5;
	while (o < end && *o == ' ')
		o++;
	if (end - o > 4 && !strncmp(o, "[M]", 3)) {
		o += 3;
		while (o < end && *o == ' ')
			o++;
	}
	if (end - o < 3 || strncmp(end - 2, ".o", 2))
		return NULL;
	*ret_len = end - o;
	return o;
}

int kb_ledger_update(struct kb_ledger *l, const char *log, size_t len)
{
	const char *p = log, *end = log + len, *cur = NULL;
	size_t curlen = 0;
	unsigned vla = 0, frame = 0;
	int r = 0;

	/* make -Otarget keeps a recipe's output together: the warnings after
	 * a CC line, up to the next command line, are that object's. */
	while (r == 0 && p && p < end) {
		const char *e = memchr(p, '\n', end - p);
		size_t n = e ? (size_t)(e - p) : (size_t)(end - p);
		const char *obj;
		size_t objlen;

		if ((obj = compiled_object(p, n, &objlen))) {
			if (cur)
				r = ledger_set(l, cur, curlen, vla, frame);
			cur = obj;
			curlen = objlen;
			vla = frame = 0;
		} else {
			count_line(p, n, &vla, &frame);
		}
		p = e ? e + 1 : end;
	}
	if (r == 0 && cur)
		r = ledger_set(l, cur, curlen, vla, frame);
	return r;
}

void kb_ledger_totals(const struct kb_ledger *l, unsigned *ret_vla,
		      unsigned *ret_frame)
{
	unsigned vla = 0, frame = 0;

	for (size_t i = 0; i < l->n; i++) {
		vla += l->v[i].vla;
		frame += l->v[i].frame;
	}
	*ret_vla = vla;
	*ret_frame = frame;
}
