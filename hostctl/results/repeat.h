/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `hostctl run --repeat N`: the rounds of one selection folded into one
 * table, per scenario its verdict in every round, how many rounds passed,
 * whether it flipped (its verdict was not the same in every round) and the
 * first step whose verdict the rounds disagree on. Pure: the rounds come
 * in as struct res_run, the table goes out as text, KTAP or summary.json,
 * so the golden tests drive every output from summary files.
 */
#ifndef VLALAB_REPEAT_H
#define VLALAB_REPEAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "results/results.h"

#define REPEAT_ROUNDS_MAX 1000
/* A step's "verdict" in a round where it never began. */
#define REPEAT_NOT_RUN (-1)

/* A step's kind and name, as the first round that knew it had them. */
struct repeat_step {
	char kind[PROTO_KIND_MAX];
	char name[PROTO_NAME_MAX];
};

/* One scenario in one round: its verdict and each step's (or NOT_RUN). */
struct repeat_round {
	enum proto_verdict verdict;
	signed char *steps; /* indexed by step index; NULL when none ran */
	size_t nsteps;
};

struct repeat_scenario {
	char name[PROTO_NAME_MAX];
	struct repeat_round *rounds; /* one per round of the table */
	struct repeat_step *steps; /* every step index any round had */
	size_t nsteps;
};

struct repeat_table {
	size_t requested; /* N of --repeat N; rounds < requested if cut short */
	size_t rounds;
	struct repeat_scenario *v; /* in the first round's order */
	size_t n;
};

/*
 * Add one round. The first round fixes the scenarios; every later one must
 * hold the same names in the same order. 0, -EINVAL (other scenarios, or
 * more than REPEAT_ROUNDS_MAX rounds) or -ENOMEM; the table is unchanged
 * on error.
 */
int repeat_add_round(struct repeat_table *t, const struct res_run *run);
void repeat_table_free(struct repeat_table *t);

/* Step @step's verdict in round @round (0-based), or REPEAT_NOT_RUN. */
int repeat_step_verdict(const struct repeat_scenario *s, size_t round,
			size_t step);
/* Rounds in which @s had verdict @v. */
size_t repeat_count(const struct repeat_table *t,
		    const struct repeat_scenario *s, enum proto_verdict v);
/* Rounds in which @s passed: pass, skip or xfail, as for the exit code. */
size_t repeat_passes(const struct repeat_table *t,
		     const struct repeat_scenario *s);
/* Its verdict was not the same in every round. */
bool repeat_flipped(const struct repeat_table *t,
		    const struct repeat_scenario *s);
/* The lowest step index whose verdict is not the same in every round, or
 * -1 when every round's steps agree. */
ssize_t repeat_first_difference(const struct repeat_table *t,
				const struct repeat_scenario *s);
size_t repeat_nflipped(const struct repeat_table *t);
/* Every requested round ran, and every scenario had the same passing
 * verdict in each. */
bool repeat_ok(const struct repeat_table *t);

/* summary.json's "repeat" object (new reference), or NULL on ENOMEM. */
struct json_object *repeat_object(const struct repeat_table *t);
/*
 * The whole summary.json of a repeated run, pretty-printed and ending in
 * '\n': run_id, complete (every requested round is in the table),
 * accelerator, kernel (may be NULL) and "repeat". 0 or -ENOMEM.
 */
int repeat_summary_json(const struct repeat_table *t, const char *run_id,
			const char *accelerator, struct json_object *kernel,
			char **ret);

/* The table: a line per scenario, then the totals. */
void repeat_text(const struct repeat_table *t, FILE *f);
/* KTAP version 1: one test per scenario, ok when it passed every round
 * with the same verdict; the table's line as a diagnostic. */
void repeat_ktap(const struct repeat_table *t, FILE *f);

#endif
