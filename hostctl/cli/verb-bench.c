// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl bench: boot N guests, each running a scenario of trivial read
 * steps, each paired with a boot of raw QEMU (vm/rawqemu.h) in turns, and
 * report median/min/max of create -> hello beside raw QEMU's exec ->
 * hello and their ratio, per-step overhead
 * and teardown, and the time from a failed scenario's end to the next
 * one's start on a fresh VM, booted then or the spare's; then time N
 * whole `hostctl run all` runs at -j 1 and at -j N (--jobs, default 2),
 * each pair one after the other.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "guest/guest.h"
#include "results/results.h"
#include "run/runner.h"
#include "scenario/scenario.h"
#include "run/setup.h"
#include "run/spec.h"
#include "cli/options.h"
#include "cli/verbs.h"
#include "vm/rawqemu.h"
#include "vm/vm.h"

#define BENCH_RUNS_MAX 16
#define BENCH_SCENARIO VLALAB_SRCDIR "/hostctl/bench/trivial-read.json"
#define BENCH_FAILS VLALAB_SRCDIR "/hostctl/bench/fails.json"
/* Raw QEMU's bound on exec -> hello, times the kernel's boot scale. */
#define BENCH_RAW_HELLO_MS 60000

static void bench_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl bench [OPTIONS]\n"
		"\n"
		"Measure, over several runs (median, min, max): virDomainCreateXML\n"
		"to hello, beside raw QEMU's exec to hello (the same emulator,\n"
		"kernel, initramfs and machine started by hand, each boot paired\n"
		"with a libvirt one), the per-step overhead of a trivial read step,\n"
		"teardown, and the wall time of 'hostctl run all' at -j 1 and -j N.\n"
		"\n"
		"  --runs N          runs of each measurement, 1..%d (default: 5)\n"
		"  --no-run-all      skip the 'hostctl run all' measurements\n"
		"  --jobs N          time 'hostctl run all' at -j 1 and at -j N, one\n"
		"                    after the other, each run (default: 2)\n"
		"  --connect URI     libvirt URI (default: the embedded driver)\n",
		BENCH_RUNS_MAX);
	cli_opt_usage(f, CLI_OPT_CACHE);
	cli_opt_usage(f, CLI_OPT_ACCEL);
	fputs("  --machine M       QEMU's machine type, q35 or pc (default: q35)\n"
	      "  --kernel-dir DIR  patches/ and configs/ of the kernel to boot\n"
	      "                    (default: the repository's kernel/)\n"
	      "  --flavour NAME    the kernel flavour, as in run (default: patched)\n",
	      f);
	cli_opt_usage(f, CLI_OPT_LINE);
	cli_opt_usage(f, CLI_OPT_HELP);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of @n values, sorting them; 0 for none. */
static uint64_t median(uint64_t *us, unsigned int n)
{
	if (!n)
		return 0;
	qsort(us, n, sizeof(*us), cmp_u64);
	return n % 2 ? us[n / 2] : (us[n / 2 - 1] + us[n / 2]) / 2;
}

#define ROW_FMT "%-34s %10s %10s %10s %10s %7s   %s\n"

/*
 * One line: name, median, min, max in ms, then raw QEMU's median boot
 * (@raw_us, 0: none, "-") with the ratio of the two medians, and the
 * target.
 */
static void report(const char *what, uint64_t *us, unsigned int n,
		   uint64_t raw_us, const char *target)
{
	char med[16] = "-", lo[16] = "-", hi[16] = "-", raw[16] = "-";
	char ratio[16] = "-";
	uint64_t m = median(us, n);

	if (n) {
		snprintf(med, sizeof(med), "%.1f", m / 1000.0);
		snprintf(lo, sizeof(lo), "%.1f", us[0] / 1000.0);
		snprintf(hi, sizeof(hi), "%.1f", us[n - 1] / 1000.0);
	}
	if (raw_us) {
		snprintf(raw, sizeof(raw), "%.1f", raw_us / 1000.0);
		if (n)
			snprintf(ratio, sizeof(ratio), "%.2fx",
				 (double)m / raw_us);
	}
	printf(ROW_FMT, what, med, lo, hi, raw, ratio, target);
}

/*
 * Boot raw QEMU (rawqemu.h) on the kernel and image @su's VMs boot, with
 * their firmware, machine and accelerator, and time exec -> hello into
 * @ret_us. 0, or -errno after saying why.
 */
