// SPDX-License-Identifier: GPL-2.0-only
/*
 * trace_cmd: a function trace recorded by trace-cmd, the userland's own
 * tool, around the load of a module: "trace-cmd record -p function -l
 * FILTER -o FILE modprobe MODULE", then "trace-cmd report -i FILE". The
 * functions of the report's "function:" events are the step's: at least
 * one must come, "expect" must match one of them, and "all_match" every
 * one. trace-cmd is in the cloud image, not in the initramfs (docs/
 * repro.md, "Cloud images"); a scenario with this step says "image":
 * "cloud".
 *
 * Both programs stay in the scenario's process group, so that the step's
 * timeout, which kills that group, ends them too. The trace file is
 * removed after the step.
 *
 * "record -k" keeps trace-cmd from resetting ftrace at its end: its reset
 * clears set_ftrace_filter while the function tracer is still on, so the
 * kernel patches every traceable function in (some 60000) and then out
 * again when it sets nop. Under TCG that took 20 to 40 s on 6.12, and
 * x86's ftrace_replace_code() never reschedules: with
 * CONFIG_PREEMPT_NONE the whole guest stopped, guestd's heartbeat too
 * ("no heartbeat for 15 s" at host load 18). tc_reset() does the same
 * reset in the order that patches only the filtered functions: nop
 * first, then the empty filter, an empty buffer, and tracing_on as it
 * was (trace-cmd leaves it off).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guestd.h"

#define MODPROBE "/sbin/modprobe"
#define TRACE_FILE "/tmp/vlalab-trace-cmd.dat"
/* What a report may hold: a module load's trace is a few lines. */
#define OUTPUT_MAX (4u << 20)
/* The distinct functions kept, and how many a failure names. */
#define FUNCS_MAX 64
#define FUNC_LEN 128
#define SHOW_MAX 6

struct tc_funcs {
	char name[FUNCS_MAX][FUNC_LEN];
	unsigned int n; /* distinct names kept */
	uint64_t events; /* function events in the report */
	bool dropped; /* more distinct names than FUNCS_MAX */
};

/*
 * Run @argv to its end with its output (stdout and stderr) in a malloc'd,
 * NUL-terminated *@ret of at most OUTPUT_MAX bytes (*@cut: there was
 * more), its wait status in *@ret_status. 0 or -errno.
 */
static int run_capture(char *const *argv, char **ret, bool *cut,
		       int *ret_status)
{
	size_t len = 0, size = 65536;
	char *buf = malloc(size + 1);
	char sink[4096];
	int fd, r;
	ssize_t n;
	pid_t pid;

	if (!buf)
		return -ENOMEM;
	*cut = false;
	r = util_spawn_pipe(argv, "/", &pid, &fd);
	if (r < 0) {
		free(buf);
		return r;
	}
	for (;;) {
		if (len == size && size < OUTPUT_MAX) {
			char *nb = realloc(buf, size * 2 + 1);

			if (nb) {
				buf = nb;
				size *= 2;
			}
		}
		if (len < size)
			n = read(fd, buf + len, size - len);
		else
			n = read(fd, sink, sizeof(sink));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (len < size)
			len += (size_t)n;
		else
			*cut = true;
	}
	r = n < 0 ? -errno : 0;
	close(fd);
	while (waitpid(pid, ret_status, 0) < 0)
		if (errno != EINTR) {
			r = -errno;
			break;
		}
	buf[len] = '\0';
	if (r < 0) {
		free(buf);
		return r;
	}
	*ret = buf;
	return 0;
}

const char *step_trace_cmd_bin = "/usr/bin/trace-cmd";
const char *step_trace_cmd_tracefs = "/sys/kernel/tracing";

