// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl compare's table (compare.c) on runs made here: a stack_tracer
 * step's deepest stack per flavour, the deepest of the rounds, with its
 * functions, in the JSON and in the text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare.h"
#include "jsonutil.h"
#include "tap.h"

/* A run of one scenario with a stack_tracer stop of max bytes (0: none). */
static void make_run(struct res_run *run, struct res_step *steps,
		     struct res_scenario *scn, uint32_t max, const char *fns)
{
	memset(run, 0, sizeof(*run));
	memset(scn, 0, sizeof(*scn));
	memset(steps, 0, 2 * sizeof(*steps));
	strcpy(run->accelerator, "tcg");
	strcpy(run->clock, "wall");
	strcpy(steps[0].kind, "read");
	strcpy(steps[1].kind, "stack_tracer");
	strcpy(steps[1].name, "deepest stack");
	steps[1].stack.max_bytes = max;
	steps[1].stack.frames = max ? 3 : 0;
	snprintf(steps[1].stack.functions, sizeof(steps[1].stack.functions),
		 "%s", fns);
	strcpy(scn->name, "bch/stack-encode");
	scn->verdict = VERDICT_PASS;
	scn->steps = steps;
	scn->nsteps = 2;
	run->v = scn;
	run->n = 1;
}

int main(void)
{
	struct res_step steps[4][2];
	struct res_scenario scn[4];
	struct res_run base[2], cand[2];
	struct cmp_input in = { "vla", "patched", base, cand, 2 };
	struct json_object *t = NULL, *a, *row;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	make_run(&base[0], steps[0], &scn[0], 3512, "bch_encode < a");
	make_run(&base[1], steps[1], &scn[1], 3600, "deeper < b");
	make_run(&cand[0], steps[2], &scn[2], 3400, "bch_encode < c");
	make_run(&cand[1], steps[3], &scn[3], 0, "");
	is_int(cmp_table(&in, &t), 0, "the table");
	ok(json_object_object_get_ex(t, "stack", &a) &&
		   json_object_array_length(a) == 1,
	   "one deepest-stack row, for the stack_tracer step");
	row = a ? json_object_array_get_idx(a, 0) : NULL;
	ok(row && json_object_get_int64(json_object_object_get(
			  row, "baseline_max_bytes")) == 3600,
	   "the baseline's deepest of its rounds");
	is_str(jsonutil_str(row, "baseline_functions"), "deeper < b",
	       "with that round's functions");
	ok(row && json_object_get_int64(json_object_object_get(
			  row, "candidate_max_bytes")) == 3400,
	   "a round without figures is left out");
	f = open_memstream(&text, &len);
	cmp_print(t, f);
	fclose(f);
	okf(strstr(text, "deepest stack (bytes, of rounds)") &&
		    strstr(text, "bch/stack-encode #2 deepest stack") &&
		    strstr(text, "  vla: deeper < b\n"),
	    "the text shows it: %s", text);
	free(text);
	json_object_put(t);

	make_run(&base[0], steps[0], &scn[0], 0, "");
	make_run(&base[1], steps[1], &scn[1], 0, "");
	make_run(&cand[0], steps[2], &scn[2], 0, "");
	is_int(cmp_table(&in, &t), 0, "a table without stack figures");
	ok(json_object_object_get_ex(t, "stack", &a) &&
		   json_object_array_length(a) == 0,
	   "has no deepest-stack row");
	json_object_put(t);
	return tap_done();
}
