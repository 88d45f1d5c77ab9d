/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The stored runs: run directories under the results root (ROOT/<run-id>,
 * each with its summary.json, and ROOT/latest naming the newest run that
 * was not a repro), read back for report, export, runs, diff, flakes and
 * gc. Every verb finds its root with store_root() and a run with
 * store_resolve() or store_load().
 */
#ifndef VLALAB_STORE_H
#define VLALAB_STORE_H

#include <stddef.h>

#include "results/results.h"

/* The results root when no --results says: $VLALAB_RESULTS, else
 * <cache>/results. */
#define STORE_ENV "VLALAB_RESULTS"
#define STORE_CACHE_SUBDIR "results"
/* What a RUN argument may be, for the help texts. */
#define STORE_RUN_HELP "a run id, 'latest' or a folder"
/* The largest summary.json read back. */
#define STORE_SUMMARY_MAX (64 << 20)

/*
 * Read the summary.json of the run directory @dir into @ret. 0; -ENOENT
 * when it has none; -EINVAL (a summary that does not parse, or one of a
 * --repeat run, whose rounds are its round-K directories) or another
 * -errno, with the reason in @err.
 */
int store_read_run(const char *dir, struct res_run *ret, char *err,
		   size_t errlen);

/*
 * The results root into @buf: @given (a --results DIR) when not NULL,
 * else $VLALAB_RESULTS when set and not empty, else <cache>/results, the
 * cache being kbuild_cache_dir()'s. 1 when it is that default, 0 when it
 * was given, or -errno.
 */
int store_root(const char *given, char *buf, size_t len);

/*
 * The names of the run directories in @results (those holding a
 * summary.json; not the "latest" link), oldest first: run ids start with
 * their date and time. 0, -ENOENT when @results does not exist, or
 * another -errno.
 */
int store_list(const char *results, char ***ret, size_t *ret_n);
void store_list_free(char **names, size_t n);

/*
 * store_root() of @given into @root, and store_list() of it: a root that
 * was given (--results, $VLALAB_RESULTS) must exist; the default one may
 * not yet, and holds no run then. 0 or -errno.
 */
int store_list_root(const char *given, char *root, size_t rootlen, char ***ret,
		    size_t *ret_n);

/*
 * The newest runs of @names (@n of store_list() under @root), before the
 * run id @before when not NULL, leaving out repro runs and run --exec's
 * (no scenario ran in either): at most @max, oldest first, into @runs
 * (room for @max). A run that cannot be read is
 * left out but counts against @max (as a run that is there), its reason
 * passed to @skipped. Returns how many were read; the caller frees each.
 */
size_t store_read_recent(const char *root, char *const *names, size_t n,
			 const char *before, size_t max, struct res_run *runs,
			 void (*skipped)(const char *err));

/*
 * The run locator: @arg (a run id, "latest", or a folder) as a run
 * directory into @buf: itself when it holds a summary.json, else
 * @results/@arg for a relative one ("latest/round-2"). 0, or -ENOENT
 * when neither holds a summary.json.
 */
int store_resolve(const char *results, const char *arg, char *buf, size_t len);

/*
 * store_resolve() and store_read_run() in one: the run @arg into @ret,
 * its directory into @dir. 0, or -errno with the reason in @err; for a
 * run not found, "no run 'X' in 'ROOT' (a run id, 'latest' or a folder)"
 * (store_not_found()), which the verbs print after "hostctl VERB: ".
 */
int store_load(const char *results, const char *arg, char *dir, size_t dirlen,
	       struct res_run *ret, char *err, size_t errlen);

/* The one wording of a run that store_resolve() did not find, into @err. */
void store_not_found(const char *results, const char *arg, char *err,
		     size_t errlen);

/*
 * The step hostctl repro stops at by default, from the newest run under
 * @results whose record of @scenario (of @nsteps main steps) tells: its
 * first main step that did not pass (fail, timeout, error, crash; for a
 * scenario that did not pass without such a step, the last that ran),
 * from 1; or 0 when that run passed all its main steps (a repro's cut
 * run that passed does not tell). The run's id goes to @ret_run.
 * -ENOENT when no stored run tells.
 */
int store_failing_step(const char *results, const char *scenario, size_t nsteps,
		       size_t *ret_step, char *ret_run, size_t runlen);

#endif
