// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/scenario.c and hostctl list: good and bad files with
 * the exact error text, the directory layout rules, selection by name and
 * glob with suggestions, the requires check against a fake kernel build, and
 * every shipped scenario file.
 *
 * Usage: test-scenario DATA_DIR SCENARIOS_DIR FIXTURES_DIR (TAP on stdout).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "scenario/bites.h"
#include "scenario/bootcheck.h"
#include "scenario/scenario.h"
#include "tap.h"

int verb_list(int argc, char *argv[]);

static const char *data_dir, *shipped_dir, *fixtures_dir;

/* A list of the run request as it goes out, or "(null)". */
static const char *list_text(struct json_object *list)
{
	const char *t = json_object_to_json_string_ext(
		list, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

	return list && t ? t : "(null)";
}

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	return s;
}

/*
 * Load data/bad/<stem>.json and compare the errors, one by one, with @want
 * (NULL-terminated, each without the "file: " prefix). A @want that ends in
 * "..." need only be a prefix of the error, for messages that list every
 * step kind.
 */
static void check_bad(const char *stem, const char *const *want)
{
	struct scn_errors errs = { 0 };
	struct scenario s;
	char *path = xasprintf("%s/bad/%s.json", data_dir, stem);
	char *name = xasprintf("bad/%s", stem);
	char *what = xasprintf("bad/%s.json is refused", stem);
	size_t n = 0;
	int r;

	r = scn_load_file(path, name, &s, &errs);
	is_int(r, -EINVAL, what);
	if (r == 0)
		scn_free(&s);
	while (want[n])
		n++;
	for (size_t i = 0; i < n || i < errs.n; i++) {
		char *full = i < n ? xasprintf("%s: %s", path, want[i]) : NULL;
		char *label = xasprintf("bad/%s.json error %zu", stem, i);

		const char *got = i < errs.n ? errs.msgs[i] : "(none)";
		size_t flen = full ? strlen(full) : 0;

		if (flen > 3 && strcmp(full + flen - 3, "...") == 0 &&
		    strncmp(got, full, flen - 3) == 0)
			got = full;
		is_str(got, full ? full : "(no more errors)", label);
		free(full);
		free(label);
	}
	scn_errors_free(&errs);
	free(path);
	free(name);
	free(what);
}

/* A valid file with one warning: a bare fail_nth "nth". */
static void test_warnings(void)
{
	struct scn_errors errs = { 0 };
	struct scenario s;
	char *path = xasprintf("%s/warn/bare-nth.json", data_dir);
	char *want = xasprintf("%s: $.steps[0]: a bare 'nth' fails whichever "
			       "call comes nth, which moves with caches and "
			       "timing; aim it with 'at' instead", path);

	is_int(scn_load_file(path, "warn/bare-nth", &s, &errs), 0,
	       "warn/bare-nth.json loads");
	is_int(errs.n, 0, "warn/bare-nth.json: no errors");
	is_int(errs.nwarns, 1, "warn/bare-nth.json: one warning, not for 'at'");
	is_str(errs.nwarns ? errs.warns[0] : "(none)", want,
	       "warn/bare-nth.json: the warning names the step");
	scn_free(&s);
	scn_errors_free(&errs);
	free(path);
	free(want);
}

#define BAD(stem, ...) check_bad(stem, (const char *const[]){ __VA_ARGS__, NULL })

