// SPDX-License-Identifier: GPL-2.0-only
/* The patch series file: one patch name a line, '#' comments, blanks. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kb.h"

void kb_series_free(struct kb_series *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	s->v = NULL;
	s->n = 0;
}

int kb_series_parse(const char *file, const char *text, struct kb_series *ret,
		    char *err, size_t errlen)
{
	struct kb_series s = { 0 };
	const char *p = text;
	unsigned lineno = 0;
	int r = 0;

	while (*p) {
		const char *e = strchr(p, '\n');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		const char *b = p;
		struct kb_series_entry *nv;

		lineno++;
		p = e ? e + 1 : p + n;
		while (n && isspace((unsigned char)*b))
			b++, n--;
		while (n && isspace((unsigned char)b[n - 1]))
			n--;
		if (n == 0 || *b == '#')
			continue;
		for (size_t i = 0; i < n; i++) {
			if (isspace((unsigned char)b[i]) || b[i] == '/') {
				snprintf(
					err, errlen,
					"%s:%u: '%.*s' is not a plain file name",
					file, lineno, (int)n, b);
				r = -EINVAL;
				goto out;
			}
		}
		if (*b == '.') {
			snprintf(err, errlen, "%s:%u: '%.*s' starts with a dot",
				 file, lineno, (int)n, b);
			r = -EINVAL;
			goto out;
		}
		for (size_t i = 0; i < s.n; i++) {
			if (strlen(s.v[i].name) == n &&
			    !strncmp(s.v[i].name, b, n)) {
				snprintf(
					err, errlen,
					"%s:%u: '%s' is already listed on line %u",
					file, lineno, s.v[i].name, s.v[i].line);
				r = -EINVAL;
				goto out;
			}
		}
		nv = realloc(s.v, (s.n + 1) * sizeof(*nv));
		if (!nv) {
			r = -ENOMEM;
			goto out;
		}
		s.v = nv;
		s.v[s.n].name = strndup(b, n);
		s.v[s.n].line = lineno;
		if (!s.v[s.n++].name) {
			r = -ENOMEM;
			goto out;
		}
	}
	*ret = s;
	return 0;
out:
	kb_series_free(&s);
	return r;
}

int kb_series_check(const char *file, const struct kb_series *s,
		    char *const *present, size_t npresent, char *err,
		    size_t errlen)
{
	return kb_series_check_shared(file, s, present, npresent, NULL, 0, err,
				      errlen);
}

int kb_series_check_shared(const char *file, const struct kb_series *s,
			   char *const *present, size_t npresent,
			   char *const *shared, size_t nshared, char *err,
			   size_t errlen)
{
	for (size_t i = 0; i < s->n; i++) {
		bool found = false;

		for (size_t j = 0; j < npresent && !found; j++)
			found = !strcmp(s->v[i].name, present[j]);
		for (size_t j = 0; j < nshared && !found; j++)
			found = !strcmp(s->v[i].name, shared[j]);
		if (!found) {
			snprintf(err, errlen,
				 "%s:%u: patch '%s' is listed but missing",
				 file, s->v[i].line, s->v[i].name);
			return -EINVAL;
		}
	}
	for (size_t j = 0; j < npresent; j++) {
		size_t len = strlen(present[j]);
		bool listed = false;

		if (len < 6 || strcmp(present[j] + len - 6, ".patch"))
			continue;
		for (size_t i = 0; i < s->n && !listed; i++)
			listed = !strcmp(s->v[i].name, present[j]);
		if (!listed) {
			snprintf(err, errlen,
				 "%s: patch '%s' is not listed in the series",
				 file, present[j]);
			return -EINVAL;
		}
	}
	return 0;
}

size_t kb_series_common_prefix(char *const *names_a, char *const *sums_a,
			       size_t na, char *const *names_b,
			       char *const *sums_b, size_t nb)
{
	size_t i = 0;

	while (i < na && i < nb && !strcmp(names_a[i], names_b[i]) &&
	       !strcmp(sums_a[i], sums_b[i]))
		i++;
	return i;
}

/* Lists the series' names into err after prefix, comma-separated. */
static void list_names(const struct kb_series *s, char *err, size_t errlen)
{
	size_t len = strlen(err);

	for (size_t i = 0; i < s->n && len < errlen; i++) {
		snprintf(err + len, errlen - len, "%s%s", i ? ", " : "",
			 s->v[i].name);
		len += strlen(err + len);
	}
	if (len < errlen)
		snprintf(err + len, errlen - len, "%s",
			 s->n ? ")" : "none, it is empty)");
}

int kb_series_without(struct kb_series *s, const char *const *names, size_t n,
		      char ***ret_removed, size_t *ret_nremoved, char *err,
		      size_t errlen)
{
	bool *drop = NULL;
	char **removed = NULL;
	size_t nremoved = 0, k = 0;
	int r = 0;

	if (!n) {
		*ret_removed = NULL;
		*ret_nremoved = 0;
		return 0;
	}
	drop = calloc(s->n + 1, sizeof(*drop));
	if (!drop)
		return -ENOMEM;
	for (size_t j = 0; j < n; j++) {
		size_t len = strlen(names[j]), match = s->n, count = 0;

		for (size_t i = 0; i < s->n; i++) {
			if (!strcmp(s->v[i].name, names[j])) {
				match = i;
				count = 1;
				break;
			}
			if (len && !strncmp(s->v[i].name, names[j], len)) {
				match = i;
				count++;
			}
		}
		if (count != 1) {
			snprintf(err, errlen, "'%s' %s (series: ", names[j],
				 count ? "matches more than one patch" :
					 "is not a patch of the series");
			list_names(s, err, errlen);
			r = -EINVAL;
			goto out;
		}
		drop[match] = true;
	}
	removed = calloc(s->n + 1, sizeof(*removed));
	if (!removed) {
		r = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < s->n; i++) {
		if (drop[i])
			removed[nremoved++] = s->v[i].name;
		else
			s->v[k++] = s->v[i];
	}
	s->n = k;
	*ret_removed = removed;
	*ret_nremoved = nremoved;
	removed = NULL;
out:
	free(removed);
	free(drop);
	return r;
}
