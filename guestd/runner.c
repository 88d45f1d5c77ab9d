// SPDX-License-Identifier: GPL-2.0-only
/*
 * The supervisor, as the kselftest harness does it: each scenario runs in
 * a forked child with its own process group. The child reports its steps
 * as protocol lines on a pipe; the supervisor checks and forwards them,
 * enforces the step and scenario timeouts by killing the whole group, and
 * turns a child that dies without finishing into verdict error. Only the
 * supervisor writes to the host.
 *
 * A request with a "cleanup" list gets a second child once the first is
 * gone, however it ended (passed, failed, timed out, died): it runs the
 * cleanup steps under their own deadline, numbered after the main steps.
 * The main steps' scenario_end is held until then, so the host sees one
 * scenario whose verdict is its main steps', and the cleanup steps'
 * verdicts apart.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guestd.h"

void runner_init(struct runner *r, const struct step_ops *const *table,
		 const struct step_env *env, const struct runner_ops *ops,
		 void *data)
{
	memset(r, 0, sizeof(*r));
	r->table = table;
	r->env = env;
	r->ops = ops;
	r->data = data;
	r->fd = -1;
	r->ack_fd = -1;
	r->step = -1;
	r->abandon_ms = RUNNER_ABANDON_MS;
}

/* The scenario_end went out: from now on only the reaping is left. */
static void set_ended(struct runner *r)
{
	r->ended = true;
	r->ended_us = guestd_now_us();
}

static void emit(struct runner *r, struct proto_event *ev)
{
	ev->t_us = guestd_now_us();
	r->ops->emit(ev, r->data);
}

static void emit_scenario_begin(struct runner *r, const char *scenario)
{
	struct proto_event ev = { .type = PROTO_EV_SCENARIO_BEGIN };

	snprintf(ev.u.scenario_begin.scenario, PROTO_NAME_MAX, "%s", scenario);
	ev.u.scenario_begin.nsteps = r->nsteps;
	ev.u.scenario_begin.ncleanup = r->ncleanup;
	emit(r, &ev);
}

static void audit_emit(struct proto_event *ev, void *data)
{
	emit(data, ev);
}

/*
 * The state-leak audit's snapshot (audit.c) of the scenario that runs:
 * "before" its first step, "after" its last, just before scenario_end.
 */
static void audit_phase(struct runner *r, const char *phase)
{
	if (!r->audit || !r->req)
		return;
	audit_snapshot(r->audit, r->run.scenario, phase, r->run.state_files,
		       audit_emit, r);
}

static void emit_scenario_end(struct runner *r, const char *scenario,
			      enum proto_verdict verdict, uint64_t duration_us,
			      const char *reason)
{
	static struct proto_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.type = PROTO_EV_SCENARIO_END;
	snprintf(ev.u.scenario_end.scenario, PROTO_NAME_MAX, "%s", scenario);
	ev.u.scenario_end.verdict = verdict;
	ev.u.scenario_end.duration_us = duration_us;
	snprintf(ev.u.scenario_end.reason, PROTO_TEXT_MAX, "%s", reason);
	emit(r, &ev);
}

/* The end of a scenario that began: the "after" audit, then its end. */
static void finish(struct runner *r, enum proto_verdict verdict,
		   uint64_t duration_us, const char *reason)
{
	audit_phase(r, "after");
	emit_scenario_end(r, r->run.scenario, verdict, duration_us, reason);
}

/*
 * The running child is over, by its own scenario_end or by the
 * supervisor's verdict on it; what is left is reaping it. The main steps'
 * end waits for the cleanup list when there is one; the cleanup child's
 * end is the cleanup's alone (its step events told the host) and never
 * goes out.
 */
static void end_child(struct runner *r, enum proto_verdict verdict,
		      uint64_t duration_us, const char *reason)
{
	if (!r->ncleanup) {
		finish(r, verdict, duration_us, reason);
	} else if (!r->in_cleanup) {
		r->held = true;
		r->held_verdict = verdict;
		r->held_duration_us = duration_us;
		snprintf(r->held_reason, sizeof(r->held_reason), "%s", reason);
	}
	set_ended(r);
}

