/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The results of a run, and their pure formatters: summary.json, KTAP and
 * the text report. Nothing here does I/O other than to the FILE it is given,
 * so the golden tests can drive every output from a summary.json.
 *
 * One header, three files: the records and their verdicts (results.c),
 * summary.json both ways (results-json.c), the text report and KTAP
 * (results-text.c).
 */
#ifndef VLALAB_RESULTS_H
#define VLALAB_RESULTS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "proto.h"

/* A scenario's host (res_scenario.host) is shorter than this. */
#define RES_HOST_MAX 512

/* One test of the program a step ran (a kselftest step's subtests). */
struct res_subtest {
	char name[PROTO_SUBTEST_NAME_MAX];
	enum proto_verdict verdict; /* pass, fail, skip, xfail */
	char *reason; /* NULL when empty */
};

struct res_step {
	uint32_t index;
	char kind[PROTO_KIND_MAX];
	char name[PROTO_NAME_MAX];
	bool ran; /* step_begin seen */
	enum proto_verdict verdict;
	uint64_t duration_us;
	char *expected, *got, *reason; /* NULL when empty */
	uint32_t boot; /* the boot it belongs to, when the scenario has boots */
	bool cleanup; /* a step of the cleanup list */
	struct res_subtest *subtests; /* in the order they ended, or NULL */
	size_t nsubtests;
	struct proto_bench bench; /* a bench step's figures, or runs 0 */
	struct proto_stack stack; /* a stack_tracer stop's, or max_bytes 0 */
};

/* One boot of a multi-boot scenario (boots.c), for summary.json. */
struct res_boot {
	uint32_t index;
	char vm[32]; /* "vm3", or "" if it never started */
	uint64_t memory_mib;
	char machine[8];
	char expected_end[16]; /* "running", "poweroff", "reboot" */
	char ended[16]; /* how it did end, or "" */
	int resumed; /* 1, 0, or -1: not a boot after a power-off */
};

/*
 * A kernel incident joined to the step it happened in (hostctl/incident.c),
 * or a hang the host detected (kind "hang").
 */
struct res_incident {
	char kind[16]; /* report_kind_name() word, or "hang" */
	char title[256];
	char guilty[128];
	bool corrupted, fatal;
	double ts; /* kernel timestamp in seconds, or -1 */
	int64_t step; /* the step it is attributed to, or -1 */
	bool after_step; /* it came after that step had ended */
	char summary[512]; /* "area/x step 3 (name) -> TITLE" */
	char *bundle; /* post-mortem directory in the run dir, or NULL */
};

struct res_scenario {
	char name[PROTO_NAME_MAX];
	/* It declares expect_incident: the audit leaves the kernel's taint
	 * and log lines to the verdict. */
	bool incident_expected;
	bool done; /* verdict is final */
	enum proto_verdict verdict;
	uint64_t duration_ms;
	/*
	 * How long its lane took for it on the host's clock, its fresh VM
	 * included: what hostctl run -j's scheduler expects of it next time
	 * (duration_ms is the guest's clock, which under icount races while
	 * the guest waits). 0: not measured.
	 */
	uint64_t wall_ms;
	char *reason; /* NULL when empty */
	/* The main steps, then ncleanup steps of the cleanup list. */
	struct res_step *steps;
	size_t nsteps;
	size_t ncleanup;
	/*
	 * The cleanup list's outcome, apart from the verdict (which is the
	 * main steps'): has_cleanup for a scenario with a cleanup list;
	 * cleanup_failed when one of its steps did not pass (skip is fine),
	 * or did not run although the scenario began. cleanup_step is that
	 * step's index (-1 when none), cleanup_reason says what it did.
	 */
	bool has_cleanup;
	bool cleanup_failed;
	int64_t cleanup_step;
	char *cleanup_reason;
	struct res_incident *incidents;
	size_t nincidents;
	/* The state-leak audit's notes (hostctl/audit.c), one line each. */
	char **leaks;
	size_t nleaks;
	struct res_boot *boots; /* NULL unless the scenario has boots */
	size_t nboots;
	/*
	 * The shared VM it ran on ("vm3"; "" when it ran on none, or on VMs
	 * of its own), and why that VM was a fresh one rather than the
	 * previous scenario's (NULL: it was reused).
	 */
	char vm[32];
	char *fresh_vm;
	/* The kernel flavour it ran on when not the run's ("kernel"): its
	 * scenario file's "flavour"; "" otherwise. */
	char flavour[64];
	/*
	 * The libvirt host it ran on: its URI, "embedded" for the embedded
	 * driver (run/hosts.h); "" when it ran on none (older runs too).
	 */
	char host[RES_HOST_MAX];
	/*
	 * Guest output cut to its bound (boundlog.h): bytes of this
	 * scenario's events.jsonl lines left out, and kmsg records the
	 * guest's sequence numbers skipped (guestd or the kernel dropped
	 * them), and bytes of the VM's console log cut while this
	 * scenario ran (a VM's scenarios add up to its log's mark). 0 when
	 * nothing was lost.
	 */
	uint64_t events_cut_bytes;
	uint64_t kmsg_dropped;
	uint64_t console_cut_bytes;
};

