/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The guestd <-> hostctl protocol: one JSON object per line over the
 * virtio-serial port PROTO_PORT_NAME. docs/protocol.md describes it in prose;
 * this header is the single definition both programs compile against.
 *
 * Guest -> host: events, {"ev": "<name>", "t_us": <guest CLOCK_BOOTTIME>, ...}.
 * Host -> guest: requests, {"req": "run" | "shutdown", ...}.
 *
 * The host treats everything the guest sends as hostile: lines are bounded
 * by PROTO_LINE_MAX, strings by the array sizes below, and every field is
 * type-checked by proto_event_decode(). guestd reads requests as strictly,
 * through proto_request_decode() and proto_run_decode().
 */
#ifndef VLALAB_PROTO_H
#define VLALAB_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROTO_VERSION 1
#define PROTO_PORT_NAME "org.vlalab.guestd.0"
/* The second port: an SSH session per host connection (docs/repro.md). */
#define PROTO_SSH_PORT_NAME "org.vlalab.ssh.0"
/*
 * Where a connection starts in that port's byte stream, each way
 * (guestd/sshport.c): the host sends SSHPORT_PREAMBLE and a line of
 * SSHPORT_NONCE_LEN random hex digits in one write, before SSH; the guest
 * sends the same bytes back before dropbear's. Either side drops what
 * comes before them: the tail of an earlier connection.
 */
#define SSHPORT_PREAMBLE "VLALAB-SSH-1\n"
#define SSHPORT_NONCE_LEN 16
/* Preamble, nonce and newline. */
#define SSHPORT_HELLO_LEN (sizeof(SSHPORT_PREAMBLE) - 1 + SSHPORT_NONCE_LEN + 1)

/* Longest line either side may send, in bytes, newline included. */
#define PROTO_LINE_MAX (64 * 1024)

/* Steps of a run request's "cleanup" list (docs/protocol.md). Their
 * events number them after the main steps: nsteps .. nsteps + ncleanup - 1. */
#define PROTO_CLEANUP_MAX 64

/* String bounds, in bytes, terminating NUL included. */
#define PROTO_NAME_MAX 128 /* scenario names, "<area>/<name>" */
#define PROTO_KIND_MAX 32 /* step kinds */
#define PROTO_TEXT_MAX 4096 /* expected, got, reason, kmsg text */
#define PROTO_RELEASE_MAX 65 /* uname -r */
#define PROTO_DIGEST_MAX 65 /* hex digest of the kernel config */
#define PROTO_BOOT_ID_MAX 37 /* a boot id: a UUID's 36 characters */

/*
 * The run request's bounds and defaults: its timeouts (timeout_ms,
 * step_timeout_ms and a step's own timeout_ms, in ms) and its steps.
 */
#define PROTO_TIMEOUT_DEFAULT_MS 60000
#define PROTO_STEP_TIMEOUT_DEFAULT_MS 10000
#define PROTO_TIMEOUT_MAX_MS 3600000
#define PROTO_STEPS_MAX 256
#define PROTO_CLEANUP_TIMEOUT_DEFAULT_MS 30000 /* the cleanup list's bound */

/*
 * The fault step's search (fail_nth with "at"): the function name's bound,
 * NUL included, and how many calls it tries by default and at most.
 */
#define PROTO_FAULT_AT_MAX 64
#define PROTO_FAULT_TRIES_DEFAULT 200
#define PROTO_FAULT_TRIES_MAX 1000

/* Verdicts use KTAP's words, plus crash. An infrastructure problem is
 * VERDICT_ERROR, never VERDICT_FAIL. xpass is the host's alone: the guest
 * may not send it. */
enum proto_verdict {
	VERDICT_PASS,
	VERDICT_FAIL,
	VERDICT_SKIP,
	VERDICT_XFAIL,
	VERDICT_TIMEOUT,
	VERDICT_ERROR,
	VERDICT_CRASH,
	VERDICT_XPASS, /* host only: an xfail scenario passed (a failure) */
	VERDICT__COUNT,
};

const char *proto_verdict_name(enum proto_verdict v);
/* Returns 0 and sets *ret, or -EINVAL for an unknown word. */
int proto_verdict_parse(const char *s, enum proto_verdict *ret);
/* True for pass, skip and xfail: the verdicts that keep a run green. */
bool proto_verdict_ok(enum proto_verdict v);