static void test_bad_files(void)
{
	BAD("not-json", "line 3, column 10: not valid JSON: unexpected character");
	BAD("truncated", "line 4, column 1: not valid JSON: unexpected end of file");
	BAD("trailing", "line 2, column 1: not valid JSON: unexpected character");
	BAD("comment", "line 1, column 1: not valid JSON: unexpected character");
	BAD("not-object", "$: expected an object, got an array");
	BAD("unknown-keys",
	    "$.sead: unknown key; a scenario takes: description, seed, requires, timeout_ms, step_timeout_ms, steps, cleanup, cleanup_timeout_ms, expect_incident, bites, xfail, state_files, disk, boots, fresh_vm, nic, image, flavour",
	    "$.requires.module: unknown key; requires takes: config, config_unset, unset_why, modules, module_params",
	    "$.steps[0].valeu: unknown key; a 'write' step takes: kind, name, timeout_ms, path, value, append, expect_errno, repeat",
	    "$.steps[0]: missing required key 'value'");
	BAD("wrong-types",
	    "$.description: expected a string, got an integer",
	    "$.timeout_ms: expected an integer, got a string",
	    "$.nic: expected a boolean, got a string",
	    "$.requires.config: expected an array, got a string",
	    "$.requires.modules[0]: expected a string, got an integer",
	    "$.steps[0].value: expected a string, got an integer",
	    "$.steps[0].append: expected a boolean, got a string",
	    "$.steps[1].ms: expected an integer, got a number",
	    "$.steps[2]: expected an object, got a string");
	BAD("ranges",
	    "$.timeout_ms: 0 is out of range 1..3600000",
	    "$.step_timeout_ms: 3600001 is out of range 1..3600000",
	    "$.steps[0].timeout_ms: -1 is out of range 1..3600000",
	    "$.steps[1].ms: number too large, want 0..3600000",
	    "$.steps[2].within_ms: -5 is out of range 0..3600000");
	BAD("missing",
	    "$.steps[0]: missing required key 'kind'",
	    "$.steps[1]: missing required key 'path'",
	    "$.steps[2]: missing required key 'within_ms'",
	    "$: missing required key 'description'",
	    "$: missing required key 'seed'");
	BAD("empty-steps", "$.steps: 0 steps, want 1..256");
	BAD("bad-regex",
	    "$.steps[0].match: bad regex '(Linux': Unmatched ( or \\(",
	    "$.steps[1].not_match: bad regex 'a{2,1}': Invalid content of \\{\\}",
	    "$.steps[2].match: bad regex '[': Invalid regular expression");
	BAD("bad-errno",
	    "$.steps[0].expect_errno: unknown errno name 'EFOO'",
	    "$.steps[1].expect_errno: unknown errno name 'einval'");
	BAD("bad-kselftest",
	    "$.steps[0].program: '../ftrace/ftracetest' is not DIR/FILE below /usr/lib/kselftest (relative, no '.' or '..', [A-Za-z0-9._+-])",
	    "$.steps[1].program: 'ftracetest' is not DIR/FILE below /usr/lib/kselftest (relative, no '.' or '..', [A-Za-z0-9._+-])",
	    "$.steps[2].format: 'tap' is not one of: ktap, ftracetest",
	    "$.steps[2].args[0]: not one line below 256 bytes (3 bytes, a line break)",
	    "$.steps[2].args[1]: expected a string, got an integer",
	    "$.steps[3].min_tests: 0 is out of range 1..1024");
	BAD("unknown-kind",
	    "$.steps[0].kind: unknown step kind 'shell'; kinds: write, read, modprobe, rmmod, wait_for, kmsg_expect, sleep, ...",
	    "$.steps[0].timeout_ms: expected an integer, got a string",
	    "$.steps[1].kind: expected a string, got an integer");
	BAD("read-no-cond",
	    "$.steps[0]: a 'read' step needs at least one of: equals, match, not_match, length");
	BAD("duplicates",
	    "$.requires.config[1]: 'CONFIG_A' is listed twice",
	    "$.requires.modules[1]: 'trace_printk' is listed twice",
	    "$.steps[2].name: duplicate step name 'nap' (also $.steps[0])",
	    "$.steps[1].match: duplicate key (JSON keeps only the last)");
	BAD("bad-seed", "$.seed: '006' is not one of: 001, 002, 003, 004, 005, none");
	BAD("unset-why",
	    "$.requires: config_unset and unset_why go together: the options, and one line on why a kernel with them cannot run the scenario");
	BAD("bad-names",
	    "$.requires.config[0]: bad config option name 'FTRACE' (want CONFIG_[A-Z0-9_]+)",
	    "$.requires.config[1]: bad config option name 'CONFIG_ftrace' (want CONFIG_[A-Z0-9_]+)",
	    "$.requires.config[2]: bad config option name 'CONFIG_' (want CONFIG_[A-Z0-9_]+)",
	    "$.requires.modules[0]: bad module name 'trace printk' (want [A-Za-z0-9_-]+, at most 55 characters)",
	    "$.requires.modules[1]: bad module name '' (want [A-Za-z0-9_-]+, at most 55 characters)",
	    "$.requires.module_params[0]: bad module parameter 'dsa_loop' (want module.parameter, each at most 55 characters)",
	    "$.requires.module_params[1]: bad module parameter 'dsa_loop.' (want module.parameter, each at most 55 characters)",
	    "$.requires.module_params[2]: bad module parameter 'dsa loop.x' (want module.parameter, each at most 55 characters)",
	    "$.requires.module_params[3]: bad module parameter 'm.1x' (want module.parameter, each at most 55 characters)",
	    "$.requires.module_params[4]: bad module parameter 'm.a-b' (want module.parameter, each at most 55 characters)",
	    "$.steps[0].params[0]: bad module parameter '=1' (want key=value)",
	    "$.steps[0].params[1]: bad module parameter 'novalue' (want key=value)");
	BAD("within",
	    "$.steps[0].within_ms: 3000 is not below the step's timeout_ms 3000",
	    "$.steps[2].ms: 10000 is not below the step's timeout_ms 3000");
	BAD("mtd",
	    "$.steps[0].mode: 'ecc' is not one of: auto, place, raw",
	    "$.steps[1].bits: 65 is out of range 1..64",
	    "$.steps[2].matches: needs key 'seed' too",
	    "$.steps[3].reads: 0 is out of range 1..1000000",
	    "$.steps[4]: missing required key 'device'",
	    "$.steps[5].corrected_delta: -1 is out of range 0..4294967295",
	    "$.steps[5].failed: expected an integer, got a string",
	    "$.steps[6].pages: 0 is out of range 1..65536",
	    "$.steps[6].expect_errno: unknown errno name 'EUNCLEAN'",
	    "$.steps[7].device: bad MTD device '/dev/mtdblock0' (want /dev/mtdN)",
	    "$.steps[8].device: bad MTD device 'mtd0' (want /dev/mtdN)");
	BAD("fault",
	    "$.steps[0].min_order: 'min_order' does not go with attr 'failslab'",
	    "$.steps[1]: attr 'fail_nth' needs key 'at' (or 'nth')",
	    "$.steps[2].probability: 101 is out of range 0..100",
	    "$.steps[3].attr: 'slab' is not one of: failslab, fail_page_alloc, fail_nth, off",
	    "$.steps[4].nth: 'nth' does not go with attr 'off'",
	    "$.steps[5].nth: 0 is out of range 1..1000000",
	    "$.steps[6]: missing required key 'attr'",
	    "$.steps[9]: 'nth' and 'at' together",
	    "$.steps[10].max_tries: 'max_tries' goes with 'at'",
	    "$.steps[11].at: not a function name ([A-Za-z0-9_.])",
	    "$.steps[12].max_tries: 1001 is out of range 1..1000",
	    "$.steps[13].at: 'at' does not go with attr 'failslab'");
	BAD("sample-delta",
	    "$.steps[0].repeat: 0 is out of range 1..1000000",
	    "$.steps[1].length: -1 is out of range 0..1048576",
	    "$.steps[2].match: regex '^[0-9]+$' has 0 capture groups; it needs exactly one, around the number",
	    "$.steps[3].match: regex '^(a)(b)$' has 2 capture groups; it needs exactly one, around the number",
	    "$.steps[4]: a 'delta' step needs at least one of: equals, at_least, at_most",
	    "$.steps[5].within_ms: 3000 is not below the step's timeout_ms 3000",
	    "$.steps[6].as: 64 bytes long, at most 63",
	    "$.steps[4].of: no earlier 'sample' step takes 'ce' ('as')",
	    "$.steps[7].of: no earlier 'sample' step takes 'later' ('as')",
	    "$.steps[9]: the bounds of this 'delta' can never all hold",
	    "$.steps[10]: the bounds of this 'delta' can never all hold");
	BAD("strings",
	    "$.description: must be one line, without control characters",
	    "$.steps[0].path: must not be empty",
	    "$.steps[1].since: 'forever' is not one of: step, scenario, boot",
	    "$.steps[2].name: 130 bytes long, at most 127");
	BAD("both-steps-boots",
	    "$: a scenario has either 'steps' (one boot) or 'boots', exactly one of them");
	BAD("boots",
	    "$.disk.size_mib: 8 is out of range 16..65536",
	    "$.disk.format: 'vmdk' is not one of: raw, qcow2",
	    "$.boots[0].memory_mib: 64 is out of range 128..16384",
	    "$.boots[0].machine: 'isapc' is not one of: pc, q35",
	    "$.boots[0].kernel_args[1]: bad kernel argument 'a b' (want [A-Za-z0-9_.,:=/+-], 1..127 characters)",
	    "$.boots[0].end: 'halt' is not one of: running, poweroff, reboot",
	    "$.boots[1].extra_disks[0].bus: unknown key; a disk takes: size_mib, format",
	    "$.boots[1].steps[0].device: bad block device name '/dev/vda' (want [a-z0-9]{1,31}, e.g. vda)",
	    "$.boots[1].steps[1]: missing required key 'device'",
	    "$.boots[1].steps[2].action: 'peek' is not one of: set, check",
	    "$.boots[1].steps[2].expect: 'gone' is not one of: present, absent",
	    "$.boots[0].resumed: the first boot has no earlier boot to resume",
	    "$.boots[1].end: the last boot must end 'running' (nothing boots after it)",
	    "$.boots[1].steps[0].name: duplicate step name 'm' (also in $.boots[0])");
	BAD("boots-judge",
	    "$.state_files: not supported in a scenario with boots or a disk",
	    "$.expect_incident.step: no step is named 'nope'");
	BAD("boots-resume",
	    "$.boots[1].resumed: cannot resume: the boot before it ends 'running', so it never hibernates",
	    "$.boots: 0 steps in all boots, want 1..256");
	BAD("incident",
	    "$.xfail: must not be empty",
	    "$.expect_incident.kind: 'explosion' is not one of: panic, oops, bug, warning, ubsan, kasan, soft-lockup, hung-task, double-fault, stack-guard, fortify, usercopy, lockdep, kmemleak",
	    "$.expect_incident.title: bad regex '(BUG': Unmatched ( or \\(",
	    "$.expect_incident.survives: expected a boolean, got a string",
	    "$.expect_incident.when: unknown key; expect_incident takes: kind, title, survives, step",
	    "$.expect_incident.step: no step is named 'nope'");
	BAD("incident-missing",
	    "$.xfail: expected a string, got a boolean",
	    "$.expect_incident: missing required key 'kind'",
	    "$.expect_incident: missing required key 'survives'");
	BAD("bites",
	    "$.bites[0].step: step 3 is out of range 0..2 (the scenario has 3 steps)",
	    "$.bites[1].patch: patch '0003' is declared twice (also $.bites[0])",
	    "$.bites[2].patch: bad patch name 'a/b' (want a series file name or its number, e.g. \"0003\")",
	    "$.bites[2]: no 'reason' (a substring of the step's failure) or 'incident' (an incident title regex); bites: one step and its reason, e.g. {\"patch\": \"0003\", \"step\": 18, \"reason\": \"members 0x0022\"} (or \"incident\": a title regex for a crash)",
	    "$.bites[3].why: unknown key; a bites entry takes: patch, step, reason, incident, lines",
	    "$.bites[3].patch: expected a string, got an integer",
	    "$.bites[3].step: expected an integer, got a string",
	    "$.bites[3]: both 'reason' and 'incident': give one; bites: one step and its reason, e.g. {\"patch\": \"0003\", \"step\": 18, \"reason\": \"members 0x0022\"} (or \"incident\": a title regex for a crash)",
	    "$.bites[4]: expected an object, got a string",
	    "$.bites[5].reason: must not be empty",
	    "$.bites[5]: missing required key 'patch'",
	    "$.bites[6].incident: bad regex '(BUG': Unmatched ( or \\(",
	    "$.bites[6].step: step -1 is out of range 0..2 (the scenario has 3 steps)",
	    "$.bites[7].reason: not one line of text: a control character at byte 3");
	BAD("bites-old",
	    "$.bites[0]: 'steps' is the old form; bites: one step and its reason, e.g. {\"patch\": \"0003\", \"step\": 18, \"reason\": \"members 0x0022\"} (or \"incident\": a title regex for a crash)");
	BAD("bites-empty", "$.bites: 0 entries, want 1..16");
	BAD("bites-lines",
	    "$.bites[0].lines: expected an array of kernel lines, e.g. [\"6.1\"], got a string",
	    "$.bites[1].lines: 0 entries, want 1..4",
	    "$.bites[2].lines[0]: unknown kernel line '5.10' (known: 6.1, 6.12)",
	    "$.bites[2].lines[1]: expected a string, got an integer",
	    "$.bites[3].lines[1]: line '6.1' is named twice (also [0])");
	BAD("state-files",
	    "$.state_files[0]: bad state file 'set_ftrace_filter' (want an absolute path of under 256 bytes)",
	    "$.state_files[1]: bad state file '' (want an absolute path of under 256 bytes)",
	    "$.state_files[3]: '/proc/modules' is listed twice",
	    "$.state_files[4]: expected a string, got an integer",
	    "$.state_files[17]: bad state file '/xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' (want an absolute path of under 256 bytes)",
	    "$.state_files: 18 state files, at most 16");
	BAD("cleanup",
	    "$.cleanup_timeout_ms: 0 is out of range 1..3600000",
	    "$.steps[1].if_exists: only a step of 'cleanup' takes 'if_exists': a main step that finds nothing to do should fail",
	    "$.cleanup[0].if_exists: 'sys/module/m' is not an absolute path of at most 255 bytes",
	    "$.cleanup[1].kind: unknown step kind 'shell'; kinds: write, ...",
	    "$.cleanup[3].ms: 20000 is not below the step's timeout_ms 10000",
	    "$.cleanup[4].if_exists: expected a string, got an integer",
	    "$.cleanup[2].of: no earlier 'sample' step takes 'n' ('as') in the cleanup list (it runs in a process of its own, without the main steps' samples)",
	    "$.cleanup[3].name: duplicate step name 'nap' (also in $.steps)");
	BAD("cleanup-boots",
	    "$.cleanup: not supported in a scenario with boots or a disk: its VMs are its own and destroyed after it, so no later scenario inherits its state; undo what must be undone in the last boot's steps",
	    "$.cleanup_timeout_ms: not supported in a scenario with boots or a disk (it has no 'cleanup')");
	BAD("cleanup-timeout-alone",
	    "$.cleanup_timeout_ms: needs 'cleanup': it bounds the cleanup list");
}

