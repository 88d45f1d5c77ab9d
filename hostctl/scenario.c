// SPDX-License-Identifier: GPL-2.0-only
/*
 * Scenario files: loading and validation against docs/scenarios.md.
 * Selection by name or glob is scenario-select.c's, the requires check
 * against a built kernel scenario-requires.c's.
 *
 * Validation is driven by tables: one key table for the top level, one for
 * requires, and for the steps the table of step kinds both programs share
 * (common/stepspec.c). Every problem is collected as
 * "file: $.json.path: reason", so a user fixes a file in one go.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "fileio.h"
#include "jsonstrict.h"
#include "kbuild.h"
#include "proto.h"
#include "scenario-priv.h"
#include "scenario.h"
#include "stepspec.h"

#define SCN_FILE_MAX (1024 * 1024)
#define SCN_MODNAME_MAX 55 /* MODULE_NAME_LEN - 1 */

/* Room for a step kind's keys and the ending NULL key. */
#define SCN_SPEC_KEYS_MAX (STEPSPEC_KEYS_MAX + 1)

static const char *const scn_seeds[] = { "001", "002", "003", "004", "005",
					 "none", NULL };

/* The report kinds an expect_incident may name: report_kind_name()'s words. */
static const char *const scn_incident_kinds[] = {
	"panic", "oops", "bug", "warning", "ubsan", "kasan", "soft-lockup",
	"hung-task", "double-fault", "stack-guard", "fortify", "usercopy",
	NULL,
};

static const struct scn_key scn_top_keys[] = {
	{ "description", SCN_V_LINE, true, 0, 0, NULL },
	{ "seed", STEPSPEC_CHOICE, true, 0, 0, scn_seeds },
	{ "requires", SCN_V_REQUIRES, false, 0, 0, NULL },
	{ "timeout_ms", STEPSPEC_INT, false, 1, SCN_TIMEOUT_MAX_MS, NULL },
	{ "step_timeout_ms", STEPSPEC_INT, false, 1, SCN_TIMEOUT_MAX_MS, NULL },
	{ "steps", SCN_V_STEPS, false, 1, SCN_STEPS_MAX, NULL },
	{ "cleanup", SCN_V_CLEANUP, false, 1, PROTO_CLEANUP_MAX, NULL },
	{ "cleanup_timeout_ms", STEPSPEC_INT, false, 1, SCN_TIMEOUT_MAX_MS, NULL },
	{ "expect_incident", SCN_V_INCIDENT, false, 0, 0, NULL },
	{ "bites", SCN_V_BITES, false, 1, SCN_BITES_MAX, NULL },
	{ "xfail", SCN_V_LINE, false, 0, PROTO_TEXT_MAX - 1, NULL },
	{ "state_files", SCN_V_STATE_FILES, false, 0, PROTO_AUDIT_FILES_MAX, NULL },
	{ "disk", SCN_V_DISK, false, 0, 0, NULL },
	{ "boots", SCN_V_BOOTS, false, 1, SCN_BOOTS_MAX, NULL },
	{ "fresh_vm", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ NULL },
};

static const char *const scn_disk_formats[] = { "raw", "qcow2", NULL };
/*
 * Top-level keys the multi-boot driver does not act on, and why
 * (docs/scenarios.md). The state-leak audit compares a guest before and
 * after one run request, and a boot that resumes, or boots afresh, is no
 * longer that guest. A cleanup list protects the next scenario in the same
 * VM, and such a scenario's VMs are destroyed after it.
 */
static const struct {
	const char *key, *why;
} scn_own_vm_refuses[] = {
	{ "state_files", "not supported in a scenario with boots or a disk" },
	{ "cleanup", "not supported in a scenario with boots or a disk: its VMs are its own and destroyed after it, so no later scenario inherits its state; undo what must be undone in the last boot's steps" },
	{ "cleanup_timeout_ms", "not supported in a scenario with boots or a disk (it has no 'cleanup')" },
};
static const char *const scn_machines[] = { "pc", "q35", NULL };
static const char *const scn_ends[] = { "running", "poweroff", "reboot",
					NULL };

static const struct scn_key scn_disk_keys[] = {
	{ "size_mib", STEPSPEC_INT, true, 16, 65536, NULL },
	{ "format", STEPSPEC_CHOICE, false, 0, 0, scn_disk_formats },
	{ NULL },
};

static const struct scn_key scn_boot_keys[] = {
	{ "memory_mib", STEPSPEC_INT, false, 128, 16384, NULL },
	{ "machine", STEPSPEC_CHOICE, false, 0, 0, scn_machines },
	{ "kernel_args", SCN_V_KARGS, false, 0, SCN_KERNEL_ARGS_MAX, NULL },
	{ "extra_disks", SCN_V_DISKS, false, 0, SCN_EXTRA_DISKS_MAX, NULL },
	{ "steps", SCN_V_STEPS, false, 0, SCN_STEPS_MAX, NULL },
	{ "end", STEPSPEC_CHOICE, false, 0, 0, scn_ends },
	{ "resumed", STEPSPEC_BOOL, false, 0, 0, NULL },
	{ "timeout_ms", STEPSPEC_INT, false, 1, SCN_TIMEOUT_MAX_MS, NULL },
	{ NULL },
};

static const struct scn_key scn_incident_keys[] = {
	{ "kind", STEPSPEC_CHOICE, true, 0, 0, scn_incident_kinds },
	{ "title", STEPSPEC_REGEX, false, 0, 0, NULL },
	{ "survives", STEPSPEC_BOOL, true, 0, 0, NULL },
	{ "step", STEPSPEC_STRING, false, 0, PROTO_NAME_MAX - 1, NULL },
	{ NULL },
};

/* One entry of "bites"; scn_check_bites() checks both values. */
static const struct scn_key scn_bite_keys[] = {
	{ "patch", SCN_V_BITES, true, 0, 0, NULL },
	{ "steps", SCN_V_BITES, true, 0, 0, NULL },
	{ NULL },
};

static const struct scn_key scn_requires_keys[] = {
	{ "config", SCN_V_CONFIGS, false, 0, 0, NULL },
	{ "modules", SCN_V_MODULES, false, 0, 0, NULL },
	{ NULL },
};

