/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * guestd: the daemon that runs as PID 1 inside a vlalab guest. It talks the
 * protocol of common/proto.h over a virtio-serial port and runs the steps of
 * each scenario in a forked, supervised child. This one header declares what
 * the files of guestd/ share; docs/guestd.md describes the behaviour.
 */
#ifndef VLALAB_GUESTD_H
#define VLALAB_GUESTD_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <json-c/json.h>
#include <mtd/mtd-user.h>

#include "fileio.h"
#include "proto.h"
#include "stepspec.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- util.c ---- */

/* CLOCK_BOOTTIME in microseconds: the clock of every t_us. */
uint64_t guestd_now_us(void);

/*
 * Copy @len bytes of @src into @dst as printable ASCII: control bytes
 * other than '\n' and '\t', and bytes >= 0x7f, become "\xNN". When it does
 * not fit in @max_out bytes it ends with "... (N bytes)".
 */
void util_escape(char *dst, size_t size, const char *src, size_t len,
		 size_t max_out);
/* snprintf() for text that may be cut short on purpose. */
void util_fmt(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "EINVAL (Invalid argument)" for @err > 0, in a static buffer. */
const char *util_errno_desc(int err);
/* regcomp(REG_EXTENDED | REG_NEWLINE); on failure -EINVAL and a message. */
int util_regcomp(regex_t *re, const char *pattern, char *err, size_t errlen);
/*
 * Fork and exec @argv (argv[0] a path) in @dir, standard input
 * /dev/null, standard output and error together on a pipe whose read end
 * goes to *@ret_fd; the child stays in the caller's process group. A
 * child that cannot chdir exits 126, one that cannot exec 127 after
 * saying why on the pipe. 0 or -errno.
 */
int util_spawn_pipe(char *const *argv, const char *dir, pid_t *ret_pid,
		    int *ret_fd);
/* "SIGSEGV (core dumped)" or "exit status 3", for a wait status. */
void util_wait_status(int status, char *buf, size_t size);
/*
 * proto_linebuf_feed(), fed a line at a time, so that a line longer than
 * PROTO_LINE_MAX is dropped alone (*skip carries "inside such a line" to
 * the next call) and the lines after it still come through. Returns 0, or
 * -E2BIG when a line was dropped; @cb's errors are ignored.
 */
int util_feed_lines(struct proto_linebuf *lb, bool *skip, const char *data,
		    size_t len, proto_line_cb cb, void *userdata);

/* ---- framed.c: the framed mode on a console (docs/protocol.md) ---- */

/* Where the image keeps the run requests of a framed guest. */
#define FRAMED_REQUESTS_PATH "/vlalab/requests.jsonl"

struct framed {
	bool on;
	uint64_t seq; /* the next frame's number */
	FILE *requests; /* NULL once read to its end */
	char *buf;
	size_t cap;
};

/*
 * "vlalab.framed=NAME" on the kernel command line @cmdline: 1 and
 * "/dev/NAME" in @path, 0 when it is not there, -EINVAL for a NAME that is
 * not 1 to 32 letters and digits.
 */
int framed_cmdline(const char *cmdline, char *path, size_t size);
/*
 * Framed mode is wanted: on console *@path if set, else as PID 1 on the
 * one the kernel command line names (*@path then points to it).
 */
bool framed_wanted(const char **path, bool pid1);
/* Framed mode with the run requests of file @requests: 0 or -errno. */
int framed_open(struct framed *fm, const char *requests);
/*
 * Frame the protocol line *@line (@len bytes, its newline optional) as
 * the next frame (common/frame.h): *@line, a malloc()ed buffer, is
 * replaced with the frame, or freed and NULL on failure. 0 or -errno.
 */
int framed_wrap(struct framed *fm, char **line, size_t *len);
/*
 * Hand the next run request to @cb: 1, 0 when they ran out, -E2BIG for a
 * line longer than PROTO_LINE_MAX (skipped: call again).
 */
int framed_pump(struct framed *fm, proto_line_cb cb);

/* ---- kmsg.c: /dev/kmsg records ---- */

/* One record; @msg points into the line it was parsed from. */
struct kmsg_record {
	uint64_t seq;
	uint64_t ts_us;
	uint32_t prio; /* syslog level, 0..7 */
	const char *msg;
	size_t msg_len;
};

/*
 * Parse one record line, "PRI,SEQ,TS,FLAGS[,...];MESSAGE", without its
 * newline. Returns 0, or -EINVAL for a malformed line.
 */
int kmsg_parse(const char *line, size_t len, struct kmsg_record *ret);

/*
 * A nonblocking reader of /dev/kmsg, or of a regular file holding records
 * one per line (for tests; it may grow while it is read).
 */
struct kmsg_reader {
	int fd;
	bool is_chr; /* a character device: poll() works on it */
	char *buf;
	size_t len; /* bytes buffered */
	size_t off; /* bytes already consumed */
	uint64_t lost; /* records the kernel overwrote (EPIPE) */
};

/* @from_end: skip the records already there. Returns 0 or -errno. */
int kmsg_reader_open(struct kmsg_reader *rd, const char *path, bool from_end);
void kmsg_reader_close(struct kmsg_reader *rd);
/*
 * Next record: 1 and *ret (valid until the next call), 0 when nothing is
 * there right now, or -errno.
 */
int kmsg_reader_next(struct kmsg_reader *rd, struct kmsg_record *ret);

/*
 * The printk clock against CLOCK_BOOTTIME: a marker record, "vlalab: clock
 * ID" at debug level (the console at its usual loglevel does not print it),
 * written between two readings of CLOCK_BOOTTIME, and its printk stamp.
 */
#define KMSG_CLOCK_MARK "vlalab: clock"

struct kmsg_clock {
	uint64_t t0_us; /* CLOCK_BOOTTIME before the write */
	uint64_t ts_us; /* the record's printk timestamp */
	uint64_t t1_us; /* CLOCK_BOOTTIME after it */
};

/*
 * The marker record "KMSG_CLOCK_MARK @id" among the records @rd has not
 * read yet: 0 and its stamp in *@ret_ts_us, -ENOENT when it is not there,
 * or -errno.
 */
int kmsg_clock_find(struct kmsg_reader *rd, unsigned int id,
		    uint64_t *ret_ts_us);
/*
 * Measure at @path, which must be the kernel's log (a character device;
 * -ENOTTY for anything else, written nothing). 0 and *@ret, -ENOENT when
 * the kernel did not keep the record (a rate limit), or -errno.
 */
int kmsg_clock_measure(const char *path, struct kmsg_clock *ret);

/* The recent records a scenario has seen, bounded. */
#define KMSG_LOG_RECORDS 4096

struct kmsg_entry {
	uint64_t seq;
	uint32_t prio;
	char *msg;
};

struct kmsg_log {
	struct kmsg_reader rd;
	struct kmsg_entry *ring; /* KMSG_LOG_RECORDS entries */
	size_t head; /* index of the oldest */
	size_t count;
	bool seen; /* a record has been read */
	uint64_t last_seq; /* seq of the newest, when seen */
	uint64_t dropped; /* entries pushed out of the ring */
};

/* Open @path from its end: only records logged from now on count. */
int kmsg_log_open(struct kmsg_log *log, const char *path);
void kmsg_log_close(struct kmsg_log *log);
/* Read every record available now into the ring. Returns 0 or -errno. */
int kmsg_log_drain(struct kmsg_log *log);
/* The first seq that counts as "after now": drain first. */
uint64_t kmsg_log_mark(const struct kmsg_log *log);
/* Add one record (kmsg_log_drain uses it; tests call it directly). */
int kmsg_log_add(struct kmsg_log *log, const struct kmsg_record *rec);
/*
 * The first entry with seq >= @since whose message matches @re, or NULL.
 * *ret_scanned counts the entries looked at.
 */
const struct kmsg_entry *kmsg_log_find(const struct kmsg_log *log,
				       uint64_t since, const regex_t *re,
				       size_t *ret_scanned);
/* The newest entry with seq >= @since, or NULL. */
const struct kmsg_entry *kmsg_log_last(const struct kmsg_log *log,
				       uint64_t since);
/*
 * The oldest entry with seq >= *@since, or NULL; *@since moves past it, so
 * that a loop of calls walks the records in order.
 */
const struct kmsg_entry *kmsg_log_next(const struct kmsg_log *log,
				       uint64_t *since);

/* ---- modules.c: modules.dep, modules.builtin, the module syscalls ---- */

/* The syscalls, behind pointers so tests never load into the host. */
struct mod_sys {
	int (*finit_module)(int fd, const char *params, int flags);
	int (*delete_module)(const char *name, unsigned int flags);
};

extern const struct mod_sys mod_sys_real;

/* "foo-bar" and "foo_bar" are one module: write it with '_'. */
void mod_name_normalize(char *name);

/*
 * What loading @name takes: *ret_paths lists the .ko files to load, in
 * order, dependencies first and @name last (absolute, under @dir). A
 * built-in module gives *ret_builtin = true and no paths. Returns 0,
 * -ENOENT when @name is in neither modules.dep nor modules.builtin, -ELOOP
 * for a dependency cycle, or -errno reading the files.
 */
int mod_resolve(const char *dir, const char *name, char ***ret_paths,
		size_t *ret_npaths, bool *ret_builtin);
void mod_paths_free(char **paths, size_t n);

/*
 * Load @name and its dependencies through @sys, @params going to @name
 * only. EEXIST from a dependency is fine; from @name it is returned. On
 * failure, @what says which file or lookup failed. Returns 0 or -errno.
 */
int mod_load(const struct mod_sys *sys, const char *dir, const char *name,
	     const char *params, char *what, size_t whatlen);
/* delete_module(@name, O_NONBLOCK). Returns 0 or -errno. */
int mod_unload(const struct mod_sys *sys, const char *name);

/* ---- steps.c and step-*.c ---- */

/* A step's outcome; expected and got are set on failure. */
struct step_result {
	enum proto_verdict verdict;
	char expected[PROTO_TEXT_MAX];
	char got[PROTO_TEXT_MAX];
	char reason[PROTO_TEXT_MAX];
	struct proto_bench bench; /* a bench step's figures, or runs 0 */
	struct proto_stack stack; /* a stack_tracer stop's, or max_bytes 0 */
};

void step_expected(struct step_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void step_got(struct step_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * A step that expected errno @want (0: success) and saw @err (0: success)
 * fails: sets the verdict, the expected text, and, when @err is set, the
 * got text "errno E from @where (message)". Returns true when it set got;
 * the caller describes a success it did not want.
 */
bool step_errno_mismatch(struct step_result *res, int want, int err,
			 const char *where);
/* Verdict error (an infrastructure or request problem) with a reason. */
void step_error(struct step_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* What a step runs against: the guest's files, overridable for tests. */
struct step_env {
	const char *kmsg_path; /* default "/dev/kmsg" */
	const char *modules_dir; /* NULL: /lib/modules/$(uname -r) */
	const struct mod_sys *mod_sys; /* NULL: mod_sys_real */
	const char *debugfs_dir; /* NULL: /sys/kernel/debug */
	const char *proc_dir; /* NULL: /proc */
	const char *bridge_path; /* NULL: /usr/sbin/bridge (bridge_check) */
	const char *dev_dir; /* NULL: "/dev" (swap, resume) */
	const char *sys_dir; /* NULL: "/sys" (swap, resume) */
	const char *run_dir; /* NULL: "/run" (marker) */
	const char *kselftest_dir; /* NULL: "/usr/lib/kselftest" */
	bool no_swapon; /* tests: never call swapon(2) */
};

/* ---- step-fault.c: fault injection armed for one step ---- */

/* One file of a fault attribute's debugfs directory and its value. */
struct fault_write {
	const char *file;
	long long value;
};

#define FAULT_WRITES_MAX 12

/* fail_nth's "at": a function name, as the kernel prints it in a stack. */
#define FAULT_AT_MAX PROTO_FAULT_AT_MAX

/* What a fault step asks for, from its keys (fault_plan()). */
struct fault_plan {
	char attr[16]; /* failslab, fail_page_alloc, fail_nth, off */
	char at[FAULT_AT_MAX]; /* fail_nth: the target function, or "" */
	unsigned int max_tries; /* ... and how many calls to try for it */
	const char *dir; /* the debugfs directory w[] goes to */
	struct fault_write w[FAULT_WRITES_MAX];
	size_t n;
	bool task; /* task_filter: only the marked task fails */
	long long times;
	unsigned int nth;
	int expect_injected; /* -1 when not given */
};

enum fault_outcome { FAULT_NONE, FAULT_FIRED, FAULT_MISSED };

/* A fault armed for the step after the fault step. */
struct fault_state {
	char attr[16]; /* "" when nothing is armed */
	char dir[16]; /* its debugfs directory */
	uint32_t arm_step; /* the step it is armed for */
	bool task;
	long long times;
	long long probability; /* written right before the armed step */
	unsigned int nth;
	char at[FAULT_AT_MAX]; /* a search for this function, or "" */
	unsigned int max_tries;
	int proc_fd; /* make-it-fail or fail-nth, opened early */
	int times_fd, prob_fd; /* the attribute's, or -1 */
	enum fault_outcome outcome; /* of the last armed step */
};

/* ---- step-sample.c: numbers sampled from files, and their deltas ---- */

/* A number a sample step read: where from, how, and what it was. */
struct sample {
	char name[STEPSPEC_SAMPLE_NAME_MAX];
	char *path;
	char *match;
	int64_t value;
};

/* The samples of one scenario, by name. */
struct sample_set {
	struct sample v[STEPSPEC_SAMPLE_MAX];
	size_t n;
};

/*
 * The integer (decimal, 0x hex or 0 octal, as strtoll base 0) that the one
 * capture group of @pattern catches at its first match in @buf. Returns 0,
 * -ENOENT when nothing matches, or -EINVAL (a bad regex, not exactly one
 * group, not a number), with a message in @err either way.
 */
/*
 * A bench step's figures over @n values (1..PROTO_BENCH_RUNS_MAX): median
 * (the mean of the middle two for an even @n, rounded down), min, max and
 * the coefficient of variation in ppm (sample standard deviation over the
 * mean; 0 for one value or a zero mean). Sorts @v. Returns 0, or -EINVAL
 * for a count out of range.
 */
int bench_stats(uint64_t *v, size_t n, struct proto_bench *ret);

/* ---- step-stack-tracer.c ---- */
/*
 * Reads tracefs stack_trace: the frame count its header announces, and the
 * frames' functions from the deepest up, " < " between them, cut with
 * "..." to fit size. 0, or -EINVAL for a text it does not understand.
 */
int stack_trace_parse(const char *text, uint32_t *ret_frames, char *functions,
		      size_t size);

int sample_parse(const char *buf, const char *pattern, int64_t *ret, char *err,
		 size_t errlen);
struct sample *sample_find(struct sample_set *set, const char *name);
/* Add or replace sample @name. Returns 0, -ENOSPC, -ENAMETOOLONG, -ENOMEM. */
int sample_set_put(struct sample_set *set, const char *name, const char *path,
		   const char *match, int64_t value);
void sample_set_free(struct sample_set *set);

/* What a delta step wants of the change since its sample. */
struct delta_bounds {
	bool has_equals, has_at_least, has_at_most;
	int64_t equals, at_least, at_most;
};

/* @now - @then into *ret; false when it does not fit in 64 bits. */
bool delta_of(int64_t now, int64_t then, int64_t *ret);
bool delta_holds(int64_t delta, const struct delta_bounds *b);
/* "exactly 1", "at least -8, at most 0". */
void delta_describe(const struct delta_bounds *b, char *buf, size_t size);

/* ---- kselftest.c: a kernel selftest program's results, from its output ---- */

enum ks_format {
	KS_KTAP, /* KTAP, or the TAP 13 of kselftest.h */
	KS_FTRACETEST, /* ftracetest's "[N] desc<TAB>[PASS]" lines */
};

/* The longest output line read whole; the rest of a longer one is cut. */
#define KS_LINE_MAX 4096

/* One of the program's tests. */
struct ks_result {
	char name[PROTO_SUBTEST_NAME_MAX]; /* escaped, never empty */
	enum proto_verdict verdict; /* pass, fail, skip or xfail */
	char reason[PROTO_SUBTEST_REASON_MAX]; /* escaped, or "" */
};

struct ks_parser {
	enum ks_format format;
	int64_t planned; /* KTAP: the plan's N, or -1 before one */
	bool skipped_all; /* KTAP: "1..0 # SKIP why" */
	uint32_t results; /* result lines so far */
	bool bailed; /* KTAP: "Bail out!" */
	char bail[PROTO_SUBTEST_REASON_MAX];
	unsigned int summary_lines; /* ftracetest: its "# of ..." lines */
	uint64_t summary_total; /* ... and the counts they add up to */
};

/* "ktap" or "ftracetest" into *ret; -EINVAL for another word. */
int ks_format_parse(const char *s, enum ks_format *ret);
void ks_parser_init(struct ks_parser *p, enum ks_format format);
/*
 * One line of output, without its newline. Returns 1 with *ret filled for
 * a top-level result, 0 for any other line.
 */
int ks_parse_line(struct ks_parser *p, const char *line, struct ks_result *ret);
/*
 * After the last line: 0 when the output was whole (KTAP: a plan that
 * matches the results and no bail-out; ftracetest: its summary, which
 * must count the results), or -EBADMSG with what was missing in @why.
 */
int ks_parser_finish(const struct ks_parser *p, char *why, size_t len);

/* The state of the scenario a step runs in (in the scenario child). */
struct step_ctx {
	const struct step_env *env;
	struct kmsg_log *kmsg; /* NULL when /dev/kmsg can't be read */
	uint64_t scenario_mark; /* first seq after the scenario began */
	uint64_t prev_step_mark; /* ... after the previous step began */
	uint32_t step; /* this step's index */
	struct fault_state fault; /* step-fault.c */
	struct sample_set *samples; /* NULL: sample steps are an error */
	/*
	 * Reports one of the step's subtests (kselftest) to the host, as the
	 * index-th; NULL drops them.
	 */
	void (*subtest)(void *data, uint32_t step, uint32_t index,
			const struct ks_result *res);
	void *subtest_data;
	/*
	 * Sends a piece of the step's program's output to the host as an
	 * "output" event (@err: its standard error), @len below
	 * PROTO_OUTPUT_MAX; NULL drops it.
	 */
	void (*output)(void *data, uint32_t step, bool err, const char *buf,
		       size_t len);
	void *output_data;
};

/*
 * What a step kind does. Its keys are in its spec, stepspec_find(name)
 * (common/stepspec.c), which step_check() checks a step against.
 */
struct step_ops {
	const char *name;
	/*
	 * Run the step, whose keys step_check() has type-checked, and fill
	 * @res. Returns 0 with a verdict in @res, or -errno for a failure of
	 * guestd itself (the runner reports it as error).
	 */
	int (*run)(struct step_ctx *ctx, struct json_object *step,
		   struct step_result *res);
	/*
	 * Optional: put back what a step of this kind may leave set in the
	 * kernel when its scenario ends before it could (fault: an armed
	 * attribute), so that the next scenario cannot inherit it. The
	 * supervisor calls it once a child that began a step of this kind is
	 * gone, however it ended. Returns 0, or -errno with @what naming what
	 * failed (the runner logs it).
	 */
	int (*reset)(const struct step_env *env, char *what, size_t whatlen);
};

#include "steps-decls.h" /* step_<kind>, from guestd/meson.build */

/*
 * step-fault.c. fault_plan() turns a fault step's keys into the writes it
 * makes (pure; -EINVAL with a message in @err). fault_before_step() and
 * fault_after_step() arm and disarm a fault around the step it was armed
 * for; a failure to arm or disarm makes that step an error. fault_reset()
 * puts failslab and fail_page_alloc back to the kernel's defaults: it is
 * step_fault's reset hook; @what says which write failed. Each returns 0
 * or -errno.
 */
int fault_plan(struct json_object *step, struct fault_plan *ret, char *err,
	       size_t errlen);
int fault_before_step(struct step_ctx *ctx, struct step_result *res);
void fault_after_step(struct step_ctx *ctx, struct step_result *res);
/*
 * Run step @ops with the fault armed for it, if any: the plain arm, run,
 * disarm, or, for a fail_nth fault aimed with "at", the search for the
 * call whose stack holds that function (docs/scenarios.md, "Fault
 * injection"). The scenario child runs every step through this.
 */
void fault_run_step(struct step_ctx *ctx, const struct step_ops *ops,
		    struct json_object *step, struct step_result *res);

/* One frame of a kernel stack trace line, as dump_stack() prints it. */
struct fault_frame {
	char fn[FAULT_AT_MAX];
	bool reliable; /* false for the "? fn+0x.." guesses */
};
/*
 * Parse " fn+0x1c/0x80 [mod]" (or " ? fn+..."). Returns 0, or -EINVAL for
 * a line that is not a frame (the banner, "Call Trace:", "<TASK>").
 */
int fault_frame_parse(const char *line, struct fault_frame *ret);
/* True for the allocator's and fault injection's own frames. */
bool fault_frame_is_allocator(const char *fn);
int fault_reset(const struct step_env *env, char *what, size_t whatlen);

/* ---- swap.c: block devices for swap and resume, pure where it can be ---- */

#define SWAP_SIG_LEN 10
/*
 * Fill @page (@page_size bytes) with a version-1 swap header for a device
 * of @dev_bytes, as mkswap writes it: no bad pages, @uuid, signature
 * "SWAPSPACE2" in the last 10 bytes. Returns 0, or -EINVAL when the
 * device is smaller than ten pages or the page size is not 4096..65536.
 */
int swap_header_build(void *page, size_t page_size, uint64_t dev_bytes,
		      const uint8_t uuid[16]);
/*
 * The swap signature of @page as printable text ("SWAPSPACE2",
 * "S1SUSPEND", or the bytes escaped) into @buf.
 */
void swap_signature(const void *page, size_t page_size, char *buf, size_t len);
/* True when @name is a block device name we accept: [a-z0-9]{1,31}. */
bool swap_dev_name_ok(const char *name);
/*
 * "MAJ:MIN" of block device @name from @sys_dir/block/@name/dev, into
 * @buf without its newline. Returns 0 or -errno.
 */
int swap_dev_majmin(const char *sys_dir, const char *name, char *buf,
		    size_t len);

/* Every step kind, NULL-terminated. */
extern const struct step_ops *const step_table[];

const struct step_ops *step_find(const struct step_ops *const *table,
				 const char *kind);
/*
 * Check one step object against @table: a known kind, known keys, the
 * right types, required keys present. Returns 0, or -EINVAL with a
 * message in @err.
 */
int step_check(const struct step_ops *const *table, struct json_object *step,
	       char *err, size_t errlen);
/*
 * step_check() for a step of a cleanup list, which may also have
 * "if_exists": an absolute path under PROTO_TEXT_MAX bytes.
 */
int step_check_cleanup(const struct step_ops *const *table,
		       struct json_object *step, char *err, size_t errlen);

/* Typed getters for checked steps; absent keys give NULL or @def. */
const char *step_str(struct json_object *step, const char *key);
bool step_bool(struct json_object *step, const char *key, bool def);
int64_t step_int(struct json_object *step, const char *key, int64_t def);

/* Sleep @ms milliseconds, through EINTR. */
void step_msleep(uint64_t ms);

/*
 * step-sleep.c: the kernel's tick count the sleep step also waits for
 * (times(), in USER_HZ), and its rate (0: sysconf(_SC_CLK_TCK)); tests
 * replace them with a clock that lags.
 */
extern uint64_t (*step_sleep_ticks)(void);
extern long step_sleep_hz;

/* step-trace-cmd.c: trace-cmd and tracefs; tests point them at fakes. */
extern const char *step_trace_cmd_bin;
extern const char *step_trace_cmd_tracefs;

/* ---- runner.c: the supervisor (parent side) ---- */

#define RUNNER_QUEUE_MAX 64
/* How long a killed scenario child may take to be reaped before the
 * runner gives up waiting (it is stuck in the kernel) and goes on. */
#define RUNNER_ABANDON_MS 5000
/* Step kinds of one table that may have a reset hook (step_ops.reset). */
#define RUNNER_RESETS_MAX 8

struct runner;

struct runner_ops {
	/* An event for the host. */
	void (*emit)(const struct proto_event *ev, void *data);
	/* Called before each event from the child is applied. */
	void (*before_event)(void *data);
	/* Called in the scenario child right after fork. */
	void (*child_init)(void *data);
	/* Optional: a problem of the runner's own, one line, syslog @prio. */
	void (*log)(int prio, const char *msg, void *data);
	/*
	 * Optional, both or neither: how many bytes of events were emitted
	 * so far, and how many of those went out to the host. With them a
	 * step starts only once its step_begin went out (runner_out_sent()),
	 * or, once the host acknowledges step_begins, once it was
	 * acknowledged (runner_on_ack()): a step that crashes the guest must
	 * not leave the news that it began in a queue the crash loses. No
	 * bound runs while a step waits.
	 */
	uint64_t (*out_queued)(void *data);
	uint64_t (*out_sent)(void *data);
};

struct runner {
	const struct step_ops *const *table;
	const struct step_env *env;
	const struct runner_ops *ops;
	void *data;

	/* The request queue: json objects waiting their turn. */
	struct json_object *queue[RUNNER_QUEUE_MAX];
	size_t nqueued;

	/*
	 * The running scenario: its request and what proto_run_decode()
	 * read from it (which points into it); pid 0 when idle.
	 */
	struct json_object *req;
	struct proto_run run;
	pid_t pid;
	int fd; /* the child's events */
	int ack_fd; /* one byte per step_begin */
	bool ack_pending; /* the byte waits for out_sent() to reach ack_mark */
	uint64_t ack_mark;
	/* The host acknowledges step_begins (runner_on_ack()): the byte
	 * waits for the ack of the one with t_us ack_t_us instead. */
	bool host_acks;
	uint64_t ack_t_us;
	struct proto_linebuf lb;
	bool lb_skip; /* dropping the rest of a long line */
	uint32_t nsteps;
	uint64_t begin_us;
	uint64_t deadline_us;
	int64_t step; /* the open step, or -1 */
	char step_kind[PROTO_KIND_MAX];
	uint64_t step_begin_us;
	uint64_t step_deadline_us; /* 0 when no step is open */
	uint64_t step_limit_ms;
	bool ended; /* scenario_end went out */
	uint64_t ended_us;
	uint64_t abandon_ms; /* RUNNER_ABANDON_MS; tests lower it */
	struct audit *audit; /* NULL: no state-leak audit */
	unsigned int abandoned; /* children left unreaped */
	/* The kinds with a reset hook the running child began a step of. */
	const struct step_ops *resets[RUNNER_RESETS_MAX];
	size_t nresets;
	/*
	 * The cleanup list: after the main steps' child is gone, a second
	 * child runs it under its own deadline; the main steps' scenario_end
	 * is held until that one is gone too.
	 */
	uint32_t ncleanup; /* 0: the request has none */
	bool in_cleanup; /* the child is the cleanup child */
	uint64_t phase_begin_us; /* when the running child started */
	bool held; /* a scenario_end waits below */
	enum proto_verdict held_verdict;
	uint64_t held_duration_us;
	char held_reason[PROTO_TEXT_MAX];
};

void runner_init(struct runner *r, const struct step_ops *const *table,
		 const struct step_env *env, const struct runner_ops *ops,
		 void *data);
/* Kill what runs, report it as error with @why, drop the queue. */
void runner_abort(struct runner *r, const char *why);
void runner_free(struct runner *r);

/*
 * Take a "run" request, as proto_request_decode() gave it (the runner
 * takes the reference). It runs now or after the scenarios before it,
 * decoded when its turn comes; a bad request is reported as a scenario
 * with verdict error.
 */
void runner_submit(struct runner *r, struct json_object *req);
bool runner_busy(const struct runner *r);
/* The fd to poll for POLLIN, or -1. */
int runner_fd(const struct runner *r);
/*
 * Events went out to the host (runner_ops.out_sent grew): let a step whose
 * step_begin is among them start, its bounds counting from now; unless
 * the host acknowledges step_begins.
 */
void runner_out_sent(struct runner *r);
/*
 * The host acknowledged the hello or step_begin with this t_us (an "ack"
 * request): from now on each step waits for its own; let the one that
 * waits for this one start, its bounds counting from now.
 */
void runner_on_ack(struct runner *r, uint64_t t_us);
/* The next timeout, CLOCK_BOOTTIME us, or 0 for none. */
uint64_t runner_deadline(const struct runner *r);
/* Read and apply what the child sent. */
void runner_on_readable(struct runner *r);
/*
 * Enforce the step and scenario timeouts at @now_us, and give up on a
 * killed child that isn't reaped within abandon_ms.
 */
void runner_on_tick(struct runner *r, uint64_t now_us);
/* A reaped child: true when it was the scenario's. */
bool runner_on_exit(struct runner *r, pid_t pid, int status);
/* The open scenario ("" when none) and step (-1), for kmsg tagging. */
const char *runner_scenario(const struct runner *r);
int64_t runner_step(const struct runner *r);

/* ---- audit.c: the state-leak audit (supervisor side) ---- */

enum audit_line { AUDIT_LINE_OTHER, AUDIT_LINE_WARN, AUDIT_LINE_BUG };

/* Whether a kernel log message opens a WARNING, a BUG (or oops, panic,
 * sanitizer report), or neither. */
enum audit_line audit_classify(const char *msg, size_t len);

struct audit {
	struct kmsg_reader rd; /* its own reader, from the first record */
	bool have_kmsg;
	const char *tainted_path; /* /proc/sys/kernel/tainted */
	uint64_t warns, bugs; /* lines counted so far */
};

/* @tainted_path NULL: /proc/sys/kernel/tainted. Returns 0 or -errno (then
 * the counts stay 0, and the taint is still read). */
int audit_open(struct audit *a, const char *kmsg_path,
	       const char *tainted_path);
void audit_close(struct audit *a);
/* Size, FNV-1a hash and escaped head of @path, or the errno name. */
void audit_file(const char *path, struct proto_audit_file *ret);

typedef void (*audit_emit_fn)(struct proto_event *ev, void *data);
/*
 * Emit one "audit" event for @scenario and @phase, then one "audit_file"
 * per path of @files (a checked JSON array, or NULL).
 */
void audit_snapshot(struct audit *a, const char *scenario, const char *phase,
		    struct json_object *files, audit_emit_fn emit, void *data);

/* ---- scenario.c: the scenario child ---- */

/*
 * Run the steps of a checked request in order, writing step_begin,
 * step_end and scenario_end lines to @out_fd and waiting for one byte on
 * @ack_fd after each step_begin; the first step that does not pass ends
 * them. With @cleanup, run the request's cleanup list instead, numbered
 * after its steps, every step whatever the others did (a cleanup step
 * whose "if_exists" path is missing is skip); its scenario_end carries
 * the first cleanup failure. Never returns.
 */
__attribute__((noreturn)) void
scenario_child(const struct step_ops *const *table, const struct step_env *env,
	       const struct proto_run *run, bool cleanup, int out_fd,
	       int ack_fd);

/* ---- port.c ---- */

/*
 * Find the virtio-serial port named @name: the vportNpM under @sysdir
 * (/sys/class/virtio-ports) whose "name" file holds it. Writes
 * "@devdir/vportNpM" to @ret_path. Returns 0, -ENOENT, or -errno.
 */
int port_find(const char *sysdir, const char *devdir, const char *name,
	      char *ret_path, size_t size);
/*
 * Open @path (a port, a pty, a console) nonblocking, in raw mode when it
 * is a terminal: the fd or -errno.
 */
int port_open(const char *path);

/* ---- sshport.c ---- */

/*
 * Fork the SSH relay: dropbear -i for each host connection to the port
 * PROTO_SSH_PORT_NAME. Returns its pid, -ENOENT when the image has no
 * dropbear or host key, or -errno.
 */
pid_t sshport_start(void);

/* ---- mtd.c: the MTD step kinds' shared parts ---- */

#define MTD_PAGE_MAX (64 * 1024) /* the largest page the steps take */
#define MTD_OOB_MAX 4096
#define MTD_FLIP_MAX 64 /* bits one mtd_flip step clears */

/*
 * The test pattern of @page for @seed: @len bytes, the same on every run
 * and every machine, different for every (seed, page).
 */
void mtd_pattern(uint64_t seed, uint64_t page, uint8_t *buf, size_t len);
/* The checksum a failure reports: FNV-1a 64. */
uint64_t mtd_checksum(const uint8_t *buf, size_t len);
/*
 * Choose @k distinct bits that are 1 in @buf (@len bytes), the same ones
 * for the same buffer, @k and @seed. Bit b is bit b % 8 of byte b / 8.
 * Returns 0 and @k bit numbers in @ret_bits, -ENOSPC when fewer than @k
 * bits are set, or -EINVAL when @k > MTD_FLIP_MAX.
 */
int mtd_pick_bits(const uint8_t *buf, size_t len, unsigned int k, uint64_t seed,
		  size_t *ret_bits);
/* A sysfs counter: decimal digits and an optional newline. */
int mtd_parse_counter(const char *text, size_t len, uint32_t *ret);

/* What one MEMREAD of known data came to. */
enum mtd_outcome {
	MTD_CLEAN, /* success, data as written */
	MTD_CORRECTED, /* EUCLEAN, data as written */
	MTD_FAILED, /* EBADMSG: the failure was reported */
	MTD_SILENT, /* success or EUCLEAN, but the data differ */
	MTD_ERROR, /* any other errno */
};

enum mtd_outcome mtd_classify(int r, bool data_matches);
/* How many bytes differ; *ret_first is the first when any do. */
size_t mtd_diff(const uint8_t *a, const uint8_t *b, size_t len,
		size_t *ret_first);

/* An open /dev/mtdN. */
struct mtd_dev {
	int fd;
	char name[16]; /* "mtdN", for /sys/class/mtd */
	struct mtd_info_user info;
	uint32_t step_size; /* ecc_step_size, bytes */
};

/* "mtdN" from "/dev/mtdN", the only device paths the steps take. */
int mtd_dev_name(const char *path, char *name, size_t size);
/*
 * Open @path, which must be /dev/mtdN, read its geometry and ECC step
 * size. On failure @what says which call failed. Returns 0 or -errno.
 */
int mtd_dev_open(const char *path, struct mtd_dev *ret, char *what,
		 size_t whatlen);
void mtd_dev_close(struct mtd_dev *dev);
uint64_t mtd_pages(const struct mtd_dev *dev);
/* /sys/class/mtd/mtdN/@attr as a number. Returns 0 or -errno. */
int mtd_sysfs_counter(const struct mtd_dev *dev, const char *attr,
		      uint32_t *ret);
/*
 * MEMREAD of one page (and its OOB when @oob is set) in @mode. *ret_stats
 * is the request's ECC stats, filled on EUCLEAN and EBADMSG too. Returns
 * 0 or -errno, -EUCLEAN and -EBADMSG included.
 */
int mtd_read_page(const struct mtd_dev *dev, uint64_t page, uint8_t *data,
		  uint8_t *oob, uint8_t mode,
		  struct mtd_read_req_ecc_stats *ret_stats);
/* MEMWRITE of one page (and its OOB when @oob is set) in @mode. */
int mtd_write_page(const struct mtd_dev *dev, uint64_t page,
		   const uint8_t *data, const uint8_t *oob, uint8_t mode);
/* MEMERASE64 of [@start, @start + @len). */
int mtd_erase(const struct mtd_dev *dev, uint64_t start, uint64_t len);
/* ECCGETSTATS. */
int mtd_ecc_stats(const struct mtd_dev *dev, struct mtd_ecc_stats *ret);

/* ---- mtd-step.c: what the mtd_* step kinds share ---- */

/*
 * Open the step's 'device'. Returns true, or false with @res filled: fail
 * when the kernel refused, error when the step is wrong.
 */
bool mtd_step_open(struct json_object *step, struct step_result *res,
		   struct mtd_dev *dev);
/*
 * Pages @page .. @page + @pages - 1 exist on @dev. Returns true, or false
 * with @res filled (error).
 */
bool mtd_step_range(struct step_result *res, const struct mtd_dev *dev,
		    int64_t page, int64_t pages);
/*
 * Judge outcome @r (0 or -errno) against the errno name @expect (NULL:
 * success), as modprobe does. @done describes a success, @what the call.
 */
void mtd_step_judge(struct step_result *res, const char *expect, int r,
		    const char *done, const char *what);
/* ---- step-nl.c: what the netlink steps (nl.h) share ---- */

struct nl_ack;

/*
 * if_nametoindex(@name). When there is none, the step is judged as if the
 * kernel had answered ENODEV (so expect_errno ENODEV passes) and -ENODEV
 * comes back: the caller stops there.
 */
int nl_step_ifindex(struct step_result *res, struct json_object *step,
		    const char *what, const char *name, int *ret);
/*
 * Judge a request's outcome against the step's expect_errno (absent:
 * success) and expect_extack (a regex the extack message must match).
 * @r < 0 is a socket problem (verdict error). @where names the request
 * ("RTM_NEWLINK"), @what the step ("vlan_add 'lan1' vid 10"). Returns 0.
 */
int nl_step_judge(struct step_result *res, struct json_object *step,
		  const char *where, const char *what, int r,
		  const struct nl_ack *ack);

struct proto_restored;
/*
 * restored.c: a restored guest takes the host's wall clock and the seed
 * of its "restored" request (proto.h). 0, or a negative errno with what
 * failed in @why; the clock is set first.
 */
int restored_apply(const struct proto_restored *r, char *why, size_t whylen);
/*
 * restored.c: hello's boot id into @dst: @given (a restored guest's,
 * from its "restored" request) unless "", else the kernel's
 * /proc/sys/kernel/random/boot_id; "" when it cannot be read.
 */
void restored_boot_id(const char *given, char *dst, size_t size);

#endif