static char *tmp_file(const char *text);

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
	BAD("bridge-steps",
	    "$.steps[0].dev: bad interface name 'br/0' (want 1..15 bytes, no '/', ':' or blank)",
	    "$.steps[0].expect_extack: bad regex '(': Unmatched ( or \\(",
	    "$.steps[1].dev: bad interface name 'a-name-too-long-0' (want 1..15 bytes, no '/', ':' or blank)",
	    "$.steps[1]: a 'link_set' step needs at least one of: master, nomaster, up",
	    "$.steps[2].vid: 4096 is out of range 0..4095",
	    "$.steps[2].expect_errno: unknown errno name 'EBOGUS'",
	    "$.steps[3].group: '239.1.1' is no IPv4, IPv6 or MAC group address",
	    "$.steps[4].has[0]: VLAN '10 pvid pvid': unexpected 'pvid' (want VID [pvid] [untagged])",
	    "$.steps[4].has[1]: VLAN 'x' must start with a VID 0..4095",
	    "$.steps[4].lacks[0]: VLAN '10 pvid': unexpected 'pvid' (want a VID only)",
	    "$.steps[5].has[0]: MDB entry 'lan1 239.1.1.1 vid 10 offload no_offload': unexpected 'no_offload' (want PORT GROUP [vid N] [permanent|temp] [offload|no_offload])",
	    "$.steps[5].has[1]: MDB entry 'lan1' must be PORT GROUP [vid N] [permanent|temp] [offload|no_offload]",
	    "$.steps[5].lacks[0]: MDB entry 'lan1 ff0e::1 permanent': unexpected 'permanent' (want PORT GROUP [vid N])",
	    "$.steps[6]: a 'mdb_expect' step needs at least one of: has, lacks, exactly",
	    "$.steps[7].vlans: unknown key; a 'bridge_check' step takes: kind, name, timeout_ms, vlan, mdb",
	    "$.steps[8]: 'master' and 'nomaster' together",
	    "$.steps[9]: 'vlan' and 'mdb' both false: nothing to check");
}

