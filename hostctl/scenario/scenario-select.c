// SPDX-License-Identifier: GPL-2.0-only
/*
 * Selecting scenarios by name: "all", exact names and fnmatch(3) globs over
 * "<area>/<name>", and for an argument that matches nothing, the closest
 * names (edit distance, or a prefix) as suggestions.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"

/* Levenshtein distance, in one malloc'd row. SIZE_MAX on no memory. */
static size_t scn_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), *row, d;

	row = malloc((lb + 1) * sizeof(*row));
	if (!row)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	d = row[lb];
	free(row);
	return d;
}

/*
 * How close @arg is to @name: a small edit distance to the whole name or to
 * its part after the area, or one being a prefix of the other. Returns a
 * score (lower is closer), or SIZE_MAX when not close.
 */
static size_t scn_closeness(const char *arg, const char *name)
{
	const char *base = strchr(name, '/') ? strchr(name, '/') + 1 : name;
	size_t limit = strlen(arg) / 4 > 2 ? strlen(arg) / 4 : 2;
	size_t d = scn_distance(arg, name), db = scn_distance(arg, base);

	if (db < d)
		d = db;
	if (d <= limit)
		return d;
	if (strlen(arg) >= 3 && (strncmp(name, arg, strlen(arg)) == 0 ||
				 strncmp(base, arg, strlen(arg)) == 0))
		return limit + 1;
	return SIZE_MAX;
}

#define SCN_SUGGEST_MAX 5

/* Whether @arg names an area: some scenario is "<arg>/<name>". */
static bool scn_is_area(const struct scn_set *set, const char *arg)
{
	size_t len = strlen(arg);

	for (size_t i = 0; i < set->n; i++)
		if (len && strncmp(set->v[i].name, arg, len) == 0 &&
		    set->v[i].name[len] == '/')
			return true;
	return false;
}

static void scn_suggest(const struct scn_set *set, const char *arg, char *err,
			size_t errlen)
{
	size_t best[SCN_SUGGEST_MAX], score[SCN_SUGGEST_MAX], n = 0, len;

	for (size_t i = 0; i < set->n; i++) {
		size_t c = scn_closeness(arg, set->v[i].name), j;

		if (c == SIZE_MAX)
			continue;
		/* Insert in score order, ties in set order; keep the best. */
		for (j = n; j > 0 && score[j - 1] > c; j--)
			if (j < SCN_SUGGEST_MAX) {
				best[j] = best[j - 1];
				score[j] = score[j - 1];
			}
		if (j < SCN_SUGGEST_MAX) {
			best[j] = i;
			score[j] = c;
			if (n < SCN_SUGGEST_MAX)
				n++;
		}
	}
	if (!err || !errlen)
		return;
	if (n == 0 && !scn_is_area(set, arg)) {
		snprintf(
			err, errlen,
			"unknown scenario '%s'; no close match ('hostctl list' shows them all)",
			arg);
		return;
	}
	snprintf(err, errlen, "unknown scenario '%s'; did you mean: ", arg);
	/* An area's name: its glob first (ftrace: ftrace/ and a star). */
	if (scn_is_area(set, arg)) {
		len = strlen(err);
		snprintf(err + len, errlen - len, "'%s/*'%s", arg,
			 n ? ", " : "");
	}
	for (size_t i = 0; i < n; i++) {
		len = strlen(err);
		snprintf(err + len, errlen - len, "%s%s", i ? ", " : "",
			 set->v[best[i]].name);
	}
	len = strlen(err);
	snprintf(err + len, errlen - len, "?");
}

int scn_select(const struct scn_set *set, char *const *args, size_t nargs,
	       size_t **ret_idx, size_t *ret_n, char *err, size_t errlen)
{
	bool *chosen;
	size_t *idx, n = 0;

	if (nargs == 0) {
		if (err && errlen)
			snprintf(
				err, errlen,
				"no scenario given: name one or more, a glob ('ftrace/*') or 'all'");
		return -EINVAL;
	}
	chosen = calloc(set->n ? set->n : 1, sizeof(*chosen));
	if (!chosen)
		return -ENOMEM;
	for (size_t a = 0; a < nargs; a++) {
		/* "all" of an empty set is fine: it selects nothing. */
		bool any = strcmp(args[a], "all") == 0;

		for (size_t i = 0; i < set->n; i++) {
			const char *name = set->v[i].name;

			if (strcmp(args[a], "all") == 0 ||
			    strcmp(args[a], name) == 0 ||
			    fnmatch(args[a], name, 0) == 0) {
				chosen[i] = true;
				any = true;
			}
		}
		if (!any) {
			scn_suggest(set, args[a], err, errlen);
			free(chosen);
			return -ENOENT;
		}
	}
	idx = malloc((set->n ? set->n : 1) * sizeof(*idx));
	if (!idx) {
		free(chosen);
		return -ENOMEM;
	}
	for (size_t i = 0; i < set->n; i++)
		if (chosen[i])
			idx[n++] = i;
	free(chosen);
	*ret_idx = idx;
	*ret_n = n;
	return 0;
}
