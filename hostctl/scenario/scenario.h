/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario files: scenarios/<area>/<name>.json, validated against the format
 * in docs/scenarios.md before anything boots. No logging: every problem
 * becomes one "file: $.json.path: reason" line in a struct scn_errors for
 * the caller to print.
 *
 * Loading is scenario.c's (checking: scenario-schema.c, scenario-rules.c,
 * scenario-values.c, and scenario-errors.c with scn_errors_free();
 * filling a struct scenario, scn_free() and scn_truncate():
 * scenario-fill.c),
 * selection scenario-select.c's, the requires check scenario-requires.c's
 * (docs/architecture.md, "Inside hostctl/").
 */
#ifndef VLALAB_SCENARIO_H
#define VLALAB_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

struct json_object;

/* Defaults and bounds, as docs/scenarios.md states them: the protocol's. */
#define SCN_TIMEOUT_DEFAULT_MS PROTO_TIMEOUT_DEFAULT_MS
#define SCN_STEP_TIMEOUT_DEFAULT_MS PROTO_STEP_TIMEOUT_DEFAULT_MS
#define SCN_TIMEOUT_MAX_MS PROTO_TIMEOUT_MAX_MS
#define SCN_STEPS_MAX PROTO_STEPS_MAX
#define SCN_CLEANUP_TIMEOUT_DEFAULT_MS PROTO_CLEANUP_TIMEOUT_DEFAULT_MS

struct scn_step {
	char kind[PROTO_KIND_MAX];
	char name[PROTO_NAME_MAX]; /* "" when the step has none */
	uint64_t timeout_ms; /* its own, or step_timeout_ms */
	/* A kselftest step's DIR of tools/testing/selftests, which the
	 * image must carry; "" for other kinds. */
	char kselftest_dir[64];
};

/*
 * "expect_incident": the one kernel incident the scenario must provoke
 * (docs/crashes.md, "Expected incidents"). kind is a report_kind_name()
 * word; title an ERE on the report's title (NULL: any); step the index of
 * the step it must be attributed to, or -1 for any.
 */
struct scn_incident {
	bool set;
	char kind[16];
	char *title;
	bool survives;
	int64_t step;
};

/*
 * "bites": a patch of the series the scenario tests, the step (an index
 * into the scenario's steps, every boot's in order) that must be the first
 * to fail on a kernel built without it, and what that failure says: a
 * substring of the step's recorded failure (reason), or a regex an
 * incident's title attributed to the step matches (incident); exactly one
 * of the two (docs/kernel.md, "Every test bites"). patch is as written, a
 * series name or its number prefix; hostctl resolves it against
 * kernel/patches/series (bites.h).
 */
#define SCN_BITES_MAX 16
/* A bite's "lines": at most this many kernel lines. */
#define SCN_BITE_LINES_MAX 4
/* A bite's reason: one line, at most this many bytes. */
#define SCN_BITE_REASON_MAX 240
/* "flavour": a flavour's name, NUL included. */
#define SCN_FLAVOUR_MAX 64
/* requires.unset_why: one line, at most this many bytes. */
#define SCN_UNSET_WHY_MAX 240

struct scn_bite {
	char *patch;
	size_t step;
	char *reason; /* NULL when incident is set */
	char *incident; /* NULL when reason is set */
	/* "lines": the kernel lines it bites on (kbuild's names), as
	 * written; none: every line (bites_resolve() checks the patch is in
	 * each one's series) */
	char *lines[SCN_BITE_LINES_MAX];
	size_t nlines;
};

/* Multi-boot scenarios: docs/scenarios.md, "Several boots". */
#define SCN_BOOTS_MAX 8
#define SCN_EXTRA_DISKS_MAX 4
#define SCN_KERNEL_ARGS_MAX 16
#define SCN_MEMORY_MIB_DEFAULT 512

enum scn_disk_format { SCN_DISK_RAW, SCN_DISK_QCOW2 };

struct scn_disk {
	uint64_t size_mib;
	enum scn_disk_format format;
};

/* How a boot is expected to end. */
enum scn_boot_end { SCN_END_RUNNING, SCN_END_POWEROFF, SCN_END_REBOOT };

/* Whether a boot is expected to resume the previous boot's image. */
enum scn_resumed { SCN_RESUMED_ANY, SCN_RESUMED_YES, SCN_RESUMED_NO };

struct scn_boot {
	uint64_t memory_mib; /* default SCN_MEMORY_MIB_DEFAULT */
	char machine[8]; /* "pc" or "q35"; "": the run's (runner_opts) */
	char **kernel_args; /* appended to the command line */
	size_t n_kernel_args;
	struct scn_disk extra_disks[SCN_EXTRA_DISKS_MAX];
	size_t n_extra_disks;
	enum scn_boot_end end;
	enum scn_resumed resumed;
	uint64_t timeout_ms; /* its steps' bound */
	size_t first_step, nsteps; /* its slice of scenario.steps */
	struct json_object *run_steps; /* as scenario.run_steps */
};