enum proto_event_type {
	PROTO_EV_HELLO,
	PROTO_EV_SCENARIO_BEGIN,
	PROTO_EV_STEP_BEGIN,
	PROTO_EV_STEP_END,
	PROTO_EV_SCENARIO_END,
	PROTO_EV_KMSG,
	PROTO_EV_HEARTBEAT,
	PROTO_EV_BYE,
	PROTO_EV_AUDIT,
	PROTO_EV_AUDIT_FILE,
	PROTO_EV_SUBTEST,
	PROTO_EV_OUTPUT,
	PROTO_EV__COUNT,
};

const char *proto_event_name(enum proto_event_type t);

/* "hello": sent once, first, when guestd has opened the port. */
struct proto_hello {
	int64_t version; /* PROTO_VERSION of the guest */
	char release[PROTO_RELEASE_MAX]; /* uname -r */
	char proc_version[PROTO_TEXT_MAX]; /* /proc/version, no newline */
	char cmdline[PROTO_TEXT_MAX]; /* /proc/cmdline, no newline */
	char config_digest[PROTO_DIGEST_MAX]; /* FNV-1a 64 hex of /proc/config.gz */
	uint64_t boot_ms; /* CLOCK_BOOTTIME when hello was sent */
	/*
	 * The printk clock against CLOCK_BOOTTIME: guestd read CLOCK_BOOTTIME
	 * (clock_t0_us), wrote a marker record to /dev/kmsg, read it again
	 * (clock_t1_us), and the kernel stamped the record clock_ts_us. All
	 * three 0 (absent on the wire) when it could not measure.
	 */
	uint64_t clock_t0_us, clock_ts_us, clock_t1_us;
	/*
	 * The guest's boot id: the kernel's (/proc/sys/kernel/random/boot_id)
	 * for a guest that booted; for one restored from a saved image
	 * (restored 1), the id the host gave it in its "restored" request,
	 * since the kernel's cannot change. "" (absent) from an older guestd.
	 */
	char boot_id[PROTO_BOOT_ID_MAX];
	uint32_t restored; /* 1: a hello answering "restored"; else 0, absent */
};

/* "scenario_begin": the guest part of a scenario has started. */
struct proto_scenario_begin {
	char scenario[PROTO_NAME_MAX];
	uint32_t nsteps; /* the main steps */
	uint32_t ncleanup; /* cleanup steps, after them; may be
					     * absent on the wire (0) */
};

/*
 * "step_begin": step number `step` (0-based) of `scenario` has started.
 * Cleanup steps are numbered after the main ones: step nsteps + j is
 * cleanup step j.
 */
struct proto_step_begin {
	char scenario[PROTO_NAME_MAX];
	uint32_t step;
	char kind[PROTO_KIND_MAX];
	char name[PROTO_NAME_MAX]; /* the step's name, or "" */
};

/*
 * A bench step's measurements (docs/guestd.md, "bench"): how many runs,
 * and their median, min and max in the unit the step captured (ns for
 * bch_bench), and their coefficient of variation (standard deviation over
 * mean) in parts per million. On the wire only when runs is not 0; runs
 * is at most PROTO_BENCH_RUNS_MAX and min <= median <= max.
 */
#define PROTO_BENCH_RUNS_MAX 1000

struct proto_bench {
	uint32_t runs;
	uint64_t median, min, max;
	uint64_t cv_ppm;
};

/*
 * A stack_tracer step's figures (docs/scenarios.md, "stack_tracer"): the
 * deepest kernel stack the ftrace stack tracer saw between its start and
 * its stop (tracefs stack_max_size, bytes), the frames of that stack
 * (stack_trace), and their functions from the deepest up, " < " between
 * them, cut with "..." to fit. On the wire only when max_bytes is not 0;
 * max_bytes is at most PROTO_STACK_BYTES_MAX, frames at most
 * PROTO_STACK_FRAMES_MAX.
 */
#define PROTO_STACK_BYTES_MAX (1024 * 1024)
#define PROTO_STACK_FRAMES_MAX 4096

struct proto_stack {
	uint32_t max_bytes;
	uint32_t frames;
	char functions[PROTO_TEXT_MAX];
};

