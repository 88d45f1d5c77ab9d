// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loading a folder of scenarios (scenario.c) and selecting from it
 * (scenario-select.c): the layout rules, the name's length, selection by
 * name and glob with suggestions, and every shipped scenario file.
 *
 * Usage: test-scenario-select DATA_DIR SCENARIOS_DIR FIXTURES_DIR (TAP on stdout).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "scenario/scenario.h"
#include "scn-test.h"
#include "tap.h"

/* "<area>/<name>" must fit PROTO_NAME_MAX: 127 bytes load, 128 do not. */
static void test_name_length(void)
{
	char dir[] = "/tmp/vlalab-test-names-XXXXXX";
	struct scn_errors errs = { 0 };
	struct scn_set set = { 0 };
	char stem[200], *area, *ok_path, *long_path, *want;
	FILE *f;
	int r;

	if (!mkdtemp(dir))
		abort();
	area = xasprintf("%s/a", dir);
	if (mkdir(area, 0755) < 0)
		abort();
	memset(stem, 'n', 125);
	stem[125] = '\0';
	ok_path = xasprintf("%s/%s.json", area, stem);   /* "a/" + 125 = 127 */
	long_path = xasprintf("%s/%sn.json", area, stem); /* 128 */
	for (int i = 0; i < 2; i++) {
		f = fopen(i ? long_path : ok_path, "w");
		if (!f)
			abort();
		fputs("{\"description\": \"d\", \"seed\": \"none\", \"steps\": [{\"kind\": \"sleep\", \"ms\": 1}]}", f);
		fclose(f);
	}
	r = scn_load_dir(dir, &set, &errs);
	is_int(r, -EINVAL, "a 128-byte scenario name is refused");
	want = xasprintf("%s: scenario name is too long: '<area>/<name>' must be under 128 bytes",
			 long_path);
	is_str(errs.n ? errs.msgs[0] : "", want, "name length: error text");
	is_int(errs.n, 1, "name length: the 127-byte one is fine");
	unlink(ok_path);
	unlink(long_path);
	rmdir(area);
	rmdir(dir);
	free(want);
	free(ok_path);
	free(long_path);
	free(area);
	scn_errors_free(&errs);
}

static void test_layout(void)
{
	struct scn_errors errs = { 0 };
	struct scn_set set = { 0 };
	char *dir = xasprintf("%s/layout", data_dir);
	const char *const want[] = {
		"%s/Bad_Area: not an area directory: want <area>/<name>.json, <area> matching [a-z0-9-]+",
		"%s/README.md: not an area directory: want <area>/<name>.json, <area> matching [a-z0-9-]+",
		"%s/ok/Bad.json: not a scenario file: want <area>/<name>.json files, <name> matching [a-z0-9][a-z0-9-]*",
		"%s/ok/broken.json: line 1, column 28: not valid JSON: unexpected end of file",
		"%s/ok/notes.txt: not a scenario file: want <area>/<name>.json files, <name> matching [a-z0-9][a-z0-9-]*",
		"%s/ok/sub: not a scenario file: want <area>/<name>.json files, <name> matching [a-z0-9][a-z0-9-]*",
		NULL,
	};
	size_t n = 0;
	int r;

	r = scn_load_dir(dir, &set, &errs);
	is_int(r, -EINVAL, "data/layout is refused");
	is_int(set.n, 0, "data/layout: no set returned");
	while (want[n])
		n++;
	is_int(errs.n, n, "data/layout: every error collected");
	for (size_t i = 0; i < n && i < errs.n; i++) {
		char *w = xasprintf(want[i], dir);

		is_str(errs.msgs[i], w, "data/layout error");
		free(w);
	}
	scn_errors_free(&errs);
	free(dir);

	r = scn_load_dir("/nonexistent-vlalab", &set, &errs);
	is_int(r, -ENOENT, "a missing directory is an I/O error");
	is_str(errs.n ? errs.msgs[0] : "",
	       "/nonexistent-vlalab: cannot list: No such file or directory",
	       "missing directory: error text");
	scn_errors_free(&errs);

	/* A bad name given to scn_load_file directly. */
	{
		struct scenario s;
		char *path = xasprintf("%s/good/alpha/one.json", data_dir);

		r = scn_load_file(path, "alpha", &s, &errs);
		is_int(r, -EINVAL, "load_file refuses a name without an area");
		scn_errors_free(&errs);
		r = scn_load_file(path, "alpha/One", &s, NULL);
		is_int(r, -EINVAL, "load_file refuses an upper-case name (no errs)");
		free(path);
	}
}

/* Run a selection and render it as "a b c" or "-errno: message". */
static char *select_str(const struct scn_set *set, const char *const *args,
			size_t nargs)
{
	char err[512] = "", buf[1024] = "";
	size_t *idx = NULL, n = 0;
	int r;

	r = scn_select(set, (char *const *)args, nargs, &idx, &n, err, sizeof(err));
	if (r < 0)
		return xasprintf("%d: %s", r, err);
	for (size_t i = 0; i < n; i++) {
		strcat(buf, i ? " " : "");
		strcat(buf, set->v[idx[i]].name);
	}
	free(idx);
	return strdup(buf);
}

