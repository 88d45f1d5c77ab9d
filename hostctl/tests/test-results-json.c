// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary.json both ways (hostctl/results/results-json.c): a run with
 * every optional part written and read back to the same text, what reading
 * fills in for what was not written, and the reason given for each kind of
 * bad field.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"
#include "tap.h"

/* A run with every field summary.json can hold, some left unwritten. */
static void full_run(struct res_run *run)
{
	struct res_step steps[4];
	struct res_boot boots[2];
	struct res_scenario sc[3];
	struct res_incident inc;
	char *leaks[2];

	memset(run, 0, sizeof(*run));
	snprintf(run->run_id, sizeof(run->run_id), "20261203-183500-1");
	snprintf(run->accelerator, sizeof(run->accelerator), "kvm");
	run->complete = RES_COMPLETE_NO;
	run->kernel = json_tokener_parse("{ \"flavour\": \"patched\" }");

	steps[0] = (struct res_step){ .index = 0,
				      .kind = "write",
				      .name = "hibernate",
				      .ran = true,
				      .verdict = VERDICT_PASS,
				      .duration_us = 41,
				      .boot = 0 };
	steps[1] =
		(struct res_step){ .index = 1, .kind = "read", .ran = false };
	steps[2] = (struct res_step){ .index = 2,
				      .kind = "marker",
				      .name = "same",
				      .ran = true,
				      .verdict = VERDICT_FAIL,
				      .boot = 1,
				      .expected = strdup("a/b \"q\""),
				      .got = strdup("x\ny") };
	steps[3] = (struct res_step){ .index = 3,
				      .kind = "rmmod",
				      .ran = true,
				      .verdict = VERDICT_ERROR,
				      .boot = 1,
				      .cleanup = true,
				      .reason = strdup("EBUSY") };
	boots[0] = (struct res_boot){ .index = 0,
				      .vm = "vm1",
				      .memory_mib = 512,
				      .machine = "pc",
				      .expected_end = "poweroff",
				      .ended = "poweroff",
				      .resumed = -1 };
	boots[1] = (struct res_boot){ .index = 1,
				      .vm = "vm2",
				      .memory_mib = 768,
				      .machine = "q35",
				      .expected_end = "running",
				      .ended = "running",
				      .resumed = 1 };
	inc = (struct res_incident){ .kind = "warning",
				     .title = "WARNING in f",
				     .guilty = "f",
				     .fatal = false,
				     .corrupted = true,
				     .ts = 3.25,
				     .step = 2,
				     .after_step = true,
				     .summary =
					     "a/boots step 2 -> WARNING in f",
				     .bundle = "bundle-vm2-1" };
	leaks[0] = strdup("leak: a link 'br0' is left");
	leaks[1] = strdup("leak: taint 512");

	sc[0] = (struct res_scenario){ .name = "a/boots",
				       .done = true,
				       .verdict = VERDICT_FAIL,
				       .duration_ms = 12345,
				       .wall_ms = 4321,
				       .steps = steps,
				       .nsteps = 4,
				       .ncleanup = 1,
				       .nboots = 2 };
	sc[0].boots = malloc(sizeof(boots));
	memcpy(sc[0].boots, boots, sizeof(boots));
	sc[0].reason = strdup("boot 1: it did not resume");
	sc[0].incidents = malloc(sizeof(inc));
	*sc[0].incidents = inc;
	sc[0].incidents->bundle = strdup(inc.bundle);
	sc[0].nincidents = 1;
	sc[0].events_cut_bytes = 4096;
	sc[0].kmsg_dropped = 7;
	sc[0].console_cut_bytes = 65536;
	sc[0].leaks = malloc(sizeof(leaks));
	memcpy(sc[0].leaks, leaks, sizeof(leaks));
	sc[0].nleaks = 2;
	sc[0].steps = malloc(sizeof(steps));
	memcpy(sc[0].steps, steps, sizeof(steps));
	res_scenario_finish(&sc[0], VERDICT_FAIL, "boot 1: it did not resume");

	sc[1] = (struct res_scenario){ .name = "b/shared",
				       .done = true,
				       .verdict = VERDICT_PASS,
				       .vm = "vm3",
				       .host = "qemu+tcp://127.0.0.1/system" };
	sc[1].fresh_vm = strdup("the first scenario of the run");
	sc[2] = (struct res_scenario){ .name = "c/reused",
				       .done = true,
				       .verdict = VERDICT_XPASS,
				       .vm = "vm3",
				       .host = "embedded" };
	sc[2].boots = calloc(1, sizeof(*sc[2].boots));
	run->v = malloc(sizeof(sc));
	memcpy(run->v, sc, sizeof(sc));
	run->n = 3;
}

