// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rounds of `hostctl run --repeat N` folded into one table, and the
 * table's text, KTAP and JSON forms (docs/reliability.md shows them).
 * A round's steps come in either form a struct res_run takes: every step
 * of the scenario with `ran` telling which began (a live run), or only the
 * steps that ran, each with its index (a summary.json read back).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "jsonutil.h"
#include "proto.h"
#include "results/repeat.h"
#include "results/rundir.h"

#define JSON_FLAGS_PRETTY                                    \
	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
	 JSON_C_TO_STRING_NOSLASHESCAPE)

/* A step verdict group lists its rounds when it has at most this many. */
#define REPEAT_TEXT_ROUNDS 5

/* One slot per step index a round mentions; -EINVAL past the bound. */
static int step_slots(const struct res_scenario *sc, size_t *ret)
{
	size_t n = 0;

	for (size_t i = 0; i < sc->nsteps; i++) {
		if (sc->steps[i].index >= PROTO_STEPS_MAX)
			return -EINVAL;
		if (sc->steps[i].index + 1 > n)
			n = sc->steps[i].index + 1;
	}
	*ret = n;
	return 0;
}

/* @sc's step verdicts by index, NOT_RUN where none began; NULL if none. */
static int round_steps(const struct res_scenario *sc, size_t n,
		       signed char **ret)
{
	signed char *v = NULL;

	if (n) {
		v = malloc(n);
		if (!v)
			return -ENOMEM;
		memset(v, REPEAT_NOT_RUN, n);
	}
	for (size_t i = 0; i < sc->nsteps; i++)
		if (sc->steps[i].ran)
			v[sc->steps[i].index] =
				(signed char)sc->steps[i].verdict;
	*ret = v;
	return 0;
}

/* The first round: one row per scenario, in its order. */
static int start_table(struct repeat_table *t, const struct res_run *run)
{
	t->v = calloc(run->n ? run->n : 1, sizeof(*t->v));
	if (!t->v)
		return -ENOMEM;
	t->n = run->n;
	for (size_t i = 0; i < run->n; i++)
		snprintf(t->v[i].name, sizeof(t->v[i].name), "%s",
			 run->v[i].name);
	return 0;
}