static int time_raw(const struct setup *su, const char *machine,
		    const char *accel, unsigned int i, uint64_t *ret_us)
{
	struct rawqemu_config c = {
		.accel = accel && !strcmp(accel, "kvm") ? DOMAIN_ACCEL_KVM :
							  DOMAIN_ACCEL_TCG,
		.machine = machine,
		.kernel = su->kernel_path,
		.initrd = su->image.path,
		.firmware = runner_firmware(),
		.confine = true,
	};
	struct rawqemu q = { .con_fd = -1, .chan_fd = -1, .ssh_fd = -1 };
	int r = rawqemu_start(&c, &q);

	if (r == 0)
		r = rawqemu_wait_hello(
			&q, BENCH_RAW_HELLO_MS * setup_boot_scale(su), ret_us);
	rawqemu_stop(&q);
	if (r < 0)
		fprintf(stderr, "hostctl bench: raw QEMU boot %u: %s\n", i + 1,
			r == -EPIPE ? "QEMU exited before hello" :
				      strerror(-r));
	return r;
}

/*
 * One libvirt boot (run @i of bench/trivial-read): its figures into
 * @stats and, for a pass, the per-step ones; the accelerator it used
 * into @accel. 0, or -errno after saying why.
 */
static int time_boot(const struct setup *su, enum accel_choice accel,
		     const char *machine, struct scenario *s, unsigned int i,
		     struct guest_stats *stats, uint64_t *step,
		     uint64_t *step_own, unsigned int *nstep, char *accel_used,
		     size_t accel_len)
{
	struct scenario *scn[1] = { s };
	struct res_run run = { 0 };
	struct runner_opts ro = { 0 };
	char run_dir[PATH_MAX + 128], run_id[64], err[1024];
	int r;

	snprintf(run_id, sizeof(run_id), "bench-%d-%u", getpid(), i);
	snprintf(run_dir, sizeof(run_dir), "%s/bench/%s", su->cache_dir,
		 run_id);
	r = fs_mkdir_p(run_dir);
	run.v = calloc(1, sizeof(*run.v));
	if (r < 0 || !run.v || runner_result_init(s, &run.v[0]) < 0) {
		fprintf(stderr, "hostctl bench: preparing run %u failed\n", i);
		free(run.v);
		return -ENOMEM;
	}
	run.n = 1;
	run_runner_opts(su, run_dir, run_id, &ro);
	ro.machine = machine;
	ro.boot_scale = setup_boot_scale(su);
	ro.accel = accel;
	r = runner_run(&ro, scn, &run, stats, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "hostctl bench: libvirt '%s': %s\n", su->uri,
			err);
		res_run_free(&run);
		return r;
	}
	snprintf(accel_used, accel_len, "%s", run.accelerator);
	if (run.v[0].verdict == VERDICT_PASS && s->nsteps) {
		uint64_t sum = 0;

		for (size_t j = 0; j < run.v[0].nsteps; j++)
			sum += run.v[0].steps[j].duration_us;
		step_own[*nstep] = sum / s->nsteps;
		step[(*nstep)++] = run.v[0].duration_ms * 1000 / s->nsteps;
	} else {
		fprintf(stderr, "hostctl bench: run %u: %s: %s\n", i,
			proto_verdict_name(run.v[0].verdict),
			run.v[0].reason ? run.v[0].reason : "");
	}
	res_run_free(&run);
	return 0;
}

/* Time a whole `hostctl run all` (run/spec.h, in a child process),
 * its report thrown away. */
static int time_run_all(const char *cache, const char *connect,
			const char *machine, const struct setup_kernel *k,
			const char *out_dir, unsigned int jobs,
			uint64_t *ret_us, int *ret_status)
{
	static char *const all[] = { "all" };
	uint64_t t0 = vm_now_us();
	struct run_spec s;
	int r;

	run_spec_init(&s);
	s.names = all;
	s.n_names = 1;
	s.format = RES_FORMAT_KTAP;
	s.output = out_dir;
	s.cache = cache;
	s.connect = connect;
	s.machine = machine;
	if (k->kernel_dir)
		s.kernel_dir = k->kernel_dir;
	s.flavour = k->flavour;
	s.line = k->line;
	s.jobs = jobs;
	r = verb_run_child(&s, true, ret_status);
	if (r < 0)
		return r;
	*ret_us = vm_now_us() - t0;
	return 0;
}

/* A bench scenario file, or its errors said. 0 or -errno. */
static int load(const char *path, const char *name, struct scenario *ret,
		struct scn_errors *errs)
{
	int r = scn_load_file(path, name, ret, errs);

