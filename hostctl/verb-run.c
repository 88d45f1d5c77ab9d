// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl run: validate and select scenarios, build (or reuse) the kernel
 * and image, skip what the kernel cannot run, boot guests and run the rest,
 * then write summary.json and print the report.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fsutil.h"
#include "postmortem.h"
#include "results.h"
#include "runner.h"
#include "scenario.h"
#include "setup.h"
#include "verbs.h"
#include "vm.h"

static void run_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl run [OPTIONS] all | NAME | GLOB...\n"
		"\n"
		"Boot the patched kernel through libvirt and run scenarios in it.\n"
		"\n"
		"  --connect URI     libvirt URI (default: qemu:///embed?root=CACHE/libvirt)\n"
		"  --output DIR      run directory (default: results/RUN-ID, with results/latest)\n"
		"  --format FORMAT   text, ktap or json (default: text on a TTY, else ktap)\n"
		"  --scenarios DIR   the scenario tree (default: %s/scenarios)\n"
		"  --cache DIR       the cache (default: $VLALAB_CACHE or ~/.cache/vlalab)\n"
		"  --accel ACCEL     auto, kvm or tcg (default: auto)\n"
		"  --initrd FILE     boot this initramfs instead of building the image\n"
		"                    (tests use it to boot misbehaving guests)\n"
		"  --dump-max-mb N   keep a crashed or hung guest's memory dump of at\n"
		"                    most N MiB in its bundle; 0: no dump (default: %d)\n"
		"  --dump-format F   kdump-zlib, kdump-lzo, kdump-snappy or elf\n"
		"                    (default: kdump-zlib)\n"
		"  --without-patch NAME\n"
		"                    build and boot the kernel with this patch of the\n"
		"                    series left out (file name or unique prefix,\n"
		"                    e.g. 0001; repeatable)\n"
		"  --keep            keep the disk images of scenarios with a\n"
		"                    disk in the run directory\n"
		"  --help            show this help\n"
		"\n"
		"Exit codes: 0 all pass/skip/xfail, 1 any fail/timeout/crash/error/xpass,\n"
		"2 usage or set-up error.\n",
		VLALAB_SRCDIR, PM_DUMP_MAX_MB_DEFAULT);
}

#define RUN_WITHOUT_MAX 32

struct run_args {
	const char *connect, *output, *scenarios, *cache, *initrd;
	const char *without[RUN_WITHOUT_MAX];
	size_t n_without;
	enum res_format format;
	bool format_set;
	enum accel_choice accel;
	uint64_t dump_max_mb;
	const char *dump_format;
	bool keep;
};