/*
 * Whether hostctl finished a run: its summary.json says false while the
 * run goes on, so one left by a killed hostctl says so; one older than
 * the field says nothing (unknown, as a zeroed struct res_run).
 */
enum res_complete {
	RES_COMPLETE_UNKNOWN,
	RES_COMPLETE_NO,
	RES_COMPLETE_YES,
};

/* What figures under icount are, wherever a run's clock is shown. */
#define RES_ICOUNT_NOTE "TCG, icount: instruction-time, not hardware speed"

struct res_run {
	char run_id[64];
	enum res_complete complete;
	char accelerator[16]; /* "kvm", "tcg", or "" if nothing booted */
	/* "icount" (TCG, instruction-time), "wall", or "" if nothing booted */
	char clock[16];
	/* The run's wall time, ms, once it ended; 0: unknown (older runs). */
	uint64_t duration_ms;
	struct json_object *kernel; /* the build manifest; owned, may be NULL */
	/*
	 * A hostctl repro's run: its one scenario cut after step
	 * repro_until_step (from 1) of its repro_steps main steps, then held
	 * for a shell. Not a run of the scenario: runs marks it, flakes,
	 * diff and the HTML history leave it out, and latest never names
	 * it. 0 for any other run.
	 */
	uint32_t repro_until_step, repro_steps;
	char exec[4096]; /* hostctl run --exec's command, or "" */
	struct res_scenario *v;
	size_t n;
};

/* ---- results.c: the records ---- */

/* Replace a string field (NULL or "" clears it). 0 or -ENOMEM. */
int res_set_str(char **field, const char *value);

/*
 * Set a scenario's final verdict and reason, and judge its cleanup list
 * from its steps; 0 or -ENOMEM.
 */
int res_scenario_finish(struct res_scenario *sc, enum proto_verdict v,
			const char *reason);

/* Append a subtest to @st (its strings copied); 0 or -ENOMEM. */
int res_subtest_add(struct res_step *st, const char *name,
		    enum proto_verdict verdict, const char *reason);

void res_scenario_free(struct res_scenario *sc);
/* Free the state-leak audit's notes. */
void res_leaks_free(struct res_scenario *sc);
/* Append a copy of @inc (its bundle string duplicated); 0 or -ENOMEM. */
int res_incident_add(struct res_scenario *sc, const struct res_incident *inc);
void res_run_free(struct res_run *run);

/* A string member of the run's build manifest, or "" when it has none. */
const char *res_kernel_str(const struct res_run *run, const char *key);
/* A string member of an object member of the manifest ("tree", "id"),
 * or "" when it has none. */
const char *res_kernel_str2(const struct res_run *run, const char *obj,
			    const char *key);
