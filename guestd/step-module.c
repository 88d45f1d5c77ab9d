// SPDX-License-Identifier: GPL-2.0-only
/*
 * modprobe and rmmod, through finit_module(2) and delete_module(2) so the
 * step sees the kernel's own errno. See modules.c for the lookup.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "guestd.h"

#define PARAMS_MAX 4096

static const char *modules_dir(const struct step_env *env, char *buf,
			       size_t size)
{
	struct utsname u;

	if (env->modules_dir)
		return env->modules_dir;
	uname(&u);
	snprintf(buf, size, "/lib/modules/%s", u.release);
	return buf;
}

static const struct mod_sys *sys_of(const struct step_env *env)
{
	return env->mod_sys ? env->mod_sys : &mod_sys_real;
}

/* Join the "key=value" strings of @params with spaces. */
static int join_params(struct json_object *params, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; params && i < json_object_array_length(params);
	     i++) {
		const char *p = json_object_get_string(
			json_object_array_get_idx(params, i));
		int n = snprintf(buf + o, size - o, "%s%s", o ? " " : "", p);

		if (n < 0 || (size_t)n >= size - o)
			return -E2BIG;
		o += (size_t)n;
	}
	return 0;
}

/* Fill the verdict from the outcome @r against @expect. */
static int judge(struct step_result *res, const char *expect, int r,
		 const char *done, const char *what)
{
	int want = 0;

	if (expect && proto_errno_parse(expect, &want) < 0) {
		step_error(res, "unknown errno name '%s'", expect);
		return 0;
	}
	if (want ? -r == want : r == 0) {
		res->verdict = VERDICT_PASS;
		return 0;
	}
	if (!step_errno_mismatch(res, want, -r, what))
		step_got(res, "success (%s)", done);
	return 0;
}

static int modprobe_run(struct step_ctx *ctx, struct json_object *step,
			struct step_result *res)
{
	const char *module = step_str(step, "module");
	struct json_object *params = NULL;
	char dirbuf[512], what[4096 + 64];
	char *joined;
	const char *dir;
	int r;

	json_object_object_get_ex(step, "params", &params);
	joined = malloc(PARAMS_MAX);
	if (!joined)
		return -ENOMEM;
	if (join_params(params, joined, PARAMS_MAX) < 0) {
		step_error(res, "parameters of '%s' are longer than %d bytes",
			   module, PARAMS_MAX - 1);
		free(joined);
		return 0;
	}
	dir = modules_dir(ctx->env, dirbuf, sizeof(dirbuf));
	what[0] = '\0';
	r = mod_load(sys_of(ctx->env), dir, module, joined, what, sizeof(what));
	snprintf(res->reason, sizeof(res->reason), "modprobe '%s'%s%s", module,
		 joined[0] ? " " : "", joined);
	free(joined);
	judge(res, step_str(step, "expect_errno"), r, "loaded", what);
	if (res->verdict == VERDICT_PASS)
		res->reason[0] = '\0';
	return 0;
}

static int rmmod_run(struct step_ctx *ctx, struct json_object *step,
		     struct step_result *res)
{
	const char *module = step_str(step, "module");
	char what[512];
	int r;

	r = mod_unload(sys_of(ctx->env), module);
	snprintf(what, sizeof(what), "delete_module('%s')", module);
	judge(res, step_str(step, "expect_errno"), r, "unloaded", what);
	if (res->verdict == VERDICT_FAIL)
		snprintf(res->reason, sizeof(res->reason), "rmmod '%s'",
			 module);
	return 0;
}

const struct step_ops step_modprobe = {
	.name = "modprobe",
	.run = modprobe_run,
};

const struct step_ops step_rmmod = {
	.name = "rmmod",
	.run = rmmod_run,
};