/* Write @text to a fresh file under /tmp and return its path. */
static char *tmp_file(const char *text)
{
	char *path = strdup("/tmp/vlalab-test-scenario-XXXXXX");
	int fd = mkstemp(path);
	size_t len = strlen(text);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		abort();
	close(fd);
	return path;
}

/* Limits that need big files: 257 steps, and a run line over 64 KiB. */
static void test_generated(void)
{
	struct scn_errors errs = { 0 };
	struct scenario s;
	size_t cap = 300 * 64 + PROTO_LINE_MAX + 256;
	char *text = malloc(cap), *path, *want;
	size_t at;
	int r;

	strcpy(text, "{\"description\": \"d\", \"seed\": \"none\", \"steps\": [");
	for (int i = 0; i < 257; i++)
		strcat(text, i ? ", {\"kind\": \"sleep\", \"ms\": 1}" :
				 "{\"kind\": \"sleep\", \"ms\": 1}");
	strcat(text, "]}");
	path = tmp_file(text);
	r = scn_load_file(path, "gen/many", &s, &errs);
	is_int(r, -EINVAL, "257 steps are refused");
	want = xasprintf("%s: $.steps: 257 steps, want 1..256", path);
	is_str(errs.n ? errs.msgs[0] : "", want, "257 steps: error text");
	is_int(errs.n, 1, "257 steps: one error");
	unlink(path);
	free(path);
	free(want);
	scn_errors_free(&errs);

	strcpy(text, "{\"description\": \"d\", \"seed\": \"none\", \"steps\": "
		     "[{\"kind\": \"write\", \"path\": \"/x\", \"value\": \"");
	/* A value of exactly PROTO_LINE_MAX bytes. */
	at = strlen(text);
	memset(text + at, 'v', PROTO_LINE_MAX);
	text[at + PROTO_LINE_MAX] = '\0';
	strcat(text, "\"}]}");
	path = tmp_file(text);
	r = scn_load_file(path, "gen/long", &s, &errs);
	is_int(r, -EINVAL, "a run request over the line limit is refused");
	want = xasprintf("%s: $.steps: the run request would be over the protocol's 65536-byte line limit (the steps alone are %zu bytes)",
			 path, (size_t)PROTO_LINE_MAX +
				       strlen("[{\"kind\":\"write\",\"path\":\"/x\",\"value\":\"\",\"timeout_ms\":10000}]"));
	is_str(errs.n ? errs.msgs[0] : "", want, "line limit: error text");
	is_int(errs.n, 1, "line limit: one error");
	free(want);
	unlink(path);
	free(path);
	scn_errors_free(&errs);
	free(text);
}

