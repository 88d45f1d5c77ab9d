/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hostctl compare's table (docs/evidence.md): the runs of two flavours,
 * round by round, made into one JSON table, and that table printed as text
 * and drawn as an SVG bar chart. Pure: no I/O but to the FILE it is given.
 */
#ifndef VLALAB_COMPARE_H
#define VLALAB_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "results/results.h"

/* The most rounds compare runs. */
#define CMP_ROUNDS_MAX 20

struct cmp_input {
	const char *baseline, *candidate; /* flavour names */
	const struct res_run *base; /* nrounds runs of each */
	const struct res_run *cand;
	size_t nrounds;
};

/*
 * The table: verdicts per scenario and flavour, each bench step's medians
 * and the candidate/baseline ratio with its 95% CI (cmpstat.h), what the
 * build manifests say of -Wvla and of the touched functions' code and
 * frames, the accelerator and clock, and the seed's published figures as
 * reference. 0 and a new object, or -ENOMEM.
 */
int cmp_table(const struct cmp_input *in, struct json_object **ret);

/* The table as text, for a terminal. */
void cmp_print(struct json_object *table, FILE *f);

/* The bench steps as an SVG bar chart: baseline 100, candidate its ratio
 * with its CI as a whisker. */
void cmp_svg(struct json_object *table, FILE *f);

#endif
