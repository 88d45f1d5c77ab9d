// SPDX-License-Identifier: GPL-2.0-only
/*
 * kselftest: one of the kernel's own test programs, from the tree the
 * kernel was built from (the image carries tools/testing/selftests/DIR at
 * /usr/lib/kselftest/DIR). The program runs with its output, stdout and
 * stderr together, on a pipe that is read line by line (kselftest.c); each
 * of its tests goes to the host as a subtest as soon as it ends. The step
 * passes when the output was whole, at least min_tests tests ran, and each
 * passed, xfailed, or skipped with a "NAME: REASON" that allow_skip
 * matches; and the program's exit status is 0 when all of them passed.
 *
 * The program stays in the scenario's process group, so that the step's
 * timeout, which kills that group, ends it too.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guestd.h"

/* How many failed or unexpected subtests a failure names. */
#define SHOW_MAX 4
/* Output lines kept for a failure's reason: the last ones, not results. */
#define TAIL_LINES 3

struct ks_run {
	struct step_ctx *ctx;
	struct ks_parser parser;
	const regex_t *allow; /* NULL: no skip is fine */
	uint32_t n; /* subtests reported */
	uint32_t passed, failed, skipped, bad_skips;
	bool too_many; /* beyond PROTO_SUBTESTS_MAX */
	char shown[PROTO_TEXT_MAX / 2]; /* the first bad ones */
	unsigned int nshown;
	char tail[TAIL_LINES][160]; /* the last other lines */
	unsigned int ntail;
};

/* A skip is fine when allow_skip matches "NAME: REASON". */
static bool skip_allowed(const struct ks_run *k, const struct ks_result *r)
{
	char both[PROTO_SUBTEST_NAME_MAX + PROTO_SUBTEST_REASON_MAX + 4];

	if (!k->allow)
		return false;
	snprintf(both, sizeof(both), "%s: %s", r->name, r->reason);
	return regexec(k->allow, both, 0, NULL, 0) == 0;
}

static void note_bad(struct ks_run *k, const struct ks_result *r)
{
	size_t len = strlen(k->shown);

	if (k->nshown++ >= SHOW_MAX)
		return;
	util_fmt(k->shown + len, sizeof(k->shown) - len,
		 "%s'%.120s' %s%s%.120s", len ? ", " : "", r->name,
		 proto_verdict_name(r->verdict), r->reason[0] ? ": " : "",
		 r->reason);
}

static void on_line(struct ks_run *k, const char *line)
{
	struct ks_result r;

	if (ks_parse_line(&k->parser, line, &r) != 1) {
		if (!line[0])
			return;
		memmove(k->tail[0], k->tail[1],
			sizeof(k->tail[0]) * (TAIL_LINES - 1));
		util_escape(k->tail[TAIL_LINES - 1], sizeof(k->tail[0]), line,
			    strlen(line), sizeof(k->tail[0]) - 1);
		k->ntail++;
		return;
	}
	if (k->n >= PROTO_SUBTESTS_MAX) {
		k->too_many = true;
		return;
	}
	if (k->ctx->subtest)
		k->ctx->subtest(k->ctx->subtest_data, k->ctx->step, k->n, &r);
	k->n++;
	switch (r.verdict) {
	case VERDICT_PASS:
	case VERDICT_XFAIL:
		k->passed++;
		return;
	case VERDICT_SKIP:
		k->skipped++;
		if (skip_allowed(k, &r))
			return;
		k->bad_skips++;
		break;
	default:
		k->failed++;
		break;
	}
	note_bad(k, &r);
}

/*
 * Read the program's output to its end, a line at a time; a line longer
 * than KS_LINE_MAX - 1 bytes is cut there and the rest of it dropped.
 */
static int read_output(struct ks_run *k, int fd)
{
	static char line[KS_LINE_MAX];
	size_t len = 0;
	bool cut = false;
	char buf[4096];
	ssize_t n;

	for (;;) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n') {
				line[len] = '\0';
				on_line(k, line);
				len = 0;
				cut = false;
			} else if (len + 1 < sizeof(line) && !cut) {
				line[len++] = buf[i] ? buf[i] : ' ';
			} else {
				cut = true;
			}
		}
	}
	if (len) {
		line[len] = '\0';
		on_line(k, line);
	}
	return 0;
}

/*
 * What the step saw when it fails: @lead (what was wrong with the output)
 * if any, the counts, the bad subtests, the exit status, and with
 * @with_tail the last lines that were no result (what a program that
 * stopped early said last).
 */
