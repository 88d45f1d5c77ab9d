// SPDX-License-Identifier: GPL-2.0-only
/*
 * One value of a scenario file against its type: the types of
 * common/stepspec.h, which the steps' keys have and the scenario's own keys
 * use too (strings, integers in bounds, regexes, errno names, choices,
 * interface names, bridge VLAN and MDB entries, ...), and the string and
 * list checks the scenario's own types share.
 */
#include <ctype.h>
#include <inttypes.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "brspec.h"
#include "kbuild.h"
#include "proto.h"
#include "scenario/scenario-priv.h"

void scn_check_string_list(struct scn_ctx *ctx, const char *path,
			   struct json_object *v, bool (*ok)(const char *),
			   const char *what, const char *want, bool modules)
{
	char p[SCN_PATH_MAX];
	size_t n;

	if (!scn_expect_type(ctx, path, v, json_type_array, "an array"))
		return;
	n = json_object_array_length(v);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		const char *s;

		jsonstrict_path_index(p, path, i);
		if (!scn_expect_type(ctx, p, e, json_type_string, "a string"))
			continue;
		s = json_object_get_string(e);
		if (!ok(s)) {
			scn_error(ctx, p, "bad %s '%s' (want %s)", what, s,
				  want);
			continue;
		}
		for (size_t j = 0; j < i; j++) {
			struct json_object *f = json_object_array_get_idx(v, j);
			const char *t;

			if (!json_object_is_type(f, json_type_string))
				continue;
			t = json_object_get_string(f);
			if (modules ? kbuild_module_name_eq(s, t) :
				      strcmp(s, t) == 0) {
				scn_error(ctx, p, "'%s' is listed twice", s);
				break;
			}
		}
	}
}

static bool scn_is_device_name(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= 31 &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789") == n;
}

static bool scn_is_param(const char *s)
{
	const char *eq = strchr(s, '=');

	if (!eq || eq == s)
		return false;
	for (; s < eq; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' &&
		    *s != '.')
			return false;
	return true;
}

/* An interface name the kernel's dev_valid_name() takes. */
static bool scn_is_ifname(const char *s)
{
	size_t len = strlen(s);

	if (len == 0 || len >= BRSPEC_IFNAME_MAX || !strcmp(s, ".") ||
	    !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (*s == '/' || *s == ':' || isspace((unsigned char)*s) ||
		    iscntrl((unsigned char)*s))
			return false;
	return true;
}

/* An array of brspec.h texts, each of them parsing. */
static void scn_check_entries(struct scn_ctx *ctx, const char *path,
			      enum stepspec_type type, struct json_object *v)
{
	char p[SCN_PATH_MAX], err[256];

	if (!scn_expect_type(ctx, path, v, json_type_array, "an array"))
		return;
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		struct brspec_vlan vl;
		struct brspec_mdb m;
		const char *s;
		int r;

		jsonstrict_path_index(p, path, i);
		if (!scn_expect_type(ctx, p, e, json_type_string, "a string"))
			continue;
		s = json_object_get_string(e);
		if (type == STEPSPEC_VLANS || type == STEPSPEC_VIDS)
			r = brspec_vlan_parse(s, type == STEPSPEC_VIDS, &vl,
					      err, sizeof(err));
		else
			r = brspec_mdb_parse(s, type == STEPSPEC_MDB_KEYS, &m,
					     err, sizeof(err));
		if (r < 0)
			scn_error(ctx, p, "%s", err);
	}
}

/* A program's arguments: at most spec->max strings, each one line and
 * below STEPSPEC_ARG_MAX bytes; the same one twice is fine. */
static void scn_check_args(struct scn_ctx *ctx, const char *path,
			   const struct scn_key *spec, struct json_object *v)
{
	char p[SCN_PATH_MAX];
	size_t n;

	if (!scn_expect_type(ctx, path, v, json_type_array, "an array"))
		return;
	n = json_object_array_length(v);
	if (n > (size_t)spec->max)
		scn_error(ctx, path, "%zu arguments, at most %" PRId64, n,
			  spec->max);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		const char *s;

		jsonstrict_path_index(p, path, i);
		if (!scn_expect_type(ctx, p, e, json_type_string, "a string"))
			continue;
		s = json_object_get_string(e);
		if (strlen(s) >= STEPSPEC_ARG_MAX || strpbrk(s, "\n\r"))
			scn_error(ctx, p,
				  "not one line below %d bytes (%zu bytes%s)",
				  STEPSPEC_ARG_MAX, strlen(s),
				  strpbrk(s, "\n\r") ? ", a line break" : "");
	}
}

void scn_check_string(struct scn_ctx *ctx, const char *path,
		      const struct scn_key *spec, struct json_object *v)
{
	const char *s;

	if (!scn_expect_type(ctx, path, v, json_type_string, "a string"))
		return;
	s = json_object_get_string(v);
	if (spec->type != STEPSPEC_TEXT && !*s) {
		scn_error(ctx, path, "must not be empty");
		return;
	}
	if (spec->max > 0 && strlen(s) > (size_t)spec->max)
		scn_error(ctx, path, "%zu bytes long, at most %" PRId64,
			  strlen(s), spec->max);
	if (spec->type == SCN_V_LINE)
		for (; *s; s++)
			if (iscntrl((unsigned char)*s)) {
				scn_error(
					ctx, path,
					"must be one line, without control characters");
				break;
			}
}