static void test_round_trip(void)
{
	struct res_run run, back = { 0 };
	char *a = NULL, *b = NULL, err[256] = "";
	const struct res_scenario *sc;

	full_run(&run);
	is_int(res_summary_json(&run, &a), 0, "written");
	is_int(res_run_from_json(a, &back, err, sizeof(err)), 0, "read back");
	if (!a || back.n != 3) {
		ok(0, "nothing to compare");
		return;
	}
	is_int(res_summary_json(&back, &b), 0, "written again");
	is_str(b, a, "the same text");

	sc = &back.v[0];
	is_int(sc->nsteps, 4, "every step, the one that did not run too");
	ok(sc->steps[0].ran && sc->steps[2].ran && sc->steps[3].ran,
	   "read steps ran");
	ok(!sc->steps[1].ran && sc->steps[1].index == 1 &&
		   !strcmp(sc->steps[1].kind, "read") && !sc->steps[1].got,
	   "the unbegun step, in its place, not ran");
	ok(strstr(a, "\"steps_not_run\": [\n        {\n          \"index\": 1,\n"
		     "          \"kind\": \"read\",\n          \"name\": \"\",\n"
		     "          \"boot\": 0\n        }\n      ],") != NULL,
	   "steps_not_run written: index, kind, name, boot");
	is_int(sc->steps[2].index, 2, "by its index");
	is_int(sc->steps[2].boot, 1, "its boot");
	ok(!sc->steps[0].expected, "\"\" reads as NULL");
	is_str(sc->steps[2].got, "x\ny", "a string with a newline");
	ok(sc->steps[3].cleanup && !sc->steps[2].cleanup, "cleanup marks");
	is_int(sc->ncleanup, 1, "ncleanup counted from the marks");
	ok(sc->has_cleanup && sc->cleanup_failed, "the cleanup failed");
	is_int(sc->cleanup_step, 3, "at step 3");
	is_str(sc->cleanup_reason, "step 4 (rmmod): error: EBUSY", "and why");
	is_int(sc->boots[0].resumed, -1, "no resumed: -1");
	is_int(sc->boots[1].resumed, 1, "resumed: true");
	is_int(sc->boots[1].memory_mib, 768, "memory_mib");
	is_int(sc->nincidents, 1, "the incident");
	ok(sc->incidents[0].ts == 3.25 && sc->incidents[0].corrupted &&
		   sc->incidents[0].after_step && sc->incidents[0].step == 2,
	   "its numbers and flags");
	is_str(sc->incidents[0].bundle, "bundle-vm2-1", "its bundle");
	is_int(sc->nleaks, 2, "the leaks");
	is_str(sc->leaks[1], "leak: taint 512", "in order");
	ok(!sc->vm[0] && !sc->fresh_vm, "no vm, no fresh_vm");
	ok(sc->done, "read scenarios are done");
	is_int(back.v[0].wall_ms, 4321, "wall_ms read back");
	is_int(back.v[1].wall_ms, 0, "...and none where it was not measured");
	ok(a && !strstr(strstr(a, "b/shared"), "wall_ms"),
	   "...nor written then");
	is_str(back.v[1].vm, "vm3", "vm");
	is_str(back.v[1].host, "qemu+tcp://127.0.0.1/system", "host: a URI");
	is_str(back.v[2].host, "embedded", "host: embedded");
	ok(!*back.v[0].host && strstr(a, "\"host\": \"embedded\"") &&
		   strstr(a, "\"host\"") == strstr(a, "\"host\": \"qemu+"),
	   "host written where set only");
	is_str(back.v[1].fresh_vm, "the first scenario of the run", "fresh_vm");
	ok(!back.v[1].has_cleanup && back.v[1].cleanup_step == -1,
	   "no cleanup list: cleanup_step -1");
	ok(!back.v[1].boots, "no boots: NULL");
	ok(back.v[2].boots && back.v[2].nboots == 0, "boots: [] is not NULL");
	ok(!back.v[2].fresh_vm, "fresh_vm: null");
	is_int(back.v[2].verdict, VERDICT_XPASS, "xpass reads back");
	is_str(back.run_id, "20261203-183500-1", "run_id");
	is_int(back.complete, RES_COMPLETE_NO, "complete: false");
	ok(!res_run_ok(&back), "an incomplete run is not ok");
	ok(strstr(a, "\"complete\": false,") != NULL, "complete written");
	is_int(back.v[0].events_cut_bytes, 4096, "events_cut_bytes");
	is_int(back.v[0].kmsg_dropped, 7, "kmsg_dropped");
	is_int(back.v[0].console_cut_bytes, 65536, "console_cut_bytes");
	ok(!back.v[1].events_cut_bytes && !strstr(a, "\"kmsg_dropped\": 0"),
	   "nothing lost: neither written");
	is_str(back.accelerator, "kvm", "accelerator");
	is_str(json_object_to_json_string(back.kernel),
	       "{ \"flavour\": \"patched\" }", "kernel, as it was");
	ok(strstr(a, "\"expected\": \"a/b \\\"q\\\"\"") != NULL,
	   "no escaped slash");
	ok(strstr(a, "\"ts\": 3.250000,") != NULL, "ts to the microsecond");
	ok(strstr(a, "\"fresh_vm\": null") != NULL, "fresh_vm: null written");
	ok(strstr(a, "\"kernel\": {") != NULL, "the kernel object");
	free(a);
	free(b);
	res_run_free(&run);
	res_run_free(&back);
}