/* Make room for one more round and @nsteps step names; no count changes. */
static int grow(struct repeat_table *t, size_t i, size_t nsteps)
{
	struct repeat_scenario *s = &t->v[i];
	struct repeat_round *r;
	struct repeat_step *st;

	r = realloc(s->rounds, (t->rounds + 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	s->rounds = r;
	if (nsteps <= s->nsteps)
		return 0;
	st = realloc(s->steps, nsteps * sizeof(*st));
	if (!st)
		return -ENOMEM;
	memset(st + s->nsteps, 0, (nsteps - s->nsteps) * sizeof(*st));
	s->steps = st;
	return 0;
}

/* Name the steps this round knows and the table does not yet. */
static void learn_steps(struct repeat_scenario *s,
			const struct res_scenario *sc, size_t nsteps)
{
	for (size_t i = 0; i < sc->nsteps; i++) {
		const struct res_step *in = &sc->steps[i];
		struct repeat_step *st = &s->steps[in->index];

		if (*st->kind)
			continue;
		snprintf(st->kind, sizeof(st->kind), "%s", in->kind);
		snprintf(st->name, sizeof(st->name), "%s", in->name);
	}
	if (nsteps > s->nsteps)
		s->nsteps = nsteps;
}

int repeat_add_round(struct repeat_table *t, const struct res_run *run)
{
	signed char **steps;
	size_t *slots;
	int r = 0;

	if (t->rounds >= REPEAT_ROUNDS_MAX || (t->rounds && run->n != t->n))
		return -EINVAL;
	for (size_t i = 0; t->rounds && i < run->n; i++)
		if (strcmp(run->v[i].name, t->v[i].name) != 0)
			return -EINVAL;
	steps = calloc(run->n ? run->n : 1, sizeof(*steps));
	slots = calloc(run->n ? run->n : 1, sizeof(*slots));
	if (!steps || !slots) {
		r = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < run->n && r == 0; i++)
		r = step_slots(&run->v[i], &slots[i]);
	for (size_t i = 0; i < run->n && r == 0; i++)
		r = round_steps(&run->v[i], slots[i], &steps[i]);
	if (r == 0 && !t->rounds)
		r = start_table(t, run);
	for (size_t i = 0; i < run->n && r == 0; i++)
		r = grow(t, i, slots[i]);
	if (r < 0)
		goto out;
	/* Nothing can fail from here on: commit the round. */
	for (size_t i = 0; i < run->n; i++) {
		struct repeat_round *rd = &t->v[i].rounds[t->rounds];

		learn_steps(&t->v[i], &run->v[i], slots[i]);
		rd->verdict = run->v[i].verdict;
		rd->steps = steps[i];
		rd->nsteps = slots[i];
		steps[i] = NULL;
	}
	t->rounds++;
out:
	for (size_t i = 0; steps && i < run->n; i++)
		free(steps[i]);
	free(steps);
	free(slots);
	return r;
}

void repeat_table_free(struct repeat_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		for (size_t k = 0; k < t->rounds; k++)
			free(t->v[i].rounds[k].steps);
		free(t->v[i].rounds);
		free(t->v[i].steps);
	}
	free(t->v);
	t->v = NULL;
	t->n = 0;
	t->rounds = 0;
}

int repeat_step_verdict(const struct repeat_scenario *s, size_t round,
			size_t step)
{
	const struct repeat_round *rd = &s->rounds[round];

	return step < rd->nsteps ? rd->steps[step] : REPEAT_NOT_RUN;
}

size_t repeat_count(const struct repeat_table *t,
		    const struct repeat_scenario *s, enum proto_verdict v)
{
	size_t n = 0;

	for (size_t k = 0; k < t->rounds; k++)
		n += s->rounds[k].verdict == v;
	return n;
}

size_t repeat_passes(const struct repeat_table *t,
		     const struct repeat_scenario *s)
{
	size_t n = 0;

	for (size_t k = 0; k < t->rounds; k++)
		n += proto_verdict_ok(s->rounds[k].verdict);
	return n;
}

bool repeat_flipped(const struct repeat_table *t,
		    const struct repeat_scenario *s)
{
	for (size_t k = 1; k < t->rounds; k++)
		if (s->rounds[k].verdict != s->rounds[0].verdict)
			return true;
	return false;
}

ssize_t repeat_first_difference(const struct repeat_table *t,
				const struct repeat_scenario *s)
{
	for (size_t j = 0; j < s->nsteps; j++)
		for (size_t k = 1; k < t->rounds; k++)
			if (repeat_step_verdict(s, k, j) !=
			    repeat_step_verdict(s, 0, j))
				return (ssize_t)j;
	return -1;
}

size_t repeat_nflipped(const struct repeat_table *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->n; i++)
		n += repeat_flipped(t, &t->v[i]);
	return n;
}

bool repeat_ok(const struct repeat_table *t)
{
	if (t->rounds < t->requested)
		return false;
	for (size_t i = 0; i < t->n; i++)
		if (repeat_flipped(t, &t->v[i]) ||
		    repeat_passes(t, &t->v[i]) != t->rounds)
			return false;
	return true;
}

static const char *step_verdict_name(int v)
{
	return v == REPEAT_NOT_RUN ? "not run" : proto_verdict_name(v);
}

/* ---- summary.json ---- */

