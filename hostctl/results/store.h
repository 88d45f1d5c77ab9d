/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The stored runs: run directories under results/ (results/<run-id>,
 * each with its summary.json), read back for export, runs, diff, flakes
 * and gc.
 */
#ifndef VLALAB_STORE_H
#define VLALAB_STORE_H

#include <stddef.h>

#include "results/results.h"

#define STORE_DEFAULT_DIR "results"
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
 * The names of the run directories in @results (those holding a
 * summary.json; not the "latest" link), oldest first: run ids start with
 * their date and time. A missing @results is none. 0 or -errno.
 */
int store_list(const char *results, char ***ret, size_t *ret_n);
void store_list_free(char **names, size_t n);

/*
 * @arg as a run directory: itself when it is one, else @results/@arg.
 * 0, or -ENOENT when neither holds a summary.json.
 */
int store_resolve(const char *results, const char *arg, char *buf, size_t len);

/*
 * store_resolve() and store_read_run() in one: the run @arg into @ret,
 * its directory into @dir. 0, or -errno with the reason in @err.
 */
int store_load(const char *results, const char *arg, char *dir, size_t dirlen,
	       struct res_run *ret, char *err, size_t errlen);

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
