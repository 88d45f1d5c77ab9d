// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl run: its command line, parsed straight into a struct run_spec,
 * and one call of the run library (run/spec.h), which validates and
 * selects the scenarios, builds (or reuses) the kernel and image, skips
 * what the kernel cannot run, boots guests and runs the rest, then
 * writes summary.json and prints the report; with --repeat N, N rounds
 * and what flipped between them.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/boundlog.h"
#include "cli/options.h"
#include "cli/verbs.h"
#include "crash/postmortem.h"
#include "results/repeat.h"
#include "run/schedule.h"
#include "run/spec.h"
#include "vm/domain.h"

static void run_usage(FILE *f)
{
	fputs("Usage: hostctl run [OPTIONS] all | NAME | GLOB...\n"
	      "       hostctl run [OPTIONS] --exec CMD\n"
	      "\n"
	      "Boot the patched kernel through libvirt and run scenarios in it,\n"
	      "or one command.\n"
	      "\n"
	      "  --exec CMD        boot the kernel and run CMD with /bin/sh -c in the\n"
	      "                    guest instead of scenarios; its output comes on\n"
	      "                    stdout and stderr as it runs (escaped), and its\n"
	      "                    exit status is hostctl's (below); recorded as an\n"
	      "                    exec run (RUN-ID in the results root, not latest)\n"
	      "  --exec-timeout SECONDS\n"
	      "                    how long CMD and its guest may take (default: 600,\n"
	      "                    at most 3600)\n",
	      f);
	cli_opt_usage(f, CLI_OPT_CONNECT);
	cli_opt_usage(f, CLI_OPT_HOSTS);
	cli_opt_usage(f, CLI_OPT_OUTPUT);
	fputs("  --results DIR     the results root, for RUN-ID and latest\n"
	      "  --format FORMAT   text, ktap or json (default: text on a TTY, else ktap)\n"
	      "  --color WHEN      colour the verdicts of the text results: auto\n"
	      "                    (on a TTY, unless NO_COLOR is set), always or never\n",
	      f);
	cli_opt_usage(f, CLI_OPT_SCENARIOS);
	cli_opt_usage(f, CLI_OPT_CACHE);
	cli_opt_usage(f, CLI_OPT_ACCEL);
	fputs("  --clock CLOCK     auto, icount or wall: under TCG, icount runs the\n"
	      "                    VMs with -icount shift=0,sleep=off, so guest time\n"
	      "                    counts instructions (default: auto, icount when a\n"
	      "                    scenario has a bench step; KVM: always wall)\n"
	      "  --initrd FILE     boot this initramfs instead of building the image\n"
	      "                    (tests use it to boot misbehaving guests)\n",
	      f);
	cli_opt_usage(f, CLI_OPT_IMAGE);
	fprintf(f,
		"  --dump-max-mb N   keep a crashed or hung guest's memory dump of at\n"
		"                    most N MiB in its bundle; 0: no dump (default: %d)\n"
		"  --dump-format F   kdump-zlib, kdump-lzo, kdump-snappy or elf\n"
		"                    (default: kdump-zlib)\n",
		PM_DUMP_MAX_MB_DEFAULT);
	cli_opt_usage(f, CLI_OPT_KERNEL_DIR);
	cli_opt_usage(f, CLI_OPT_FLAVOUR);
	cli_opt_usage(f, CLI_OPT_LINE);
	cli_opt_usage(f, CLI_OPT_MACHINE);
	cli_opt_usage(f, CLI_OPT_WITHOUT_PATCH);
	cli_opt_usage(f, CLI_OPT_TREE);
	cli_opt_usage(f, CLI_OPT_SERIES);
	fprintf(f,
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
		"                    disk in the run directory\n",
		BOUNDLOG_MAX_MB_DEFAULT, BOUNDLOG_MAX_MB_DEFAULT);
	cli_opt_usage(f, CLI_OPT_JUNIT);
	cli_opt_usage(f, CLI_OPT_KCIDB);
	cli_opt_usage(f, CLI_OPT_NO_RESTORE);
	fprintf(f,
		"  --keep-vm-on-fail[=SECONDS]\n"
		"                    keep the VM of the first scenario that does not\n"
		"                    pass alive (on the shared VM) and print the\n"
		"                    'hostctl shell' command that reaches it; go on\n"
		"                    after a line on standard input or, with\n"
		"                    =SECONDS, after SECONDS, whichever comes first\n"
		"  -j, --jobs N      run up to N VMs at once (1..%d), the longest\n"
		"                    scenario first by the stored runs' durations,\n"
		"                    with a spare VM booted ahead for the next\n"
		"                    fresh one; 'auto': as many as the host's CPUs\n"
		"                    and memory hold (default: 1)\n"
		"  --repeat N        run the selection N times (1..%d), each round\n"
		"                    on fresh VMs in RUN-DIR/round-K, with\n"
		"                    vlalab.round=K on the guest's command line;\n"
		"                    then a table of what flipped between rounds\n",
		SCHED_LANES_MAX, REPEAT_ROUNDS_MAX);
	cli_opt_usage(f, CLI_OPT_HELP);
	fputs("\n"
	      "Exit codes: 0 all pass/skip/xfail; 1 any fail/timeout/crash/xpass (the\n"
	      "kernel's fault); 2 usage or set-up error; 3 the lab could not do its\n"
	      "job: libvirt errors, guests that never said hello, protocol errors\n"
	      "(those scenarios are error) when no scenario failed, or a result file\n"
	      "that could not be written (the run stopped).\n"
	      "With --repeat: 0 only when every round ran and every scenario had the\n"
	      "same pass/skip/xfail verdict in each; 1 when any failed or flipped, or\n"
	      "a signal cut the rounds short.\n"
	      "With --exec: the command's exit status (126, 127: the shell's, not\n"
	      "executable or not found), 128+N when signal N killed it; 124 when it\n"
	      "or the guest ran out of time (--exec-timeout) or hung, 125 when the\n"
	      "kernel crashed or the judge saw another incident, each after one line\n"
	      "on stderr saying which; 2 and 3 as above, before or around it; 130\n"
	      "(143) when SIGINT (SIGTERM) interrupted it.\n",
	      f);
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

/* --keep-vm-on-fail[=SECONDS], 1..86400. */
static int parse_keep_vm(const char *arg, struct run_spec *s)
{
	unsigned long v;
	char *end = NULL;

	s->keep_vm_on_fail = true;
	if (!arg)
		return 0;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*arg < '1' || *arg > '9' || *end || errno || v > 86400) {
		fprintf(stderr,
			"hostctl run: --keep-vm-on-fail=SECONDS wants 1 to 86400, not '%s'\n",
			arg);
		return -EINVAL;
	}
	s->keep_vm_s = v;
	return 0;
}

