// SPDX-License-Identifier: GPL-2.0-only
/*
 * One value of a step's key against its type (stepspec.h): the checks
 * hostctl's scenario validator and guestd's request check share, and the
 * words, addresses, kselftest programs and regexes the types are made of.
 * Pure: the problems go to the caller's function, worded but without a
 * path, for it to place and print.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brspec.h"
#include "proto.h"
#include "stepspec.h"

/* Where a check reports: the caller's function, and whether it was called. */
struct report {
	stepspec_problem_fn *fn;
	void *data;
	int r;
};

static void say(struct report *rp, long index, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(struct report *rp, long index, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;

	rp->r = -EINVAL;
	if (!rp->fn)
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	rp->fn(rp->data, index, msg ? msg : "out of memory");
	free(msg);
}

const char *stepspec_json_type_name(struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_double:
		return "a number";
	case json_type_int:
		return "an integer";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		return "a string";
	}
	return "something else";
}

/* Whether @v is of JSON type @want; if not, "expected @name, got ...". */
static bool type_is(struct report *rp, long index, struct json_object *v,
		    enum json_type want, const char *name)
{
	if (json_object_get_type(v) == want)
		return true;
	say(rp, index, "expected %s, got %s", name, stepspec_json_type_name(v));
	return false;
}

static bool strings_check(struct report *rp, struct json_object *v,
			  bool (*ok)(const char *),
			  bool (*same)(const char *, const char *),
			  const char *what, const char *want)
{
	size_t n;

	if (!type_is(rp, -1, v, json_type_array, "an array"))
		return false;
	n = json_object_array_length(v);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		const char *s;

		if (!type_is(rp, (long)i, e, json_type_string, "a string"))
			continue;
		s = json_object_get_string(e);
		if (!ok(s)) {
			say(rp, (long)i, "bad %s '%s' (want %s)", what, s,
			    want);
			continue;
		}
		for (size_t j = 0; j < i; j++) {
			struct json_object *f = json_object_array_get_idx(v, j);
			const char *t;

			if (!json_object_is_type(f, json_type_string))
				continue;
			t = json_object_get_string(f);
			if (same ? same(s, t) : strcmp(s, t) == 0) {
				say(rp, (long)i, "'%s' is listed twice", s);
				break;
			}
		}
	}
	return true;
}

int stepspec_strings_check(struct json_object *v, bool (*ok)(const char *),
			   bool (*same)(const char *, const char *),
			   const char *what, const char *want,
			   stepspec_problem_fn *fn, void *data)
{
	struct report rp = { fn, data, 0 };

	strings_check(&rp, v, ok, same, what, want);
	return rp.r;
}

bool stepspec_device_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= 31 &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789") == n;
}

bool stepspec_mtd_dev_ok(const char *s)
{
	const char *n = s + strlen("/dev/mtd");

	return strncmp(s, "/dev/mtd", strlen("/dev/mtd")) == 0 && *n &&
	       strlen(n) <= 3 && strspn(n, "0123456789") == strlen(n);
}

bool stepspec_ifname_ok(const char *s)
{
	size_t len = strlen(s);

	if (len == 0 || len >= BRSPEC_IFNAME_MAX || !strcmp(s, ".") ||
	    !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (*s == '/' || *s == ':' || isspace((unsigned char)*s) ||
		    iscntrl((unsigned char)*s))
			return false;
	return true;
}

/* "key=value", the key of [A-Za-z0-9_.-]. */
static bool param_ok(const char *s)
{
	const char *eq = strchr(s, '=');

	if (!eq || eq == s)
		return false;
	for (; s < eq; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' &&
		    *s != '.')
			return false;
	return true;
}

/* An array of brspec.h texts, each of them parsing. */
static void entries_check(struct report *rp, enum stepspec_type type,
			  struct json_object *v)
{
	char err[256];

	if (!type_is(rp, -1, v, json_type_array, "an array"))
		return;
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		struct brspec_vlan vl;
		struct brspec_mdb m;
		const char *s;
		int r;

		if (!type_is(rp, (long)i, e, json_type_string, "a string"))
			continue;
		s = json_object_get_string(e);
		if (type == STEPSPEC_VLANS || type == STEPSPEC_VIDS)
			r = brspec_vlan_parse(s, type == STEPSPEC_VIDS, &vl,
					      err, sizeof(err));
		else
			r = brspec_mdb_parse(s, type == STEPSPEC_MDB_KEYS, &m,
					     err, sizeof(err));
		if (r < 0)
			say(rp, (long)i, "%s", err);
	}
}

