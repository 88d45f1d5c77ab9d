// SPDX-License-Identifier: GPL-2.0-only
/*
 * The state-leak audit: which kernel log lines count, a state file's
 * snapshot, the events of a snapshot, the request check, and where the
 * runner sends the two snapshots (after scenario_begin, before
 * scenario_end, also for a scenario that dies).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "guestd.h"
#include "tap.h"
#include "testutil.h"

#define EVENTS_MAX 64

static struct proto_event events[EVENTS_MAX];
static size_t nevents;
static char dir[256];

static void capture_mut(struct proto_event *ev, void *data)
{
	if (nevents < EVENTS_MAX)
		events[nevents++] = *ev;
}

static void capture(const struct proto_event *ev, void *data)
{
	if (nevents < EVENTS_MAX)
		events[nevents++] = *ev;
}

static int classify(const char *s)
{
	return audit_classify(s, strlen(s));
}

static void test_classify(void)
{
	is_int(classify("WARNING: CPU: 0 PID: 35 at kernel/x.c:1 f+0x1/0x2"),
	       AUDIT_LINE_WARN, "a WARN");
	is_int(classify("BUG: kernel NULL pointer dereference, address: 0"),
	       AUDIT_LINE_BUG, "a BUG: line");
	is_int(classify("kernel BUG at mm/usercopy.c:101!"), AUDIT_LINE_BUG,
	       "kernel BUG at");
	is_int(classify("Kernel panic - not syncing: dumptest"), AUDIT_LINE_BUG,
	       "a panic");
	is_int(classify("UBSAN: array-index-out-of-bounds in x.c:3:4"),
	       AUDIT_LINE_BUG, "a UBSAN report");
	is_int(classify("lkdtm: Performing direct entry WARNING"),
	       AUDIT_LINE_OTHER, "LKDTM naming a WARNING is not one");
	is_int(classify("WARNING"), AUDIT_LINE_OTHER, "a bare word is not");
}

static void test_file(void)
{
	struct proto_audit_file f;
	char path[512], want[17];

	snprintf(path, sizeof(path), "%s/state", dir);
	tu_write(path, "foo [m]\n\x01", O_TRUNC);
	audit_file(path, &f);
	is_str(f.path, path, "the path");
	is_str(f.err, "", "no errno");
	is_int((long long)f.size, 9, "the size");
	snprintf(want, sizeof(want), "%016llx",
		 (unsigned long long)proto_fnv1a(PROTO_FNV_INIT,
						 "foo [m]\n\x01", 9));
	is_str(f.hash, want, "the FNV-1a hash of the content");
	is_str(f.head, "foo [m]\n\\x01", "the escaped head");

	snprintf(path, sizeof(path), "%s/none", dir);
	audit_file(path, &f);
	is_str(f.err, "ENOENT", "a missing file gives its errno name");
	is_int((long long)f.size, 0, "and no size");

	/* PID 1 must never block: a FIFO is refused, not opened and read. */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	mkfifo(path, 0600);
	audit_file(path, &f);
	is_str(f.err, "EINVAL", "a FIFO is not a state file");
	audit_file(dir, &f);
	is_str(f.err, "EINVAL", "nor is a directory");
}

static void test_snapshot(void)
{
	char kmsg[512], tainted[512], state[512], req[1024];
	struct json_object *files;
	struct audit a;

	snprintf(kmsg, sizeof(kmsg), "%s/kmsg", dir);
	snprintf(tainted, sizeof(tainted), "%s/tainted", dir);
	snprintf(state, sizeof(state), "%s/state", dir);
	tu_write(kmsg, "4,1,100,-;WARNING: CPU: 0 PID: 1 at x.c:1 f\n"
		 "6,2,200,-;lkdtm: Performing direct entry BUG\n", O_TRUNC);
	tu_write(tainted, "0\n", O_TRUNC);
	is_int(audit_open(&a, kmsg, tainted), 0, "open on a fake kmsg");

	snprintf(req, sizeof(req), "[\"%s\"]", state);
	files = json_tokener_parse(req);
	nevents = 0;
	audit_snapshot(&a, "a/b", "before", files, capture_mut, NULL);
	is_int((long long)nevents, 2, "an audit and one audit_file");
	ok(events[0].type == PROTO_EV_AUDIT &&
	   strcmp(events[0].u.audit.phase, "before") == 0 &&
	   strcmp(events[0].u.audit.scenario, "a/b") == 0,
	   "the audit names the scenario and phase");
	is_int((long long)events[0].u.audit.warns, 1, "one WARNING so far");
	is_int((long long)events[0].u.audit.bugs, 0, "no BUG");
	is_int((long long)events[0].u.audit.nfiles, 1, "one file announced");
	ok(events[1].type == PROTO_EV_AUDIT_FILE &&
	   strcmp(events[1].u.audit_file.path, state) == 0,
	   "then the state file");

	tu_write(kmsg, "1,3,300,-;kernel BUG at lib/x.c:2!\n"
		 "4,4,400,-;WARNING: CPU: 0 PID: 1 at y.c:1 g\n", O_APPEND);
	tu_write(tainted, "640\n", O_TRUNC);
	nevents = 0;
	audit_snapshot(&a, "a/b", "after", NULL, capture_mut, NULL);
	is_int((long long)nevents, 1, "no files, one event");
	is_int((long long)events[0].u.audit.tainted, 640, "the new taint");
	is_int((long long)events[0].u.audit.warns, 2, "counts go on");
	is_int((long long)events[0].u.audit.bugs, 1, "one BUG now");
	audit_close(&a);
	json_object_put(files);

}

