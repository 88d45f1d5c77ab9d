/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The step kinds, declared once: per kind, its keys (type, required,
 * bounds, choices), the keys of which it needs at least one, the keys that
 * need another key, the key that must stay below the step's timeout, and
 * its rules between keys. docs/scenarios.md ("Steps") says the same in
 * prose.
 *
 * hostctl's scenario validator (hostctl/scenario/scenario-schema.c)
 * checks every step against this table, fully, before anything boots.
 * guestd (guestd/steps.c) checks each run request's steps against the same
 * table with the same value checks (stepspec_value_check(), in
 * stepspec-value.c); its step_ops hold behaviour alone and find their spec
 * by kind.
 *
 * Pure: json-c and libc, no logging. The rules report what they find in a
 * struct stepspec_problems, the value checks through a stepspec_problem_fn,
 * for the caller to place and print.
 */
#ifndef VLALAB_STEPSPEC_H
#define VLALAB_STEPSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <netinet/in.h>
#include <sys/socket.h>

#include <json-c/json.h>

/* Bounds of what the steps do, which their keys' bounds follow. */
#define STEPSPEC_READ_MAX (1024 * 1024) /* bytes a read step reads */
#define STEPSPEC_SAMPLE_MAX 32 /* sample names one scenario keeps */
#define STEPSPEC_SAMPLE_NAME_MAX 64 /* a sample's name, NUL included */
#define STEPSPEC_BENCH_WARMUP_MAX 100 /* runs a bench step throws away */
/* A bench step's "min" and "max": in the unit of its values (ns, say). */
#define STEPSPEC_BENCH_VALUE_MAX (INT64_C(1) << 62)

/*
 * The kselftest step: a program below STEPSPEC_KSELFTEST_ROOT in the guest,
 * named "DIR/FILE" as under the kernel's tools/testing/selftests, and its
 * arguments: at most ARGS_MAX of them, each below ARG_MAX bytes.
 */
#define STEPSPEC_KSELFTEST_ROOT "/usr/lib/kselftest"
#define STEPSPEC_KSELFTEST_PROGRAM_MAX 256 /* NUL included */
#define STEPSPEC_ARGS_MAX 64
#define STEPSPEC_ARG_MAX 256 /* NUL included */
/* The exec step's command, NUL included (hostctl run --exec). */
#define STEPSPEC_COMMAND_MAX 4096

/* What a key's value must be. */
enum stepspec_type {
	STEPSPEC_STRING, /* a non-empty string, at most max bytes if max > 0 */
	STEPSPEC_TEXT, /* any string, empty included */
	STEPSPEC_BOOL,
	STEPSPEC_INT, /* an integer in min..max */
	STEPSPEC_REGEX, /* a POSIX extended regex */
	STEPSPEC_REGEX1, /* a POSIX extended regex with one capture group */
	STEPSPEC_ERRNO, /* an errno name glibc knows */
	STEPSPEC_CHOICE, /* one of choices[] */
	STEPSPEC_PARAMS, /* an array of "key=value" strings */
	STEPSPEC_MTDDEV, /* "/dev/mtdN", N of 1..3 digits */
	STEPSPEC_IFNAME, /* a network interface name: 1..15 bytes, no '/' or blank */
	STEPSPEC_GROUP, /* an IPv4, IPv6 or MAC multicast group (brspec.h) */
	STEPSPEC_VLANS, /* an array of "VID [pvid] [untagged]" (brspec.h) */
	STEPSPEC_VIDS, /* an array of "VID" */
	STEPSPEC_MDBS, /* an array of MDB entry texts (brspec.h) */
	STEPSPEC_MDB_KEYS, /* an array of "PORT GROUP [vid N]" */
	STEPSPEC_DEVICE, /* a block device name, [a-z0-9]{1,31} */
	STEPSPEC_ABSPATH, /* an absolute path of at most max bytes, one line */
	STEPSPEC_ARGS, /* an array of program arguments (STEPSPEC_ARGS_MAX) */
	/*
	 * A table's user may number types of its own from here on, which
	 * stepspec_value_check() leaves to it (hostctl's scenario file keys).
	 */
	STEPSPEC__COUNT,
};

