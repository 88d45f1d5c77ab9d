// SPDX-License-Identifier: GPL-2.0-only
/*
 * The session state machine fed with good and hostile guest lines: no
 * libvirt, just lines. Every hostile line must be refused with a reason
 * and must not change the results.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "guest/session.h"
#include "tap.h"

#define HELLO                                                               \
	"{\"ev\":\"hello\",\"t_us\":1,\"version\":1,\"release\":\"6.1.0\"," \
	"\"proc_version\":\"Linux\",\"cmdline\":\"console=ttyS0\","         \
	"\"config_digest\":\"00ff\",\"boot_ms\":900}"

static struct res_scenario sc;

static void reset(struct session *s)
{
	res_scenario_free(&sc);
	memset(&sc, 0, sizeof(sc));
	strcpy(sc.name, "ftrace/x");
	sc.steps = calloc(2, sizeof(*sc.steps));
	sc.nsteps = 2;
	strcpy(sc.steps[0].kind, "read");
	strcpy(sc.steps[1].kind, "write");
	session_init(s);
}

static int feed(struct session *s, const char *line)
{
	return session_feed(s, line, strlen(line));
}

static void test_good(void)
{
	struct session s;

	reset(&s);
	is_int(session_expect(&s, &sc), -EPROTO, "run before hello refused");
	is_int(feed(&s, HELLO), 0, "hello accepted");
	ok(s.hello_seen, "hello seen");
	is_str(s.hello.release, "6.1.0", "hello release kept");
	is_int(feed(&s, "{\"ev\":\"heartbeat\",\"t_us\":2}"), 0, "heartbeat");
	is_int(session_expect(&s, &sc), 0, "expect scenario");
	ok(!session_idle(&s), "running");
	is_int(feed(&s,
		    "{\"ev\":\"scenario_begin\",\"t_us\":3,\"scenario\":\"ftrace/x\",\"nsteps\":2}"),
	       0, "scenario_begin");
	is_int(feed(&s,
		    "{\"ev\":\"step_begin\",\"t_us\":4,\"scenario\":\"ftrace/x\",\"step\":0,\"kind\":\"read\",\"name\":\"r\"}"),
	       0, "step_begin 0");
	is_int(feed(&s,
		    "{\"ev\":\"kmsg\",\"t_us\":4,\"scenario\":\"ftrace/x\",\"step\":0,\"seq\":7,\"ts_us\":5,\"prio\":6,\"msg\":\"hi\"}"),
	       0, "kmsg inside a step");
	is_int(feed(&s,
		    "{\"ev\":\"step_end\",\"t_us\":5,\"scenario\":\"ftrace/x\",\"step\":0,\"verdict\":\"pass\",\"duration_us\":12}"),
	       0, "step_end 0");
	is_int(feed(&s,
		    "{\"ev\":\"step_begin\",\"t_us\":6,\"scenario\":\"ftrace/x\",\"step\":1,\"kind\":\"write\"}"),
	       0, "step_begin 1");
	is_int(feed(&s,
		    "{\"ev\":\"step_end\",\"t_us\":7,\"scenario\":\"ftrace/x\",\"step\":1,\"verdict\":\"fail\",\"duration_us\":30,\"expected\":\"errno EINVAL\",\"got\":\"success\"}"),
	       0, "step_end 1 fail");
	is_int(feed(&s,
		    "{\"ev\":\"scenario_end\",\"t_us\":8,\"scenario\":\"ftrace/x\",\"verdict\":\"fail\",\"duration_us\":4500,\"reason\":\"step 1 failed\"}"),
	       0, "scenario_end");
	ok(session_idle(&s), "idle again");
	is_int(s.end_t_us, 8, "the guest's clock at the scenario's end");
	is_int(feed(&s, "{\"ev\":\"heartbeat\",\"t_us\":1000009}"), 0,
	       "a heartbeat a second on");
	is_int(s.last_t_us, 1000009, "...its clock at the last event");
	ok(sc.done, "scenario done");
	is_str(proto_verdict_name(sc.verdict), "fail", "scenario verdict");
	is_int(sc.duration_ms, 4, "duration in ms");
	is_str(sc.reason, "step 1 failed", "scenario reason");
	ok(sc.steps[0].ran && sc.steps[1].ran, "both steps ran");
	is_str(sc.steps[1].expected, "errno EINVAL", "expected kept");
	is_str(sc.steps[1].got, "success", "got kept");
	is_int(sc.steps[0].duration_us, 12, "step duration");
	is_int(feed(&s, "{\"ev\":\"bye\",\"t_us\":9}"), 0, "bye");
	ok(s.bye_seen, "bye seen");
	is_int(feed(&s, "{\"ev\":\"heartbeat\",\"t_us\":10}"), -EPROTO,
	       "nothing after bye");
}

/* A hostile line after a good start: refused, reason set, state kept. */
static void hostile_n(const char *what, const char *line, size_t len, int want,
		      const char *want_text)
{
	struct session s;
	char name[256];
	int r;

	reset(&s);
	feed(&s, HELLO);
	session_expect(&s, &sc);
	feed(&s,
	     "{\"ev\":\"scenario_begin\",\"t_us\":3,\"scenario\":\"ftrace/x\",\"nsteps\":2}");
	r = session_feed(&s, line, len);
	snprintf(name, sizeof(name), "%s: refused", what);
	is_int(r, want, name);
	snprintf(name, sizeof(name), "%s: reason names it", what);
	if (!ok(strstr(s.err, want_text) != NULL, name))
		printf("#   reason '%s', want '%s'\n", s.err, want_text);
	snprintf(name, sizeof(name), "%s: results untouched", what);
	ok(!sc.done && !sc.steps[0].ran, name);
}

