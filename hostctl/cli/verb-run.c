// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl run: validate and select scenarios, build (or reuse) the kernel
 * and image, skip what the kernel cannot run, boot guests and run the rest,
 * then write summary.json and print the report. With --repeat N, do that
 * N times, each round in its own directory on fresh VMs, and report what
 * flipped between the rounds (repeat.c).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "scenario/bites.h"
#include "vm/cloud.h"
#include "vm/domain.h"
#include "export/export.h"
#include "fileio.h"
#include "base/fsutil.h"
#include "results/history.h"
#include "crash/postmortem.h"
#include "results/progress.h"
#include "results/repeat.h"
#include "results/results.h"
#include "results/store.h"
#include "run/runner.h"
#include "scenario/scenario.h"
#include "run/schedule.h"
#include "run/setup.h"
#include "cli/verbs.h"
#include "vm/vm.h"
#include "results/rundir.h"

static void run_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl run [OPTIONS] all | NAME | GLOB...\n"
		"\n"
		"Boot the patched kernel through libvirt and run scenarios in it.\n"
		"\n"
		"  --connect URI     libvirt URI (default: $LIBVIRT_DEFAULT_URI, else\n"
		"                    qemu:///embed?root=CACHE/libvirt)\n"
		"  --output DIR      run directory (default: results/RUN-ID, with results/latest)\n"
		"  --format FORMAT   text, ktap or json (default: text on a TTY, else ktap)\n"
		"  --scenarios DIR   the scenario tree (default: %s/scenarios)\n"
		"  --cache DIR       the cache (default: $VLALAB_CACHE or ~/.cache/vlalab)\n"
		"  --accel ACCEL     auto, kvm or tcg (default: auto)\n"
		"  --clock CLOCK     auto, icount or wall: under TCG, icount runs the\n"
		"                    VMs with -icount shift=0,sleep=off, so guest time\n"
		"                    counts instructions (default: auto, icount when a\n"
		"                    scenario has a bench step; KVM: always wall)\n"
		"  --initrd FILE     boot this initramfs instead of building the image\n"
		"                    (tests use it to boot misbehaving guests)\n"
		"  --image cloud:PATH\n"
		"                    boot every VM from this cloud image (a qcow2, e.g.\n"
		"                    Debian's genericcloud) through a qcow2 overlay, with\n"
		"                    the kernel's modules on a disk and guestd installed\n"
		"                    by cloud-init (docs/repro.md, \"Cloud images\");\n"
		"                    scenarios with boots or a disk skip\n"
		"  --dump-max-mb N   keep a crashed or hung guest's memory dump of at\n"
		"                    most N MiB in its bundle; 0: no dump (default: %d)\n"
		"  --dump-format F   kdump-zlib, kdump-lzo, kdump-snappy or elf\n"
		"                    (default: kdump-zlib)\n"
		"  --kernel-dir DIR  patches/ and configs/ of the kernel to build\n"
		"                    (default: the repository's kernel/)\n"
		"  --flavour NAME    the kernel flavour: patched (default), vanilla, or\n"
		"                    a folder of kernel/flavours/, e.g. debug (KASAN,\n"
		"                    kmemleak, lockdep, SLUB debugging)\n"
		"  --machine M       QEMU's machine type for the VMs, q35 or pc\n"
		"                    (default: q35); a scenario's boot may name\n"
		"                    its own\n"
		"  --without-patch NAME\n"
		"                    build and boot the kernel with this patch of the\n"
		"                    series left out (file name or unique prefix,\n"
		"                    e.g. 0001; repeatable)\n"
		"  --tree DIR        build your kernel tree (a git checkout, without\n"
		"                    uncommitted changes, or any folder) with our\n"
		"                    config fragments, out of tree into the cache\n"
		"  --series          with --tree: apply our series to a copy of it\n"
		"  --kernel BZIMAGE  boot a kernel built elsewhere, with\n"
		"  --modules DIR     its modules: an INSTALL_MOD_PATH tree or\n"
		"                    lib/modules/RELEASE\n"
		"  --config FILE     its .config (default: its IKCONFIG, from\n"
		"                    kernel/configs.ko or the bzImage)\n"
		"  --events-max-mb N keep at most N MiB of each scenario's lines in\n"
		"                    events.jsonl: the first ones and the last,\n"
		"                    with the bytes cut between (default: %d)\n"
		"  --console-max-mb N keep at most N MiB of each VM's console log\n"
		"                    (4 KiB lines): its head and its last lines,\n"
		"                    with the bytes cut between (default: %d)\n"
		"  --keep            keep the disk images of scenarios with a\n"
		"                    disk in the run directory\n"
		"  --junit FILE      also write the results as JUnit XML\n"
		"  --kcidb FILE      also write them as KCIDB 5.3 JSON (hostctl export)\n"
		"  --keep-vm-on-fail[=SECONDS]\n"
		"                    keep the VM of the first scenario that does not\n"
		"                    pass alive (on the shared VM) and print the\n"
		"                    'hostctl shell' command that reaches it; go on\n"
		"                    after a line on standard input, or SECONDS\n"
		"  -j, --jobs N      run up to N VMs at once (1..%d), the longest\n"
		"                    scenario first by the stored runs' durations,\n"
		"                    with a spare VM booted ahead for the next\n"
		"                    fresh one; 'auto': as many as the host's CPUs\n"
		"                    and memory hold (default: 1)\n"
		"  --repeat N        run the selection N times (1..%d), each round\n"
		"                    on fresh VMs in RUN-DIR/round-K, with\n"
		"                    vlalab.round=K on the guest's command line;\n"
		"                    then a table of what flipped between rounds\n"
		"  --help            show this help\n"
		"\n"
		"Exit codes: 0 all pass/skip/xfail; 1 any fail/timeout/crash/xpass (the\n"
		"kernel's fault); 2 usage or set-up error; 3 the lab could not do its\n"
		"job: libvirt errors, guests that never said hello, protocol errors\n"
		"(those scenarios are error) when no scenario failed, or a result file\n"
		"that could not be written (the run stopped).\n"
		"With --repeat: 0 only when every round ran and every scenario had the\n"
		"same pass/skip/xfail verdict in each; 1 when any failed or flipped, or\n"
		"a signal cut the rounds short.\n",
		VLALAB_SRCDIR, PM_DUMP_MAX_MB_DEFAULT, BOUNDLOG_MAX_MB_DEFAULT,
		BOUNDLOG_MAX_MB_DEFAULT, SCHED_LANES_MAX, REPEAT_ROUNDS_MAX);
}

#define RUN_WITHOUT_MAX 32
/* The stored runs -j reads durations from, newest first. */
#define RUN_HISTORY_RUNS 10
/* QEMU's own memory beside a guest's (TCG's translation cache, libvirt's
 * share), for -j auto. */
#define RUNNER_VM_OVERHEAD_MIB 256