/* "step_end": its verdict; expected and got are set on failure. */
struct proto_step_end {
	char scenario[PROTO_NAME_MAX];
	uint32_t step;
	enum proto_verdict verdict;
	uint64_t duration_us;
	char expected[PROTO_TEXT_MAX];
	char got[PROTO_TEXT_MAX];
	char reason[PROTO_TEXT_MAX];
	struct proto_bench bench; /* a bench step's; runs 0 otherwise */
	struct proto_stack stack; /* a stack_tracer stop's; 0 otherwise */
};

/* "scenario_end": the scenario's verdict and, unless it passed, why. */
struct proto_scenario_end {
	char scenario[PROTO_NAME_MAX];
	enum proto_verdict verdict;
	uint64_t duration_us;
	char reason[PROTO_TEXT_MAX];
};

/* "kmsg": one /dev/kmsg record, tagged with what was open when it came. */
struct proto_kmsg {
	char scenario[PROTO_NAME_MAX]; /* "" when no scenario was open */
	int64_t step; /* -1 when no step was open */
	uint64_t seq; /* /dev/kmsg sequence number */
	uint64_t ts_us; /* the kernel's timestamp */
	uint32_t prio; /* syslog level, 0..7 */
	char msg[PROTO_TEXT_MAX];
};

/*
 * The state-leak audit: guestd snapshots the kernel's state before a
 * scenario's first step ("before") and just before its scenario_end
 * ("after"). hostctl compares the two.
 */
#define PROTO_PHASE_MAX 8 /* "before" or "after" */
#define PROTO_PATH_MAX 256 /* a state file's path */
#define PROTO_AUDIT_FILES_MAX 16 /* state files one scenario may declare */
#define PROTO_AUDIT_HEAD_MAX 256 /* a state file's first bytes, escaped */
#define PROTO_AUDIT_READ_MAX (1024 * 1024) /* bytes of a state file hashed */

/* "audit": the kernel's taint and its count of WARNING and BUG lines. */
struct proto_audit {
	char scenario[PROTO_NAME_MAX];
	char phase[PROTO_PHASE_MAX]; /* "before" or "after" */
	uint64_t tainted; /* /proc/sys/kernel/tainted */
	uint64_t warns; /* WARNING lines since boot */
	uint64_t bugs; /* BUG, Oops, panic... lines */
	uint32_t nfiles; /* audit_file events that follow */
};

/* "audit_file": one state file the scenario declared, after its "audit". */
struct proto_audit_file {
	char scenario[PROTO_NAME_MAX];
	char phase[PROTO_PHASE_MAX];
	char path[PROTO_PATH_MAX];
	char err[32]; /* errno name reading it, or "" */
	uint64_t size; /* bytes read, at most READ_MAX */
	char hash[17]; /* FNV-1a 64 of those bytes, hex */
	char head[PROTO_AUDIT_HEAD_MAX]; /* their start, escaped */
};

/*
 * A step that runs a test program (kselftest) reports each of the
 * program's own tests as a "subtest" event, between the step's step_begin
 * and step_end, numbered 0, 1, 2... in the order they ended.
 */
#define PROTO_SUBTESTS_MAX 1024 /* subtests one step may report */
#define PROTO_SUBTEST_NAME_MAX 256 /* a subtest's name, NUL included */
#define PROTO_SUBTEST_REASON_MAX 512 /* its skip or failure reason */

/* "subtest": one test of the open step's program; verdict is pass, fail,
 * skip or xfail, nothing else. */
struct proto_subtest {
	char scenario[PROTO_NAME_MAX];
	uint32_t step; /* the open step */
	uint32_t index; /* 0-based, no gaps, below PROTO_SUBTESTS_MAX */
	char name[PROTO_SUBTEST_NAME_MAX];
	enum proto_verdict verdict;
	char reason[PROTO_SUBTEST_REASON_MAX]; /* or "" */
};

/*
 * "output": a piece of what the open step's program (an exec step) wrote
 * on its standard output ("stdout") or error ("stderr"), as it came: at
 * most PROTO_OUTPUT_MAX - 1 bytes, cut at a newline when one is there, a
 * NUL byte sent as '?'; any other byte as it is (the host escapes it).
 */