static bool scn_is_area_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) &&
		    *s != '-')
			return false;
	return true;
}

/* A scenario's own name: [a-z0-9][a-z0-9-]* (the file name less ".json"). */
static bool scn_is_base_name(const char *s, size_t len)
{
	if (len == 0 || s[0] == '-')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!islower((unsigned char)s[i]) &&
		    !isdigit((unsigned char)s[i]) && s[i] != '-')
			return false;
	return true;
}

static bool scn_is_file_name(const char *s)
{
	size_t len = strlen(s);

	return len > 5 && strcmp(s + len - 5, ".json") == 0 &&
	       scn_is_base_name(s, len - 5);
}

static bool scn_is_scenario_name(const char *s)
{
	const char *slash = strchr(s, '/');
	char area[PROTO_NAME_MAX];

	if (!slash || (size_t)(slash - s) >= sizeof(area) ||
	    strlen(s) >= PROTO_NAME_MAX)
		return false;
	memcpy(area, s, slash - s);
	area[slash - s] = '\0';
	return scn_is_area_name(area) &&
	       scn_is_base_name(slash + 1, strlen(slash + 1));
}

static bool scn_is_config_name(const char *s)
{
	if (strncmp(s, "CONFIG_", 7) != 0 || !s[7])
		return false;
	for (s += 7; *s; s++)
		if (!isupper((unsigned char)*s) && !isdigit((unsigned char)*s) &&
		    *s != '_')
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

static const struct scn_key *scn_find_key(const struct scn_key *keys,
					  const char *key)
{
	for (; keys && keys->key; keys++)
		if (strcmp(keys->key, key) == 0)
			return keys;
	return NULL;
}

/*
 * The stepspec key tables @keys and @more (or NULL) as one of ours, into
 * @out (SCN_SPEC_KEYS_MAX rows).
 */
static const struct scn_key *scn_spec_keys(const struct stepspec_key *keys,
					   const struct stepspec_key *more,
					   struct scn_key *out)
{
	size_t n = 0;

	for (int pass = 0; pass < 2; pass++)
		for (const struct stepspec_key *k = pass ? more : keys;
		     k && k->key && n + 1 < SCN_SPEC_KEYS_MAX; k++, n++)
			out[n] = (struct scn_key){ k->key, k->type,
						   k->required, k->min, k->max,
						   k->choices };
	out[n] = (struct scn_key){ NULL };
	return out;
}

static void scn_check_value(struct scn_ctx *ctx, const char *path,
			    const struct scn_key *spec, struct json_object *v);

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

/*
 * Check the keys of @obj against @keys and @more (either may be NULL): no
 * unknown key, every required key present, each value of its type. @what
 * names the object in messages ("a scenario", "a 'read' step").
 */
static void scn_check_object(struct scn_ctx *ctx, const char *path,
			     struct json_object *obj, const struct scn_key *keys,
			     const struct scn_key *more, const char *what)
{
	char p[SCN_PATH_MAX];

	json_object_object_foreach(obj, key, val) {
		const struct scn_key *spec = scn_find_key(keys, key);

		if (!spec)
			spec = scn_find_key(more, key);
		jsonstrict_path_key(p, path, key);
		if (!spec) {
			char known[512] = "";
			size_t len = 0;

			for (int pass = 0; pass < 2; pass++)
				for (const struct scn_key *k = pass ? more : keys;
				     k && k->key; k++) {
					int r = snprintf(known + len,
							 sizeof(known) - len,
							 "%s%s", len ? ", " : "",
							 k->key);

					if (r > 0 && (size_t)r < sizeof(known) - len)
						len += r;
				}
			scn_error(ctx, p, "unknown key; %s takes: %s", what,
				  known);
			continue;
		}
		scn_check_value(ctx, p, spec, val);
	}
	for (int pass = 0; pass < 2; pass++)
		for (const struct scn_key *k = pass ? more : keys; k && k->key;
		     k++)
			if (k->required &&
			    !json_object_object_get_ex(obj, k->key, NULL))
				scn_error(ctx, path, "missing required key '%s'",
					  k->key);
}

static void scn_check_step(struct scn_ctx *ctx, const char *path,
			   struct json_object *step)
{
	struct scn_key step_keys[SCN_SPEC_KEYS_MAX], kind_keys[SCN_SPEC_KEYS_MAX];
	const struct stepspec *kind = NULL;
	struct stepspec_problems probs = { .n = 0 };
	struct json_object *v;
	char what[64], p[SCN_PATH_MAX];

	if (!scn_expect_type(ctx, path, step, json_type_object, "an object"))
		return;
	scn_spec_keys(stepspec_common_keys,
		      ctx->cleanup ? stepspec_cleanup_keys : NULL, step_keys);
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
			const struct scn_key *spec = scn_find_key(step_keys, key);

			if (spec && strcmp(key, "kind") != 0) {
				jsonstrict_path_key(p, path, key);
				scn_check_value(ctx, p, spec, val);
			}
		}
		return;
	}
	snprintf(what, sizeof(what), "a '%s' step", kind->kind);
	if (!ctx->cleanup && json_object_object_get_ex(step, "if_exists", NULL)) {
		/* Said plainly, rather than as an unknown key. */
		jsonstrict_path_key(p, path, "if_exists");
		scn_error(ctx, p, "only a step of 'cleanup' takes 'if_exists': a main step that finds nothing to do should fail");
		json_object_object_del(step, "if_exists");
	}
	scn_check_object(ctx, path, step, step_keys,
			 scn_spec_keys(kind->keys, NULL, kind_keys), what);

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
		const char *as = scn_step_str(json_object_array_get_idx(steps, j),
					      "sample", "as");

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
			scn_error(ctx, q, "more than %d sample names in one scenario",
				  STEPSPEC_SAMPLE_MAX);
		}
		if (!of)
			continue;
		jsonstrict_path_key(q, p, "of");
		if (!scn_sample_before(steps, i, of))
			scn_error(ctx, q, "no earlier 'sample' step takes '%s' ('as')%s",
				  of, ctx->cleanup ? " in the cleanup list (it runs in a process of its own, without the main steps' samples)" : "");
		has_eq = scn_step_int(step, "equals", &eq);
		has_lo = scn_step_int(step, "at_least", &lo);
		has_hi = scn_step_int(step, "at_most", &hi);
		if ((has_lo && has_hi && lo > hi) ||
		    (has_eq && has_lo && eq < lo) ||
		    (has_eq && has_hi && eq > hi))
			scn_error(ctx, p, "the bounds of this 'delta' can never all hold");
	}
}