/*
 * A program's arguments: at most key->max strings, each one line and
 * below STEPSPEC_ARG_MAX bytes; the same one twice is fine.
 */
static void args_check(struct report *rp, const struct stepspec_key *key,
		       struct json_object *v)
{
	size_t n;

	if (!type_is(rp, -1, v, json_type_array, "an array"))
		return;
	n = json_object_array_length(v);
	if (n > (size_t)key->max)
		say(rp, -1, "%zu arguments, at most %" PRId64, n, key->max);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(v, i);
		const char *s;

		if (!type_is(rp, (long)i, e, json_type_string, "a string"))
			continue;
		s = json_object_get_string(e);
		if (strlen(s) >= STEPSPEC_ARG_MAX || strpbrk(s, "\n\r"))
			say(rp, (long)i,
			    "not one line below %d bytes (%zu bytes%s)",
			    STEPSPEC_ARG_MAX, strlen(s),
			    strpbrk(s, "\n\r") ? ", a line break" : "");
	}
}

static void string_check(struct report *rp, const struct stepspec_key *key,
			 struct json_object *v)
{
	const char *s;

	if (!type_is(rp, -1, v, json_type_string, "a string"))
		return;
	s = json_object_get_string(v);
	if (key->type != STEPSPEC_TEXT && !*s) {
		say(rp, -1, "must not be empty");
		return;
	}
	if (key->max > 0 && strlen(s) > (size_t)key->max)
		say(rp, -1, "%zu bytes long, at most %" PRId64, strlen(s),
		    key->max);
}

static void int_check(struct report *rp, const struct stepspec_key *key,
		      struct json_object *v)
{
	int64_t i;

	if (!type_is(rp, -1, v, json_type_int, "an integer"))
		return;
	i = json_object_get_int64(v);
	/* json-c clamps what int64 cannot hold: don't print the clamp. */
	if (i == INT64_MAX || i == INT64_MIN)
		say(rp, -1, "number too %s, want %" PRId64 "..%" PRId64,
		    i < 0 ? "small" : "large", key->min, key->max);
	else if (i < key->min || i > key->max)
		say(rp, -1, "%s is out of range %" PRId64 "..%" PRId64,
		    json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN),
		    key->min, key->max);
}

static void regex_check(struct report *rp, const struct stepspec_key *key,
			const char *s)
{
	regex_t re;
	int r;

	r = stepspec_regex_check(s);
	if (r == -EINVAL) {
		say(rp, -1,
		    "regex '%.64s' repeats a repetition ('a**', 'a+{2}'), which POSIX leaves undefined",
		    s);
		return;
	}
	if (r < 0) {
		say(rp, -1,
		    "regex '%.64s' would grow past %d nodes once compiled (repetitions of repetitions)",
		    s, STEPSPEC_REGEX_NODES_MAX);
		return;
	}
	r = regcomp(&re, s,
		    REG_EXTENDED | REG_NEWLINE |
			    (key->type == STEPSPEC_REGEX ? REG_NOSUB : 0));
	if (r) {
		char buf[256];

		regerror(r, &re, buf, sizeof(buf));
		say(rp, -1, "bad regex '%s': %s", s, buf);
		return;
	}
	if (key->type == STEPSPEC_REGEX1 && re.re_nsub != 1)
		say(rp, -1,
		    "regex '%s' has %zu capture groups; it needs exactly one, around the number",
		    s, re.re_nsub);
	regfree(&re);
}

static void choice_check(struct report *rp, const struct stepspec_key *key,
			 const char *s)
{
	char list[256] = "";

	for (const char *const *c = key->choices; *c; c++)
		if (strcmp(*c, s) == 0)
			return;
	for (const char *const *c = key->choices; *c; c++) {
		if (list[0])
			strcat(list, ", ");
		strncat(list, *c, sizeof(list) - strlen(list) - 3);
	}
	say(rp, -1, "'%s' is not one of: %s", s, list);
}

