// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a scenario needs of the kernel (scenario-requires.c): the requires
 * check against a fake kernel build (data/kernel/), and its flavour
 * against the folders of kernel/flavours/.
 *
 * Usage: test-scenario-requires DATA_DIR SCENARIOS_DIR FIXTURES_DIR (TAP on stdout).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario/scenario.h"
#include "scn-test.h"
#include "tap.h"

/* A scenario with just requires, for scn_check_requires(). */
static void check_req(const char *const *config, const char *const *modules,
		      const char *mods_dir, int want, const char *want_reason,
		      const char *what)
{
	struct scenario s = { 0 };
	char *cfg = xasprintf("%s/kernel/config", data_dir);
	char *md = xasprintf("%s/kernel/%s", data_dir, mods_dir);
	char reason[512];
	int r;

	while (config && config[s.n_req_config])
		s.n_req_config++;
	while (modules && modules[s.n_req_modules])
		s.n_req_modules++;
	s.req_config = (char **)config;
	s.req_modules = (char **)modules;
	r = scn_check_requires(&s, cfg, md, reason, sizeof(reason));
	is_int(r, want, what);
	is_str(reason, want_reason, what);
	free(cfg);
	free(md);
}

#define LIST(...) ((const char *const[]){ __VA_ARGS__, NULL })

static void test_requires(void)
{
	check_req(NULL, NULL, "modules", 0, "", "no requires");
	check_req(LIST("CONFIG_FTRACE", "CONFIG_MODULES", "CONFIG_SAMPLE_TRACE_PRINTK"),
		  NULL, "modules", 0, "", "y and m options");
	check_req(LIST("CONFIG_FTRACE", "CONFIG_KALLSYMS_ALL"), NULL, "modules", 1,
		  "CONFIG_KALLSYMS_ALL is not set", "an option that is not set");
	check_req(LIST("CONFIG_FTRACE_EXTRA_NOT_THERE"), NULL, "modules", 1,
		  "CONFIG_FTRACE_EXTRA_NOT_THERE is not set", "an absent option");
	check_req(LIST("CONFIG_FTRACE_E"), NULL, "modules", 1,
		  "CONFIG_FTRACE_E is not set", "a prefix of an option is not that option");
	check_req(LIST("CONFIG_NR_CPUS"), NULL, "modules", 1,
		  "CONFIG_NR_CPUS=64, not y or m", "a non-tristate value");
	check_req(NULL, LIST("trace_printk", "dsa-loop", "virtio_pci"), "modules", 0, "",
		  "modules.dep and modules.builtin, - and _ alike");
	check_req(NULL, LIST("trace_printk", "dsa_core"), "modules", 1,
		  "module 'dsa_core' not built", "a dependency is not a module line");
	check_req(LIST("CONFIG_KALLSYMS_ALL"), LIST("nandsim"), "modules", 1,
		  "CONFIG_KALLSYMS_ALL is not set; module 'nandsim' not built",
		  "every reason, joined");
	check_req(NULL, LIST("trace_printk", "foo_bar"), "modules-nodep", 0, "",
		  "no modules.dep: the .ko files are walked");
	check_req(NULL, LIST("virtio_pci"), "modules-nodep", 1,
		  "module 'virtio_pci' not built", "no modules.builtin: only .ko files");
	{
		struct scenario s = { 0 };
		char *opt[] = { "CONFIG_FTRACE" };
		char reason[256];

		s.req_config = opt;
		s.n_req_config = 1;
		is_int(scn_check_requires(&s, "/nonexistent/.config", "/nonexistent",
					  reason, sizeof(reason)),
		       -ENOENT, "a missing .config is an I/O error");
		is_str(reason, "cannot read '/nonexistent/.config': No such file or directory",
		       "missing .config: reason");
		s.n_req_config = 0;
		s.req_modules = opt;
		s.n_req_modules = 1;
		is_int(scn_check_requires(&s, "/nonexistent/.config", "/nonexistent",
					  reason, sizeof(reason)),
		       -ENOENT, "a missing modules dir is an I/O error");
	}
	{
		struct scenario s = { 0 };
		char *unset[] = { "CONFIG_KALLSYMS_ALL", "CONFIG_KASAN", "CONFIG_FTRACE",
				  "CONFIG_SAMPLE_TRACE_PRINTK" };
		char *cfg = xasprintf("%s/kernel/config", data_dir);
		char reason[256];

		s.req_unset = unset;
		s.n_req_unset = 2;
		is_int(scn_check_requires(&s, cfg, NULL, reason, sizeof(reason)), 0,
		       "config_unset: options that are not set or absent");
		is_str(reason, "", "config_unset: no reason");
		s.n_req_unset = 4;
		is_int(scn_check_requires(&s, cfg, NULL, reason, sizeof(reason)), 1,
		       "config_unset: options that are y and m");
		is_str(reason, "CONFIG_FTRACE is set; CONFIG_SAMPLE_TRACE_PRINTK is set",
		       "config_unset: each set option named");
		s.req_unset_why = "its measurement counts what FTRACE keeps";
		is_int(scn_check_requires(&s, cfg, NULL, reason, sizeof(reason)), 1,
		       "config_unset: with unset_why");
		is_str(reason,
		       "CONFIG_FTRACE is set; CONFIG_SAMPLE_TRACE_PRINTK is set; its measurement counts what FTRACE keeps",
		       "config_unset: unset_why follows the options");
		s.n_req_unset = 2;
		is_int(scn_check_requires(&s, cfg, NULL, reason, sizeof(reason)), 0,
		       "config_unset: unset_why alone is no reason");
		is_str(reason, "", "config_unset: unset_why without a set option");
		s.req_unset_why = NULL;
		s.n_req_unset = 4;
		is_int(scn_check_requires(&s, "/nonexistent/.config", NULL, reason,
					  sizeof(reason)),
		       -ENOENT, "config_unset: a missing .config is an I/O error");
		free(cfg);
	}
	{
		struct scenario s = { 0 };
		char *mods[] = { "nandsim" }, *params[] = { "nandsim.bch", "dsa_core.x" };
		char *md = xasprintf("%s/kernel/modules", data_dir);
		char reason[512];

		s.req_params = params;
		s.n_req_params = 2;
		is_int(scn_check_requires(&s, NULL, md, reason, sizeof(reason)), 1,
		       "a parameter of a module that is not built");
		is_str(reason, "module 'nandsim' not built; module 'dsa_core' not built",
		       "module_params: the missing modules, one reason each");
		s.req_modules = mods;
		s.n_req_modules = 1;
		is_int(scn_check_requires(&s, NULL, md, reason, sizeof(reason)), 1,
		       "a missing module listed in modules too");
		is_str(reason, "module 'nandsim' not built; module 'dsa_core' not built",
		       "module_params: a module missing from both lists is named once");
		free(md);
	}
}