static void test_empty(void)
{
	struct res_run run = { .run_id = "r" }, back = { 0 };
	char *a = NULL, err[256] = "";

	is_int(res_summary_json(&run, &a), 0, "an empty run");
	is_str(a,
	       "{\n  \"run_id\": \"r\",\n  \"accelerator\": \"\",\n"
	       "  \"kernel\": null,\n  \"scenarios\": [\n  ]\n}\n",
	       "its text");
	is_int(res_run_from_json(a, &back, err, sizeof(err)), 0, "read");
	ok(!back.kernel && back.n == 0, "kernel null, no scenarios");
	is_int(back.complete, RES_COMPLETE_UNKNOWN,
	       "no complete: unknown, as before the field");
	ok(res_run_ok(&back), "and it may be ok");
	free(a);
	res_run_free(&back);
}

/*
 * One scenario with one step, one boot, one incident, a leak and a
 * failed cleanup, in which each case below replaces one value.
 */
static const char base[] =
	"{ \"run_id\": \"r\", \"accelerator\": \"tcg\", \"kernel\": null,"
	" \"scenarios\": [ { \"name\": \"a/x\", \"verdict\": \"fail\","
	" \"duration_ms\": 5, \"reason\": \"\","
	" \"steps\": [ { \"index\": 0, \"kind\": \"read\", \"name\": \"\","
	" \"verdict\": \"pass\", \"duration_us\": 1, \"expected\": \"\","
	" \"got\": \"\", \"reason\": \"\", \"boot\": 0, \"cleanup\": true } ],"
	" \"cleanup_failed\": true, \"cleanup_step\": 0,"
	" \"cleanup_reason\": \"why\","
	" \"incidents\": [ { \"kind\": \"oops\", \"title\": \"t\","
	" \"guilty\": \"g\", \"corrupted\": false, \"fatal\": true,"
	" \"ts\": 1.5, \"step\": 0, \"after_step\": false,"
	" \"summary\": \"s\", \"bundle\": \"\" } ],"
	" \"leaks\": [ \"l\" ],"
	" \"boots\": [ { \"index\": 0, \"vm\": \"vm1\", \"memory_mib\": 256,"
	" \"machine\": \"pc\", \"expected_end\": \"running\","
	" \"ended\": \"running\", \"resumed\": false } ],"
	" \"vm\": \"vm1\", \"fresh_vm\": null } ] }";

/* Set @key of the object at @path to @json; NULL @json removes it. */
struct edit {
	const char *path; /* "" the root, "s" the scenario, "st", "b", "i"
			   * its first step, boot, incident */
	const char *key, *json;
};