struct scenario {
	char name[PROTO_NAME_MAX]; /* "<area>/<name>" */
	char *path; /* the file */
	char *description;
	char seed[8]; /* "001".."005" or "none" */
	struct scn_bite *bites; /* "bites", in file order */
	size_t nbites;
	char **req_config; /* "CONFIG_X" */
	size_t n_req_config;
	char **req_unset; /* "CONFIG_X" that must be neither y nor m */
	size_t n_req_unset;
	char *req_unset_why; /* with req_unset: why, one line; else NULL */
	char **req_modules;
	size_t n_req_modules;
	char **req_params; /* "module.param" */
	size_t n_req_params;
	uint64_t timeout_ms, step_timeout_ms; /* defaults filled in */
	/*
	 * The main steps, then the cleanup list's: steps[nsteps ..
	 * nsteps + ncleanup - 1] are cleanup steps, numbered so in events.
	 */
	struct scn_step *steps;
	size_t nsteps;
	size_t ncleanup;
	uint64_t cleanup_timeout_ms; /* default filled in */
	struct scn_incident expect; /* expect_incident, if set */
	/*
	 * fresh_vm: run on a VM no other scenario ran on before (a
	 * measurement that the state an earlier scenario leaves, such as the
	 * per-CPU page lists, would move).
	 */
	bool fresh_vm;
	/*
	 * nic: run on a VM with a virtio-net NIC, eth0 in the guest, whose
	 * backend reaches nothing (hostctl/domain.c); the others have none.
	 */
	bool nic;
	/*
	 * image "cloud": run on the cloud image (a Debian userland with
	 * systemd, bash, trace-cmd; docs/repro.md, "Cloud images"), on a VM
	 * of that image; else on the run's image, the initramfs by default.
	 */
	bool cloud;
	/*
	 * flavour: the kernel flavour it needs (a folder of kernel/flavours/,
	 * scn_flavours_check()), on which hostctl run runs it; "" for the
	 * run's kernel.
	 */
	char flavour[SCN_FLAVOUR_MAX];
	char *xfail; /* the xfail reason, or NULL */
	/*
	 * The lists of the run request (boots_run_encode()), json-c arrays
	 * held from load to send: the steps, every step's timeout_ms filled
	 * in; state_files, or NULL; the cleanup list, or NULL when there is
	 * none.
	 */
	struct json_object *run_steps;
	struct json_object *run_state_files;
	struct json_object *run_cleanup;
	/*
	 * A scenario with its own VMs (it has `boots` or a `disk`): each
	 * boot in order, its steps a slice of steps[] above (which then holds
	 * every boot's steps, and run_steps is NULL). A scenario with a disk
	 * and no `boots` is one boot holding its steps. nboots is 0 for the
	 * scenarios that share a VM.
	 */
	struct scn_boot *boots;
	size_t nboots;
	bool has_disk;
	struct scn_disk disk; /* attached to every boot */
};

/* A set of scenarios, sorted by name. */
struct scn_set {
	struct scenario *v;
	size_t n;
};

/* Validation errors, each "file: $.json.path: reason" on one line. */
struct scn_errors {
	char **msgs;
	size_t n;
	/* Warnings, same form: valid, but fragile (a bare fail_nth "nth"). */
	char **warns;
	size_t nwarns;
};

/*
 * Load and validate every scenarios/<area>/<name>.json below @dir (exactly
 * two levels; anything else there is an error). Collects all errors in @errs
 * (may be NULL). Returns 0 if there were none, -EINVAL if there were any (the
 * set is then not usable and *ret is untouched), or -errno for an I/O error.
 */
int scn_load_dir(const char *dir, struct scn_set *ret, struct scn_errors *errs);

/*
 * Load and validate one file; @name is its "<area>/<name>". Returns 0 and
 * fills *ret (free with scn_free), -EINVAL on validation errors (added to
 * @errs), or -errno for an I/O error.
 */
int scn_load_file(const char *path, const char *name, struct scenario *ret,
		  struct scn_errors *errs);
/*
 * The same on the file's text, @len bytes at @buf (the fuzzer's way in);
 * @path only names the file in messages.
 */
int scn_load_buf(const char *path, const char *name, const char *buf,
		 size_t len, struct scenario *ret, struct scn_errors *errs);
void scn_free(struct scenario *s);
/*
 * Keep only the first @n main steps of @s, and no cleanup list (hostctl
 * repro --until-step: the state stays for the shell). A scenario with
 * boots keeps the boots up to the one that holds step @n, which then ends
 * with its guest running. -ERANGE for an @n out of 1..nsteps.
 */
int scn_truncate(struct scenario *s, size_t n);

/*
 * Select by "all", exact names or fnmatch(3) globs over "<area>/<name>". The result
 * is in set order, without duplicates: *ret_idx is a malloc'd array of
 * *ret_n indices into @set. An argument that matches nothing gives -ENOENT
 * with "unknown scenario 'x'; did you mean: a, b?" in @err; no argument at
 * all gives -EINVAL.
 */
int scn_select(const struct scn_set *set, char *const *args, size_t nargs,
	       size_t **ret_idx, size_t *ret_n, char *err, size_t errlen);

/*
 * Check a scenario's requires against a built kernel: @config_path is the
 * build's .config, @modules_dir the staged lib/modules/<release> directory
 * (modules.dep or the .ko files, and modules.builtin). Returns 0 when the
 * scenario can run, 1 when it must be skipped, with the reason in @reason
 * ("CONFIG_FOO is not set", "module 'bar' not built", "module 'bar' has no
 * parameter 'baz'"), or -errno for an I/O
 * error (@reason then says which file).
 */
int scn_check_requires(const struct scenario *s, const char *config_path,
		       const char *modules_dir, char *reason, size_t len);

/*
 * Check every "flavour" of @set against @kernel_dir's flavours
 * (kbuild_flavour_check()): an unknown one is an error "file: $.flavour:
 * reason" in @errs. Returns 0, -EINVAL when there were errors, or -errno
 * (with one error saying why) when @kernel_dir cannot be read.
 */
int scn_flavours_check(const struct scn_set *set, const char *kernel_dir,
		       struct scn_errors *errs);

void scn_set_free(struct scn_set *set);
void scn_errors_free(struct scn_errors *errs);

#endif
