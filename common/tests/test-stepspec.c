// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table of step kinds (common/stepspec.c) is well formed: each kind
 * once, each key once and within STEPSPEC_KEYS_MAX, bounds in order,
 * choices where a key needs them, and every key its rules name is one of
 * its kind's. And the rules say what hostctl prints.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "stepspec.h"
#include "tap.h"

static char what[256];

static bool has_key(const struct stepspec *s, const char *key)
{
	return stepspec_key_find(s->keys, key) != NULL;
}

static void test_table(void)
{
	for (size_t i = 0; i < stepspec_count; i++) {
		const struct stepspec *s = &stepspec_table[i];
		size_t n = 0;
		bool good = true;

		snprintf(what, sizeof(what), "'%s' is found by its kind", s->kind);
		ok(stepspec_find(s->kind) == s, what);
		for (const struct stepspec_key *k = s->keys; k->key; k++, n++) {
			good &= stepspec_key_find(s->keys, k->key) == k;
			good &= !stepspec_key_find(stepspec_common_keys, k->key);
			good &= k->min <= k->max;
			good &= (k->type == STEPSPEC_CHOICE) == !!k->choices;
			good &= k->type < STEPSPEC__COUNT;
		}
		snprintf(what, sizeof(what),
			 "'%s': keys unique, none common, bounds and choices sane",
			 s->kind);
		ok(good, what);
		snprintf(what, sizeof(what), "'%s': %zu keys, at most %d",
			 s->kind, n, STEPSPEC_KEYS_MAX);
		ok(n <= STEPSPEC_KEYS_MAX, what);
		good = true;
		for (const char *const *k = s->need_one; k && *k; k++)
			good &= has_key(s, *k);
		for (const char *const *k = s->needs; k && *k; k++)
			good &= has_key(s, *k);
		if (s->below_timeout)
			good &= has_key(s, s->below_timeout);
		snprintf(what, sizeof(what), "'%s': its rules name its own keys",
			 s->kind);
		ok(good, what);
	}
	{
		static const char *const attrs[] = { "failslab", "fail_page_alloc",
						     "fail_nth", "off" };
		const struct stepspec *fault = stepspec_find("fault");
		bool good = fault != NULL;

		for (size_t i = 0; good && i < 4; i++) {
			const char *const *k = stepspec_fault_keys(attrs[i]);

			good &= k != NULL;
			for (; good && *k; k++)
				good &= has_key(fault, *k);
		}
		ok(good, "each fault attr's keys are fault keys");
		ok(stepspec_fault_keys("slab") == NULL, "an unknown attr has none");
	}
	ok(stepspec_find("shell") == NULL, "an unknown kind has no spec");
}

/* Run @kind's rules on @json; the findings as "key: msg" lines. */
static int rules(const char *kind, const char *json, uint64_t timeout,
		 char *buf, size_t len)
{
	struct json_object *step = json_tokener_parse(json);
	struct stepspec_problems probs = { .n = 0 };
	size_t o = 0;
	int r;

	r = stepspec_check_rules(stepspec_find(kind), step, timeout, &probs);
	buf[0] = '\0';
	for (size_t i = 0; i < probs.n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s%s: %s",
				      i ? "\n" : "", probs.v[i].warning ? "warn " : "",
				      probs.v[i].key, probs.v[i].msg);
	json_object_put(step);
	return r;
}

