// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scenarios' "bites": bites_check() validates each entry (a patch, one
 * step, the reason its failure gives, the kernel lines it holds on),
 * bites_fill() copies them into the scenario, and bites_resolve() checks
 * the patch names against each line's series through kbuild's own name
 * matching (the one --without-patch uses), so a name that a bites test
 * would pass to --without-patch is known to work on every line it names.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/bites.h"
#include "jsonutil.h"
#include "kbuild.h"
#include "scenario/scenario-priv.h"
#include "stepspec.h"

__attribute__((format(printf, 2, 3))) static int
bites_error(struct scn_errors *errs, const char *fmt, ...)
{
	char *msg, **v;
	va_list ap;
	int r;

	if (!errs)
		return 0;
	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	v = realloc(errs->msgs, (errs->n + 1) * sizeof(*v));
	if (!v) {
		free(msg);
		return -ENOMEM;
	}
	errs->msgs = v;
	errs->msgs[errs->n++] = msg;
	return 0;
}

bool bites_on_line(const struct scn_bite *b, const char *line)
{
	if (!b->nlines)
		return true;
	for (size_t i = 0; i < b->nlines; i++)
		if (!strcmp(b->lines[i], line))
			return true;
	return false;
}

/*
 * @b's patch resolved against the series of every line it bites on, the
 * full name into *@ret_full: 0; -EINVAL after an error in @errs (the patch
 * is not in a line's series, or means another file there); or -errno,
 * said in @errs.
 */
static int bites_resolve_one(const struct scenario *s, size_t j,
			     const char *kernel_dir, struct scn_errors *errs,
			     char **ret_full)
{
	const struct scn_bite *b = &s->bites[j];
	char err[1024], *full = NULL, *first = NULL;
	const char *line;
	int r = 0;

	for (size_t k = 0; r == 0 && (line = kbuild_line_at(k)); k++) {
		if (!bites_on_line(b, line))
			continue;
		r = kbuild_series_resolve(kernel_dir, line, b->patch, &full,
					  err, sizeof(err));
		if (r == -EINVAL) {
			r = bites_error(
				errs,
				"%s: $.bites[%zu].patch: on line %s: %s%s",
				s->path, j, line, err,
				b->nlines ?
					"" :
					" (a bite's \"lines\" names the lines it is for)");
			r = r < 0 ? r : -EINVAL;
		} else if (r < 0) {
			bites_error(
				errs,
				"%s: checking $.bites against line %s's series: %s",
				s->path, line, err);
		} else if (!first) {
			first = full;
		} else {
			if (strcmp(first, full)) {
				r = bites_error(
					errs,
					"%s: $.bites[%zu].patch: '%s' means '%s' on one line, '%s' on line %s",
					s->path, j, b->patch, first, full,
					line);
				r = r < 0 ? r : -EINVAL;
			}
			free(full);
		}
	}
	if (r < 0)
		free(first);
	else
		*ret_full = first;
	return r;
}

int bites_resolve(struct scn_set *set, const char *kernel_dir,
		  struct scn_errors *errs)
{
	int bad = 0;

	for (size_t i = 0; i < set->n; i++) {
		struct scenario *s = &set->v[i];

		for (size_t j = 0; j < s->nbites; j++) {
			struct scn_bite *b = &s->bites[j];
			char *full = NULL;
			int r;

			r = bites_resolve_one(s, j, kernel_dir, errs, &full);
			if (r == -EINVAL) {
				bad++;
				continue;
			}
			if (r < 0)
				return r;
			free(b->patch);
			b->patch = full;
			for (size_t k = 0; k < j; k++) {
				if (strcmp(s->bites[k].patch, full) != 0)
					continue;
				bad++;
				r = bites_error(
					errs,
					"%s: $.bites[%zu].patch: '%s' is declared twice (also $.bites[%zu])",
					s->path, j, full, k);
				if (r < 0)
					return r;
				break;
			}
		}
	}
	return bad ? -EINVAL : 0;
}