/* --dump-max-mb N: 0 (no dump) up to 2^40 MiB. */
static int parse_dump_max_mb(const char *arg, struct run_spec *s)
{
	char *end;

	errno = 0;
	s->dump_max_mb = strtoull(arg, &end, 10);
	if (errno || end == arg || *end || *arg == '-' ||
	    s->dump_max_mb > (UINT64_C(1) << 40)) {
		fprintf(stderr,
			"hostctl run: --dump-max-mb '%s' is not a size in MiB\n",
			arg);
		return -EINVAL;
	}
	return 0;
}

/* run's own options, beside the shared ones (options.h). */
static const enum cli_opt run_shared[] = {
	CLI_OPT_CONNECT,    CLI_OPT_OUTPUT,	   CLI_OPT_SCENARIOS,
	CLI_OPT_CACHE,	    CLI_OPT_ACCEL,	   CLI_OPT_IMAGE,
	CLI_OPT_KERNEL_DIR, CLI_OPT_FLAVOUR,	   CLI_OPT_LINE,
	CLI_OPT_MACHINE,    CLI_OPT_WITHOUT_PATCH, CLI_OPT_TREE,
	CLI_OPT_SERIES,	    CLI_OPT_JUNIT,	   CLI_OPT_KCIDB,
	CLI_OPT_RESULTS,    CLI_OPT_NO_RESTORE,	   CLI_OPT_HELP,
	CLI_OPT_HOSTS,	    CLI_OPT_END,
};

static const struct option run_own[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "clock", required_argument, NULL, 'Q' },
	{ "initrd", required_argument, NULL, 'i' },
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
	{ "jobs", required_argument, NULL, 'j' },
	{ "color", required_argument, NULL, 'c' },
	{ "exec", required_argument, NULL, 'x' },
	{ "exec-timeout", required_argument, NULL, 'X' },
	{ 0 },
};