#define hostile(what, line, want, text) \
	hostile_n((what), (line), strlen(line), (want), (text))

static void test_hostile(void)
{
	char *big = malloc(PROTO_LINE_MAX + 10);
	static const char *trunc = "{\"ev\":\"step_begin\",\"t_us\":4,\"scen";

	memset(big, 'a', PROTO_LINE_MAX + 9);
	big[PROTO_LINE_MAX + 9] = '\0';
	hostile_n("too long", big, PROTO_LINE_MAX + 9, -E2BIG, "limit");
	free(big);
	hostile("truncated JSON", trunc, -EBADMSG, "truncated");
	hostile("not JSON", "hello there", -EBADMSG, "bad JSON");
	hostile("unknown event", "{\"ev\":\"format_disk\",\"t_us\":4}", -EPROTO,
		"format_disk");
	hostile("wrong type",
		"{\"ev\":\"step_begin\",\"t_us\":4,\"scenario\":\"ftrace/x\",\"step\":\"0\",\"kind\":\"read\"}",
		-EPROTO, "step");
	hostile("negative step",
		"{\"ev\":\"step_begin\",\"t_us\":4,\"scenario\":\"ftrace/x\",\"step\":-1,\"kind\":\"read\"}",
		-EPROTO, "step");
	hostile("unknown verdict",
		"{\"ev\":\"scenario_end\",\"t_us\":4,\"scenario\":\"ftrace/x\",\"verdict\":\"great\",\"duration_us\":1}",
		-EPROTO, "verdict");
	hostile("another scenario",
		"{\"ev\":\"step_begin\",\"t_us\":4,\"scenario\":\"../../etc\",\"step\":0,\"kind\":\"read\"}",
		-EPROTO, "'../../etc' while 'ftrace/x' runs");
	hostile("step out of order",
		"{\"ev\":\"step_begin\",\"t_us\":4,\"scenario\":\"ftrace/x\",\"step\":1,\"kind\":\"write\"}",
		-EPROTO, "expected step 0");
	hostile("step beyond the scenario",
		"{\"ev\":\"step_begin\",\"t_us\":4,\"scenario\":\"ftrace/x\",\"step\":9,\"kind\":\"read\"}",
		-EPROTO, "step_begin 9");
	hostile("wrong step kind",
		"{\"ev\":\"step_begin\",\"t_us\":4,\"scenario\":\"ftrace/x\",\"step\":0,\"kind\":\"write\"}",
		-EPROTO, "kind 'write', expected 'read'");
	hostile("step_end without step_begin",
		"{\"ev\":\"step_end\",\"t_us\":5,\"scenario\":\"ftrace/x\",\"step\":0,\"verdict\":\"pass\",\"duration_us\":12}",
		-EPROTO, "open step is -1");
	hostile("second scenario_begin",
		"{\"ev\":\"scenario_begin\",\"t_us\":3,\"scenario\":\"ftrace/x\",\"nsteps\":2}",
		-EPROTO, "a second scenario_begin");
	hostile("second hello", HELLO, -EPROTO, "second hello");
	hostile_n("NUL byte", "{\"ev\":\"bye\"\0,\"t_us\":1}", 22, -EBADMSG,
		  "control byte 0x00 at byte 11");
	hostile("bye while running", "{\"ev\":\"bye\",\"t_us\":9}", -EPROTO,
		"bye while 'ftrace/x' runs");
}

