// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a valid scenario file fills in (scenario-fill.c): defaults and
 * step lists, expect_incident and xfail, the cleanup list, the boots, the
 * cut of repro --until-step, and the run request's bytes (bootcheck.c).
 *
 * Usage: test-scenario-fill DATA_DIR SCENARIOS_DIR FIXTURES_DIR (TAP on stdout).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "scenario/bootcheck.h"
#include "scenario/scenario.h"
#include "scn-test.h"
#include "tap.h"

static void test_good_set(void)
{
	struct scn_errors errs = { 0 };
	struct scn_set set = { 0 };
	char *dir = xasprintf("%s/good", data_dir);
	const struct scenario *s;
	int r;

	r = scn_load_dir(dir, &set, &errs);
	is_int(r, 0, "data/good loads");
	is_int(errs.n, 0, "data/good has no errors");
	for (size_t i = 0; i < errs.n; i++)
		printf("# %s\n", errs.msgs[i]);
	is_int(set.n, 5, "data/good has 5 scenarios");
	if (set.n != 5)
		goto out;
	is_str(set.v[0].name, "alpha/one", "sorted: 0");
	is_str(set.v[1].name, "alpha/two", "sorted: 1");
	is_str(set.v[2].name, "beta/every-kind", "sorted: 2");
	is_str(set.v[3].name, "gamma/cached-filter", "sorted: 3");
	is_str(set.v[4].name, "gamma/cached-notrace", "sorted: 4");

	s = &set.v[0];
	is_str(s->seed, "none", "one: seed");
	is_int(s->timeout_ms, 60000, "one: default timeout_ms");
	is_int(s->step_timeout_ms, 10000, "one: default step_timeout_ms");
	is_int(s->n_req_config + s->n_req_modules, 0, "one: no requires");
	is_int(s->nsteps, 1, "one: 1 step");
	is_str(s->steps[0].kind, "sleep", "one: step kind");
	is_str(s->steps[0].name, "", "one: step has no name");
	is_int(s->steps[0].timeout_ms, 10000, "one: step timeout filled in");
	is_str(list_text(s->run_steps), "[{\"kind\":\"sleep\",\"ms\":1,\"timeout_ms\":10000}]",
	       "one: run_steps");
	ok(strstr(s->path, "/good/alpha/one.json") != NULL, "one: path");

	s = &set.v[1];
	is_str(s->description, "Requires, timeouts and named steps", "two: description");
	is_str(s->seed, "004", "two: seed");
	is_int(s->timeout_ms, 120000, "two: timeout_ms");
	is_int(s->step_timeout_ms, 5000, "two: step_timeout_ms");
	is_int(s->n_req_config, 2, "two: 2 config options");
	is_str(s->req_config[1], "CONFIG_MODULES", "two: config option");
	is_int(s->n_req_modules, 1, "two: 1 module");
	is_str(s->req_modules[0], "trace_printk", "two: module");
	is_str(s->steps[0].name, "clear", "two: step name");
	is_int(s->steps[0].timeout_ms, 5000, "two: step 0 inherits step_timeout_ms");
	is_int(s->steps[1].timeout_ms, 700, "two: step 1 keeps its own");
	/* Slashes unescaped, "\n" escaped, timeout_ms added at the end. */
	is_str(list_text(s->run_steps),
	       "[{\"kind\":\"write\",\"name\":\"clear\",\"path\":\"/sys/kernel/tracing/set_ftrace_filter\",\"value\":\"\\n\",\"timeout_ms\":5000},"
	       "{\"kind\":\"read\",\"name\":\"empty\",\"path\":\"/sys/kernel/tracing/set_ftrace_filter\",\"equals\":\"#### all functions enabled ####\",\"timeout_ms\":700}]",
	       "two: run_steps");

	s = &set.v[2];
	is_int(s->nsteps, 9, "every-kind: 9 steps");
	{
		static const char *const kinds[] = { "write", "read", "modprobe",
			"rmmod", "wait_for", "kmsg_expect", "sleep", "sample",
			"delta" };

		for (size_t i = 0; i < 9 && i < s->nsteps; i++)
			is_str(s->steps[i].kind, kinds[i], "every-kind: kind");
	}
	ok(s->run_steps && json_object_is_type(s->run_steps, json_type_array) &&
	   json_object_array_length(s->run_steps) == 9,
	   "every-kind: run_steps holds them");
out:
	scn_set_free(&set);
	scn_errors_free(&errs);
	free(dir);
}