/*
 * A file with write steps whose values are @a and @b bytes long, placed as
 * @fmt says (two %s: the values), must be refused with one error, "@where:
 * the run request would be over ... (the steps alone are @steps_len
 * bytes)".
 */
static void check_line_limit(const char *fmt, size_t a, size_t b,
			     const char *where, size_t steps_len,
			     const char *what)
{
	struct scn_errors errs = { 0 };
	struct scenario s;
	char *va = malloc(a + 1), *vb = malloc(b + 1), *text, *path, *want;
	int r;

	memset(va, 'v', a);
	va[a] = '\0';
	memset(vb, 'w', b);
	vb[b] = '\0';
	text = xasprintf(fmt, va, vb);
	path = tmp_file(text);
	r = scn_load_file(path, "gen/long", &s, &errs);
	okf(r == -EINVAL, "%s: refused", what);
	if (r == 0)
		scn_free(&s);
	want = xasprintf("%s: %s: the run request would be over the protocol's 65536-byte line limit (the steps alone are %zu bytes)",
			 path, where, steps_len);
	is_str(errs.n ? errs.msgs[0] : "", want, what);
	okf(errs.n == 1, "%s: one error", what);
	scn_errors_free(&errs);
	unlink(path);
	free(path);
	free(want);
	free(text);
	free(va);
	free(vb);
}

