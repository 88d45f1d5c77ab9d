// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rules of a scenario file that tie its parts together, checked once
 * each key passed its own (scenario-schema.c): 'steps' or 'boots', what a
 * scenario with VMs of its own may not have, the cleanup list's step names
 * against the steps', expect_incident.step naming a step, and 'bites'
 * against the steps.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "scenario/scenario-priv.h"

/*
 * Top-level keys the multi-boot driver does not act on, and why
 * (docs/scenarios.md). The state-leak audit compares a guest before and
 * after one run request, and a boot that resumes, or boots afresh, is no
 * longer that guest. A cleanup list protects the next scenario in the same
 * VM, and such a scenario's VMs are destroyed after it.
 */
/* clang-format off */
static const struct {
	const char *key, *why;
} scn_own_vm_refuses[] = {
	{ "state_files", "not supported in a scenario with boots or a disk" },
	{ "cleanup", "not supported in a scenario with boots or a disk: its VMs are its own and destroyed after it, so no later scenario inherits its state; undo what must be undone in the last boot's steps" },
	{ "cleanup_timeout_ms", "not supported in a scenario with boots or a disk (it has no 'cleanup')" },
	{ "image", "not supported in a scenario with boots or a disk: the cloud image's root would come after its disks, and its steps name them from vda" },
};

/* One entry of "bites"; scn_check_bites() checks both values. */
static const struct stepspec_key scn_bite_keys[] = {
	{ "patch", SCN_V(BITES), true, 0, 0, NULL },
	{ "steps", SCN_V(BITES), true, 0, 0, NULL },
	{ NULL },
};
/* clang-format on */

/* True when the array @steps (or anything else) has a step named @want. */
static bool scn_has_step(struct json_object *steps, const char *want)
{
	size_t n;

	if (!json_object_is_type(steps, json_type_array))
		return false;
	n = json_object_array_length(steps);
	for (size_t i = 0; i < n; i++) {
		const char *nm =
			scn_step_name(json_object_array_get_idx(steps, i));

		if (nm && strcmp(nm, want) == 0)
			return true;
	}
	return false;
}

/*
 * expect_incident.step must name one of the scenario's steps (in any of
 * its boots): an attribution to a step that does not exist could never
 * match.
 */
static void scn_check_incident_step(struct scn_ctx *ctx,
				    struct json_object *doc)
{
	struct json_object *inc, *step, *steps, *boots;
	const char *want;
	size_t n;

	if (!json_object_object_get_ex(doc, "expect_incident", &inc) ||
	    !json_object_is_type(inc, json_type_object) ||
	    !json_object_object_get_ex(inc, "step", &step) ||
	    !json_object_is_type(step, json_type_string))
		return;
	want = json_object_get_string(step);
	if (json_object_object_get_ex(doc, "steps", &steps) &&
	    scn_has_step(steps, want))
		return;
	if (json_object_object_get_ex(doc, "boots", &boots) &&
	    json_object_is_type(boots, json_type_array)) {
		n = json_object_array_length(boots);
		for (size_t i = 0; i < n; i++) {
			struct json_object *b =
				json_object_array_get_idx(boots, i);

			if (json_object_is_type(b, json_type_object) &&
			    json_object_object_get_ex(b, "steps", &steps) &&
			    scn_has_step(steps, want))
				return;
		}
	}
	if (!json_object_object_get_ex(doc, "steps", NULL) &&
	    !json_object_object_get_ex(doc, "boots", NULL))
		return;
	scn_error(ctx, "$.expect_incident.step", "no step is named '%s'", want);
}

/*
 * The cleanup list beside the steps: its step names differ from theirs
 * (results list both together), and its bound needs it.
 */
static void scn_check_cleanup(struct scn_ctx *ctx, struct json_object *doc)
{
	struct json_object *cl, *steps;
	const char *nm;
	char p[SCN_PATH_MAX];
	size_t n;

	if (!json_object_object_get_ex(doc, "cleanup", &cl)) {
		if (json_object_object_get_ex(doc, "cleanup_timeout_ms",
					      NULL) &&
		    !json_object_object_get_ex(doc, "boots", NULL) &&
		    !json_object_object_get_ex(doc, "disk", NULL))
			scn_error(
				ctx, "$.cleanup_timeout_ms",
				"needs 'cleanup': it bounds the cleanup list");
		return;
	}
	if (!json_object_is_type(cl, json_type_array) ||
	    !json_object_object_get_ex(doc, "steps", &steps))
		return;
	n = json_object_array_length(cl);
	for (size_t i = 0; i < n; i++) {
		nm = scn_step_name(json_object_array_get_idx(cl, i));
		if (!nm || !scn_has_step(steps, nm))
			continue;
		snprintf(p, sizeof(p), "$.cleanup[%zu].name", i);
		scn_error(ctx, p, "duplicate step name '%s' (also in $.steps)",
			  nm);
	}
}