static void scn_check_steps(struct scn_ctx *ctx, const char *path,
			    const struct scn_key *spec, struct json_object *v)
{
	char p[SCN_PATH_MAX];
	size_t n;

	if (!scn_expect_type(ctx, path, v, json_type_array, "an array"))
		return;
	n = json_object_array_length(v);
	if (n < (size_t)spec->min || n > (size_t)spec->max) {
		scn_error(ctx, path, "%zu steps, want %" PRId64 "..%" PRId64, n,
			  spec->min, spec->max);
		if (n > (size_t)spec->max)
			return;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *step = json_object_array_get_idx(v, i);
		struct json_object *name;

		jsonstrict_path_index(p, path, i);
		scn_check_step(ctx, p, step);
		if (!json_object_is_type(step, json_type_object) ||
		    !json_object_object_get_ex(step, "name", &name) ||
		    !json_object_is_type(name, json_type_string))
			continue;
		for (size_t j = 0; j < i; j++) {
			struct json_object *o = json_object_array_get_idx(v, j);
			struct json_object *oname;
			char q[SCN_PATH_MAX], np[SCN_PATH_MAX];

			if (!json_object_is_type(o, json_type_object) ||
			    !json_object_object_get_ex(o, "name", &oname) ||
			    !json_object_is_type(oname, json_type_string) ||
			    strcmp(json_object_get_string(oname),
				   json_object_get_string(name)) != 0)
				continue;
			jsonstrict_path_key(np, p, "name");
			jsonstrict_path_index(q, path, j);
			scn_error(ctx, np, "duplicate step name '%s' (also %s)",
				  json_object_get_string(name), q);
			break;
		}
	}
	scn_check_samples(ctx, path, v, n);
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
				scn_error(ctx, q,
					  "the first boot has no earlier boot to resume");
			else if (json_object_get_boolean(e) &&
				 strcmp(prev_end, "running") == 0)
				scn_error(ctx, q,
					  "cannot resume: the boot before it ends 'running', so it never hibernates");
		}
		if (i + 1 == n && strcmp(end, "running") != 0) {
			jsonstrict_path_key(q, p, "end");
			scn_error(ctx, q,
				  "the last boot must end 'running' (nothing boots after it)");
		}
		prev_end = end;
	}
	if (total == 0 || total > SCN_STEPS_MAX)
		scn_error(ctx, path, "%zu steps in all boots, want 1..%d", total,
			  SCN_STEPS_MAX);
	/* Results list every boot's steps together: names stay unique. */
	for (size_t i = 0; i < n; i++) {
		struct json_object *si, *sj, *a, *b;

		if (!json_object_object_get_ex(json_object_array_get_idx(v, i),
					       "steps", &si) ||
		    !json_object_is_type(si, json_type_array))
			continue;
		for (size_t j = 0; j < i; j++) {
			if (!json_object_object_get_ex(
				    json_object_array_get_idx(v, j), "steps",
				    &sj) ||
			    !json_object_is_type(sj, json_type_array))
				continue;
			for (size_t x = 0; x < json_object_array_length(si); x++) {
				a = json_object_array_get_idx(si, x);
				if (!json_object_is_type(a, json_type_object) ||
				    !json_object_object_get_ex(a, "name", &a) ||
				    !json_object_is_type(a, json_type_string))
					continue;
				for (size_t y = 0; y < json_object_array_length(sj); y++) {
					b = json_object_array_get_idx(sj, y);
					if (!json_object_is_type(b, json_type_object) ||
					    !json_object_object_get_ex(b, "name", &b) ||
					    !json_object_is_type(b, json_type_string) ||
					    strcmp(json_object_get_string(a),
						   json_object_get_string(b)) != 0)
						continue;
					jsonstrict_path_index(p, path, i);
					jsonstrict_path_key(q, p, "steps");
					jsonstrict_path_index(p, q, x);
					jsonstrict_path_key(q, p, "name");
					scn_error(ctx, q,
						  "duplicate step name '%s' (also in $.boots[%zu])",
						  json_object_get_string(a), j);
				}
			}
		}
	}
}

/* An array of disks or boots: its length, then each object. */
static void scn_check_array(struct scn_ctx *ctx, const char *path,
			    const struct scn_key *spec, struct json_object *v)
{
	bool boots = spec->type == SCN_V_BOOTS;
	char p[SCN_PATH_MAX];
	size_t n;

	if (!scn_expect_type(ctx, path, v, json_type_array, "an array"))
		return;
	n = json_object_array_length(v);
	if (n < (size_t)spec->min || n > (size_t)spec->max) {
		scn_error(ctx, path, "%zu entries, want %" PRId64 "..%" PRId64,
			  n, spec->min, spec->max);
		if (n > (size_t)spec->max)
			return;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);

		jsonstrict_path_index(p, path, i);
		if (!scn_expect_type(ctx, p, e, json_type_object, "an object"))
			continue;
		scn_check_object(ctx, p, e, boots ? scn_boot_keys : scn_disk_keys,
				 NULL, boots ? "a boot" : "a disk");
	}
	if (boots)
		scn_check_boots(ctx, path, v);
}

