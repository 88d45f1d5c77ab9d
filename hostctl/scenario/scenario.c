// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loading scenario files: the scenarios/<area>/<name>.json tree, one file
 * read and parsed as strict JSON, checked (scenario-schema.c, each key
 * against its table, then scenario-rules.c, the rules across its parts) and
 * filled into a struct scenario (scenario-fill.c), with every step's
 * timeout and the run request's lists ready for the runner. Every problem
 * is collected as
 * "file: $.json.path: reason" (scenario-errors.c), so a user fixes a file
 * in one go.
 *
 * Selection by name or glob is scenario-select.c's, the requires check
 * against a built kernel scenario-requires.c's.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "fileio.h"
#include "jsonstrict.h"
#include "proto.h"
#include "scenario/scenario-priv.h"
#include "scenario/scenario.h"

#define SCN_FILE_MAX (1024 * 1024)

static bool scn_is_area_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) &&
		    !isdigit((unsigned char)*s) && *s != '-')
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

static bool scn_check_name(struct scn_ctx *ctx, const char *name)
{
	if (scn_is_scenario_name(name))
		return true;
	scn_error(
		ctx, NULL,
		"scenario name '%s' is not <area>/<name> ([a-z0-9-]+/[a-z0-9][a-z0-9-]*, under %d bytes)",
		name, PROTO_NAME_MAX);
	return false;
}

/* scn_load_buf() once the name has passed. */
static int scn_load_text(struct scn_ctx *ctx, const char *name, const char *buf,
			 size_t len, struct scenario *ret)
{
	struct json_object *doc = NULL;
	struct scenario s = { 0 };
	size_t nerrs_before = ctx->errs ? ctx->errs->n : 0;
	int r;

	doc = scn_parse(ctx, buf, len);
	if (!doc) {
		r = -EINVAL;
		goto out;
	}
	if (!scn_expect_type(ctx, "$", doc, json_type_object, "an object")) {
		r = -EINVAL;
		goto out;
	}
	scn_check_keys(ctx, doc);
	scn_check_rules(ctx, doc);
	jsonstrict_dup_keys(buf, len, scn_dup_key, ctx);
	if (ctx->nerr) {
		r = -EINVAL;
		goto out;
	}

	snprintf(s.name, sizeof(s.name), "%s", name);
	s.path = strdup(ctx->file);
	if (!s.path) {
		r = -ENOMEM;
		goto out;
	}
	r = scn_fill(ctx, doc, &s);
	if (r < 0)
		goto out;
	*ret = s;
	memset(&s, 0, sizeof(s));
out:
	if (r == -ENOMEM) {
		scn_errors_truncate(ctx->errs, nerrs_before);
		scn_error(ctx, NULL, "out of memory");
	}
	scn_free(&s);
	json_object_put(doc);
	return r;
}

int scn_load_buf(const char *path, const char *name, const char *buf,
		 size_t len, struct scenario *ret, struct scn_errors *errs)
{
	struct scn_ctx ctx = { .file = path,
			       .errs = errs,
			       .step_timeout_ms = SCN_STEP_TIMEOUT_DEFAULT_MS };

	if (!scn_check_name(&ctx, name))
		return -EINVAL;
	return scn_load_text(&ctx, name, buf, len, ret);
}

int scn_load_file(const char *path, const char *name, struct scenario *ret,
		  struct scn_errors *errs)
{
	struct scn_ctx ctx = { .file = path,
			       .errs = errs,
			       .step_timeout_ms = SCN_STEP_TIMEOUT_DEFAULT_MS };
	char *buf = NULL;
	size_t len = 0;
	bool truncated;
	int r;

	if (!scn_check_name(&ctx, name))
		return -EINVAL;
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
	r = scn_load_text(&ctx, name, buf, len, ret);
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
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
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
static int scn_load_area(const char *dir, const char *area, struct scn_set *set,
			 struct scn_errors *errs, size_t *nerr)
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
			scn_error(
				&ctx, NULL,
				"not a scenario file: want <area>/<name>.json files, <name> matching [a-z0-9][a-z0-9-]*");
			(*nerr)++;
			free(path);
			continue;
		}
		if (snprintf(name, sizeof(name), "%s/%.*s", area,
			     (int)(strlen(names[i]) - 5),
			     names[i]) >= (int)sizeof(name)) {
			scn_error(
				&ctx, NULL,
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

			scn_error(
				&actx, NULL,
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