void scn_check_spec_value(struct scn_ctx *ctx, const char *path,
			  const struct scn_key *spec, struct json_object *v)
{
	const char *s;
	int64_t i;
	regex_t re;
	int r, e;

	switch ((enum stepspec_type)spec->type) {
	case STEPSPEC_STRING:
	case STEPSPEC_TEXT:
		scn_check_string(ctx, path, spec, v);
		return;
	case STEPSPEC_BOOL:
		scn_expect_type(ctx, path, v, json_type_boolean, "a boolean");
		return;
	case STEPSPEC_INT:
		if (!scn_expect_type(ctx, path, v, json_type_int, "an integer"))
			return;
		i = json_object_get_int64(v);
		/* json-c clamps what int64 cannot hold: don't print the clamp. */
		if (i == INT64_MAX || i == INT64_MIN)
			scn_error(ctx, path,
				  "number too %s, want %" PRId64 "..%" PRId64,
				  i < 0 ? "small" : "large", spec->min,
				  spec->max);
		else if (i < spec->min || i > spec->max)
			scn_error(ctx, path,
				  "%s is out of range %" PRId64 "..%" PRId64,
				  json_object_to_json_string_ext(
					  v, JSON_C_TO_STRING_PLAIN),
				  spec->min, spec->max);
		return;
	case STEPSPEC_REGEX:
	case STEPSPEC_REGEX1:
		if (!scn_expect_type(ctx, path, v, json_type_string,
				     "a string"))
			return;
		s = json_object_get_string(v);
		if (stepspec_regex_check(s) < 0) {
			scn_error(
				ctx, path,
				"regex '%.64s' would grow past %d nodes once compiled (repetitions of repetitions)",
				s, STEPSPEC_REGEX_NODES_MAX);
			return;
		}
		r = regcomp(&re, s,
			    REG_EXTENDED | REG_NEWLINE |
				    (spec->type == STEPSPEC_REGEX ? REG_NOSUB :
								    0));
		if (r) {
			char buf[256];

			regerror(r, &re, buf, sizeof(buf));
			scn_error(ctx, path, "bad regex '%s': %s", s, buf);
			return;
		}
		if (spec->type == STEPSPEC_REGEX1 && re.re_nsub != 1)
			scn_error(
				ctx, path,
				"regex '%s' has %zu capture groups; it needs exactly one, around the number",
				s, re.re_nsub);
		regfree(&re);
		return;
	case STEPSPEC_ERRNO:
		if (!scn_expect_type(ctx, path, v, json_type_string,
				     "a string"))
			return;
		s = json_object_get_string(v);
		if (proto_errno_parse(s, &e) < 0)
			scn_error(ctx, path, "unknown errno name '%s'", s);
		return;
	case STEPSPEC_CHOICE:
		if (!scn_expect_type(ctx, path, v, json_type_string,
				     "a string"))
			return;
		s = json_object_get_string(v);
		for (const char *const *c = spec->choices; *c; c++)
			if (strcmp(*c, s) == 0)
				return;
		{
			char list[256] = "";

			for (const char *const *c = spec->choices; *c; c++) {
				if (list[0])
					strcat(list, ", ");
				strncat(list, *c,
					sizeof(list) - strlen(list) - 3);
			}
			scn_error(ctx, path, "'%s' is not one of: %s", s, list);
		}
		return;
	case STEPSPEC_PARAMS:
		scn_check_string_list(ctx, path, v, scn_is_param,
				      "module parameter", "key=value", false);
		return;
	case STEPSPEC_ARGS:
		scn_check_args(ctx, path, spec, v);
		return;
	case STEPSPEC_ABSPATH:
		if (!scn_expect_type(ctx, path, v, json_type_string,
				     "a string"))
			return;
		s = json_object_get_string(v);
		if (s[0] != '/' || strlen(s) > (size_t)spec->max ||
		    strpbrk(s, "\n\r"))
			scn_error(
				ctx, path,
				"'%s' is not an absolute path of at most %" PRId64
				" bytes",
				s, spec->max);
		return;
	case STEPSPEC_MTDDEV:
		if (!scn_expect_type(ctx, path, v, json_type_string,
				     "a string"))
			return;
		s = json_object_get_string(v);
		if (strncmp(s, "/dev/mtd", 8) != 0 || !s[8] ||
		    strlen(s + 8) > 3 ||
		    strspn(s + 8, "0123456789") != strlen(s + 8))
			scn_error(ctx, path,
				  "bad MTD device '%s' (want /dev/mtdN)", s);
		return;
	case STEPSPEC_IFNAME:
		if (!scn_expect_type(ctx, path, v, json_type_string,
				     "a string"))
			return;
		s = json_object_get_string(v);
		if (!scn_is_ifname(s))
			scn_error(
				ctx, path,
				"bad interface name '%s' (want 1..15 bytes, no '/', ':' or blank)",
				s);
		return;
	case STEPSPEC_GROUP: {
		struct brspec_group g;

		if (!scn_expect_type(ctx, path, v, json_type_string,
				     "a string"))
			return;
		s = json_object_get_string(v);
		if (brspec_group_parse(s, &g) < 0)
			scn_error(ctx, path,
				  "'%s' is no IPv4, IPv6 or MAC group address",
				  s);
		return;
	}
	case STEPSPEC_VLANS:
	case STEPSPEC_VIDS:
	case STEPSPEC_MDBS:
	case STEPSPEC_MDB_KEYS:
		scn_check_entries(ctx, path, spec->type, v);
		return;
	case STEPSPEC_DEVICE:
		if (!scn_expect_type(ctx, path, v, json_type_string,
				     "a string"))
			return;
		if (!scn_is_device_name(json_object_get_string(v)))
			scn_error(
				ctx, path,
				"bad block device name '%s' (want [a-z0-9]{1,31}, e.g. vda)",
				json_object_get_string(v));
		return;
	case STEPSPEC__COUNT:
		return;
	}
}