/* A value that names one of a fixed set, or a message saying which. */
static int bad_value(const char *what, const char *arg, const char *use)
{
	fprintf(stderr, "hostctl run: unknown %s '%s'; use %s\n", what, arg,
		use);
	return -EINVAL;
}

/* The options of the kernel and its image into @s. 1 when @c is not
 * one of them. */
static int parse_kernel_opt(int c, const char *arg, struct run_spec *s)
{
	char err[PATH_MAX + 256];

	switch (c) {
	case CLI_OPT_KERNEL_DIR:
		s->kernel_dir = arg;
		break;
	case CLI_OPT_FLAVOUR:
		s->flavour = arg;
		break;
	case CLI_OPT_LINE:
		s->line = arg;
		break;
	case CLI_OPT_TREE:
		s->tree = arg;
		break;
	case CLI_OPT_SERIES:
		s->tree_series = true;
		break;
	case 'Z':
		s->ext_kernel = arg;
		break;
	case 'N':
		s->ext_modules = arg;
		break;
	case 'G':
		s->ext_config = arg;
		break;
	case 'i':
		s->initrd = arg;
		break;
	case CLI_OPT_IMAGE:
		if (run_spec_image(s, arg, err, sizeof(err)) < 0) {
			fprintf(stderr, "hostctl run: %s\n", err);
			return -EINVAL;
		}
		break;
	case CLI_OPT_WITHOUT_PATCH:
		if (s->n_without == RUN_WITHOUT_MAX) {
			fprintf(stderr,
				"hostctl run: more than %d --without-patch\n",
				RUN_WITHOUT_MAX);
			return -EINVAL;
		}
		s->without[s->n_without++] = arg;
		break;
	default:
		return 1;
	}
	return 0;
}

/* The options of how the VMs run and what is kept into @s. 1 when @c
 * is not one of them. */
static int parse_vm_opt(int c, const char *arg, struct run_spec *s)
{
	switch (c) {
	case CLI_OPT_ACCEL:
		if (accel_parse(arg, &s->accel) < 0)
			return bad_value("accelerator", arg,
					 "auto, kvm or tcg");
		break;
	case 'Q':
		if (run_clock_parse(arg, &s->clock) < 0)
			return bad_value("clock", arg, "auto, icount or wall");
		break;
	case CLI_OPT_MACHINE:
		if (domain_machine_check(arg) < 0)
			return bad_value("machine", arg, "q35 or pc");
		s->machine = arg;
		break;
	case 'j':
		/* 0: "auto", what the host holds. */
		s->jobs = 0;
		if (strcmp(arg, "auto") &&
		    parse_count(arg, SCHED_LANES_MAX, &s->jobs) < 0) {
			fprintf(stderr,
				"hostctl run: -j '%s': give 'auto' or a number of VMs at once, 1..%d\n",
				arg, SCHED_LANES_MAX);
			return -EINVAL;
		}
		break;
	case 'r':
		if (parse_count(arg, REPEAT_ROUNDS_MAX, &s->repeat) < 0) {
			fprintf(stderr,
				"hostctl run: --repeat '%s': give a number of rounds, 1..%d\n",
				arg, REPEAT_ROUNDS_MAX);
			return -EINVAL;
		}
		break;
	case 'D':
		return parse_dump_max_mb(arg, s);
	case 'F':
		if (pm_dump_format_check(arg) < 0)
			return bad_value(
				"dump format", arg,
				"kdump-zlib, kdump-lzo, kdump-snappy or elf");
		s->dump_format = arg;
		break;
	case 'E':
		return parse_max_mb("events", arg, &s->events_max_mb);
	case 'O':
		return parse_max_mb("console", arg, &s->console_max_mb);
	case 'k':
		s->keep = true;
		break;
	case 'V':
		return parse_keep_vm(arg, s);
	default:
		return 1;
	}
	return 0;
}

/* --exec-timeout SECONDS into @s: 1 .. EXEC_TIMEOUT_MAX_S. */
static int parse_exec_timeout(const char *arg, struct run_spec *s)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*arg < '1' || *arg > '9' || errno || *end ||
	    v > EXEC_TIMEOUT_MAX_S) {
		fprintf(stderr,
			"hostctl run: --exec-timeout '%s': give seconds, 1..%d\n",
			arg, EXEC_TIMEOUT_MAX_S);
		return -EINVAL;
	}
	s->exec_timeout_s = (uint32_t)v;
	return 0;
}