	if (r < 0) {
		for (size_t i = 0; i < errs->n; i++)
			fprintf(stderr, "%s\n", errs->msgs[i]);
		fprintf(stderr, "hostctl bench: loading '%s': %s\n", path,
			strerror(-r));
	}
	return r;
}

/*
 * Run @i of the fresh-VM gap: bench/fails, then bench/trivial-read,
 * which a failure sends to a fresh VM (the spare's, with @spare); @stats
 * gets the gap. 0, or -errno after saying why.
 */
static int time_gap(const struct setup *su, enum accel_choice accel,
		    const char *machine, struct scenario *fails,
		    struct scenario *s, unsigned int i, bool spare,
		    struct guest_stats *stats)
{
	struct scenario *scn[2] = { fails, s };
	struct runner_opts ro = { 0 };
	struct res_run run = { 0 };
	char run_dir[PATH_MAX + 128], run_id[64], err[1024];
	int r;

	snprintf(run_id, sizeof(run_id), "bench-gap%s-%d-%u",
		 spare ? "-spare" : "", getpid(), i);
	snprintf(run_dir, sizeof(run_dir), "%s/bench/%s", su->cache_dir,
		 run_id);
	run.v = calloc(2, sizeof(*run.v));
	if (fs_mkdir_p(run_dir) < 0 || !run.v ||
	    runner_result_init(fails, &run.v[0]) < 0 ||
	    runner_result_init(s, &run.v[1]) < 0) {
		fprintf(stderr, "hostctl bench: preparing gap run %u failed\n",
			i);
		free(run.v);
		return -ENOMEM;
	}
	run.n = 2;
	run_runner_opts(su, run_dir, run_id, &ro);
	ro.machine = machine;
	ro.accel = accel;
	ro.spare = spare;
	r = runner_run(&ro, scn, &run, stats, err, sizeof(err));
	if (r < 0)
		fprintf(stderr, "hostctl bench: libvirt '%s': %s\n", su->uri,
			err);
	else if (run.v[1].verdict != VERDICT_PASS)
		fprintf(stderr, "hostctl bench: gap run %u: %s: %s\n", i,
			proto_verdict_name(run.v[1].verdict),
			run.v[1].reason ? run.v[1].reason : "");
	res_run_free(&run);
	return r < 0 ? r : 0;
}

/*
 * Run @i of `run all`: once with -j 1, once with -j @jobs, one right
 * after the other so that both see about the same load. 0 or -errno.
 */
static int time_pair(const struct setup *su, const char *connect,
		     const char *machine, const struct setup_kernel *k,
		     unsigned int i, unsigned int runs, unsigned int jobs,
		     uint64_t *ret_one, uint64_t *ret_jobs)
{
	for (unsigned int n = 0; n < 2; n++) {
		unsigned int j = n ? jobs : 1;
		char out_dir[PATH_MAX + 64];
		uint64_t *us = n ? ret_jobs : ret_one;
		int status = 0, r;

		snprintf(out_dir, sizeof(out_dir), "%s/bench/run-all-%d-%u-j%u",
			 su->cache_dir, getpid(), i, j);
		r = time_run_all(su->cache_dir, connect, machine, k, out_dir, j,
				 us, &status);
		if (r < 0) {
			fprintf(stderr,
				"hostctl bench: running 'hostctl run all -j %u': %s\n",
				j, strerror(-r));
			return r;
		}
		fprintf(stderr,
			"hostctl bench: run all -j %u, %u/%u: %.1f s, exit %d\n",
			j, i + 1, runs, *us / 1e6, status);
	}
	return 0;
}
/* Its options (the verb table's row, below, has them too). */
static const enum cli_opt shared[] = {
	CLI_OPT_CONNECT, CLI_OPT_CACHE,	     CLI_OPT_ACCEL,
	CLI_OPT_MACHINE, CLI_OPT_KERNEL_DIR, CLI_OPT_FLAVOUR,
	CLI_OPT_LINE,	 CLI_OPT_HELP,	     CLI_OPT_END,
};

static const struct option own[] = {
	{ "runs", required_argument, NULL, 'n' },
	{ "no-run-all", no_argument, NULL, 'N' },
	{ "jobs", required_argument, NULL, 'j' },
	{ 0 },
};