#define PROTO_OUTPUT_MAX 1024
#define PROTO_STREAM_MAX 8 /* "stdout" or "stderr" */

struct proto_output {
	char scenario[PROTO_NAME_MAX];
	uint32_t step; /* the open step */
	char stream[PROTO_STREAM_MAX];
	char data[PROTO_OUTPUT_MAX];
};

/* "heartbeat": every second while guestd runs; "bye": before shutdown.
 * Both carry only the common fields. */

struct proto_event {
	enum proto_event_type type;
	uint64_t t_us; /* guest CLOCK_BOOTTIME, microseconds */
	union {
		struct proto_hello hello;
		struct proto_scenario_begin scenario_begin;
		struct proto_step_begin step_begin;
		struct proto_step_end step_end;
		struct proto_scenario_end scenario_end;
		struct proto_kmsg kmsg;
		struct proto_audit audit;
		struct proto_audit_file audit_file;
		struct proto_subtest subtest;
		struct proto_output output;
	} u;
};

/*
 * Encode @ev as one JSON line, '\n' included, in a malloc'd string.
 * Returns 0, -E2BIG when the line would exceed PROTO_LINE_MAX (three texts
 * of control bytes, each written as \u00XX, can), or -ENOMEM. An event
 * that proto_event_decode() returned always encodes.
 */
int proto_event_encode(const struct proto_event *ev, char **ret_line,
		       size_t *ret_len);

/*
 * Decode one line (without its '\n') of guest output. Every field is
 * type-checked and bounded. Returns 0, or a negative errno with a one-line
 * reason in @err: -E2BIG (line or string too long), -EBADMSG (not a JSON
 * object, truncated, a control byte below 0x20 anywhere in the line),
 * -EPROTO (missing or mistyped field, unknown event, a control character,
 * C0, DEL or C1, escaped or not, in a name: "scenario", "kind", "name").
 */
int proto_event_decode(const char *line, size_t len, struct proto_event *ret,
		       char *err, size_t errlen);

struct json_object;

enum proto_request_type {
	PROTO_REQ_RUN,
	PROTO_REQ_SHUTDOWN,
	PROTO_REQ_ACK,
	PROTO_REQ_RESTORED,
};

/*
 * Parse one line (without its '\n') from the host as a request: a JSON
 * object whose string "req" names a known request. Returns 0 with its type
 * in *ret_type and the object in *ret_obj (the caller's reference: a run
 * request then goes through proto_run_decode()), or a negative errno with
 * a one-line reason in @err: -E2BIG (line too long), -EBADMSG (not a JSON
 * object with a string "req", or a control byte in the line), -EPROTO (an
 * unknown request).
 */
int proto_request_decode(const char *line, size_t len,
			 enum proto_request_type *ret_type,
			 struct json_object **ret_obj, char *err,
			 size_t errlen);

/*
 * The "run" request, {"req":"run","scenario":...}, both ways:
 * proto_run_encode() writes it and proto_run_decode() reads it, from one
 * table of its fields (proto.c). Its lists are json-c arrays: encoding
 * takes a reference to each, decoding points into the request it read.
 * The protocol checks the lists' lengths and state_files' paths; a step's
 * own keys are its kind's business (common/stepspec.h).
 */
struct proto_run {
	const char *scenario; /* 1..PROTO_NAME_MAX - 1 bytes */
	uint64_t timeout_ms; /* the main steps' bound */
	uint64_t step_timeout_ms; /* a step's, unless it has its own */
	struct json_object *steps; /* 1..PROTO_STEPS_MAX step objects */
	/* 0..PROTO_AUDIT_FILES_MAX absolute paths, or NULL: none */
	struct json_object *state_files;
	/* 1..PROTO_CLEANUP_MAX step objects, or NULL: none */
	struct json_object *cleanup;
	uint64_t cleanup_timeout_ms; /* the cleanup list's bound */
};

/*
 * Encode @run as one line, '\n' included, in a malloc'd string. The
 * timeouts go out as they are, and cleanup_timeout_ms only with a cleanup
 * list; NULL lists are left out. Returns 0, -EINVAL when @run has no
 * scenario or no steps, or a list that is not a JSON array, -E2BIG when
 * the line would exceed PROTO_LINE_MAX, or -ENOMEM.
 */
