/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host side of one guest session, as a pure state machine: feed it the
 * guest's lines and it checks them against what the host asked for and
 * fills in the results of the view it runs (session_expect()): the steps,
 * and the guest's own end of them. That end is a fact, not the scenario's
 * verdict: verdict_decide() (crash/verdict.c) decides that once. It knows
 * nothing of libvirt, so the unit tests can feed it hostile lines
 * directly.
 */
#ifndef VLALAB_SESSION_H
#define VLALAB_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "guest/audit.h"
#include "proto.h"
#include "results/results.h"

/*
 * A boot after a guest powered itself off with a hibernation image: the
 * guest either resumes that image, and its guestd goes on with the same
 * session (no hello), or boots afresh and says hello.
 */
enum session_carry {
	SESSION_CARRY_NONE, /* an ordinary boot */
	SESSION_CARRY_WAITING, /* nothing from the guest yet */
	SESSION_CARRY_RESUMED, /* its first event was not hello */
	SESSION_CARRY_FRESH, /* its first event was hello */
};

struct session {
	/* Called after each accepted event, for progress; may be NULL. */
	void (*on_event)(void *userdata, const struct proto_event *ev);
	void *userdata;

	bool hello_seen;
	struct proto_hello hello;
	bool bye_seen;
	uint64_t nevents; /* accepted events */
	/* The guest's clock (t_us) at its last accepted event, and at the
	 * end of the scenario that began last (0: it has not ended). */
	uint64_t last_t_us;
	uint64_t end_t_us;
	struct res_scenario *cur; /* running scenario, or NULL */
	bool begun; /* scenario_begin seen for cur */
	int64_t open_step; /* -1 when no step is open */
	int64_t last_step; /* last step begun, -1 before */
	/* The state-leak audit (hostctl/audit.c): this scenario's snapshots
	 * and the last scenario's "after" in this guest. */
	struct audit_pair audit;
	char audit_prev[PROTO_NAME_MAX];
	struct audit_snap audit_prev_after;
	char err[PROTO_TEXT_MAX + 256]; /* why the last feed failed */
	enum session_carry carry;
	/*
	 * A guest restored from a saved image (snapshot.h): the boot id its
	 * "restored" request gave it, "" for a guest that boots. Until its
	 * answer, a hello with restored 1 and this boot id, every line is
	 * dropped (session_feed() returns SESSION_DROPPED): what the saved
	 * guest had queued for the host that saved it.
	 */
	char restore_id[PROTO_BOOT_ID_MAX];
	uint64_t dropped; /* lines dropped so */
};

/* session_feed(): the line came before a restored guest's hello. */
#define SESSION_DROPPED 1

void session_init(struct session *s);

/*
 * Keep @s as it is (the running scenario and its open step included) for
 * the next boot of the same guest, which may resume it: the first event
 * then decides. A hello makes it SESSION_CARRY_FRESH, with no scenario
 * running (the caller kept what it needs of the old one); any other event
 * makes it SESSION_CARRY_RESUMED and is checked as a continuation.
 */
void session_carry(struct session *s);

/*
 * Expect the events of @sc next (the host has just sent its "run").
 * @sc->steps must hold the scenario's steps, kinds filled in. Returns 0, or
 * -EBUSY if a scenario is still running or -EPROTO before hello.
 */
int session_expect(struct session *s, struct res_scenario *sc);

/*
 * Take one line from the guest (without its '\n'). Returns 0 when the event
 * was accepted, SESSION_DROPPED when it was ignored (restore_id); a negative errno with a one-line reason in s->err when it
 * was not: what proto_event_decode() returns for a bad line, -EPROTO for an
 * event out of order or for an unexpected scenario or step, and
 * -EPROTONOSUPPORT for a hello with another protocol version. Any error
 * means the VM must be ended.
 */
int session_feed(struct session *s, const char *line, size_t len);

/* True once the scenario given to session_expect() has its scenario_end. */
bool session_idle(const struct session *s);

#endif
