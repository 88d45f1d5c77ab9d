/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run in the formats that CI dashboards read: JUnit XML (Jenkins,
 * GitLab) and KernelCI's KCIDB JSON, schema 5.3 (docs/nightly.md has the
 * verdict mappings). The formatters (export-junit.c, export-kcidb.c) are
 * pure: what they need from files (console tails, URLs, the patchset's
 * hash) comes in struct export_in, which export.c fills from a run
 * directory and the kernel cache before writing the files.
 */
#ifndef VLALAB_EXPORT_H
#define VLALAB_EXPORT_H

#include <stdio.h>

#include "results/results.h"

/* Console lines a testcase or test carries, at most. */
#define EXPORT_TAIL_LINES 40

struct export_in {
	const struct res_run *run;
	/*
	 * Per scenario (run->n of them, or NULL for none): the tail of its
	 * VM's console, cleaned, for a scenario that did not pass, or NULL.
	 */
	char **tails;
	/* file:// URLs, each NULL when not known: */
	const char *run_url; /* the run directory */
	const char *patches_url; /* the folder of the series' patch files */
	const char *build_url; /* the kernel's build directory in the cache */
	const char *patchset_hash; /* KCIDB's, over the manifest's patches */
	char *build_log_tail; /* the build log's last lines, or NULL */
	/* For the HTML report: the stored runs before this one, oldest
	 * first (at most EXPORT_HISTORY_MAX), for the pass/fail strips. */
	const struct res_run *history;
	size_t nhistory;
};

#define EXPORT_HISTORY_MAX 30

/* The JUnit XML of @in to @f: 0, or -EIO when @f failed. */
int export_junit(const struct export_in *in, FILE *f);

/* The KCIDB 5.3 JSON of @in, pretty-printed, in a malloc'd string ending
 * in '\n'. 0 or -ENOMEM. */
int export_kcidb(const struct export_in *in, char **ret);

/*
 * The HTML report of @in to @f: one static page, no script, no network.
 * The verdict table (filtered by CSS alone), a duration bar and a strip
 * of the last runs' verdicts per scenario as inline SVG, the flip rate,
 * and each scenario that did not pass with its steps (those that never
 * ran too, when summary.json lists them), incidents and console tail;
 * the run's total time, and links to every VM's console log and to
 * events.jsonl when @in has the run's URL. 0, or -EIO when @f failed.
 */
int export_html(const struct export_in *in, FILE *f);

/* KCIDB's status for a verdict; @began: some step of it ran. */
const char *export_kcidb_status(enum proto_verdict v, bool began);

/*
 * The VM whose console ends with a scenario's end: its last boot's, or
 * the shared one it ran on; NULL for none, or a label that is not "vmN"
 * (summary.json is input: it names no other file).
 */
const char *export_scenario_vm(const struct res_scenario *sc);

/* "vm" and digits: a VM label as hostctl writes it, safe in a path. */
bool export_vm_label_ok(const char *vm);

/*
 * Write the files asked for (@junit, @kcidb: paths, or NULL) for @run,
 * whose directory is @run_dir, with the kernel cache @cache_dir (NULL:
 * the default) and the series in @patches_dir (NULL: the repository's).
 * Each file is written whole or not at all (a temporary file renamed).
 * 0, or -errno with what failed in @err (export.c).
 */
int export_write(const struct res_run *run, const char *run_dir,
		 const char *cache_dir, const char *patches_dir,
		 const char *junit, const char *kcidb, char *err,
		 size_t errlen);

/*
 * Write @html_dir/<run-id>.html for @run in @run_dir, with @history (the
 * stored runs before it, oldest first) for its strips; the page's path
 * in @ret_path. 0, or -errno with what failed in @err.
 */
int export_write_html(const struct res_run *run, const char *run_dir,
		      const struct res_run *history, size_t nhistory,
		      const char *html_dir, char *ret_path, size_t pathlen,
		      char *err, size_t errlen);

#endif