static void test_rules(void)
{
	char buf[1024];

	is_int(rules("read", "{\"path\":\"/x\"}", 10000, buf, sizeof(buf)),
	       -EINVAL, "read without a condition is refused");
	is_str(buf, ": a 'read' step needs at least one of: equals, match, "
	       "not_match, length", "naming the conditions");
	is_int(rules("read", "{\"path\":\"/x\",\"length\":3}", 10000, buf,
		     sizeof(buf)), 0, "one condition is enough");
	is_str(buf, "", "and nothing is said");
	is_int(rules("mtd_read", "{\"matches\":false}", 10000, buf, sizeof(buf)),
	       -EINVAL, "matches needs seed");
	is_str(buf, "matches: needs key 'seed' too", "on the key");
	is_int(rules("sleep", "{\"ms\":300,\"timeout_ms\":200}", 10000, buf,
		     sizeof(buf)), -EINVAL, "sleep beyond its own timeout");
	is_str(buf, "ms: 300 is not below the step's timeout_ms 200",
	       "against the step's timeout_ms");
	is_int(rules("sleep", "{\"ms\":300}", 250, buf, sizeof(buf)), -EINVAL,
	       "sleep beyond the scenario's step timeout");
	is_str(buf, "ms: 300 is not below the step's timeout_ms 250",
	       "against the default it is given");
	is_int(rules("fault", "{\"attr\":\"fail_nth\",\"nth\":3}", 10000, buf,
		     sizeof(buf)), 0, "a bare nth is only a warning");
	ok(strncmp(buf, "warn : a bare 'nth'", 19) == 0, "which says so");
	is_int(rules("fault", "{\"attr\":\"failslab\",\"min_order\":1,"
		     "\"nth\":2,\"name\":\"n\"}", 10000, buf, sizeof(buf)),
	       -EINVAL, "keys of another attr");
	is_str(buf, "min_order: 'min_order' does not go with attr 'failslab'\n"
	       "nth: 'nth' does not go with attr 'failslab'",
	       "each on its key, common keys allowed");
	is_int(rules("link_set", "{\"dev\":\"a\",\"master\":\"b\",\"nomaster\":true}",
		     10000, buf, sizeof(buf)), -EINVAL, "master and nomaster");
	is_str(buf, ": 'master' and 'nomaster' together", "on the step");
	is_int(rules("bridge_check", "{\"vlan\":false,\"mdb\":false}", 10000,
		     buf, sizeof(buf)), -EINVAL, "bridge_check with nothing to check");
	is_int(rules("bench", "{\"path\":\"/x\",\"runs\":3,\"min\":5,"
		     "\"max\":5}", 10000, buf, sizeof(buf)), 0,
	       "bench with min equal to max");
	is_int(rules("bench", "{\"path\":\"/x\",\"runs\":3,\"min\":6,"
		     "\"max\":5}", 10000, buf, sizeof(buf)), -EINVAL,
	       "bench with min above max");
	is_str(buf, "min: 6 is above 'max' 5", "on min");
	is_int(rules("stack_tracer", "{\"action\":\"stop\",\"min_bytes\":512,"
		     "\"max_bytes\":32768}", 10000, buf, sizeof(buf)), 0,
	       "stack_tracer stop with its bounds");
	is_int(rules("stack_tracer", "{\"action\":\"stop\",\"min_bytes\":4096,"
		     "\"max_bytes\":512}", 10000, buf, sizeof(buf)), -EINVAL,
	       "min_bytes above max_bytes");
	is_str(buf, "min_bytes: 4096 is above 'max_bytes' 512", "on min_bytes");
	is_int(rules("stack_tracer", "{\"action\":\"start\",\"min_bytes\":1,"
		     "\"max_bytes\":2}", 10000, buf, sizeof(buf)), -EINVAL,
	       "bounds on a start");
	is_str(buf, "min_bytes: 'min_bytes' goes with action 'stop'\n"
	       "max_bytes: 'max_bytes' goes with action 'stop'",
	       "each on its key");
}

/* The addresses of addr_add and connect steps: literals only. */
static void test_addrs(void)
{
	struct sockaddr_storage ss;
	unsigned int prefix = 99;
	struct in_addr a;
	char buf[1024];
	socklen_t len;

	is_int(stepspec_ipv4_prefix("10.0.2.15/24", &a, &prefix), 0,
	       "an IPv4 address with a prefix");
	is_int((int)prefix, 24, "its prefix");
	is_int(stepspec_ipv4_prefix("10.0.2.15/0", &a, &prefix), 0, "/0");
	is_int(stepspec_ipv4_prefix("10.0.2.15", &a, &prefix), -EINVAL,
	       "no prefix refused");
	is_int(stepspec_ipv4_prefix("10.0.2.15/33", &a, &prefix), -EINVAL,
	       "/33 refused");
	is_int(stepspec_ipv4_prefix("10.0.2.15/", &a, &prefix), -EINVAL,
	       "an empty prefix refused");
	is_int(stepspec_ipv4_prefix("10.0.2.15/2x", &a, &prefix), -EINVAL,
	       "a prefix with a letter refused");
	is_int(stepspec_ipv4_prefix("host/24", &a, &prefix), -EINVAL,
	       "a name refused");
	is_int(stepspec_ip_addr("10.0.2.2", &ss, &len), 0, "IPv4");
	ok(ss.ss_family == AF_INET && len == sizeof(struct sockaddr_in),
	   "as AF_INET");
	is_int(stepspec_ip_addr("::1", &ss, &len), 0, "IPv6");
	ok(ss.ss_family == AF_INET6 && len == sizeof(struct sockaddr_in6),
	   "as AF_INET6");
	is_int(stepspec_ip_addr("localhost", &ss, &len), -EINVAL,
	       "a name is never looked up");
	is_int(rules("connect", "{\"addr\":\"example.org\",\"port\":1,"
		     "\"expect\":\"fail\"}", 10000, buf, sizeof(buf)),
	       -EINVAL, "connect to a name refused");
	is_str(buf, "addr: 'example.org' is not an IPv4 or IPv6 address",
	       "on the key");
	is_int(rules("connect", "{\"addr\":\"10.0.2.2\",\"port\":1,"
		     "\"expect\":\"fail\",\"within_ms\":20000}", 10000, buf,
		     sizeof(buf)), -EINVAL, "a connect bound past the step's");
	is_int(rules("addr_add", "{\"dev\":\"eth0\",\"addr\":\"10.0.2.15\","
		     "\"gateway\":\"gw\"}", 10000, buf, sizeof(buf)),
	       -EINVAL, "addr_add without a prefix, a gateway name");
	is_str(buf, "addr: '10.0.2.15' is not an IPv4 address with a prefix "
	       "length (10.0.2.15/24)\ngateway: 'gw' is not an IPv4 address",
	       "each on its key");
}