/* A value of @spec's type: common/stepspec.h's, or ours. */
static void scn_check_value(struct scn_ctx *ctx, const char *path,
			    const struct scn_key *spec, struct json_object *v)
{
	if (spec->type < STEPSPEC__COUNT) {
		scn_check_spec_value(ctx, path, spec, v);
		return;
	}
	switch ((enum scn_vtype)spec->type) {
	case SCN_V_LINE:
		scn_check_string(ctx, path, spec, v);
		return;
	case SCN_V_CONFIGS:
		scn_check_string_list(ctx, path, v, scn_is_config_name,
				      "config option name", "CONFIG_[A-Z0-9_]+",
				      false);
		return;
	case SCN_V_MODULES:
		scn_check_string_list(ctx, path, v, scn_is_module_name,
				      "module name", "[A-Za-z0-9_-]+, at most 55 characters",
				      true);
		return;
	case SCN_V_REQUIRES:
		if (scn_expect_type(ctx, path, v, json_type_object, "an object"))
			scn_check_object(ctx, path, v, scn_requires_keys, NULL,
					 "requires");
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
				      "an absolute path of under 256 bytes", false);
		if (json_object_is_type(v, json_type_array) &&
		    json_object_array_length(v) > (size_t)spec->max)
			scn_error(ctx, path, "%zu state files, at most %lld",
				  json_object_array_length(v),
				  (long long)spec->max);
		return;
	case SCN_V_BITES:
		return;
	case SCN_V_INCIDENT:
		if (scn_expect_type(ctx, path, v, json_type_object, "an object"))
			scn_check_object(ctx, path, v, scn_incident_keys, NULL,
					 "expect_incident");
		return;
	case SCN_V_DISK:
		if (scn_expect_type(ctx, path, v, json_type_object, "an object"))
			scn_check_object(ctx, path, v, scn_disk_keys, NULL,
					 "a disk");
		return;
	case SCN_V_DISKS:
	case SCN_V_BOOTS:
		scn_check_array(ctx, path, spec, v);
		return;
	case SCN_V_KARGS:
		if (scn_expect_type(ctx, path, v, json_type_array, "an array") &&
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

/*
 * json-c keeps the last of two equal keys and says nothing, which would hide
 * a typo'd scenario: jsonstrict_dup_keys() finds them.
 */
static void scn_dup_key(const char *path, void *ctx)
{
	scn_error(ctx, path, "duplicate key (JSON keeps only the last)");
}

/* Parse @buf as one strict JSON value, or record where and why not. */
static struct json_object *scn_parse(struct scn_ctx *ctx, const char *buf,
				     size_t len)
{
	struct jsonstrict_error err;
	struct json_object *obj;
	int r;

	r = jsonstrict_parse(buf, len, &obj, &err);
	if (r == -ENOMEM) {
		scn_error(ctx, NULL, "out of memory");
		return NULL;
	}
	if (r < 0) {
		scn_error(ctx, NULL, "line %zu, column %zu: not valid JSON: %s",
			  err.line, err.column, err.what);
		return NULL;
	}
	return obj;
}

static char *scn_dup_string_value(struct json_object *obj, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(obj, key, &v))
		return NULL;
	return strdup(json_object_get_string(v));
}

static int scn_dup_list(struct json_object *obj, const char *key,
			char ***ret, size_t *ret_n)
{
	struct json_object *v;
	size_t n;

	*ret = NULL;
	*ret_n = 0;
	if (!json_object_object_get_ex(obj, key, &v))
		return 0;
	n = json_object_array_length(v);
	if (n == 0)
		return 0;
	*ret = calloc(n, sizeof(**ret));
	if (!*ret)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		(*ret)[i] = strdup(json_object_get_string(
			json_object_array_get_idx(v, i)));
		if (!(*ret)[i])
			return -ENOMEM;
		(*ret_n)++;
	}
	return 0;
}

static uint64_t scn_get_ms(struct json_object *obj, const char *key,
			   uint64_t def)
{
	struct json_object *v;

	if (!json_object_object_get_ex(obj, key, &v))
		return def;
	return json_object_get_int64(v);
}

/*
 * Fill s->steps[@first..] from the validated array @steps, adding each
 * step's timeout_ms, and return the array as compact JSON in *@ret_json.
 * The run request it makes must fit in one protocol line.
 */
static int scn_fill_steps(struct scn_ctx *ctx, struct scenario *s,
			  struct json_object *steps, size_t first,
			  uint64_t timeout_ms, const char *errpath,
			  char **ret_json)
{
	size_t n = json_object_array_length(steps);
	struct json_object *v;
	const char *json;
	char *line = NULL;
	size_t line_len;
	int r;

	for (size_t i = 0; i < n; i++) {
		struct json_object *step = json_object_array_get_idx(steps, i);
		struct scn_step *st = &s->steps[first + i];

		json_object_object_get_ex(step, "kind", &v);
		snprintf(st->kind, sizeof(st->kind), "%s",
			 json_object_get_string(v));
		if (json_object_object_get_ex(step, "name", &v))
			snprintf(st->name, sizeof(st->name), "%s",
				 json_object_get_string(v));
		st->timeout_ms = scn_get_ms(step, "timeout_ms", s->step_timeout_ms);
		if (!json_object_object_get_ex(step, "timeout_ms", NULL) &&
		    json_object_object_add(step, "timeout_ms",
					   json_object_new_int64(st->timeout_ms)) < 0)
			return -ENOMEM;
	}
	json = json_object_to_json_string_ext(steps, JSON_C_TO_STRING_PLAIN |
						     JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!json)
		return -ENOMEM;
	*ret_json = strdup(json);
	if (!*ret_json)
		return -ENOMEM;
	if (n == 0)
		return 0;
	r = proto_run_encode(s->name, timeout_ms, s->step_timeout_ms,
			     *ret_json, &line, &line_len);
	if (r == -E2BIG) {
		scn_error(ctx, errpath,
			  "the run request would be over the protocol's %d-byte line limit (the steps alone are %zu bytes)",
			  PROTO_LINE_MAX, strlen(*ret_json));
		return -EINVAL;
	}
	if (r < 0)
		return r;
	free(line);
	return 0;
}

static void scn_fill_disk(struct json_object *obj, struct scn_disk *d)
{
	struct json_object *v;

	d->size_mib = scn_get_ms(obj, "size_mib", 0);
	d->format = json_object_object_get_ex(obj, "format", &v) &&
			    strcmp(json_object_get_string(v), "qcow2") == 0 ?
			    SCN_DISK_QCOW2 :
			    SCN_DISK_RAW;
}

/* One boot of a multi-boot scenario; its steps go to s->steps[first..]. */
static int scn_fill_boot(struct scn_ctx *ctx, struct json_object *obj,
			 struct scenario *s, size_t idx, size_t first)
{
	struct scn_boot *b = &s->boots[idx];
	struct json_object *v, *steps = NULL;
	char path[64];
	int r;

