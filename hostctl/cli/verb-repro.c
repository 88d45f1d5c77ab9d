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
#include "cli/verbs.h"
#include "vm/vm.h"

#define REPRO_WITHOUT_MAX 32

/* repro's options that go to run as they are, in run's spelling. */
static const struct {
	int opt;
	char *run_opt;
} to_run[] = {
	{ 'w', "--without-patch" }, { 'c', "--cache" },
	{ 's', "--scenarios" },	    { 'I', "--image" },
	{ 'L', "--flavour" },
};
#define TO_RUN_N (sizeof(to_run) / sizeof(to_run[0]))

/*
 * run's words: "run --format text", two for each option of to_run
 * (--without-patch up to REPRO_WITHOUT_MAX times, the others once), the
 * scenario and NULL.
 */
#define RARGV_MAX (3 + 2 * (TO_RUN_N - 1) + 2 * REPRO_WITHOUT_MAX + 2)

static char *run_option(int opt)
{
	for (size_t i = 0; i < TO_RUN_N; i++)
		if (to_run[i].opt == opt)
			return to_run[i].run_opt;
	return NULL;
}

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
		"failed in the newest run under results/ that tells, else all.\n"
		"A scenario with boots stops in the boot that holds the step.\n"
		"Then the VM is torn down and the run directory printed; a crash\n"
		"meanwhile is judged as in a run.\n"
		"\n"
		"  --until-step N         stop after step N (1-based)\n"
		"  --without-patch NAME   leave a patch of the series out (repeatable)\n"
		"  --cache DIR            the cache directory\n"
		"  --scenarios DIR        the scenario tree, as in run\n"
		"  --flavour NAME         boot that flavour's kernel, as in run\n"
		"  --image cloud:PATH     boot this cloud image (a qcow2), as in run\n"
		"  --no-shell             no shell: keep the VM until a line or the end\n"
		"                         of standard input, for hostctl exec, pull, push\n"
		"  --help                 show this help\n");
}

const struct verb verb_repro_def = {
	.name = "repro",
	.min_args = 1,
	.max_args = 1,
	.fn = verb_repro,
	.usage = "[OPTIONS] SCENARIO",
	.summary = "run a scenario's steps, then a shell in its guest",
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

int verb_repro(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "until-step", required_argument, NULL, 'u' },
		{ "without-patch", required_argument, NULL, 'w' },
		{ "cache", required_argument, NULL, 'c' },
		{ "scenarios", required_argument, NULL, 's' },
		{ "image", required_argument, NULL, 'I' },
		{ "flavour", required_argument, NULL, 'L' },
		{ "no-shell", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	char *rargv[RARGV_MAX], *fwd;
	struct repro rp = { 0 };
	struct run_hooks h = { .hold = hold, .hold_data = &rp };
	int opt, n = 0, r;
	unsigned long v;
	char *end;

	rargv[n++] = "run";
	rargv[n++] = "--format";
	rargv[n++] = "text";
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		fwd = run_option(opt);
		if (fwd) {
			/* Room for its two words, the scenario and NULL. */
			if (n + 4 > (int)RARGV_MAX) {
				fprintf(stderr,
					"hostctl repro: too many options (at most %d --without-patch)\n",
					REPRO_WITHOUT_MAX);
				return EXIT_SETUP;
			}
			rargv[n++] = fwd;
			rargv[n++] = optarg;
			if (opt == 'c')
				rp.cache = optarg;
			continue;
		}
		switch (opt) {
		case 'u':
			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (*optarg < '1' || *optarg > '9' || *end || errno ||
			    v > 100000) {
				fprintf(stderr,
					"hostctl repro: --until-step wants a step number from 1, not '%s'\n",
					optarg);
				return EXIT_SETUP;
			}
			h.until_step = v;
			break;
		case 'n':
			rp.no_shell = true;
			break;
		case 'h':
			repro_usage(stdout);
			return EXIT_GREEN;
		default:
			repro_usage(stderr);
			return EXIT_SETUP;
		}
	}
	r = verb_check_nargs(&verb_repro_def, argc - optind);
	if (r)
		return r;
	rargv[n++] = argv[optind];
	rargv[n] = NULL;
	optind = 0;
	r = verb_run_hooked(n, rargv, &h);
	if (!rp.held && r != EXIT_SETUP)
		fprintf(stderr,
			"hostctl repro: the guest did not live through the steps: no shell\n");
	return r;
}