static const struct runner_ops ops = { .emit = capture };
static const struct step_ops *const table[] = { &step_sleep, &step_write,
						NULL };

static void drive(struct runner *r, const char *req)
{
	uint64_t limit = guestd_now_us() + 10000000;

	nevents = 0;
	runner_submit(r, json_tokener_parse(req));
	while (runner_busy(r) && guestd_now_us() < limit) {
		struct pollfd pfd = { .fd = runner_fd(r), .events = POLLIN };
		int status;
		pid_t pid;

		poll(&pfd, 1, 5);
		if (pfd.revents)
			runner_on_readable(r);
		runner_on_tick(r, guestd_now_us());
		while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
			runner_on_exit(r, pid, status);
	}
}

static const char *types(void)
{
	static char buf[1024];

	buf[0] = '\0';
	for (size_t i = 0; i < nevents; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
			 i ? " " : "", proto_event_name(events[i].type));
	return buf;
}

static void test_runner(void)
{
	char kmsg[512], tainted[512], req[2048];
	struct step_env env = { 0 };
	struct runner r;
	struct audit a;

	snprintf(kmsg, sizeof(kmsg), "%s/kmsg", dir);
	snprintf(tainted, sizeof(tainted), "%s/tainted", dir);
	tu_write(kmsg, "", O_TRUNC);
	env.kmsg_path = kmsg;
	audit_open(&a, kmsg, tainted);
	runner_init(&r, table, &env, &ops, NULL);
	r.audit = &a;

	snprintf(req, sizeof(req),
		 "{\"req\":\"run\",\"scenario\":\"a/b\",\"state_files\":"
		 "[\"%s\"],\"steps\":[{\"kind\":\"write\",\"path\":\"%s\","
		 "\"value\":\"1\\n\"}]}", tainted, tainted);
	tu_write(tainted, "0\n", O_TRUNC);
	drive(&r, req);
	is_str(types(), "scenario_begin audit audit_file step_begin step_end "
	       "audit audit_file scenario_end",
	       "'before' follows scenario_begin, 'after' precedes scenario_end");
	ok(nevents == 8 && events[1].u.audit.tainted == 0 &&
	   events[5].u.audit.tainted == 1, "the scenario's write shows");
	ok(nevents == 8 && strcmp(events[2].u.audit_file.hash,
				  events[6].u.audit_file.hash) != 0,
	   "and the state file's hash changed");

	/* A step that times out: the runner ends it, and audits it too. */
	drive(&r, "{\"req\":\"run\",\"scenario\":\"a/c\",\"steps\":"
	      "[{\"kind\":\"sleep\",\"ms\":5000,\"timeout_ms\":50}]}");
	is_str(types(), "scenario_begin audit step_begin step_end audit "
	       "scenario_end", "a timed-out scenario is audited after too");

	/* The "after" comes after the cleanup list: what it leaves. */
	snprintf(req, sizeof(req),
		 "{\"req\":\"run\",\"scenario\":\"a/e\",\"steps\":"
		 "[{\"kind\":\"write\",\"path\":\"%s\",\"value\":\"4\\n\"},"
		 "{\"kind\":\"sleep\",\"ms\":5000,\"timeout_ms\":50}],"
		 "\"cleanup\":[{\"kind\":\"write\",\"path\":\"%s\","
		 "\"value\":\"0\\n\"}]}", tainted, tainted);
	tu_write(tainted, "0\n", O_TRUNC);
	drive(&r, req);
	is_str(types(), "scenario_begin audit step_begin step_end step_begin "
	       "step_end step_begin step_end audit scenario_end",
	       "'after' follows the cleanup steps");
	ok(nevents == 10 && events[1].u.audit.tainted == 0 &&
	   events[8].u.audit.tainted == 0,
	   "and sees the state the cleanup left");

	/* A refused request never began: no audit. */
	drive(&r, "{\"req\":\"run\",\"scenario\":\"a/d\",\"state_files\":"
	      "[\"x\"],\"steps\":[{\"kind\":\"sleep\",\"ms\":1}]}");
	is_str(types(), "scenario_end", "a refused request is not audited");
	ok(nevents == 1 && strstr(events[0].u.scenario_end.reason,
				  "state_files[0] must be an absolute path"),
	   "and says why");
	drive(&r, "{\"req\":\"run\",\"scenario\":\"a/f\",\"state_files\":"
	      "\"/x\",\"steps\":[{\"kind\":\"sleep\",\"ms\":1}]}");
	ok(nevents == 1 && strcmp(events[0].u.scenario_end.reason,
				  "bad run request: 'state_files' must be an "
				  "array of at most 16 paths") == 0,
	   "a string instead of an array is refused");
	ok(nevents == 1 && strcmp(events[0].u.scenario_end.scenario, "a/f") == 0,
	   "under the request's name");
	runner_free(&r);
	audit_close(&a);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s", tu_tmpdir());
	test_classify();
	test_file();
	test_snapshot();
	test_runner();
	tu_rmrf(dir);
	return tap_done();
}