/* The types whose value is one string, checked by what it says. */
static void text_check(struct report *rp, const struct stepspec_key *key,
		       const char *s)
{
	struct brspec_group g;
	int e;

	switch (key->type) {
	case STEPSPEC_REGEX:
	case STEPSPEC_REGEX1:
		regex_check(rp, key, s);
		return;
	case STEPSPEC_ERRNO:
		if (proto_errno_parse(s, &e) < 0)
			say(rp, -1, "unknown errno name '%s'", s);
		return;
	case STEPSPEC_CHOICE:
		choice_check(rp, key, s);
		return;
	case STEPSPEC_ABSPATH:
		if (s[0] != '/' || strlen(s) > (size_t)key->max ||
		    strpbrk(s, "\n\r"))
			say(rp, -1,
			    "'%s' is not an absolute path of at most %" PRId64
			    " bytes",
			    s, key->max);
		return;
	case STEPSPEC_MTDDEV:
		if (!stepspec_mtd_dev_ok(s))
			say(rp, -1, "bad MTD device '%s' (want /dev/mtdN)", s);
		return;
	case STEPSPEC_IFNAME:
		if (!stepspec_ifname_ok(s))
			say(rp, -1,
			    "bad interface name '%s' (want 1..15 bytes, no '/', ':' or blank)",
			    s);
		return;
	case STEPSPEC_GROUP:
		if (brspec_group_parse(s, &g) < 0)
			say(rp, -1,
			    "'%s' is no IPv4, IPv6 or MAC group address", s);
		return;
	case STEPSPEC_DEVICE:
		if (!stepspec_device_name_ok(s))
			say(rp, -1,
			    "bad block device name '%s' (want [a-z0-9]{1,31}, e.g. vda)",
			    s);
		return;
	default:
		return;
	}
}

int stepspec_value_check(const struct stepspec_key *key, struct json_object *v,
			 stepspec_problem_fn *fn, void *data)
{
	struct report rp = { fn, data, 0 };

	switch (key->type) {
	case STEPSPEC_STRING:
	case STEPSPEC_TEXT:
		string_check(&rp, key, v);
		break;
	case STEPSPEC_BOOL:
		type_is(&rp, -1, v, json_type_boolean, "a boolean");
		break;
	case STEPSPEC_INT:
		int_check(&rp, key, v);
		break;
	case STEPSPEC_REGEX:
	case STEPSPEC_REGEX1:
	case STEPSPEC_ERRNO:
	case STEPSPEC_CHOICE:
	case STEPSPEC_ABSPATH:
	case STEPSPEC_MTDDEV:
	case STEPSPEC_IFNAME:
	case STEPSPEC_GROUP:
	case STEPSPEC_DEVICE:
		if (type_is(&rp, -1, v, json_type_string, "a string"))
			text_check(&rp, key, json_object_get_string(v));
		break;
	case STEPSPEC_PARAMS:
		strings_check(&rp, v, param_ok, NULL, "module parameter",
			      "key=value");
		break;
	case STEPSPEC_ARGS:
		args_check(&rp, key, v);
		break;
	case STEPSPEC_VLANS:
	case STEPSPEC_VIDS:
	case STEPSPEC_MDBS:
	case STEPSPEC_MDB_KEYS:
		entries_check(&rp, key->type, v);
		break;
	default:
		/* Past STEPSPEC__COUNT: a type of the table's user. */
		return -EOPNOTSUPP;
	}
	return rp.r;
}

bool stepspec_trace_cmd_word_ok(const char *word, const char *extra)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";

	if (!*word || *word == '-')
		return false;
	for (; *word; word++)
		if (!strchr(ok, *word) && !strchr(extra, *word))
			return false;
	return true;
}

bool stepspec_kselftest_program_ok(const char *program)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-";
	size_t len = strlen(program), parts = 0;
	const char *s = program;

	if (len == 0 || len >= STEPSPEC_KSELFTEST_PROGRAM_MAX)
		return false;
	while (*s) {
		size_t n = strspn(s, ok);

		if (n == 0 || (n == 1 && s[0] == '.') ||
		    (n == 2 && s[0] == '.' && s[1] == '.'))
			return false;
		parts++;
		s += n;
		if (*s == '\0')
			break;
		if (*s != '/' || s[1] == '\0')
			return false;
		s++;
	}
	return parts >= 2;
}

int stepspec_kselftest_dir(const char *program, char *buf, size_t size)
{
	size_t n;

	if (!stepspec_kselftest_program_ok(program))
		return -EINVAL;
	n = strcspn(program, "/");
	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(buf, program, n);
	buf[n] = '\0';
	return 0;
}