/* End the open step with @verdict, on the child's behalf. */
static void emit_step_end(struct runner *r, enum proto_verdict verdict,
			  const char *expected, const char *got,
			  const char *reason)
{
	static struct proto_event ev;

	if (r->step < 0)
		return;
	memset(&ev, 0, sizeof(ev));
	ev.type = PROTO_EV_STEP_END;
	snprintf(ev.u.step_end.scenario, PROTO_NAME_MAX, "%s", r->run.scenario);
	ev.u.step_end.step = (uint32_t)r->step;
	ev.u.step_end.verdict = verdict;
	ev.u.step_end.duration_us = guestd_now_us() - r->step_begin_us;
	snprintf(ev.u.step_end.expected, PROTO_TEXT_MAX, "%s", expected);
	snprintf(ev.u.step_end.got, PROTO_TEXT_MAX, "%s", got);
	snprintf(ev.u.step_end.reason, PROTO_TEXT_MAX, "%s", reason);
	emit(r, &ev);
	r->step = -1;
	r->step_deadline_us = 0;
}

/* Check each step of @steps, a list of the request, against its kind. */
static int check_steps(struct runner *r, struct json_object *steps,
		       bool cleanup, char *err, size_t errlen)
{
	size_t n = steps ? json_object_array_length(steps) : 0;
	char serr[256];
	int ret;

	for (size_t i = 0; i < n; i++) {
		struct json_object *step = json_object_array_get_idx(steps, i);

		if (cleanup)
			ret = step_check_cleanup(r->table, step, serr,
						 sizeof(serr));
		else
			ret = step_check(r->table, step, serr, sizeof(serr));
		if (ret < 0) {
			snprintf(err, errlen, "%s[%zu]: %s",
				 cleanup ? "cleanup" : "steps", i, serr);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Decode a run request into r->run and check its steps; the host checked
 * them too, but trust nothing. On failure r->run.scenario is the
 * request's name when that much of it was good.
 */
static int check_request(struct runner *r, struct json_object *req, char *err,
			 size_t errlen)
{
	if (proto_run_decode(req, &r->run, err, errlen) < 0 ||
	    check_steps(r, r->run.steps, false, err, errlen) < 0 ||
	    check_steps(r, r->run.cleanup, true, err, errlen) < 0)
		return -EINVAL;
	r->nsteps = (uint32_t)json_object_array_length(r->run.steps);
	if (r->run.cleanup)
		r->ncleanup =
			(uint32_t)json_object_array_length(r->run.cleanup);
	return 0;
}

/* The name of a queued request, for its refusal: "" when it has none. */
static const char *request_name(struct json_object *req)
{
	struct proto_run run;

	proto_run_decode(req, &run, NULL, 0);
	return run.scenario ? run.scenario : "";
}

/* The child's side of fork(): never returns. */
static void child_start(struct runner *r, int out_fd, int ack_fd)
{
	static const int sigs[] = { SIGCHLD, SIGPIPE, SIGTERM, SIGINT, SIGHUP };
	sigset_t all;

	setpgid(0, 0);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		signal(sigs[i], SIG_DFL);
	sigfillset(&all);
	sigprocmask(SIG_UNBLOCK, &all, NULL);
	if (r->ops->child_init)
		r->ops->child_init(r->data);
	scenario_child(r->table, r->env, &r->run, r->in_cleanup, out_fd,
		       ack_fd);
}

/*
 * Fork the child for r->req: the main steps, or with r->in_cleanup the
 * cleanup list, each under its own deadline. Returns 0, or -1 with the
 * reason in @err.
 */
static int spawn(struct runner *r, char *err, size_t errlen)
{
	int evp[2], ackp[2];
	uint64_t limit;
	pid_t pid;

	if (pipe2(evp, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", util_errno_desc(errno));
		return -1;
	}
	if (pipe2(ackp, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", util_errno_desc(errno));
		goto out_close_ev;
	}
	if (proto_linebuf_init(&r->lb) < 0) {
		snprintf(err, errlen, "out of memory");
		goto out_close_ack;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", util_errno_desc(errno));
		proto_linebuf_free(&r->lb);
		goto out_close_ack;
	}
	if (pid == 0) {
		close(evp[0]);
		close(ackp[1]);
		child_start(r, evp[1], ackp[0]);
	}
	/* Both sides set the group, so neither races the other. */
	setpgid(pid, pid);
	close(evp[1]);
	close(ackp[0]);
	fcntl(evp[0], F_SETFL, O_NONBLOCK);
	r->pid = pid;
	r->fd = evp[0];
	r->ack_fd = ackp[1];
	r->lb_skip = false;
	r->phase_begin_us = guestd_now_us();
	limit = r->in_cleanup ? r->run.cleanup_timeout_ms : r->run.timeout_ms;
	r->deadline_us = r->phase_begin_us + limit * 1000;
	r->step = -1;
	r->step_deadline_us = 0;
	r->ended = false;
	return 0;

out_close_ack:
	close(ackp[0]);
	close(ackp[1]);
out_close_ev:
	close(evp[0]);
	close(evp[1]);
	return -1;
}

/*
 * Start @req now; false when it ended at once. A request refused before it
 * began (a bad one) gets a scenario_end without a scenario_begin; one that
 * began and couldn't fork gets both.
 */
static bool start(struct runner *r, struct json_object *req)
{
	char err[512];

	r->nsteps = 0;
	r->ncleanup = 0;
	r->in_cleanup = false;
	r->held = false;
	if (check_request(r, req, err, sizeof(err)) < 0) {
		char reason[sizeof(err) + 32];

		snprintf(reason, sizeof(reason), "bad run request: %s", err);
		emit_scenario_end(r, r->run.scenario ? r->run.scenario : "",
				  VERDICT_ERROR, 0, reason);
		json_object_put(req);
		memset(&r->run, 0, sizeof(r->run));
		return false;
	}
	emit_scenario_begin(r, r->run.scenario);
	r->req = req;
	audit_phase(r, "before");
	r->begin_us = guestd_now_us();
	if (spawn(r, err, sizeof(err)) < 0) {
		emit_scenario_end(r, r->run.scenario, VERDICT_ERROR, 0, err);
		json_object_put(req);
		r->req = NULL;
		memset(&r->run, 0, sizeof(r->run));
		return false;
	}
	return true;
}

static void start_next(struct runner *r)
{
	while (r->pid == 0 && r->nqueued > 0) {
		struct json_object *req = r->queue[0];

		memmove(r->queue, r->queue + 1,
			--r->nqueued * sizeof(r->queue[0]));
		start(r, req);
	}
}

void runner_submit(struct runner *r, struct json_object *req)
{
	if (r->nqueued == RUNNER_QUEUE_MAX) {
		char why[128];

		snprintf(why, sizeof(why), "more than %d run requests queued",
			 RUNNER_QUEUE_MAX);
		emit_scenario_end(r, request_name(req), VERDICT_ERROR, 0, why);
		json_object_put(req);
		return;
	}
	r->queue[r->nqueued++] = req;
	start_next(r);
}

bool runner_busy(const struct runner *r)
{
	return r->pid != 0 || r->nqueued > 0;
}

/* The held step may start: its child gets the go-ahead byte. */
static void go_ahead(struct runner *r)
{
	uint64_t now, held;
	char c = 1;

	r->ack_pending = false;
	/*
	 * The time the step waited for the host is neither its own nor the
	 * scenario's (an idle guest's clock may race under icount): both
	 * bounds count from now on, as if it had begun now.
	 */
	now = guestd_now_us();
	held = now - r->step_begin_us;
	r->deadline_us += held;
	r->phase_begin_us += held;
	r->step_begin_us = now;
	r->step_deadline_us = now + r->step_limit_ms * 1000;
	/* If the child died, the write fails and its exit is reported when
	 * it is reaped. */
	if (r->ack_fd >= 0)
		(void)!write(r->ack_fd, &c, 1);
}

void runner_out_sent(struct runner *r)
{
	if (!r->ack_pending || r->host_acks ||
	    r->ops->out_sent(r->data) < r->ack_mark)
		return;
	go_ahead(r);
}

void runner_on_ack(struct runner *r, uint64_t t_us)
{
	r->host_acks = true;
	if (r->ack_pending && t_us == r->ack_t_us)
		go_ahead(r);
}

int runner_fd(const struct runner *r)
{
	return r->fd;
}

uint64_t runner_deadline(const struct runner *r)
{
	if (r->pid == 0)
		return 0;
	if (r->ended)
		return r->ended_us + r->abandon_ms * 1000;
	/* A step waiting for the host: no bound runs (runner_out_sent()). */
	if (r->ack_pending)
		return 0;
	if (r->step_deadline_us && r->step_deadline_us < r->deadline_us)
		return r->step_deadline_us;
	return r->deadline_us;
}

const char *runner_scenario(const struct runner *r)
{
	return r->pid && !r->ended ? r->run.scenario : "";
}

int64_t runner_step(const struct runner *r)
{
	return r->pid && !r->ended ? r->step : -1;
}

/* The child broke the rules: kill it and report error. */
static void child_misbehaved(struct runner *r, const char *what)
{
	char reason[PROTO_TEXT_MAX];

	kill(-r->pid, SIGKILL);
	snprintf(reason, sizeof(reason), "%s process sent %s",
		 r->in_cleanup ? "cleanup" : "scenario", what);
	emit_step_end(r, VERDICT_ERROR, "", "", reason);
	end_child(r, VERDICT_ERROR, guestd_now_us() - r->begin_us, reason);
}

/* The step numbers the running child may begin: [*lo, *hi). */
static void step_range(const struct runner *r, uint32_t *lo, uint32_t *hi)
{
	*lo = r->in_cleanup ? r->nsteps : 0;
	*hi = r->in_cleanup ? r->nsteps + r->ncleanup : r->nsteps;
}

/* A step of @kind began: its reset hook, if it has one, is due. */
static void note_reset(struct runner *r, const char *kind)
{
	const struct step_ops *ops = step_find(r->table, kind);

	if (!ops || !ops->reset)
		return;
	for (size_t i = 0; i < r->nresets; i++)
		if (r->resets[i] == ops)
			return;
	if (r->nresets < RUNNER_RESETS_MAX)
		r->resets[r->nresets++] = ops;
}

static uint64_t step_limit_ms(struct runner *r, uint32_t step)
{
	struct json_object *s;

	if (step < r->nsteps)
		s = json_object_array_get_idx(r->run.steps, step);
	else
		s = json_object_array_get_idx(r->run.cleanup, step - r->nsteps);
	return (uint64_t)step_int(s, "timeout_ms",
				  (int64_t)r->run.step_timeout_ms);
}

static int on_line(const char *line, size_t len, void *data)
{
	static struct proto_event ev;
	struct runner *r = data;
	char err[256], what[320];
	uint32_t lo, hi;
	char c = 1;

	if (r->ended)
		return 0;
	if (r->ops->before_event)
		r->ops->before_event(r->data);
	if (proto_event_decode(line, len, &ev, err, sizeof(err)) < 0) {
		snprintf(what, sizeof(what), "a bad line: %s", err);
		child_misbehaved(r, what);
		return 0;
	}
	switch (ev.type) {
	case PROTO_EV_STEP_BEGIN:
		step_range(r, &lo, &hi);
		if (ev.u.step_begin.step < lo || ev.u.step_begin.step >= hi ||
		    r->step >= 0)
			break;
		r->step = ev.u.step_begin.step;
		snprintf(r->step_kind, sizeof(r->step_kind), "%s",
			 ev.u.step_begin.kind);
		note_reset(r, r->step_kind);
		r->step_begin_us = guestd_now_us();
		r->step_limit_ms = step_limit_ms(r, (uint32_t)r->step);
		r->step_deadline_us =
			r->step_begin_us + r->step_limit_ms * 1000;
		r->ops->emit(&ev, r->data);
		/*
		 * The step may start once its step_begin reached the host
		 * (acknowledged, or else written out): kmsg lines are tagged
		 * with it from now.
		 */
		if (r->ops->out_queued || r->host_acks) {
			r->ack_t_us = ev.t_us;
			r->ack_mark = r->ops->out_queued ?
					      r->ops->out_queued(r->data) :
					      0;
			r->ack_pending = true;
			runner_out_sent(r);
			return 0;
		}
		/* If the child died, the write fails and its exit is
		 * reported when it is reaped. */
		(void)!write(r->ack_fd, &c, 1);
		return 0;
	case PROTO_EV_STEP_END:
		if ((int64_t)ev.u.step_end.step != r->step)
			break;
		r->step = -1;
		r->step_deadline_us = 0;
		r->ops->emit(&ev, r->data);
		return 0;
	case PROTO_EV_SUBTEST:
		/* The host checks the numbering; this, whose step it is. */
		if ((int64_t)ev.u.subtest.step != r->step)
			break;
		r->ops->emit(&ev, r->data);
		return 0;
	case PROTO_EV_OUTPUT:
		if ((int64_t)ev.u.output.step != r->step)
			break;
		r->ops->emit(&ev, r->data);
		return 0;
	case PROTO_EV_SCENARIO_END:
		if (r->step >= 0)
			break;
		if (r->ncleanup) {
			end_child(r, ev.u.scenario_end.verdict,
				  ev.u.scenario_end.duration_us,
				  ev.u.scenario_end.reason);
			return 0;
		}
		/* The child's own event, with its clock and duration. */
		audit_phase(r, "after");
		set_ended(r);
		r->ops->emit(&ev, r->data);
		return 0;
	default:
		break;
	}
	snprintf(what, sizeof(what), "an out-of-order '%s' event",
		 proto_event_name(ev.type));
	child_misbehaved(r, what);
	return 0;
}

void runner_on_readable(struct runner *r)
{
	char buf[16384];
	ssize_t n;

	while (r->fd >= 0) {
		n = read(r->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0) {
			/* EOF: the child is gone or going; wait reaps it. */
			close(r->fd);
			r->fd = -1;
			return;
		}
		if (util_feed_lines(&r->lb, &r->lb_skip, buf, (size_t)n,
				    on_line, r) == -E2BIG &&
		    !r->ended)
			child_misbehaved(r,
					 "a line longer than PROTO_LINE_MAX");
	}
}

static void child_gone(struct runner *r);

void runner_on_tick(struct runner *r, uint64_t now)
{
	char expected[128], got[256], reason[PROTO_TEXT_MAX];
	const char *what = r->in_cleanup ? "cleanup" : "scenario";
	uint64_t ms, limit;

	/*
	 * A killed child that doesn't go away is stuck in the kernel (D
	 * state). Its verdict is out; let it be and run the next scenario.
	 * When it is reaped at last, runner_on_exit() won't know its pid.
	 */
	if (r->pid && r->ended && now >= r->ended_us + r->abandon_ms * 1000) {
		r->abandoned++;
		child_gone(r);
		return;
	}
	if (r->pid == 0 || r->ended || r->ack_pending)
		return;
	if (!(r->step_deadline_us && now >= r->step_deadline_us) &&
	    now < r->deadline_us)
		return;
	/* What the child said just before the deadline still counts. */
	runner_on_readable(r);
	if (r->ended || (!(r->step_deadline_us && now >= r->step_deadline_us) &&
			 now < r->deadline_us))
		return;

	kill(-r->pid, SIGKILL);
	if (r->step_deadline_us && now >= r->step_deadline_us) {
		ms = (now - r->step_begin_us) / 1000;
		snprintf(expected, sizeof(expected), "step done within %llu ms",
			 (unsigned long long)r->step_limit_ms);
		snprintf(got, sizeof(got), "still running after %llu ms",
			 (unsigned long long)ms);
		snprintf(reason, sizeof(reason),
			 "step %lld (%s) timed out "
			 "after %llu ms; killed process group %d",
			 (long long)r->step + 1, r->step_kind,
			 (unsigned long long)r->step_limit_ms, (int)r->pid);
	} else {
		ms = (now - r->phase_begin_us) / 1000;
		limit = r->in_cleanup ? r->run.cleanup_timeout_ms :
					r->run.timeout_ms;
		snprintf(expected, sizeof(expected), "%s done within %llu ms",
			 what, (unsigned long long)limit);
		snprintf(got, sizeof(got), "still running after %llu ms",
			 (unsigned long long)ms);
		if (r->step >= 0)
			snprintf(reason, sizeof(reason),
				 "%s timed out "
				 "after %llu ms in step %lld (%s); killed "
				 "process group %d",
				 what, (unsigned long long)limit,
				 (long long)r->step + 1, r->step_kind,
				 (int)r->pid);
		else
			snprintf(reason, sizeof(reason),
				 "%s timed out "
				 "after %llu ms; killed process group %d",
				 what, (unsigned long long)limit, (int)r->pid);
	}
	emit_step_end(r, VERDICT_TIMEOUT, expected, got, reason);
	end_child(r, VERDICT_TIMEOUT, now - r->begin_us, reason);
}

/*
 * The child is gone, and may have ended before it put back what its steps
 * set (an armed fault): call the reset hook of each kind it began a step
 * of, so that the next child or scenario can't inherit it.
 */
static void run_resets(struct runner *r)
{
	char what[600], msg[PROTO_TEXT_MAX];
	int err;

	for (size_t i = 0; i < r->nresets; i++) {
		err = r->resets[i]->reset(r->env, what, sizeof(what));
		if (err < 0 && r->ops->log) {
			util_fmt(msg, sizeof(msg),
				 "resetting what '%s' steps "
				 "left after scenario '%s': %s: %s",
				 r->resets[i]->name, r->run.scenario, what,
				 util_errno_desc(-err));
			r->ops->log(3, msg, r->data);
		}
	}
	r->nresets = 0;
}

/* The child is reaped (or abandoned): drop what was its. */
static void release_child(struct runner *r)
{
	/* Anything the scenario left behind in its group goes too. */
	kill(-r->pid, SIGKILL);
	run_resets(r);
	if (r->fd >= 0)
		close(r->fd);
	if (r->ack_fd >= 0)
		close(r->ack_fd);
	r->fd = r->ack_fd = -1;
	r->ack_pending = false;
	proto_linebuf_free(&r->lb);
	r->pid = 0;
	r->step = -1;
	r->step_deadline_us = 0;
}

/*
 * The main steps' child is gone, whatever it did: fork the cleanup child.
 * Returns false when it could not (the runner's log says why; the host
 * sees the cleanup steps never begin).
 */
static bool start_cleanup(struct runner *r)
{
	char err[256], msg[PROTO_TEXT_MAX];

	r->in_cleanup = true;
	if (spawn(r, err, sizeof(err)) == 0)
		return true;
	if (r->ops->log) {
		util_fmt(msg, sizeof(msg),
			 "cannot run the cleanup of "
			 "scenario '%s': %s",
			 r->run.scenario, err);
		r->ops->log(3, msg, r->data);
	}
	return false;
}

/*
 * The child is reaped or abandoned. After the main steps' child comes the
 * cleanup child, when there is a cleanup list; after the last child, the
 * held scenario_end goes out and the next request starts.
 */
static void child_gone(struct runner *r)
{
	release_child(r);
	if (r->held && !r->in_cleanup && start_cleanup(r))
		return;
	if (r->held)
		finish(r, r->held_verdict, r->held_duration_us, r->held_reason);
	r->held = false;
	r->in_cleanup = false;
	r->ncleanup = 0;
	json_object_put(r->req);
	r->req = NULL;
	memset(&r->run, 0, sizeof(r->run));
	start_next(r);
}

bool runner_on_exit(struct runner *r, pid_t pid, int status)
{
	char how[96], reason[PROTO_TEXT_MAX];

	if (pid != r->pid || pid == 0)
		return false;
	runner_on_readable(r);
	if (!r->ended) {
		const char *who = r->in_cleanup ? "cleanup" : "scenario";

		util_wait_status(status, how, sizeof(how));
		if (r->step >= 0)
			snprintf(reason, sizeof(reason),
				 "%s process %s "
				 "in step %lld (%s)",
				 who, how, (long long)r->step + 1,
				 r->step_kind);
		else
			snprintf(reason, sizeof(reason),
				 "%s process %s "
				 "before it reported scenario_end",
				 who, how);
		emit_step_end(r, VERDICT_ERROR, "the step to finish", how,
			      reason);
		end_child(r, VERDICT_ERROR, guestd_now_us() - r->begin_us,
			  reason);
	}
	child_gone(r);
	return true;
}

void runner_abort(struct runner *r, const char *why)
{
	/* No cleanup runs after this: the scenario ends as error now. */
	if (r->pid && (!r->ended || r->held)) {
		kill(-r->pid, SIGKILL);
		emit_step_end(r, VERDICT_ERROR, "the step to finish", why, why);
		finish(r, VERDICT_ERROR, guestd_now_us() - r->begin_us, why);
		set_ended(r);
		r->held = false;
	}
	for (size_t i = 0; i < r->nqueued; i++) {
		emit_scenario_end(r, request_name(r->queue[i]), VERDICT_ERROR,
				  0, why);
		json_object_put(r->queue[i]);
	}
	r->nqueued = 0;
}

void runner_free(struct runner *r)
{
	if (r->pid) {
		kill(-r->pid, SIGKILL);
		waitpid(r->pid, NULL, 0);
		release_child(r);
	}
	json_object_put(r->req);
	r->req = NULL;
	memset(&r->run, 0, sizeof(r->run));
	for (size_t i = 0; i < r->nqueued; i++)
		json_object_put(r->queue[i]);
	r->nqueued = 0;
}