int verb_bench(int argc, char *argv[])
{
	struct option opts[CLI_OPTS_MAX];
	const char *connect = NULL, *cache = NULL, *machine = NULL;
	struct setup_kernel k = { .kernel_dir = VLALAB_SRCDIR "/kernel" };
	enum accel_choice accel = ACCEL_AUTO;
	unsigned int runs = 5, nstep = 0, nwall = 0, nwall_j = 0, jobs = 2;
	uint64_t create[BENCH_RUNS_MAX], hello[BENCH_RUNS_MAX];
	uint64_t teardown[BENCH_RUNS_MAX], step[BENCH_RUNS_MAX];
	uint64_t wall[BENCH_RUNS_MAX], step_own[BENCH_RUNS_MAX];
	uint64_t wall_j[BENCH_RUNS_MAX], ratio[BENCH_RUNS_MAX];
	uint64_t step_host[BENCH_RUNS_MAX], raw[BENCH_RUNS_MAX];
	uint64_t pair[BENCH_RUNS_MAX], raw_med;
	unsigned int nstep_host = 0, nraw = 0, npair = 0;
	double loadavg[2] = { 0 };
	struct guest_stats stats = { 0 }, gstats = { 0 }, sstats = { 0 };
	struct scn_errors errs = { 0 };
	struct scenario s = { 0 }, fails = { 0 };
	struct setup su = { 0 };
	char accel_used[16] = "";
	bool run_all = true;
	int c, r, ret = EXIT_SETUP;

	cli_opts_table(shared, own, opts);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) >= 0) {
		switch (c) {
		case 'n':
			runs = strtoul(optarg, NULL, 10);
			if (runs < 1 || runs > BENCH_RUNS_MAX) {
				fprintf(stderr,
					"hostctl bench: --runs '%s' is not 1..%d\n",
					optarg, BENCH_RUNS_MAX);
				return EXIT_SETUP;
			}
			break;
		case 'N':
			run_all = false;
			break;
		case 'j':
			jobs = strtoul(optarg, NULL, 10);
			if (jobs < 1 || jobs > 16) {
				fprintf(stderr,
					"hostctl bench: --jobs '%s' is not 1..16\n",
					optarg);
				return EXIT_SETUP;
			}
			break;
		case CLI_OPT_CONNECT:
			connect = optarg;
			break;
		case CLI_OPT_CACHE:
			cache = optarg;
			break;
		case CLI_OPT_ACCEL:
			if (accel_parse(optarg, &accel) < 0) {
				fprintf(stderr,
					"hostctl bench: unknown accelerator '%s'\n",
					optarg);
				return EXIT_SETUP;
			}
			break;
		case CLI_OPT_MACHINE:
			if (domain_machine_check(optarg) < 0) {
				fprintf(stderr,
					"hostctl bench: unknown machine '%s'; use q35 or pc\n",
					optarg);
				return EXIT_SETUP;
			}
			machine = optarg;
			break;
		case CLI_OPT_KERNEL_DIR:
			k.kernel_dir = optarg;
			break;
		case CLI_OPT_FLAVOUR:
			k.flavour = optarg;
			break;
		case CLI_OPT_LINE:
			k.line = optarg;
			break;
		case CLI_OPT_HELP:
			bench_usage(stdout);
			return EXIT_GREEN;
		default:
			bench_usage(stderr);
			return EXIT_SETUP;
		}
	}
	r = verb_check_nargs(&verb_bench_def, argc - optind);
	if (r)
		return r;
	if (load(BENCH_SCENARIO, "bench/trivial-read", &s, &errs) < 0 ||
	    load(BENCH_FAILS, "bench/fails", &fails, &errs) < 0)
		goto out;
	if (k.flavour) {
		char err[512];

		r = kbuild_flavour_check(k.kernel_dir, k.flavour, err,
					 sizeof(err));
		if (r < 0) {
			fprintf(stderr, "hostctl bench: --flavour: %s\n",
				r == -EINVAL ? err : strerror(-r));
			goto out;
		}
	}
	if (k.line) {
		char err[512];

		if (kbuild_line_check(k.line, err, sizeof(err)) < 0) {
			fprintf(stderr, "hostctl bench: --line: %s\n", err);
			goto out;
		}
	}
	r = setup_prepare_kernel(cache, connect, NULL, &k, &su);
	if (r < 0)
		goto out;

	/*
	 * Time the whole runs first: an embedded driver stays loaded in this
	 * process once used, and its root would then be busy for the child.
	 */
	for (unsigned int i = 0; run_all && i < runs; i++) {
		r = time_pair(&su, connect, machine, &k, i, runs, jobs,
			      &wall[nwall], &wall_j[nwall_j]);
		if (r < 0)
			break;
		ratio[nwall] = wall_j[nwall] * 1000000 / wall[nwall];
		nwall++;
		nwall_j++;
	}

	if (getloadavg(loadavg, 1) < 0)
		loadavg[0] = -1;
	/*
	 * The boots, each libvirt one paired with a raw QEMU one, in turns
	 * first, so that the load weighs on both alike.
	 */
	for (unsigned int i = 0; i < runs; i++) {
		unsigned int before = stats.boots;
		bool raw_ok = false;

		for (unsigned int n = 0; n < 2; n++) {
			if ((n + i) % 2 == 0) {
				r = time_boot(&su, accel, machine, &s, i,
					      &stats, step, step_own, &nstep,
					      accel_used, sizeof(accel_used));
			} else {
				r = time_raw(&su, machine, accel_used, i,
					     &raw[nraw]);
				raw_ok = r == 0;
				nraw += raw_ok;
			}
			if (r < 0)
				goto out;
		}
		/* This pair's ratio, create called -> hello over raw. */
		if (raw_ok && stats.boots > before && raw[nraw - 1])
			pair[npair++] = stats.hello_us[before] * 1000000 /
					raw[nraw - 1];
		fprintf(stderr, "hostctl bench: boot %u/%u done\n", i + 1,
			runs);
	}
	for (unsigned int i = 0; i < runs; i++)
		if (time_gap(&su, accel, machine, &fails, &s, i, false,
			     &gstats) < 0 ||
		    time_gap(&su, accel, machine, &fails, &s, i, true,
			     &sstats) < 0)
			goto out;
	for (unsigned int i = 0; i < stats.boots; i++) {
		if (stats.run_us[i] && s.nsteps)
			step_host[nstep_host++] = stats.run_us[i] / s.nsteps;
		create[i] = stats.create_us[i];
		hello[i] = stats.hello_us[i] - stats.create_us[i];
		teardown[i] = stats.teardown_us[i];
	}

	if (getloadavg(loadavg + 1, 1) < 0)
		loadavg[1] = -1;
	raw_med = median(raw, nraw);
	printf("hostctl bench: %u runs, accelerator %s, machine %s, kernel %s\n",
	       runs, *accel_used ? accel_used : "none",
	       machine ? machine : DOMAIN_MACHINE_DEFAULT, su.kernel.release);
	printf("hostctl bench: load average %.2f before the boots, %.2f after\n",
	       loadavg[0], loadavg[1]);
	printf(ROW_FMT, "measurement (ms)", "median", "min", "max", "raw QEMU",
	       "x raw", "target");
	report("raw QEMU: exec -> hello", raw, nraw, 0, "");
	report("virDomainCreateXML call", create, stats.boots, 0, "");
	report("create returned -> hello", hello, stats.boots, raw_med, "");
	{
		uint64_t total[BENCH_RUNS_MAX];

		for (unsigned int i = 0; i < stats.boots; i++)
			total[i] = stats.hello_us[i];
		report("create called -> hello", total, stats.boots, raw_med,
		       "<= 1200");
	}
	report("create called -> hello / raw (pm)", pair, npair, 0, "<= 1150");
	report("per read step, scenario / steps", step, nstep, 0, "<= 5");
	report("per read step, the step itself", step_own, nstep, 0, "");
	report("per read step, host: run -> end", step_host, nstep_host, 0, "");
	report("teardown (shutdown + destroy)", teardown, stats.boots, 0,
	       "<= 300");
	report("end -> next start, VM booted then", gstats.gap_us, gstats.gaps,
	       raw_med, "");
	report("end -> next start, spare VM", sstats.gap_us, sstats.gaps,
	       raw_med, "<= 500");
	report("hostctl run all -j 1 (wall)", wall, nwall, 0, "");
	{
		char what[64];

		snprintf(what, sizeof(what), "hostctl run all -j %u (wall)",
			 jobs);
		report(what, wall_j, nwall_j, 0, "");
		snprintf(what, sizeof(what),
			 "run all, -j %u / -j 1 (per mille)", jobs);
		report(what, ratio, nwall, 0, "<= 600");
	}
	ret = stats.boots == runs && nraw == runs ? EXIT_GREEN : EXIT_RED;
out:
	setup_free(&su);
	scn_free(&s);
	scn_free(&fails);
	scn_errors_free(&errs);
	return ret;
}

/* Its row in the verb table (main.c). */
const struct verb verb_bench_def = {
	.name = "bench",
	.min_args = 0,
	.max_args = 0,
	.fn = verb_bench,
	.usage = "[OPTIONS]",
	.summary = "measure boot, step and teardown times",
	.shared = shared,
	.own = own,
	.optstring = "h",
};
