// SPDX-License-Identifier: GPL-2.0-only
/*
 * The stored runs under the results root (store.h).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "kbuild.h"
#include "results/store.h"
#include "results/rundir.h"

int store_root(const char *given, char *buf, size_t len)
{
	const char *env = getenv(STORE_ENV);
	char cache[PATH_MAX];
	int r;

	if (given || (env && *env))
		return snprintf(buf, len, "%s", given ? given : env) >=
				       (int)len ?
			       -ENAMETOOLONG :
			       0;
	r = kbuild_cache_dir(cache, sizeof(cache));
	if (r < 0)
		return r;
	if (snprintf(buf, len, "%s/" STORE_CACHE_SUBDIR, cache) >= (int)len)
		return -ENAMETOOLONG;
	return 1;
}

int store_read_run(const char *dir, struct res_run *ret, char *err,
		   size_t errlen)
{
	char path[PATH_MAX + 16];
	struct json_object *root, *rep;
	size_t len;
	char *text;
	int r;

	if (snprintf(path, sizeof(path), "%s/" RUNDIR_SUMMARY, dir) >=
	    (int)sizeof(path)) {
		snprintf(err, errlen, "'%s': name too long", dir);
		return -ENAMETOOLONG;
	}
	r = fs_read_tail(path, STORE_SUMMARY_MAX, &text, &len);
	if (r < 0) {
		snprintf(err, errlen, "reading '%s': %s", path, strerror(-r));
		return r;
	}
	root = json_tokener_parse(text);
	if (root && json_object_object_get_ex(root, "repeat", &rep)) {
		json_object_put(root);
		free(text);
		snprintf(
			err, errlen,
			"'%s' is a --repeat run: give one of its rounds, %s/round-K",
			dir, dir);
		return -EINVAL;
	}
	json_object_put(root);
	r = res_run_from_json(text, ret, err, errlen);
	free(text);
	if (r == -EINVAL) {
		char why[512];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "'%s': %s", path, why);
	} else if (r < 0) {
		snprintf(err, errlen, "'%s': %s", path, strerror(-r));
	}
	return r;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_summary(const char *dir)
{
	char path[PATH_MAX + 16];
	struct stat st;

	if (snprintf(path, sizeof(path), "%s/" RUNDIR_SUMMARY, dir) >=
	    (int)sizeof(path))
		return false;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int store_list(const char *results, char ***ret, size_t *ret_n)
{
	char **v = NULL, path[PATH_MAX];
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d = opendir(results);

	*ret = NULL;
	*ret_n = 0;
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct stat st;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, RUNDIR_LATEST))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", results,
			     de->d_name) >= (int)sizeof(path))
			continue;
		if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) ||
		    !has_summary(path))
			continue;
		if (n == cap) {
			char **nv;

			cap = cap ? 2 * cap : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				goto nomem;
			v = nv;
		}
		v[n] = strdup(de->d_name);
		if (!v[n])
			goto nomem;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_names);
	*ret = v;
	*ret_n = n;
	return 0;
nomem:
	closedir(d);
	store_list_free(v, n);
	return -ENOMEM;
}

void store_list_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int store_list_root(const char *given, char *root, size_t rootlen, char ***ret,
		    size_t *ret_n)
{
	int r, dflt;

	if (rootlen)
		*root = '\0';
	r = store_root(given, root, rootlen);
	dflt = r == 1;
	*ret = NULL;
	*ret_n = 0;
	if (r < 0)
		return r;
	r = store_list(root, ret, ret_n);
	return r == -ENOENT && dflt ? 0 : r;
}

size_t store_read_recent(const char *root, char *const *names, size_t n,
			 const char *before, size_t max, struct res_run *runs,
			 void (*skipped)(const char *err))
{
	char dir[PATH_MAX], err[1024];
	size_t last = n, nr = 0, seen = 0;

	if (before)
		for (last = 0; last < n && strcmp(names[last], before) < 0;
		     last++)
			;
	/* Newest first, then turned round. */
	for (size_t i = last; i-- > 0 && seen < max;) {
		struct res_run *run = &runs[nr];

		memset(run, 0, sizeof(*run));
		snprintf(dir, sizeof(dir), "%s/%s", root, names[i]);
		if (store_read_run(dir, run, err, sizeof(err)) < 0) {
			skipped(err);
			res_run_free(run);
			seen++;
			continue;
		}
		if (run->repro_until_step || run->exec[0]) {
			res_run_free(run);
			continue;
		}
		nr++;
		seen++;
	}
	for (size_t i = 0; i < nr / 2; i++) {
		struct res_run t = runs[i];

		runs[i] = runs[nr - 1 - i];
		runs[nr - 1 - i] = t;
	}
	return nr;
}