struct run_args {
	const char *connect, *output, *scenarios, *cache, *initrd;
	const char *image; /* --image cloud:PATH: PATH, made absolute */
	char image_buf[PATH_MAX];
	const char *kernel_dir; /* patches/ and configs/ */
	const char *flavour; /* NULL: patched */
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
	bool format_set;
	enum accel_choice accel;
	enum run_clock clock;
	uint64_t dump_max_mb;
	const char *dump_format;
	uint64_t events_max_mb, console_max_mb;
	bool keep;
	unsigned int repeat; /* --repeat N, or 0 */
	const struct run_hooks *hooks; /* hostctl repro's, or NULL */
	/* --keep-vm-on-fail[=SECONDS]: the first failing scenario's VM
	 * stays until a line on stdin, or for keep_vm_s seconds. */
	bool keep_vm_on_fail;
	uint64_t keep_vm_s;
	/* -j: VMs at once; 0 ("auto"): what the host holds (jobs_auto()). */
	unsigned int jobs;
};

/* The hold of --keep-vm-on-fail: once, for the first failing scenario. */
struct keep_vm {
	const struct run_args *a;
	struct progress *prog;
	bool kept;
};

static void keep_vm_hold(void *data, struct vm *vm, const char *label,
			 const char *domain, const struct res_scenario *sc)
{
	struct keep_vm *k = data;
	char buf[256];
	int r;

	if (k->kept || sc->verdict == VERDICT_PASS ||
	    sc->verdict == VERDICT_SKIP || sc->verdict == VERDICT_XFAIL)
		return;
	k->kept = true;
	progress_clear(k->prog);
	if (k->a->keep_vm_s)
		fprintf(stderr,
			"hostctl run: %s: %s; keeping %s for %" PRIu64
			" s: hostctl shell %s\n",
			sc->name, proto_verdict_name(sc->verdict), label,
			k->a->keep_vm_s, domain);
	else
		fprintf(stderr,
			"hostctl run: %s: %s; keeping %s until a line on standard input: hostctl shell %s\n",
			sc->name, proto_verdict_name(sc->verdict), label,
			domain);
	r = vm_wait_fd(vm, k->a->keep_vm_s ? -1 : STDIN_FILENO,
		       k->a->keep_vm_s * 1000);
	if (r == 0 && !k->a->keep_vm_s &&
	    read(STDIN_FILENO, buf, sizeof(buf)) < 0)
		r = -errno;
	if (r == -EPIPE)
		fprintf(stderr, "hostctl run: %s died meanwhile (%s)\n", label,
			vm_dead_reason(vm));
}

/*
 * hostctl repro without --until-step: up to the first failing step of
 * the newest stored run that ran @s whole, else all its steps (without
 * the cleanup list).
 */
static size_t repro_default_step(const struct scenario *s)
{
	char run[128];
	size_t step = 0;

	if (store_failing_step(STORE_DEFAULT_DIR, s->name, s->nsteps, &step,
			       run, sizeof(run)) < 0)
		printf("hostctl repro: no stored run ran all of %s: all %zu steps\n",
		       s->name, s->nsteps);
	else if (step)
		printf("hostctl repro: up to step %zu, where %s failed in run %s\n",
		       step, s->name, run);
	else
		printf("hostctl repro: %s passed in run %s: all %zu steps\n",
		       s->name, run, s->nsteps);
	fflush(stdout);
	return step ? step : s->nsteps;
}

/* A count, "1".."@max", decimal only: --repeat, -j. */
static int parse_count(const char *s, unsigned long max, unsigned int *ret)
{
	unsigned long n;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || *end || n < 1 || n > max)
		return -EINVAL;
	*ret = (unsigned int)n;
	return 0;
}

/* --events-max-mb, --console-max-mb: N MiB, 1..BOUNDLOG_MAX_MB_MAX. */
static int parse_max_mb(const char *what, const char *arg, uint64_t *ret)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || *arg < '0' || *arg > '9' || v < 1 ||
	    v > BOUNDLOG_MAX_MB_MAX) {
		fprintf(stderr,
			"hostctl run: --%s-max-mb '%s': give a size in MiB, 1..%d\n",
			what, arg, BOUNDLOG_MAX_MB_MAX);
		return -EINVAL;
	}
	*ret = v;
	return 0;
}

/* --tree and --kernel choose the kernel instead of our series: each goes
 * only with its own options. */
static int kernel_choice_check(const struct run_args *a)
{
	const char *bad = NULL;

	if (a->tree && a->ext_kernel)
		bad = "--tree and --kernel are two kernels; give one";
	else if (a->tree_series && !a->tree)
		bad = "--series goes with --tree";
	else if (a->tree && a->flavour)
		bad = "--flavour chooses one of our kernels, not a --tree";
	else if (a->tree && a->n_without && !a->tree_series)
		bad = "--without-patch with --tree needs --series";
	else if (!a->ext_kernel != !a->ext_modules)
		bad = "--kernel BZIMAGE and --modules DIR go together";
	else if (a->ext_config && !a->ext_kernel)
		bad = "--config goes with --kernel";
	else if (a->ext_kernel && (a->flavour || a->n_without))
		bad = "--flavour and --without-patch build our kernel, not a --kernel";
	else if ((a->tree || a->ext_kernel) && a->initrd)
		bad = "--initrd replaces the image of our kernel only";
	if (bad)
		fprintf(stderr, "hostctl run: %s\n", bad);
	return bad ? -EINVAL : 0;
}

/* --image cloud:PATH: PATH must be a qcow2 we can read. 0 or -1. */
static int parse_image(const char *spec, struct run_args *a)
{
	const char *path;
	int r;

	if (cloud_spec_path(spec, &path) < 0) {
		fprintf(stderr,
			"hostctl run: --image '%s': give cloud:PATH, PATH a qcow2 cloud image\n",
			spec);
		return -1;
	}
	r = cloud_check_qcow2(path, a->image_buf, sizeof(a->image_buf));
	if (r == -EMEDIUMTYPE)
		fprintf(stderr,
			"hostctl run: --image: '%s' is not a qcow2 image (convert it: qemu-img convert -O qcow2 IN OUT)\n",
			path);
	else if (r < 0)
		fprintf(stderr, "hostctl run: --image: '%s': %s\n", path,
			strerror(-r));
	if (r < 0)
		return -1;
	a->image = a->image_buf;
	return 0;
}

