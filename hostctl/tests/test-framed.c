// SPDX-License-Identifier: GPL-2.0-only
/*
 * The framed mode, both ends: common/frame.c's lines, and the host's
 * reader (guest/framed.c) on console logs where kernel text interleaves,
 * a frame is cut short, damaged, forged with a bad checksum or replayed.
 * Every frame it drops must be reported, and the payloads it hands on
 * must be guestd's, in order. Then the real guestd (its path the first
 * argument) in framed mode, with two run requests from a file: its console,
 * kernel text mixed in, through the reader and the session a local run
 * uses.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fileio.h"

#include "frame.h"
#include "guest/framed.h"
#include "tap.h"

struct got {
	char payloads[2048];
	char problems[2048];
	int npayloads;
};

static int on_payload(void *userdata, uint64_t seq, const char *payload,
		      size_t len)
{
	struct got *g = userdata;
	size_t at = strlen(g->payloads);

	snprintf(g->payloads + at, sizeof(g->payloads) - at, "%llu:%.*s|",
		 (unsigned long long)seq, (int)len, payload);
	g->npayloads++;
	return 0;
}

static void on_problem(void *userdata, enum framed_problem p, const char *why)
{
	struct got *g = userdata;
	size_t at = strlen(g->problems);

	snprintf(g->problems + at, sizeof(g->problems) - at, "%s|",
		 framed_problem_name(p));
	tap_diag("problem", why);
}

/* frame_encode() of @payload as @seq, into a static buffer. */
static const char *fr(uint64_t seq, const char *payload)
{
	static char out[8][512];
	static int i;
	char *line;
	size_t len;

	i = (i + 1) % 8;
	if (frame_encode(seq, payload, strlen(payload), &line, &len) < 0)
		return "encode failed\n";
	snprintf(out[i], sizeof(out[i]), "%s", line);
	free(line);
	return out[i];
}

/* Feed @log in pieces of @chunk bytes, then finish. */
static void run(const char *log, size_t chunk, struct got *g,
		struct framed_reader *r)
{
	size_t len = strlen(log);

	memset(g, 0, sizeof(*g));
	framed_init(r);
	r->on_payload = on_payload;
	r->on_problem = on_problem;
	r->userdata = g;
	for (size_t off = 0; off < len; off += chunk)
		framed_feed(r, log + off,
			    len - off < chunk ? len - off : chunk);
	framed_finish(r);
	framed_free(r);
}

static void test_encode(void)
{
	const char *payload;
	size_t skip, plen;
	uint64_t seq;

	/* "7 {}" checksummed by zlib's crc32: python3 -c 'import zlib;
	 * print("%08x" % zlib.crc32(b"7 {}"))' */
	is_str(fr(7, "{}"), "VLALAB1 7 968af458 {}\n", "a frame's form");
	ok(frame_crc32(0, "123456789", 9) == 0xcbf43926,
	   "the CRC-32 check value");
	ok(frame_parse("VLALAB1 7 968af458 {}\r", 22, &skip, &seq, &payload,
		       &plen) == FRAME_OK &&
		   seq == 7 && plen == 2 && skip == 0,
	   "a frame with a carriage return parses");
	ok(frame_parse("VLALAB1 07 968af458 {}", 22, &skip, &seq, &payload,
		       &plen) == FRAME_BAD,
	   "a leading zero is not the same number");
	ok(frame_parse("VLALAB1 7 968AF458 {}", 21, &skip, &seq, &payload,
		       &plen) == FRAME_BAD,
	   "upper-case hex is not the form");
	ok(frame_parse("VLALAB1 7 968af458 ", 19, &skip, &seq, &payload,
		       &plen) == FRAME_BAD,
	   "an empty payload is refused");
	ok(frame_parse("[ 1.0] x", 8, &skip, &seq, &payload, &plen) ==
		   FRAME_NONE,
	   "kernel text is no frame");
	ok(frame_encode(1, "a\nb", 3, (char **)&payload, &plen) == -EINVAL,
	   "a payload with a newline is refused");
}