#define SEL(want, ...)                                                       \
	do {                                                                 \
		const char *const a_[] = { __VA_ARGS__ };                    \
		char *sel_ = select_str(&set, a_, sizeof(a_) / sizeof(a_[0])); \
		is_str(sel_, want, "select " #__VA_ARGS__);                   \
		free(sel_);                                                  \
	} while (0)

static void test_select(void)
{
	struct scn_set set = { 0 };
	char *dir = xasprintf("%s/good", data_dir);
	char err[256];
	size_t *idx, n;

	if (scn_load_dir(dir, &set, NULL) != 0) {
		ok(0, "data/good loads for selection");
		free(dir);
		return;
	}
	SEL("alpha/one alpha/two beta/every-kind gamma/cached-filter gamma/cached-notrace",
	    "all");
	SEL("alpha/two", "alpha/two");
	SEL("alpha/one alpha/two", "alpha/two", "alpha/one");
	SEL("alpha/one alpha/two", "alpha/*");
	SEL("gamma/cached-filter gamma/cached-notrace", "*/cached-*");
	SEL("alpha/one alpha/two gamma/cached-filter", "gamma/cached-filter", "alpha/*",
	    "alpha/one");
	SEL("alpha/one alpha/two beta/every-kind gamma/cached-filter gamma/cached-notrace",
	    "alpha/one", "all");
	SEL("beta/every-kind", "beta/every-kin?");
	SEL("-2: unknown scenario 'alpha/tow'; did you mean: alpha/two?", "alpha/tow");
	SEL("-2: unknown scenario 'cached-filtre'; did you mean: gamma/cached-filter?",
	    "cached-filtre");
	SEL("-2: unknown scenario 'gamma/cached'; did you mean: gamma/cached-filter, gamma/cached-notrace?",
	    "gamma/cached");
	SEL("-2: unknown scenario 'every-kind'; did you mean: beta/every-kind?", "every-kind");
	SEL("-2: unknown scenario 'zzz/qqqqqq'; no close match ('hostctl list' shows them all)",
	    "zzz/qqqqqq");
	SEL("-2: unknown scenario 'nope/*'; no close match ('hostctl list' shows them all)",
	    "alpha/one", "nope/*");
	is_int(scn_select(&set, NULL, 0, &idx, &n, err, sizeof(err)), -EINVAL,
	       "select nothing: -EINVAL");
	scn_set_free(&set);

	/* An empty set: "all" selects nothing; a name is still unknown. */
	SEL("", "all");
	SEL("-2: unknown scenario 'ftrace/x'; no close match ('hostctl list' shows them all)",
	    "ftrace/x");
	free(dir);
}

/* Every file shipped in scenarios/ and the integration fixtures validates. */
static void test_shipped(void)
{
	static const char *const ftrace[] = {
		"ftrace/cache-remove-clear", "ftrace/cached-filter",
		"ftrace/filter-loaded-module", "ftrace/module-exists-boundary",
		"ftrace/notrace-mod",
	};
	static const char *const selftest[] = {
		"selftest/bridge-steps", "selftest/crash",
		"selftest/expect-panic", "selftest/expect-warning",
		"selftest/expect-wrong", "selftest/hang", "selftest/kselftest-fail",
		"selftest/nic-eth0", "selftest/recover-after-crash",
		"selftest/trivial-read", "selftest/unexpected-survival",
		"selftest/xfail", "selftest/xpass",
	};
	const size_t nselftest = sizeof(selftest) / sizeof(selftest[0]);
	struct scn_errors errs = { 0 };
	struct scn_set set = { 0 };
	size_t found = 0;
	int r;

	r = scn_load_dir(shipped_dir, &set, &errs);
	is_int(r, 0, "scenarios/ validates");
	is_int(scn_flavours_check(&set, VLALAB_SRCDIR "/kernel", &errs), 0,
	       "scenarios/: every flavour is a folder of kernel/flavours/");
	for (size_t i = 0; i < errs.n; i++)
		printf("# %s\n", errs.msgs[i]);
	for (size_t i = 0; i < set.n; i++)
		for (size_t j = 0; j < 5; j++)
			if (strcmp(set.v[i].name, ftrace[j]) == 0) {
				found++;
				is_str(set.v[i].seed, "004", ftrace[j]);
			}
	is_int(found, 5, "scenarios/ has the five ftrace scenarios");
	scn_set_free(&set);
	scn_errors_free(&errs);

	r = scn_load_dir(fixtures_dir, &set, &errs);
	is_int(r, 0, "hostctl/tests/scenarios-fixtures validates");
	for (size_t i = 0; i < errs.n; i++)
		printf("# %s\n", errs.msgs[i]);
	is_int(set.n, nselftest, "fixtures: every selftest scenario");
	for (size_t i = 0; i < set.n && i < nselftest; i++)
		is_str(set.v[i].name, selftest[i], "fixtures: name");
	scn_set_free(&set);
	scn_errors_free(&errs);
}

int main(int argc, char *argv[])
{
	scn_test_args(argc, argv);
	test_name_length();
	test_layout();
	test_select();
	test_shipped();
	return tap_done();
}