/* Each list over the line limit alone is named; then all of them. */
static void test_line_limits(void)
{
	/* The JSON of a list of one write step, a value of @n bytes. */
#define WRITE_LIST(n) (strlen("[{\"kind\":\"write\",\"path\":\"/x\",\"value\":\"\",\"timeout_ms\":10000}]") + (n))
	check_line_limit(
		"{\"description\": \"d\", \"seed\": \"none\", \"steps\": "
		"[{\"kind\": \"write\", \"path\": \"/x\", \"value\": \"%s\"}], "
		"\"cleanup\": [{\"kind\": \"write\", \"path\": \"/x\", \"value\": \"%s\"}]}",
		10, PROTO_LINE_MAX, "$.cleanup", WRITE_LIST(PROTO_LINE_MAX),
		"a cleanup list over the line limit alone");
	check_line_limit(
		"{\"description\": \"d\", \"seed\": \"none\", \"steps\": "
		"[{\"kind\": \"write\", \"path\": \"/x\", \"value\": \"%s\"}], "
		"\"cleanup\": [{\"kind\": \"write\", \"path\": \"/x\", \"value\": \"%s\"}]}",
		40000, 30000, "$.steps", WRITE_LIST(40000),
		"steps and cleanup list over the line limit together");
	check_line_limit(
		"{\"description\": \"d\", \"seed\": \"none\", \"boots\": ["
		"{\"end\": \"poweroff\", \"steps\": [{\"kind\": \"sleep\", \"ms\": 1}]}, "
		"{\"steps\": [{\"kind\": \"write\", \"path\": \"/x\", \"value\": \"%s\"}, "
		"{\"kind\": \"write\", \"path\": \"/x\", \"value\": \"%s\"}]}]}",
		40000, 30000, "$.boots[1].steps",
		WRITE_LIST(40000) + WRITE_LIST(30000) - 1,
		"a boot's steps over the line limit");
#undef WRITE_LIST
}

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

/* A scenario with just requires, for scn_check_requires(). */
static void check_req(const char *const *config, const char *const *modules,
		      const char *mods_dir, int want, const char *want_reason,
		      const char *what)
{
	struct scenario s = { 0 };
	char *cfg = xasprintf("%s/kernel/config", data_dir);
	char *md = xasprintf("%s/kernel/%s", data_dir, mods_dir);
	char reason[512];
	int r;

	while (config && config[s.n_req_config])
		s.n_req_config++;
	while (modules && modules[s.n_req_modules])
		s.n_req_modules++;
	s.req_config = (char **)config;
	s.req_modules = (char **)modules;
	r = scn_check_requires(&s, cfg, md, reason, sizeof(reason));
	is_int(r, want, what);
	is_str(reason, want_reason, what);
	free(cfg);
	free(md);
}