	b->memory_mib = scn_get_ms(obj, "memory_mib", SCN_MEMORY_MIB_DEFAULT);
	snprintf(b->machine, sizeof(b->machine), "%s",
		 json_object_object_get_ex(obj, "machine", &v) ?
			 json_object_get_string(v) :
			 "pc");
	r = scn_dup_list(obj, "kernel_args", &b->kernel_args,
			 &b->n_kernel_args);
	if (r < 0)
		return r;
	if (json_object_object_get_ex(obj, "extra_disks", &v)) {
		b->n_extra_disks = json_object_array_length(v);
		for (size_t i = 0; i < b->n_extra_disks; i++)
			scn_fill_disk(json_object_array_get_idx(v, i),
				      &b->extra_disks[i]);
	}
	b->end = SCN_END_RUNNING;
	if (json_object_object_get_ex(obj, "end", &v)) {
		if (strcmp(json_object_get_string(v), "poweroff") == 0)
			b->end = SCN_END_POWEROFF;
		else if (strcmp(json_object_get_string(v), "reboot") == 0)
			b->end = SCN_END_REBOOT;
	}
	b->resumed = SCN_RESUMED_ANY;
	if (json_object_object_get_ex(obj, "resumed", &v))
		b->resumed = json_object_get_boolean(v) ? SCN_RESUMED_YES :
							  SCN_RESUMED_NO;
	b->timeout_ms = scn_get_ms(obj, "timeout_ms", s->timeout_ms);
	b->first_step = first;
	if (json_object_object_get_ex(obj, "steps", &steps))
		b->nsteps = json_object_array_length(steps);
	else {
		steps = json_object_new_array();
		if (!steps)
			return -ENOMEM;
		json_object_object_add(obj, "steps", steps);
	}
	snprintf(path, sizeof(path), "$.boots[%zu].steps", idx);
	return scn_fill_steps(ctx, s, steps, first, b->timeout_ms, path,
			      &b->steps_json);
}

/* True when the array @steps (or anything else) has a step named @want. */
static bool scn_has_step(struct json_object *steps, const char *want)
{
	size_t n;

	if (!json_object_is_type(steps, json_type_array))
		return false;
	n = json_object_array_length(steps);
	for (size_t i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(steps, i), *nm;

		if (json_object_is_type(o, json_type_object) &&
		    json_object_object_get_ex(o, "name", &nm) &&
		    json_object_is_type(nm, json_type_string) &&
		    strcmp(json_object_get_string(nm), want) == 0)
			return true;
	}
	return false;
}

/*
 * expect_incident.step must name one of the scenario's steps (in any of
 * its boots): an attribution to a step that does not exist could never
 * match.
 */
static void scn_check_incident_step(struct scn_ctx *ctx, struct json_object *doc)
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
			struct json_object *b = json_object_array_get_idx(boots, i);

			if (json_object_is_type(b, json_type_object) &&
			    json_object_object_get_ex(b, "steps", &steps) &&
			    scn_has_step(steps, want))
				return;
		}
	}
	if (!json_object_object_get_ex(doc, "steps", NULL) &&
	    !json_object_object_get_ex(doc, "boots", NULL))
		return;
	scn_error(ctx, "$.expect_incident.step",
		  "no step is named '%s'", want);
}

/*
 * The cleanup list beside the steps: its step names differ from theirs
 * (results list both together), and its bound needs it.
 */
static void scn_check_cleanup(struct scn_ctx *ctx, struct json_object *doc)
{
	struct json_object *cl, *steps, *st, *nm;
	char p[SCN_PATH_MAX];
	size_t n;

	if (!json_object_object_get_ex(doc, "cleanup", &cl)) {
		if (json_object_object_get_ex(doc, "cleanup_timeout_ms", NULL) &&
		    !json_object_object_get_ex(doc, "boots", NULL) &&
		    !json_object_object_get_ex(doc, "disk", NULL))
			scn_error(ctx, "$.cleanup_timeout_ms",
				  "needs 'cleanup': it bounds the cleanup list");
		return;
	}
	if (!json_object_is_type(cl, json_type_array) ||
	    !json_object_object_get_ex(doc, "steps", &steps))
		return;
	n = json_object_array_length(cl);
	for (size_t i = 0; i < n; i++) {
		st = json_object_array_get_idx(cl, i);
		if (!json_object_is_type(st, json_type_object) ||
		    !json_object_object_get_ex(st, "name", &nm) ||
		    !json_object_is_type(nm, json_type_string) ||
		    !scn_has_step(steps, json_object_get_string(nm)))
			continue;
		snprintf(p, sizeof(p), "$.cleanup[%zu].name", i);
		scn_error(ctx, p, "duplicate step name '%s' (also in $.steps)",
			  json_object_get_string(nm));
	}
}

/* The number of steps of @doc, every boot's counted; 0 if malformed. */
static size_t scn_count_steps(struct json_object *doc)
{
	struct json_object *v, *b;
	size_t n = 0;

	if (json_object_object_get_ex(doc, "steps", &v))
		return json_object_is_type(v, json_type_array) ?
			       json_object_array_length(v) : 0;
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
		scn_check_object(ctx, p, e, scn_bite_keys, NULL,
				 "a bites entry");
		jsonstrict_path_key(q, p, "patch");
		if (json_object_object_get_ex(e, "patch", &patch) &&
		    scn_expect_type(ctx, q, patch, json_type_string, "a string")) {
			const char *s = json_object_get_string(patch);

			if (!*s || strlen(s) > 255 || strchr(s, '/') ||
			    strpbrk(s, " \t\n\r\v\f"))
				scn_error(ctx, q,
					  "bad patch name '%s' (want a series file name or its number, e.g. \"0003\")",
					  s);
			for (size_t j = 0; j < i; j++) {
				o = json_object_array_get_idx(bites, j);
				if (json_object_is_type(o, json_type_object) &&
				    json_object_object_get_ex(o, "patch", &o) &&
				    json_object_is_type(o, json_type_string) &&
				    strcmp(json_object_get_string(o), s) == 0) {
					scn_error(ctx, q,
						  "patch '%s' is declared twice (also $.bites[%zu])",
						  s, j);
					break;
				}
			}
		}
		jsonstrict_path_key(q, p, "steps");
		if (!json_object_object_get_ex(e, "steps", &steps) ||
		    !scn_expect_type(ctx, q, steps, json_type_array, "an array"))
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
				scn_error(ctx, r,
					  "step %" PRId64 " is out of range 0..%zu (the scenario has %zu steps)",
					  x, nsteps - 1, nsteps);
				continue;
			}
			for (size_t j = 0; j < k; j++) {
				struct json_object *d =
					json_object_array_get_idx(steps, j);

				if (json_object_is_type(d, json_type_int) &&
				    json_object_get_int64(d) == x) {
					scn_error(ctx, r,
						  "step %" PRId64 " is listed twice (also %s[%zu])",
						  x, q, j);
					break;
				}
			}
		}
	}
}

