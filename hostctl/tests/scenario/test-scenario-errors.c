// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the scenario validator refuses, with the exact error text: bad files
 * (data/bad/), the warning of a valid file, and the limits that need
 * generated files (the step count, the protocol's line limit).
 *
 * Usage: test-scenario-errors DATA_DIR SCENARIOS_DIR FIXTURES_DIR (TAP on stdout).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario/scenario.h"
#include "scn-test.h"
#include "tap.h"

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

int main(int argc, char *argv[])
{
	scn_test_args(argc, argv);
	test_bad_files();
	test_warnings();
	test_generated();
	test_line_limits();
	return tap_done();
}