/* Write @value to the tracefs file @name. 0 or -errno. */
static int tc_write(const char *name, const char *value)
{
	char path[PATH_MAX];
	int fd, r;

	snprintf(path, sizeof(path), "%s/%s", step_trace_cmd_tracefs, name);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = fileio_write_all(fd, value, strlen(value));
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

/*
 * What trace-cmd record resets without "-k", in the order that patches
 * least (see the top). On failure, *@what is the file. 0 or -errno.
 */
static int tc_reset(bool tracing_on, const char **what)
{
	int r;

	*what = "current_tracer";
	r = tc_write(*what, "nop\n");
	if (r == 0) {
		*what = "set_ftrace_filter";
		r = tc_write(*what, "\n");
	}
	if (r == 0) {
		*what = "trace"; /* opened with O_TRUNC: the buffer clears */
		r = tc_write(*what, "");
	}
	if (r == 0) {
		*what = "tracing_on";
		r = tc_write(*what, tracing_on ? "1\n" : "0\n");
	}
	return r;
}

/* Whether tracing is on, as trace-cmd's reset leaves it: on if unknown. */
static bool tc_tracing_on(void)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len;
	bool on = true;

	snprintf(path, sizeof(path), "%s/tracing_on", step_trace_cmd_tracefs);
	if (fileio_read(path, 16, &buf, &len, NULL) == 0)
		on = len == 0 || buf[0] != '0';
	free(buf);
	return on;
}

/* The last line of @out, escaped, for a reason. */
static void last_line(const char *out, char *buf, size_t size)
{
	size_t len = strlen(out);
	const char *p;

	while (len && out[len - 1] == '\n')
		len--;
	p = out + len;
	while (p > out && p[-1] != '\n')
		p--;
	util_escape(buf, size, p, (size_t)(out + len - p), size - 1);
}

/*
 * The function of a report line, or NULL: "COMM-PID [CPU] TIME: function:
 * NAME" with " <-- PARENT" or not after NAME.
 */
static const char *line_function(char *line)
{
	char *p = strstr(line, " function: ");
	size_t n;

	if (!p)
		return NULL;
	p += strlen(" function: ");
	p += strspn(p, " ");
	n = strcspn(p, " \t");
	if (n == 0)
		return NULL;
	p[n] = '\0';
	return p;
}

static void add_function(struct tc_funcs *f, const char *name)
{
	f->events++;
	for (unsigned int i = 0; i < f->n; i++)
		if (!strncmp(f->name[i], name, FUNC_LEN - 1))
			return;
	if (f->n == FUNCS_MAX) {
		f->dropped = true;
		return;
	}
	util_escape(f->name[f->n++], FUNC_LEN, name, strlen(name),
		    FUNC_LEN - 1);
}

static void parse_report(char *out, struct tc_funcs *f)
{
	char *save = NULL;

	for (char *line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *fn = line_function(line);

		if (fn)
			add_function(f, fn);
	}
}

/* The recorded functions, for what the step got: the first SHOW_MAX. */
static void show_functions(const struct tc_funcs *f, char *buf, size_t size)
{
	size_t len;

	buf[0] = '\0';
	for (unsigned int i = 0; i < f->n && i < SHOW_MAX; i++) {
		len = strlen(buf);
		util_fmt(buf + len, size - len, "%s%s", i ? ", " : "",
			 f->name[i]);
	}
	len = strlen(buf);
	if (f->n > SHOW_MAX || f->dropped)
		util_fmt(buf + len, size - len, ", ... (%u%s distinct)", f->n,
			 f->dropped ? "+" : "");
}

