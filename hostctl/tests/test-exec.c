// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl run --exec (hostctl/run/exec.c): the scenario it makes in
 * memory passes the scenario validator with the command quoted as it is;
 * the exec step's got becomes the command's exit code, a signal 128 + N,
 * and anything else from the guest is no status; the run's verdict
 * becomes the exit code as documented (timeout 124, crash or another
 * incident 125, an error 3); the output goes out escaped, newlines kept,
 * stdout and stderr apart, bounded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/plan.h"
#include "tap.h"

static void test_plan(void)
{
	static const char cmd[] = "printf '%s\\n' \"a b\" && exit 3";
	struct run_spec s;
	struct run_plan p = { 0 };
	const struct scenario *sc;
	struct json_object *v = NULL;

	run_spec_init(&s);
	s.exec = cmd;
	ok(plan_exec(&s, &p) == 0 && p.n == 1 && p.set.n == 1 && p.idx[0] == 0,
	   "plan_exec: one scenario selected");
	sc = p.set.n ? &p.set.v[0] : NULL;
	ok(sc && !strcmp(sc->name, EXEC_SCENARIO) && sc->nsteps == 1 &&
		   !strcmp(sc->steps[0].kind, "exec"),
	   "named " EXEC_SCENARIO ", one exec step");
	if (sc && sc->run_steps)
		json_object_object_get_ex(
			json_object_array_get_idx(sc->run_steps, 0), "command",
			&v);
	ok(v && !strcmp(json_object_get_string(v), cmd),
	   "its command is the one given, byte for byte");
	ok(sc && sc->step_timeout_ms == 600000 && sc->timeout_ms == 600000,
	   "the step and the scenario may run 10 minutes");
	plan_free(&p);

	/* --exec-timeout bounds both. */
	memset(&p, 0, sizeof(p));
	s.exec_timeout_s = 5;
	sc = plan_exec(&s, &p) == 0 && p.set.n ? &p.set.v[0] : NULL;
	ok(sc && sc->step_timeout_ms == 5000 && sc->timeout_ms == 5000,
	   "--exec-timeout 5: the step and the scenario may run 5 s");
	plan_free(&p);
}

static void test_status(void)
{
	ok(exec_status("exit status 0") == 0, "exit status 0");
	ok(exec_status("exit status 3") == 3, "exit status 3");
	ok(exec_status("exit status 255") == 255, "exit status 255");
	ok(exec_status("killed by signal 9 (SIGKILL)") == 137,
	   "SIGKILL: 128 + 9");
	ok(exec_status("exit status 256") == -1, "256 is no status");
	ok(exec_status("exit status 3 and more") == -1, "trailing text");
	ok(exec_status("killed by signal 99 (SIGX)") == -1, "signal 99");
	ok(exec_status("killed by signal 9") == -1, "a signal without a name");
	ok(exec_status("") == -1 && exec_status(NULL) == -1, "nothing");
}

static bool sc_interrupted;

/* exec_exit() of one scenario with @verdict, its step @step_verdict with
 * @got, and @kind's incident when not NULL. */
static int exit_of(enum proto_verdict verdict, enum proto_verdict step_verdict,
		   const char *got, const char *kind)
{
	struct res_incident inc = { .step = 0 };
	struct res_step st = { .verdict = step_verdict, .got = (char *)got };
	struct res_scenario sc = { .verdict = verdict,
				   .steps = &st,
				   .nsteps = 1,
				   .reason = "why" };
	struct res_run run = { .v = &sc, .n = 1 };

	if (kind) {
		snprintf(inc.kind, sizeof(inc.kind), "%s", kind);
		snprintf(inc.title, sizeof(inc.title), "Kernel panic \x1b[2J");
		sc.incidents = &inc;
		sc.nincidents = 1;
	}
	return exec_exit(&run, "/r", sc_interrupted ? 2 : 0);
}

static void test_exit(void)
{
	ok(exit_of(VERDICT_PASS, VERDICT_PASS, "exit status 0", NULL) == 0,
	   "pass: 0");
	ok(exit_of(VERDICT_FAIL, VERDICT_FAIL, "exit status 3", NULL) == 3,
	   "exit 3: 3");
	ok(exit_of(VERDICT_FAIL, VERDICT_FAIL, "killed by signal 15 (SIGTERM)",
		   NULL) == 143,
	   "SIGTERM: 143");
	ok(exit_of(VERDICT_CRASH, VERDICT_ERROR, NULL, "panic") ==
		   EXEC_EXIT_CRASH,
	   "crash: 125");
	ok(exit_of(VERDICT_TIMEOUT, VERDICT_TIMEOUT, NULL, "hang") ==
		   EXEC_EXIT_TIMEOUT,
	   "timeout or hang: 124");
	ok(exit_of(VERDICT_FAIL, VERDICT_PASS, "exit status 0", "warning") ==
		   EXEC_EXIT_CRASH,
	   "exit 0 but the judge failed it: 125");
	ok(exit_of(VERDICT_ERROR, VERDICT_ERROR, NULL, NULL) == RUN_EXIT_LAB,
	   "error: 3");
	sc_interrupted = true;
	ok(exit_of(VERDICT_ERROR, VERDICT_ERROR, NULL, NULL) == 130,
	   "interrupted by SIGINT: 130, as a shell's");
	sc_interrupted = false;
	ok(exit_of(VERDICT_PASS, VERDICT_PASS, "exit status x", NULL) ==
		   RUN_EXIT_LAB,
	   "a pass without a status: 3");
}

/* What exec_output() wrote on @fd (1 or 2) for @data. */
static char *output_of(struct run_plan *p, int fd, const char *stream,
		       const char *data)
{
	struct proto_output o = { .step = 0 };
	FILE *tmp = tmpfile(), *f = fd == 1 ? stdout : stderr;
	int saved = dup(fd);
	static char buf[4096];
	size_t n;

	snprintf(o.stream, sizeof(o.stream), "%s", stream);
	snprintf(o.data, sizeof(o.data), "%s", data);
	fflush(f);
	dup2(fileno(tmp), fd);
	exec_output(p, &o);
	fflush(f);
	dup2(saved, fd);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, sizeof(buf) - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
	return buf;
}

static void test_output(void)
{
	struct run_plan p = { 0 };
	char big[PROTO_OUTPUT_MAX];

	ok(!strcmp(output_of(&p, 1, "stdout", "a\x1b]0;x\x07z\nb\tc\n"),
		   "a\\x1b]0;x\\x07z\nb\tc\n"),
	   "stdout: ESC and BEL escaped, newlines and tabs kept");
	ok(!strcmp(output_of(&p, 2, "stderr", "e\r\n"), "e\\x0d\n"),
	   "stderr apart, CR escaped");
	ok(!strcmp(output_of(&p, 1, "stderr", "e\n"), ""),
	   "stderr's piece is not on stdout");
	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	while (p.exec_bytes + sizeof(big) - 1 <= EXEC_OUTPUT_MAX)
		output_of(&p, 1, "stdout", big);
	ok(!strcmp(output_of(&p, 1, "stdout", big), "") && p.exec_cut &&
		   p.exec_bytes <= EXEC_OUTPUT_MAX,
	   "bounded: nothing past EXEC_OUTPUT_MAX bytes");
}

int main(void)
{
	test_plan();
	test_status();
	test_exit();
	test_output();
	return tap_done();
}