int proto_run_encode(const struct proto_run *run, char **ret_line,
		     size_t *ret_len);

/*
 * Decode run request @req (a JSON object, "req" included), strictly: every
 * field typed and bounded, absent timeouts their PROTO_*_DEFAULT_MS, no
 * unknown keys. The strings and lists of *@ret point into @req. Returns 0,
 * or a negative errno with a one-line reason in @err: -E2BIG (a string or
 * a list over its bound), -EBADMSG (not a JSON object), -EPROTO (a field
 * missing, mistyped or out of range, an unknown key). *@ret is filled in
 * the fields' order, so a failure leaves the fields before it decoded (the
 * scenario's name, for the refusal's report).
 */
int proto_run_decode(struct json_object *req, struct proto_run *ret, char *err,
		     size_t errlen);

int proto_shutdown_encode(char **ret_line, size_t *ret_len);

/*
 * The "ack" request, {"req":"ack","t_us":N}: the host has read guestd's
 * hello or step_begin whose t_us is N, and so every line before it. Once
 * one came, guestd starts each step only when the host acknowledged its
 * step_begin (docs/protocol.md, "Acknowledgements"). proto_ack_decode()
 * reads @req strictly: "t_us" an integer 0..INT64_MAX - 1, no other key.
 * Returns 0, or -EPROTO with a one-line reason in @err.
 */
int proto_ack_encode(uint64_t t_us, char **ret_line, size_t *ret_len);
int proto_ack_decode(struct json_object *req, uint64_t *ret_t_us, char *err,
		     size_t errlen);

/*
 * The "restored" request (proto-restored.c), {"req":"restored",
 * "boot_id":"<uuid>","wall_ns":N,"seed":"<64 hex digits>"}: the host
 * restored this guest from an image saved right after its hello
 * (docs/protocol.md, "Restored guests"). guestd takes boot_id as its boot
 * id, sets CLOCK_REALTIME to wall_ns (the host's, nanoseconds since the
 * epoch), mixes the seed's 32 bytes into the kernel's RNG and has it
 * reseed, reads the kernel log from its start again, and answers with a
 * new hello (restored 1, the boot id, a new clock sample). Decoding is
 * strict: boot_id 36 characters of [0-9a-f-], wall_ns 0..INT64_MAX - 1,
 * the seed 64 lower-case hex digits, no other key.
 */
#define PROTO_SEED_BYTES 32

struct proto_restored {
	char boot_id[PROTO_BOOT_ID_MAX];
	uint64_t wall_ns;
	unsigned char seed[PROTO_SEED_BYTES];
};

int proto_restored_encode(const struct proto_restored *r, char **ret_line,
			  size_t *ret_len);
int proto_restored_decode(struct json_object *req, struct proto_restored *ret,
			  char *err, size_t errlen);

/*
 * A line splitter with a bound, for both ends of the port. Feed it bytes;
 * it calls @cb once per complete line (without '\n', NUL-terminated). A
 * line longer than PROTO_LINE_MAX - 1 bytes makes feed return -E2BIG, with
 * the first bytes of the line kept in the buffer for the caller to save.
 */
struct proto_linebuf {
	char *buf; /* PROTO_LINE_MAX bytes */
	size_t len;
};

int proto_linebuf_init(struct proto_linebuf *lb);
void proto_linebuf_free(struct proto_linebuf *lb);
typedef int (*proto_line_cb)(const char *line, size_t len, void *userdata);
/* Returns 0, -E2BIG, or the first negative value @cb returned. */
int proto_linebuf_feed(struct proto_linebuf *lb, const char *data, size_t len,
		       proto_line_cb cb, void *userdata);

/* FNV-1a 64 over @len bytes, continuing from @h (start with PROTO_FNV_INIT). */
#define PROTO_FNV_INIT UINT64_C(0xcbf29ce484222325)
uint64_t proto_fnv1a(uint64_t h, const void *data, size_t len);

/*
 * Errno names as scenarios write them ("EINVAL"). Returns 0 and sets *ret,
 * or -EINVAL for a name glibc does not know.
 */
int proto_errno_parse(const char *name, int *ret);
const char *proto_errno_name(int err);

#endif