static int parse_args(int argc, char *argv[], struct run_args *a)
{
	static const struct option opts[] = {
		{ "connect", required_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, 'f' },
		{ "scenarios", required_argument, NULL, 's' },
		{ "cache", required_argument, NULL, 'C' },
		{ "accel", required_argument, NULL, 'a' },
		{ "initrd", required_argument, NULL, 'i' },
		{ "without-patch", required_argument, NULL, 'w' },
		{ "dump-max-mb", required_argument, NULL, 'D' },
		{ "dump-format", required_argument, NULL, 'F' },
		{ "keep", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) >= 0) {
		switch (c) {
		case 'c':
			a->connect = optarg;
			break;
		case 'o':
			a->output = optarg;
			break;
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
		case 'i':
			a->initrd = optarg;
			break;
		case 'k':
			a->keep = true;
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
	if (a->n_without) {
		char err[1024];
		int r = kbuild_without_check(VLALAB_SRCDIR "/kernel", a->without,
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
	snprintf(tmp, sizeof(tmp), "results/.latest-%d", getpid());
	unlink(tmp);
	if (symlink(run_id, tmp) < 0 || rename(tmp, "results/latest") < 0)
		return -errno;
	return 0;
}

static int write_file(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "we");
	if (!f)
		return -errno;
	fputs(text, f);
	if (fclose(f) != 0)
		return -errno;
	return 0;
}

/*
 * Results for the selected scenarios: requires that the kernel does not
 * meet make a scenario skip right away, without booting.
 */
static int init_results(const struct scn_set *set, const size_t *idx, size_t n,
			const struct setup *su, struct res_run *run,
			struct scenario **scn)
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
		if (r == 1) {
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
 * and the rest become errors, and summary.json is still written. A second
 * one kills hostctl (the handler is reset), and libvirt's embedded QEMUs
 * die with it.
 */
static void on_signal(int sig)
{
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

static int do_run(const struct run_args *a, char *const *names, int nnames)
{
	char scn_dir[PATH_MAX], run_dir[PATH_MAX], run_id[64], err[1024];
	char abs_dir[PATH_MAX];
	char events_path[PATH_MAX + 16];
	char vmlinux[PATH_MAX + 16], tree[PATH_MAX + 32];
	struct scn_errors errs = { 0 };
	struct scn_set set = { 0 };
	struct res_run run = { 0 };
	struct runner_opts ro = { 0 };
	struct progress prog = { 0 };
	struct scenario **scn = NULL;
	struct setup su = { 0 };
	size_t *idx = NULL, n = 0;
	FILE *events = NULL;
	bool su_ok = false;
	char *summary;
	time_t now;
	int r, ret = EXIT_SETUP;

	snprintf(scn_dir, sizeof(scn_dir), "%s",
		 a->scenarios ? a->scenarios : VLALAB_SRCDIR "/scenarios");
	r = scn_load_dir(scn_dir, &set, &errs);
	if (r < 0) {
		for (size_t i = 0; i < errs.n; i++)
			fprintf(stderr, "%s\n", errs.msgs[i]);
		if (!errs.n)
			fprintf(stderr,
				"hostctl run: loading scenarios from '%s': %s\n",
				scn_dir, strerror(-r));
		goto out;
	}
	r = scn_select(&set, names, nnames, &idx, &n, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "hostctl run: %s\n", err);
		goto out;
	}
	r = setup_prepare_without(a->cache, a->connect, a->initrd, a->without,
				  a->n_without, &su);
	if (r < 0)
		goto out;
	su_ok = true;

	now = time(NULL);
	strftime(run_id, sizeof(run_id), "%Y%m%d-%H%M%S", localtime(&now));
	snprintf(run_id + strlen(run_id), sizeof(run_id) - strlen(run_id),
		 "-%d", getpid());
	r = make_run_dir(a->output, run_id, run_dir, sizeof(run_dir));
	if (r < 0) {
		fprintf(stderr, "hostctl run: run directory '%s': %s\n",
			run_dir, strerror(-r));
		goto out;
	}
	/* QEMU opens the console files: give libvirt absolute paths. */
	if (!realpath(run_dir, abs_dir)) {
		fprintf(stderr, "hostctl run: run directory '%s': %m\n",
			run_dir);
		goto out;
	}
	snprintf(run_dir, sizeof(run_dir), "%s", abs_dir);
	snprintf(events_path, sizeof(events_path), "%s/events.jsonl", run_dir);
	events = fopen(events_path, "we");
	if (!events) {
		fprintf(stderr, "hostctl run: '%s': %m\n", events_path);
		goto out;
	}

	snprintf(run.run_id, sizeof(run.run_id), "%s", run_id);
	run.kernel = json_object_get(su.manifest);
	scn = calloc(n ? n : 1, sizeof(*scn));
	if (!scn || init_results(&set, idx, n, &su, &run, scn) < 0) {
		fprintf(stderr, "hostctl run: out of memory\n");
		goto out;
	}

	prog.f = a->format == RES_FORMAT_TEXT ? stdout : stderr;
	prog.live = isatty(fileno(prog.f));
	prog.results = a->format == RES_FORMAT_TEXT;
	if (!prog.live && !prog.results)
		prog.f = NULL;
	for (size_t i = 0; i < run.n; i++)
		if (run.v[i].done)
			progress_result(&prog, &run.v[i]);

	ro.uri = su.uri;
	ro.cache_dir = su.cache_dir;
	ro.run_dir = run_dir;
	ro.run_id = run_id;
	ro.kernel = su.kernel_path;
	ro.initrd = su.image.path;
	ro.accel = a->accel;
	ro.events = events;
	ro.progress = &prog;
	snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", su.kernel.dir);
	snprintf(tree, sizeof(tree), "%s/trees/patched", su.cache_dir);
	ro.vmlinux = *su.kernel.dir ? vmlinux : NULL;
	ro.tree = tree;
	ro.dump_max_mb = a->dump_max_mb;
	ro.dump_format = a->dump_format;
	ro.keep = a->keep;
	catch_signals();
	r = runner_run(&ro, scn, &run, NULL, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "hostctl run: libvirt '%s': %s\n", su.uri, err);
		goto out;
	}

	if (res_summary_json(&run, &summary) < 0) {
		fprintf(stderr, "hostctl run: out of memory\n");
		goto out;
	}
	r = write_file(run_dir, "summary.json", summary);
	if (r < 0)
		fprintf(stderr, "hostctl run: writing '%s/summary.json': %s\n",
			run_dir, strerror(-r));
	switch (a->format) {
	case RES_FORMAT_TEXT:
		res_text_totals(&run, stdout);
		printf("results: %s\n", run_dir);
		break;
	case RES_FORMAT_KTAP:
		res_ktap(&run, stdout);
		break;
	case RES_FORMAT_JSON:
		fputs(summary, stdout);
		break;
	}
	fflush(stdout);
	free(summary);
	ret = r < 0 ? EXIT_SETUP : res_run_ok(&run) ? EXIT_GREEN : EXIT_RED;
out:
	if (events)
		fclose(events);
	res_run_free(&run);
	free(scn);
	free(idx);
	if (su_ok)
		setup_free(&su);
	scn_set_free(&set);
	scn_errors_free(&errs);
	return ret;
}

int verb_run(int argc, char *argv[])
{
	struct run_args a = { .accel = ACCEL_AUTO,
			      .dump_max_mb = PM_DUMP_MAX_MB_DEFAULT };
	int r;

	r = parse_args(argc, argv, &a);
	if (r != 0)
		return r > 0 ? EXIT_GREEN : EXIT_SETUP;
	r = verb_check_nargs("run", argc - optind);
	if (r)
		return r;
	if (!a.format_set)
		a.format = isatty(STDOUT_FILENO) ? RES_FORMAT_TEXT :
						   RES_FORMAT_KTAP;
	return do_run(&a, argv + optind, argc - optind);
}