/* @base with up to three edits applied: a new text, or NULL. */
static char *edited(const struct edit *e, size_t n)
{
	struct json_object *root = json_tokener_parse(base), *o, *sc;
	char *text;

	json_object_object_get_ex(root, "scenarios", &sc);
	sc = json_object_array_get_idx(sc, 0);
	for (size_t i = 0; i < n && e[i].key; i++) {
		o = *e[i].path ? sc : root;
		if (strcmp(e[i].path, "st") == 0)
			json_object_object_get_ex(sc, "steps", &o);
		else if (strcmp(e[i].path, "b") == 0)
			json_object_object_get_ex(sc, "boots", &o);
		else if (strcmp(e[i].path, "i") == 0)
			json_object_object_get_ex(sc, "incidents", &o);
		if (json_object_is_type(o, json_type_array))
			o = json_object_array_get_idx(o, 0);
		if (e[i].json)
			json_object_object_add(o, e[i].key,
					       json_tokener_parse(e[i].json));
		else
			json_object_object_del(o, e[i].key);
	}
	text = strdup(json_object_to_json_string(root));
	json_object_put(root);
	return text;
}

static char *edit(const char *path, const char *key, const char *json)
{
	const struct edit e = { path, key, json };

	return edited(&e, 1);
}

static void test_errors(void)
{
	static const struct {
		const char *path, *key, *json, *err;
	} cases[] = {
		{ "", "run_id", NULL, "$.run_id: missing or not a string" },
		{ "", "accelerator", "\"0123456789abcdef\"",
		  "$.accelerator: too long" },
		{ "", "kernel", NULL, "$.kernel: missing" },
		{ "", "scenarios", "{}",
		  "$.scenarios: missing or not a array" },
		{ "s", "name", "7",
		  "$.scenarios[0].name: missing or not a string" },
		{ "s", "verdict", "\"maybe\"",
		  "$.scenarios[0].verdict: unknown verdict 'maybe'" },
		{ "s", "duration_ms", "-1",
		  "$.scenarios[0].duration_ms: negative" },
		{ "s", "duration_ms", "\"5\"",
		  "$.scenarios[0].duration_ms: missing or not a int" },
		{ "s", "reason", NULL,
		  "$.scenarios[0].reason: missing or not a string" },
		{ "s", "steps", NULL,
		  "$.scenarios[0].steps: missing or not a array" },
		{ "st", "index", "4294967296",
		  "$.scenarios[0].steps[0].index: out of range" },
		{ "st", "kind", "\"0123456789abcdef0123456789abcdef\"",
		  "$.scenarios[0].steps[0].kind: too long" },
		{ "st", "verdict", "\"PASS\"",
		  "$.scenarios[0].steps[0].verdict: unknown verdict 'PASS'" },
		{ "st", "got", "null",
		  "$.scenarios[0].steps[0].got: missing or not a string" },
		{ "st", "boot", "4294967296",
		  "$.scenarios[0].steps[0].boot: out of range" },
		{ "st", "boot", "-2",
		  "$.scenarios[0].steps[0].boot: negative" },
		{ "st", "cleanup", "1",
		  "$.scenarios[0].steps[0].cleanup: missing or not a boolean" },
		{ "s", "steps_not_run", "{}",
		  "$.scenarios[0].steps_not_run: missing or not a array" },
		{ "s", "steps_not_run", "[ { \"index\": 1, \"name\": \"\" } ]",
		  "$.scenarios[0].steps_not_run[0].kind: missing or not a string" },
		{ "s", "cleanup_failed", "0",
		  "$.scenarios[0].cleanup_failed: missing or not a boolean" },
		{ "s", "cleanup_step", NULL,
		  "$.scenarios[0].cleanup_step: missing or not a int" },
		{ "s", "cleanup_reason", "[]",
		  "$.scenarios[0].cleanup_reason: missing or not a string" },
		{ "s", "incidents", "{}",
		  "$.scenarios[0].incidents: missing or not a array" },
		{ "i", "ts", "\"1.5\"",
		  "$.scenarios[0].incidents[0].ts: missing or not a number" },
		{ "i", "step", "1.0",
		  "$.scenarios[0].incidents[0].step: missing or not a int" },
		{ "i", "fatal", NULL,
		  "$.scenarios[0].incidents[0].fatal: missing or not a boolean" },
		{ "i", "summary", NULL,
		  "$.scenarios[0].incidents[0].summary: missing or not a string" },
		{ "s", "leaks", "\"l\"",
		  "$.scenarios[0].leaks: missing or not a array" },
		{ "s", "leaks", "[ \"a\", 1 ]",
		  "$.scenarios[0].leaks[1]: not a string" },
		{ "s", "boots", "{}",
		  "$.scenarios[0].boots: missing or not a array" },
		{ "s", "boots", "[ 1 ]",
		  "$.scenarios[0].boots[0]: not an object" },
		{ "b", "memory_mib", "-256",
		  "$.scenarios[0].boots[0].memory_mib: negative" },
		{ "b", "machine", "\"pc-q35-8.0\"",
		  "$.scenarios[0].boots[0].machine: too long" },
		{ "b", "resumed", "\"no\"",
		  "$.scenarios[0].boots[0].resumed: missing or not a boolean" },
		{ "s", "vm", "\"0123456789abcdef0123456789abcdef\"",
		  "$.scenarios[0].vm: too long" },
		{ "s", "fresh_vm", "3",
		  "$.scenarios[0].fresh_vm: missing or not a string" },
		{ "", "complete", "1", "$.complete: missing or not a boolean" },
		{ "s", "events_cut_bytes", "-5",
		  "$.scenarios[0].events_cut_bytes: negative" },
		{ "s", "kmsg_dropped", "\"3\"",
		  "$.scenarios[0].kmsg_dropped: missing or not a int" },
	};
	char err[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct res_run run = { 0 };
		char *text = edit(cases[i].path, cases[i].key, cases[i].json);
		int r;

		strcpy(err, "");
		r = res_run_from_json(text, &run, err, sizeof(err));
		okf(r == -EINVAL && strcmp(err, cases[i].err) == 0,
		    "%s%s%s %s: refused", cases[i].path,
		    *cases[i].path ? "." : "", cases[i].key,
		    cases[i].json ? cases[i].json : "missing");
		if (strcmp(err, cases[i].err) != 0)
			printf("#   got '%s'\n", err);
		free(text);
	}
	{
		struct res_run run = { 0 };
		int r = res_run_from_json("[]", &run, err, sizeof(err));

		ok(r == -EINVAL && strcmp(err, "$: not a JSON object") == 0,
		   "an array is refused");
	}
}