/* expect_incident and xfail in a scenario with boots: the step is
 * numbered across the boots. */
static void test_incident_boots(struct scn_errors *errs)
{
	static const char text[] =
		"{\"description\": \"d\", \"seed\": \"none\", "
		"\"xfail\": \"a known gap\", "
		"\"expect_incident\": {\"kind\": \"panic\", "
		"\"survives\": false, \"step\": \"provoke\"}, \"boots\": ["
		"{\"end\": \"poweroff\", \"steps\": [{\"kind\": \"sleep\", "
		"\"name\": \"settle\", \"ms\": 1}]}, "
		"{\"steps\": [{\"kind\": \"sleep\", \"ms\": 1}, "
		"{\"kind\": \"write\", \"name\": \"provoke\", "
		"\"path\": \"/x\", \"value\": \"1\"}]}]}";
	struct scenario s;
	char *path = tmp_file(text);
	int r;

	r = scn_load_file(path, "gen/incident-boots", &s, errs);
	is_int(r, 0, "boots + expect_incident + xfail: loads");
	for (size_t i = 0; i < errs->n; i++)
		printf("# %s\n", errs->msgs[i]);
	if (r == 0) {
		ok(s.expect.set && !s.expect.survives,
		   "boots: expect_incident set");
		is_int(s.expect.step, 2, "boots: step index across the boots");
		is_str(s.xfail ? s.xfail : "(null)", "a known gap",
		       "boots: xfail reason");
		scn_free(&s);
	}
	unlink(path);
	free(path);
}

/* A valid expect_incident and xfail fill struct scenario. */
static void test_incident(void)
{
	static const char text[] =
		"{\"description\": \"d\", \"seed\": \"none\", "
		"\"xfail\": \"CFI needs clang\", "
		"\"expect_incident\": {\"kind\": \"oops\", "
		"\"title\": \"^BUG: .* in lkdtm_\", \"survives\": true, "
		"\"step\": \"provoke\"}, \"steps\": ["
		"{\"kind\": \"sleep\", \"name\": \"settle\", \"ms\": 1}, "
		"{\"kind\": \"write\", \"name\": \"provoke\", "
		"\"path\": \"/x\", \"value\": \"1\"}]}";
	static const char plain[] =
		"{\"description\": \"d\", \"seed\": \"none\", "
		"\"expect_incident\": {\"kind\": \"panic\", "
		"\"survives\": false}, \"steps\": ["
		"{\"kind\": \"sleep\", \"ms\": 1}]}";
	struct scn_errors errs = { 0 };
	struct scenario s;
	char *path = tmp_file(text);
	int r;

	r = scn_load_file(path, "gen/incident", &s, &errs);
	is_int(r, 0, "expect_incident + xfail: loads");
	for (size_t i = 0; i < errs.n; i++)
		printf("# %s\n", errs.msgs[i]);
	if (r == 0) {
		ok(s.expect.set, "expect_incident: set");
		is_str(s.expect.kind, "oops", "expect_incident: kind");
		is_str(s.expect.title ? s.expect.title : "(null)",
		       "^BUG: .* in lkdtm_", "expect_incident: title");
		ok(s.expect.survives, "expect_incident: survives");
		is_int(s.expect.step, 1, "expect_incident: step index");
		is_str(s.xfail ? s.xfail : "(null)", "CFI needs clang",
		       "xfail: reason");
		/* Neither key goes to the guest. */
		ok(!strstr(list_text(s.run_steps), "incident") &&
			   !strstr(list_text(s.run_steps), "xfail"),
		   "run_steps holds neither key");
		scn_free(&s);
	}
	unlink(path);
	free(path);

	path = tmp_file(plain);
	r = scn_load_file(path, "gen/plain", &s, &errs);
	is_int(r, 0, "expect_incident without title or step: loads");
	if (r == 0) {
		ok(s.expect.set && !s.expect.survives && !s.expect.title,
		   "no title: any title; survives false");
		is_int(s.expect.step, -1, "no step: any step");
		ok(!s.xfail, "no xfail");
		scn_free(&s);
	}
	unlink(path);
	free(path);
	test_incident_boots(&errs);
	scn_errors_free(&errs);
}