/* The most keys one kind may have, the common keys not counted. */
#define STEPSPEC_KEYS_MAX 24

struct stepspec_key {
	const char *key;
	enum stepspec_type type;
	bool required;
	int64_t min, max;
	const char *const *choices;
};

/* What a kind's rules found: a problem with the step, or with one key. */
struct stepspec_problem {
	char key[64]; /* the key it is about, or "" for the step */
	bool warning; /* valid, but fragile */
	char msg[256];
};

#define STEPSPEC_PROBLEMS_MAX 16

/* Problems beyond STEPSPEC_PROBLEMS_MAX are dropped. */
struct stepspec_problems {
	struct stepspec_problem v[STEPSPEC_PROBLEMS_MAX];
	size_t n;
};

struct stepspec {
	const char *kind;
	const struct stepspec_key *keys; /* ends with a NULL key */
	const char *const *need_one; /* at least one of these, or NULL */
	/*
	 * Keys that mean something only with another key: pairs of a key
	 * and the key it needs, ending with NULL; or NULL.
	 */
	const char *const *needs;
	/* A key whose value must be below the step's timeout_ms, or NULL. */
	const char *below_timeout;
	/* Rules between keys, after each key passed its own; or NULL. */
	void (*check)(struct json_object *step, struct stepspec_problems *out);
};

/*
 * trace_cmd: its function filter (trace-cmd record -l) and module (the
 * modprobe it records): their bounds, the filter's characters besides
 * [A-Za-z0-9_-], and the check of either (@extra: those characters, or
 * "" for a module name).
 */
/*
 * The addr_add and connect steps: an address's text, NUL included (an
 * IPv6 literal is at most 45 bytes, an IPv4 one with "/32" 18).
 */
#define STEPSPEC_ADDR_MAX 64
/* The connect step's bound on the connect when within_ms is absent. */
#define STEPSPEC_CONNECT_WITHIN_MS 3000

/*
 * "A.B.C.D/N" (N of 0..32) into @addr and @prefix: 0, or -EINVAL for
 * anything else.
 */
int stepspec_ipv4_prefix(const char *text, struct in_addr *addr,
			 unsigned int *prefix);
/*
 * An IPv4 or IPv6 literal into @ss (family and address, port 0) and its
 * length @len: 0, or -EINVAL for anything else (no names: nothing looks
 * one up).
 */
int stepspec_ip_addr(const char *text, struct sockaddr_storage *ss,
		     socklen_t *len);

#define STEPSPEC_TRACE_FILTER_MAX 128
#define STEPSPEC_MODULE_NAME_MAX 56
#define STEPSPEC_TRACE_FILTER_CHARS "*?:.!"
bool stepspec_trace_cmd_word_ok(const char *word, const char *extra);

/* Every kind, in the order docs/scenarios.md lists them. */
extern const struct stepspec stepspec_table[];
extern const size_t stepspec_count;

/* Keys every step may have, whatever its kind: kind, name, timeout_ms. */
extern const struct stepspec_key stepspec_common_keys[];

/*
 * Keys only a step of a run request's cleanup list may have, whatever its
 * kind: if_exists (docs/scenarios.md, "Cleanup").
 */
extern const struct stepspec_key stepspec_cleanup_keys[];

/* The spec of @kind, or NULL. */
const struct stepspec *stepspec_find(const char *kind);

/* @key in @keys (which may be NULL), or NULL. */
const struct stepspec_key *stepspec_key_find(const struct stepspec_key *keys,
					     const char *key);

/*
 * The keys a fault step with @attr takes besides kind, name, timeout_ms
 * and attr (NULL-terminated), or NULL for an unknown attr.
 */
const char *const *stepspec_fault_keys(const char *attr);