static void test_interleaved(void)
{
	struct framed_reader r;
	struct got g;
	char log[4096];

	snprintf(log, sizeof(log),
		 "[    0.000000] Linux version 6.1\r\n%s"
		 "[    1.100000] random: crng init done\r\n%s"
		 "[    1.2] tail without newline %s%s",
		 fr(0, "{\"a\":0}"), fr(1, "{\"a\":1}"), fr(2, "{\"a\":2}"),
		 fr(3, "{\"a\":3}"));
	for (size_t chunk = 1; chunk <= 64; chunk *= 4) {
		run(log, chunk, &g, &r);
		is_str(g.payloads,
		       "0:{\"a\":0}|1:{\"a\":1}|2:{\"a\":2}|3:{\"a\":3}|",
		       "kernel text around and before frames is skipped");
		is_str(g.problems, "", "and is no problem");
	}
}

static void test_damaged(void)
{
	struct framed_reader r;
	struct got g;
	char log[4096], f1[256];

	/* A kernel message inside frame 1 breaks it in two lines. */
	snprintf(f1, sizeof(f1), "%s", fr(1, "{\"ev\":\"step_begin\"}"));
	snprintf(log, sizeof(log), "%s%.20s[  2.0] oops\n%s%s", fr(0, "{}"), f1,
		 f1 + 20, fr(2, "{\"b\":2}"));
	run(log, 7, &g, &r);
	is_str(g.payloads, "0:{}|2:{\"b\":2}|", "the damaged frame is dropped");
	is_str(g.problems, "damaged|gap|", "and reported, with the gap");
	ok(r.problems[FRAMED_DAMAGED] == 1 && r.problems[FRAMED_GAP] == 1,
	   "counted");
}

static void test_forged(void)
{
	struct framed_reader r;
	struct got g;
	char log[4096];

	/* A test prints a frame of its own with a checksum it made up. */
	snprintf(log, sizeof(log),
		 "%sVLALAB1 1 00000000 {\"ev\":\"scenario_end\"}\n%s",
		 fr(0, "{}"), fr(1, "{\"real\":1}"));
	run(log, 4096, &g, &r);
	is_str(g.payloads, "0:{}|1:{\"real\":1}|",
	       "a forged frame with a bad checksum is not handed on");
	is_str(g.problems, "damaged|", "and is reported");

	/* One with a good checksum takes the number: guestd's repeats it. */
	snprintf(log, sizeof(log), "%s%s%s%s", fr(0, "{}"),
		 fr(1, "{\"forged\":1}"), fr(1, "{\"real\":1}"),
		 fr(2, "{\"real\":2}"));
	run(log, 4096, &g, &r);
	is_str(g.problems, "replay|", "a forgery is found by the replay");
}

static void test_replay_cut(void)
{
	struct framed_reader r;
	struct got g;
	char log[4096], f2[256];

	snprintf(log, sizeof(log), "%s%s%s%s", fr(0, "{}"), fr(1, "{}"),
		 fr(0, "{}"), fr(2, "{}"));
	run(log, 3, &g, &r);
	is_str(g.payloads, "0:{}|1:{}|2:{}|", "a replayed frame is dropped");
	is_str(g.problems, "replay|", "and reported");

	snprintf(f2, sizeof(f2), "%s", fr(2, "{\"ev\":\"bye\"}"));
	snprintf(log, sizeof(log), "%s%s%.15s", fr(0, "{}"), fr(1, "{}"), f2);
	run(log, 5, &g, &r);
	is_str(g.payloads, "0:{}|1:{}|", "a truncated last frame is dropped");
	is_str(g.problems, "cut|", "and reported");

	snprintf(log, sizeof(log), "%s%s[ 9.0] no newline at the end",
		 fr(0, "{}"), fr(1, "{}"));
	run(log, 5, &g, &r);
	is_str(g.problems, "", "kernel text cut at the end is no problem");
}