/* Fill s->bites from a validated document. */
static int scn_fill_bites(struct json_object *doc, struct scenario *s)
{
	struct json_object *bites, *e, *v;

	if (!json_object_object_get_ex(doc, "bites", &bites))
		return 0;
	s->bites = calloc(json_object_array_length(bites), sizeof(*s->bites));
	if (!s->bites)
		return -ENOMEM;
	for (size_t i = 0; i < json_object_array_length(bites); i++) {
		struct scn_bite *b = &s->bites[s->nbites++];

		e = json_object_array_get_idx(bites, i);
		json_object_object_get_ex(e, "patch", &v);
		b->patch = strdup(json_object_get_string(v));
		json_object_object_get_ex(e, "steps", &v);
		b->steps = calloc(json_object_array_length(v),
				  sizeof(*b->steps));
		if (!b->patch || !b->steps)
			return -ENOMEM;
		for (; b->nsteps < json_object_array_length(v); b->nsteps++)
			b->steps[b->nsteps] = json_object_get_int64(
				json_object_array_get_idx(v, b->nsteps));
	}
	return 0;
}

/* Fill s->expect and s->xfail from a validated document. */
static int scn_fill_incident(struct json_object *doc, struct scenario *s)
{
	struct json_object *inc, *v;

	s->expect.step = -1;
	if (json_object_object_get_ex(doc, "xfail", &v)) {
		s->xfail = strdup(json_object_get_string(v));
		if (!s->xfail)
			return -ENOMEM;
	}
	if (!json_object_object_get_ex(doc, "expect_incident", &inc))
		return 0;
	s->expect.set = true;
	json_object_object_get_ex(inc, "kind", &v);
	snprintf(s->expect.kind, sizeof(s->expect.kind), "%s",
		 json_object_get_string(v));
	json_object_object_get_ex(inc, "survives", &v);
	s->expect.survives = json_object_get_boolean(v);
	if (json_object_object_get_ex(inc, "title", &v)) {
		s->expect.title = strdup(json_object_get_string(v));
		if (!s->expect.title)
			return -ENOMEM;
	}
	if (json_object_object_get_ex(inc, "step", &v))
		for (size_t i = 0; i < s->nsteps; i++)
			if (strcmp(s->steps[i].name,
				   json_object_get_string(v)) == 0)
				s->expect.step = i;
	return 0;
}

/* A disk needs VMs of its own: one boot with the scenario's steps. */
static int scn_fill_one_boot(struct scenario *s)
{
	s->boots = calloc(1, sizeof(*s->boots));
	if (!s->boots)
		return -ENOMEM;
	s->nboots = 1;
	s->boots[0].memory_mib = SCN_MEMORY_MIB_DEFAULT;
	snprintf(s->boots[0].machine, sizeof(s->boots[0].machine), "pc");
	s->boots[0].timeout_ms = s->timeout_ms;
	s->boots[0].nsteps = s->nsteps;
	s->boots[0].steps_json = strdup(s->steps_json);
	return s->boots[0].steps_json ? 0 : -ENOMEM;
}

int scn_run_encode(const struct scenario *s, char **ret_line, size_t *ret_len)
{
	const struct proto_run run = {
		.scenario = s->name,
		.timeout_ms = s->timeout_ms,
		.step_timeout_ms = s->step_timeout_ms,
		.steps_json = s->steps_json,
		.state_files_json = s->state_files_json,
		.cleanup_json = s->cleanup_json,
		.cleanup_timeout_ms = s->cleanup_timeout_ms,
	};

	return proto_run_encode_req(&run, ret_line, ret_len);
}

/*
 * expect_incident, xfail and state_files. The state files go with a
 * single run request (scenarios that share a VM); with the audit they must
 * still fit in one protocol line.
 */
static int scn_fill_audit(struct scn_ctx *ctx, struct json_object *doc,
			  struct scenario *s)
{
	struct json_object *v;
	char *line = NULL;
	size_t line_len;
	int r;

