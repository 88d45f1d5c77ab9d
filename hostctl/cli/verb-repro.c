// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl repro SCENARIO [--until-step N] [--flavour F]: boot the scenario's
 * VM as run does, run its steps up to N (without its cleanup list, so that
 * the state stays), print what ran, and open a shell in the guest. The VM
 * lives while the shell does: the shell runs in a child process while this
 * one keeps reading the guest (its kernel log, a crash), and the run ends
 * as any run does, crash judge and run directory included.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/escape.h"
#include "results/results.h"
#include "live/sshc.h"
#include "live/sshvm.h"
#include "cli/options.h"
#include "cli/verbs.h"
#include "run/spec.h"
#include "vm/vm.h"

struct repro {
	const char *cache;
	bool no_shell; /* hold until stdin says, for scripts */
	bool held;
};

static void repro_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl repro [OPTIONS] SCENARIO\n"
		"\n"
		"Boot SCENARIO's VM as 'hostctl run' would, run its steps up to\n"
		"--until-step without its cleanup list, print them with their\n"
		"verdicts, and open a shell in the guest in that state ('exit'\n"
		"or '~.' leaves). Without --until-step: up to the first step that\n"
		"failed in the newest run of the results root that tells, else\n"
		"all.\n"
		"A scenario with boots stops in the boot that holds the step.\n"
		"Then the VM is torn down and the run directory printed; a crash\n"
		"meanwhile is judged as in a run.\n"
		"\n"
		"  --until-step N         stop after step N (1-based)\n"
		"  --without-patch NAME   leave a patch of the series out (repeatable)\n"
		"  --cache DIR            the cache directory\n"
		"  --results DIR          the results root, as in run\n"
		"  --scenarios DIR        the scenario tree, as in run\n"
		"  --flavour NAME         boot that flavour's kernel, as in run\n"
		"  --line LINE            the kernel line, 6.1 (default) or 6.12, as in run\n"
		"  --image cloud:PATH     boot this cloud image (a qcow2), as in run\n"
		"  --no-shell             no shell: keep the VM until a line or the end\n"
		"                         of standard input, for hostctl exec, pull, push\n"
		"  --help                 show this help\n");
}

/* Its options (the verb table's row, below, has them too). */
static const enum cli_opt shared[] = {
	CLI_OPT_WITHOUT_PATCH, CLI_OPT_CACHE,	CLI_OPT_SCENARIOS,
	CLI_OPT_IMAGE,	       CLI_OPT_FLAVOUR, CLI_OPT_LINE,
	CLI_OPT_RESULTS,       CLI_OPT_HELP,	CLI_OPT_END,
};

static const struct option own[] = {
	{ "until-step", required_argument, NULL, 'u' },
	{ "no-shell", no_argument, NULL, 'n' },
	{ 0 },
};

const struct verb verb_repro_def = {
	.name = "repro",
	.min_args = 1,
	.max_args = 1,
	.fn = verb_repro,
	.usage = "[OPTIONS] SCENARIO",
	.summary = "run a scenario's steps, then a shell in its guest",
	.shared = shared,
	.own = own,
	.optstring = "",
};

static void print_steps(const struct res_scenario *sc, const char *label,
			const char *domain)
{
	/* Past the run's live progress line, if one is shown. */
	if (isatty(STDOUT_FILENO))
		fputs("\r\033[K", stdout);
	printf("hostctl repro: %s on %s:\n", sc->name, label);
	for (size_t i = 0; i < sc->nsteps; i++) {
		const struct res_step *st = &sc->steps[i];

		esc_term_printf(stdout, "  step %zu %-24s %-12s %s\n", i + 1,
				st->name[0] ? st->name : "-", st->kind,
				st->ran ? proto_verdict_name(st->verdict) :
					  "not run");
		/* The guest's text: no control of its reaches the terminal. */
		if (st->ran && st->reason)
			esc_term_printf(stdout, "      %s\n", st->reason);
	}
	fflush(stdout);
	(void)domain;
}