/* Patterns that glibc's regcomp() would grow without bound are refused. */
static void test_regex(void)
{
	static const char *const good[] = {
		"^nandsim ",
		"[Vv]lan id is invalid",
		"a+b*c?d{2,5}(e|f)+",
		"(a{1,100}){1,100}",
		"[]+*{]x+",
		"[[:alpha:]+]{3}",
		"\\++",
		"x{",
		"",
	};
	static const struct {
		const char *re;
		int err;
	} bad[] = {
		/* found by fuzz-scenario: each '+' doubles the tree */
		{ "[Vv]lan+++++++++++++++++++++++++++++++++++++++ id is invalid",
		  -EINVAL },
		{ "((a{1,100}){1,100}){1,100}", -E2BIG },
		{ "a{1000}{1000}", -EINVAL },
		/* found by fuzz-run: 4096 copies, but each a stack of stars
		 * whose epsilon closures took glibc 14 s and more */
		{ "x~****++++++++++++~", -EINVAL },
		{ "a**", -EINVAL },
		{ "a+?", -EINVAL },
		{ "(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((x)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))",
		  -E2BIG },
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		okf(stepspec_regex_check(good[i]) == 0, "regex '%s' is fine",
		    good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		okf(stepspec_regex_check(bad[i].re) == bad[i].err,
		    "regex '%.40s' refused (%d)", bad[i].re, bad[i].err);
}

/* What stepspec_value_check() reported, "[index] msg" per line. */
static char found[1024];

static void collect(void *data, long index, const char *msg)
{
	size_t len = strlen(found);

	(void)data;
	snprintf(found + len, sizeof(found) - len, "%s[%ld] %s", len ? "\n" : "",
		 index, msg);
}

/* Check @json against @key: returns what it found ("" for nothing). */
static const char *value_check(const struct stepspec_key *key,
			       const char *json, int *ret)
{
	struct json_object *v = json_tokener_parse(json);

	found[0] = '\0';
	*ret = stepspec_value_check(key, v, collect, NULL);
	json_object_put(v);
	return found;
}

/*
 * The value checks hostctl's validator and guestd's request check share:
 * each problem once, worded as hostctl prints it, with the element of a
 * list it is about.
 */
static void test_values(void)
{
	static const char *const choices[] = { "a", "b", NULL };
	static const struct {
		struct stepspec_key key;
		const char *json, *want;
	} cases[] = {
		{ { "k", STEPSPEC_STRING, false, 0, 3, NULL }, "\"abc\"", "" },
		{ { "k", STEPSPEC_STRING, false, 0, 3, NULL }, "\"abcd\"",
		  "[-1] 4 bytes long, at most 3" },
		{ { "k", STEPSPEC_STRING, false, 0, 0, NULL }, "\"\"",
		  "[-1] must not be empty" },
		{ { "k", STEPSPEC_TEXT, false, 0, 0, NULL }, "\"\"", "" },
		{ { "k", STEPSPEC_STRING, false, 0, 0, NULL }, "1",
		  "[-1] expected a string, got an integer" },
		{ { "k", STEPSPEC_BOOL, false, 0, 0, NULL }, "null",
		  "[-1] expected a boolean, got null" },
		{ { "k", STEPSPEC_INT, false, 1, 5, NULL }, "0",
		  "[-1] 0 is out of range 1..5" },
		{ { "k", STEPSPEC_INT, false, 1, 5, NULL }, "99999999999999999999",
		  "[-1] number too large, want 1..5" },
		{ { "k", STEPSPEC_REGEX1, false, 0, 0, NULL }, "\"a\"",
		  "[-1] regex 'a' has 0 capture groups; it needs exactly one, around the number" },
		{ { "k", STEPSPEC_ERRNO, false, 0, 0, NULL }, "\"ENOPE\"",
		  "[-1] unknown errno name 'ENOPE'" },
		{ { "k", STEPSPEC_CHOICE, false, 0, 0, choices }, "\"c\"",
		  "[-1] 'c' is not one of: a, b" },
		{ { "k", STEPSPEC_PARAMS, false, 0, 0, NULL },
		  "[\"a=1\", 2, \"=x\", \"a=1\"]",
		  "[1] expected a string, got an integer\n"
		  "[2] bad module parameter '=x' (want key=value)\n"
		  "[3] 'a=1' is listed twice" },
		{ { "k", STEPSPEC_ARGS, false, 0, 1, NULL }, "[\"x\", \"a\\nb\"]",
		  "[-1] 2 arguments, at most 1\n"
		  "[1] not one line below 256 bytes (3 bytes, a line break)" },
		{ { "k", STEPSPEC_MTDDEV, false, 0, 0, NULL }, "\"/dev/mtd1\"", "" },
		{ { "k", STEPSPEC_MTDDEV, false, 0, 0, NULL }, "\"/dev/mtd1234\"",
		  "[-1] bad MTD device '/dev/mtd1234' (want /dev/mtdN)" },
		{ { "k", STEPSPEC_IFNAME, false, 0, 0, NULL }, "\"a:b\"",
		  "[-1] bad interface name 'a:b' (want 1..15 bytes, no '/', ':' or blank)" },
		{ { "k", STEPSPEC_DEVICE, false, 0, 0, NULL }, "\"vda1\"", "" },
		{ { "k", STEPSPEC_DEVICE, false, 0, 0, NULL }, "\"../etc\"",
		  "[-1] bad block device name '../etc' (want [a-z0-9]{1,31}, e.g. vda)" },
		{ { "k", STEPSPEC_ABSPATH, false, 0, 4, NULL }, "\"/abcd\"",
		  "[-1] '/abcd' is not an absolute path of at most 4 bytes" },
		{ { "k", STEPSPEC_GROUP, false, 0, 0, NULL }, "\"nope\"",
		  "[-1] 'nope' is no IPv4, IPv6 or MAC group address" },
		{ { "k", STEPSPEC_VIDS, false, 0, 0, NULL }, "[\"1\", \"x\"]",
		  "[1] " },
	};
	int r;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = value_check(&cases[i].key, cases[i].json, &r);
		size_t wl = strlen(cases[i].want);

		snprintf(what, sizeof(what), "value %s: %s", cases[i].json,
			 *cases[i].want ? "refused" : "taken");
		is_int(r, *cases[i].want ? -EINVAL : 0, what);
		/* A want ending in "] " need only be the start (brspec's words). */
		if (wl > 2 && strcmp(cases[i].want + wl - 2, "] ") == 0 &&
		    strncmp(got, cases[i].want, wl) == 0)
			got = cases[i].want;
		snprintf(what, sizeof(what), "value %s: what it says",
			 cases[i].json);
		is_str(got, cases[i].want, what);
	}
	{
		const struct stepspec_key own = { "k", STEPSPEC__COUNT + 1, false,
						  0, 0, NULL };

		is_int(stepspec_value_check(&own, NULL, NULL, NULL), -EOPNOTSUPP,
		       "a type of the table's user is left to it");
	}
	ok(stepspec_mtd_dev_ok("/dev/mtd0") && !stepspec_mtd_dev_ok("/dev/mtd") &&
		   !stepspec_mtd_dev_ok("/dev/mtdblock0"),
	   "the /dev/mtdN rule");
}

int main(void)
{
	test_table();
	test_rules();
	test_addrs();
	test_regex();
	test_values();
	return tap_done();
}