	r = scn_fill_incident(doc, s);
	if (r < 0)
		return r;
	if (json_object_object_get_ex(doc, "state_files", &v)) {
		s->state_files_json = strdup(json_object_to_json_string_ext(
			v, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
		if (!s->state_files_json)
			return -ENOMEM;
	}
	if (!s->steps_json || (!s->state_files_json && !s->cleanup_json))
		return 0;
	r = scn_run_encode(s, &line, &line_len);
	if (r == -E2BIG) {
		scn_error(ctx, "$.steps",
			  "the run request would be over the protocol's %d-byte line limit (the steps alone are %zu bytes)",
			  PROTO_LINE_MAX, strlen(s->steps_json));
		return -EINVAL;
	}
	if (r < 0)
		return r;
	free(line);
	return 0;
}

/* Fill @s from a validated document; fills in every step's timeout_ms. */
static int scn_fill(struct scn_ctx *ctx, struct json_object *doc,
		    struct scenario *s)
{
	struct json_object *steps, *req, *v, *boots;
	size_t first = 0;
	int r;

	s->description = scn_dup_string_value(doc, "description");
	if (!s->description)
		return -ENOMEM;
	json_object_object_get_ex(doc, "seed", &v);
	snprintf(s->seed, sizeof(s->seed), "%s", json_object_get_string(v));
	if (json_object_object_get_ex(doc, "requires", &req)) {
		r = scn_dup_list(req, "config", &s->req_config, &s->n_req_config);
		if (r < 0)
			return r;
		r = scn_dup_list(req, "modules", &s->req_modules,
				 &s->n_req_modules);
		if (r < 0)
			return r;
	}
	s->timeout_ms = scn_get_ms(doc, "timeout_ms", SCN_TIMEOUT_DEFAULT_MS);
	s->step_timeout_ms = scn_get_ms(doc, "step_timeout_ms",
					SCN_STEP_TIMEOUT_DEFAULT_MS);
	if (json_object_object_get_ex(doc, "fresh_vm", &v))
		s->fresh_vm = json_object_get_boolean(v);
	if (json_object_object_get_ex(doc, "disk", &v)) {
		s->has_disk = true;
		scn_fill_disk(v, &s->disk);
	}

	if (!json_object_object_get_ex(doc, "boots", &boots)) {
		struct json_object *cleanup = NULL;

		json_object_object_get_ex(doc, "steps", &steps);
		s->nsteps = json_object_array_length(steps);
		if (json_object_object_get_ex(doc, "cleanup", &cleanup))
			s->ncleanup = json_object_array_length(cleanup);
		s->cleanup_timeout_ms = scn_get_ms(doc, "cleanup_timeout_ms",
						   SCN_CLEANUP_TIMEOUT_DEFAULT_MS);
		s->steps = calloc(s->nsteps + s->ncleanup, sizeof(*s->steps));
		if (!s->steps)
			return -ENOMEM;
		r = scn_fill_steps(ctx, s, steps, 0, s->timeout_ms, "$.steps",
				   &s->steps_json);
		if (r == 0 && cleanup)
			r = scn_fill_steps(ctx, s, cleanup, s->nsteps,
					   s->cleanup_timeout_ms, "$.cleanup",
					   &s->cleanup_json);
		if (r < 0)
			return r;
		r = s->has_disk ? scn_fill_one_boot(s) : 0;
		return r < 0 ? r : scn_fill_audit(ctx, doc, s);
	}

	s->nboots = json_object_array_length(boots);
	s->boots = calloc(s->nboots, sizeof(*s->boots));
	if (!s->boots)
		return -ENOMEM;
	for (size_t i = 0; i < s->nboots; i++)
		if (json_object_object_get_ex(json_object_array_get_idx(boots, i),
					      "steps", &steps))
			s->nsteps += json_object_array_length(steps);
	s->steps = calloc(s->nsteps, sizeof(*s->steps));
	if (!s->steps)
		return -ENOMEM;
	for (size_t i = 0; i < s->nboots; i++) {
		r = scn_fill_boot(ctx, json_object_array_get_idx(boots, i), s,
				  i, first);
		if (r < 0)
			return r;
		first += s->boots[i].nsteps;
	}
	return scn_fill_audit(ctx, doc, s);
}

void scn_free(struct scenario *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->description);
	for (size_t i = 0; i < s->nbites; i++) {
		free(s->bites[i].patch);
		free(s->bites[i].steps);
	}
	free(s->bites);
	for (size_t i = 0; i < s->n_req_config; i++)
		free(s->req_config[i]);
	free(s->req_config);
	for (size_t i = 0; i < s->n_req_modules; i++)
		free(s->req_modules[i]);
	free(s->req_modules);
	free(s->steps);
	free(s->steps_json);
	for (size_t i = 0; i < s->nboots; i++) {
		for (size_t j = 0; j < s->boots[i].n_kernel_args; j++)
			free(s->boots[i].kernel_args[j]);
		free(s->boots[i].kernel_args);
		free(s->boots[i].steps_json);
	}
	free(s->boots);
	free(s->state_files_json);
	free(s->cleanup_json);
	free(s->expect.title);
	free(s->xfail);
	memset(s, 0, sizeof(*s));
}

int scn_load_file(const char *path, const char *name, struct scenario *ret,
		  struct scn_errors *errs)
{
	struct scn_ctx ctx = { .file = path, .errs = errs,
			       .step_timeout_ms = SCN_STEP_TIMEOUT_DEFAULT_MS };
	struct json_object *doc = NULL, *v;
	struct scenario s = { 0 };
	size_t nerrs_before = errs ? errs->n : 0;
	char *buf = NULL;
	size_t len = 0;
	bool truncated;
	int r;

	if (!scn_is_scenario_name(name)) {
		scn_error(&ctx, NULL,
			  "scenario name '%s' is not <area>/<name> ([a-z0-9-]+/[a-z0-9][a-z0-9-]*, under %d bytes)",
			  name, PROTO_NAME_MAX);
		return -EINVAL;
	}
	r = fileio_read(path, SCN_FILE_MAX, &buf, &len, &truncated);
	if (r == 0 && truncated) {
		free(buf);
		buf = NULL;
		r = -EFBIG;
	}
	if (r < 0) {
		scn_error(&ctx, NULL, "cannot read: %s", strerror(-r));
		return r == -EFBIG ? -EINVAL : r;
	}
	doc = scn_parse(&ctx, buf, len);
	if (!doc) {
		r = -EINVAL;
		goto out;
	}
	if (!scn_expect_type(&ctx, "$", doc, json_type_object, "an object")) {
		r = -EINVAL;
		goto out;
	}
	/* Steps inherit step_timeout_ms: check it first, for within_ms. */
	if (json_object_object_get_ex(doc, "step_timeout_ms", &v) &&
	    json_object_is_type(v, json_type_int) &&
	    json_object_get_int64(v) >= 1 &&
	    json_object_get_int64(v) <= SCN_TIMEOUT_MAX_MS)
		ctx.step_timeout_ms = json_object_get_int64(v);
	scn_check_object(&ctx, "$", doc, scn_top_keys, NULL, "a scenario");
	if (json_object_object_get_ex(doc, "steps", NULL) ==
	    json_object_object_get_ex(doc, "boots", NULL))
		scn_error(&ctx, "$",
			  "a scenario has either 'steps' (one boot) or 'boots', exactly one of them");
	/* boots.c has no state-leak audit and no cleanup list. */
	if (json_object_object_get_ex(doc, "boots", NULL) ||
	    json_object_object_get_ex(doc, "disk", NULL))
		for (size_t i = 0; i < sizeof(scn_own_vm_refuses) / sizeof(scn_own_vm_refuses[0]); i++)
			if (json_object_object_get_ex(doc, scn_own_vm_refuses[i].key, NULL)) {
				char p[SCN_PATH_MAX];

				jsonstrict_path_key(p, "$", scn_own_vm_refuses[i].key);
				scn_error(&ctx, p, "%s", scn_own_vm_refuses[i].why);
			}
	scn_check_cleanup(&ctx, doc);
	scn_check_incident_step(&ctx, doc);
	scn_check_bites(&ctx, doc);
	jsonstrict_dup_keys(buf, len, scn_dup_key, &ctx);
	if (ctx.nerr) {
		r = -EINVAL;
		goto out;
	}

