// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace_cmd step against a fake trace-cmd and a fake tracefs: it runs
 * "record -k", so that trace-cmd's own reset (which clears the filter
 * with the function tracer on, patching every kernel function) does not
 * run, and resets ftrace itself: nop, the empty filter, an empty buffer
 * and tracing_on as it was (step-trace-cmd.c).
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "guestd.h"
#include "tap.h"
#include "testutil.h"

/* Records its arguments; "record" turns the tracer on and tracing off. */
static const char fake[] =
	"#!/bin/sh\n"
	"d=$(dirname \"$0\")\n"
	"echo \"$*\" >> \"$d/argv\"\n"
	"case $1 in\n"
	"record) echo function > \"$d/tracefs/current_tracer\";\n"
	"        echo 0 > \"$d/tracefs/tracing_on\";;\n"
	"report) echo 'modprobe-9 [000] 1.0: function: trace_printk_irq_work';;\n"
	"esac\n";

int main(void)
{
	struct step_ctx ctx = { 0 };
	struct step_result res = { .verdict = VERDICT_CRASH };
	struct json_object *step = json_tokener_parse(
		"{\"kind\":\"trace_cmd\",\"filter\":\"*:mod:trace_printk\","
		"\"module\":\"trace_printk\",\"expect\":\"^trace_printk_irq_work$\"}");
	char *dir = tu_tmpdir(), bin[512], tfs[512], f[600], err[256];

	snprintf(bin, sizeof(bin), "%s/trace-cmd", dir);
	snprintf(tfs, sizeof(tfs), "%s/tracefs", dir);
	tu_write(bin, fake, O_TRUNC);
	chmod(bin, 0755);
	mkdir(tfs, 0755);
	snprintf(f, sizeof(f), "%s/current_tracer", tfs);
	tu_write(f, "nop\n", O_TRUNC);
	snprintf(f, sizeof(f), "%s/set_ftrace_filter", tfs);
	tu_write(f, "*:mod:trace_printk\n", O_TRUNC);
	snprintf(f, sizeof(f), "%s/trace", tfs);
	tu_write(f, "old records\n", O_TRUNC);
	snprintf(f, sizeof(f), "%s/tracing_on", tfs);
	tu_write(f, "1\n", O_TRUNC);
	step_trace_cmd_bin = bin;
	step_trace_cmd_tracefs = tfs;

	ok(step && step_check(step_table, step, err, sizeof(err)) == 0,
	   "the trace_cmd step is valid");
	step_find(step_table, "trace_cmd")->run(&ctx, step, &res);
	is_int(res.verdict, VERDICT_PASS, "the step passes");
	snprintf(f, sizeof(f), "%s/argv", dir);
	ok(strstr(tu_read(f), "record -k -p function -l *:mod:trace_printk ") ==
		   tu_read(f),
	   "trace-cmd record runs with -k: its own reset is skipped");
	snprintf(f, sizeof(f), "%s/current_tracer", tfs);
	is_str(tu_read(f), "nop\n", "the step sets the nop tracer");
	snprintf(f, sizeof(f), "%s/set_ftrace_filter", tfs);
	is_str(tu_read(f), "\n", "clears the filter");
	snprintf(f, sizeof(f), "%s/trace", tfs);
	is_str(tu_read(f), "", "and the buffer");
	snprintf(f, sizeof(f), "%s/tracing_on", tfs);
	is_str(tu_read(f), "1\n", "and turns tracing back on, as it was");

	json_object_put(step);
	snprintf(f, sizeof(f), "rm -rf '%s'", dir);
	if (system(f) != 0)
		printf("# could not remove %s\n", dir);
	return tap_done();
}
