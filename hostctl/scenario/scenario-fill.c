// SPDX-License-Identifier: GPL-2.0-only
/*
 * A validated scenario document into a struct scenario: its name and
 * description, requires, timeouts, steps (each step's timeout_ms filled
 * in), boots and disks, bites, expect_incident and xfail, and the lists of
 * its run request, held as json-c arrays from load to send, which must fit
 * in one protocol line (boots_run_encode() says). What it holds is freed
 * by scn_free(), and cut for repro --until-step by scn_truncate().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "jsonutil.h"
#include "proto.h"
#include "scenario/bites.h"
#include "scenario/bootcheck.h"
#include "scenario/scenario-priv.h"
#include "stepspec.h"

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
 * Whether @s's run request for boot 0 fits in one protocol line; if not,
 * an error at @errpath that gives the length of @steps, the list checked.
 */
static int scn_check_request(struct scn_ctx *ctx, const struct scenario *s,
			     struct json_object *steps, const char *errpath)
{
	const char *text;
	char *line = NULL;
	size_t len;
	int r;

	r = boots_run_encode(s, 0, &line, &len);
	free(line);
	if (r != -E2BIG)
		return r;
	text = json_object_to_json_string_ext(
		steps, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		return -ENOMEM;
	scn_error(
		ctx, errpath,
		"the run request would be over the protocol's %d-byte line limit (the steps alone are %zu bytes)",
		PROTO_LINE_MAX, strlen(text));
	return -EINVAL;
}

/*
 * The same for a request of @s that carries the list @steps alone, bound
 * by @timeout_ms: each list is checked alone as it is filled, so that the
 * message names the one that is too long, then all together
 * (scn_fill_audit()).
 */
static int scn_check_list_request(struct scn_ctx *ctx, const struct scenario *s,
				  struct json_object *steps,
				  uint64_t timeout_ms, const char *errpath)
{
	struct scenario one = { .timeout_ms = timeout_ms,
				.step_timeout_ms = s->step_timeout_ms,
				.run_steps = steps };

	memcpy(one.name, s->name, sizeof(one.name));
	return scn_check_request(ctx, &one, steps, errpath);
}

/*
 * Fill s->steps[@first..] from the validated array @steps, adding each
 * step's timeout_ms, and hold the array in *@ret for the run request,
 * which must fit in one protocol line.
 */
static int scn_fill_steps(struct scn_ctx *ctx, struct scenario *s,
			  struct json_object *steps, size_t first,
			  uint64_t timeout_ms, const char *errpath,
			  struct json_object **ret)
{
	size_t n = json_object_array_length(steps);
	struct json_object *v;

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
	*ret = json_object_get(steps);
	if (n == 0)
		return 0;
	return scn_check_list_request(ctx, s, steps, timeout_ms, errpath);
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
			      &b->run_steps);
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
	s->boots[0].run_steps = json_object_get(s->run_steps);
	return 0;
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
	int r;

	r = scn_fill_incident(doc, s);
	if (r < 0)
		return r;
	if (json_object_object_get_ex(doc, "state_files", &v))
		s->run_state_files = json_object_get(v);
	if (!s->run_steps || (!s->run_state_files && !s->run_cleanup))
		return 0;
	return scn_check_request(ctx, s, s->run_steps, "$.steps");
}

/* scn_fill() but the bites. */
static int scn_fill_doc(struct scn_ctx *ctx, struct json_object *doc,
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
	if (json_object_object_get_ex(doc, "flavour", &v))
		snprintf(s->flavour, sizeof(s->flavour), "%s",
			 json_object_get_string(v));
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
				   &s->run_steps);
		/* An empty cleanup list is no cleanup, as when absent. */
		if (r == 0 && s->ncleanup)
			r = scn_fill_steps(ctx, s, cleanup, s->nsteps,
					   s->cleanup_timeout_ms, "$.cleanup",
					   &s->run_cleanup);
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

int scn_fill(struct scn_ctx *ctx, struct json_object *doc, struct scenario *s)
{
	int r = scn_fill_doc(ctx, doc, s);

	return r < 0 ? r : bites_fill(doc, s);
}

static void scn_boot_free(struct scn_boot *b)
{
	for (size_t j = 0; j < b->n_kernel_args; j++)
		free(b->kernel_args[j]);
	free(b->kernel_args);
	json_object_put(b->run_steps);
}

void scn_free(struct scenario *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->description);
	bites_free(s);
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
	json_object_put(s->run_steps);
	for (size_t i = 0; i < s->nboots; i++)
		scn_boot_free(&s->boots[i]);
	free(s->boots);
	json_object_put(s->run_state_files);
	json_object_put(s->run_cleanup);
	free(s->expect.title);
	free(s->xfail);
	memset(s, 0, sizeof(*s));
}

/* The first @n steps of @steps in a new array in *@ret. */
static int scn_cut_steps(struct json_object *steps, size_t n,
			 struct json_object **ret)
{
	struct json_object *kept = json_object_new_array();
	int r = kept ? 0 : -ENOMEM;

	for (size_t i = 0; r == 0 && i < n; i++)
		r = jsonutil_append(
			kept,
			json_object_get(json_object_array_get_idx(steps, i)));
	if (r < 0) {
		json_object_put(kept);
		return r;
	}
	*ret = kept;
	return 0;
}

int scn_truncate(struct scenario *s, size_t n)
{
	struct json_object *cut = NULL, *bcut = NULL;
	struct scn_boot *b = NULL;
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
	r = s->run_steps ? scn_cut_steps(s->run_steps, n, &cut) : 0;
	if (r == 0 && b)
		r = scn_cut_steps(b->run_steps, n - b->first_step, &bcut);
	if (r < 0) {
		json_object_put(cut);
		return r;
	}
	json_object_put(s->run_steps);
	s->run_steps = cut;
	s->nsteps = n;
	if (b) {
		json_object_put(b->run_steps);
		b->run_steps = bcut;
		b->nsteps = n - b->first_step;
		/* It stops with the guest up, for the shell. */
		b->end = SCN_END_RUNNING;
		for (size_t i = k + 1; i < s->nboots; i++)
			scn_boot_free(&s->boots[i]);
		s->nboots = k + 1;
	}
	/* The state stays for the shell: no cleanup list runs. */
	json_object_put(s->run_cleanup);
	s->run_cleanup = NULL;
	s->ncleanup = 0;
	return 0;
}