static void test_hello(void)
{
	struct session s;

	reset(&s);
	is_int(feed(&s, "{\"ev\":\"heartbeat\",\"t_us\":2}"), -EPROTO,
	       "heartbeat before hello refused");
	ok(strstr(s.err, "before hello") != NULL, "reason: before hello");
	reset(&s);
	is_int(feed(&s,
		    "{\"ev\":\"hello\",\"t_us\":1,\"version\":2,\"release\":\"6.1.0\","
		    "\"proc_version\":\"Linux\",\"cmdline\":\"\",\"config_digest\":\"00\",\"boot_ms\":900}"),
	       -EPROTONOSUPPORT, "version mismatch refused");
	if (!ok(strstr(s.err,
		       "protocol version mismatch: guestd speaks version 2, hostctl speaks version 1") !=
			NULL,
		"version mismatch says both versions"))
		printf("#   reason '%s'\n", s.err);
	ok(!s.hello_seen, "mismatched hello not taken");
	reset(&s);
	is_int(feed(&s, "{\"ev\":\"hello\",\"t_us\":1,\"version\":1}"), -EPROTO,
	       "hello without fields refused");
}


/*
 * A restored guest: what the saved one had queued (a heartbeat, a kmsg,
 * a line cut short, its own hello) is dropped until the hello that
 * answers "restored" with the boot id the host gave.
 */
static void test_restored(void)
{
#define RID "0123abcd-0123-4567-89ab-0123456789ab"
#define RHELLO(id, r)                                                           \
	"{\"ev\":\"hello\",\"t_us\":5,\"version\":1,\"release\":\"6.1.0\","     \
	"\"proc_version\":\"Linux\",\"cmdline\":\"\",\"config_digest\":\"00\"," \
	"\"boot_ms\":900,\"boot_id\":\"" id "\",\"restored\":" #r "}"
	struct session s;

	reset(&s);
	snprintf(s.restore_id, sizeof(s.restore_id), "%s", RID);
	is_int(feed(&s, "{\"ev\":\"heartbeat\",\"t_us\":2}"), SESSION_DROPPED,
	       "restored: the saved guest's heartbeat dropped");
	is_int(feed(&s, "ev\":\"kmsg\",\"t_us"), SESSION_DROPPED,
	       "restored: a line cut short dropped");
	is_int(feed(&s, HELLO), SESSION_DROPPED,
	       "restored: a hello that is no answer dropped");
	is_int(feed(&s, RHELLO("0123abcd-0123-4567-89ab-0123456789ac", 1)),
	       SESSION_DROPPED, "restored: another boot id dropped");
	is_int(feed(&s, RHELLO(RID, 0)), SESSION_DROPPED,
	       "restored: a hello not saying restored dropped");
	ok(!s.hello_seen && s.nevents == 0 && s.dropped == 5,
	   "restored: none of them taken, all counted");
	is_int(feed(&s, RHELLO(RID, 1)), 0, "restored: its answer taken");
	ok(s.hello_seen && !strcmp(s.hello.boot_id, RID), "as its hello");
	is_int(feed(&s, "{\"ev\":\"heartbeat\",\"t_us\":6}"), 0,
	       "restored: then lines as from any guest");
	is_int(feed(&s, RHELLO(RID, 1)), -EPROTO,
	       "restored: a second hello refused");
	reset(&s);
	is_int(feed(&s, RHELLO(RID, 1)), 0,
	       "a booted guest's hello may say anything of it");
#undef RHELLO
#undef RID
}