/* The shell, in a child: this process keeps the VM's event loop going. */
static void hold(void *data, struct vm *vm, const char *label,
		 const char *domain, const struct res_scenario *sc)
{
	struct repro *rp = data;
	int status = 0, pidfd, r;
	pid_t pid;

	rp->held = true;
	print_steps(sc, label, domain);
	if (rp->no_shell) {
		char buf[256];

		printf("hostctl repro: %s (%s) is up: 'hostctl shell %s', 'hostctl exec %s -- CMD'; end of input tears it down\n",
		       label, domain, domain, domain);
		fflush(stdout);
		/* Any input, or its end: a line or ^D. */
		r = vm_wait_fd(vm, STDIN_FILENO, 0);
		if (r == 0 && read(STDIN_FILENO, buf, sizeof(buf)) < 0)
			r = -errno;
		if (r == -EPIPE)
			fprintf(stderr,
				"hostctl repro: %s died (%s); the crash judge follows\n",
				label, vm_dead_reason(vm));
		printf("hostctl repro: tearing %s down\n", label);
		fflush(stdout);
		return;
	}
	printf("hostctl repro: shell in %s (%s); 'exit' or '~.' leaves\n",
	       label, domain);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "hostctl repro: fork: %m\n");
		return;
	}
	if (pid == 0) {
		struct sshc *c;
		char err[1024];

		if (sshvm_connect("repro", rp->cache, domain, &c) < 0)
			_exit(EXIT_SETUP);
		r = sshc_shell(c, &status, err, sizeof(err));
		sshc_close(c);
		if (r < 0)
			fprintf(stderr, "\r\nhostctl repro: %s: %s\n", label,
				err);
		_exit(r < 0 ? EXIT_SETUP : status);
	}
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	r = pidfd < 0 ? -errno : vm_wait_fd(vm, pidfd, 0);
	if (r == -EPIPE) {
		fprintf(stderr,
			"\r\nhostctl repro: %s died (%s); the crash judge follows\n",
			label, vm_dead_reason(vm));
		kill(pid, SIGTERM);
	} else if (r < 0) {
		fprintf(stderr,
			"\r\nhostctl repro: waiting for the shell: %s\n",
			strerror(-r));
		kill(pid, SIGTERM);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pidfd >= 0)
		close(pidfd);
	printf("hostctl repro: shell ended; tearing %s down\n", label);
	fflush(stdout);
}

/* --until-step N: a step number from 1. 0 or -EINVAL after saying why. */
static int parse_step(const char *arg, size_t *ret)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*arg < '1' || *arg > '9' || *end || errno || v > 100000) {
		fprintf(stderr,
			"hostctl repro: --until-step wants a step number from 1, not '%s'\n",
			arg);
		return -EINVAL;
	}
	*ret = v;
	return 0;
}

/*
 * repro's command line: run's options it takes into @s, its own into
 * @rp and @h. VERB_GO_ON, or the exit code after the help or a message.
 */
static int parse_args(int argc, char *argv[], struct run_spec *s,
		      struct repro *rp, struct run_repro *h)
{
	struct option opts[CLI_OPTS_MAX];
	const char *image = NULL;
	char err[PATH_MAX + 256];
	int opt;

	cli_opts_table(shared, own, opts);
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case CLI_OPT_WITHOUT_PATCH:
			if (s->n_without == RUN_WITHOUT_MAX) {
				fprintf(stderr,
					"hostctl repro: too many options (at most %d --without-patch)\n",
					RUN_WITHOUT_MAX);
				return EXIT_SETUP;
			}
			s->without[s->n_without++] = optarg;
			break;
		case CLI_OPT_CACHE:
			s->cache = rp->cache = optarg;
			break;
		case CLI_OPT_SCENARIOS:
			s->scenarios = optarg;
			break;
		case CLI_OPT_RESULTS:
			s->results = optarg;
			break;
		case CLI_OPT_IMAGE:
			image = optarg;
			break;
		case CLI_OPT_FLAVOUR:
			s->flavour = optarg;
			break;
		case CLI_OPT_LINE:
			s->line = optarg;
			break;
		case 'u':
			if (parse_step(optarg, &h->until_step) < 0)
				return EXIT_SETUP;
			break;
		case 'n':
			rp->no_shell = true;
			break;
		case CLI_OPT_HELP:
			repro_usage(stdout);
			return EXIT_GREEN;
		default:
			repro_usage(stderr);
			return EXIT_SETUP;
		}
	}
	if (verb_check_nargs(&verb_repro_def, argc - optind))
		return EXIT_SETUP;
	/* As run says it: its options, its messages. */
	if ((image && run_spec_image(s, image, err, sizeof(err)) < 0) ||
	    run_spec_check(s, err, sizeof(err)) < 0) {
		fprintf(stderr, "hostctl run: %s\n", err);
		return EXIT_SETUP;
	}
	return VERB_GO_ON;
}

int verb_repro(int argc, char *argv[])
{
	struct repro rp = { 0 };
	struct run_repro h = { .hold = hold, .hold_data = &rp };
	struct run_spec s;
	int r;

	run_spec_init(&s);
	s.format = RES_FORMAT_TEXT;
	s.repro = &h;
	r = parse_args(argc, argv, &s, &rp, &h);
	if (r != VERB_GO_ON)
		return r;
	s.names = argv + optind;
	s.n_names = 1;
	r = run_spec_run(&s);
	if (!rp.held && r != EXIT_SETUP)
		fprintf(stderr,
			"hostctl repro: the guest did not live through the steps: no shell\n");
	return r;
}
