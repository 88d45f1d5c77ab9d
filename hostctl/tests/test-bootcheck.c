// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pure parts of multi-boot scenarios: a boot's kernel command line,
 * and the marker rule across boots (a check must read back the token the
 * latest set reported, or the step becomes a fail).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bootcheck.h"
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
	is_str(sc.steps[1].expected, "token 00112233aabbccdd (set by step 0)",
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
	test_cmdline();
	test_markers();
	return tap_done();
}