/* A cleanup list: its steps after the main ones, its JSON and bound. */
static void test_cleanup_fill(void)
{
	struct scn_errors errs = { 0 };
	struct scenario s;
	char *line = NULL;
	size_t len;
	char *path = tmp_file(
		"{\"description\": \"cleanup\", \"seed\": \"none\","
		" \"step_timeout_ms\": 2000,"
		" \"steps\": [{\"kind\": \"sleep\", \"ms\": 1},"
		" {\"kind\": \"sleep\", \"ms\": 2}],"
		" \"cleanup\": [{\"kind\": \"link_del\", \"name\": \"delete br0\","
		" \"dev\": \"br0\", \"if_exists\": \"/sys/class/net/br0\"}]}");
	int r;

	r = scn_load_file(path, "a/cleanup", &s, &errs);
	is_int(r, 0, "cleanup: loads");
	for (size_t i = 0; i < errs.n; i++)
		printf("# %s\n", errs.msgs[i]);
	if (r < 0)
		goto out;
	ok(s.nsteps == 2 && s.ncleanup == 1, "cleanup: 2 steps and 1 cleanup step");
	is_str(s.steps[2].kind, "link_del", "cleanup: its steps follow the main ones");
	is_str(s.steps[2].name, "delete br0", "cleanup: with their names");
	is_int(s.steps[2].timeout_ms, 2000, "cleanup: and step_timeout_ms");
	is_int(s.cleanup_timeout_ms, SCN_CLEANUP_TIMEOUT_DEFAULT_MS,
	       "cleanup: the default cleanup_timeout_ms");
	is_str(list_text(s.run_cleanup),
	       "[{\"kind\":\"link_del\",\"name\":\"delete br0\",\"dev\":\"br0\","
	       "\"if_exists\":\"/sys/class/net/br0\",\"timeout_ms\":2000}]",
	       "cleanup: run_cleanup");
	is_int(boots_run_encode(&s, 0, &line, &len), 0,
	       "cleanup: the run request encodes");
	ok(line && strstr(line, ",\"cleanup\":[{\"kind\":\"link_del\"") &&
	   strstr(line, "\"cleanup_timeout_ms\":30000}"),
	   "cleanup: the request carries the list and its bound");
	free(line);
	scn_free(&s);
out:
	scn_errors_free(&errs);
	unlink(path);
	free(path);
}

/* With boots too, where a cleanup list is refused: [] is as none. */
static void test_cleanup_empty_boots(void)
{
	struct scn_errors errs = { 0 };
	struct scenario s;
	char *file = xasprintf("%s/hibernate/memory-map.json", shipped_dir);
	char *text = NULL, *path;
	size_t len = 0;
	FILE *f = fopen(file, "r");
	int r = -1;

	if (f) {
		text = calloc(1, 1 << 20);
		len = text ? fread(text, 1, (1 << 20) - 1, f) : 0;
		fclose(f);
	}
	ok(len > 0 && text[0] == '{', "cleanup [] with boots: the fixture");
	if (len > 0 && text[0] == '{') {
		char *with = xasprintf("{\"cleanup\": [], %s", text + 1);

		path = tmp_file(with);
		r = scn_load_file(path, "hibernate/memory-map", &s, &errs);
		for (size_t i = 0; i < errs.n; i++)
			printf("# %s\n", errs.msgs[i]);
		unlink(path);
		free(path);
		free(with);
	}
	is_int(r, 0, "cleanup [] with boots: loads, as without the key");
	if (r == 0)
		scn_free(&s);
	scn_errors_free(&errs);
	free(text);
	free(file);
}