static void test_refused_run(void)
{
	struct session s;

	reset(&s);
	feed(&s, HELLO);
	session_expect(&s, &sc);
	is_int(session_expect(&s, &sc), -EBUSY, "second expect while running");
	is_int(feed(&s,
		    "{\"ev\":\"scenario_end\",\"t_us\":3,\"scenario\":\"ftrace/x\",\"verdict\":\"error\",\"duration_us\":0,\"reason\":\"bad step\"}"),
	       0, "scenario_end without begin (guestd refused the run)");
	is_str(proto_verdict_name(sc.verdict), "error", "verdict error");
	reset(&s);
	feed(&s, HELLO);
	session_expect(&s, &sc);
	feed(&s,
	     "{\"ev\":\"scenario_begin\",\"t_us\":3,\"scenario\":\"ftrace/x\",\"nsteps\":2}");
	feed(&s,
	     "{\"ev\":\"step_begin\",\"t_us\":4,\"scenario\":\"ftrace/x\",\"step\":0,\"kind\":\"read\"}");
	is_int(feed(&s,
		    "{\"ev\":\"scenario_end\",\"t_us\":8,\"scenario\":\"ftrace/x\",\"verdict\":\"timeout\",\"duration_us\":9000000}"),
	       0, "scenario_end with a step open");
	is_str(proto_verdict_name(sc.steps[0].verdict), "timeout",
	       "the open step takes the scenario's verdict");
	reset(&s);
	is_int(feed(&s,
		    "{\"ev\":\"scenario_begin\",\"t_us\":3,\"scenario\":\"ftrace/x\",\"nsteps\":2}"),
	       -EPROTO, "scenario_begin before hello");
	reset(&s);
	feed(&s, HELLO);
	is_int(feed(&s,
		    "{\"ev\":\"scenario_begin\",\"t_us\":3,\"scenario\":\"ftrace/x\",\"nsteps\":2}"),
	       -EPROTO, "scenario_begin nobody asked for");
	reset(&s);
	feed(&s, HELLO);
	session_expect(&s, &sc);
	is_int(feed(&s,
		    "{\"ev\":\"scenario_begin\",\"t_us\":3,\"scenario\":\"ftrace/x\",\"nsteps\":3}"),
	       -EPROTO, "scenario_begin with another step count");
}

#define STEP0_BEGIN                                                      \
	"{\"ev\":\"step_begin\",\"t_us\":4,\"scenario\":\"ftrace/x\","    \
	"\"step\":0,\"kind\":\"read\"}"

/* Run up to an open step 0, as a guest that hibernates inside it. */
static void open_step0(struct session *s)
{
	reset(s);
	feed(s, HELLO);
	session_expect(s, &sc);
	feed(s, "{\"ev\":\"scenario_begin\",\"t_us\":3,\"scenario\":\"ftrace/x\",\"nsteps\":2}");
	feed(s, STEP0_BEGIN);
}

