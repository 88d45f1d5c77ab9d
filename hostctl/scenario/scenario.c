// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loading scenario files: the scenarios/<area>/<name>.json tree, one file
 * read and parsed as strict JSON, checked (scenario-schema.c, each key
 * against its table, then scenario-rules.c, the rules across its parts) and
 * filled into a struct scenario, with every step's timeout and the run
 * request's JSON ready for the runner. Every problem is collected as
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

#include "scenario/bootcheck.h"
#include "fileio.h"
#include "jsonstrict.h"
#include "proto.h"
#include "scenario/scenario-priv.h"
#include "scenario/scenario.h"
#include "stepspec.h"

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

static char *scn_dup_string_value(struct json_object *obj, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(obj, key, &v))
		return NULL;
	return strdup(json_object_get_string(v));
}

static int scn_dup_list(struct json_object *obj, const char *key, char ***ret,
			size_t *ret_n)
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
	const struct proto_run run = { .scenario = s->name,
				       .timeout_ms = timeout_ms,
				       .step_timeout_ms = s->step_timeout_ms,
				       .steps = steps };
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
		if (!strcmp(st->kind, "kselftest") &&
		    json_object_object_get_ex(step, "program", &v) &&
		    stepspec_kselftest_dir(json_object_get_string(v),
					   st->kselftest_dir,
					   sizeof(st->kselftest_dir)) < 0) {
			scn_error(
				ctx, errpath,
				"step %zu: program '%s' has no DIR the image can carry",
				first + i + 1, json_object_get_string(v));
			return -EINVAL;
		}
		st->timeout_ms =
			scn_get_ms(step, "timeout_ms", s->step_timeout_ms);
		if (!json_object_object_get_ex(step, "timeout_ms", NULL) &&
		    json_object_object_add(
			    step, "timeout_ms",
			    json_object_new_int64(st->timeout_ms)) < 0)
			return -ENOMEM;
	}
	json = json_object_to_json_string_ext(
		steps, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!json)
		return -ENOMEM;
	*ret_json = strdup(json);
	if (!*ret_json)
		return -ENOMEM;
	if (n == 0)
		return 0;
	r = proto_run_encode(&run, &line, &line_len);
	if (r == -E2BIG) {
		scn_error(
			ctx, errpath,
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
				    strcmp(json_object_get_string(v),
					   "qcow2") == 0 ?
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
			 "");
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
		b->steps =
			calloc(json_object_array_length(v), sizeof(*b->steps));
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
	s->boots[0].timeout_ms = s->timeout_ms;
	s->boots[0].nsteps = s->nsteps;
	s->boots[0].steps_json = strdup(s->steps_json);
	return s->boots[0].steps_json ? 0 : -ENOMEM;
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
			v, JSON_C_TO_STRING_PLAIN |
				   JSON_C_TO_STRING_NOSLASHESCAPE));
		if (!s->state_files_json)
			return -ENOMEM;
	}
	if (!s->steps_json || (!s->state_files_json && !s->cleanup_json))
		return 0;
	r = boots_run_encode(s, 0, &line, &line_len);
	if (r == -E2BIG) {
		scn_error(
			ctx, "$.steps",
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
		r = scn_dup_list(req, "config", &s->req_config,
				 &s->n_req_config);
		if (r < 0)
			return r;
		r = scn_dup_list(req, "config_unset", &s->req_unset,
				 &s->n_req_unset);
		if (r < 0)
			return r;
		if (json_object_object_get_ex(req, "unset_why", NULL)) {
			s->req_unset_why =
				scn_dup_string_value(req, "unset_why");
			if (!s->req_unset_why)
				return -ENOMEM;
		}
		r = scn_dup_list(req, "modules", &s->req_modules,
				 &s->n_req_modules);
		if (r < 0)
			return r;
		r = scn_dup_list(req, "module_params", &s->req_params,
				 &s->n_req_params);
		if (r < 0)
			return r;
	}
	s->timeout_ms = scn_get_ms(doc, "timeout_ms", SCN_TIMEOUT_DEFAULT_MS);
	s->step_timeout_ms =
		scn_get_ms(doc, "step_timeout_ms", SCN_STEP_TIMEOUT_DEFAULT_MS);
	if (json_object_object_get_ex(doc, "fresh_vm", &v))
		s->fresh_vm = json_object_get_boolean(v);
	if (json_object_object_get_ex(doc, "nic", &v))
		s->nic = json_object_get_boolean(v);
	if (json_object_object_get_ex(doc, "image", &v))
		s->cloud = strcmp(json_object_get_string(v), "cloud") == 0;
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
		s->cleanup_timeout_ms =
			scn_get_ms(doc, "cleanup_timeout_ms",
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
		if (json_object_object_get_ex(json_object_array_get_idx(boots,
									i),
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

static void scn_boot_free(struct scn_boot *b)
{
	for (size_t j = 0; j < b->n_kernel_args; j++)
		free(b->kernel_args[j]);
	free(b->kernel_args);
	free(b->steps_json);
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
	for (size_t i = 0; i < s->n_req_unset; i++)
		free(s->req_unset[i]);
	free(s->req_unset);
	free(s->req_unset_why);
	for (size_t i = 0; i < s->n_req_modules; i++)
		free(s->req_modules[i]);
	free(s->req_modules);
	for (size_t i = 0; i < s->n_req_params; i++)
		free(s->req_params[i]);
	free(s->req_params);
	free(s->steps);
	free(s->steps_json);
	for (size_t i = 0; i < s->nboots; i++)
		scn_boot_free(&s->boots[i]);
	free(s->boots);
	free(s->state_files_json);
	free(s->cleanup_json);
	free(s->expect.title);
	free(s->xfail);
	memset(s, 0, sizeof(*s));
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
	if (r == 0)
		r = scn_fill_bites(doc, &s);
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
/* The first @n elements of the JSON array @json, in *ret (malloc'd). */
static int cut_steps_json(const char *json, size_t n, char **ret)
{
	struct json_object *steps, *kept;
	const char *text;
	char *dup;

	steps = json_tokener_parse(json);
	kept = json_object_new_array();
	for (size_t i = 0; steps && kept && i < n; i++)
		if (json_object_array_add(
			    kept, json_object_get(json_object_array_get_idx(
					  steps, i))) < 0)
			break;
	text = kept && json_object_array_length(kept) == n ?
		       json_object_to_json_string_ext(
			       kept, JSON_C_TO_STRING_PLAIN |
					     JSON_C_TO_STRING_NOSLASHESCAPE) :
		       NULL;
	dup = text ? strdup(text) : NULL;
	json_object_put(steps);
	json_object_put(kept);
	if (!dup)
		return -ENOMEM;
	*ret = dup;
	return 0;
}

int scn_truncate(struct scenario *s, size_t n)
{
	struct scn_boot *b = NULL;
	char *dup, *bdup = NULL;
	size_t k;
	int r;

	if (n == 0 || n > s->nsteps)
		return -ERANGE;
	/* The boot that holds step n: the last to run. */
	for (k = 0; k < s->nboots; k++) {
		b = &s->boots[k];
		if (n - 1 >= b->first_step && n - 1 < b->first_step + b->nsteps)
			break;
	}
	if (s->nboots && k == s->nboots)
		return -ERANGE;
	/* A scenario with boots has its steps in its boots only. */
	dup = NULL;
	r = s->steps_json ? cut_steps_json(s->steps_json, n, &dup) : 0;
	if (r == 0 && b)
		r = cut_steps_json(b->steps_json, n - b->first_step, &bdup);
	if (r < 0) {
		free(dup);
		return r;
	}
	free(s->steps_json);
	s->steps_json = dup;
	s->nsteps = n;
	if (b) {
		free(b->steps_json);
		b->steps_json = bdup;
		b->nsteps = n - b->first_step;
		/* It stops with the guest up, for the shell. */
		b->end = SCN_END_RUNNING;
		for (size_t i = k + 1; i < s->nboots; i++)
			scn_boot_free(&s->boots[i]);
		s->nboots = k + 1;
	}
	/* The state stays for the shell: no cleanup list runs. */
	free(s->cleanup_json);
	s->cleanup_json = NULL;
	s->ncleanup = 0;
	return 0;
}