/*
 * "flavour": a folder of kernel/flavours/ loads and is kept; an unknown
 * one loads (the schema cannot tell) and scn_flavours_check() refuses it
 * with its file, path and the known flavours; a non-string is refused.
 */
static void test_flavour(void)
{
	char *dir = xasprintf("%s/flavour", data_dir);
	char *want = xasprintf("%s/area/unknown.json: $.flavour: unknown flavour 'nosuch' (known: patched, vanilla, ", dir);
	char *num = tmp_file("{\"description\": \"d\", \"seed\": \"none\", "
			     "\"flavour\": 3, \"steps\": [{\"kind\": \"sleep\", \"ms\": 1}]}");
	struct scn_errors errs = { 0 };
	struct scn_set set = { 0 };
	struct scenario s;
	int r;

	r = scn_load_dir(dir, &set, &errs);
	is_int(r, 0, "flavour: both files load");
	if (r == 0) {
		is_str(set.v[0].flavour, "vla", "flavour: kept as written");
		is_str(set.v[1].flavour, "nosuch", "flavour: the unknown one too");
		is_int(scn_flavours_check(&set, VLALAB_SRCDIR "/kernel", &errs),
		       -EINVAL, "scn_flavours_check: refused");
		is_int(errs.n, 1, "scn_flavours_check: one error");
		ok(errs.n == 1 && strncmp(errs.msgs[0], want, strlen(want)) == 0 &&
			   strstr(errs.msgs[0], "vla"),
		   "scn_flavours_check: file, path, the unknown name and the known ones");
		if (errs.n)
			printf("# %s\n", errs.msgs[0]);
		set.n = 1;
		scn_errors_free(&errs);
		is_int(scn_flavours_check(&set, VLALAB_SRCDIR "/kernel", &errs),
		       0, "scn_flavours_check: vla is a flavour");
		set.n = 2;
		scn_set_free(&set);
	}
	scn_errors_free(&errs);
	r = scn_load_file(num, "gen/flavour", &s, &errs);
	is_int(r, -EINVAL, "flavour: a number is refused");
	if (r == 0)
		scn_free(&s);
	ok(errs.n == 1 && strstr(errs.msgs[0], "$.flavour: "),
	   "flavour: the error names $.flavour");
	for (size_t i = 0; i < errs.n; i++)
		printf("# %s\n", errs.msgs[i]);
	scn_errors_free(&errs);
	unlink(num);
	free(num);
	free(want);
	free(dir);
}

int main(int argc, char *argv[])
{
	scn_test_args(argc, argv);
	test_requires();
	test_flavour();
	return tap_done();
}
