// SPDX-License-Identifier: GPL-2.0-only
/*
 * The results of a run in memory: a scenario's verdict and its cleanup
 * list's, and freeing them. summary.json is results-json.c's, the text
 * report and KTAP results-text.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonutil.h"
#include "results/results.h"

int res_set_str(char **field, const char *value)
{
	char *copy = NULL;

	if (value && *value) {
		copy = strdup(value);
		if (!copy)
			return -ENOMEM;
	}
	free(*field);
	*field = copy;
	return 0;
}

/* "step 14 (rmmod 'unload dsa_loop')" */
static void step_where(const struct res_step *st, char *buf, size_t size)
{
	snprintf(buf, size, "step %u (%s%s%s%s)", st->index + 1, st->kind,
		 *st->name ? " '" : "", st->name, *st->name ? "'" : "");
}

/*
 * The cleanup list failed when one of its steps did not pass (a guarded
 * step that found nothing to do is skip, which is fine), or did not run
 * at all in a scenario that began: the guest may hold what it left.
 */
static int judge_cleanup(struct res_scenario *sc)
{
	const struct res_step *bad = NULL;
	char where[PROTO_NAME_MAX + PROTO_KIND_MAX + 32], *why;
	bool began = false;
	int r;

	sc->cleanup_failed = false;
	sc->cleanup_step = -1;
	for (size_t i = 0; i < sc->nsteps; i++)
		began |= sc->steps[i].ran;
	for (size_t i = sc->nsteps - sc->ncleanup; i < sc->nsteps && !bad;
	     i++) {
		const struct res_step *st = &sc->steps[i];

		if (st->ran ? st->verdict != VERDICT_PASS &&
				      st->verdict != VERDICT_SKIP :
			      began)
			bad = st;
	}
	if (!bad)
		return res_set_str(&sc->cleanup_reason, NULL);
	sc->cleanup_failed = true;
	sc->cleanup_step = bad->index;
	step_where(bad, where, sizeof(where));
	if (!bad->ran)
		r = asprintf(&why, "%s did not run", where);
	else if (bad->expected)
		r = asprintf(&why, "%s: %s: expected %s; got %s", where,
			     proto_verdict_name(bad->verdict), bad->expected,
			     bad->got ? bad->got : "");
	else
		r = asprintf(&why, "%s: %s: %s", where,
			     proto_verdict_name(bad->verdict),
			     bad->reason ? bad->reason : "");
	if (r < 0)
		return -ENOMEM;
	free(sc->cleanup_reason);
	sc->cleanup_reason = why;
	return 0;
}

int res_scenario_finish(struct res_scenario *sc, enum proto_verdict v,
			const char *reason)
{
	sc->verdict = v;
	sc->done = true;
	if (sc->ncleanup && sc->ncleanup <= sc->nsteps) {
		sc->has_cleanup = true;
		if (judge_cleanup(sc) < 0)
			return -ENOMEM;
	}
	return res_set_str(&sc->reason, reason);
}

int res_subtest_add(struct res_step *st, const char *name,
		    enum proto_verdict verdict, const char *reason)
{
	struct res_subtest *v = st->subtests, *t;

	/* Grown in powers of two: a step may report a thousand. */
	if ((st->nsubtests & (st->nsubtests - 1)) == 0) {
		v = realloc(st->subtests,
			    (st->nsubtests ? st->nsubtests * 2 : 1) *
				    sizeof(*v));
		if (!v)
			return -ENOMEM;
		st->subtests = v;
	}
	t = &v[st->nsubtests];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->verdict = verdict;
	if (res_set_str(&t->reason, reason) < 0)
		return -ENOMEM;
	st->nsubtests++;
	return 0;
}

static void step_free(struct res_step *st)
{
	free(st->expected);
	free(st->got);
	free(st->reason);
	for (size_t i = 0; i < st->nsubtests; i++)
		free(st->subtests[i].reason);
	free(st->subtests);
	st->subtests = NULL;
	st->nsubtests = 0;
}

