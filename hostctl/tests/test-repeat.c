// SPDX-License-Identifier: GPL-2.0-only
/*
 * The --repeat table (hostctl/repeat.c) from hand-built rounds: counts,
 * passes, flips, the first differing step in both forms a round's steps
 * come in (every step with `ran`, or only the steps that ran), rounds that
 * do not match the first, and the bounds.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/repeat.h"
#include "tap.h"

/*
 * One scenario of a live round: @steps has a letter per step, p(ass),
 * f(ail), c(rash), t(imeout) or '.' for a step that never began.
 */
static void set_sc(struct res_scenario *sc, const char *name,
		   enum proto_verdict v, const char *steps)
{
	memset(sc, 0, sizeof(*sc));
	snprintf(sc->name, sizeof(sc->name), "%s", name);
	sc->verdict = v;
	sc->done = true;
	sc->nsteps = strlen(steps);
	sc->steps = calloc(sc->nsteps ? sc->nsteps : 1, sizeof(*sc->steps));
	for (size_t i = 0; i < sc->nsteps; i++) {
		struct res_step *st = &sc->steps[i];

		st->index = (uint32_t)i;
		snprintf(st->kind, sizeof(st->kind), "read");
		snprintf(st->name, sizeof(st->name), "s%zu", i);
		st->ran = steps[i] != '.';
		st->verdict = steps[i] == 'f' ? VERDICT_FAIL :
			      steps[i] == 'c' ? VERDICT_CRASH :
			      steps[i] == 't' ? VERDICT_TIMEOUT :
						VERDICT_PASS;
	}
}

static void new_run(struct res_run *run, size_t n)
{
	memset(run, 0, sizeof(*run));
	run->v = calloc(n, sizeof(*run->v));
	run->n = n;
}

/* Add a round of two scenarios, a/flip and b/stable, and free it. */
static int add2(struct repeat_table *t, enum proto_verdict v1, const char *s1,
		enum proto_verdict v2, const char *s2)
{
	struct res_run run;
	int r;

	new_run(&run, 2);
	set_sc(&run.v[0], "a/flip", v1, s1);
	set_sc(&run.v[1], "b/stable", v2, s2);
	r = repeat_add_round(t, &run);
	res_run_free(&run);
	return r;
}

/* Add a round of one scenario, a/x, and free it. */
static int add1(struct repeat_table *t, enum proto_verdict v, const char *s)
{
	struct res_run run;
	int r;

	new_run(&run, 1);
	set_sc(&run.v[0], "a/x", v, s);
	r = repeat_add_round(t, &run);
	res_run_free(&run);
	return r;
}

static void test_flip(void)
{
	struct repeat_table t = { .requested = 3 };
	const struct repeat_scenario *f, *s;

	is_int(add2(&t, VERDICT_PASS, "pp", VERDICT_PASS, "p"), 0, "round 1");
	is_int(add2(&t, VERDICT_FAIL, "pf", VERDICT_PASS, "p"), 0, "round 2");
	is_int(add2(&t, VERDICT_PASS, "pp", VERDICT_PASS, "p"), 0, "round 3");
	is_int(t.rounds, 3, "three rounds");
	is_int(t.n, 2, "two scenarios");
	f = &t.v[0];
	s = &t.v[1];
	is_str(f->name, "a/flip", "first scenario");
	is_int(repeat_count(&t, f, VERDICT_PASS), 2, "flip: pass twice");
	is_int(repeat_count(&t, f, VERDICT_FAIL), 1, "flip: fail once");
	is_int(repeat_passes(&t, f), 2, "flip: 2/3 passes");
	ok(repeat_flipped(&t, f), "flip flipped");
	is_int(repeat_first_difference(&t, f), 1, "flip: differs at step 1");
	is_int(repeat_step_verdict(f, 1, 1), VERDICT_FAIL,
	       "flip: round 2 failed step 1");
	is_int(repeat_step_verdict(f, 0, 1), VERDICT_PASS,
	       "flip: round 1 passed step 1");
	is_str(f->steps[1].name, "s1", "flip: step 1's name kept");
	is_int(repeat_passes(&t, s), 3, "stable: 3/3 passes");
	ok(!repeat_flipped(&t, s), "stable did not flip");
	is_int(repeat_first_difference(&t, s), -1, "stable: no difference");
	is_int(repeat_nflipped(&t), 1, "one scenario flipped");
	ok(!repeat_ok(&t), "a flip is not ok");
	repeat_table_free(&t);
}

