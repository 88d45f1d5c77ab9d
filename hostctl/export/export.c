// SPDX-License-Identifier: GPL-2.0-only
/*
 * The files behind `hostctl export` and `hostctl run --junit/--kcidb`:
 * what the pure formatters need from the run directory (console tails)
 * and the kernel cache (the build's config and log), file:// URLs for
 * them, the series' KCIDB hash, and each output written whole or not at
 * all.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/escape.h"
#include "export/export.h"
#include "fileio.h"
#include "base/fsutil.h"
#include "kbuild.h"
#include "crash/report.h"
#include "results/rundir.h"

#define TAIL_BYTES (64 << 10)
#define BUILD_LOG_BYTES (8 << 10)

/* file://@path, absolute, with what a URI may not hold percent-escaped. */
static char *file_url(const char *path)
{
	char abs[PATH_MAX], *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!realpath(path, abs))
		return NULL;
	f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fputs("file://", f);
	for (const unsigned char *p = (const unsigned char *)abs; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/-._~+", *p))
			fputc(*p, f);
		else
			fprintf(f, "%%%02X", *p);
	}
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * The console tail of every scenario that did not pass or skip: its VM
 * was not reused after it (run-scenario.c's vm_reusable()), so the end of that
 * VM's console is the end of the scenario. A missing log is no tail.
 */
static int read_tails(const struct res_run *run, const char *dir, char ***ret)
{
	char **tails = calloc(run->n ? run->n : 1, sizeof(*tails));

	if (!tails)
		return -ENOMEM;
	for (size_t i = 0; i < run->n; i++) {
		const struct res_scenario *sc = &run->v[i];
		const char *vm = export_scenario_vm(sc);
		char path[PATH_MAX + 64], *log, *tail;
		size_t len;

		if (sc->verdict == VERDICT_PASS ||
		    sc->verdict == VERDICT_SKIP || !vm)
			continue;
		snprintf(path, sizeof(path), "%s/" RUNDIR_CONSOLE, dir, vm);
		if (fs_read_tail(path, TAIL_BYTES, &log, &len) < 0)
			continue;
		tail = report_console_tail(log, len, EXPORT_TAIL_LINES);
		free(log);
		tails[i] = tail ? esc_clean(tail) : NULL;
		free(tail);
		if (!tails[i]) {
			*ret = tails;
			return -ENOMEM;
		}
	}
	*ret = tails;
	return 0;
}

/*
 * KCIDB's patchset hash: the SHA-256 over each patch's hex SHA-256 and a
 * newline, in order ("" for no patches). -EINVAL when the manifest's
 * list is not what kbuild writes.
 */
static int patchset_hash(const struct json_object *m, char ret[65])
{
	struct json_object *patches, *sha;
	char *buf = NULL;
	size_t len = 0, n;
	FILE *f;
	int r;

	if (!m || !json_object_object_get_ex(m, "patches", &patches) ||
	    !json_object_is_type(patches, json_type_array))
		return -EINVAL;
	n = json_object_array_length(patches);
	if (!n) {
		ret[0] = '\0';
		return 0;
	}
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	r = 0;
	for (size_t i = 0; r == 0 && i < n; i++) {
		if (!json_object_object_get_ex(
			    json_object_array_get_idx(patches, i), "sha256",
			    &sha) ||
		    !json_object_is_type(sha, json_type_string) ||
		    json_object_get_string_len(sha) != 64)
			r = -EINVAL;
		else
			fprintf(f, "%s\n", json_object_get_string(sha));
	}
	if (fclose(f) != 0 && r == 0)
		r = -ENOMEM;
	if (r == 0)
		r = kbuild_sha256_hex(buf, len, ret);
	free(buf);
	return r;
}

/* The build directory of the run's kernel, when the cache still has it. */
static char *build_dir(const struct json_object *m, const char *cache_dir)
{
	struct json_object *key;
	char cache[PATH_MAX], *dir;
	struct stat st;
	const char *k;

	if (!m || !json_object_object_get_ex(m, "key", &key) ||
	    !json_object_is_type(key, json_type_string))
		return NULL;
	k = json_object_get_string(key);
	if (strlen(k) != 64 || strspn(k, "0123456789abcdef") != 64)
		return NULL;
	if (cache_dir)
		snprintf(cache, sizeof(cache), "%s", cache_dir);
	else if (kbuild_cache_dir(cache, sizeof(cache)) < 0)
		return NULL;
	if (asprintf(&dir, "%s/builds/%s", cache, k) < 0)
		return NULL;
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		free(dir);
		return NULL;
	}
	return dir;
}

