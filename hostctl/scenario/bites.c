// SPDX-License-Identifier: GPL-2.0-only
/*
 * bites_resolve(): the scenarios' "bites" patch names against the series,
 * through kbuild's own name matching (the one --without-patch uses), so a
 * name that a bites test would pass to --without-patch is known to work.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/bites.h"
#include "kbuild.h"

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

int bites_resolve(struct scn_set *set, const char *kernel_dir,
		  struct scn_errors *errs)
{
	char err[1024];
	int bad = 0;

	for (size_t i = 0; i < set->n; i++) {
		struct scenario *s = &set->v[i];

		for (size_t j = 0; j < s->nbites; j++) {
			struct scn_bite *b = &s->bites[j];
			char *full = NULL;
			int r;

			r = kbuild_series_resolve(kernel_dir, b->patch, &full,
						  err, sizeof(err));
			if (r == -EINVAL) {
				bad++;
				r = bites_error(errs,
						"%s: $.bites[%zu].patch: %s",
						s->path, j, err);
				if (r < 0)
					return r;
				continue;
			}
			if (r < 0) {
				bites_error(
					errs,
					"%s: checking $.bites against the series: %s",
					s->path, err);
				return r;
			}
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