/* The next boot after a hibernation: resumed, fresh, or hostile. */
static void test_carry(void)
{
	struct session s;

	open_step0(&s);
	session_carry(&s);
	is_int(s.carry, SESSION_CARRY_WAITING, "carry: waiting");
	ok(!s.hello_seen, "carry: no silence bound before a line");
	is_int(feed(&s, "{\"ev\":\"heartbeat\",\"t_us\":9000000}"), 0,
	       "carry: a heartbeat first is a resume");
	is_int(s.carry, SESSION_CARRY_RESUMED, "carry: resumed");
	ok(s.hello_seen, "carry: the old hello stands");
	is_int(feed(&s,
		    "{\"ev\":\"step_end\",\"t_us\":9000001,\"scenario\":\"ftrace/x\",\"step\":0,\"verdict\":\"pass\",\"duration_us\":5}"),
	       0, "carry: the open step ends after the resume");
	ok(sc.steps[0].verdict == VERDICT_PASS, "carry: step 0 passed");
	is_int(feed(&s, HELLO), -EPROTO, "carry: a hello after resuming is refused");

	open_step0(&s);
	session_carry(&s);
	is_int(feed(&s, HELLO), 0, "carry: hello first is a fresh boot");
	is_int(s.carry, SESSION_CARRY_FRESH, "carry: fresh");
	ok(session_idle(&s), "carry: fresh boot has no scenario running");
	is_int(feed(&s,
		    "{\"ev\":\"step_end\",\"t_us\":5,\"scenario\":\"ftrace/x\",\"step\":0,\"verdict\":\"pass\",\"duration_us\":5}"),
	       -EPROTO, "carry: the old step cannot end in a fresh boot");

	open_step0(&s);
	session_carry(&s);
	is_int(feed(&s, STEP0_BEGIN), -EPROTO,
	       "carry: a resumed guest must still follow the order");
	is_int(s.carry, SESSION_CARRY_RESUMED, "carry: decided by that line");
}

#define SB(n, c) "{\"ev\":\"scenario_begin\",\"t_us\":3,\"scenario\":\"dsa/c\",\"nsteps\":" #n ",\"ncleanup\":" #c "}"
#define BEGIN(i, k) "{\"ev\":\"step_begin\",\"t_us\":4,\"scenario\":\"dsa/c\",\"step\":" #i ",\"kind\":\"" k "\"}"
#define END(i, v) "{\"ev\":\"step_end\",\"t_us\":5,\"scenario\":\"dsa/c\",\"step\":" #i ",\"verdict\":\"" v "\",\"duration_us\":1,\"reason\":\"why " #i "\"}"
#define SEND(v) "{\"ev\":\"scenario_end\",\"t_us\":8,\"scenario\":\"dsa/c\",\"verdict\":\"" v "\",\"duration_us\":4500}"

/* Three main steps (read, write, read), then link_del and rmmod. */
static void reset_cleanup(struct session *s)
{
	static const char *const kinds[] = { "read", "write", "read",
					     "link_del", "rmmod" };

	res_scenario_free(&sc);
	memset(&sc, 0, sizeof(sc));
	strcpy(sc.name, "dsa/c");
	sc.steps = calloc(5, sizeof(*sc.steps));
	sc.nsteps = 5;
	sc.ncleanup = 2;
	for (size_t i = 0; i < 5; i++) {
		sc.steps[i].index = i;
		sc.steps[i].cleanup = i >= 3;
		strcpy(sc.steps[i].kind, kinds[i]);
	}
	session_init(s);
	feed(s, HELLO);
	session_expect(s, &sc);
}

