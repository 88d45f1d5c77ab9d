// SPDX-License-Identifier: GPL-2.0-only
/*
 * A scenario's requires against a built kernel: kbuild says what the build
 * has (kbuild_has_config(), kbuild_has_module(), kbuild_has_module_param()),
 * and this file words why a scenario must be skipped, every missing option,
 * module and parameter in one reason.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kbuild.h"
#include "scenario/scenario-priv.h"
#include "scenario/scenario.h"

static void scn_reason_add(char *reason, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Append "; " and a reason to @reason. */
static void scn_reason_add(char *reason, size_t len, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	if (!reason || !len)
		return;
	used = strlen(reason);
	if (used && used + 2 < len) {
		strcpy(reason + used, "; ");
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(reason + used, len - used, fmt, ap);
	va_end(ap);
}

static bool scn_listed(char *const *v, size_t n, const char *module)
{
	for (size_t i = 0; i < n; i++)
		if (kbuild_module_name_eq(v[i], module))
			return true;
	return false;
}

int scn_check_requires(const struct scenario *s, const char *config_path,
		       const char *modules_dir, char *reason, size_t len)
{
	bool unset = false;
	int r = 0;

	if (reason && len)
		reason[0] = '\0';
	for (size_t i = 0; i < s->n_req_config; i++) {
		const char *opt = s->req_config[i];
		char *val = NULL;
		int has;

		/* On an I/O error, kbuild says which file in @reason. */
		has = kbuild_has_config(config_path, opt, &val, reason, len);
		if (has < 0)
			return has;
		if (!has && !val) {
			scn_reason_add(reason, len, "%s is not set", opt);
			r = 1;
		} else if (!has) {
			scn_reason_add(reason, len, "%s=%s, not y or m", opt,
				       val);
			r = 1;
		}
		free(val);
	}
	/*
	 * config_unset: a measurement or an expectation that a kernel with
	 * this option (KASAN's quarantine, say) would make wrong.
	 */
	for (size_t i = 0; i < s->n_req_unset; i++) {
		const char *opt = s->req_unset[i];
		char *val = NULL;
		int has;

		has = kbuild_has_config(config_path, opt, &val, reason, len);
		free(val);
		if (has < 0)
			return has;
		if (has) {
			scn_reason_add(reason, len, "%s is set", opt);
			unset = true;
			r = 1;
		}
	}
	if (unset && s->req_unset_why)
		scn_reason_add(reason, len, "%s", s->req_unset_why);
	for (size_t i = 0; i < s->n_req_modules; i++) {
		const char *m = s->req_modules[i];
		int has = kbuild_has_module(modules_dir, m, reason, len);

		if (has < 0)
			return has;
		if (!has) {
			scn_reason_add(reason, len, "module '%s' not built", m);
			r = 1;
		}
	}
	for (size_t i = 0; i < s->n_req_params; i++) {
		const char *mp = s->req_params[i], *dot = strchr(mp, '.');
		char mod[SCN_MODNAME_MAX + 1], kerr[512] = "";
		int has;

		/* The loader checked the form: "module.param". */
		snprintf(mod, sizeof(mod), "%.*s", (int)(dot - mp), mp);
		has = kbuild_has_module_param(modules_dir, mod, dot + 1, kerr,
					      sizeof(kerr));
		if (has == -ENOENT) {
			/* Not built: said once, by modules if it lists it. */
			if (!scn_listed(s->req_modules, s->n_req_modules, mod))
				scn_reason_add(reason, len,
					       "module '%s' not built", mod);
			r = 1;
		} else if (has < 0) {
			if (reason && len)
				snprintf(reason, len, "%s", kerr);
			return has;
		} else if (!has) {
			scn_reason_add(reason, len,
				       "module '%s' has no parameter '%s'", mod,
				       dot + 1);
			r = 1;
		}
	}
	return r;
}

int scn_flavours_check(const struct scn_set *set, const char *kernel_dir,
		       struct scn_errors *errs)
{
	char err[1024], *msg;
	int bad = 0;

	for (size_t i = 0; i < set->n; i++) {
		const struct scenario *s = &set->v[i];
		int r;

		if (!*s->flavour)
			continue;
		r = kbuild_flavour_check(kernel_dir, s->flavour, err,
					 sizeof(err));
		if (r == 0)
			continue;
		if (r == -EINVAL)
			bad++;
		if (asprintf(&msg, "%s: $.flavour: %s", s->path,
			     r == -EINVAL ? err : strerror(-r)) < 0 ||
		    scn_errors_add(errs, msg) < 0)
			return -ENOMEM;
		if (r != -EINVAL)
			return r;
	}
	return bad ? -EINVAL : 0;
}