/*
 * A kselftest step's program is "DIR/FILE..." below STEPSPEC_KSELFTEST_ROOT:
 * relative, below STEPSPEC_KSELFTEST_PROGRAM_MAX bytes, at least two
 * components, none empty, "." or "..", of [A-Za-z0-9._+-]. The image
 * carries tools/testing/selftests/DIR there. True when @program is one.
 */
bool stepspec_kselftest_program_ok(const char *program);
/*
 * The DIR of such a program (its first component) into @buf. Returns 0,
 * or -EINVAL for a program that is not one, -ENAMETOOLONG.
 */
int stepspec_kselftest_dir(const char *program, char *buf, size_t size);

/*
 * Check the rules of @spec between the keys of @step, whose keys passed
 * their own checks already: its need_one, its check, its needs, and its
 * below_timeout against the step's timeout_ms (@step_timeout_ms when it
 * has none), in that order. Returns 0 when nothing but warnings was found,
 * else -EINVAL; either way the findings are added to @out.
 */
int stepspec_check_rules(const struct stepspec *spec, struct json_object *step,
			 uint64_t step_timeout_ms,
			 struct stepspec_problems *out);

/*
 * Whether the extended regex @pattern stays small once compiled. glibc's
 * regcomp() builds "a+" as "aa*" and "a{2,5}" as five copies of "a", so
 * repetitions of repetitions ("n++++...", nested counted groups) grow
 * exponentially and a 90-byte pattern can eat all memory. Returns 0,
 * -EINVAL for a repetition of a repetition ("a**", "a+{2}": undefined in
 * POSIX, and glibc's epsilon closures over such a stack take exponential
 * time), or -E2BIG when the copies would come to more than
 * STEPSPEC_REGEX_NODES_MAX or the groups nest deeper than
 * STEPSPEC_REGEX_DEPTH_MAX. A pattern that is not a regex at all is left
 * to regcomp() to refuse.
 */
#define STEPSPEC_REGEX_NODES_MAX 100000
#define STEPSPEC_REGEX_DEPTH_MAX 64
int stepspec_regex_check(const char *pattern);

/* ---- stepspec-value.c: one value against its key's type ---- */

/*
 * Where stepspec_value_check() reports each problem it finds: @index is
 * the element of the array value it is about, or -1 for the value itself;
 * @msg says what is wrong, one line without a path ("must not be
 * empty", "expected a string, got an integer").
 */
typedef void stepspec_problem_fn(void *data, long index, const char *msg);

/*
 * Check @v, the value of @key, against @key's type and bounds: its JSON
 * type, then what the type asks (a non-empty string, an integer in
 * min..max, a regex that compiles and stays small, an errno name, one of
 * the choices, each entry of a list, ...). Calls @fn (which may be NULL)
 * once per problem, in the order hostctl prints them. Returns 0, -EINVAL
 * when it found any, or -EOPNOTSUPP for a type past STEPSPEC__COUNT (a
 * type of the table's user, such as hostctl's scenario keys).
 */
int stepspec_value_check(const struct stepspec_key *key, struct json_object *v,
			 stepspec_problem_fn *fn, void *data);

/*
 * An array of strings, each passing @ok, no two alike (as @same says, or
 * strcmp() when it is NULL): "bad @what '...' (want @want)", "'...' is
 * listed twice". Reports and returns as stepspec_value_check().
 */
int stepspec_strings_check(struct json_object *v, bool (*ok)(const char *),
			   bool (*same)(const char *, const char *),
			   const char *what, const char *want,
			   stepspec_problem_fn *fn, void *data);

/* A JSON value's type in words, as the messages say it: "an integer". */
const char *stepspec_json_type_name(struct json_object *v);

/* The rules of the string types, for the code that uses such a value. */
bool stepspec_mtd_dev_ok(const char *s); /* STEPSPEC_MTDDEV */
bool stepspec_ifname_ok(const char *s); /* STEPSPEC_IFNAME */
bool stepspec_device_name_ok(const char *s); /* STEPSPEC_DEVICE */

#endif