/* Cleanup steps: numbered after the main steps, judged apart. */
static void test_cleanup(void)
{
	struct session s;

	reset_cleanup(&s);
	is_int(feed(&s, SB(5, 0)), -EPROTO, "scenario_begin must count the cleanup steps apart");
	ok(strstr(s.err, "with 5 steps and 0 cleanup steps, expected 3 and 2") != NULL,
	   "and says so");
	is_int(feed(&s, SB(3, 2)), 0, "scenario_begin with 3 steps and 2 cleanup steps");
	is_int(feed(&s, BEGIN(0, "read")), 0, "step 0");
	is_int(feed(&s, END(0, "pass")), 0, "passes");
	is_int(feed(&s, BEGIN(1, "write")), 0, "step 1");
	is_int(feed(&s, END(1, "fail")), 0, "fails: the main steps stop");
	is_int(feed(&s, BEGIN(3, "link_del")), 0,
	       "the cleanup list begins at step 3 after a failed step 1");
	is_int(feed(&s, END(3, "skip")), 0, "a guarded cleanup step is skip");
	is_int(feed(&s, BEGIN(4, "rmmod")), 0, "cleanup step 4");
	is_int(feed(&s, END(4, "fail")), 0, "fails");
	is_int(feed(&s, SEND("fail")), 0, "scenario_end");
	is_str(proto_verdict_name(sc.verdict), "fail",
	       "the verdict is the main steps'");
	ok(sc.has_cleanup && sc.cleanup_failed && sc.cleanup_step == 4,
	   "the cleanup failed, at step 4 (skip is fine)");
	is_str(sc.cleanup_reason, "step 5 (rmmod): fail: why 4",
	       "with the step and why");

	reset_cleanup(&s);
	feed(&s, SB(3, 2));
	feed(&s, BEGIN(0, "read"));
	feed(&s, END(0, "pass"));
	is_int(feed(&s, BEGIN(4, "rmmod")), -EPROTO,
	       "the cleanup list begins at its first step");
	reset_cleanup(&s);
	feed(&s, SB(3, 2));
	feed(&s, BEGIN(3, "link_del"));
	feed(&s, END(3, "pass"));
	is_int(feed(&s, BEGIN(0, "read")), -EPROTO,
	       "no main step after the cleanup began");

	reset_cleanup(&s);
	feed(&s, SB(3, 2));
	feed(&s, BEGIN(0, "read"));
	feed(&s, END(0, "pass"));
	feed(&s, BEGIN(1, "write"));
	feed(&s, END(1, "pass"));
	feed(&s, BEGIN(2, "read"));
	feed(&s, END(2, "pass"));
	feed(&s, BEGIN(3, "link_del"));
	feed(&s, END(3, "pass"));
	is_int(feed(&s, SEND("pass")), 0,
	       "a scenario_end before the last cleanup step began");
	ok(sc.cleanup_failed && sc.cleanup_step == 4,
	   "is a cleanup failure: step 4 never ran");
	is_str(sc.cleanup_reason, "step 5 (rmmod) did not run", "said so");
	is_str(proto_verdict_name(sc.verdict), "pass", "the verdict stays pass");

	reset_cleanup(&s);
	feed(&s, SB(3, 2));
	res_scenario_finish(&sc, VERDICT_SKIP, "CONFIG_X is not set");
	ok(sc.has_cleanup && !sc.cleanup_failed,
	   "a scenario that never began has no cleanup failure");
	res_scenario_free(&sc);
	memset(&sc, 0, sizeof(sc));
}

/* A guest that claims pass must have shown every step pass. */
static void test_pass_earned(void)
{
	static const char begin[] =
		"{\"ev\":\"scenario_begin\",\"t_us\":3,"
		"\"scenario\":\"ftrace/x\",\"nsteps\":2}";
	static const char pass[] =
		"{\"ev\":\"scenario_end\",\"t_us\":8,"
		"\"scenario\":\"ftrace/x\",\"verdict\":\"pass\","
		"\"duration_us\":10}";
	struct session s;

	reset(&s);
	feed(&s, HELLO);
	session_expect(&s, &sc);
	feed(&s, begin);
	is_int(feed(&s, pass), 0, "pass without steps: accepted as a line");
	is_str(proto_verdict_name(sc.verdict), "error",
	       "pass without steps: error");
	is_str(sc.reason, "the guest reported pass, but step 1 (read) never "
	       "began", "pass without steps: the reason names step 0");

	reset(&s);
	feed(&s, HELLO);
	session_expect(&s, &sc);
	feed(&s, begin);
	feed(&s, STEP0_BEGIN);
	feed(&s, "{\"ev\":\"step_end\",\"t_us\":5,\"scenario\":"
	     "\"ftrace/x\",\"step\":0,\"verdict\":\"pass\","
	     "\"duration_us\":1}");
	feed(&s, "{\"ev\":\"step_begin\",\"t_us\":6,\"scenario\":"
	     "\"ftrace/x\",\"step\":1,\"kind\":\"write\"}");
	feed(&s, "{\"ev\":\"step_end\",\"t_us\":7,\"scenario\":"
	     "\"ftrace/x\",\"step\":1,\"verdict\":\"fail\","
	     "\"duration_us\":1}");
	feed(&s, pass);
	is_str(proto_verdict_name(sc.verdict), "error",
	       "pass over a failed step: error");
	is_str(sc.reason, "the guest reported pass, but step 2 (write) ended "
	       "fail", "pass over a failed step: the reason");

	reset(&s);
	feed(&s, HELLO);
	session_expect(&s, &sc);
	feed(&s, begin);
	feed(&s, STEP0_BEGIN);
	feed(&s, pass);
	is_str(proto_verdict_name(sc.verdict), "error",
	       "pass with a step open: error");
	is_str(proto_verdict_name(sc.steps[0].verdict), "error",
	       "pass with a step open: that step is error, not pass");
}