int stepspec_ipv4_prefix(const char *text, struct in_addr *addr,
			 unsigned int *prefix)
{
	char buf[STEPSPEC_ADDR_MAX];
	const char *slash = strchr(text, '/');
	unsigned int n = 0;
	size_t len;

	if (!slash || strlen(text) >= sizeof(buf))
		return -EINVAL;
	len = (size_t)(slash - text);
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (inet_pton(AF_INET, buf, addr) != 1)
		return -EINVAL;
	if (!slash[1] || strlen(slash + 1) > 2)
		return -EINVAL;
	for (const char *c = slash + 1; *c; c++) {
		if (*c < '0' || *c > '9')
			return -EINVAL;
		n = n * 10 + (unsigned int)(*c - '0');
	}
	if (n > 32)
		return -EINVAL;
	*prefix = n;
	return 0;
}

int stepspec_ip_addr(const char *text, struct sockaddr_storage *ss,
		     socklen_t *len)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, text, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		*len = sizeof(*in);
		return 0;
	}
	if (inet_pton(AF_INET6, text, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		*len = sizeof(*in6);
		return 0;
	}
	return -EINVAL;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* Past the bracket expression at @p ('['), or at its unclosed end. */
static const char *skip_bracket(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	while (*p && *p != ']') {
		if (p[0] == '[' &&
		    (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
			const char *end = strchr(p + 2, p[1]);

			while (end && end[1] != ']')
				end = strchr(end + 1, p[1]);
			if (!end)
				return p + strlen(p);
			p = end + 2;
		} else {
			p++;
		}
	}
	return *p ? p + 1 : p;
}

/*
 * How many copies of its operand the repetition at *@p makes (glibc's
 * parse_dup_op()), moving *@p past it; 0 when *@p is not one.
 */
static uint64_t repeat_copies(const char **p)
{
	const char *s = *p;
	uint64_t m = 0, n = 0;
	bool comma = false, have_n = false;

	if (*s == '*' || *s == '?' || *s == '+') {
		*p = s + 1;
		return *s == '+' ? 2 : 1;
	}
	if (*s != '{')
		return 0;
	for (s++; *s >= '0' && *s <= '9'; s++)
		m = sat_add(sat_mul(m, 10), (uint64_t)(*s - '0'));
	if (*s == ',') {
		comma = true;
		for (s++; *s >= '0' && *s <= '9'; s++, have_n = true)
			n = sat_add(sat_mul(n, 10), (uint64_t)(*s - '0'));
	}
	if (*s != '}')
		return 0;
	*p = s + 1;
	if (!comma)
		return m ? m : 1;
	if (!have_n)
		return sat_add(m, 1);
	return n ? n : 1;
}

int stepspec_regex_check(const char *pattern)
{
	/* Per open group: the nodes so far and those of its last atom. */
	uint64_t sum[STEPSPEC_REGEX_DEPTH_MAX + 1] = { 0 };
	uint64_t last[STEPSPEC_REGEX_DEPTH_MAX + 1] = { 0 };
	const char *p = pattern;
	uint64_t total = 0;
	bool repeated = false;
	int d = 0;

	while (*p) {
		uint64_t atom, copies = repeat_copies(&p);

		if (copies) {
			uint64_t grown = sat_mul(last[d], copies);

			/*
			 * A repetition of a repetition ("a**", "a+{2}"):
			 * POSIX leaves it undefined, and glibc's epsilon
			 * closures over such stacks take time exponential
			 * in their height.
			 */
			if (repeated)
				return -EINVAL;
			repeated = true;

			sum[d] = sat_add(sum[d] - last[d], grown);
			last[d] = grown;
			continue;
		}
		repeated = false;
		if (*p == '(') {
			if (d == STEPSPEC_REGEX_DEPTH_MAX)
				return -E2BIG;
			d++;
			sum[d] = last[d] = 0;
			p++;
			continue;
		}
		if (*p == '|') {
			last[d] = 0;
			p++;
			continue;
		}
		atom = 1;
		if (*p == ')' && d > 0) {
			atom = sat_add(sum[d], 1);
			d--;
			p++;
		} else if (*p == '[') {
			p = skip_bracket(p);
		} else if (*p == '\\' && p[1]) {
			p += 2;
		} else {
			p++;
		}
		sum[d] = sat_add(sum[d], atom);
		last[d] = atom;
	}
	for (int i = 0; i <= d; i++)
		total = sat_add(total, sum[i]);
	return total > STEPSPEC_REGEX_NODES_MAX ? -E2BIG : 0;
}