/* The longest res_kernel_describe() line: two paths and some words. */
#define RES_KERNEL_DESC_MAX (2 * PATH_MAX + 256)
/* Which kernel ran, one line into @buf: a user's tree ("tree PATH at
 * git:COMMIT, with our series"), a kernel built elsewhere ("external
 * bzImage PATH, sha256 HEX"), or ours ("linux-source VERSION with
 * vlalab's series, FLAVOUR flavour"), each with its release. */
void res_kernel_describe(const struct res_run *run, char *buf, size_t len);

/* True when the run is not known incomplete and every scenario is pass,
 * skip or xfail. */
bool res_run_ok(const struct res_run *run);

/*
 * Whose fault a run that is not ok is, for its exit code: the kernel's
 * when any scenario failed, timed out, crashed or passed against its
 * xfail mark (a finding is never hidden behind a lab problem); else the
 * lab's when any is error or has no verdict (it could not boot, talk to
 * or hear from a guest: KCIDB's ERROR and MISS), or when the run is
 * known incomplete (a signal or a full disk stopped it).
 */
enum res_outcome { RES_OUTCOME_OK, RES_OUTCOME_KERNEL, RES_OUTCOME_LAB };
enum res_outcome res_run_outcome(const struct res_run *run);

/* ---- results-json.c: summary.json ---- */

/* summary.json as a json-c object (new reference) or NULL on ENOMEM. */
struct json_object *res_summary_object(const struct res_run *run);
/* The same, as a pretty-printed string ending in '\n'. 0 or -ENOMEM. */
int res_summary_json(const struct res_run *run, char **ret);
/*
 * The one writer of a run's summary.json: @run marked @complete, written
 * all or nothing to @dir/summary.json (results/rundir.h). The runner's
 * checkpoints (incomplete) and a round's end call it. 0 or -errno.
 */
int res_summary_write(const char *dir, struct res_run *run,
		      enum res_complete complete);

/*
 * Parse a summary.json back into a run, checking every field's type.
 * Returns 0, or -EINVAL with the reason in @err.
 */
int res_run_from_json(const char *text, struct res_run *ret, char *err,
		      size_t errlen);

/* ---- results-text.c: the text report and KTAP ---- */

enum res_format { RES_FORMAT_TEXT, RES_FORMAT_KTAP, RES_FORMAT_JSON };

/* "text", "ktap", "json" -> *ret; -EINVAL otherwise. */
int res_format_parse(const char *s, enum res_format *ret);

/*
 * KTAP version 1, one test per scenario with its steps as subtests, in
 * three parts so that a run can stream it: the header and plan
 * (res_ktap_begin()), each scenario as test @num once it ended
 * (res_ktap_scenario()), and the trailing diagnostics, accelerator and
 * completeness (res_ktap_end()). A stream cut short lacks tests its plan
 * promised, which is how KTAP readers tell. res_ktap() is all three,
 * the scenarios numbered in the run's order.
 */
void res_ktap_begin(const struct res_run *run, FILE *f);
void res_ktap_scenario(const struct res_scenario *sc, size_t num, FILE *f);
void res_ktap_end(const struct res_run *run, FILE *f);
void res_ktap(const struct res_run *run, FILE *f);

/* The text report's line(s) for one finished scenario. */
void res_text_scenario(const struct res_scenario *sc, FILE *f);
/*
 * Why @sc did not pass, as res_text_scenario() says it: each main step
 * that ran and did not pass, its expected, got and reason, then the
 * scenario's reason. Nothing for a verdict that needs no why.
 */
void res_text_failure(const struct res_scenario *sc, FILE *f);
/* "4 pass, 1 skip": @run's scenarios counted by verdict. false for none. */
bool res_text_run_counts(const struct res_run *run, FILE *f);
/* The text report's closing lines: accelerator and totals. */
void res_text_totals(const struct res_run *run, FILE *f);
/* The whole text report: every scenario, then the totals. */
void res_text(const struct res_run *run, FILE *f);

#endif