	snprintf(s.name, sizeof(s.name), "%s", name);
	s.path = strdup(path);
	if (!s.path) {
		r = -ENOMEM;
		goto out;
	}
	r = scn_fill(&ctx, doc, &s);
	if (r == 0)
		r = scn_fill_bites(doc, &s);
	if (r < 0)
		goto out;
	*ret = s;
	memset(&s, 0, sizeof(s));
out:
	if (r == -ENOMEM) {
		scn_errors_truncate(errs, nerrs_before);
		scn_error(&ctx, NULL, "out of memory");
	}
	scn_free(&s);
	json_object_put(doc);
	free(buf);
	return r;
}

static int scn_cmp_name(const void *a, const void *b)
{
	return strcmp(((const struct scenario *)a)->name,
		      ((const struct scenario *)b)->name);
}

static int scn_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted entry names of @path, "." and ".." left out. */
static int scn_list_dir(const char *path, char ***ret, size_t *ret_n)
{
	char **names = NULL, **v;
	size_t n = 0;
	struct dirent *de;
	DIR *d;
	int r = 0;

	d = opendir(path);
	if (!d)
		return -errno;
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de) {
			r = -errno;
			break;
		}
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		v = realloc(names, (n + 1) * sizeof(*v));
		if (!v) {
			r = -ENOMEM;
			break;
		}
		names = v;
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			r = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (r < 0) {
		while (n)
			free(names[--n]);
		free(names);
		return r;
	}
	if (n)
		qsort(names, n, sizeof(*names), scn_cmp_str);
	*ret = names;
	*ret_n = n;
	return 0;
}

static void scn_free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static bool scn_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool scn_is_reg(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Load one area directory into @set; returns the first I/O error. */
static int scn_load_area(const char *dir, const char *area,
			 struct scn_set *set, struct scn_errors *errs,
			 size_t *nerr)
{
	char **names = NULL, *apath = NULL;
	size_t n = 0;
	int r, io = 0;

	if (asprintf(&apath, "%s/%s", dir, area) < 0)
		return -ENOMEM;
	r = scn_list_dir(apath, &names, &n);
	if (r < 0) {
		struct scn_ctx ctx = { .file = apath, .errs = errs };

		scn_error(&ctx, NULL, "cannot list: %s", strerror(-r));
		(*nerr)++;
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		char *path = NULL, name[PROTO_NAME_MAX];
		struct scenario *v;
		struct scn_ctx ctx = { .errs = errs };

		if (asprintf(&path, "%s/%s", apath, names[i]) < 0) {
			r = -ENOMEM;
			goto out;
		}
		ctx.file = path;
		if (!scn_is_file_name(names[i]) || !scn_is_reg(path)) {
			scn_error(&ctx, NULL,
				  "not a scenario file: want <area>/<name>.json files, <name> matching [a-z0-9][a-z0-9-]*");
			(*nerr)++;
			free(path);
			continue;
		}
		if (snprintf(name, sizeof(name), "%s/%.*s", area,
			     (int)(strlen(names[i]) - 5), names[i]) >=
		    (int)sizeof(name)) {
			scn_error(&ctx, NULL,
				  "scenario name is too long: '<area>/<name>' must be under %d bytes",
				  PROTO_NAME_MAX);
			(*nerr)++;
			free(path);
			continue;
		}
		v = realloc(set->v, (set->n + 1) * sizeof(*v));
		if (!v) {
			free(path);
			r = -ENOMEM;
			goto out;
		}
		set->v = v;
		r = scn_load_file(path, name, &set->v[set->n], errs);
		free(path);
		if (r == 0)
			set->n++;
		else if (r == -ENOMEM)
			goto out;
		else if (r != -EINVAL && !io)
			io = r;
		if (r < 0)
			(*nerr)++;
	}
	r = io;
out:
	scn_free_names(names, n);
	free(apath);
	return r;
}

int scn_load_dir(const char *dir, struct scn_set *ret, struct scn_errors *errs)
{
	struct scn_set set = { 0 };
	struct scn_ctx ctx = { .errs = errs };
	char **areas = NULL;
	size_t nareas = 0, nerr = 0;
	int r, io = 0;

	ctx.file = dir;
	r = scn_list_dir(dir, &areas, &nareas);
	if (r < 0) {
		scn_error(&ctx, NULL, "cannot list: %s", strerror(-r));
		return r;
	}
	for (size_t i = 0; i < nareas; i++) {
		char *apath = NULL;

		if (asprintf(&apath, "%s/%s", dir, areas[i]) < 0) {
			r = -ENOMEM;
			goto out;
		}
		if (!scn_is_area_name(areas[i]) || !scn_is_dir(apath)) {
			struct scn_ctx actx = { .file = apath, .errs = errs };

			scn_error(&actx, NULL,
				  "not an area directory: want <area>/<name>.json, <area> matching [a-z0-9-]+");
			nerr++;
			free(apath);
			continue;
		}
		free(apath);
		r = scn_load_area(dir, areas[i], &set, errs, &nerr);
		if (r == -ENOMEM)
			goto out;
		if (r < 0 && !io)
			io = r;
	}
	r = io ? io : nerr ? -EINVAL : 0;
	if (r == 0) {
		if (set.n)
			qsort(set.v, set.n, sizeof(*set.v), scn_cmp_name);
		*ret = set;
		memset(&set, 0, sizeof(set));
	}
out:
	scn_set_free(&set);
	scn_free_names(areas, nareas);
	return r;
}

void scn_set_free(struct scn_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->n; i++)
		scn_free(&set->v[i]);
	free(set->v);
	set->v = NULL;
	set->n = 0;
}