static void test_green(void)
{
	struct repeat_table t = { 0 };

	for (int k = 0; k < 4; k++)
		add2(&t, VERDICT_XFAIL, "f", VERDICT_SKIP, "");
	ok(repeat_ok(&t), "xfail and skip in every round: ok");
	t.requested = 5;
	ok(!repeat_ok(&t), "but not when 5 rounds were asked for");
	t.requested = 4;
	is_int(repeat_passes(&t, &t.v[0]), 4, "xfail counts as a pass");
	is_int(repeat_nflipped(&t), 0, "nothing flipped");
	repeat_table_free(&t);

	add2(&t, VERDICT_PASS, "p", VERDICT_PASS, "");
	add2(&t, VERDICT_XFAIL, "f", VERDICT_PASS, "");
	ok(repeat_flipped(&t, &t.v[0]), "pass then xfail is a flip");
	is_int(repeat_passes(&t, &t.v[0]), 2, "both rounds passed");
	ok(!repeat_ok(&t), "so the run is not ok");
	repeat_table_free(&t);
}

static void test_stable_failure(void)
{
	struct repeat_table t = { 0 };

	add1(&t, VERDICT_FAIL, "pf.");
	add1(&t, VERDICT_FAIL, "pf.");
	ok(!repeat_flipped(&t, &t.v[0]), "the same failure is no flip");
	is_int(repeat_first_difference(&t, &t.v[0]), -1, "same steps");
	is_int(repeat_passes(&t, &t.v[0]), 0, "0/2 passes");
	ok(!repeat_ok(&t), "a failure is not ok");
	repeat_table_free(&t);

	/* The same verdict, at another step. */
	add1(&t, VERDICT_FAIL, "pf.");
	add1(&t, VERDICT_FAIL, "ppf");
	ok(!repeat_flipped(&t, &t.v[0]), "fail both times: no flip");
	is_int(repeat_first_difference(&t, &t.v[0]), 1,
	       "but the steps differ at 1");
	repeat_table_free(&t);
}

static void test_difference_moves(void)
{
	struct repeat_table t = { 0 };

	add1(&t, VERDICT_PASS, "ppp");
	add1(&t, VERDICT_FAIL, "ppf");
	is_int(repeat_first_difference(&t, &t.v[0]), 2, "two rounds: step 2");
	add1(&t, VERDICT_TIMEOUT, "t..");
	is_int(repeat_first_difference(&t, &t.v[0]), 0,
	       "a later round that differs sooner moves it to step 0");
	is_int(repeat_step_verdict(&t.v[0], 2, 1), REPEAT_NOT_RUN,
	       "round 3 never began step 1");
	is_int(repeat_count(&t, &t.v[0], VERDICT_TIMEOUT), 1, "one timeout");
	repeat_table_free(&t);

	/* A round whose VM never booted: no step ran. */
	add1(&t, VERDICT_ERROR, "..");
	add1(&t, VERDICT_PASS, "pp");
	is_int(repeat_first_difference(&t, &t.v[0]), 0,
	       "not run against pass differs at step 0");
	repeat_table_free(&t);

	/* The host's judgement alone: an incident after the steps. */
	add1(&t, VERDICT_PASS, "p");
	add1(&t, VERDICT_CRASH, "p");
	ok(repeat_flipped(&t, &t.v[0]), "pass then crash flipped");
	is_int(repeat_first_difference(&t, &t.v[0]), -1,
	       "with every step the same");
	repeat_table_free(&t);
}

