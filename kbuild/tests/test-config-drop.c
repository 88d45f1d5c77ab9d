// SPDX-License-Identifier: GPL-2.0-only
/*
 * The config check on the real tree: a fragment asking for an option that
 * olddefconfig drops (BRIDGE_VLAN_FILTERING without VLAN_8021Q) must fail,
 * naming the fragment line, the option and its Kconfig depends on. The real
 * fragments must verify, and so must the debug flavour's. Flavour names are
 * checked. Uses the user's cache (VLALAB_CACHE respected) and
 * its tree, with its own object tree, obj/kbuild-test-config.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"
#include "tap.h"

#ifndef VLALAB_SRCDIR
#error "VLALAB_SRCDIR must be defined by the build"
#endif

static int run(char *const argv[])
{
	pid_t pid;
	int r = kb_spawn(argv, NULL, -1, -1, 2, &pid);

	return r < 0 ? r : kb_wait(pid, NULL);
}

static int config_only_flavour(const char *kernel_dir, const char *flavour, const char *obj, char **ret_msg,
			       struct kbuild_result *res)
{
	size_t len = 0;
	FILE *msg = open_memstream(ret_msg, &len);
	int r;

	r = kbuild_run(&(struct kbuild_opts){
			       .kernel_dir = kernel_dir,
			       .flavour = flavour,
			       .config_only = true,
			       .obj_dir = obj,
			       .msg = msg,
		       },
		       res);
	fclose(msg);
	return r;
}

static int config_only(const char *kernel_dir, const char *obj, char **ret_msg, struct kbuild_result *res)
{
	return config_only_flavour(kernel_dir, NULL, obj, ret_msg, res);
}

/* Flavour names: the built-in two, kernel/flavours/<name>/, nothing else. */
static void test_flavour_check(const char *kdir)
{
	char err[512] = "";

	okf(kbuild_flavour_check(kdir, "patched", err, sizeof(err)) == 0 &&
		    kbuild_flavour_check(kdir, "vanilla", err, sizeof(err)) == 0,
	    "patched and vanilla are flavours");
	okf(kbuild_flavour_check(VLALAB_SRCDIR "/kernel", "debug", err, sizeof(err)) == 0,
	    "the repository has the debug flavour");
	okf(kbuild_flavour_check(VLALAB_SRCDIR "/kernel", "nosuch", err, sizeof(err)) == -EINVAL &&
		    strstr(err, "unknown flavour 'nosuch'") && strstr(err, "known: patched, vanilla, debug"),
	    "an unknown flavour is refused, listing the known ones: %s", err);
	okf(kbuild_flavour_check(VLALAB_SRCDIR "/kernel", "../configs", err, sizeof(err)) == -EINVAL &&
		    strstr(err, "bad flavour name"),
	    "a flavour name cannot leave kernel/flavours: %s", err);
	okf(kbuild_flavour_check(kdir, "debug", err, sizeof(err)) == -EINVAL,
	    "a kernel dir without flavours/ has only the built-in two");
}

int main(void)
{
	char tmp[] = "/tmp/kbuild-test-config-XXXXXX";
	char cache[PATH_MAX], obj[PATH_MAX], kdir[PATH_MAX], path[PATH_MAX];
	struct kbuild_result res;
	struct stat st;
	char *msg = NULL;
	int r;

	if (stat(KBUILD_DEFAULT_TARBALL, &st) < 0) {
		printf("1..0 # SKIP no %s (install linux-source-6.1)\n", KBUILD_DEFAULT_TARBALL);
		return 77;
	}
	if (kbuild_cache_dir(cache, sizeof(cache)) < 0 || !mkdtemp(tmp)) {
		printf("Bail out! no cache dir or temp dir\n");
		return 1;
	}
	if (kb_path(obj, sizeof(obj), "%s/obj/kbuild-test-config", cache) < 0 ||
	    kb_path(kdir, sizeof(kdir), "%s/kernel", tmp) < 0 ||
	    kb_path(path, sizeof(path), "%s/configs", kdir) < 0 || kb_mkdir_p(path, 0755) < 0) {
		printf("Bail out! paths\n");
		return 1;
	}
	/* The real series (so the shared tree keeps its patches), the real
	 * base.config, and one fragment that cannot be satisfied. */
	{
		char *cp[] = { "cp", "-a", VLALAB_SRCDIR "/kernel/patches", kdir, NULL };
		char *cpb[] = { "cp", VLALAB_SRCDIR "/kernel/configs/base.config", path, NULL };

		if (run(cp) < 0 || run(cpb) < 0) {
			printf("Bail out! cannot copy %s/kernel\n", VLALAB_SRCDIR);
			return 1;
		}
	}
	if (kb_path(path, sizeof(path), "%s/configs/zz-drop.config", kdir) < 0)
		return 1;
	{
		static const char frag[] = "# Asks for VLAN filtering without 802.1Q: olddefconfig drops it.\n"
					   "CONFIG_BRIDGE=y\n"
					   "# CONFIG_VLAN_8021Q is not set\n"
					   "CONFIG_BRIDGE_VLAN_FILTERING=y\n";

		if (fileio_write_atomic(path, frag, strlen(frag)) < 0)
			return 1;
	}

	test_flavour_check(kdir);
	r = config_only(kdir, obj, &msg, &res);
	okf(r == -EINVAL, "a dropped option fails the config stage (r=%d)", r);
	okf(msg && strstr(msg, "configs/zz-drop.config:4: CONFIG_BRIDGE_VLAN_FILTERING: wanted y, got (absent)"),
	    "the failure names the fragment line, the option, wanted and got");
	okf(msg && strstr(msg, "depends on VLAN_8021Q") && strstr(msg, "VLAN_8021Q=n"),
	    "and its Kconfig depends on, with the value it has");
	okf(msg && strstr(msg, "net/bridge/Kconfig:"), "and where it is defined");
	okf(msg && !strstr(msg, "CONFIG_BRIDGE:"), "a satisfied option is not listed");
	for (char *s = msg ? strtok(msg, "\n") : NULL; s; s = strtok(NULL, "\n"))
		printf("# %s\n", s);
	free(msg);

	/* The real fragments verify. */
	r = config_only(VLALAB_SRCDIR "/kernel", obj, &msg, &res);
	okf(r == 0, "the repository's fragments verify (r=%d)", r);
	if (r < 0)
		for (char *s = msg ? strtok(msg, "\n") : NULL; s; s = strtok(NULL, "\n"))
			printf("# %s\n", s);
	free(msg);

	/* So do the debug flavour's, merged after them: every sanitizer
	 * option it asks for is in its .config. */
	r = config_only_flavour(VLALAB_SRCDIR "/kernel", "debug", obj, &msg, &res);
	okf(r == 0, "the debug flavour's fragments verify (r=%d)", r);
	if (r < 0)
		for (char *s = msg ? strtok(msg, "\n") : NULL; s; s = strtok(NULL, "\n"))
			printf("# %s\n", s);
	free(msg);
	kb_rm_rf(tmp);
	return tap_done();
}
