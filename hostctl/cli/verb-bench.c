// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl bench: issue 32's four goals in one run, on one kernel and
 * image, each beside the figure it is measured against (bench-table.h):
 * a libvirt boot (create called -> hello) beside raw QEMU's (vm/rawqemu.h,
 * each boot paired with one of raw QEMU, in turns); a fresh VM restored
 * from its saved image through the runner, as run restores it, and the
 * spare VM's handover, beside raw QEMU's restore of a state it saved
 * itself; a fixed set of scenarios (--subset) at -j N beside -j 1, each
 * pair one after the other through the run library in forked children,
 * its runs in a results root of its own (the longest first at -j N, by
 * the durations of the bench's runs before);
 * the kernel's cold build as its manifest records it. Medians of --runs,
 * with min and max; a table of details (the create call, per-step
 * overhead, teardown, the gaps) first.
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
#include "cli/bench-priv.h"
#include "cli/bench-raw.h"
#include "results/bench-table.h"
#include "cli/options.h"
#include "cli/verbs.h"
#include "vm/vm.h"
#include "fileio.h"

#define BENCH_SCENARIO VLALAB_SRCDIR "/hostctl/bench/trivial-read.json"
#define BENCH_FAILS VLALAB_SRCDIR "/hostctl/bench/fails.json"
/*
 * What -j 1 and -j N run unless --subset says: about 2.5 min at -j 1 on
 * an idle machine, no scenario of it over a fifth of that, and each kind
 * of lane work run all has: steps on the shared VM under icount (bch),
 * a VM with a NIC (dsa), crashes and the fresh VMs after them (lkdtm),
 * two boots and a hibernation (hibernate), VMs of their own (edac). Not
 * the cloud image: its first boot alone would be a third of it.
 */
#define BENCH_SUBSET                                              \
	"bch/*,dsa/*,lkdtm/*,hibernate/no-swap,hibernate/resume," \
	"edac/reload-cycles,edac/high-address"
/* --subset: at most this many names and globs, this long in all. */
#define BENCH_SUBSET_MAX 16
#define BENCH_SUBSET_LEN 1024

/* Issue 32's goals. */
#define GOAL_BOOT_RATIO 1.15
#define GOAL_FRESH_MS 500
#define GOAL_JOBS_RATIO 0.6
#define GOAL_BUILD_MS (8 * 60 * 1000)

static void bench_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl bench [OPTIONS]\n"
		"\n"
		"Measure issue 32's four goals, each beside its yardstick, over\n"
		"several runs (median, min, max): create called -> hello beside\n"
		"raw QEMU's exec -> hello (the same emulator, kernel, initramfs and\n"
		"machine started by hand); a fresh VM restored as run restores it,\n"
		"and the spare VM's handover, beside raw QEMU's restore of a state\n"
		"it saved itself; a set of scenarios at -j N beside -j 1; the\n"
		"kernel's cold build as its manifest records it. Then the details:\n"
		"the create call, per-step overhead, teardown, the gaps.\n"
		"\n"
		"  --runs N          runs of each measurement, 1..%d (default: 5)\n"
		"  --subset LIST     the scenarios -j 1 and -j N run: names and\n"
		"                    globs split at commas, or 'all' (default:\n"
		"                    '" BENCH_SUBSET "')\n"
		"  --no-run-all      skip the -j 1 and -j N measurements\n"
		"  --jobs N          run the subset at -j 1 and at -j N, one after\n"
		"                    the other, each run (default: 2)\n"
		"  --json FILE       the goals as JSON into FILE too\n"
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

/*
 * --subset's names and globs, split at commas and blanks, into @names
 * (pointing into @list); how many: 0 when there are none, or more than
 * BENCH_SUBSET_MAX, or the list is longer than BENCH_SUBSET_LEN.
 */
static size_t subset_split(const char *subset, char list[BENCH_SUBSET_LEN],
			   char **names)
{
	size_t n = 0;
	char *save, *t;

	if (snprintf(list, BENCH_SUBSET_LEN, "%s", subset) >= BENCH_SUBSET_LEN)
		return 0;
	for (t = strtok_r(list, ", \t", &save); t;
	     t = strtok_r(NULL, ", \t", &save)) {
		if (n == BENCH_SUBSET_MAX)
			return 0;
		names[n++] = t;
	}
	return n;
}

/*
 * Run the subset at -j @j through the run library in a child process,
 * its report thrown away, its wall time into @us; @i names its folder
 * (BENCH_WARMUP: the untimed run). 0 or -errno.
 */
#define BENCH_WARMUP BENCH_RUNS_MAX
static int time_subset(struct bench *b, unsigned int j, unsigned int i,
		       uint64_t *us)
{
	char *names[BENCH_SUBSET_MAX], list[BENCH_SUBSET_LEN];
	char root[PATH_MAX + 64];
	struct run_spec s;
	uint64_t t0 = vm_now_us();
	int status = 0, r;
	size_t n = subset_split(b->subset, list, names);
	/*
	 * A results root of this bench's own: each run's durations order
	 * the next -j N run's scenarios (the longest first), as the stored
	 * runs order a hostctl run's, and no one else's runs do.
	 */
	snprintf(root, sizeof(root), "%s/bench/results-%d", b->su.cache_dir,
		 getpid());
	run_spec_init(&s);
	s.names = names;
	s.n_names = n;
	s.format = RES_FORMAT_KTAP;
	s.results = root;
	s.cache = b->su.cache_dir;
	s.connect = b->connect;
	s.machine = b->machine;
	if (b->k.kernel_dir)
		s.kernel_dir = b->k.kernel_dir;
	s.flavour = b->k.flavour;
	s.line = b->k.line;
	s.jobs = j;
	r = verb_run_child(&s, true, &status);
	if (r < 0) {
		fprintf(stderr,
			"hostctl bench: running 'hostctl run -j %u %s': %s\n",
			j, b->subset, strerror(-r));
		return r;
	}
	*us = vm_now_us() - t0;
	/* Exit 2 or 3: the run did not happen as a run (a busy cache, a
	 * lab failure); its time is no measurement. */
	if (status != RUN_EXIT_GREEN && status != RUN_EXIT_RED) {
		fprintf(stderr,
			"hostctl bench: run -j %u '%s' exited %d, so it ran no scenarios to time; -j not measured\n",
			j, b->subset, status);
		b->subset_lost = status;
		return -EIO;
	}
	b->subset_failed += i != BENCH_WARMUP && status != 0;
	if (i == BENCH_WARMUP)
		fprintf(stderr,
			"hostctl bench: run -j %u '%s', untimed first: %.1f s, exit %d\n",
			j, b->subset, *us / 1e6, status);
	else
		fprintf(stderr,
			"hostctl bench: run -j %u '%s', %u/%u: %.1f s, exit %d\n",
			j, b->subset, i + 1, b->runs, *us / 1e6, status);
	return 0;
}

/*
 * Run @i of the subset: once with -j 1, once with -j N, one right after
 * the other so that both see about the same load. 0 or -errno.
 */
static int time_pair(struct bench *b, unsigned int i)
{
	int r = time_subset(b, 1, i, &b->wall[i]);

	return r < 0 ? r : time_subset(b, b->jobs, i, &b->wall_j[i]);
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
 * The boots, each libvirt one paired with a raw QEMU one, in turns, so
 * that the load weighs on both alike. 0 or -errno.
 */
static int measure_boots(struct bench *b)
{
	for (unsigned int i = 0; i < b->runs; i++) {
		unsigned int before = b->boot.boots;
		bool raw_ok = false;
		int r;

		for (unsigned int n = 0; n < 2; n++) {
			if ((n + i) % 2 == 0) {
				r = bench_time_boot(b, i);
			} else {
				b->raw.accel = b->accel_used;
				r = bench_raw_boot(&b->raw, i,
						   &b->raw_boot[b->nraw_boot]);
				raw_ok = r == 0;
				b->nraw_boot += raw_ok;
			}
			if (r < 0)
				return r;
		}
		/* This pair's ratio, create called -> hello over raw. */
		if (raw_ok && b->boot.boots > before &&
		    b->raw_boot[b->nraw_boot - 1])
			b->pair[b->npair++] = b->boot.hello_us[before] *
					      1000000 /
					      b->raw_boot[b->nraw_boot - 1];
		fprintf(stderr, "hostctl bench: boot %u/%u done\n", i + 1,
			b->runs);
	}
	return 0;
}

/*
 * The restores: raw QEMU saves its state once, then each libvirt restore
 * is paired with a raw one, in turns. A raw save that fails leaves the
 * raw boot beside (said). 0 or -errno.
 */
static int measure_restores(struct bench *b)
{
	bool raw = bench_raw_save(&b->raw) == 0;

	for (unsigned int i = 0; i < b->runs; i++) {
		for (unsigned int n = 0; n < 2; n++) {
			int r = 0;

			if ((n + i) % 2 == 0)
				r = bench_time_restore(b, i);
			else if (raw &&
				 bench_raw_restore(
					 &b->raw, i,
					 &b->raw_rest[b->nraw_rest]) == 0)
				b->nraw_rest++;
			if (r < 0)
				return r;
		}
		fprintf(stderr, "hostctl bench: restore %u/%u done\n", i + 1,
			b->runs);
	}
	return 0;
}

/* The gaps after a failure: a VM booted, restored, the spare. */
static int measure_gaps(struct bench *b)
{
	for (unsigned int i = 0; i < b->runs; i++)
		if (bench_time_gap(b, i, false, false, &b->gap) < 0 ||
		    bench_time_gap(b, i, true, false, &b->rgap) < 0 ||
		    bench_time_gap(b, i, true, true, &b->sgap) < 0)
			return -EIO;
	return 0;
}

/* The details: every figure measured, in ms. */
static void print_details(struct bench *b, uint64_t raw_med)
{
	uint64_t create[BENCH_RUNS_MAX], hello[BENCH_RUNS_MAX];
	uint64_t total[BENCH_RUNS_MAX], teardown[BENCH_RUNS_MAX];
	uint64_t step_host[BENCH_RUNS_MAX], rest[BENCH_RUNS_MAX];
	unsigned int nstep_host = 0, n = b->boot.boots;
	struct guest_stats rgap;
	char what[64];

	for (unsigned int i = 0; i < n; i++) {
		if (b->boot.run_us[i] && b->s.nsteps)
			step_host[nstep_host++] =
				b->boot.run_us[i] / b->s.nsteps;
		create[i] = b->boot.create_us[i];
		hello[i] = b->boot.hello_us[i] - b->boot.create_us[i];
		total[i] = b->boot.hello_us[i];
		teardown[i] = b->boot.teardown_us[i];
	}
	for (unsigned int i = 0; i < b->rest.boots; i++)
		rest[i] = b->rest.create_us[i];
	bench_detail_header(stdout);
	bench_detail(stdout, "raw QEMU: exec -> hello", b->raw_boot,
		     b->nraw_boot, 0, "");
	bench_detail(stdout, "virDomainCreateXML call", create, n, 0, "");
	bench_detail(stdout, "create returned -> hello", hello, n, raw_med, "");
	bench_detail(stdout, "create called -> hello", total, n, raw_med,
		     "<= 1200");
	bench_detail(stdout, "create called -> hello / raw (pm)", b->pair,
		     b->npair, 0, "<= 1150");
	bench_detail(stdout, "virDomainRestoreFlags call", rest, b->rest.boots,
		     0, "");
	bench_detail(stdout, "per read step, scenario / steps", b->step,
		     b->nstep, 0, "<= 5");
	bench_detail(stdout, "per read step, the step itself", b->step_own,
		     b->nstep, 0, "");
	bench_detail(stdout, "per read step, host: run -> end", step_host,
		     nstep_host, 0, "");
	bench_detail(stdout, "teardown (shutdown + destroy)", teardown, n, 0,
		     "<= 300");
	bench_detail(stdout, "end -> next start, VM booted then", b->gap.gap_us,
		     b->gap.gaps, raw_med, "");
	/* bench_detail() sorts: the stages pair with the gaps as they came. */
	rgap = b->rgap;
	bench_detail(stdout, "end -> next start, VM restored", b->rgap.gap_us,
		     b->rgap.gaps, 0, "");
	bench_gap_stages(stdout, &rgap);
	bench_detail(stdout, "end -> next start, spare VM", b->sgap.gap_us,
		     b->sgap.gaps, 0, "");
	snprintf(what, sizeof(what), "run -j N / -j 1 (per mille)");
	bench_detail(stdout, what, b->ratio, b->nwall, 0, "<= 600");
}

/* The goals' rows (bench-table.h) from @b's figures; how many. */
static size_t goal_rows(struct bench *b, struct bench_row *rows,
			char (*text)[160])
{
	uint64_t raw_boot = bench_median(b->raw_boot, b->nraw_boot);
	uint64_t raw_rest = bench_median(b->raw_rest, b->nraw_rest);
	uint64_t us[BENCH_RUNS_MAX], build_us = 0;
	const char *why;
	size_t n = 0;

	rows[n] = (struct bench_row){
		.goal_no = 1,
		.id = "boot",
		.what = "boot: create called -> hello",
		.beside = "raw QEMU exec -> hello",
		.beside_us = raw_boot,
		.goal = BENCH_GOAL_RATIO,
		.limit = GOAL_BOOT_RATIO,
	};
	for (unsigned int i = 0; i < b->boot.boots; i++)
		us[i] = b->boot.hello_us[i];
	bench_row_set(&rows[n++], us, b->boot.boots);

	snprintf(text[0], sizeof(text[0]),
		 raw_rest ? "raw QEMU -incoming exec -> hello (restored)" :
			    "raw QEMU exec -> hello (its restore failed)");
	if (b->restore_lost)
		snprintf(text[1], sizeof(text[1]),
			 "%u restores booted instead, not counted",
			 b->restore_lost);
	rows[n] = (struct bench_row){
		.goal_no = 2,
		.id = "restore",
		.what = "fresh VM: restore called -> hello",
		.beside = text[0],
		.beside_us = raw_rest ? raw_rest : raw_boot,
		.goal = BENCH_GOAL_MS,
		.limit = GOAL_FRESH_MS,
		.note = b->restore_lost ? text[1] : NULL,
	};
	for (unsigned int i = 0; i < b->rest.boots; i++)
		us[i] = b->rest.hello_us[i];
	bench_row_set(&rows[n++], us, b->rest.boots);
	rows[n] = rows[n - 1];
	rows[n].id = "restored-gap";
	rows[n].what = "fresh VM: end -> next start, restored";
	rows[n].note = "as run -j 1 after a failure";
	bench_row_set(&rows[n++], b->rgap.gap_us, b->rgap.gaps);
	rows[n] = rows[n - 1];
	rows[n].id = "spare";
	rows[n].what = "fresh VM: end -> next start, spare";
	rows[n].note = "as run -j N after a failure";
	bench_row_set(&rows[n++], b->sgap.gap_us, b->sgap.gaps);

	snprintf(text[2], sizeof(text[2]), "run -j %u '%s' (wall)", b->jobs,
		 b->subset);
	snprintf(text[3], sizeof(text[3]), "run -j 1 '%s' (wall)", b->subset);
	rows[n] = (struct bench_row){
		.goal_no = 3,
		.id = "jobs",
		.what = text[2],
		.beside = text[3],
		.beside_us = bench_median(b->wall, b->nwall),
		.goal = BENCH_GOAL_RATIO,
		.limit = GOAL_JOBS_RATIO,
		.note = b->run_all ? NULL : "not measured (--no-run-all)",
	};
	if (b->subset_lost) {
		snprintf(text[4], sizeof(text[4]),
			 "not measured: a run exited %d (said above)",
			 b->subset_lost);
		rows[n].note = text[4];
	} else if (b->subset_failed) {
		snprintf(
			text[4], sizeof(text[4]),
			"%u of the %u timed runs exited non-zero (a verdict not pass: their wall times count as measured)",
			b->subset_failed, 2 * b->nwall);
		rows[n].note = text[4];
	}
	bench_row_set(&rows[n++], b->wall_j, b->nwall);

	rows[n] = (struct bench_row){
		.goal_no = 4,
		.id = "build",
		.what = "cold kernel build (its manifest)",
		.goal = BENCH_GOAL_MS,
		.limit = GOAL_BUILD_MS,
		.seconds = 1,
	};
	if (bench_cold_build(&b->su, &build_us, &why) == 0)
		bench_row_set(&rows[n], &build_us, 1);
	else
		rows[n].note = why;
	return n + 1;
}

/* The goals' table, and their JSON into b->json. 0, or -errno after
 * saying why. */
static int print_goals(struct bench *b)
{
	struct bench_row rows[8];
	char text[5][160] = { "" };
	size_t n = goal_rows(b, rows, text);
	struct bench_meta m = {
		.runs = b->runs,
		.jobs = b->jobs,
		.accelerator = *b->accel_used ? b->accel_used : NULL,
		.machine = b->machine ? b->machine : DOMAIN_MACHINE_DEFAULT,
		.kernel = b->su.kernel.release,
		.subset = b->run_all ? b->subset : NULL,
		.load_start = b->load[0],
		.load_end = b->load[1],
	};
	char *json;
	int r;

	bench_goals_print(stdout, rows, n);
	if (!b->json)
		return 0;
	r = bench_goals_json(&m, rows, n, &json);
	if (r == 0) {
		r = fileio_write_atomic(b->json, json, strlen(json));
		free(json);
	}
	if (r < 0)
		fprintf(stderr, "hostctl bench: writing '%s': %s\n", b->json,
			strerror(-r));
	return r;
}

/* Every measurement, then the tables. EXIT_GREEN when each gave all its
 * runs, EXIT_RED when one lost some, EXIT_SETUP when one failed. */
static int bench_run(struct bench *b)
{
	uint64_t raw_med;
	int r;

	/* The -j runs first, while the machine is as the start found it. */
	/*
	 * Once untimed first, at -j N: the saved images its VMs restore
	 * (vm/snapshot.h, a slot each) are made then, not in a timed run.
	 */
	if (b->run_all &&
	    time_subset(b, b->jobs, BENCH_WARMUP, &b->wall[0]) < 0 &&
	    !b->subset_lost)
		return EXIT_SETUP;
	for (unsigned int i = 0; b->run_all && !b->subset_lost && i < b->runs;
	     i++) {
		r = time_pair(b, i);
		if (r < 0 && b->subset_lost) {
			b->nwall = 0; /* none of them counts */
			break;
		}
		if (r < 0)
			return EXIT_SETUP;
		b->ratio[i] = b->wall_j[i] * 1000000 / b->wall[i];
		b->nwall++;
	}
	b->raw.su = &b->su;
	b->raw.machine = b->machine;
	r = measure_boots(b);
	if (r == 0)
		r = measure_restores(b);
	bench_raw_free(&b->raw);
	if (r == 0)
		r = measure_gaps(b);
	if (r < 0)
		return EXIT_SETUP;
	if (getloadavg(b->load + 1, 1) < 0)
		b->load[1] = -1;
	raw_med = bench_median(b->raw_boot, b->nraw_boot);
	printf("hostctl bench: %u runs, accelerator %s, machine %s, kernel %s\n",
	       b->runs, *b->accel_used ? b->accel_used : "none",
	       b->machine ? b->machine : DOMAIN_MACHINE_DEFAULT,
	       b->su.kernel.release);
	printf("hostctl bench: load average %.2f at the start, %.2f at the end\n",
	       b->load[0], b->load[1]);
	if (b->run_all)
		printf("hostctl bench: -j 1 and -j %u ran '%s'\n", b->jobs,
		       b->subset);
	print_details(b, raw_med);
	putchar('\n');
	if (print_goals(b) < 0)
		return EXIT_SETUP;
	return !b->subset_lost && b->boot.boots == b->runs &&
			       b->nraw_boot == b->runs &&
			       b->rest.boots == b->runs &&
			       b->nraw_rest == b->runs ?
		       EXIT_GREEN :
		       EXIT_RED;
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
	{ "subset", required_argument, NULL, 's' },
	{ "json", required_argument, NULL, 'J' },
	{ 0 },
};

/* An option's number in 1..@max, or 0 after saying why. */
static unsigned int number(const char *opt, const char *arg, unsigned int max)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);

	if (*end || end == arg || v < 1 || v > max) {
		fprintf(stderr, "hostctl bench: --%s '%s' is not 1..%u\n", opt,
			arg, max);
		return 0;
	}
	return (unsigned int)v;
}

