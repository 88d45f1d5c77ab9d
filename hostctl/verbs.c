// SPDX-License-Identifier: GPL-2.0-only
/*
 * What every verb shares and that is not the table: checking a verb's
 * positional arguments against its own row.
 */
#include <stdio.h>

#include "verbs.h"

int verb_check_nargs(const struct verb *v, int n)
{
	if (n >= v->min_args && (v->max_args == VERB_ANY || n <= v->max_args))
		return 0;
	fprintf(stderr, "hostctl %s: %s arguments; usage: hostctl %s %s\n",
		v->name, n < v->min_args ? "too few" : "too many", v->name,
		v->usage);
	return EXIT_SETUP;
}