/* --connect URI[,jobs=N] or --hosts FILE: its hosts into @s. */
static int parse_host(int c, const char *arg, struct run_spec *s)
{
	char err[1024];
	int r;

	if (c == CLI_OPT_HOSTS)
		r = hosts_load(&s->hosts, arg, err, sizeof(err));
	else
		r = hosts_add(&s->hosts, arg, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "hostctl run: --%s: %s\n",
			c == CLI_OPT_HOSTS ? "hosts" : "connect", err);
		return -EINVAL;
	}
	return 0;
}

/* Where the results go into @s. 1 when @c is not one of them. */
static int parse_out_opt(int c, const char *arg, struct run_spec *s,
			 bool *format_set)
{
	switch (c) {
	case CLI_OPT_CONNECT:
	case CLI_OPT_HOSTS:
		return parse_host(c, arg, s);
	case CLI_OPT_OUTPUT:
		s->output = arg;
		break;
	case CLI_OPT_RESULTS:
		s->results = arg;
		break;
	case CLI_OPT_SCENARIOS:
		s->scenarios = arg;
		break;
	case CLI_OPT_CACHE:
		s->cache = arg;
		break;
	case CLI_OPT_JUNIT:
		s->junit = arg;
		break;
	case CLI_OPT_NO_RESTORE:
		s->no_restore = true;
		break;
	case CLI_OPT_KCIDB:
		s->kcidb = arg;
		break;
	case 'x':
		s->exec = arg;
		break;
	case 'X':
		return parse_exec_timeout(arg, s);
	case 'f':
		if (res_format_parse(arg, &s->format) < 0) {
			fprintf(stderr,
				"hostctl run: unknown format '%s'; use text, ktap or json\n",
				arg);
			return -EINVAL;
		}
		*format_set = true;
		break;
	case 'c':
		if (progress_color_parse(arg, &s->color) < 0) {
			fprintf(stderr,
				"hostctl run: --color '%s': use auto, always or never\n",
				arg);
			return -EINVAL;
		}
		break;
	default:
		return 1;
	}
	return 0;
}

/*
 * run's command line into @s: 0, 1 after the help on stdout, or -EINVAL
 * after saying why on stderr.
 */
static int parse_args(int argc, char *argv[], struct run_spec *s)
{
	struct option opts[CLI_OPTS_MAX];
	char err[1024];
	bool format_set = false;
	int c, r;

	cli_opts_table(run_shared, run_own, opts);
	while ((c = getopt_long(argc, argv, "hj:", opts, NULL)) >= 0) {
		if (c == CLI_OPT_HELP) {
			run_usage(stdout);
			return 1;
		}
		r = parse_kernel_opt(c, optarg, s);
		if (r == 1)
			r = parse_vm_opt(c, optarg, s);
		if (r == 1)
			r = parse_out_opt(c, optarg, s, &format_set);
		if (r == 1) {
			run_usage(stderr);
			return -EINVAL;
		}
		if (r < 0)
			return r;
	}
	s->names = argv + optind;
	s->n_names = (size_t)(argc - optind);
	r = run_spec_hosts(s, err, sizeof(err));
	if (r == 0)
		r = run_spec_check(s, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "hostctl run: %s\n", err);
		return r;
	}
	if (!format_set)
		s->format = isatty(STDOUT_FILENO) ? RES_FORMAT_TEXT :
						    RES_FORMAT_KTAP;
	return 0;
}

int verb_run(int argc, char *argv[])
{
	struct run_spec s;
	int r;

	run_spec_init(&s);
	r = parse_args(argc, argv, &s);
	if (r != 0)
		return r > 0 ? EXIT_GREEN : EXIT_SETUP;
	/* --exec takes no names (run_spec_check()). */
	r = s.exec ? 0 : verb_check_nargs(&verb_run_def, argc - optind);
	if (r)
		return r;
	return run_spec_run(&s);
}

/* Its row in the verb table (main.c). */
const struct verb verb_run_def = {
	.name = "run",
	.min_args = 1,
	.max_args = VERB_ANY,
	.fn = verb_run,
	.usage = "[OPTIONS] all | NAME | GLOB...",
	.summary = "boot the kernel, run scenarios or --exec CMD",
	.shared = run_shared,
	.own = run_own,
	.optstring = "hj:",
};