/* One entry of "bites"; bites_check() checks patch and step itself. */
/* clang-format off */
static const struct stepspec_key bites_keys[] = {
	{ "patch", SCN_V(BITES), true, 0, 0, NULL },
	{ "step", SCN_V(BITES), true, 0, 0, NULL },
	{ "reason", STEPSPEC_STRING, false, 0, SCN_BITE_REASON_MAX, NULL },
	{ "incident", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ "lines", SCN_V(BITES), false, 0, 0, NULL },
	{ NULL },
};
/* clang-format on */

#define BITES_EXAMPLE                                                         \
	"{\"patch\": \"0003\", \"step\": 18, \"reason\": \"members 0x0022\"}" \
	" (or \"incident\": a title regex for a crash)"

/* $.bites[i].patch of @e at @path: a plausible name, not declared twice. */
static void bites_check_patch(struct scn_ctx *ctx, const char *path,
			      struct json_object *bites, size_t i,
			      struct json_object *e)
{
	struct json_object *patch, *o;
	const char *s;

	if (!json_object_object_get_ex(e, "patch", &patch) ||
	    !scn_expect_type(ctx, path, patch, json_type_string, "a string"))
		return;
	s = json_object_get_string(patch);
	if (!*s || strlen(s) > 255 || strchr(s, '/') ||
	    strpbrk(s, " \t\n\r\v\f"))
		scn_error(
			ctx, path,
			"bad patch name '%s' (want a series file name or its number, e.g. \"0003\")",
			s);
	for (size_t j = 0; j < i; j++) {
		o = json_object_array_get_idx(bites, j);
		if (json_object_is_type(o, json_type_object) &&
		    json_object_object_get_ex(o, "patch", &o) &&
		    json_object_is_type(o, json_type_string) &&
		    strcmp(json_object_get_string(o), s) == 0) {
			scn_error(
				ctx, path,
				"patch '%s' is declared twice (also $.bites[%zu])",
				s, j);
			return;
		}
	}
}

/* $.bites[i].lines at @path, @v: 1..SCN_BITE_LINES_MAX known lines,
 * each once. */
static void bites_check_lines(struct scn_ctx *ctx, const char *path,
			      struct json_object *v)
{
	char q[SCN_PATH_MAX], err[256];
	size_t n;

	if (!scn_expect_type(ctx, path, v, json_type_array,
			     "an array of kernel lines, e.g. [\"6.1\"]"))
		return;
	n = json_object_array_length(v);
	if (n < 1 || n > SCN_BITE_LINES_MAX) {
		scn_error(ctx, path, "%zu entries, want 1..%d", n,
			  SCN_BITE_LINES_MAX);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		const char *s;

		jsonstrict_path_index(q, path, i);
		if (!scn_expect_type(ctx, q, e, json_type_string, "a string"))
			continue;
		s = json_object_get_string(e);
		if (kbuild_line_check(s, err, sizeof(err)) < 0) {
			scn_error(ctx, q, "%s", err);
			continue;
		}
		for (size_t j = 0; j < i; j++)
			if (!strcmp(json_object_get_string(
					    json_object_array_get_idx(v, j)),
				    s)) {
				scn_error(
					ctx, q,
					"line '%s' is named twice (also [%zu])",
					s, j);
				break;
			}
	}
}

/* One entry @e of "bites" at @p (index @i of @bites). */
static void bites_check_entry(struct scn_ctx *ctx, const char *p,
			      struct json_object *bites, size_t i,
			      struct json_object *e, size_t nsteps)
{
	bool has_reason, has_incident;
	struct json_object *v, *lines;
	char q[SCN_PATH_MAX];