#define LIST(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void test_requires(void)
{
	check_req(NULL, NULL, "modules", 0, "", "no requires");
	check_req(LIST("CONFIG_FTRACE", "CONFIG_MODULES", "CONFIG_SAMPLE_TRACE_PRINTK"),
		  NULL, "modules", 0, "", "y and m options");
	check_req(LIST("CONFIG_FTRACE", "CONFIG_KALLSYMS_ALL"), NULL, "modules", 1,
		  "CONFIG_KALLSYMS_ALL is not set", "an option that is not set");
	check_req(LIST("CONFIG_FTRACE_EXTRA_NOT_THERE"), NULL, "modules", 1,
		  "CONFIG_FTRACE_EXTRA_NOT_THERE is not set", "an absent option");
	check_req(LIST("CONFIG_FTRACE_E"), NULL, "modules", 1,
		  "CONFIG_FTRACE_E is not set", "a prefix of an option is not that option");
	check_req(LIST("CONFIG_NR_CPUS"), NULL, "modules", 1,
		  "CONFIG_NR_CPUS=64, not y or m", "a non-tristate value");
	check_req(NULL, LIST("trace_printk", "dsa-loop", "virtio_pci"), "modules", 0, "",
		  "modules.dep and modules.builtin, - and _ alike");
	check_req(NULL, LIST("trace_printk", "dsa_core"), "modules", 1,
		  "module 'dsa_core' not built", "a dependency is not a module line");
	check_req(LIST("CONFIG_KALLSYMS_ALL"), LIST("nandsim"), "modules", 1,
		  "CONFIG_KALLSYMS_ALL is not set; module 'nandsim' not built",
		  "every reason, joined");
	check_req(NULL, LIST("trace_printk", "foo_bar"), "modules-nodep", 0, "",
		  "no modules.dep: the .ko files are walked");
	check_req(NULL, LIST("virtio_pci"), "modules-nodep", 1,
		  "module 'virtio_pci' not built", "no modules.builtin: only .ko files");
	{
		struct scenario s = { 0 };
		char *opt[] = { "CONFIG_FTRACE" };
		char reason[256];

		s.req_config = opt;
		s.n_req_config = 1;
		is_int(scn_check_requires(&s, "/nonexistent/.config", "/nonexistent",
					  reason, sizeof(reason)),
		       -ENOENT, "a missing .config is an I/O error");
		is_str(reason, "cannot read '/nonexistent/.config': No such file or directory",
		       "missing .config: reason");
		s.n_req_config = 0;
		s.req_modules = opt;
		s.n_req_modules = 1;
		is_int(scn_check_requires(&s, "/nonexistent/.config", "/nonexistent",
					  reason, sizeof(reason)),
		       -ENOENT, "a missing modules dir is an I/O error");
	}
	{
		struct scenario s = { 0 };
		char *unset[] = { "CONFIG_KALLSYMS_ALL", "CONFIG_KASAN", "CONFIG_FTRACE",
				  "CONFIG_SAMPLE_TRACE_PRINTK" };
		char *cfg = xasprintf("%s/kernel/config", data_dir);
		char reason[256];

		s.req_unset = unset;
		s.n_req_unset = 2;
		is_int(scn_check_requires(&s, cfg, NULL, reason, sizeof(reason)), 0,
		       "config_unset: options that are not set or absent");
		is_str(reason, "", "config_unset: no reason");
		s.n_req_unset = 4;
		is_int(scn_check_requires(&s, cfg, NULL, reason, sizeof(reason)), 1,
		       "config_unset: options that are y and m");
		is_str(reason, "CONFIG_FTRACE is set; CONFIG_SAMPLE_TRACE_PRINTK is set",
		       "config_unset: each set option named");
		s.req_unset_why = "its measurement counts what FTRACE keeps";
		is_int(scn_check_requires(&s, cfg, NULL, reason, sizeof(reason)), 1,
		       "config_unset: with unset_why");
		is_str(reason,
		       "CONFIG_FTRACE is set; CONFIG_SAMPLE_TRACE_PRINTK is set; its measurement counts what FTRACE keeps",
		       "config_unset: unset_why follows the options");
		s.n_req_unset = 2;
		is_int(scn_check_requires(&s, cfg, NULL, reason, sizeof(reason)), 0,
		       "config_unset: unset_why alone is no reason");
		is_str(reason, "", "config_unset: unset_why without a set option");
		s.req_unset_why = NULL;
		s.n_req_unset = 4;
		is_int(scn_check_requires(&s, "/nonexistent/.config", NULL, reason,
					  sizeof(reason)),
		       -ENOENT, "config_unset: a missing .config is an I/O error");
		free(cfg);
	}
	{
		struct scenario s = { 0 };
		char *mods[] = { "nandsim" }, *params[] = { "nandsim.bch", "dsa_core.x" };
		char *md = xasprintf("%s/kernel/modules", data_dir);
		char reason[512];

		s.req_params = params;
		s.n_req_params = 2;
		is_int(scn_check_requires(&s, NULL, md, reason, sizeof(reason)), 1,
		       "a parameter of a module that is not built");
		is_str(reason, "module 'nandsim' not built; module 'dsa_core' not built",
		       "module_params: the missing modules, one reason each");
		s.req_modules = mods;
		s.n_req_modules = 1;
		is_int(scn_check_requires(&s, NULL, md, reason, sizeof(reason)), 1,
		       "a missing module listed in modules too");
		is_str(reason, "module 'nandsim' not built; module 'dsa_core' not built",
		       "module_params: a module missing from both lists is named once");
		free(md);
	}
}

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