static int parse_args(int argc, char *argv[], struct run_args *a)
{
	static const struct option opts[] = {
		{ "connect", required_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "scenarios", required_argument, NULL, 's' },
		{ "cache", required_argument, NULL, 'C' },
		{ "accel", required_argument, NULL, 'a' },
		{ "clock", required_argument, NULL, 'Q' },
		{ "initrd", required_argument, NULL, 'i' },
		{ "image", required_argument, NULL, 'I' },
		{ "without-patch", required_argument, NULL, 'w' },
		{ "kernel-dir", required_argument, NULL, 'K' },
		{ "flavour", required_argument, NULL, 'L' },
		{ "machine", required_argument, NULL, 'M' },
		{ "tree", required_argument, NULL, 'T' },
		{ "series", no_argument, NULL, 'S' },
		{ "kernel", required_argument, NULL, 'Z' },
		{ "modules", required_argument, NULL, 'N' },
		{ "config", required_argument, NULL, 'G' },
		{ "dump-max-mb", required_argument, NULL, 'D' },
		{ "dump-format", required_argument, NULL, 'F' },
		{ "events-max-mb", required_argument, NULL, 'E' },
		{ "console-max-mb", required_argument, NULL, 'O' },
		{ "keep", no_argument, NULL, 'k' },
		{ "keep-vm-on-fail", optional_argument, NULL, 'V' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "junit", required_argument, NULL, 'J' },
		{ "kcidb", required_argument, NULL, 'B' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "hj:", opts, NULL)) >= 0) {
		switch (c) {
		case 'j':
			/* 0: "auto", what the host holds. */
			a->jobs = 0;
			if (strcmp(optarg, "auto") &&
			    parse_count(optarg, SCHED_LANES_MAX, &a->jobs) <
				    0) {
				fprintf(stderr,
					"hostctl run: -j '%s': give 'auto' or a number of VMs at once, 1..%d\n",
					optarg, SCHED_LANES_MAX);
				return -EINVAL;
			}
			break;
		case 'c':
			a->connect = optarg;
			break;
		case 'o':
			a->output = optarg;
			break;
		case 'V': {
			unsigned long v = 0;
			char *end = NULL;

			a->keep_vm_on_fail = true;
			if (!optarg)
				break;
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (*optarg < '1' || *optarg > '9' || *end || errno ||
			    v > 86400) {
				fprintf(stderr,
					"hostctl run: --keep-vm-on-fail=SECONDS wants 1 to 86400, not '%s'\n",
					optarg);
				return -1;
			}
			a->keep_vm_s = v;
			break;
		}
		case 'f':
			if (res_format_parse(optarg, &a->format) < 0) {
				fprintf(stderr,
					"hostctl run: unknown format '%s'; use text, ktap or json\n",
					optarg);
				return -EINVAL;
			}
			a->format_set = true;
			break;
		case 's':
			a->scenarios = optarg;
			break;
		case 'C':
			a->cache = optarg;
			break;
		case 'a':
			if (accel_parse(optarg, &a->accel) < 0) {
				fprintf(stderr,
					"hostctl run: unknown accelerator '%s'; use auto, kvm or tcg\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'Q':
			if (run_clock_parse(optarg, &a->clock) < 0) {
				fprintf(stderr,
					"hostctl run: unknown clock '%s'; use auto, icount or wall\n",
					optarg);
				return -EINVAL;
			}
			break;
		case 'i':
			a->initrd = optarg;
			break;
		case 'I':
			if (parse_image(optarg, a) < 0)
				return -EINVAL;
			break;
		case 'k':
			a->keep = true;
			break;
		case 'r':
			if (parse_count(optarg, REPEAT_ROUNDS_MAX, &a->repeat) <
			    0) {
				fprintf(stderr,
					"hostctl run: --repeat '%s': give a number of rounds, 1..%d\n",
					optarg, REPEAT_ROUNDS_MAX);
				return -EINVAL;
			}
			break;
		case 'K':
			a->kernel_dir = optarg;
			break;
		case 'L':
			a->flavour = optarg;
			break;
		case 'M':
			if (domain_machine_check(optarg) < 0) {
				fprintf(stderr,
					"hostctl run: unknown machine '%s'; use q35 or pc\n",
					optarg);
				return -EINVAL;
			}
			a->machine = optarg;
			break;
		case 'T':
			a->tree = optarg;
			break;
		case 'S':
			a->tree_series = true;
			break;
		case 'Z':
			a->ext_kernel = optarg;
			break;
		case 'N':
			a->ext_modules = optarg;
			break;
		case 'G':
			a->ext_config = optarg;
			break;
		case 'J':
			a->junit = optarg;
			break;
		case 'B':
			a->kcidb = optarg;
			break;
		case 'w':
			if (a->n_without == RUN_WITHOUT_MAX) {
				fprintf(stderr,
					"hostctl run: more than %d --without-patch\n",
					RUN_WITHOUT_MAX);
				return -EINVAL;
			}
			a->without[a->n_without++] = optarg;
			break;
		case 'E':
			if (parse_max_mb("events", optarg, &a->events_max_mb) <
			    0)
				return -EINVAL;
			break;
		case 'O':
			if (parse_max_mb("console", optarg,
					 &a->console_max_mb) < 0)
				return -EINVAL;
			break;
		case 'D': {
			char *end;

			errno = 0;
			a->dump_max_mb = strtoull(optarg, &end, 10);
			if (errno || end == optarg || *end || *optarg == '-' ||
			    a->dump_max_mb > (UINT64_C(1) << 40)) {
				fprintf(stderr,
					"hostctl run: --dump-max-mb '%s' is not a size in MiB\n",
					optarg);
				return -EINVAL;
			}
			break;
		}
		case 'F':
			if (pm_dump_format_check(optarg) < 0) {
				fprintf(stderr,
					"hostctl run: unknown dump format '%s'; use kdump-zlib, kdump-lzo, kdump-snappy or elf\n",
					optarg);
				return -EINVAL;
			}
			a->dump_format = optarg;
			break;
		case 'h':
			run_usage(stdout);
			return 1;
		default:
			run_usage(stderr);
			return -EINVAL;
		}
	}
	if (kernel_choice_check(a) < 0)
		return -EINVAL;
	if (a->image && a->initrd) {
		fprintf(stderr,
			"hostctl run: --image and --initrd both name the guest's image; give one\n");
		return -EINVAL;
	}
	if (a->flavour) {
		char err[1024];
		int r = kbuild_flavour_check(a->kernel_dir, a->flavour, err,
					     sizeof(err));

		if (r < 0) {
			fprintf(stderr, "hostctl run: --flavour: %s\n",
				r == -EINVAL ? err : strerror(-r));
			return -EINVAL;
		}
		if (a->n_without && !strcmp(a->flavour, "vanilla")) {
			fprintf(stderr,
				"hostctl run: --without-patch goes with a flavour that has the series, not 'vanilla'\n");
			return -EINVAL;
		}
	}
	if (a->repeat && (a->junit || a->kcidb)) {
		fprintf(stderr,
			"hostctl run: --junit and --kcidb take one run, not --repeat's rounds; export a round with hostctl export\n");
		return -EINVAL;
	}
	if (a->n_without) {
		char err[1024];
		int r = kbuild_without_check(a->kernel_dir, a->without,
					     a->n_without, err, sizeof(err));

		if (r < 0) {
			fprintf(stderr, "hostctl run: --without-patch: %s\n",
				err);
			return -EINVAL;
		}
	}
	return 0;
}

/* results/<run-id>, and results/latest pointing at it. */
static int make_run_dir(const char *output, const char *run_id, char *buf,
			size_t len)
{
	char tmp[64];
	int r;

	if (output) {
		if (snprintf(buf, len, "%s", output) >= (int)len)
			return -ENAMETOOLONG;
		return fs_mkdir_p(buf);
	}
	if (snprintf(buf, len, "results/%s", run_id) >= (int)len)
		return -ENAMETOOLONG;
	r = fs_mkdir_p(buf);
	if (r < 0)
		return r;
	snprintf(tmp, sizeof(tmp), STORE_DEFAULT_DIR "/" RUNDIR_LATEST_TMP,
		 getpid());
	unlink(tmp);
	if (symlink(run_id, tmp) < 0 ||
	    rename(tmp, STORE_DEFAULT_DIR "/" RUNDIR_LATEST) < 0)
		return -errno;
	return 0;
}

/* @dir/@name replaced by @text, all or nothing (fileio_write_atomic()). */
static int write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	return fileio_write_atomic(path, text, strlen(text));
}

/*
 * Whether @s can run on this run's images: 1 with the reason when not
 * (it skips), else 0.
 */
