// SPDX-License-Identifier: GPL-2.0-only
/*
 * One value of a scenario file against its type: common/stepspec.h's
 * types, which the steps' keys have and the scenario's own keys use too,
 * through stepspec_value_check() (common/stepspec-value.c, which guestd's
 * request check runs too), and the string checks of the scenario's own
 * types; each problem becomes an error at the value's path.
 */
#include <ctype.h>
#include <string.h>

#include "kbuild.h"
#include "scenario/scenario-priv.h"

/* Where the problems of one value go: an error at its path. */
struct scn_at {
	struct scn_ctx *ctx;
	const char *path;
};

static void scn_report(void *data, long index, const char *msg)
{
	const struct scn_at *at = data;
	char p[SCN_PATH_MAX];

	if (index < 0) {
		scn_error(at->ctx, at->path, "%s", msg);
		return;
	}
	jsonstrict_path_index(p, at->path, (size_t)index);
	scn_error(at->ctx, p, "%s", msg);
}

void scn_check_spec_value(struct scn_ctx *ctx, const char *path,
			  const struct stepspec_key *key, struct json_object *v)
{
	struct scn_at at = { ctx, path };

	stepspec_value_check(key, v, scn_report, &at);
}

void scn_check_line(struct scn_ctx *ctx, const char *path,
		    const struct stepspec_key *key, struct json_object *v)
{
	struct stepspec_key str = *key;
	const char *s;

	str.type = STEPSPEC_STRING;
	scn_check_spec_value(ctx, path, &str, v);
	if (!json_object_is_type(v, json_type_string))
		return;
	for (s = json_object_get_string(v); *s; s++)
		if (iscntrl((unsigned char)*s)) {
			scn_error(
				ctx, path,
				"must be one line, without control characters");
			return;
		}
}

void scn_check_string_list(struct scn_ctx *ctx, const char *path,
			   struct json_object *v, bool (*ok)(const char *),
			   const char *what, const char *want, bool modules)
{
	struct scn_at at = { ctx, path };

	stepspec_strings_check(v, ok, modules ? kbuild_module_name_eq : NULL,
			       what, want, scn_report, &at);
}