static int fill_in(struct export_in *in, const struct res_run *run,
		   const char *run_dir, const char *cache_dir,
		   const char *patches_dir, char hash[65], char *err,
		   size_t errlen)
{
	char *bdir, path[PATH_MAX + 16];
	size_t len;
	int r;

	in->run = run;
	r = read_tails(run, run_dir, &in->tails);
	if (r < 0) {
		snprintf(err, errlen, "reading console logs: %s", strerror(-r));
		return r;
	}
	in->run_url = file_url(run_dir);
	in->patches_url = file_url(
		patches_dir ? patches_dir : VLALAB_SRCDIR "/kernel/patches");
	if (patchset_hash(run->kernel, hash) == 0)
		in->patchset_hash = hash;
	bdir = build_dir(run->kernel, cache_dir);
	if (bdir) {
		in->build_url = file_url(bdir);
		snprintf(path, sizeof(path), "%s/build.log", bdir);
		if (fs_read_tail(path, BUILD_LOG_BYTES, &in->build_log_tail,
				 &len) < 0)
			in->build_log_tail = NULL;
		free(bdir);
	}
	return 0;
}

static void free_in(struct export_in *in)
{
	for (size_t i = 0; in->tails && i < in->run->n; i++)
		free(in->tails[i]);
	free(in->tails);
	free((char *)in->run_url);
	free((char *)in->patches_url);
	free((char *)in->build_url);
	free(in->build_log_tail);
}

int export_write(const struct res_run *run, const char *run_dir,
		 const char *cache_dir, const char *patches_dir,
		 const char *junit, const char *kcidb, char *err, size_t errlen)
{
	struct export_in in = { 0 };
	char hash[65], *text = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	r = fill_in(&in, run, run_dir, cache_dir, patches_dir, hash, err,
		    errlen);
	if (r == 0 && junit) {
		f = open_memstream(&text, &len);
		r = f ? export_junit(&in, f) : -ENOMEM;
		if (f && fclose(f) != 0 && r == 0)
			r = -ENOMEM;
		if (r == 0)
			r = fileio_write_atomic(junit, text, len);
		if (r < 0)
			snprintf(err, errlen, "writing JUnit '%s': %s", junit,
				 strerror(-r));
		free(text);
		text = NULL;
	}
	if (r == 0 && kcidb) {
		r = export_kcidb(&in, &text);
		if (r == 0)
			r = fileio_write_atomic(kcidb, text, strlen(text));
		if (r < 0)
			snprintf(err, errlen, "writing KCIDB '%s': %s", kcidb,
				 strerror(-r));
		free(text);
	}
	free_in(&in);
	return r;
}

int export_write_html(const struct res_run *run, const char *run_dir,
		      const struct res_run *history, size_t nhistory,
		      const char *html_dir, char *ret_path, size_t pathlen,
		      char *err, size_t errlen)
{
	struct export_in in = { 0 };
	char hash[65], *text = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	if (snprintf(ret_path, pathlen, "%s/%s.html", html_dir, run->run_id) >=
		    (int)pathlen ||
	    strchr(run->run_id, '/') || !*run->run_id) {
		snprintf(err, errlen, "no page name for run id '%s'",
			 run->run_id);
		return -EINVAL;
	}
	r = fill_in(&in, run, run_dir, NULL, NULL, hash, err, errlen);
	in.history = history;
	in.nhistory = nhistory;
	if (r == 0)
		r = fs_mkdir_p(html_dir);
	if (r == 0) {
		f = open_memstream(&text, &len);
		r = f ? export_html(&in, f) : -ENOMEM;
		if (f && fclose(f) != 0 && r == 0)
			r = -ENOMEM;
		if (r == 0)
			r = fileio_write_atomic(ret_path, text, len);
		if (r < 0)
			snprintf(err, errlen, "writing '%s': %s", ret_path,
				 strerror(-r));
		free(text);
	}
	free_in(&in);
	return r;
}
