/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files that load and validate a scenario file share, and no
 * other file of hostctl includes (they use scenario.h): scenario.c loads,
 * scenario-fill.c fills a struct scenario from a checked document,
 * scenario-rules.c checks the rules across a file's parts,
 * scenario-schema.c checks each key against the schema,
 * scenario-values.c checks one value (common/stepspec-value.c's checks),
 * scenario-errors.c collects what the checks find.
 */
#ifndef VLALAB_SCENARIO_PRIV_H
#define VLALAB_SCENARIO_PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "jsonstrict.h"
#include "scenario/scenario.h"
#include "stepspec.h"

/* Room for a JSON path in messages ("$.steps[3].expect"). */
#define SCN_PATH_MAX JSONSTRICT_PATH_MAX

/* What one file's validation collects into. */
struct scn_ctx {
	const char *file;
	struct scn_errors *errs;
	size_t nerr;
	uint64_t step_timeout_ms;
	bool cleanup; /* checking the cleanup list's steps */
};

/*
 * What a value must be. The scenario file's own objects have key tables of
 * common/stepspec.h's struct stepspec_key, as the steps have: each key's
 * type is one of stepspec.h's, which stepspec_value_check() checks, or one
 * of the file's own below, numbered after them (SCN_V(LINE) in a table's
 * row).
 */
#define SCN_MODNAME_MAX 55 /* MODULE_NAME_LEN - 1 */

enum scn_vtype {
	SCN_V_LINE = STEPSPEC__COUNT, /* a non-empty line, no control chars */
	SCN_V_CONFIGS, /* an array of "CONFIG_X" names */
	SCN_V_MODULES, /* an array of module names */
	SCN_V_MODULE_PARAMS, /* an array of "module.param" */
	SCN_V_REQUIRES, /* an object, scn_requires_keys[] */
	SCN_V_STEPS, /* an array of step objects, stepspec_table[] */
	SCN_V_CLEANUP, /* the same, as cleanup steps (stepspec_cleanup_keys[]) */
	SCN_V_INCIDENT, /* an object, scn_incident_keys[] */
	SCN_V_STATE_FILES, /* an array of absolute paths, the audit's */
	SCN_V_BITES, /* checked as a whole by scn_check_bites() */
	SCN_V_DISK, /* an object, scn_disk_keys[] */
	SCN_V_DISKS, /* an array of those, at most max */
	SCN_V_KARGS, /* an array of kernel command-line words */
	SCN_V_BOOTS, /* an array of boot objects, scn_boot_keys[] */
};

#define SCN_V(name) ((enum stepspec_type)SCN_V_##name)

/* ---- scenario-errors.c ---- */

/*
 * Record an error, "file: path: reason" (or "file: reason" when @path is
 * NULL): the file is then refused.
 */
void scn_error(struct scn_ctx *ctx, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Add @msg (malloc'ed, taken) to @errs (NULL: dropped). 0 or -ENOMEM. */
int scn_errors_add(struct scn_errors *errs, char *msg);

/* Record a warning, in the same form: the file is valid, but fragile. */
void scn_warn(struct scn_ctx *ctx, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Whether @v is of JSON type @want; if not, an error says "expected
 * @want_name, got ...".
 */
bool scn_expect_type(struct scn_ctx *ctx, const char *path,
		     struct json_object *v, enum json_type want,
		     const char *want_name);

/* Drop the errors after the first @n (@errs may be NULL). */
void scn_errors_truncate(struct scn_errors *errs, size_t n);

/* ---- scenario-fill.c ---- */

/*
 * Fill @s from the validated document @doc: every field, every step's
 * timeout_ms (added to @doc's steps, which @s then holds), the bites.
 * Returns 0, -EINVAL with an error in @ctx (a run request over the line
 * limit, a kselftest program without a DIR), or -ENOMEM.
 */
int scn_fill(struct scn_ctx *ctx, struct json_object *doc, struct scenario *s);

/* ---- scenario-rules.c ---- */

/*
 * Check the rules between the parts of the scenario document @doc, whose
 * keys scn_check_keys() checked: steps or boots, no audit or cleanup list
 * with VMs of its own, cleanup step names, expect_incident.step, bites.
 */
void scn_check_rules(struct scn_ctx *ctx, struct json_object *doc);

/* ---- scenario-schema.c ---- */

/*
 * Check every key of the scenario document @doc, an object: against the
 * key tables, each value of its type, the steps against their kinds.
 */
void scn_check_keys(struct scn_ctx *ctx, struct json_object *doc);

/*
 * Check the keys of @obj against the @ntables key tables @tables (any may
 * be NULL), in order: no unknown key, every required key present, each
 * value of its type. @what names the object in messages ("a scenario", "a
 * 'read' step").
 */
void scn_check_object(struct scn_ctx *ctx, const char *path,
		      struct json_object *obj,
		      const struct stepspec_key *const *tables, size_t ntables,
		      const char *what);

/* The name of @step, a string, or NULL: it has none, or is no object. */
const char *scn_step_name(struct json_object *step);

/* ---- scenario-values.c ---- */

/*
 * A value of one of common/stepspec.h's types, as @key bounds it:
 * stepspec_value_check(), each problem an error at @path or its element.
 */
void scn_check_spec_value(struct scn_ctx *ctx, const char *path,
			  const struct stepspec_key *key,
			  struct json_object *v);

/* SCN_V_LINE: a non-empty string of at most @key->max bytes, one line. */
void scn_check_line(struct scn_ctx *ctx, const char *path,
		    const struct stepspec_key *key, struct json_object *v);

/*
 * An array of strings, each passing @ok, with no two alike (module names
 * alike as kbuild_module_name_eq() says, if @modules). @what and @want
 * word the error for one that does not pass.
 */
void scn_check_string_list(struct scn_ctx *ctx, const char *path,
			   struct json_object *v, bool (*ok)(const char *),
			   const char *what, const char *want, bool modules);

#endif
