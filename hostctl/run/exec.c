// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl run --exec CMD (spec.h): a run of one scenario made in memory,
 * "exec/command", whose one step is guestd's exec (guestd/step-exec.c):
 * /bin/sh -c CMD in the guest. Its "output" events go to hostctl's
 * standard output and error as they come, escaped and bounded; the
 * scenario's verdict, decided as any run's (crash/verdict.c), becomes the
 * exit code (enum exec_exit), with the incident in one line when the
 * kernel rather than the command ended it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/escape.h"
#include "run/plan.h"

/* The scenario's file, with @cmd as its step's command (json-c quotes
 * it) and @timeout_ms the scenario's bound and its step's (--exec-timeout:
 * a command may run this long). A malloc'd string, or NULL. */
static char *exec_scenario_text(const char *cmd, int timeout_ms)
{
	struct json_object *doc = json_object_new_object();
	struct json_object *steps = json_object_new_array();
	struct json_object *step = json_object_new_object();
	char *text = NULL;

	if (doc && steps && step &&
	    !json_object_object_add(
		    doc, "description",
		    json_object_new_string("hostctl run --exec: one command")) &&
	    !json_object_object_add(doc, "seed",
				    json_object_new_string("none")) &&
	    !json_object_object_add(doc, "timeout_ms",
				    json_object_new_int(timeout_ms)) &&
	    !json_object_object_add(doc, "step_timeout_ms",
				    json_object_new_int(timeout_ms)) &&
	    !json_object_object_add(step, "kind",
				    json_object_new_string("exec")) &&
	    !json_object_object_add(step, "name",
				    json_object_new_string("command")) &&
	    !json_object_object_add(step, "command",
				    json_object_new_string(cmd)) &&
	    !json_object_array_add(steps, step)) {
		step = NULL;
		if (!json_object_object_add(doc, "steps", steps)) {
			steps = NULL;
			text = strdup(json_object_to_json_string_ext(
				doc, JSON_C_TO_STRING_PLAIN));
		}
	}
	json_object_put(step);
	json_object_put(steps);
	json_object_put(doc);
	return text;
}

int plan_exec(const struct run_spec *s, struct run_plan *p)
{
	uint32_t timeout_s = s->exec_timeout_s ? s->exec_timeout_s :
						 EXEC_TIMEOUT_DEFAULT_S;
	char *text = exec_scenario_text(s->exec, (int)(timeout_s * 1000));
	int r = -ENOMEM;

	p->set.v = calloc(1, sizeof(*p->set.v));
	p->idx = calloc(1, sizeof(*p->idx));
	if (text && p->set.v && p->idx)
		r = scn_load_buf("--exec", EXEC_SCENARIO, text, strlen(text),
				 &p->set.v[0], &p->errs);
	free(text);
	if (r == -ENOMEM) {
		fprintf(stderr, "hostctl run: out of memory\n");
		return r;
	}
	if (r < 0) {
		for (size_t i = 0; i < p->errs.n; i++)
			fprintf(stderr, "hostctl run: --exec: %s\n",
				p->errs.msgs[i]);
		return r;
	}
	p->set.n = 1;
	p->n = 1;
	return 0;
}

void exec_output(void *data, const struct proto_output *o)
{
	struct run_plan *p = data;
	FILE *f = strcmp(o->stream, "stderr") ? stdout : stderr;
	const char *s = o->data, *nl;
	size_t len = strlen(o->data);

	if (p->exec_bytes + len > EXEC_OUTPUT_MAX) {
		if (!p->exec_cut)
			fprintf(stderr,
				"\nhostctl run: --exec: output cut after %d bytes (events.jsonl keeps its share)\n",
				EXEC_OUTPUT_MAX);
		p->exec_cut = true;
		return;
	}
	p->exec_bytes += len;
	progress_clear(&p->prog);
	/* A newline ends a line; any other control byte is escaped. */
	while ((nl = memchr(s, '\n', len))) {
		esc_term_putn(f, s, (size_t)(nl - s));
		fputc('\n', f);
		len -= (size_t)(nl - s) + 1;
		s = nl + 1;
	}
	esc_term_putn(f, s, len);
	fflush(f);
}

/* The command's own status from its step's got, as guestd's exec step
 * writes it: 0..255, 128 + the signal, or -1 for anything else. */
int exec_status(const char *got)
{
	unsigned int v;
	int n = 0;

	if (!got)
		return -1;
	if (sscanf(got, "exit status %3u%n", &v, &n) == 1 && !got[n] &&
	    v <= 255)
		return (int)v;
	if (sscanf(got, "killed by signal %2u %n", &v, &n) == 1 && v >= 1 &&
	    v <= 64 && got[n] == '(')
		return EXEC_EXIT_SIGNAL + (int)v;
	return -1;
}

/* The one line that says why the kernel, not the command, ended it. */
static void say_incident(const struct res_scenario *sc, const char *what,
			 const char *run_dir)
{
	const struct res_incident *inc =
		sc && sc->nincidents ? &sc->incidents[0] : NULL;
	char why[PROTO_TEXT_MAX + 512];

	if (inc)
		snprintf(why, sizeof(why), "%s: %s%s%s", inc->kind, inc->title,
			 inc->bundle ? "; bundle: " : "",
			 inc->bundle ? inc->bundle : "");
	else
		snprintf(why, sizeof(why), "%s",
			 sc && sc->reason ? sc->reason :
					    "the command did not run");
	esc_term_printf(stderr, "hostctl run: --exec: %s: %s; results: %s\n",
			what, why, run_dir);
}

int exec_exit(const struct res_run *run, const char *run_dir, int sig)
{
	const struct res_scenario *sc = run->n ? &run->v[0] : NULL;
	const struct res_step *st = sc && sc->nsteps ? &sc->steps[0] : NULL;
	int status = st ? exec_status(st->got) : -1;

	if (sc &&
	    (sc->verdict == VERDICT_PASS ||
	     (sc->verdict == VERDICT_FAIL && st &&
	      st->verdict == VERDICT_FAIL)) &&
	    status >= 0) {
		if (sc->verdict == VERDICT_PASS && status == 0)
			return 0;
		if (status > 0)
			return status;
	}
	if (sig > 0 && sig < 64) {
		fprintf(stderr,
			"hostctl run: --exec: interrupted by SIG%s; results: %s\n",
			sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", run_dir);
		return EXEC_EXIT_SIGNAL + sig;
	}
	if (sc && sc->verdict == VERDICT_TIMEOUT) {
		say_incident(sc, "timeout", run_dir);
		return EXEC_EXIT_TIMEOUT;
	}
	if (sc &&
	    (sc->verdict == VERDICT_CRASH || sc->verdict == VERDICT_FAIL)) {
		say_incident(sc, proto_verdict_name(sc->verdict), run_dir);
		return EXEC_EXIT_CRASH;
	}
	say_incident(sc, sc ? proto_verdict_name(sc->verdict) : "no result",
		     run_dir);
	return RUN_EXIT_LAB;
}
