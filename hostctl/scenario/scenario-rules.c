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

#include "scenario/bites.h"
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

void scn_check_rules(struct scn_ctx *ctx, struct json_object *doc)
{
	struct json_object *v;

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
			/* An empty list is as none ("cleanup": []). */
			if (json_object_object_get_ex(
				    doc, scn_own_vm_refuses[i].key, &v) &&
			    !(json_object_is_type(v, json_type_array) &&
			      json_object_array_length(v) == 0)) {
				char p[SCN_PATH_MAX];

				jsonstrict_path_key(p, "$",
						    scn_own_vm_refuses[i].key);
				scn_error(ctx, p, "%s",
					  scn_own_vm_refuses[i].why);
			}
	scn_check_cleanup(ctx, doc);
	scn_check_incident_step(ctx, doc);
	bites_check(ctx, doc, scn_count_steps(doc));
}