/* A summary.json read back lists only the steps that ran. */
static void test_compact_steps(void)
{
	struct repeat_table t = { 0 };
	struct res_run run;

	new_run(&run, 1);
	set_sc(&run.v[0], "a/x", VERDICT_ERROR, "p");
	is_int(repeat_add_round(&t, &run), 0, "round with step 0 only");
	res_run_free(&run);
	new_run(&run, 1);
	set_sc(&run.v[0], "a/x", VERDICT_FAIL, "pf");
	snprintf(run.v[0].steps[1].name, sizeof(run.v[0].steps[1].name),
		 "later");
	is_int(repeat_add_round(&t, &run), 0, "round with steps 0 and 1");
	res_run_free(&run);
	is_int(t.v[0].nsteps, 2, "step slots grow");
	is_int(repeat_first_difference(&t, &t.v[0]), 1, "differs at 1");
	is_int(repeat_step_verdict(&t.v[0], 0, 1), REPEAT_NOT_RUN,
	       "step 1 never began in round 1");
	is_str(t.v[0].steps[1].name, "later", "its name from round 2");

	/* Only step 3 ran: its index, not its position, counts. */
	new_run(&run, 1);
	set_sc(&run.v[0], "a/x", VERDICT_FAIL, "f");
	run.v[0].steps[0].index = 3;
	is_int(repeat_add_round(&t, &run), 0, "round with step 3 only");
	res_run_free(&run);
	is_int(repeat_step_verdict(&t.v[0], 2, 3), VERDICT_FAIL,
	       "step 3 by its index");
	is_int(repeat_step_verdict(&t.v[0], 2, 0), REPEAT_NOT_RUN,
	       "step 0 not run in round 3");
	is_int(repeat_first_difference(&t, &t.v[0]), 0, "now at step 0");
	repeat_table_free(&t);
}

static void test_refused(void)
{
	struct repeat_table t = { 0 };
	struct res_run run;

	add2(&t, VERDICT_PASS, "p", VERDICT_PASS, "p");
	new_run(&run, 2);
	set_sc(&run.v[0], "a/flip", VERDICT_PASS, "p");
	set_sc(&run.v[1], "b/other", VERDICT_PASS, "p");
	is_int(repeat_add_round(&t, &run), -EINVAL, "another scenario: EINVAL");
	res_run_free(&run);
	is_int(add1(&t, VERDICT_PASS, "p"), -EINVAL, "fewer scenarios: EINVAL");
	is_int(t.rounds, 1, "the refused rounds were not added");

	new_run(&run, 2);
	set_sc(&run.v[0], "a/flip", VERDICT_PASS, "p");
	set_sc(&run.v[1], "b/stable", VERDICT_PASS, "p");
	run.v[1].steps[0].index = 256;
	is_int(repeat_add_round(&t, &run), -EINVAL,
	       "a step index past 255: EINVAL");
	res_run_free(&run);
	is_int(t.rounds, 1, "still one round");
	repeat_table_free(&t);

	for (int k = 0; k < REPEAT_ROUNDS_MAX; k++)
		if (add1(&t, VERDICT_PASS, "p") < 0)
			break;
	is_int(t.rounds, REPEAT_ROUNDS_MAX, "1000 rounds fit");
	is_int(add1(&t, VERDICT_PASS, "p"), -EINVAL, "round 1001: EINVAL");
	ok(repeat_ok(&t), "1000 passes are ok");
	repeat_table_free(&t);
}

static void test_json(void)
{
	struct repeat_table t = { .requested = 2 };
	struct json_object *o, *sc, *d, *v;

	add2(&t, VERDICT_PASS, "pp", VERDICT_PASS, "p");
	add2(&t, VERDICT_FAIL, "pf", VERDICT_PASS, "p");
	o = repeat_object(&t);
	ok(o != NULL, "repeat object");
	json_object_object_get_ex(o, "rounds", &v);
	is_int(json_object_get_int(v), 2, "rounds");
	json_object_object_get_ex(o, "flipped", &v);
	is_int(json_object_array_length(v), 1, "one flipped name");
	json_object_object_get_ex(o, "scenarios", &v);
	sc = json_object_array_get_idx(v, 0);
	json_object_object_get_ex(sc, "first_difference", &d);
	json_object_object_get_ex(d, "step", &v);
	is_int(json_object_get_int(v), 1, "first_difference.step");
	json_object_object_get_ex(d, "verdicts", &v);
	is_str(json_object_get_string(json_object_array_get_idx(v, 1)), "fail",
	       "round 2's step 1 verdict");
	sc = json_object_array_get_idx(json_object_object_get(o, "scenarios"),
				       1);
	ok(json_object_object_get_ex(sc, "first_difference", &d) && !d,
	   "stable: first_difference is null");
	json_object_put(o);
	repeat_table_free(&t);
}

int main(void)
{
	test_flip();
	test_green();
	test_stable_failure();
	test_difference_moves();
	test_compact_steps();
	test_refused();
	test_json();
	return tap_done();
}
