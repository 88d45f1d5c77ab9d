// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl list (cli/verb-list.c), run in this process on data/good and
 * data/layout: its table, its errors and suggestions, --help, and
 * --bites against the repository's series.
 *
 * Usage: test-verb-list DATA_DIR SCENARIOS_DIR FIXTURES_DIR (TAP on stdout).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scn-test.h"
#include "tap.h"

int verb_list(int argc, char *argv[]);

/* Run verb_list with @argv and capture its exit code, stdout and stderr. */
static int run_list(char **argv, int argc, char **ret_out, char **ret_err)
{
	char out_path[] = "/tmp/vlalab-test-list-XXXXXX";
	char err_path[] = "/tmp/vlalab-test-list-XXXXXX";
	int out_fd = mkstemp(out_path), err_fd = mkstemp(err_path);
	int save_out = dup(1), save_err = dup(2), code;
	char buf[8192];
	ssize_t n;

	fflush(stdout);
	fflush(stderr);
	dup2(out_fd, 1);
	dup2(err_fd, 2);
	code = verb_list(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(save_out, 1);
	dup2(save_err, 2);
	close(save_out);
	close(save_err);
	n = pread(out_fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	*ret_out = strdup(buf);
	n = pread(err_fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	*ret_err = strdup(buf);
	close(out_fd);
	close(err_fd);
	unlink(out_path);
	unlink(err_path);
	return code;
}

/* hostctl list --bites against the repository's series. */
static void test_verb_list_bites(void)
{
	char *dir = xasprintf("%s/bites", data_dir);
	char *argv_all[] = { "list", "--scenarios", dir, "--bites", "all", NULL };
	char *argv_one[] = { "list", "--scenarios", dir, "--bites", "0005", NULL };
	char *argv_bad[] = { "list", "--scenarios", dir, "--bites", "0009", NULL };
	char *argv_612[] = { "list",  "--scenarios", dir, "--bites",
			     "all",   "--line",	     "6.12", NULL };
	char *argv_612_0020[] = { "list",  "--scenarios", dir, "--bites",
				  "0020",  "--line",	  "6.12", NULL };
	char *out, *err;

	is_int(run_list(argv_all, 5, &out, &err), 0, "list --bites all: exit 0");
	is_str(out,
	       "0020-PM-hibernate-Fix-the-exclusive-get-block-device-in-test_resume-mode.patch area/one 1\n"
	       "0005-net-dsa-loop-add-MDB-offload.patch area/one 0\n",
	       "list --bites all: patch file name, scenario, the declared step");
	free(out);
	free(err);
	is_int(run_list(argv_one, 5, &out, &err), 0, "list --bites 0005: exit 0");
	is_str(out, "0005-net-dsa-loop-add-MDB-offload.patch area/one 0\n",
	       "list --bites 0005: that patch only");
	free(out);
	free(err);
	is_int(run_list(argv_bad, 5, &out, &err), 2, "list --bites 0009: exit 2");
	ok(strncmp(err, "hostctl list: --bites: '0009' is not a patch of the series (series: ", 68) == 0,
	   "list --bites 0009: says it is not in the series");
	free(out);
	free(err);
	is_int(run_list(argv_612, 7, &out, &err), 0,
	       "list --bites all --line 6.12: exit 0");
	is_str(out, "0005-net-dsa-loop-add-MDB-offload.patch area/one 0\n",
	       "list --bites all --line 6.12: 0020's bite is 6.1's only");
	free(out);
	free(err);
	is_int(run_list(argv_612_0020, 7, &out, &err), 2,
	       "list --bites 0020 --line 6.12: exit 2");
	ok(strstr(err, "'0020' is not a patch of the series") != NULL,
	   "list --bites 0020 --line 6.12: not in 6.12's series");
	free(out);
	free(err);
	free(dir);
}

static void test_verb_list(void)
{
	char *good = xasprintf("%s/good", data_dir);
	char *layout = xasprintf("%s/layout", data_dir);
	char *argv_good[] = { "list", "--scenarios", good, NULL };
	char *argv_bad[] = { "list", "--scenarios", layout, NULL };
	char *argv_extra[] = { "list", "--scenarios", good, "alpha", NULL };
	char *argv_glob[] = { "list", "--scenarios", good, "alpha/*", NULL };
	char *argv_help[] = { "list", "--help", NULL };
	char *out, *err, *want;

	is_int(run_list(argv_good, 3, &out, &err), 0, "list data/good: exit 0");
	is_str(out,
	       "alpha/one             none  The smallest scenario: one step, every default\n"
	       "alpha/two             004   Requires, timeouts and named steps\n"
	       "beta/every-kind       001   Every step kind with every key it takes\n"
	       "gamma/cached-filter   002   Selection fixture\n"
	       "gamma/cached-notrace  003   Selection fixture\n",
	       "list data/good: output");
	is_str(err, "", "list data/good: nothing on stderr");
	free(out);
	free(err);

	is_int(run_list(argv_bad, 3, &out, &err), 2, "list data/layout: exit 2");
	is_str(out, "", "list data/layout: nothing on stdout");
	want = xasprintf("hostctl list: 6 errors in the scenarios in '%s'\n", layout);
	ok(strstr(err, "/ok/broken.json: line 1, column 28: not valid JSON") &&
	   strstr(err, "/README.md: not an area directory") &&
	   strstr(err, want), "list data/layout: every error and a count on stderr");
	free(want);
	free(out);
	free(err);

	is_int(run_list(argv_glob, 4, &out, &err), 0, "list alpha/*: exit 0");
	is_str(out,
	       "alpha/one  none  The smallest scenario: one step, every default\n"
	       "alpha/two  004   Requires, timeouts and named steps\n",
	       "list alpha/*: the scenarios the glob selects");
	free(out);
	free(err);
	is_int(run_list(argv_extra, 4, &out, &err), 2, "list alpha: exit 2");
	is_str(err,
	       "hostctl list: unknown scenario 'alpha'; did you mean: 'alpha/*', alpha/one, alpha/two?\n",
	       "list alpha: the area's glob first among the suggestions");
	free(out);
	free(err);
	is_int(run_list(argv_help, 2, &out, &err), 0, "list --help: exit 0");
	ok(strstr(out, "Usage: hostctl list [--scenarios DIR]") != NULL, "list --help: usage");
	free(out);
	free(err);
	free(good);
	free(layout);
	test_verb_list_bites();
}

int main(int argc, char *argv[])
{
	scn_test_args(argc, argv);
	test_verb_list();
	return tap_done();
}