/* "cleanup": [] is no cleanup, as when the key is absent. */
static void test_cleanup_empty(void)
{
	struct scn_errors errs = { 0 };
	struct scenario s;
	char *path = tmp_file("{\"description\": \"cleanup\", \"seed\": \"none\","
			      " \"steps\": [{\"kind\": \"sleep\", \"ms\": 1}],"
			      " \"cleanup\": []}");
	int r;

	r = scn_load_file(path, "a/cleanup-empty", &s, &errs);
	is_int(r, 0, "cleanup []: loads");
	for (size_t i = 0; i < errs.n; i++)
		printf("# %s\n", errs.msgs[i]);
	if (r == 0) {
		ok(s.nsteps == 1 && s.ncleanup == 0 && !s.run_cleanup,
		   "cleanup []: no cleanup steps, no cleanup list");
		scn_free(&s);
	}
	scn_errors_free(&errs);
	unlink(path);
	free(path);
	test_cleanup_empty_boots();
}

/* What a multi-boot file fills in: slices, defaults, the VM parameters. */
static void test_boots_fill(void)
{
	struct scn_errors errs = { 0 };
	struct scenario s;
	char *path = xasprintf("%s/hibernate/memory-map.json", shipped_dir);
	int r;

	r = scn_load_file(path, "hibernate/memory-map", &s, &errs);
	is_int(r, 0, "boots: hibernate/memory-map loads");
	if (r < 0) {
		free(path);
		scn_errors_free(&errs);
		return;
	}
	ok(s.has_disk && s.disk.size_mib == 1024 &&
	   s.disk.format == SCN_DISK_RAW, "boots: the persistent disk");
	is_int(s.nboots, 2, "boots: two");
	is_int(s.nsteps, s.boots[0].nsteps + s.boots[1].nsteps,
	       "boots: steps[] holds every boot's steps");
	is_int(s.boots[1].first_step, s.boots[0].nsteps,
	       "boots: boot 1's slice follows boot 0's");
	ok(s.run_steps == NULL, "boots: no single run request");
	ok(s.boots[0].end == SCN_END_POWEROFF &&
	   s.boots[1].end == SCN_END_RUNNING, "boots: their ends");
	ok(s.boots[0].resumed == SCN_RESUMED_ANY &&
	   s.boots[1].resumed == SCN_RESUMED_NO, "boots: resumed");
	ok(s.boots[0].memory_mib == 512 && s.boots[1].memory_mib == 768,
	   "boots: memory");
	is_str(s.boots[1].machine, "", "boots: no machine: the run's");
	ok(s.boots[1].n_kernel_args == 3 &&
	   strcmp(s.boots[1].kernel_args[2], "resume=/dev/vda") == 0,
	   "boots: kernel arguments in order");
	is_int(s.boots[0].timeout_ms, s.timeout_ms,
	       "boots: a boot's timeout defaults to the scenario's");
	ok(strstr(list_text(s.boots[0].run_steps), "\"timeout_ms\":600000") &&
	   strstr(list_text(s.boots[1].run_steps), "\"timeout_ms\":30000"),
	   "boots: every step's timeout filled in");
	is_str(s.steps[s.boots[1].first_step].kind, "kmsg_expect",
	       "boots: boot 1 starts with its own first step");
	scn_free(&s);
	scn_errors_free(&errs);
	free(path);
}

/* hostctl repro --until-step: the steps cut, no cleanup list. */
static void test_truncate(void)
{
	struct scn_errors errs = { 0 };
	char *path = xasprintf("%s/ftrace/cached-filter.json", shipped_dir);
	struct json_object *steps;
	struct scenario s;
	size_t n0;
	int r;

	r = scn_load_file(path, "ftrace/cached-filter", &s, &errs);
	is_int(r, 0, "cached-filter loads");
	if (r < 0)
		goto out;
	n0 = s.nsteps;
	ok(n0 > 4 && s.ncleanup > 0 && s.run_cleanup,
	   "it has more than 4 steps and a cleanup list");
	is_int(scn_truncate(&s, 0), -ERANGE, "0 steps refused");
	is_int(scn_truncate(&s, n0 + 1), -ERANGE, "past the last step refused");
	is_int(scn_truncate(&s, 4), 0, "cut to 4 steps");
	is_int(s.nsteps, 4, "nsteps is 4");
	ok(s.ncleanup == 0 && !s.run_cleanup, "no cleanup list left");
	steps = s.run_steps;
	ok(steps && json_object_array_length(steps) == 4,
	   "the run request's steps are the first 4");
	ok(steps && strstr(json_object_get_string(json_object_array_get_idx(
				   steps, 3)),
			   "*:mod:trace_printk"),
	   "the 4th is the cached filter's write");
	scn_free(&s);
out:
	scn_errors_free(&errs);
	free(path);
}

