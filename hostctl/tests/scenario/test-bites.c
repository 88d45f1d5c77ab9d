// SPDX-License-Identifier: GPL-2.0-only
/*
 * A scenario's bites (bites.c): as the validator fills them in, numbered
 * across the boots, and resolved against each line's series.
 *
 * Usage: test-bites DATA_DIR SCENARIOS_DIR FIXTURES_DIR (TAP on stdout).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario/bites.h"
#include "scenario/scenario.h"
#include "scn-test.h"
#include "tap.h"

/*
 * bites: steps are numbered across the boots, and bites_resolve() maps
 * each patch to its series file name (the repository's series), refusing
 * an unknown one and a patch named twice in two spellings.
 */
static void test_bites(void)
{
	static const char text[] =
		"{\"description\": \"d\", \"seed\": \"none\", "
		"\"bites\": [{\"patch\": \"0020\", \"step\": 2, "
		"\"lines\": [\"6.1\"], \"reason\": \"errno EBUSY\"}, "
		"{\"patch\": \"0005-net-dsa-loop-add-MDB-offload.patch\", "
		"\"step\": 1, \"incident\": \"^BUG: \"}], \"boots\": ["
		"{\"end\": \"poweroff\", \"steps\": [{\"kind\": \"sleep\", "
		"\"ms\": 1}]}, {\"steps\": [{\"kind\": \"sleep\", \"ms\": 1}, "
		"{\"kind\": \"sleep\", \"ms\": 1}]}]}";
	static const char twice[] =
		"{\"description\": \"d\", \"seed\": \"none\", "
		"\"bites\": [{\"patch\": \"0005\", \"step\": 0, \"reason\": \"x\"}, "
		"{\"patch\": \"0009\", \"step\": 0, \"reason\": \"x\"}, "
		"{\"patch\": \"0005-net-dsa-loop-add-MDB-offload.patch\", "
		"\"step\": 0, \"reason\": \"x\"}], \"steps\": [{\"kind\": \"sleep\", \"ms\": 1}]}";
	struct scn_errors errs = { 0 };
	struct scenario s[1];
	struct scn_set set = { .v = s, .n = 1 };
	static const char no_line[] =
		"{\"description\": \"d\", \"seed\": \"none\", "
		"\"bites\": [{\"patch\": \"0020\", \"step\": 0, \"reason\": \"x\"}], "
		"\"steps\": [{\"kind\": \"sleep\", \"ms\": 1}]}";
	char *path = tmp_file(text), *path2 = tmp_file(twice),
	     *path3 = tmp_file(no_line);
	int r;

	r = scn_load_file(path, "gen/bites", &s[0], &errs);
	is_int(r, 0, "bites with boots: loads");
	for (size_t i = 0; i < errs.n; i++)
		printf("# %s\n", errs.msgs[i]);
	if (r == 0) {
		is_int(s[0].nbites, 2, "bites: two entries");
		is_str(s[0].bites[0].patch, "0020", "bites: patch as written");
		ok(s[0].bites[0].step == 2 && s[0].bites[1].step == 1,
		   "bites: one step each, numbered across the boots");
		is_str(s[0].bites[0].reason, "errno EBUSY",
		       "bites: the reason as written");
		ok(!s[0].bites[0].incident, "bites: a reason, no incident");
		is_str(s[0].bites[1].incident, "^BUG: ",
		       "bites: the incident title regex as written");
		ok(!s[0].bites[1].reason, "bites: an incident, no reason");
		is_int(bites_resolve(&set, VLALAB_SRCDIR "/kernel", &errs), 0,
		       "bites_resolve: both patches are in the series");
		ok(strncmp(s[0].bites[0].patch, "0020-", 5) == 0 &&
			   strstr(s[0].bites[0].patch, ".patch"),
		   "bites_resolve: 0020 became its file name");
		ok(s[0].bites[0].nlines == 1 &&
			   bites_on_line(&s[0].bites[0], "6.1") &&
			   !bites_on_line(&s[0].bites[0], "6.12"),
		   "bites: 0020's lines: 6.1 only");
		ok(bites_on_line(&s[0].bites[1], "6.1") &&
			   bites_on_line(&s[0].bites[1], "6.12"),
		   "bites: no lines: every line");
		scn_free(&s[0]);
	}
	r = scn_load_file(path3, "gen/bites-no-line", &s[0], &errs);
	is_int(r, 0, "bites: 0020 on every line: the validator cannot tell");
	if (r == 0) {
		char *want = xasprintf(
			"%s: $.bites[0].patch: on line 6.12: '0020' is not a patch of the series (series: ",
			path3);

		is_int(bites_resolve(&set, VLALAB_SRCDIR "/kernel", &errs),
		       -EINVAL, "bites_resolve: 0020 on 6.12 refused");
		ok(errs.n == 1 && strncmp(errs.msgs[0], want, strlen(want)) == 0 &&
			   strstr(errs.msgs[0], "\"lines\" names the lines it is for"),
		   "bites_resolve: not in 6.12's series, and where to say the lines");
		free(want);
		scn_errors_free(&errs);
		scn_free(&s[0]);
	}
	r = scn_load_file(path2, "gen/bites-twice", &s[0], &errs);
	is_int(r, 0, "bites in two spellings: the validator cannot tell");
	if (r == 0) {
		char *want = xasprintf("%s: $.bites[1].patch: on line 6.1: '0009' is not a patch of the series (series: ", path2);
		char *want2 = xasprintf("%s: $.bites[2].patch: '0005-net-dsa-loop-add-MDB-offload.patch' is declared twice (also $.bites[0])", path2);

		is_int(bites_resolve(&set, VLALAB_SRCDIR "/kernel", &errs),
		       -EINVAL, "bites_resolve: refused");
		is_int(errs.n, 2, "bites_resolve: two errors");
		ok(errs.n == 2 && strncmp(errs.msgs[0], want, strlen(want)) == 0,
		   "bites_resolve: an unknown patch names the file and path");
		is_str(errs.n == 2 ? errs.msgs[1] : "", want2,
		       "bites_resolve: the same patch twice");
		free(want);
		free(want2);
		scn_free(&s[0]);
	}
	scn_errors_free(&errs);
	unlink(path);
	unlink(path2);
	unlink(path3);
	free(path);
	free(path2);
	free(path3);
}

int main(int argc, char *argv[])
{
	scn_test_args(argc, argv);
	test_bites();
	return tap_done();
}