static int image_fits(const struct run_args *a, const struct scenario *s,
		      char *reason, size_t len)
{
	if (a->image && (s->nboots || s->has_disk)) {
		snprintf(
			reason, len,
			"needs the initramfs image: its disks come first, from vda, where a cloud image's root goes");
		return 1;
	}
	for (size_t j = 0;
	     (a->image || s->cloud) && j < s->nsteps + s->ncleanup; j++)
		if (s->steps[j].kselftest_dir[0]) {
			snprintf(
				reason, len,
				"needs the initramfs image: only it carries the kselftest programs (%s)",
				s->steps[j].kselftest_dir);
			return 1;
		}
	if (a->initrd && s->cloud) {
		snprintf(
			reason, len,
			"needs the cloud image, and --initrd replaces the image");
		return 1;
	}
	return 0;
}

/*
 * Results for the selected scenarios: requires that the kernel does not
 * meet make a scenario skip right away, without booting.
 */
/*
 * A user's tree: when the skip is for an option of our fragments that did
 * not make it into its config, say why, from the manifest's
 * "missing_options" ("configs/edac.config:13: CONFIG_X=y: not in this
 * tree's Kconfig").
 */
static void explain_missing(const struct setup *su, char *reason, size_t len)
{
	struct json_object *tree, *missing;

	if (!su->manifest ||
	    !json_object_object_get_ex(su->manifest, "tree", &tree) ||
	    !json_object_object_get_ex(tree, "missing_options", &missing) ||
	    !json_object_is_type(missing, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(missing); i++) {
		const char *m = json_object_get_string(
			json_object_array_get_idx(missing, i));
		const char *opt = m ? strstr(m, ": CONFIG_") : NULL;
		size_t n, used = strlen(reason);
		char name[PROTO_NAME_MAX];

		if (!opt)
			continue;
		opt += 2;
		n = strcspn(opt, "=");
		if (n >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%.*s is not set", (int)n, opt);
		if (strstr(reason, name) && used < len)
			snprintf(reason + used, len - used, " (%s)", m);
	}
}

static bool has_kselftest(const struct scenario *s)
{
	for (size_t j = 0; j < s->nsteps + s->ncleanup; j++)
		if (*s->steps[j].kselftest_dir)
			return true;
	return false;
}

static int init_results(const struct run_args *a, const struct scn_set *set,
			const size_t *idx, size_t n, const struct setup *su,
			struct res_run *run, struct scenario **scn)
{
	run->v = calloc(n ? n : 1, sizeof(*run->v));
	if (!run->v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct scenario *s = &set->v[idx[i]];
		char reason[PROTO_TEXT_MAX];
		int r;

		r = runner_result_init(s, &run->v[i]);
		if (r < 0)
			return r;
		run->n++;
		scn[i] = &set->v[idx[i]];
		r = scn_check_requires(s, su->kernel.config, su->modules_dir,
				       reason, sizeof(reason));
		if (r == 0 && !*su->kernel.tree && has_kselftest(s)) {
			snprintf(
				reason, sizeof(reason),
				"its kselftest steps need the kernel's source tree, which a kernel built elsewhere (--kernel) does not come with");
			r = 1;
		}
		if (r == 0)
			r = image_fits(a, s, reason, sizeof(reason));
		if (r == 1) {
			explain_missing(su, reason, sizeof(reason));
			res_scenario_finish(&run->v[i], VERDICT_SKIP, reason);
		} else if (r < 0) {
			char what[PROTO_TEXT_MAX + 64];

			snprintf(what, sizeof(what),
				 "checking requires failed: %s", reason);
			res_scenario_finish(&run->v[i], VERDICT_ERROR, what);
		}
	}
	return 0;
}

/*
 * The first SIGINT or SIGTERM ends the run cleanly: the running scenario
 * and the rest become errors, and summary.json is still written; with
 * --repeat, no further round starts. A second one kills hostctl (the
 * handler is reset), and libvirt's embedded QEMUs die with it.
 */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = 1;
	vm_interrupt();
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal,
				.sa_flags = SA_RESETHAND };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* What every round of a run shares: the selection, the build, the run dir. */
struct run_plan {
	struct scn_errors errs;
	struct scn_set set;
	size_t *idx, n;
	struct scenario **scn;
	struct setup su;
	bool su_ok;
	struct cloud_image cloud;
	bool cloud_ok; /* some VM boots the cloud image */
	char run_dir[PATH_MAX], run_id[64];
	char vmlinux[PATH_MAX + 16], tree[PATH_MAX + 32];
	struct progress prog;
};

/*
 * The selftest folders the selected scenarios' kselftest steps run from,
 * each once, into @ret (which points into the set): what the image must
 * carry. At most KSELFTEST_DIRS_MAX; the image builder refuses more.
 */
#define KSELFTEST_DIRS_MAX 16

int run_clock_parse(const char *s, enum run_clock *ret)
{
	static const char *const names[] = { "auto", "icount", "wall" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(s, names[i])) {
			*ret = (enum run_clock)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* --clock auto: icount when one of the scenarios measures (a bench step). */
static bool wants_icount(enum run_clock clock, const struct scn_set *set,
			 const size_t *idx, size_t n)
{
	if (clock != RUN_CLOCK_AUTO)
		return clock == RUN_CLOCK_ICOUNT;
	for (size_t i = 0; i < n; i++) {
		const struct scenario *s = &set->v[idx[i]];

		for (size_t j = 0; j < s->nsteps + s->ncleanup; j++)
			if (!strcmp(s->steps[j].kind, "bench"))
				return true;
	}
	return false;
}

static size_t kselftest_dirs(const struct scn_set *set, const size_t *idx,
			     size_t n, const char **ret)
{
	size_t nret = 0;

	for (size_t i = 0; i < n; i++) {
		const struct scenario *s = &set->v[idx[i]];

		for (size_t j = 0; j < s->nsteps + s->ncleanup; j++) {
			const char *d = s->steps[j].kselftest_dir;
			bool seen = !*d;

			for (size_t k = 0; !seen && k < nret; k++)
				seen = !strcmp(ret[k], d);
			if (!seen && nret < KSELFTEST_DIRS_MAX + 1)
				ret[nret++] = d;
		}
	}
	return nret;
}

/* Records the use of the local cloud image @path, <cache>/images/<name>/
 * disk.qcow2, as kbuild does a build's and an image's (gc --cache). */
static int cloud_use(const char *cache, const char *path)
{
	char name[PATH_MAX], *slash;

	snprintf(name, sizeof(name), "%s", path);
	slash = strrchr(name, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	slash = strrchr(name, '/');
	return kbuild_cache_use(cache, "image", slash ? slash + 1 : name);
}

/*
 * The cloud image's files, when a VM of this run boots it (--image, or a
 * selected scenario with "image": "cloud" that did not skip): the image
 * (built locally when no --image names one), the kernel's modules disk,
 * and the seed in the run directory. 0, or -1 after saying why.
 */
static int prepare_cloud(const struct run_args *a, struct run_plan *p)
{
	struct cloud_image *ci = &p->cloud;
	char host_key[PATH_MAX];
	bool need = a->image != NULL;
	size_t n;
	int r;

	for (size_t i = 0; i < p->n && !a->initrd; i++)
		need |= p->set.v[p->idx[i]].cloud;
	if (!need)
		return 0;
	if (a->image) {
		snprintf(ci->base, sizeof(ci->base), "%s", a->image);
	} else {
		fprintf(stderr,
			"hostctl run: a scenario needs the cloud image: building it or finding it in the cache\n");
		r = cloud_build_local(VLALAB_SRCDIR, p->su.cache_dir, ci->base,
				      sizeof(ci->base));
		if (r < 0) {
			fprintf(stderr,
				"hostctl run: building the cloud image (images/cloud/build.sh) failed: %s; the scenarios that need it will be errors\n",
				r == -EIO ? "see its messages above" :
					    strerror(-r));
			/* Only its scenarios suffer (runner.c). */
			return 0;
		}
		r = cloud_use(p->su.cache_dir, ci->base);
		if (r < 0) {
			fprintf(stderr,
				"hostctl run: recording the use of the cloud image '%s' in the cache: %s\n",
				ci->base, strerror(-r));
			return -1;
		}
	}
	r = cloud_modules_disk(p->su.kernel.dir, ci->modules,
			       sizeof(ci->modules));
	if (r < 0) {
		fprintf(stderr,
			"hostctl run: the modules disk '%s' (mkfs.ext4 -d): %s\n",
			ci->modules, strerror(-r));
		return -1;
	}
	/* The image's dropbear host key, whose public part hostctl pins. */
	n = strlen(p->su.image.ssh_host_key_pub);
	if (n < 5 || strcmp(p->su.image.ssh_host_key_pub + n - 4, ".pub")) {
		fprintf(stderr,
			"hostctl run: the image has no SSH host key to give the cloud image\n");
		return -1;
	}
	snprintf(host_key, sizeof(host_key), "%.*s", (int)(n - 4),
		 p->su.image.ssh_host_key_pub);
	if (snprintf(ci->seed, sizeof(ci->seed), "%s/" RUNDIR_CLOUD_SEED,
		     p->run_dir) >= (int)sizeof(ci->seed)) {
		fprintf(stderr, "hostctl run: run directory '%s': %s\n",
			p->run_dir, strerror(ENAMETOOLONG));
		return -1;
	}
	r = cloud_seed(VLALAB_SRCDIR, ci->seed, VLALAB_GUESTD_PATH,
		       p->su.ssh_client_pub, host_key);
	if (r < 0) {
		fprintf(stderr,
			"hostctl run: the cloud image's seed '%s' (images/cloud/seed.sh): %s\n",
			ci->seed,
			r == -EIO ? "see its messages above" : strerror(-r));
		return -1;
	}
	p->cloud_ok = true;
	return 0;
}

/* Load and select the scenarios, build or reuse the kernel and image, and
 * make the run directory. 0, or -1 after saying why. */
static int plan_run(const struct run_args *a, char *const *names, int nnames,
		    struct run_plan *p)
{
	const char *ks[KSELFTEST_DIRS_MAX + 1];
	char scn_dir[PATH_MAX], abs_dir[PATH_MAX], err[1024];
	size_t nks;
	time_t now;
	int r;

	snprintf(scn_dir, sizeof(scn_dir), "%s",
		 a->scenarios ? a->scenarios : VLALAB_SRCDIR "/scenarios");
	r = scn_load_dir(scn_dir, &p->set, &p->errs);
	if (r == 0)
		r = bites_resolve(&p->set, VLALAB_SRCDIR "/kernel", &p->errs);
	if (r < 0) {
		for (size_t i = 0; i < p->errs.n; i++)
			fprintf(stderr, "%s\n", p->errs.msgs[i]);
		if (!p->errs.n)
			fprintf(stderr,
				"hostctl run: loading scenarios from '%s': %s\n",
				scn_dir, strerror(-r));
		return -1;
	}
	r = scn_select(&p->set, names, nnames, &p->idx, &p->n, err,
		       sizeof(err));
	if (r < 0) {
		fprintf(stderr, "hostctl run: %s\n", err);
		return -1;
	}
	if (a->hooks && p->n != 1) {
		fprintf(stderr, "hostctl repro: name one scenario, not %zu\n",
			p->n);
		return -1;
	}
	if (a->hooks) {
		struct scenario *s = &p->set.v[p->idx[0]];
		size_t until = a->hooks->until_step;

		if (!until)
			until = repro_default_step(s);
		r = until ? scn_truncate(s, until) : 0;
		if (r == -ERANGE)
			fprintf(stderr,
				"hostctl repro: %s has %zu steps; --until-step takes 1 to %zu\n",
				s->name, s->nsteps, s->nsteps);
		else if (r < 0)
			fprintf(stderr, "hostctl repro: out of memory\n");
		if (r < 0)
			return -1;
	}
	/* The run id names this run's uses of the cache (gc --cache). */
	now = time(NULL);
	strftime(p->run_id, sizeof(p->run_id), "%Y%m%d-%H%M%S",
		 localtime(&now));
	snprintf(p->run_id + strlen(p->run_id),
		 sizeof(p->run_id) - strlen(p->run_id), "-%d", getpid());
	if (kbuild_cache_run_id(p->run_id) < 0) {
		fprintf(stderr, "hostctl run: run id '%s': %s\n", p->run_id,
			strerror(EINVAL));
		return -1;
	}
	/* A kernel built elsewhere has no tree to take selftests from: its
	 * scenarios that run them skip (init_results()). */
	nks = a->ext_kernel ? 0 : kselftest_dirs(&p->set, p->idx, p->n, ks);
	r = setup_prepare_kernel(a->cache, a->connect, a->initrd,
				 &(struct setup_kernel){
					 .kernel_dir = a->kernel_dir,
					 .flavour = a->flavour,
					 .without = a->without,
					 .n_without = a->n_without,
					 .tree = a->tree,
					 .tree_series = a->tree_series,
					 .ext_kernel = a->ext_kernel,
					 .ext_modules = a->ext_modules,
					 .ext_config = a->ext_config,
					 .kselftests = ks,
					 .n_kselftests = nks,
				 },
				 &p->su);
	if (r < 0)
		return -1;
	p->su_ok = true;

	r = make_run_dir(a->output, p->run_id, p->run_dir, sizeof(p->run_dir));
	if (r < 0) {
		fprintf(stderr, "hostctl run: run directory '%s': %s\n",
			p->run_dir, strerror(-r));
		return -1;
	}
	/* Disk images and sockets go to libvirt: give it absolute paths. */
	if (!realpath(p->run_dir, abs_dir)) {
		fprintf(stderr, "hostctl run: run directory '%s': %m\n",
			p->run_dir);
		return -1;
	}
	snprintf(p->run_dir, sizeof(p->run_dir), "%s", abs_dir);
	if (prepare_cloud(a, p) < 0)
		return -1;
	p->scn = calloc(p->n ? p->n : 1, sizeof(*p->scn));
	if (!p->scn) {
		fprintf(stderr, "hostctl run: out of memory\n");
		return -1;
	}
	snprintf(p->vmlinux, sizeof(p->vmlinux), "%s/vmlinux",
		 p->su.kernel.dir);
	snprintf(p->tree, sizeof(p->tree), "%s", p->su.kernel.tree);
	p->prog.f = a->format == RES_FORMAT_TEXT ? stdout : stderr;
	p->prog.live = isatty(fileno(p->prog.f));
	p->prog.results = a->format == RES_FORMAT_TEXT;
	if (!p->prog.live && !p->prog.results)
		p->prog.f = NULL;
	/* For a log: a plain line per scenario as it ends. */
	if (!isatty(STDOUT_FILENO))
		p->prog.plain = stderr;
	return 0;
}

static void plan_free(struct run_plan *p)
{
	free(p->scn);
	free(p->idx);
	if (p->su_ok)
		setup_free(&p->su);
	scn_set_free(&p->set);
	scn_errors_free(&p->errs);
}

/*
 * @dir/summary.json for @run, marked @complete. 0, or -EIO after saying
 * why (the lab's own failure, as a result file that cannot be written
 * during the run).
 */
static int write_summary(const char *dir, struct res_run *run,
			 enum res_complete complete)
{
	char *summary;
	int r;

	run->complete = complete;
	r = res_summary_json(run, &summary);
	if (r == 0) {
		r = write_file(dir, RUNDIR_SUMMARY, summary);
		free(summary);
	}
	if (r < 0) {
		fprintf(stderr,
			"hostctl run: writing '%s/" RUNDIR_SUMMARY "': %s\n",
			dir, strerror(-r));
		return -EIO;
	}
	return 0;
}

/*
 * The round's end, @complete or not: KTAP's trailer on its streams,
 * results.ktap (@ktap) closed and summary.json written. 0, or -EIO after
 * saying which file could not be written.
 */
static int round_end(struct run_plan *p, const char *dir, FILE *ktap,
		     struct res_run *run, enum res_complete complete)
{
	const char *name = NULL;
	int r, ret = 0;

	run->complete = complete;
	r = progress_end(&p->prog, run, &name);
	if (r < 0) {
		fprintf(stderr, "hostctl run: writing '%s': %s\n", name,
			strerror(-r));
		complete = RES_COMPLETE_NO;
		ret = -EIO;
	}
	p->prog.ktap[0] = p->prog.ktap[1] = NULL;
	if (fclose(ktap) == EOF && ret == 0) {
		fprintf(stderr,
			"hostctl run: writing '%s/" RUNDIR_KTAP "': %m\n", dir);
		complete = RES_COMPLETE_NO;
		ret = -EIO;
	}
	r = write_summary(dir, run, complete);
	return ret < 0 ? ret : r;
}

/*
 * The KTAP streams of a round: @dir/results.ktap always (into *@ret),
 * and stdout for --format ktap on a run without --repeat (whose stdout
 * is the table over the rounds). 0, or -1 after saying why.
 */
static int ktap_open(const struct run_args *a, struct run_plan *p,
		     const char *dir, char *path, size_t len, FILE **ret)
{
	FILE *f;

	if (snprintf(path, len, "%s/" RUNDIR_KTAP, dir) >= (int)len) {
		fprintf(stderr, "hostctl run: '%s/" RUNDIR_KTAP "': %s\n", dir,
			strerror(ENAMETOOLONG));
		return -1;
	}
	f = fopen(path, "we");
	if (!f) {
		fprintf(stderr, "hostctl run: '%s': %m\n", path);
		return -1;
	}
	p->prog.ktap[0] = f;
	p->prog.ktap_name[0] = path;
	if (a->format == RES_FORMAT_KTAP && !a->repeat) {
		p->prog.ktap[1] = stdout;
		p->prog.ktap_name[1] = "standard output";
	}
	*ret = f;
	return 0;
}

/* MemAvailable of /proc/meminfo in MiB; 0 when it cannot be read. */
static uint64_t mem_available_mib(void)
{
	unsigned long long kib = 0;
	char *buf, *p;

	if (fileio_read("/proc/meminfo", 1 << 16, &buf, NULL, NULL) < 0)
		return 0;
	p = strstr(buf, "\nMemAvailable:");
	if (p && sscanf(p, "\nMemAvailable: %llu kB", &kib) != 1)
		kib = 0;
	free(buf);
	return kib / 1024;
}

/*
 * -j auto: the host's CPUs, and its available memory against the largest
 * VM the selection boots (its memory and QEMU's own, RUNNER_VM_OVERHEAD_MIB).
 */
static unsigned int jobs_auto(const struct run_plan *p)
{
	uint64_t vm = DOMAIN_MEMORY_MIB_DEFAULT;

	for (size_t i = 0; i < p->n; i++)
		for (size_t k = 0; k < p->scn[i]->nboots; k++)
			if (p->scn[i]->boots[k].memory_mib > vm)
				vm = p->scn[i]->boots[k].memory_mib;
	return sched_default_lanes(sysconf(_SC_NPROCESSORS_ONLN),
				   mem_available_mib(),
				   vm + RUNNER_VM_OVERHEAD_MIB);
}

/*
 * How long each scenario of @run took in the newest stored run (under
 * results/) that ran it, of the last RUN_HISTORY_RUNS: the order -j
 * starts them in, longest first. A NULL array when none tells (or no
 * memory); a run that cannot be read is passed over.
 */
static uint64_t *expect_durations(const struct res_run *run)
{
	char **names = NULL, dir[PATH_MAX], err[256];
	size_t n = 0, left = run->n;
	uint64_t *ms;

	ms = calloc(run->n ? run->n : 1, sizeof(*ms));
	if (!ms || store_list(STORE_DEFAULT_DIR, &names, &n) < 0) {
		free(ms);
		return NULL;
	}
	for (size_t k = n; k > 0 && n - k < RUN_HISTORY_RUNS && left; k--) {
		struct res_run old = { 0 };

		snprintf(dir, sizeof(dir), "%s/%s", STORE_DEFAULT_DIR,
			 names[k - 1]);
		if (store_read_run(dir, &old, err, sizeof(err)) < 0)
			continue;
		for (size_t i = 0; i < run->n; i++) {
			const struct res_scenario *sc;

			if (ms[i])
				continue;
			sc = hist_find(&old, run->v[i].name);
			if (sc && sc->duration_ms) {
				ms[i] = sc->duration_ms;
				left--;
			}
		}
		res_run_free(&old);
	}
	store_list_free(names, n);
	return ms;
}

/*
 * One round: run the selection into @dir (events.jsonl, console logs,
 * bundles, summary.json) under the id @run_id, booting every guest with
 * @cmdline (NULL: the default). @run gets the results, with the kernel's
 * manifest. Returns 0, or -1 after saying why when the round could not
 * run; a result file that could not be written is -EIO with @run as far
 * as it got, after saying which.
 */
static int run_round(const struct run_args *a, struct run_plan *p,
		     const char *dir, const char *run_id, const char *cmdline,
		     struct res_run *run)
{
	char events_path[PATH_MAX + 16], err[PATH_MAX + 256];
	char ktap_path[PATH_MAX + 16];
	struct runner_opts ro = { 0 };
	struct keep_vm keep = { 0 };
	uint64_t *expect_ms = NULL;
	struct boundlog events;
	const char *name = NULL;
	FILE *ktap;
	int r, rc;

	snprintf(events_path, sizeof(events_path), "%s/" RUNDIR_EVENTS, dir);
	r = boundlog_open(&events, events_path, a->events_max_mb << 20,
			  BOUNDLOG_MARK_JSON);
	if (r < 0) {
		fprintf(stderr, "hostctl run: '%s': %s\n", events_path,
			strerror(-r));
		return -1;
	}
	snprintf(run->run_id, sizeof(run->run_id), "%s", run_id);
	run->kernel = json_object_get(p->su.manifest);
	if (init_results(a, &p->set, p->idx, p->n, &p->su, run, p->scn) < 0) {
		fprintf(stderr, "hostctl run: out of memory\n");
		boundlog_close(&events);
		return -1;
	}
	if (ktap_open(a, p, dir, ktap_path, sizeof(ktap_path), &ktap) < 0) {
		boundlog_close(&events);
		return -1;
	}
	/* The KTAP plan, then the scenarios the kernel cannot run. */
	r = progress_begin(&p->prog, run, &name);
	for (size_t i = 0; r == 0 && i < run->n; i++)
		if (run->v[i].done)
			r = progress_result(&p->prog, &run->v[i], &name);
	if (r < 0) {
		fprintf(stderr, "hostctl run: writing '%s': %s\n", name,
			strerror(-r));
		boundlog_close(&events);
		p->prog.ktap[0] = p->prog.ktap[1] = NULL;
		fclose(ktap);
		write_summary(dir, run, RES_COMPLETE_NO);
		return -EIO;
	}

	ro.uri = p->su.uri;
	ro.cache_dir = p->su.cache_dir;
	ro.run_dir = dir;
	ro.run_id = run_id;
	ro.kernel = p->su.kernel_path;
	ro.initrd = p->su.image.path;
	ro.cmdline = cmdline;
	ro.machine = a->machine;
	ro.accel = a->accel;
	ro.icount = wants_icount(a->clock, &p->set, p->idx, p->n);
	ro.boot_scale = setup_boot_scale(&p->su);
	ro.events = &events;
	ro.console_max_mb = a->console_max_mb;
	ro.progress = &p->prog;
	ro.vmlinux = *p->su.kernel.dir ? p->vmlinux : NULL;
	ro.tree = *p->tree ? p->tree : NULL;
	ro.dump_max_mb = a->dump_max_mb;
	ro.dump_format = a->dump_format;
	ro.keep = a->keep;
	ro.cloud = p->cloud_ok ? &p->cloud : NULL;
	ro.all_cloud = a->image != NULL;
	if (!a->initrd && p->su.image.ssh_host_key_pub[0]) {
		ro.vms_dir = p->su.vms_dir;
		ro.ssh_host_key = p->su.image.ssh_host_key_pub;
	}
	if (a->hooks) {
		ro.hold = a->hooks->hold;
		ro.hold_data = a->hooks->hold_data;
	} else if (a->keep_vm_on_fail) {
		keep.a = a;
		keep.prog = &p->prog;
		ro.hold = keep_vm_hold;
		ro.hold_data = &keep;
	}
	/* repro's hold is a shell on one VM: one lane. */
	ro.jobs = a->hooks ? 1 : a->jobs ? a->jobs : jobs_auto(p);
	/* Several lanes: the longest first, and a VM booted ahead. */
	if (ro.jobs > 1) {
		ro.expect_ms = expect_ms = expect_durations(run);
		ro.spare = true;
	}
	r = runner_run(&ro, p->scn, run, NULL, err, sizeof(err));
	free(expect_ms);
	/* What came after the last scenario, if its tail cannot go. */
	rc = boundlog_close(&events);
	if (r == 0 && rc < 0) {
		snprintf(err, sizeof(err), "writing '%s': %s", events_path,
			 strerror(-rc));
		r = RUNNER_WRITE_FAILED;
	}
	if (r < 0) {
		fprintf(stderr, "hostctl run: libvirt '%s': %s\n", p->su.uri,
			err);
		round_end(p, dir, ktap, run, RES_COMPLETE_NO);
		return -ENOTCONN;
	}
	if (r == RUNNER_WRITE_FAILED) {
		/* What the disk still takes says how far the run got. */
		fprintf(stderr, "hostctl run: %s; the run stopped\n", err);
		round_end(p, dir, ktap, run, RES_COMPLETE_NO);
		return -EIO;
	}
	/* A signal cut it short: its scenarios left are errors, not run. */
	return round_end(p, dir, ktap, run,
			 run->complete == RES_COMPLETE_NO ? RES_COMPLETE_NO :
							    RES_COMPLETE_YES);
}

/* The exit code for a run's verdicts (res_run_outcome()). */
static int run_exit(const struct res_run *run)
{
	switch (res_run_outcome(run)) {
	case RES_OUTCOME_OK:
		return EXIT_GREEN;
	case RES_OUTCOME_KERNEL:
		return EXIT_RED;
	default:
		return EXIT_LAB;
	}
}

/* --junit and --kcidb: 0 when written or not asked for, else -1. */
static int export_run(const struct run_args *a, const struct run_plan *p,
		      const struct res_run *run)
{
	char patches[PATH_MAX + 16], err[1024];

	if (!a->junit && !a->kcidb)
		return 0;
	snprintf(patches, sizeof(patches), "%s/patches", a->kernel_dir);
	if (export_write(run, p->run_dir, p->su.cache_dir, patches, a->junit,
			 a->kcidb, err, sizeof(err)) < 0) {
		fprintf(stderr, "hostctl run: %s\n", err);
		return -1;
	}
	return 0;
}

/* A run without --repeat: one round in the run directory. */
static int run_once(const struct run_args *a, struct run_plan *p)
{
	struct res_run run = { 0 };
	char *summary = NULL;
	int r, ret = EXIT_SETUP;

	catch_signals();
	r = run_round(a, p, p->run_dir, p->run_id, NULL, &run);
	if (r == -1)
		goto out;
	if (r == -ENOTCONN) {
		ret = EXIT_LAB;
		goto out;
	}
	switch (a->format) {
	case RES_FORMAT_TEXT:
		res_text_totals(&run, stdout);
		printf("results: %s\n", p->run_dir);
		break;
	case RES_FORMAT_KTAP:
		/* Streamed as the scenarios ended (ktap_open()). */
		break;
	case RES_FORMAT_JSON:
		if (res_summary_json(&run, &summary) < 0) {
			fprintf(stderr, "hostctl run: out of memory\n");
			goto out;
		}
		fputs(summary, stdout);
		break;
	}
	fflush(stdout);
	ret = r < 0 ? EXIT_LAB : run_exit(&run);
	if (export_run(a, p, &run) < 0)
		ret = EXIT_LAB;
out:
	free(summary);
	res_run_free(&run);
	return ret;
}

/*
 * Round @k of a repeated run: its own directory round-K and run id
 * RUN-ID-rK, and vlalab.round=K on the guest's kernel command line, so a
 * scenario can read its round from /proc/cmdline. Every runner_run()
 * boots its own VMs, so no guest outlives its round. 0, -1 after saying
 * why, or -EIO when a result file could not be written (run_round()).
 */
static int repeat_round(const struct run_args *a, struct run_plan *p,
			unsigned int k, struct res_run *run)
{
	char dir[PATH_MAX + 32], run_id[80], cmdline[512];
	int r;

	snprintf(dir, sizeof(dir), "%s/" RUNDIR_ROUND, p->run_dir, k);
	snprintf(run_id, sizeof(run_id), "%s-r%u", p->run_id, k);
	snprintf(cmdline, sizeof(cmdline), "%s vlalab.round=%u",
		 domain_default_cmdline, k);
	r = fs_mkdir_p(dir);
	if (r < 0) {
		fprintf(stderr, "hostctl run: round directory '%s': %s\n", dir,
			strerror(-r));
		return -1;
	}
	if (p->prog.f) {
		progress_clear(&p->prog);
		fprintf(p->prog.f, "round %u of %u: %s\n", k, a->repeat, dir);
		fflush(p->prog.f);
	}
	r = run_round(a, p, dir, run_id, cmdline, run);
	if (r < 0)
		return r;
	if (a->format == RES_FORMAT_TEXT) {
		res_text_totals(run, stdout);
		fflush(stdout);
	}
	return 0;
}

/* "hostctl run: flipped: ..." on stderr, naming every scenario that did. */
static void say_flipped(const struct repeat_table *t)
{
	size_t n = repeat_nflipped(t);
	bool first = true;

	if (!n)
		return;
	fprintf(stderr,
		"hostctl run: flipped: %zu of %zu scenario%s over %zu rounds:",
		n, t->n, t->n == 1 ? "" : "s", t->rounds);
	for (size_t i = 0; i < t->n; i++) {
		if (!repeat_flipped(t, &t->v[i]))
			continue;
		fprintf(stderr, "%s %s", first ? "" : ",", t->v[i].name);
		first = false;
	}
	fputc('\n', stderr);
}

/*
 * The run directory's summary.json for the table as it stands (marked
 * incomplete until every round is in it) into @summary, and its KTAP
 * into results.ktap. 0, or -1 after saying which could not be written.
 */
static int repeat_write(const struct run_plan *p, const struct repeat_table *t,
			const char *accelerator, char **summary)
{
	char *ktap = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	free(*summary);
	*summary = NULL;
	r = repeat_summary_json(t, p->run_id, accelerator, p->su.manifest,
				summary);
	if (r == 0)
		r = write_file(p->run_dir, RUNDIR_SUMMARY, *summary);
	if (r < 0) {
		fprintf(stderr,
			"hostctl run: writing '%s/" RUNDIR_SUMMARY "': %s\n",
			p->run_dir, strerror(-r));
		return -1;
	}
	f = open_memstream(&ktap, &len);
	if (!f) {
		fprintf(stderr, "hostctl run: out of memory\n");
		return -1;
	}
	repeat_ktap(t, f);
	r = fclose(f) == EOF ? -ENOMEM : 0;
	if (r == 0)
		r = write_file(p->run_dir, RUNDIR_KTAP, ktap);
	free(ktap);
	if (r < 0) {
		fprintf(stderr,
			"hostctl run: writing '%s/" RUNDIR_KTAP "': %s\n",
			p->run_dir, strerror(-r));
		return -1;
	}
	return 0;
}

/*
 * --repeat N: N rounds, one after another, each on fresh VMs; then the
 * table over them in summary.json ("repeat") and on stdout. A signal ends
 * the round it came in, which stays out of the table, and no other
 * starts. Exit 0 only when every round ran and every scenario passed with
 * the same verdict in each.
 */
static int run_repeat(const struct run_args *a, struct run_plan *p)
{
	struct repeat_table t = { .requested = a->repeat };
	char accelerator[16] = "";
	char *summary = NULL;
	int r, ret = EXIT_SETUP;

	catch_signals();
	/* What a killed hostctl leaves: no round yet, incomplete. */
	if (repeat_write(p, &t, accelerator, &summary) < 0) {
		ret = EXIT_LAB;
		goto out;
	}
	for (unsigned int k = 1; k <= a->repeat && !interrupted; k++) {
		struct res_run run = { 0 };

		r = repeat_round(a, p, k, &run);
		if (r < 0) {
			/* A round's result file that could not be written. */
			if (r == -EIO)
				ret = EXIT_LAB;
			res_run_free(&run);
			goto out;
		}
		if (interrupted) {
			/* Its errors say "interrupted", not how it runs. */
			fprintf(stderr,
				"hostctl run: round %u was cut short by a signal: left out of the table (its results: %s/" RUNDIR_ROUND
				")\n",
				k, p->run_dir, k);
			res_run_free(&run);
			break;
		}
		r = repeat_add_round(&t, &run);
		if (*run.accelerator)
			snprintf(accelerator, sizeof(accelerator), "%s",
				 run.accelerator);
		res_run_free(&run);
		if (r < 0) {
			fprintf(stderr, "hostctl run: round %u: %s\n", k,
				strerror(-r));
			goto out;
		}
		if (t.rounds < t.requested &&
		    repeat_write(p, &t, accelerator, &summary) < 0) {
			ret = EXIT_LAB;
			goto out;
		}
	}
	if (t.rounds < t.requested)
		fprintf(stderr,
			"hostctl run: interrupted: %zu of %zu rounds in the table\n",
			t.rounds, t.requested);
	r = repeat_write(p, &t, accelerator, &summary);
	if (!summary)
		goto out;
	switch (a->format) {
	case RES_FORMAT_TEXT:
		repeat_text(&t, stdout);
		printf("results: %s\n", p->run_dir);
		break;
	case RES_FORMAT_KTAP:
		repeat_ktap(&t, stdout);
		break;
	case RES_FORMAT_JSON:
		fputs(summary, stdout);
		break;
	}
	fflush(stdout);
	say_flipped(&t);
	ret = r < 0 ? EXIT_LAB : repeat_ok(&t) ? EXIT_GREEN : EXIT_RED;
out:
	free(summary);
	repeat_table_free(&t);
	return ret;
}

static int do_run(const struct run_args *a, char *const *names, int nnames)
{
	struct run_plan p = { 0 };
	int ret = EXIT_SETUP;

	if (plan_run(a, names, nnames, &p) == 0)
		ret = a->repeat ? run_repeat(a, &p) : run_once(a, &p);
	plan_free(&p);
	return ret;
}

int verb_run(int argc, char *argv[])
{
	return verb_run_hooked(argc, argv, NULL);
}

int verb_run_hooked(int argc, char *argv[], const struct run_hooks *h)
{
	struct run_args a = { .accel = ACCEL_AUTO,
			      .kernel_dir = VLALAB_SRCDIR "/kernel",
			      .dump_max_mb = PM_DUMP_MAX_MB_DEFAULT,
			      .events_max_mb = BOUNDLOG_MAX_MB_DEFAULT,
			      .console_max_mb = BOUNDLOG_MAX_MB_DEFAULT,
			      .jobs = 1,
			      .hooks = h };
	int r;

	r = parse_args(argc, argv, &a);
	if (r != 0)
		return r > 0 ? EXIT_GREEN : EXIT_SETUP;
	r = verb_check_nargs(&verb_run_def, argc - optind);
	if (r)
		return r;
	if (!a.format_set)
		a.format = isatty(STDOUT_FILENO) ? RES_FORMAT_TEXT :
						   RES_FORMAT_KTAP;
	return do_run(&a, argv + optind, argc - optind);
}

/* Its row in the verb table (main.c). */
const struct verb verb_run_def = {
	.name = "run",
	.min_args = 1,
	.max_args = VERB_ANY,
	.fn = verb_run,
	.usage = "[OPTIONS] all | NAME | GLOB...",
	.summary = "boot the kernel and run scenarios",
};