/* The number of steps of @doc, every boot's counted; 0 if malformed. */
static size_t scn_count_steps(struct json_object *doc)
{
	struct json_object *v, *b;
	size_t n = 0;

	if (json_object_object_get_ex(doc, "steps", &v))
		return json_object_is_type(v, json_type_array) ?
			       json_object_array_length(v) :
			       0;
	if (!json_object_object_get_ex(doc, "boots", &v) ||
	    !json_object_is_type(v, json_type_array))
		return 0;
	for (size_t i = 0; i < json_object_array_length(v); i++)
		if (json_object_object_get_ex(json_object_array_get_idx(v, i),
					      "steps", &b) &&
		    json_object_is_type(b, json_type_array))
			n += json_object_array_length(b);
	return n;
}

/*
 * "bites": 1..SCN_BITES_MAX objects {patch, steps}. patch is a name or
 * number prefix of a series patch (hostctl checks it against the series:
 * the validator has no series), each patch once; steps are 1..N distinct
 * step indices, N the scenario's step count (every boot's, in order).
 */
static void scn_check_bites(struct scn_ctx *ctx, struct json_object *doc)
{
	struct json_object *bites, *e, *patch, *steps, *o;
	size_t nsteps = scn_count_steps(doc), n;
	char p[SCN_PATH_MAX], q[SCN_PATH_MAX], r[SCN_PATH_MAX];

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
		e = json_object_array_get_idx(bites, i);
		jsonstrict_path_index(p, "$.bites", i);
		if (!scn_expect_type(ctx, p, e, json_type_object, "an object"))
			continue;
		scn_check_object(
			ctx, p, e,
			(const struct stepspec_key *const[]){ scn_bite_keys },
			1, "a bites entry");
		jsonstrict_path_key(q, p, "patch");
		if (json_object_object_get_ex(e, "patch", &patch) &&
		    scn_expect_type(ctx, q, patch, json_type_string,
				    "a string")) {
			const char *s = json_object_get_string(patch);

			if (!*s || strlen(s) > 255 || strchr(s, '/') ||
			    strpbrk(s, " \t\n\r\v\f"))
				scn_error(
					ctx, q,
					"bad patch name '%s' (want a series file name or its number, e.g. \"0003\")",
					s);
			for (size_t j = 0; j < i; j++) {
				o = json_object_array_get_idx(bites, j);
				if (json_object_is_type(o, json_type_object) &&
				    json_object_object_get_ex(o, "patch", &o) &&
				    json_object_is_type(o, json_type_string) &&
				    strcmp(json_object_get_string(o), s) == 0) {
					scn_error(
						ctx, q,
						"patch '%s' is declared twice (also $.bites[%zu])",
						s, j);
					break;
				}
			}
		}
		jsonstrict_path_key(q, p, "steps");
		if (!json_object_object_get_ex(e, "steps", &steps) ||
		    !scn_expect_type(ctx, q, steps, json_type_array,
				     "an array"))
			continue;
		if (json_object_array_length(steps) < 1 ||
		    json_object_array_length(steps) > nsteps) {
			scn_error(ctx, q, "%zu steps, want 1..%zu",
				  json_object_array_length(steps), nsteps);
			continue;
		}
		for (size_t k = 0; k < json_object_array_length(steps); k++) {
			int64_t x;

			o = json_object_array_get_idx(steps, k);
			jsonstrict_path_index(r, q, k);
			if (!scn_expect_type(ctx, r, o, json_type_int,
					     "an integer"))
				continue;
			x = json_object_get_int64(o);
			if (x < 0 || (uint64_t)x >= nsteps) {
				scn_error(
					ctx, r,
					"step %" PRId64
					" is out of range 0..%zu (the scenario has %zu steps)",
					x, nsteps - 1, nsteps);
				continue;
			}
			for (size_t j = 0; j < k; j++) {
				struct json_object *d =
					json_object_array_get_idx(steps, j);

				if (json_object_is_type(d, json_type_int) &&
				    json_object_get_int64(d) == x) {
					scn_error(
						ctx, r,
						"step %" PRId64
						" is listed twice (also %s[%zu])",
						x, q, j);
					break;
				}
			}
		}
	}
}

void scn_check_rules(struct scn_ctx *ctx, struct json_object *doc)
{
	if (json_object_object_get_ex(doc, "steps", NULL) ==
	    json_object_object_get_ex(doc, "boots", NULL))
		scn_error(
			ctx, "$",
			"a scenario has either 'steps' (one boot) or 'boots', exactly one of them");
	/* boots.c has no state-leak audit and no cleanup list. */
	if (json_object_object_get_ex(doc, "boots", NULL) ||
	    json_object_object_get_ex(doc, "disk", NULL))
		for (size_t i = 0; i < sizeof(scn_own_vm_refuses) /
					       sizeof(scn_own_vm_refuses[0]);
		     i++)
			if (json_object_object_get_ex(
				    doc, scn_own_vm_refuses[i].key, NULL)) {
				char p[SCN_PATH_MAX];

				jsonstrict_path_key(p, "$",
						    scn_own_vm_refuses[i].key);
				scn_error(ctx, p, "%s",
					  scn_own_vm_refuses[i].why);
			}
	scn_check_cleanup(ctx, doc);
	scn_check_incident_step(ctx, doc);
	scn_check_bites(ctx, doc);
}