int store_resolve(const char *results, const char *arg, char *buf, size_t len)
{
	if (has_summary(arg)) {
		if (snprintf(buf, len, "%s", arg) >= (int)len)
			return -ENAMETOOLONG;
		return 0;
	}
	if (arg[0] == '/' ||
	    snprintf(buf, len, "%s/%s", results, arg) >= (int)len)
		return -ENOENT;
	return has_summary(buf) ? 0 : -ENOENT;
}

void store_not_found(const char *results, const char *arg, char *err,
		     size_t errlen)
{
	snprintf(err, errlen, "no run '%s' in '%s' (" STORE_RUN_HELP ")", arg,
		 results);
}

int store_load(const char *results, const char *arg, char *dir, size_t dirlen,
	       struct res_run *ret, char *err, size_t errlen)
{
	if (store_resolve(results, arg, dir, dirlen) < 0) {
		store_not_found(results, arg, err, errlen);
		return -ENOENT;
	}
	return store_read_run(dir, ret, err, errlen);
}

static bool verdict_ok(enum proto_verdict v)
{
	return v == VERDICT_PASS || v == VERDICT_SKIP || v == VERDICT_XFAIL;
}

/*
 * The step of @sc, a scenario of @nsteps main steps in a stored run,
 * that repro stops at (see .h): 0 for a pass, -ENOENT for a record that
 * cannot tell (a pass of a cut run; a step past @nsteps, so the
 * scenario changed since). A summary records each step with its index
 * in the scenario; those that never began, when it says which, not ran.
 */
static long failing_step(const struct res_scenario *sc, size_t nsteps)
{
	size_t main = sc->nsteps - sc->ncleanup, last = 0, nran = 0;

	for (size_t i = 0; i < main; i++) {
		const struct res_step *st = &sc->steps[i];

		if (st->index >= nsteps)
			return -ENOENT;
		if (st->ran && !verdict_ok(sc->verdict) &&
		    !verdict_ok(st->verdict))
			return (long)st->index + 1;
		if (st->ran) {
			last = st->index + 1;
			nran++;
		}
	}
	if (verdict_ok(sc->verdict))
		return nran == nsteps ? 0 : -ENOENT;
	return last ? (long)last : -ENOENT;
}

int store_failing_step(const char *results, const char *scenario, size_t nsteps,
		       size_t *ret_step, char *ret_run, size_t runlen)
{
	char **names, dir[PATH_MAX], err[256];
	size_t n;
	int r = store_list(results, &names, &n);

	if (r < 0)
		return r;
	r = -ENOENT;
	/* Newest first: run ids start with their date and time. */
	for (size_t i = n; i-- > 0 && r == -ENOENT;) {
		struct res_run run;

		if (snprintf(dir, sizeof(dir), "%s/%s", results, names[i]) >=
			    (int)sizeof(dir) ||
		    store_read_run(dir, &run, err, sizeof(err)) < 0)
			continue;
		for (size_t k = 0; k < run.n; k++) {
			const struct res_scenario *sc = &run.v[k];
			long step;

			if (strcmp(sc->name, scenario) != 0)
				continue;
			step = failing_step(sc, nsteps);
			if (step < 0)
				continue;
			*ret_step = (size_t)step;
			snprintf(ret_run, runlen, "%s", names[i]);
			r = 0;
			break;
		}
		res_run_free(&run);
	}
	store_list_free(names, n);
	return r;
}