#define SUBTEST(idx, step, verdict)                                   \
	"{\"ev\":\"subtest\",\"t_us\":5,\"scenario\":\"ftrace/x\","      \
	"\"step\":" #step ",\"index\":" #idx ",\"name\":\"t" #idx "\","   \
	"\"verdict\":\"" verdict "\",\"reason\":\"why\"}"

/* A step's subtests: for the open step only, numbered without gaps. */
static void test_subtests(void)
{
	struct session s;

	open_step0(&s);
	is_int(feed(&s, SUBTEST(0, 0, "pass")), 0, "subtest 0 of the open step");
	is_int(feed(&s, SUBTEST(1, 0, "skip")), 0, "subtest 1");
	is_int(sc.steps[0].nsubtests, 2, "both recorded");
	is_str(sc.steps[0].subtests[1].name, "t1", "with their names");
	is_int(sc.steps[0].subtests[1].verdict, VERDICT_SKIP, "verdicts");
	is_str(sc.steps[0].subtests[1].reason, "why", "and reasons");
	is_int(feed(&s, SUBTEST(3, 0, "pass")), -EPROTO, "a gap is refused");
	okf(strstr(s.err, "subtest 3 of step 0, expected subtest 2"),
	    "says so: %s", s.err);

	open_step0(&s);
	is_int(feed(&s, SUBTEST(0, 1, "pass")), -EPROTO,
	       "a subtest of a step that is not open is refused");
	open_step0(&s);
	is_int(feed(&s, SUBTEST(0, 0, "pass")), 0, "first");
	is_int(feed(&s, SUBTEST(0, 0, "pass")), -EPROTO,
	       "the same subtest twice is refused");
}

#define OUTPUT(step, stream, data)                                    \
	"{\"ev\":\"output\",\"t_us\":5,\"scenario\":\"ftrace/x\","      \
	"\"step\":" #step ",\"stream\":\"" stream "\",\"data\":\"" data   \
	"\"}"

/* An exec step's output: of the open step only, stdout or stderr, its
 * bytes (escaped control characters included) as they are. */
static void test_output(void)
{
	struct session s;

	open_step0(&s);
	is_int(feed(&s, OUTPUT(0, "stdout", "a\\u001b[2J\\n")), 0,
	       "output of the open step, an ESC in it");
	is_int(feed(&s, OUTPUT(0, "stderr", "e")), 0, "stderr too");
	is_int(feed(&s, OUTPUT(0, "stdin", "e")), -EPROTO,
	       "another stream is refused");
	okf(strstr(s.err, "stream 'stdin' is not stdout or stderr"),
	    "says so: %s", s.err);
	open_step0(&s);
	is_int(feed(&s, OUTPUT(1, "stdout", "e")), -EPROTO,
	       "output of a step that is not open is refused");
	okf(strstr(s.err, "output of step 1, but the open step is 0"),
	    "says so: %s", s.err);
	open_step0(&s);
	is_int(feed(&s, OUTPUT(0, "stdout", "a\\u0000b")), -EPROTO,
	       "a NUL byte is refused");
}

int main(void)
{
	test_good();
	test_hostile();
	test_hello();
	test_restored();
	test_refused_run();
	test_carry();
	test_pass_earned();
	test_cleanup();
	test_subtests();
	test_output();
	res_scenario_free(&sc);
	return tap_done();
}