/* repro --until-step: a cut ends in the boot that holds the step. */
static void test_truncate_boots(void)
{
	static const char text[] =
		"{\"description\": \"d\", \"seed\": \"none\", \"boots\": ["
		"{\"end\": \"poweroff\", \"steps\": [{\"kind\": \"sleep\", "
		"\"ms\": 1}, {\"kind\": \"sleep\", \"ms\": 2}]}, "
		"{\"end\": \"reboot\", \"steps\": [{\"kind\": \"sleep\", "
		"\"ms\": 3}, {\"kind\": \"sleep\", \"ms\": 4}]}, "
		"{\"steps\": [{\"kind\": \"sleep\", \"ms\": 5}]}]}";
	struct scn_errors errs = { 0 };
	struct scenario s;
	char *path = tmp_file(text);
	int r;

	r = scn_load_file(path, "gen/truncate-boots", &s, &errs);
	is_int(r, 0, "three boots: loads");
	for (size_t i = 0; i < errs.n; i++)
		printf("# %s\n", errs.msgs[i]);
	if (r < 0)
		goto out;
	is_int(scn_truncate(&s, 6), -ERANGE, "a step past the last: refused");
	is_int(scn_truncate(&s, 3), 0, "cut at step 3, boot 2's first");
	is_int(s.nboots, 2, "boots after the one with step 3 are gone");
	is_int(s.nsteps, 3, "three steps left");
	is_int(s.boots[1].nsteps, 1, "boot 2 keeps one step");
	ok(s.boots[1].end == SCN_END_RUNNING,
	   "boot 2 ends with its guest running, not its reboot");
	ok(s.boots[0].end == SCN_END_POWEROFF && s.boots[0].nsteps == 2,
	   "boot 1 is whole, its poweroff too");
	ok(s.boots[1].run_steps && strstr(list_text(s.boots[1].run_steps), "3") &&
		   !strstr(list_text(s.boots[1].run_steps), "4"),
	   "boot 2's step list is cut");
	scn_free(&s);
out:
	scn_errors_free(&errs);
	free(path);
}

/*
 * The bytes guestd gets: the run request of each boot of
 * data/request/<stem>.json, against data/request/<stem>.<k>.line (the
 * request as encoded before the steps became json_objects: key order,
 * escapes, the timeouts filled in, all byte for byte).
 */
static void check_request(const char *stem, size_t nboots)
{
	struct scn_errors errs = { 0 };
	struct scenario s;
	char *path = xasprintf("%s/request/%s.json", data_dir, stem);
	char *name = xasprintf("request/%s", stem);
	int r;

	r = scn_load_file(path, name, &s, &errs);
	is_int(r, 0, path);
	for (size_t i = 0; i < errs.n; i++)
		printf("# %s\n", errs.msgs[i]);
	for (size_t k = 0; r == 0 && k < nboots; k++) {
		char *want_path = xasprintf("%s/request/%s.%zu.line", data_dir,
					    stem, k);
		char *label = xasprintf("request/%s: boot %zu's request", stem,
					k);
		char want[PROTO_LINE_MAX], *line = NULL;
		size_t len = 0, wlen = 0;
		FILE *f = fopen(want_path, "r");

		if (f) {
			wlen = fread(want, 1, sizeof(want) - 1, f);
			fclose(f);
		}
		want[wlen] = '\0';
		if (boots_run_encode(&s, k, &line, &len) < 0)
			line = NULL;
		is_str(line ? line : "(no request)", want, label);
		free(line);
		free(want_path);
		free(label);
	}
	if (r == 0)
		scn_free(&s);
	scn_errors_free(&errs);
	free(path);
	free(name);
}

static void test_request_bytes(void)
{
	check_request("all", 1);
	check_request("boots", 2);
}

int main(int argc, char *argv[])
{
	scn_test_args(argc, argv);
	test_incident();
	test_truncate_boots();
	test_good_set();
	test_boots_fill();
	test_cleanup_fill();
	test_cleanup_empty();
	test_truncate();
	test_request_bytes();
	return tap_done();
}