/*
 * "flavour": a folder of kernel/flavours/ loads and is kept; an unknown
 * one loads (the schema cannot tell) and scn_flavours_check() refuses it
 * with its file, path and the known flavours; a non-string is refused.
 */
static void test_flavour(void)
{
	char *dir = xasprintf("%s/flavour", data_dir);
	char *want = xasprintf("%s/area/unknown.json: $.flavour: unknown flavour 'nosuch' (known: patched, vanilla, ", dir);
	char *num = tmp_file("{\"description\": \"d\", \"seed\": \"none\", "
			     "\"flavour\": 3, \"steps\": [{\"kind\": \"sleep\", \"ms\": 1}]}");
	struct scn_errors errs = { 0 };
	struct scn_set set = { 0 };
	struct scenario s;
	int r;

	r = scn_load_dir(dir, &set, &errs);
	is_int(r, 0, "flavour: both files load");
	if (r == 0) {
		is_str(set.v[0].flavour, "vla", "flavour: kept as written");
		is_str(set.v[1].flavour, "nosuch", "flavour: the unknown one too");
		is_int(scn_flavours_check(&set, VLALAB_SRCDIR "/kernel", &errs),
		       -EINVAL, "scn_flavours_check: refused");
		is_int(errs.n, 1, "scn_flavours_check: one error");
		ok(errs.n == 1 && strncmp(errs.msgs[0], want, strlen(want)) == 0 &&
			   strstr(errs.msgs[0], "vla"),
		   "scn_flavours_check: file, path, the unknown name and the known ones");
		if (errs.n)
			printf("# %s\n", errs.msgs[0]);
		set.n = 1;
		scn_errors_free(&errs);
		is_int(scn_flavours_check(&set, VLALAB_SRCDIR "/kernel", &errs),
		       0, "scn_flavours_check: vla is a flavour");
		set.n = 2;
		scn_set_free(&set);
	}
	scn_errors_free(&errs);
	r = scn_load_file(num, "gen/flavour", &s, &errs);
	is_int(r, -EINVAL, "flavour: a number is refused");
	if (r == 0)
		scn_free(&s);
	ok(errs.n == 1 && strstr(errs.msgs[0], "$.flavour: "),
	   "flavour: the error names $.flavour");
	for (size_t i = 0; i < errs.n; i++)
		printf("# %s\n", errs.msgs[i]);
	scn_errors_free(&errs);
	unlink(num);
	free(num);
	free(want);
	free(dir);
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

/* What a multi-boot file fills in: slices, defaults, the VM parameters. */
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
	if (argc != 4) {
		fprintf(stderr, "usage: %s DATA_DIR SCENARIOS_DIR FIXTURES_DIR\n", argv[0]);
		return 2;
	}
	data_dir = argv[1];
	shipped_dir = argv[2];
	fixtures_dir = argv[3];

	test_bad_files();
	test_warnings();
	test_generated();
	test_incident();
	test_bites();
	test_flavour();
	test_truncate_boots();
	test_name_length();
	test_good_set();
	test_layout();
	test_select();
	test_requires();
	test_verb_list();
	test_shipped();
	test_boots_fill();
	test_cleanup_fill();
	test_cleanup_empty();
	test_truncate();
	test_request_bytes();
	test_line_limits();
	return tap_done();
}