static void got_text(struct step_result *res, const struct ks_run *k,
		     const char *lead, const char *status, bool with_tail)
{
	char tail[TAIL_LINES * 170] = "";
	unsigned int n = k->ntail < TAIL_LINES ? k->ntail : TAIL_LINES;

	for (unsigned int i = TAIL_LINES - n; with_tail && i < TAIL_LINES;
	     i++) {
		size_t len = strlen(tail);

		util_fmt(tail + len, sizeof(tail) - len, "%s'%s'",
			 len ? " " : "", k->tail[i]);
	}
	step_got(
		res,
		"%s%s%u tests: %u passed or xfailed, %u failed, %u skipped (%u without a declared reason)%s%s%s; %s%s%s",
		lead ? lead : "", lead ? "; " : "", k->n, k->passed, k->failed,
		k->skipped, k->bad_skips, k->nshown ? " [" : "", k->shown,
		k->nshown ? "]" : "", status, tail[0] ? "; last lines: " : "",
		tail);
}

static int kselftest_run(struct step_ctx *ctx, struct json_object *step,
			 struct step_result *res)
{
	const char *program = step_str(step, "program");
	const char *format = step_str(step, "format");
	const char *allow = step_str(step, "allow_skip");
	int64_t min_tests = step_int(step, "min_tests", 1);
	const char *root = ctx->env->kselftest_dir ? ctx->env->kselftest_dir :
						     STEPSPEC_KSELFTEST_ROOT;
	static struct ks_run k;
	char path[PATH_MAX], dir[PATH_MAX], status[64], why[256], rerr[256];
	char *argv[STEPSPEC_ARGS_MAX + 2];
	struct json_object *args = NULL;
	enum ks_format fmt = KS_KTAP;
	size_t nargs = 0;
	regex_t re;
	int fd = -1, ws, r;
	pid_t pid = -1;

	memset(&k, 0, sizeof(k));
	k.ctx = ctx;
	if (format && ks_format_parse(format, &fmt) < 0) {
		step_error(res, "unknown output format '%s'", format);
		return 0;
	}
	if (!stepspec_kselftest_program_ok(program)) {
		step_error(res, "'%s' is not DIR/FILE below %s", program, root);
		return 0;
	}
	if (json_object_object_get_ex(step, "args", &args))
		nargs = json_object_array_length(args);
	if (nargs > STEPSPEC_ARGS_MAX) {
		step_error(res, "%zu arguments, at most %d", nargs,
			   STEPSPEC_ARGS_MAX);
		return 0;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, program) >=
	    sizeof(path)) {
		step_error(res, "the path of '%s' is too long", program);
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	if (allow && util_regcomp(&re, allow, rerr, sizeof(rerr)) < 0) {
		step_error(res, "bad regex '%s' in 'allow_skip': %s", allow,
			   rerr);
		return 0;
	}
	k.allow = allow ? &re : NULL;
	ks_parser_init(&k.parser, fmt);

	argv[0] = path;
	for (size_t i = 0; i < nargs; i++)
		argv[i + 1] = (char *)json_object_get_string(
			json_object_array_get_idx(args, i));
	argv[nargs + 1] = NULL;

	r = util_spawn_pipe(argv, dir, &pid, &fd);
	if (r < 0) {
		step_error(res, "cannot start '%s': %s", path,
			   util_errno_desc(-r));
		goto out;
	}
	r = read_output(&k, fd);
	close(fd);
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	if (r < 0) {
		step_error(res, "reading the output of '%s': %s", path,
			   util_errno_desc(-r));
		goto out;
	}
	util_wait_status(ws, status, sizeof(status));

	res->verdict = VERDICT_FAIL;
	snprintf(res->reason, sizeof(res->reason), "running '%s'", program);
	if (WIFEXITED(ws) && WEXITSTATUS(ws) >= 126 && k.n == 0) {
		step_error(res, "cannot run '%s' (%s): %s", path, status,
			   k.tail[TAIL_LINES - 1]);
		goto out;
	}
	if (k.too_many) {
		step_expected(res, "at most %d tests", PROTO_SUBTESTS_MAX);
		got_text(res, &k, NULL, status, false);
		goto out;
	}
	if (ks_parser_finish(&k.parser, why, sizeof(why)) < 0) {
		step_expected(res, "the whole %s output",
			      format ? format : "ktap");
		got_text(res, &k, why, status, true);
		goto out;
	}
	if (k.n < (uint64_t)min_tests) {
		step_expected(res, "at least %lld tests", (long long)min_tests);
		got_text(res, &k, NULL, status, true);
		goto out;
	}
	if (k.failed || k.bad_skips) {
		if (allow)
			step_expected(
				res,
				"every test passes, or skips with a reason matching '%s'",
				allow);
		else
			step_expected(
				res, "every test passes (no skip is declared)");
		got_text(res, &k, NULL, status, false);
		goto out;
	}
	if (!k.skipped && !(WIFEXITED(ws) && WEXITSTATUS(ws) == 0)) {
		step_expected(res, "exit status 0, as every test passed");
		got_text(res, &k, NULL, status, true);
		goto out;
	}
	res->verdict = VERDICT_PASS;
	res->expected[0] = res->got[0] = res->reason[0] = '\0';
out:
	if (allow)
		regfree(&re);
	return 0;
}

const struct step_ops step_kselftest = {
	.name = "kselftest",
	.run = kselftest_run,
};