void res_scenario_free(struct res_scenario *sc)
{
	for (size_t i = 0; i < sc->nsteps; i++)
		step_free(&sc->steps[i]);
	for (size_t i = 0; i < sc->nincidents; i++)
		free(sc->incidents[i].bundle);
	free(sc->incidents);
	sc->incidents = NULL;
	sc->nincidents = 0;
	free(sc->steps);
	free(sc->reason);
	free(sc->cleanup_reason);
	sc->cleanup_reason = NULL;
	free(sc->boots);
	free(sc->fresh_vm);
	sc->fresh_vm = NULL;
	sc->steps = NULL;
	sc->nsteps = 0;
	sc->reason = NULL;
	sc->boots = NULL;
	sc->nboots = 0;
	res_leaks_free(sc);
}

int res_incident_add(struct res_scenario *sc, const struct res_incident *inc)
{
	struct res_incident *v;

	v = realloc(sc->incidents, (sc->nincidents + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	sc->incidents = v;
	v[sc->nincidents] = *inc;
	v[sc->nincidents].bundle = NULL;
	if (res_set_str(&v[sc->nincidents].bundle, inc->bundle) < 0)
		return -ENOMEM;
	sc->nincidents++;
	return 0;
}

void res_run_free(struct res_run *run)
{
	for (size_t i = 0; i < run->n; i++)
		res_scenario_free(&run->v[i]);
	free(run->v);
	json_object_put(run->kernel);
	run->v = NULL;
	run->n = 0;
	run->kernel = NULL;
}

/*
 * The state-leak audit's notes: "leaks", an array of strings, in
 * summary.json only for a scenario that has some; printed as "leak:" lines.
 */
void res_leaks_free(struct res_scenario *sc)
{
	for (size_t i = 0; i < sc->nleaks; i++)
		free(sc->leaks[i]);
	free(sc->leaks);
	sc->leaks = NULL;
	sc->nleaks = 0;
}

const char *res_kernel_str(const struct res_run *run, const char *key)
{
	return jsonutil_str(run->kernel, key);
}

const char *res_kernel_str2(const struct res_run *run, const char *obj,
			    const char *key)
{
	struct json_object *o;

	if (!run->kernel || !json_object_object_get_ex(run->kernel, obj, &o))
		return "";
	return jsonutil_str(o, key);
}

void res_kernel_describe(const struct res_run *run, char *buf, size_t len)
{
	struct json_object *tree, *series;
	const char *rel = res_kernel_str(run, "release");
	int n;

	if (!run->kernel)
		n = snprintf(buf, len, "unknown kernel (no manifest)");
	else if (*res_kernel_str2(run, "external", "bzimage"))
		n = snprintf(buf, len, "external bzImage %s, sha256 %s",
			     res_kernel_str2(run, "external", "bzimage"),
			     res_kernel_str2(run, "external", "sha256"));
	else if (json_object_object_get_ex(run->kernel, "tree", &tree))
		n = snprintf(buf, len, "tree %s at %s, %s our series",
			     res_kernel_str2(run, "tree", "path"),
			     res_kernel_str2(run, "tree", "id"),
			     json_object_object_get_ex(tree, "series",
						       &series) &&
					     json_object_get_boolean(series) ?
				     "with" :
				     "without");
	else
		/* A manifest without "line" is 6.1's (kbuild/manifest.c). */
		n = snprintf(
			buf, len,
			"Debian linux-source %s%s%s%s with vlalab's series, %s flavour",
			res_kernel_str(run, "source_version"),
			*res_kernel_str(run, "line") ? " (line " : "",
			res_kernel_str(run, "line"),
			*res_kernel_str(run, "line") ? ")" : "",
			res_kernel_str(run, "flavour"));
	if (n >= 0 && (size_t)n < len && *rel)
		snprintf(buf + n, len - n, ", release %s", rel);
}

enum res_outcome res_run_outcome(const struct res_run *run)
{
	bool lab = false;

	for (size_t i = 0; i < run->n; i++) {
		const struct res_scenario *sc = &run->v[i];

		if (!sc->done || sc->verdict == VERDICT_ERROR)
			lab = true;
		else if (!proto_verdict_ok(sc->verdict))
			return RES_OUTCOME_KERNEL;
	}
	/* hostctl did not finish it: nothing says the rest would pass. */
	if (run->complete == RES_COMPLETE_NO)
		lab = true;
	return lab ? RES_OUTCOME_LAB : RES_OUTCOME_OK;
}

bool res_run_ok(const struct res_run *run)
{
	if (run->complete == RES_COMPLETE_NO)
		return false;
	for (size_t i = 0; i < run->n; i++)
		if (!run->v[i].done || !proto_verdict_ok(run->v[i].verdict))
			return false;
	return true;
}