static void test_too_long(void)
{
	struct framed_reader r;
	struct got g;
	size_t n = 200 * 1024;
	char *log = malloc(n + 64);

	if (!log)
		abort();
	memcpy(log, "VLALAB1 0 00000000 ", 19);
	memset(log + 19, 'x', n - 19);
	strcpy(log + n, "\n");
	run(log, 4096, &g, &r);
	is_str(g.problems, "too long|", "an endless frame is reported");
	memset(log, 'k', n);
	run(log, 4096, &g, &r);
	is_str(g.problems, "", "an endless kernel line is not");
	free(log);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void scenario(struct res_scenario *sc, const char *name)
{
	memset(sc, 0, sizeof(*sc));
	snprintf(sc->name, sizeof(sc->name), "%s", name);
	sc->steps = calloc(1, sizeof(*sc->steps));
	sc->nsteps = 1;
	strcpy(sc->steps[0].kind, "read");
}

#define REQ(name, match)                                                   \
	"{\"req\":\"run\",\"scenario\":\"" name "\",\"timeout_ms\":10000," \
	"\"step_timeout_ms\":5000,\"steps\":[{\"kind\":\"read\","          \
	"\"path\":\"/proc/self/status\",\"match\":\"" match "\"}]}\n"

static void test_guestd(const char *guestd)
{
	char dir[] = "/tmp/test-framed-XXXXXX", con[64], req[64], kmsg[64];
	struct framed_run run = { 0 };
	struct res_scenario scs[2];
	struct framed_reader r;
	char *log = NULL;
	size_t len = 0;
	int status = -1;
	pid_t pid;

	if (!mkdtemp(dir)) {
		ok(0, "a temporary directory");
		return;
	}
	snprintf(con, sizeof(con), "%s/console", dir);
	snprintf(req, sizeof(req), "%s/requests.jsonl", dir);
	snprintf(kmsg, sizeof(kmsg), "%s/kmsg", dir);
	put(con, "[    0.000000] Linux version 6.1\n");
	put(kmsg, "");
	put(req, REQ("t/pass", "^Name:") REQ("t/fail", "^nothing like it"));
	pid = fork();
	if (pid == 0) {
		int fd = open(con, O_WRONLY | O_APPEND);

		/* The console is appended to, as the kernel would. */
		dup2(fd, 3);
		execl(guestd, guestd, "--framed", "/dev/fd/3", "--requests",
		      req, "--kmsg", kmsg, "--heartbeat-ms", "60000",
		      (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "guestd ends when its run requests ran out");
	ok(fileio_read(con, 1 << 20, &log, &len, NULL) == 0, "its console");

	scenario(&scs[0], "t/pass");
	scenario(&scs[1], "t/fail");
	session_init(&run.s);
	run.scs = scs;
	run.n = 2;
	framed_init(&r);
	r.on_payload = framed_run_payload;
	r.on_problem = on_problem;
	r.userdata = &run;
	ok(log && framed_feed(&r, log, len) == 0 && framed_finish(&r) == 0,
	   "the console reads back");
	if (run.refused)
		tap_diag("refused", run.s.err);
	ok(framed_problems(&r) == 0 && run.refused == 0 && run.s.bye_seen,
	   "every frame, from hello to bye, in order");
	ok(scs[0].done && scs[0].verdict == VERDICT_PASS, "t/pass passed");
	ok(scs[1].done && scs[1].verdict == VERDICT_FAIL, "t/fail failed");
	framed_free(&r);
	res_scenario_free(&scs[0]);
	res_scenario_free(&scs[1]);
	free(log);
	unlink(con);
	unlink(req);
	unlink(kmsg);
	rmdir(dir);
}

int main(int argc, char **argv)
{
	test_encode();
	test_interleaved();
	test_damaged();
	test_forged();
	test_replay_cut();
	test_too_long();
	if (argc > 1)
		test_guestd(argv[1]);
	else
		ok(0, "usage: test-framed GUESTD");
	return tap_done();
}
