/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The host side of the state-leak audit. guestd snapshots the kernel's
 * taint, its count of WARNING and BUG lines, and the scenario's declared
 * state files before the scenario's first step and just before its
 * scenario_end ("audit" and "audit_file" events, common/proto.h). This
 * collects them per scenario and compares: whatever changed is a leak
 * note naming the scenario. Pure: no I/O, no logging.
 */
#ifndef VLALAB_AUDIT_H
#define VLALAB_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

struct audit_file_snap {
	char path[PROTO_PATH_MAX];
	char err[32];
	uint64_t size;
	char hash[17];
	char head[PROTO_AUDIT_HEAD_MAX];
};

struct audit_snap {
	bool have; /* the "audit" event came */
	uint64_t tainted, warns, bugs;
	uint32_t nfiles; /* audit_file events announced */
	size_t got; /* ... and received */
	struct audit_file_snap files[PROTO_AUDIT_FILES_MAX];
};

/* One scenario's two snapshots. */
struct audit_pair {
	struct audit_snap before, after;
};

/*
 * Take an "audit" or "audit_file" event for the running scenario into
 * @pair. @step_open and @steps_begun say where the scenario is: "before"
 * must come before its first step, "after" with no step open. Returns 0,
 * or -EPROTO with a one-line reason in @err.
 */
int audit_take(struct audit_pair *pair, const struct proto_event *ev,
	       bool step_open, bool steps_begun, char *err, size_t errlen);

/* "DW" for taint bits 7 and 9: the kernel's letters, '?' for unknown bits. */
void audit_taint_letters(uint64_t tainted, char *buf, size_t size);

/* Leak notes, one line each. */
struct audit_notes {
	char **v;
	size_t n;
};

void audit_notes_free(struct audit_notes *notes);

/*
 * Compare @pair's snapshots of @scenario and append a note for each leak:
 * new taint flags, new WARNING or BUG lines, a state file whose content,
 * size or readability changed. A pair without both snapshots gives no
 * note. A scenario that declared an incident (@incident_expected) gets no
 * note for taint and log lines: they are that incident, judged by
 * incident.c, and the runner replaces the VM after it. Returns 0 or
 * -ENOMEM.
 */
int audit_compare(const char *scenario, const struct audit_pair *pair,
		  bool incident_expected, struct audit_notes *notes);

/*
 * Compare what @prev left (@prev_after, its "after" snapshot) with the next
 * scenario's @before in the same guest: taint and log lines that appeared
 * between the two scenarios are notes naming @prev. 0 or -ENOMEM.
 */
int audit_between(const char *prev, const struct audit_snap *prev_after,
		  const struct audit_snap *before, struct audit_notes *notes);

#endif