static int judge(struct step_result *res, const struct tc_funcs *f,
		 const char *expect, const char *all_match)
{
	char rerr[256], shown[PROTO_TEXT_MAX / 2];
	regex_t re;
	bool any = false;

	show_functions(f, shown, sizeof(shown));
	if (f->events == 0) {
		step_expected(res, "function events in the report");
		step_got(res, "none");
		return 0;
	}
	if (all_match) {
		if (util_regcomp(&re, all_match, rerr, sizeof(rerr)) < 0) {
			step_error(res, "bad regex '%s' in 'all_match': %s",
				   all_match, rerr);
			return 0;
		}
		for (unsigned int i = 0; i < f->n; i++)
			if (regexec(&re, f->name[i], 0, NULL, 0) != 0) {
				step_expected(
					res,
					"every recorded function matches '%s'",
					all_match);
				step_got(res, "'%s' among %s", f->name[i],
					 shown);
				regfree(&re);
				return 0;
			}
		regfree(&re);
	}
	if (expect) {
		if (util_regcomp(&re, expect, rerr, sizeof(rerr)) < 0) {
			step_error(res, "bad regex '%s' in 'expect': %s",
				   expect, rerr);
			return 0;
		}
		for (unsigned int i = 0; i < f->n && !any; i++)
			any = regexec(&re, f->name[i], 0, NULL, 0) == 0;
		regfree(&re);
		if (!any) {
			step_expected(res, "a recorded function matching '%s'",
				      expect);
			step_got(res, "%s", shown);
			return 0;
		}
	}
	res->verdict = VERDICT_PASS;
	res->expected[0] = res->got[0] = res->reason[0] = '\0';
	return 0;
}

static int trace_cmd_run(struct step_ctx *ctx, struct json_object *step,
			 struct step_result *res)
{
	const char *filter = step_str(step, "filter");
	const char *module = step_str(step, "module");
	char *record[] = { (char *)step_trace_cmd_bin,
			   "record",
			   "-k",
			   "-p",
			   "function",
			   "-l",
			   (char *)filter,
			   "-o",
			   TRACE_FILE,
			   MODPROBE,
			   (char *)module,
			   NULL };
	char *report[] = { (char *)step_trace_cmd_bin, "report", "-i",
			   TRACE_FILE, NULL };
	static struct tc_funcs f;
	char status[64], tail[200];
	const char *what;
	char *out = NULL;
	bool cut, on;
	int ws, r, rr;

	(void)ctx;
	memset(&f, 0, sizeof(f));
	if (!stepspec_trace_cmd_word_ok(filter, STEPSPEC_TRACE_FILTER_CHARS) ||
	    !stepspec_trace_cmd_word_ok(module, "")) {
		step_error(res, "filter '%s' or module '%s' refused", filter,
			   module);
		return 0;
	}
	if (access(step_trace_cmd_bin, X_OK) < 0) {
		step_error(
			res,
			"'%s' is not in this image (the cloud image has it: \"image\": \"cloud\")",
			step_trace_cmd_bin);
		return 0;
	}
	res->verdict = VERDICT_FAIL;
	snprintf(res->reason, sizeof(res->reason),
		 "trace-cmd record -l '%s' of modprobe '%s'", filter, module);
	on = tc_tracing_on();
	r = run_capture(record, &out, &cut, &ws);
	rr = tc_reset(on, &what);
	if (rr < 0) {
		step_error(res, "cannot reset '%s' after trace-cmd: %s", what,
			   util_errno_desc(-rr));
		goto out;
	}
	if (r < 0) {
		step_error(res, "cannot run '%s': %s", step_trace_cmd_bin,
			   util_errno_desc(-r));
		goto out;
	}
	if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
		util_wait_status(ws, status, sizeof(status));
		last_line(out, tail, sizeof(tail));
		step_expected(res, "trace-cmd record exits 0");
		step_got(res, "%s; its last line: '%s'", status, tail);
		goto out;
	}
	free(out);
	out = NULL;
	r = run_capture(report, &out, &cut, &ws);
	if (r < 0) {
		step_error(res, "cannot run '%s report': %s",
			   step_trace_cmd_bin, util_errno_desc(-r));
		goto out;
	}
	if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0 || cut) {
		util_wait_status(ws, status, sizeof(status));
		last_line(out, tail, sizeof(tail));
		step_expected(res,
			      "trace-cmd report exits 0 with at most %u bytes",
			      OUTPUT_MAX);
		step_got(res, "%s%s; its last line: '%s'", status,
			 cut ? ", more output" : "", tail);
		goto out;
	}
	parse_report(out, &f);
	judge(res, &f, step_str(step, "expect"), step_str(step, "all_match"));
out:
	free(out);
	unlink(TRACE_FILE);
	return 0;
}

const struct step_ops step_trace_cmd = {
	.name = "trace_cmd",
	.run = trace_cmd_run,
};
