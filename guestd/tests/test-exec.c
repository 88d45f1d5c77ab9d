// SPDX-License-Identifier: GPL-2.0-only
/*
 * The exec step (guestd/step-exec.c) on the host's /bin/sh: its output
 * goes out a line at a time as it comes, stdout and stderr apart, a line
 * longer than PROTO_OUTPUT_MAX - 1 in pieces; its exit status and a
 * signal are in got, and only exit 0 passes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guestd.h"
#include "tap.h"

static char out[2][8192];
static size_t nout[2], pieces, longest;
static bool step_ok;

static void on_output(void *data, uint32_t step, bool err, const char *buf,
		      size_t len)
{
	step_ok &= step == 5 && data == &pieces;
	pieces++;
	if (len > longest)
		longest = len;
	if (nout[err] + len < sizeof(out[err])) {
		memcpy(out[err] + nout[err], buf, len);
		nout[err] += len;
	}
}

/* The exec step of @cmd into @res; -1 when it could not run. */
static int run(const char *cmd, struct step_result *res)
{
	struct step_env env = { 0 };
	struct step_ctx ctx = { .env = &env,
				.step = 5,
				.output = on_output,
				.output_data = &pieces };
	struct json_object *step = json_object_new_object();
	char err[256];
	int r = -1;

	memset(out, 0, sizeof(out));
	nout[0] = nout[1] = pieces = longest = 0;
	step_ok = true;
	memset(res, 0, sizeof(*res));
	json_object_object_add(step, "kind", json_object_new_string("exec"));
	json_object_object_add(step, "command", json_object_new_string(cmd));
	if (step_check(step_table, step, err, sizeof(err)) < 0)
		printf("# bad test step: %s\n", err);
	else
		r = step_find(step_table, "exec")->run(&ctx, step, res);
	json_object_put(step);
	return r;
}

int main(void)
{
	struct step_result res;

	ok(run("echo one; echo two >&2; echo three", &res) == 0 &&
		   res.verdict == VERDICT_PASS &&
		   !strcmp(res.got, "exit status 0"),
	   "exit 0 passes, got 'exit status 0'");
	ok(!strcmp(out[0], "one\nthree\n") && !strcmp(out[1], "two\n"),
	   "stdout and stderr apart");
	ok(pieces == 3 && step_ok, "a piece per line, of the step");

	ok(run("printf 'a\\033[2Jb'; exit 3", &res) == 0 &&
		   res.verdict == VERDICT_FAIL &&
		   !strcmp(res.got, "exit status 3") &&
		   !strcmp(res.expected, "exit status 0"),
	   "exit 3 fails, got 'exit status 3'");
	ok(!strcmp(out[0], "a\033[2Jb"),
	   "the bytes as they are, the last line without a newline");

	ok(run("kill -TERM $$", &res) == 0 && res.verdict == VERDICT_FAIL &&
		   !strcmp(res.got, "killed by signal 15 (SIGTERM)"),
	   "a signal: 'killed by signal 15 (SIGTERM)'");

	ok(run("head -c 3000 /dev/zero | tr '\\0' x", &res) == 0 &&
		   nout[0] == 3000 && longest == PROTO_OUTPUT_MAX - 1,
	   "a long line in pieces of PROTO_OUTPUT_MAX - 1 bytes");

	ok(run("head -c 2000000 /dev/zero | tr '\\0' '\\n'", &res) == 0 &&
		   res.verdict == VERDICT_PASS &&
		   strstr(res.reason, "output cut after 1048576 bytes"),
	   "output beyond 1 MiB is dropped, and the step says so");
	return tap_done();
}
