// SPDX-License-Identifier: GPL-2.0-only
/*
 * The schema of a scenario file (docs/scenarios.md), and the engine that
 * checks a file against it: a key table for each object (the top level,
 * requires, expect_incident, a disk, a boot), and for the steps the table
 * of step kinds both programs share (common/stepspec.c), with each kind's
 * rules between its keys. Each object is checked for unknown and missing
 * keys and each value against its type (scenario-values.c); the steps'
 * names must differ, a delta needs an earlier sample, and the boots must
 * fit together.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "proto.h"
#include "results/kind.h"
#include "scenario/scenario-priv.h"

/* clang-format off */
static const char *const scn_seeds[] = { "001", "002", "003", "004", "005",
					 "none", NULL };

/* The guest images a scenario may ask for (docs/repro.md, "Cloud images"). */
static const char *const scn_images[] = { "cloud", NULL };

/* The report kinds an expect_incident may name: report_kind_name()'s words. */
static const struct stepspec_key scn_top_keys[] = {
	{ "description", SCN_V(LINE), true, 0, 0, NULL },
	{ "seed", STEPSPEC_CHOICE, true, 0, 0, scn_seeds },
	{ "requires", SCN_V(REQUIRES), false, 0, 0, NULL },
	{ "timeout_ms", STEPSPEC_INT, false, 1, SCN_TIMEOUT_MAX_MS, NULL },
	{ "step_timeout_ms", STEPSPEC_INT, false, 1, SCN_TIMEOUT_MAX_MS, NULL },
	{ "steps", SCN_V(STEPS), false, 1, SCN_STEPS_MAX, NULL },
	{ "cleanup", SCN_V(CLEANUP), false, 0, PROTO_CLEANUP_MAX, NULL },
	{ "cleanup_timeout_ms", STEPSPEC_INT, false, 1, SCN_TIMEOUT_MAX_MS, NULL },
	{ "expect_incident", SCN_V(INCIDENT), false, 0, 0, NULL },
	{ "bites", SCN_V(BITES), false, 1, SCN_BITES_MAX, NULL },
	{ "xfail", SCN_V(LINE), false, 0, PROTO_TEXT_MAX - 1, NULL },
	{ "state_files", SCN_V(STATE_FILES), false, 0, PROTO_AUDIT_FILES_MAX, NULL },
	{ "disk", SCN_V(DISK), false, 0, 0, NULL },
	{ "boots", SCN_V(BOOTS), false, 1, SCN_BOOTS_MAX, NULL },
	{ "fresh_vm", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "nic", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "image", STEPSPEC_CHOICE, false, 0, 0, scn_images },
	/* A folder of kernel/flavours/ (scn_flavours_check()). */
	{ "flavour", STEPSPEC_STRING, false, 0, SCN_FLAVOUR_MAX - 1, NULL },
	{ NULL },
};

static const char *const scn_disk_formats[] = { "raw", "qcow2", NULL };
static const char *const scn_machines[] = { "pc", "q35", NULL };
static const char *const scn_ends[] = { "running", "poweroff", "reboot",
					NULL };

static const struct stepspec_key scn_disk_keys[] = {
	{ "size_mib", STEPSPEC_INT, true, 16, 65536, NULL },
	{ "format", STEPSPEC_CHOICE, false, 0, 0, scn_disk_formats },
	{ NULL },
};

static const struct stepspec_key scn_boot_keys[] = {
	{ "memory_mib", STEPSPEC_INT, false, 128, 16384, NULL },
	{ "machine", STEPSPEC_CHOICE, false, 0, 0, scn_machines },
	{ "kernel_args", SCN_V(KARGS), false, 0, SCN_KERNEL_ARGS_MAX, NULL },
	{ "extra_disks", SCN_V(DISKS), false, 0, SCN_EXTRA_DISKS_MAX, NULL },
	{ "steps", SCN_V(STEPS), false, 0, SCN_STEPS_MAX, NULL },
	{ "end", STEPSPEC_CHOICE, false, 0, 0, scn_ends },
	{ "resumed", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "timeout_ms", STEPSPEC_INT, false, 1, SCN_TIMEOUT_MAX_MS, NULL },
	{ NULL },
};