/* What may be absent, and what is read although summary.json never has it. */
static void test_lenient(void)
{
	static const struct {
		struct edit e[3];
		const char *what;
	} cases[] = {
		{ { { "", "base", "1" } }, "an unknown key" },
		{ { { "st", "boot", NULL } }, "no boot" },
		{ { { "st", "cleanup", NULL } }, "no cleanup mark" },
		/* Values that would be refused, were they read. */
		{ { { "s", "cleanup_failed", "false" },
		    { "s", "cleanup_step", "\"x\"" },
		    { "s", "cleanup_reason", "7" } },
		  "cleanup_failed false: cleanup_step unread" },
		{ { { "s", "incidents", NULL } }, "no incidents" },
		{ { { "s", "leaks", NULL } }, "no leaks" },
		{ { { "s", "boots", NULL } }, "no boots" },
		{ { { "b", "resumed", NULL } }, "no resumed" },
		{ { { "s", "vm", NULL } }, "no vm" },
		{ { { "s", "fresh_vm", NULL } }, "no fresh_vm" },
		{ { { "i", "ts", "2" } }, "an integer ts" },
		{ { { "i", "step", "-1" } }, "step -1" },
	};
	char err[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *key = cases[i].e[0].key;
		struct res_run run = { 0 };
		char *text = edited(cases[i].e, 3);
		int r;

		r = res_run_from_json(text, &run, err, sizeof(err));
		okf(r == 0, "%s: read", cases[i].what);
		if (r < 0)
			printf("#   %s\n", err);
		if (r == 0 && strcmp(key, "cleanup_failed") == 0)
			ok(run.v[0].has_cleanup && !run.v[0].cleanup_failed &&
				   run.v[0].cleanup_step == -1 &&
				   !run.v[0].cleanup_reason,
			   "has_cleanup, cleanup_step -1");
		if (r == 0 && strcmp(key, "boots") == 0)
			ok(!run.v[0].boots && run.v[0].steps[0].boot == 0,
			   "boots NULL");
		if (r == 0 && strcmp(key, "resumed") == 0)
			is_int(run.v[0].boots[0].resumed, -1, "resumed -1");
		if (r == 0 && strcmp(key, "ts") == 0)
			ok(run.v[0].incidents[0].ts == 2.0, "ts 2.0");
		res_run_free(&run);
		free(text);
	}
}