int verb_bench(int argc, char *argv[])
{
	static struct bench b;
	struct option opts[CLI_OPTS_MAX];
	struct scn_errors errs = { 0 };
	const char *cache = NULL;
	int c, r, ret = EXIT_SETUP;

	memset(&b, 0, sizeof(b));
	b.k.kernel_dir = VLALAB_SRCDIR "/kernel";
	b.accel = ACCEL_AUTO;
	b.runs = 5;
	b.jobs = 2;
	b.run_all = true;
	b.subset = BENCH_SUBSET;
	if (getloadavg(b.load, 1) < 0)
		b.load[0] = -1;
	cli_opts_table(shared, own, opts);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) >= 0) {
		switch (c) {
		case 'n':
			b.runs = number("runs", optarg, BENCH_RUNS_MAX);
			if (!b.runs)
				return EXIT_SETUP;
			break;
		case 'N':
			b.run_all = false;
			break;
		case 'j':
			b.jobs = number("jobs", optarg, 16);
			if (!b.jobs)
				return EXIT_SETUP;
			break;
		case 's': {
			char list[BENCH_SUBSET_LEN], *names[BENCH_SUBSET_MAX];

			if (!subset_split(optarg, list, names)) {
				fprintf(stderr,
					"hostctl bench: --subset '%s' is not 1..%d names or globs\n",
					optarg, BENCH_SUBSET_MAX);
				return EXIT_SETUP;
			}
			b.subset = optarg;
			break;
		}
		case 'J':
			b.json = optarg;
			break;
		case CLI_OPT_CONNECT:
			b.connect = optarg;
			break;
		case CLI_OPT_CACHE:
			cache = optarg;
			break;
		case CLI_OPT_ACCEL:
			if (accel_parse(optarg, &b.accel) < 0) {
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
			b.machine = optarg;
			break;
		case CLI_OPT_KERNEL_DIR:
			b.k.kernel_dir = optarg;
			break;
		case CLI_OPT_FLAVOUR:
			b.k.flavour = optarg;
			break;
		case CLI_OPT_LINE:
			b.k.line = optarg;
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
	if (load(BENCH_SCENARIO, "bench/trivial-read", &b.s, &errs) < 0 ||
	    load(BENCH_FAILS, "bench/fails", &b.fails, &errs) < 0)
		goto out;
	if (b.k.flavour) {
		char err[512];

		r = kbuild_flavour_check(b.k.kernel_dir, b.k.flavour, err,
					 sizeof(err));
		if (r < 0) {
			fprintf(stderr, "hostctl bench: --flavour: %s\n",
				r == -EINVAL ? err : strerror(-r));
			goto out;
		}
	}
	if (b.k.line) {
		char err[512];

		if (kbuild_line_check(b.k.line, err, sizeof(err)) < 0) {
			fprintf(stderr, "hostctl bench: --line: %s\n", err);
			goto out;
		}
	}
	r = setup_prepare_kernel(cache, b.connect, NULL, &b.k, &b.su);
	if (r == 0)
		ret = bench_run(&b);
	setup_free(&b.su);
out:
	scn_free(&b.s);
	scn_free(&b.fails);
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
	.summary = "measure boot, restore, -j and build against goals",
	.shared = shared,
	.own = own,
	.optstring = "h",
};
