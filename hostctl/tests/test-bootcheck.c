// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pure parts of a scenario's boots: a boot's run request and kernel
 * command line, and the marker rule across boots (a check must read back
 * the token the latest set reported, or the step becomes a fail).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "scenario/bootcheck.h"
#include "proto.h"
#include "tap.h"

static void test_cmdline(void)
{
	char *args[] = { "resume=/dev/vda", "pm_debug_messages" };
	char buf[64], small[20];

	is_int(boots_cmdline("console=ttyS0", args, 2, buf, sizeof(buf)), 0,
	       "cmdline fits");
	is_str(buf, "console=ttyS0 resume=/dev/vda pm_debug_messages",
	       "cmdline: base, then the arguments in order");
	is_int(boots_cmdline("console=ttyS0", NULL, 0, buf, sizeof(buf)), 0,
	       "no arguments");
	is_str(buf, "console=ttyS0", "no arguments: the base alone");
	is_int(boots_cmdline("console=ttyS0", args, 2, small, sizeof(small)),
	       -ENAMETOOLONG, "too long is refused, never cut");
}

/*
 * Encode boot @k's request and read it back as guestd does; *@obj holds
 * what *@req points into. @what names the checks.
 */
static void round_trip(const struct scenario *s, size_t k,
		       struct json_object **obj, struct proto_run *req,
		       const char *what)
{
	enum proto_request_type type;
	char err[256], *line;
	size_t len;

	*obj = NULL;
	memset(req, 0, sizeof(*req));
	if (!okf(boots_run_encode(s, k, &line, &len) == 0,
		 "%s: the request encodes", what))
		return;
	okf(proto_request_decode(line, len - 1, &type, obj, err, sizeof(err)) ==
			    0 &&
		    type == PROTO_REQ_RUN &&
		    proto_run_decode(*obj, req, err, sizeof(err)) == 0,
	    "%s: and decodes", what);
	free(line);
}

/* A scenario without boots is one implicit boot: all of it in one request. */
static void test_request(void)
{
	struct scn_boot boots[2] = {
		{ .timeout_ms = 1000, .run_steps = json_tokener_parse("[1]") },
		{ .timeout_ms = 2000, .run_steps = json_tokener_parse("[2]") },
	};
	struct scenario s = {
		.name = "a/b",
		.timeout_ms = 5000,
		.step_timeout_ms = 300,
		.run_steps = json_tokener_parse("[0]"),
		.run_state_files = json_tokener_parse("[\"/proc/x\"]"),
		.run_cleanup = json_tokener_parse("[9]"),
		.cleanup_timeout_ms = 700,
	};
	struct json_object *obj;
	struct proto_run req;

	round_trip(&s, 0, &obj, &req, "implicit boot");
	is_str(req.scenario, "a/b", "implicit boot: the scenario's name");
	is_int(req.timeout_ms, 5000, "implicit boot: the scenario's bound");
	is_int(req.step_timeout_ms, 300, "implicit boot: its step bound");
	is_str(json_object_to_json_string(req.steps), "[ 0 ]",
	       "implicit boot: all the steps");
	is_str(json_object_to_json_string(req.state_files),
	       "[ \"\\/proc\\/x\" ]", "implicit boot: the state files");
	is_str(json_object_to_json_string(req.cleanup), "[ 9 ]",
	       "implicit boot: the cleanup list");
	is_int(req.cleanup_timeout_ms, 700, "implicit boot: its bound");
	is_int(boots_bound_ms(&s, 0), 5700,
	       "implicit boot: guestd's bound, cleanup included");
	json_object_put(obj);

	json_object_put(s.run_steps);
	json_object_put(s.run_state_files);
	json_object_put(s.run_cleanup);
	s.run_steps = NULL;
	s.run_state_files = NULL;
	s.run_cleanup = NULL;
	s.boots = boots;
	s.nboots = 2;
	round_trip(&s, 1, &obj, &req, "boot 1");
	is_str(req.scenario, "a/b", "boot 1: the scenario's name");
	is_int(req.timeout_ms, 2000, "boot 1: its own bound");
	is_int(req.step_timeout_ms, 300, "boot 1: the scenario's step bound");
	is_str(json_object_to_json_string(req.steps), "[ 2 ]",
	       "boot 1: its own steps");
	ok(!req.state_files && !req.cleanup,
	   "boot 1: no state files, no cleanup list");
	is_int(boots_bound_ms(&s, 1), 2000, "boot 1: guestd's bound");
	json_object_put(obj);
	json_object_put(boots[0].run_steps);
	json_object_put(boots[1].run_steps);
}

static struct res_scenario sc;

static void add(const char *kind, enum proto_verdict v, const char *got)
{
	struct res_step *st;

	sc.steps = realloc(sc.steps, (sc.nsteps + 1) * sizeof(*sc.steps));
	st = &sc.steps[sc.nsteps++];
	memset(st, 0, sizeof(*st));
	strcpy(st->kind, kind);
	st->ran = true;
	st->verdict = v;
	res_set_str(&st->got, got);
}

static void clear(void)
{
	res_scenario_free(&sc);
	memset(&sc, 0, sizeof(sc));
}

static void test_markers(void)
{
	add("marker", VERDICT_PASS, "token 00112233aabbccdd at uptime 10 ms");
	add("write", VERDICT_PASS, NULL);
	add("marker", VERDICT_PASS,
	    "token 00112233aabbccdd, set at uptime 10 ms, now 20 ms");
	is_int(boots_check_markers(&sc), -1, "the same token passes");
	ok(sc.steps[2].verdict == VERDICT_PASS, "the check stays pass");
	clear();

	add("marker", VERDICT_PASS, "token 00112233aabbccdd at uptime 10 ms");
	add("marker", VERDICT_PASS,
	    "token ffffffffffffffff, set at uptime 5 ms, now 20 ms");
	is_int(boots_check_markers(&sc), 1, "another token is caught");
	ok(sc.steps[1].verdict == VERDICT_FAIL, "the check becomes fail");
	is_str(sc.steps[1].expected, "token 00112233aabbccdd (set by step 1)",
	       "expected names the token and the step that set it");
	clear();

	add("marker", VERDICT_PASS, "token 00112233aabbccdd at uptime 10 ms");
	add("marker", VERDICT_PASS, "no marker");
	add("marker", VERDICT_PASS, "token 1111111111111111 at uptime 3 ms");
	add("marker", VERDICT_PASS,
	    "token 1111111111111111, set at uptime 3 ms, now 4 ms");
	is_int(boots_check_markers(&sc), -1,
	       "an absent marker and a newer set are fine");
	clear();

	add("marker", VERDICT_PASS, "token 00112233aabbccdd at uptime 10 ms");
	sc.steps[0].ran = false;
	add("marker", VERDICT_PASS,
	    "token ffffffffffffffff, set at uptime 5 ms, now 20 ms");
	is_int(boots_check_markers(&sc), -1,
	       "a set that never ran sets nothing");
	clear();
}

int main(void)
{
	test_request();
	test_cmdline();
	test_markers();
	return tap_done();
}
