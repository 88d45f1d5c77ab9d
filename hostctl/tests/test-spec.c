// SPDX-License-Identifier: GPL-2.0-only
/*
 * struct run_spec (hostctl/run/spec.c): its defaults, --clock's names,
 * and run_spec_check() refusing each pair of options that does not go
 * together with the reason hostctl run prints, before anything builds
 * (--exec's among them).
 */
#include <errno.h>
#include <string.h>

#include "run/spec.h"
#include "tap.h"

/* run_spec_check() on @s: -EINVAL with @want in its reason. */
static void refused(const struct run_spec *s, const char *want,
		    const char *what)
{
	char err[1024] = "";
	int r = run_spec_check(s, err, sizeof(err));

	okf(r == -EINVAL && strstr(err, want), "%s: %d '%s'", what, r, err);
}

int main(void)
{
	static char *const bad_without[] = { "no-such-patch" };
	static char long_cmd[4097];
	struct run_spec s;
	enum run_clock clock;
	char err[1024] = "";

	memset(long_cmd, 'x', sizeof(long_cmd) - 1);
	run_spec_init(&s);
	ok(s.jobs == 1 && s.accel == ACCEL_AUTO && !s.repeat && s.kernel_dir &&
		   strstr(s.kernel_dir, "/kernel"),
	   "defaults: one lane, auto, no repeat, the repository's kernel/");
	ok(run_spec_check(&s, err, sizeof(err)) == 0, "the defaults go");

	ok(run_clock_parse("icount", &clock) == 0 && clock == RUN_CLOCK_ICOUNT,
	   "--clock icount");
	ok(run_clock_parse("wal", &clock) == -EINVAL, "--clock wal: refused");

	run_spec_init(&s);
	s.tree = "/t";
	s.ext_kernel = "/k";
	s.ext_modules = "/m";
	refused(&s, "two kernels", "--tree with --kernel");
	run_spec_init(&s);
	s.tree_series = true;
	refused(&s, "--series goes with --tree", "--series alone");
	run_spec_init(&s);
	s.tree = "/t";
	s.flavour = "debug";
	refused(&s, "not a --tree", "--flavour with --tree");
	run_spec_init(&s);
	s.line = "6.12";
	ok(run_spec_check(&s, err, sizeof(err)) == 0, "--line 6.12 goes");
	s.line = "5.10";
	refused(&s, "--line: unknown kernel line '5.10' (known: 6.1, 6.12)",
		"an unknown line");
	run_spec_init(&s);
	s.line = "6.12";
	s.tree = "/t";
	refused(&s, "--line chooses Debian's source", "--line with --tree");
	run_spec_init(&s);
	s.line = "6.1";
	s.ext_kernel = "/k";
	s.ext_modules = "/m";
	refused(&s, "--line chooses Debian's source", "--line with --kernel");
	run_spec_init(&s);
	s.line = "6.12";
	s.without[s.n_without++] = "0020";
	refused(&s, "--without-patch: ", "a patch not in 6.12's series");
	run_spec_init(&s);
	s.tree = "/t";
	s.without[s.n_without++] = "0001";
	refused(&s, "needs --series", "--without-patch with --tree");
	run_spec_init(&s);
	s.ext_kernel = "/k";
	refused(&s, "go together", "--kernel without --modules");
	run_spec_init(&s);
	s.ext_config = "/c";
	refused(&s, "--config goes with --kernel", "--config alone");
	run_spec_init(&s);
	s.ext_kernel = "/k";
	s.ext_modules = "/m";
	s.initrd = "/i";
	refused(&s, "--initrd replaces", "--initrd with --kernel");
	run_spec_init(&s);
	s.image = "/img.qcow2";
	s.initrd = "/i";
	refused(&s, "give one", "--image with --initrd");
	run_spec_init(&s);
	s.repeat = 2;
	s.junit = "/j.xml";
	refused(&s, "not --repeat's rounds", "--junit with --repeat");
	run_spec_init(&s);
	s.flavour = "no-such-flavour";
	refused(&s, "--flavour: ", "a flavour that is not there");
	run_spec_init(&s);
	s.flavour = "vanilla";
	s.without[s.n_without++] = "0001";
	refused(&s, "not 'vanilla'", "--without-patch on vanilla");
	run_spec_init(&s);
	s.without[s.n_without++] = bad_without[0];
	refused(&s, "--without-patch: ", "a patch that is not in the series");

	/* --exec CMD: one command, alone. */
	run_spec_init(&s);
	s.exec = "cat /proc/version";
	ok(run_spec_check(&s, err, sizeof(err)) == 0, "--exec CMD goes");
	s.exec = "";
	refused(&s, "an empty command", "--exec ''");
	run_spec_init(&s);
	s.exec = "true";
	s.names = bad_without;
	s.n_names = 1;
	refused(&s, "give no scenario names", "--exec with a scenario name");
	run_spec_init(&s);
	s.exec = "true";
	s.repeat = 2;
	refused(&s, "no --repeat", "--exec with --repeat");
	run_spec_init(&s);
	s.exec = "true";
	s.keep_vm_on_fail = true;
	refused(&s, "no --keep-vm-on-fail", "--exec with --keep-vm-on-fail");
	run_spec_init(&s);
	s.exec = long_cmd;
	refused(&s, "4096 bytes or longer", "--exec with a 4096-byte command");
	/* --exec-timeout SECONDS: --exec's, within a scenario's bound. */
	run_spec_init(&s);
	s.exec = "true";
	s.exec_timeout_s = EXEC_TIMEOUT_MAX_S;
	ok(run_spec_check(&s, err, sizeof(err)) == 0,
	   "--exec with --exec-timeout 3600 goes");
	s.exec_timeout_s = EXEC_TIMEOUT_MAX_S + 1;
	refused(&s, "at most 3600 seconds", "--exec-timeout 3601");
	run_spec_init(&s);
	s.exec_timeout_s = 5;
	refused(&s, "give --exec CMD", "--exec-timeout without --exec");

	run_spec_init(&s);
	ok(run_spec_image(&s, "disk.qcow2", err, sizeof(err)) == -EINVAL &&
		   strstr(err, "give cloud:PATH") && !s.image,
	   "--image without cloud: refused");
	return tap_done();
}