/*
 * The exit code's outcome: a run hostctl did not finish (a signal, a full
 * disk) is the lab's failure even when every scenario it holds passed,
 * and a kernel finding still comes first.
 */
static void test_outcome(void)
{
	struct res_scenario sc[2] = { { .done = true, .verdict = VERDICT_PASS },
				      { .done = true, .verdict = VERDICT_PASS } };
	struct res_run run = { .v = sc, .n = 2 };

	is_int(res_run_outcome(&run), RES_OUTCOME_OK, "all passed: ok");
	run.complete = RES_COMPLETE_YES;
	is_int(res_run_outcome(&run), RES_OUTCOME_OK, "complete: ok");
	run.complete = RES_COMPLETE_NO;
	is_int(res_run_outcome(&run), RES_OUTCOME_LAB,
	       "incomplete, all passed: the lab's");
	ok(!res_run_ok(&run), "and not ok");
	sc[1].verdict = VERDICT_ERROR;
	is_int(res_run_outcome(&run), RES_OUTCOME_LAB,
	       "incomplete, the rest errors (a signal): the lab's");
	sc[0].verdict = VERDICT_FAIL;
	is_int(res_run_outcome(&run), RES_OUTCOME_KERNEL,
	       "incomplete with a failure: the kernel's");
}

/*
 * A scenario cut short: its unbegun steps (main and cleanup) in
 * steps_not_run, read back in their places; none for a scenario whose
 * steps all began.
 */
static void test_not_run(void)
{
	static const char *const kinds[5] = { "modprobe", "read", "write",
					      "link_del", "rmmod" };
	struct res_scenario sc[2] = { { .name = "a/cut" }, { .name = "b/all" } };
	struct res_run run = { .run_id = "r", .v = sc, .n = 2 }, back = { 0 };
	char *a = NULL, *p, err[256] = "";
	const struct res_step *st;

	sc[0].steps = calloc(5, sizeof(*sc[0].steps));
	sc[0].nsteps = 5;
	sc[0].ncleanup = 2;
	for (size_t i = 0; i < 5; i++) {
		struct res_step *w = &sc[0].steps[i];

		w->index = i;
		w->cleanup = i >= 3;
		snprintf(w->kind, sizeof(w->kind), "%s", kinds[i]);
		snprintf(w->name, sizeof(w->name), "n%zu", i + 1);
	}
	sc[0].steps[0].ran = sc[0].steps[3].ran = true;
	sc[0].steps[0].verdict = VERDICT_FAIL;
	res_scenario_finish(&sc[0], VERDICT_FAIL, "step 1 failed");
	sc[1].steps = calloc(1, sizeof(*sc[1].steps));
	sc[1].nsteps = 1;
	sc[1].steps[0].ran = true;
	snprintf(sc[1].steps[0].kind, sizeof(sc[1].steps[0].kind), "read");
	res_scenario_finish(&sc[1], VERDICT_PASS, NULL);

	is_int(res_summary_json(&run, &a), 0, "written");
	p = a ? strstr(a, "\"steps_not_run\"") : NULL;
	ok(p && p < strstr(a, "\"b/all\"") && !strstr(p + 1, "\"steps_not_run\""),
	   "steps_not_run written, for the scenario cut short only");
	ok(a && strstr(a, "\"name\": \"n5\",\n          \"cleanup\": true\n"),
	   "a cleanup step that never began says so");
	is_int(res_run_from_json(a, &back, err, sizeof(err)), 0, "read back");
	if (back.n != 2 || back.v[0].nsteps != 5) {
		ok(0, "all five steps read back");
		goto out;
	}
	st = back.v[0].steps;
	ok(st[0].ran && !st[1].ran && !st[2].ran && st[3].ran && !st[4].ran,
	   "in the order of their indices, ran as written");
	is_str(st[2].kind, "write", "an unbegun step's kind");
	is_str(st[2].name, "n3", "and name");
	ok(st[4].cleanup && st[4].index == 4, "an unbegun cleanup step");
	is_int(back.v[0].ncleanup, 2, "both cleanup steps counted");
	is_int(back.v[1].nsteps, 1, "nothing added where all began");
out:
	free(a);
	res_run_free(&back);
	for (size_t i = 0; i < 2; i++)
		res_scenario_free(&sc[i]);
}

int main(void)
{
	test_round_trip();
	test_not_run();
	test_empty();
	test_errors();
	test_lenient();
	test_outcome();
	return tap_done();
}