/* {"pass": 9, "fail": 1}: the verdicts seen, in the protocol's order. */
static struct json_object *counts_object(const struct repeat_table *t,
					 const struct repeat_scenario *s)
{
	struct json_object *o = json_object_new_object();
	int r = 0;

	for (unsigned int v = 0; o && v < VERDICT__COUNT && r == 0; v++) {
		size_t n = repeat_count(t, s, v);

		if (n)
			r = jsonutil_add(o, proto_verdict_name(v),
					 json_object_new_uint64(n));
	}
	if (r < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* ["pass", "fail", ...]: the scenario's verdict (or step @step's) per round. */
static struct json_object *per_round(const struct repeat_table *t,
				     const struct repeat_scenario *s,
				     ssize_t step)
{
	struct json_object *a = json_object_new_array();
	int r = 0;

	for (size_t k = 0; a && k < t->rounds && r == 0; k++) {
		int v = step < 0 ? (int)s->rounds[k].verdict :
				   repeat_step_verdict(s, k, (size_t)step);

		r = jsonutil_append(
			a, json_object_new_string(step_verdict_name(v)));
	}
	if (r < 0) {
		json_object_put(a);
		return NULL;
	}
	return a;
}

static int add_first_difference(struct json_object *o,
				const struct repeat_table *t,
				const struct repeat_scenario *s)
{
	ssize_t j = repeat_first_difference(t, s);
	struct json_object *d;
	int r;

	if (j < 0)
		return json_object_object_add(o, "first_difference", NULL) < 0 ?
			       -ENOMEM :
			       0;
	d = json_object_new_object();
	if (!d)
		return -ENOMEM;
	r = jsonutil_add(d, "step", json_object_new_int64(j));
	if (r == 0)
		r = jsonutil_add(d, "kind",
				 json_object_new_string(s->steps[j].kind));
	if (r == 0)
		r = jsonutil_add(d, "name",
				 json_object_new_string(s->steps[j].name));
	if (r == 0)
		r = jsonutil_add(d, "verdicts", per_round(t, s, j));
	if (r < 0) {
		json_object_put(d);
		return r;
	}
	return jsonutil_add(o, "first_difference", d);
}

static struct json_object *scenario_object(const struct repeat_table *t,
					   const struct repeat_scenario *s)
{
	struct json_object *o = json_object_new_object();
	int r;

	if (!o)
		return NULL;
	r = jsonutil_add(o, "name", json_object_new_string(s->name));
	if (r == 0)
		r = jsonutil_add(o, "passes",
				 json_object_new_uint64(repeat_passes(t, s)));
	if (r == 0)
		r = jsonutil_add(o, "flipped",
				 json_object_new_boolean(repeat_flipped(t, s)));
	if (r == 0)
		r = jsonutil_add(o, "counts", counts_object(t, s));
	if (r == 0)
		r = jsonutil_add(o, "verdicts", per_round(t, s, -1));
	if (r == 0)
		r = add_first_difference(o, t, s);
	if (r < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* ["round-1", ...]: each round's own run directory, relative. */
static struct json_object *round_dirs(const struct repeat_table *t)
{
	struct json_object *a = json_object_new_array();
	char dir[32];
	int r = 0;

	for (size_t k = 0; a && k < t->rounds && r == 0; k++) {
		snprintf(dir, sizeof(dir), RUNDIR_ROUND, (unsigned int)(k + 1));
		r = jsonutil_append(a, json_object_new_string(dir));
	}
	if (r < 0) {
		json_object_put(a);
		return NULL;
	}
	return a;
}

struct json_object *repeat_object(const struct repeat_table *t)
{
	struct json_object *o = json_object_new_object();
	struct json_object *list = json_object_new_array();
	struct json_object *flipped = json_object_new_array();
	int r = 0;

	if (!o || !list || !flipped)
		r = -ENOMEM;
	for (size_t i = 0; i < t->n && r == 0; i++) {
		r = jsonutil_append(list, scenario_object(t, &t->v[i]));
		if (r == 0 && repeat_flipped(t, &t->v[i]))
			r = jsonutil_append(
				flipped, json_object_new_string(t->v[i].name));
	}
	if (r == 0)
		r = jsonutil_add(o, "rounds",
				 json_object_new_uint64(t->rounds));
	if (r == 0)
		r = jsonutil_add(o, "requested",
				 json_object_new_uint64(t->requested));
	if (r == 0)
		r = jsonutil_add(o, "round_dirs", round_dirs(t));
	if (r == 0) {
		r = jsonutil_add(o, "flipped", flipped);
		flipped = NULL;
	}
	if (r == 0) {
		r = jsonutil_add(o, "scenarios", list);
		list = NULL;
	}
	json_object_put(flipped);
	json_object_put(list);
	if (r < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int repeat_summary_json(const struct repeat_table *t, const char *run_id,
			const char *accelerator, struct json_object *kernel,
			char **ret)
{
	struct json_object *o = json_object_new_object();
	const char *s;
	char *out;
	int r;

	if (!o)
		return -ENOMEM;
	r = jsonutil_add(o, "run_id", json_object_new_string(run_id));
	/* A run cut short, or one still going, has rounds missing. */
	if (r == 0)
		r = jsonutil_add(o, "complete",
				 json_object_new_boolean(t->rounds ==
							 t->requested));
	if (r == 0)
		r = jsonutil_add(o, "accelerator",
				 json_object_new_string(accelerator));
	if (r == 0 && kernel)
		r = jsonutil_add(o, "kernel", json_object_get(kernel));
	else if (r == 0)
		r = json_object_object_add(o, "kernel", NULL) < 0 ? -ENOMEM : 0;
	if (r == 0)
		r = jsonutil_add(o, "repeat", repeat_object(t));
	s = r == 0 ? json_object_to_json_string_ext(o, JSON_FLAGS_PRETTY) :
		     NULL;
	if (!s || asprintf(&out, "%s\n", s) < 0) {
		json_object_put(o);
		return -ENOMEM;
	}
	json_object_put(o);
	*ret = out;
	return 0;
}

/* ---- the table ---- */

/* Columns on screen: UTF-8 continuation bytes take none. */
static int width(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* "pass×9 fail×1" into @buf. */
static void verdicts_text(const struct repeat_table *t,
			  const struct repeat_scenario *s, char *buf,
			  size_t len)
{
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned int v = 0; v < VERDICT__COUNT && at < len; v++) {
		size_t n = repeat_count(t, s, v);

		if (n)
			at += snprintf(buf + at, len - at, "%s%s×%zu",
				       at ? " " : "", proto_verdict_name(v), n);
	}
}

/* "FLIPPED", or the verdict of every round in capitals. */
static void result_word(const struct repeat_table *t,
			const struct repeat_scenario *s, char buf[16])
{
	if (!t->rounds || repeat_flipped(t, s)) {
		snprintf(buf, 16, "%s", t->rounds ? "FLIPPED" : "NONE");
		return;
	}
	snprintf(buf, 16, "%s", proto_verdict_name(s->rounds[0].verdict));
	for (char *p = buf; *p; p++)
		*p = (char)toupper((unsigned char)*p);
}

/* "pass in rounds 1, 3" or, for a crowd, "pass in 9 rounds". */
static void group_text(FILE *f, const struct repeat_table *t,
		       const struct repeat_scenario *s, size_t step, int v,
		       size_t n)
{
	bool first = true;

	fprintf(f, "%s in ", step_verdict_name(v));
	if (n > REPEAT_TEXT_ROUNDS) {
		fprintf(f, "%zu rounds", n);
		return;
	}
	fprintf(f, "round%s ", n == 1 ? "" : "s");
	for (size_t k = 0; k < t->rounds; k++) {
		if (repeat_step_verdict(s, k, step) != v)
			continue;
		fprintf(f, "%s%zu", first ? "" : ", ", k + 1);
		first = false;
	}
}

/*
 * "step 1 read 'x': pass in rounds 1, 3; fail in round 2", each step
 * verdict seen in the protocol's order and "not run" last; "-" when the
 * steps agree.
 */
static void difference_text(FILE *f, const struct repeat_table *t,
			    const struct repeat_scenario *s)
{
	ssize_t j = repeat_first_difference(t, s);
	bool first = true;

	if (j < 0) {
		fputs(repeat_flipped(t, s) ? "no step differed" : "-", f);
		return;
	}
	fprintf(f, "step %zd %s%s%s%s: ", j + 1, s->steps[j].kind,
		*s->steps[j].name ? " '" : "", s->steps[j].name,
		*s->steps[j].name ? "'" : "");
	for (int v = 0; v <= VERDICT__COUNT; v++) {
		int sv = v == VERDICT__COUNT ? REPEAT_NOT_RUN : v;
		size_t n = 0;

		for (size_t k = 0; k < t->rounds; k++)
			n += repeat_step_verdict(s, k, (size_t)j) == sv;
		if (!n)
			continue;
		fputs(first ? "" : "; ", f);
		group_text(f, t, s, (size_t)j, sv, n);
		first = false;
	}
}

static void totals_text(const struct repeat_table *t, FILE *f)
{
	size_t flipped = repeat_nflipped(t);
	const char *word = "OK";

	/* A failure outranks a run cut short: it is a result. */
	for (size_t i = 0; i < t->n; i++)
		if (repeat_passes(t, &t->v[i]) != t->rounds)
			word = "FAILED";
	if (!strcmp(word, "OK") && t->rounds < t->requested)
		word = "CUT SHORT";

	fprintf(f, "%zu scenario%s over %zu round%s", t->n,
		t->n == 1 ? "" : "s", t->rounds, t->rounds == 1 ? "" : "s");
	if (t->rounds < t->requested)
		fprintf(f, " (of %zu: cut short)", t->requested);
	fprintf(f, ": %zu flipped, %zu the same in every round -> %s\n",
		flipped, t->n - flipped, flipped ? "FLIPPED" : word);
}

void repeat_text(const struct repeat_table *t, FILE *f)
{
	int wname = (int)strlen("SCENARIO"), wpass = (int)strlen("PASSES");
	int wverd = (int)strlen("VERDICTS");
	char verd[256], pass[48], word[16];

	for (size_t i = 0; i < t->n; i++) {
		const struct repeat_scenario *s = &t->v[i];

		verdicts_text(t, s, verd, sizeof(verd));
		snprintf(pass, sizeof(pass), "%zu/%zu", repeat_passes(t, s),
			 t->rounds);
		if (width(s->name) > wname)
			wname = width(s->name);
		if (width(pass) > wpass)
			wpass = width(pass);
		if (width(verd) > wverd)
			wverd = width(verd);
	}
	fprintf(f, "%-8s %-*s  %-*s  %-*s  %s\n", "RESULT", wname, "SCENARIO",
		wpass, "PASSES", wverd, "VERDICTS", "FIRST DIFFERENCE");
	for (size_t i = 0; i < t->n; i++) {
		const struct repeat_scenario *s = &t->v[i];

		result_word(t, s, word);
		verdicts_text(t, s, verd, sizeof(verd));
		snprintf(pass, sizeof(pass), "%zu/%zu", repeat_passes(t, s),
			 t->rounds);
		/* printf pads by bytes: add the bytes that take no column. */
		fprintf(f, "%-8s %-*s  %-*s  %-*s  ", word, wname, s->name,
			wpass, pass, wverd + (int)strlen(verd) - width(verd),
			verd);
		difference_text(f, t, s);
		fputc('\n', f);
	}
	totals_text(t, f);
}

void repeat_ktap(const struct repeat_table *t, FILE *f)
{
	char verd[256], word[16];

	fprintf(f, "KTAP version 1\n");
	fprintf(f, "# repeat: %zu round%s\n", t->rounds,
		t->rounds == 1 ? "" : "s");
	fprintf(f, "1..%zu\n", t->n);
	for (size_t i = 0; i < t->n; i++) {
		const struct repeat_scenario *s = &t->v[i];
		bool ok = !repeat_flipped(t, s) &&
			  repeat_passes(t, s) == t->rounds;

		result_word(t, s, word);
		verdicts_text(t, s, verd, sizeof(verd));
		fprintf(f, "# %s: %s, %zu/%zu passed: %s; first difference: ",
			s->name, word, repeat_passes(t, s), t->rounds, verd);
		difference_text(f, t, s);
		fputc('\n', f);
		fprintf(f, "%sok %zu %s", ok ? "" : "not ", i + 1, s->name);
		if (ok && t->rounds && s->rounds[0].verdict == VERDICT_SKIP)
			fputs(" # SKIP", f);
		fputc('\n', f);
	}
	fputs("# ", f);
	totals_text(t, f);
}
