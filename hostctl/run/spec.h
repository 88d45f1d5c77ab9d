/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The run library's entry: struct run_spec is the one typed description
 * of a run that hostctl run, repro, bench and compare build (the command
 * line parses straight into it), and run_spec_run() does the run: load
 * and select the scenarios, build or reuse the kernel and image (the
 * plan, plan.c), boot guests and run the rest (a round, round.c), then
 * write summary.json, print the report and the exports; with --repeat,
 * that many rounds and the table of what flipped (run.c).
 */
#ifndef VLALAB_RUN_SPEC_H
#define VLALAB_RUN_SPEC_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/progress.h"
#include "results/results.h"
#include "run/hosts.h"
#include "run/runner.h"
#include "vm/accel.h"

/* At most this many --without-patch. */
#define RUN_WITHOUT_MAX 32

/*
 * A run's exit code (docs/architecture.md): 0 all pass/skip/xfail; 1 any
 * fail/timeout/crash/xpass, the kernel's fault (with --repeat: a flip,
 * or rounds cut short); 2 a usage or set-up error; 3 the lab could not
 * do its job (libvirt, guests that never said hello, protocol errors, a
 * result file that could not be written).
 */
enum run_exit {
	RUN_EXIT_GREEN = 0,
	RUN_EXIT_RED = 1,
	RUN_EXIT_SETUP = 2,
	RUN_EXIT_LAB = 3,
};

/*
 * hostctl run --exec CMD's exit code (run/exec.c; README, "Running
 * scenarios"): the command's exit status, 0..255 (126 and 127 are the shell's: not
 * executable, not found), or EXEC_EXIT_SIGNAL + N when signal N killed
 * it; EXEC_EXIT_TIMEOUT when the command or the guest ran out of time or
 * hung (as timeout(1)), EXEC_EXIT_CRASH when the kernel crashed or the
 * judge found another incident; RUN_EXIT_SETUP and RUN_EXIT_LAB as any
 * run's for what went wrong before or around it; 128 + N when signal N
 * (SIGINT, SIGTERM) interrupted hostctl. Each but the command's own
 * status comes after one line on stderr that says which.
 */
enum exec_exit {
	EXEC_EXIT_TIMEOUT = 124,
	EXEC_EXIT_CRASH = 125,
	EXEC_EXIT_SIGNAL = 128,
};

struct vm;

/* What hostctl repro changes in a run: one scenario, its steps cut, a
 * hold on its VM after them, one lane. */
struct run_repro {
	size_t until_step; /* run steps 1..until_step only; 0: up to the
			    * first step that failed in a stored run */
	/* runner_opts' hold: the shell, with the VM alive. */
	void (*hold)(void *data, struct vm *vm, const char *label,
		     const char *domain, const struct res_scenario *sc);
	void *hold_data;
};

struct run_spec {
	/* The scenarios: names, globs or "all" (scn_select()). */
	char *const *names;
	size_t n_names;
	const char *connect; /* libvirt URI; NULL: the default */
	/*
	 * --connect URI[,jobs=N] and --hosts FILE: the hosts as given (none:
	 * @connect alone); run_spec_hosts() makes @connect and @jobs the
	 * first's.
	 */
	struct run_hosts hosts;
	const char *output; /* run directory; NULL: RESULTS/RUN-ID */
	/* --results: the results root; NULL: store_root()'s default */
	const char *results;
	const char *scenarios; /* the scenario tree; NULL: the repo's */
	const char *cache; /* NULL: the default cache */
	const char *initrd; /* boot this initramfs instead of the image */
	const char *image; /* --image cloud:PATH: PATH, made absolute */
	char image_buf[PATH_MAX];
	const char *kernel_dir; /* patches/ and configs/ */
	const char *flavour; /* NULL: patched */
	const char *line; /* the kernel line (kbuild_opts.line); NULL: 6.1 */
	const char *machine; /* NULL: DOMAIN_MACHINE_DEFAULT */
	/* --tree DIR [--series]: a user's tree (docs/kernel.md) */
	const char *tree;
	bool tree_series;
	/* --kernel BZIMAGE --modules DIR [--config FILE]: built elsewhere */
	const char *ext_kernel, *ext_modules, *ext_config;
	const char *junit, *kcidb; /* hostctl export's files, or NULL */
	const char *without[RUN_WITHOUT_MAX];
	size_t n_without;
	enum res_format format;
	enum progress_color color; /* --color (results/progress.h) */
	enum accel_choice accel;
	enum run_clock clock;
	uint64_t dump_max_mb;
	const char *dump_format;
	uint64_t events_max_mb, console_max_mb;
	bool keep;
	bool no_restore; /* --no-restore: boot every VM (runner_opts.restore) */
	unsigned int repeat; /* --repeat N, or 0 */
	/* --keep-vm-on-fail[=SECONDS]: the first failing scenario's VM
	 * stays until a line on stdin, or for keep_vm_s seconds. */
	bool keep_vm_on_fail;
	uint64_t keep_vm_s;
	/* -j: VMs at once; 0 ("auto"): what the host holds. */
	unsigned int jobs;
	const struct run_repro *repro; /* hostctl repro's, or NULL */
	/*
	 * --exec CMD: no scenario names; one synthesized scenario whose one
	 * step runs CMD in the guest (run/exec.c), its output streamed to
	 * stdout and stderr, and the exit code CMD's (enum exec_exit).
	 */
	const char *exec;
	/* --exec-timeout: the seconds CMD (and its guest) may take, 1 ..
	 * EXEC_TIMEOUT_MAX_S; 0 for EXEC_TIMEOUT_DEFAULT_S. */
	uint32_t exec_timeout_s;
};

#define EXEC_TIMEOUT_DEFAULT_S 600
#define EXEC_TIMEOUT_MAX_S (PROTO_TIMEOUT_MAX_MS / 1000)

/* @s with run's defaults: kernel/ of the repository, one lane, the
 * default bounds, text output. */
void run_spec_init(struct run_spec *s);

/*
 * --image cloud:PATH: PATH must be a qcow2 we can read; into s->image,
 * made absolute. 0, or -EINVAL with @err saying why.
 */
int run_spec_image(struct run_spec *s, const char *spec, char *err,
		   size_t errlen);

/*
 * Whether the options of @s go together (--tree and --kernel are two
 * kernels, --flavour must exist, ...). 0, or -EINVAL with @err saying
 * why; nothing is built or booted.
 */
int run_spec_check(const struct run_spec *s, char *err, size_t errlen);

/*
 * --connect and --hosts' hosts of @s into @s->connect (the one set up:
 * the embedded driver when it is one of them, else the first) and, for
 * one host, @s->jobs (its own job count over -j's); several run their
 * lanes over the hosts (runner_opts.hosts). 0, or -EINVAL with @err
 * saying why.
 */
int run_spec_hosts(struct run_spec *s, char *err, size_t errlen);

struct setup;

/*
 * The runner's options that every run on the prepared kernel and image
 * @su shares into @ro: libvirt's URI, the cache, the bzImage and the
 * initramfs, and the run's directory and id. The rest are the caller's:
 * a run's come from its spec (round.c), bench's measurements set theirs.
 */
void run_runner_opts(const struct setup *su, const char *run_dir,
		     const char *run_id, struct runner_opts *ro);

/*
 * Run @s, checked: the whole run, its messages on stderr (each once, at
 * the point that knows the file or the reason), its report on stdout in
 * s->format. The first SIGINT or SIGTERM ends it cleanly; a second kills
 * hostctl. Returns the exit code.
 */
enum run_exit run_spec_run(const struct run_spec *s);

#endif