	if (!scn_expect_type(ctx, p, e, json_type_object, "an object"))
		return;
	if (json_object_object_get_ex(e, "steps", NULL)) {
		scn_error(
			ctx, p,
			"'steps' is the old form; bites: one step and its reason, e.g. " BITES_EXAMPLE);
		return;
	}
	scn_check_object(ctx, p, e,
			 (const struct stepspec_key *const[]){ bites_keys }, 1,
			 "a bites entry");
	jsonstrict_path_key(q, p, "patch");
	bites_check_patch(ctx, q, bites, i, e);
	jsonstrict_path_key(q, p, "step");
	if (json_object_object_get_ex(e, "step", &v) &&
	    scn_expect_type(ctx, q, v, json_type_int, "an integer")) {
		int64_t x = json_object_get_int64(v);

		if (x < 0 || (uint64_t)x >= nsteps)
			scn_error(
				ctx, q,
				"step %" PRId64
				" is out of range 0..%zu (the scenario has %zu steps)",
				x, nsteps ? nsteps - 1 : 0, nsteps);
	}
	has_reason = json_object_object_get_ex(e, "reason", &v);
	has_incident = json_object_object_get_ex(e, "incident", NULL);
	if (has_reason == has_incident)
		scn_error(
			ctx, p,
			"%s; bites: one step and its reason, e.g. " BITES_EXAMPLE,
			has_reason ?
				"both 'reason' and 'incident': give one" :
				"no 'reason' (a substring of the step's failure) or 'incident' (an incident title regex)");
	jsonstrict_path_key(q, p, "lines");
	if (json_object_object_get_ex(e, "lines", &lines))
		bites_check_lines(ctx, q, lines);
	jsonstrict_path_key(q, p, "reason");
	if (has_reason && json_object_is_type(v, json_type_string)) {
		const char *s = json_object_get_string(v);

		for (; *s; s++)
			if ((unsigned char)*s < 0x20 || *s == 0x7f) {
				scn_error(
					ctx, q,
					"not one line of text: a control character at byte %zu",
					(size_t)(s -
						 json_object_get_string(v)));
				break;
			}
	}
}

void bites_check(struct scn_ctx *ctx, struct json_object *doc, size_t nsteps)
{
	struct json_object *bites;
	char p[SCN_PATH_MAX];
	size_t n;

	if (!json_object_object_get_ex(doc, "bites", &bites) ||
	    !scn_expect_type(ctx, "$.bites", bites, json_type_array,
			     "an array"))
		return;
	n = json_object_array_length(bites);
	if (n < 1 || n > SCN_BITES_MAX) {
		scn_error(ctx, "$.bites", "%zu entries, want 1..%d", n,
			  SCN_BITES_MAX);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		jsonstrict_path_index(p, "$.bites", i);
		bites_check_entry(ctx, p, bites, i,
				  json_object_array_get_idx(bites, i), nsteps);
	}
}

/* A copy of @e's string @key in @out; NULL when @e has none. */
static int bites_dup(struct json_object *e, const char *key, char **out)
{
	struct json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(e, key, &v))
		return 0;
	*out = strdup(json_object_get_string(v));
	return *out ? 0 : -ENOMEM;
}

int bites_fill(struct json_object *doc, struct scenario *s)
{
	struct json_object *bites, *e, *v;

	if (!json_object_object_get_ex(doc, "bites", &bites))
		return 0;
	s->bites = calloc(json_object_array_length(bites), sizeof(*s->bites));
	if (!s->bites)
		return -ENOMEM;
	for (size_t i = 0; i < json_object_array_length(bites); i++) {
		struct scn_bite *b = &s->bites[s->nbites++];

		e = json_object_array_get_idx(bites, i);
		json_object_object_get_ex(e, "step", &v);
		b->step = json_object_get_int64(v);
		if (bites_dup(e, "patch", &b->patch) < 0 ||
		    bites_dup(e, "reason", &b->reason) < 0 ||
		    bites_dup(e, "incident", &b->incident) < 0)
			return -ENOMEM;
		if (!json_object_object_get_ex(e, "lines", &v))
			continue;
		for (size_t k = 0;
		     k < json_object_array_length(v) && k < SCN_BITE_LINES_MAX;
		     k++) {
			b->lines[k] = strdup(json_object_get_string(
				json_object_array_get_idx(v, k)));
			if (!b->lines[k])
				return -ENOMEM;
			b->nlines++;
		}
	}
	return 0;
}

void bites_free(struct scenario *s)
{
	for (size_t i = 0; i < s->nbites; i++) {
		free(s->bites[i].patch);
		free(s->bites[i].reason);
		free(s->bites[i].incident);
		for (size_t k = 0; k < s->bites[i].nlines; k++)
			free(s->bites[i].lines[k]);
	}
	free(s->bites);
}