static const struct stepspec_key scn_incident_keys[] = {
	{ "kind", STEPSPEC_CHOICE, true, 0, 0, report_kind_choices },
	{ "title", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ "survives", STEPSPEC_BOOL, true, 0, 0, NULL },
	{ "step", STEPSPEC_STRING, false, 0, PROTO_NAME_MAX - 1, NULL },
	{ NULL },
};

static const struct stepspec_key scn_requires_keys[] = {
	{ "config", SCN_V(CONFIGS), false, 0, 0, NULL },
	{ "config_unset", SCN_V(CONFIGS), false, 0, 0, NULL },
	{ "unset_why", SCN_V(LINE), false, 0, SCN_UNSET_WHY_MAX, NULL },
	{ "modules", SCN_V(MODULES), false, 0, 0, NULL },
	{ "module_params", SCN_V(MODULE_PARAMS), false, 0, 0, NULL },
	{ NULL },
};
/* clang-format on */

static bool scn_is_config_name(const char *s)
{
	if (strncmp(s, "CONFIG_", 7) != 0 || !s[7])
		return false;
	for (s += 7; *s; s++)
		if (!isupper((unsigned char)*s) &&
		    !isdigit((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static bool scn_is_module_name(const char *s)
{
	size_t len = strlen(s);

	if (len == 0 || len > SCN_MODNAME_MAX)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return false;
	return true;
}

/* "module.param": a module name, then a C identifier. */
static bool scn_is_module_param(const char *s)
{
	const char *dot = strchr(s, '.');
	char mod[SCN_MODNAME_MAX + 1];

	if (!dot || (size_t)(dot - s) > SCN_MODNAME_MAX)
		return false;
	memcpy(mod, s, dot - s);
	mod[dot - s] = '\0';
	if (!scn_is_module_name(mod))
		return false;
	s = dot + 1;
	if (!*s || strlen(s) > SCN_MODNAME_MAX || isdigit((unsigned char)*s))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static void scn_check_value(struct scn_ctx *ctx, const char *path,
			    const struct stepspec_key *spec,
			    struct json_object *v);

/* One word of the kernel command line: no spaces, quotes or shell bytes. */
static bool scn_is_kernel_arg(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= 127 &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789_.,:=/+-") == n;
}

/* A state file for the audit: an absolute path the protocol can carry. */
static bool scn_is_state_path(const char *s)
{
	return s[0] == '/' && s[1] && strlen(s) < PROTO_PATH_MAX &&
	       !strpbrk(s, "\n\r");
}

void scn_check_object(struct scn_ctx *ctx, const char *path,
		      struct json_object *obj,
		      const struct stepspec_key *const *tables, size_t ntables,
		      const char *what)
{
	char p[SCN_PATH_MAX];

	json_object_object_foreach(obj, key, val) {
		const struct stepspec_key *spec = NULL;

		for (size_t t = 0; !spec && t < ntables; t++)
			spec = stepspec_key_find(tables[t], key);
		jsonstrict_path_key(p, path, key);
		if (!spec) {
			char known[512] = "";
			size_t len = 0;

			for (size_t t = 0; t < ntables; t++)
				for (const struct stepspec_key *k = tables[t];
				     k && k->key; k++) {
					int r = snprintf(known + len,
							 sizeof(known) - len,
							 "%s%s",
							 len ? ", " : "",
							 k->key);

					if (r > 0 &&
					    (size_t)r < sizeof(known) - len)
						len += r;
				}
			scn_error(ctx, p, "unknown key; %s takes: %s", what,
				  known);
			continue;
		}
		scn_check_value(ctx, p, spec, val);
	}
	for (size_t t = 0; t < ntables; t++)
		for (const struct stepspec_key *k = tables[t]; k && k->key; k++)
			if (k->required &&
			    !json_object_object_get_ex(obj, k->key, NULL))
				scn_error(ctx, path,
					  "missing required key '%s'", k->key);
}

/*
 * An array of @spec->min..@spec->max @what: false when it is no array, or
 * too long to look into; else true, with its length in *@ret_n.
 */
static bool scn_check_length(struct scn_ctx *ctx, const char *path,
			     const struct stepspec_key *spec,
			     struct json_object *v, const char *what,
			     size_t *ret_n)
{
	size_t n;

	if (!scn_expect_type(ctx, path, v, json_type_array, "an array"))
		return false;
	n = json_object_array_length(v);
	if (n < (size_t)spec->min || n > (size_t)spec->max) {
		scn_error(ctx, path, "%zu %s, want %" PRId64 "..%" PRId64, n,
			  what, spec->min, spec->max);
		if (n > (size_t)spec->max)
			return false;
	}
	*ret_n = n;
	return true;
}

/* An object whose keys are @keys; @what names it in messages. */
static void scn_check_nested(struct scn_ctx *ctx, const char *path,
			     struct json_object *v,
			     const struct stepspec_key *keys, const char *what)
{
	if (scn_expect_type(ctx, path, v, json_type_object, "an object"))
		scn_check_object(ctx, path, v, &keys, 1, what);
}

static void scn_check_step(struct scn_ctx *ctx, const char *path,
			   struct json_object *step)
{
	const struct stepspec_key *own = ctx->cleanup ? stepspec_cleanup_keys :
							NULL;
	const struct stepspec *kind = NULL;
	struct stepspec_problems probs = { .n = 0 };
	struct json_object *v;
	char what[64], p[SCN_PATH_MAX];

	if (!scn_expect_type(ctx, path, step, json_type_object, "an object"))
		return;
	jsonstrict_path_key(p, path, "kind");
	if (!json_object_object_get_ex(step, "kind", &v))
		scn_error(ctx, path, "missing required key 'kind'");
	else if (scn_expect_type(ctx, p, v, json_type_string, "a string")) {
		kind = stepspec_find(json_object_get_string(v));
		if (!kind) {
			char list[512] = "";

			for (size_t i = 0; i < stepspec_count; i++) {
				if (list[0])
					strcat(list, ", ");
				strncat(list, stepspec_table[i].kind,
					sizeof(list) - strlen(list) - 3);
			}
			scn_error(ctx, p, "unknown step kind '%s'; kinds: %s",
				  json_object_get_string(v), list);
		}
	}
	if (!kind) {
		/* Without a kind only the common keys can be checked. */
		json_object_object_foreach(step, key, val) {
			const struct stepspec_key *spec =
				stepspec_key_find(stepspec_common_keys, key);

			if (!spec)
				spec = stepspec_key_find(own, key);
			if (spec && strcmp(key, "kind") != 0) {
				jsonstrict_path_key(p, path, key);
				scn_check_value(ctx, p, spec, val);
			}
		}
		return;
	}
	snprintf(what, sizeof(what), "a '%s' step", kind->kind);
	if (!ctx->cleanup &&
	    json_object_object_get_ex(step, "if_exists", NULL)) {
		/* Said plainly, rather than as an unknown key. */
		jsonstrict_path_key(p, path, "if_exists");
		scn_error(
			ctx, p,
			"only a step of 'cleanup' takes 'if_exists': a main step that finds nothing to do should fail");
		json_object_object_del(step, "if_exists");
	}
	scn_check_object(ctx, path, step,
			 (const struct stepspec_key *const[]){
				 stepspec_common_keys, own, kind->keys },
			 3, what);

	/* need_one, the kind's own rules, needs, below_timeout. */
	stepspec_check_rules(kind, step, ctx->step_timeout_ms, &probs);
	for (size_t i = 0; i < probs.n; i++) {
		const struct stepspec_problem *pr = &probs.v[i];

		if (pr->key[0])
			jsonstrict_path_key(p, path, pr->key);
		else
			snprintf(p, sizeof(p), "%s", path);
		if (pr->warning)
			scn_warn(ctx, p, "%s", pr->msg);
		else
			scn_error(ctx, p, "%s", pr->msg);
	}
}

const char *scn_step_name(struct json_object *step)
{
	struct json_object *v;

	if (!json_object_is_type(step, json_type_object) ||
	    !json_object_object_get_ex(step, "name", &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

/* A string key of a step of kind @kind, or NULL. */
static const char *scn_step_str(struct json_object *step, const char *kind,
				const char *key)
{
	struct json_object *k, *v;

	if (!json_object_is_type(step, json_type_object) ||
	    !json_object_object_get_ex(step, "kind", &k) ||
	    !json_object_is_type(k, json_type_string) ||
	    strcmp(json_object_get_string(k), kind) != 0 ||
	    !json_object_object_get_ex(step, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool scn_step_int(struct json_object *step, const char *key,
			 int64_t *ret)
{
	struct json_object *v;

	if (!json_object_object_get_ex(step, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return false;
	*ret = json_object_get_int64(v);
	return true;
}

/* Whether a step before @i takes a sample named @name. */
static bool scn_sample_before(struct json_object *steps, size_t i,
			      const char *name)
{
	for (size_t j = 0; j < i; j++) {
		const char *as = scn_step_str(
			json_object_array_get_idx(steps, j), "sample", "as");

		if (as && strcmp(as, name) == 0)
			return true;
	}
	return false;
}

/*
 * sample and delta across steps: a delta's 'of' names a sample taken by
 * an earlier step, a scenario keeps at most STEPSPEC_SAMPLE_MAX names
 * (guestd's store), and a delta's bounds can all hold at once.
 */
static void scn_check_samples(struct scn_ctx *ctx, const char *path,
			      struct json_object *steps, size_t n)
{
	char p[SCN_PATH_MAX], q[SCN_PATH_MAX];
	size_t names = 0;

	for (size_t i = 0; i < n; i++) {
		struct json_object *step = json_object_array_get_idx(steps, i);
		const char *as = scn_step_str(step, "sample", "as");
		const char *of = scn_step_str(step, "delta", "of");
		int64_t eq = 0, lo = 0, hi = 0;
		bool has_eq, has_lo, has_hi;

		jsonstrict_path_index(p, path, i);
		if (as && !scn_sample_before(steps, i, as) &&
		    ++names == STEPSPEC_SAMPLE_MAX + 1) {
			jsonstrict_path_key(q, p, "as");
			scn_error(ctx, q,
				  "more than %d sample names in one scenario",
				  STEPSPEC_SAMPLE_MAX);
		}
		if (!of)
			continue;
		jsonstrict_path_key(q, p, "of");
		if (!scn_sample_before(steps, i, of))
			scn_error(
				ctx, q,
				"no earlier 'sample' step takes '%s' ('as')%s",
				of,
				ctx->cleanup ?
					" in the cleanup list (it runs in a process of its own, without the main steps' samples)" :
					"");
		has_eq = scn_step_int(step, "equals", &eq);
		has_lo = scn_step_int(step, "at_least", &lo);
		has_hi = scn_step_int(step, "at_most", &hi);
		if ((has_lo && has_hi && lo > hi) ||
		    (has_eq && has_lo && eq < lo) ||
		    (has_eq && has_hi && eq > hi))
			scn_error(
				ctx, p,
				"the bounds of this 'delta' can never all hold");
	}
}

static void scn_check_steps(struct scn_ctx *ctx, const char *path,
			    const struct stepspec_key *spec,
			    struct json_object *v)
{
	char p[SCN_PATH_MAX];
	size_t n;

	if (!scn_check_length(ctx, path, spec, v, "steps", &n))
		return;
	for (size_t i = 0; i < n; i++) {
		struct json_object *step = json_object_array_get_idx(v, i);
		const char *name;

		jsonstrict_path_index(p, path, i);
		scn_check_step(ctx, p, step);
		name = scn_step_name(step);
		for (size_t j = 0; name && j < i; j++) {
			const char *other =
				scn_step_name(json_object_array_get_idx(v, j));
			char q[SCN_PATH_MAX], np[SCN_PATH_MAX];

			if (!other || strcmp(other, name) != 0)
				continue;
			jsonstrict_path_key(np, p, "name");
			jsonstrict_path_index(q, path, j);
			scn_error(ctx, np, "duplicate step name '%s' (also %s)",
				  name, q);
			break;
		}
	}
	scn_check_samples(ctx, path, v, n);
}

/* The steps array of boot @i of the boots @v, or NULL. */
static struct json_object *scn_boot_steps(struct json_object *v, size_t i)
{
	struct json_object *steps;

	if (!json_object_object_get_ex(json_object_array_get_idx(v, i), "steps",
				       &steps) ||
	    !json_object_is_type(steps, json_type_array))
		return NULL;
	return steps;
}

/* The steps @si of boot @i take no name of the steps @sj of boot @j. */
static void scn_check_boot_names(struct scn_ctx *ctx, const char *path,
				 struct json_object *si, size_t i,
				 struct json_object *sj, size_t j)
{
	char p[SCN_PATH_MAX], q[SCN_PATH_MAX];

	for (size_t x = 0; sj && x < json_object_array_length(si); x++) {
		const char *a = scn_step_name(json_object_array_get_idx(si, x));

		for (size_t y = 0; a && y < json_object_array_length(sj); y++) {
			const char *b =
				scn_step_name(json_object_array_get_idx(sj, y));

			if (!b || strcmp(a, b) != 0)
				continue;
			jsonstrict_path_index(p, path, i);
			jsonstrict_path_key(q, p, "steps");
			jsonstrict_path_index(p, q, x);
			jsonstrict_path_key(q, p, "name");
			scn_error(
				ctx, q,
				"duplicate step name '%s' (also in $.boots[%zu])",
				a, j);
		}
	}
}

/* The rules that tie the boots together; each boot is checked already. */
static void scn_check_boots(struct scn_ctx *ctx, const char *path,
			    struct json_object *v)
{
	size_t n = json_object_array_length(v), total = 0;
	const char *prev_end = "running";
	char p[SCN_PATH_MAX], q[SCN_PATH_MAX];

	for (size_t i = 0; i < n; i++) {
		struct json_object *b = json_object_array_get_idx(v, i), *e;
		const char *end = "running";

		if (!json_object_is_type(b, json_type_object))
			return;
		jsonstrict_path_index(p, path, i);
		if (json_object_object_get_ex(b, "steps", &e) &&
		    json_object_is_type(e, json_type_array))
			total += json_object_array_length(e);
		if (json_object_object_get_ex(b, "end", &e) &&
		    json_object_is_type(e, json_type_string))
			end = json_object_get_string(e);
		if (json_object_object_get_ex(b, "resumed", &e) &&
		    json_object_is_type(e, json_type_boolean)) {
			jsonstrict_path_key(q, p, "resumed");
			if (i == 0)
				scn_error(
					ctx, q,
					"the first boot has no earlier boot to resume");
			else if (json_object_get_boolean(e) &&
				 strcmp(prev_end, "running") == 0)
				scn_error(
					ctx, q,
					"cannot resume: the boot before it ends 'running', so it never hibernates");
		}
		if (i + 1 == n && strcmp(end, "running") != 0) {
			jsonstrict_path_key(q, p, "end");
			scn_error(
				ctx, q,
				"the last boot must end 'running' (nothing boots after it)");
		}
		prev_end = end;
	}
	if (total == 0 || total > SCN_STEPS_MAX)
		scn_error(ctx, path, "%zu steps in all boots, want 1..%d",
			  total, SCN_STEPS_MAX);
	/* Results list every boot's steps together: names stay unique. */
	for (size_t i = 0; i < n; i++) {
		struct json_object *si = scn_boot_steps(v, i);

		for (size_t j = 0; si && j < i; j++)
			scn_check_boot_names(ctx, path, si, i,
					     scn_boot_steps(v, j), j);
	}
}

/* An array of disks or boots: its length, then each object. */
static void scn_check_array(struct scn_ctx *ctx, const char *path,
			    const struct stepspec_key *spec,
			    struct json_object *v)
{
	bool boots = spec->type == SCN_V(BOOTS);
	char p[SCN_PATH_MAX];
	size_t n;

	if (!scn_check_length(ctx, path, spec, v, "entries", &n))
		return;
	for (size_t i = 0; i < n; i++) {
		jsonstrict_path_index(p, path, i);
		scn_check_nested(ctx, p, json_object_array_get_idx(v, i),
				 boots ? scn_boot_keys : scn_disk_keys,
				 boots ? "a boot" : "a disk");
	}
	if (boots)
		scn_check_boots(ctx, path, v);
}

/* A value of @spec's type: common/stepspec.h's, or ours. */
static void scn_check_value(struct scn_ctx *ctx, const char *path,
			    const struct stepspec_key *spec,
			    struct json_object *v)
{
	if (spec->type < STEPSPEC__COUNT) {
		scn_check_spec_value(ctx, path, spec, v);
		return;
	}
	switch ((enum scn_vtype)spec->type) {
	case SCN_V_LINE:
		scn_check_line(ctx, path, spec, v);
		return;
	case SCN_V_CONFIGS:
		scn_check_string_list(ctx, path, v, scn_is_config_name,
				      "config option name", "CONFIG_[A-Z0-9_]+",
				      false);
		return;
	case SCN_V_MODULES:
		scn_check_string_list(ctx, path, v, scn_is_module_name,
				      "module name",
				      "[A-Za-z0-9_-]+, at most 55 characters",
				      true);
		return;
	case SCN_V_MODULE_PARAMS:
		scn_check_string_list(
			ctx, path, v, scn_is_module_param, "module parameter",
			"module.parameter, each at most 55 characters", true);
		return;
	case SCN_V_REQUIRES:
		scn_check_nested(ctx, path, v, scn_requires_keys, "requires");
		/* A skip for an option the kernel has says why it must. */
		if (json_object_is_type(v, json_type_object) &&
		    json_object_object_get_ex(v, "config_unset", NULL) !=
			    json_object_object_get_ex(v, "unset_why", NULL))
			scn_error(
				ctx, path,
				"config_unset and unset_why go together: the options, and one line on why a kernel with them cannot run the scenario");
		return;
	case SCN_V_STEPS:
		scn_check_steps(ctx, path, spec, v);
		return;
	case SCN_V_CLEANUP:
		ctx->cleanup = true;
		scn_check_steps(ctx, path, spec, v);
		ctx->cleanup = false;
		return;
	case SCN_V_STATE_FILES:
		scn_check_string_list(ctx, path, v, scn_is_state_path,
				      "state file",
				      "an absolute path of under 256 bytes",
				      false);
		if (json_object_is_type(v, json_type_array) &&
		    json_object_array_length(v) > (size_t)spec->max)
			scn_error(ctx, path, "%zu state files, at most %lld",
				  json_object_array_length(v),
				  (long long)spec->max);
		return;
	case SCN_V_BITES:
		return;
	case SCN_V_INCIDENT:
		scn_check_nested(ctx, path, v, scn_incident_keys,
				 "expect_incident");
		return;
	case SCN_V_DISK:
		scn_check_nested(ctx, path, v, scn_disk_keys, "a disk");
		return;
	case SCN_V_DISKS:
	case SCN_V_BOOTS:
		scn_check_array(ctx, path, spec, v);
		return;
	case SCN_V_KARGS:
		if (scn_expect_type(ctx, path, v, json_type_array,
				    "an array") &&
		    json_object_array_length(v) > (size_t)spec->max)
			scn_error(ctx, path, "%zu entries, at most %" PRId64,
				  json_object_array_length(v), spec->max);
		scn_check_string_list(ctx, path, v, scn_is_kernel_arg,
				      "kernel argument",
				      "[A-Za-z0-9_.,:=/+-], 1..127 characters",
				      false);
		return;
	}
}

void scn_check_keys(struct scn_ctx *ctx, struct json_object *doc)
{
	struct json_object *v;

	/* Steps inherit step_timeout_ms: check it first, for within_ms. */
	if (json_object_object_get_ex(doc, "step_timeout_ms", &v) &&
	    json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) >= 1 &&
	    json_object_get_int64(v) <= SCN_TIMEOUT_MAX_MS)
		ctx->step_timeout_ms = json_object_get_int64(v);
	scn_check_object(ctx, "$", doc,
			 (const struct stepspec_key *const[]){ scn_top_keys },
			 1, "a scenario");
}
