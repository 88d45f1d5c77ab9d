// SPDX-License-Identifier: GPL-2.0-only
/*
 * The options that several verbs share (options.h): each one's getopt row
 * and usage line, in one table.
 */
#include <stdio.h>

#include "cli/options.h"
#include "results/store.h"

struct cli_opt_def {
	struct option row;
	const char *usage; /* its lines in a verb's help, or NULL */
};

static const struct cli_opt_def defs[] = {
	{ { "help", no_argument, NULL, CLI_OPT_HELP },
	  "  --help            show this help\n" },
	{ { "cache", required_argument, NULL, CLI_OPT_CACHE },
	  "  --cache DIR       the cache (default: $VLALAB_CACHE or ~/.cache/vlalab)\n" },
	{ { "connect", required_argument, NULL, CLI_OPT_CONNECT },
	  "  --connect URI[,jobs=N]\n"
	  "                    libvirt URI (default: $LIBVIRT_DEFAULT_URI, else\n"
	  "                    qemu:///embed?root=CACHE/libvirt; 'embedded': that\n"
	  "                    one), with up to N VMs at once on it (default: -j)\n" },
	{ { "hosts", required_argument, NULL, CLI_OPT_HOSTS },
	  "  --hosts FILE      the libvirt hosts, one a line: a URI (or\n"
	  "                    'embedded') and its job count; # comments\n" },
	{ { "kernel-dir", required_argument, NULL, CLI_OPT_KERNEL_DIR },
	  "  --kernel-dir DIR  patches/ and configs/ of the kernel to build\n"
	  "                    (default: the repository's kernel/)\n" },
	{ { "flavour", required_argument, NULL, CLI_OPT_FLAVOUR },
	  "  --flavour NAME    the kernel flavour: patched (default), vanilla, or\n"
	  "                    a folder of kernel/flavours/, e.g. debug (KASAN,\n"
	  "                    kmemleak, lockdep, SLUB debugging); without it, a\n"
	  "                    scenario naming a flavour runs on that flavour's\n"
	  "                    build, with it such a scenario of another skips\n" },
	{ { "line", required_argument, NULL, CLI_OPT_LINE },
	  "  --line LINE       the kernel line: 6.1 (default) or 6.12, Debian's\n"
	  "                    linux-source-LINE with its series\n" },
	{ { "without-patch", required_argument, NULL, CLI_OPT_WITHOUT_PATCH },
	  "  --without-patch NAME\n"
	  "                    build and boot the kernel with this patch of the\n"
	  "                    series left out (file name or unique prefix,\n"
	  "                    e.g. 0001; repeatable)\n" },
	{ { "tree", required_argument, NULL, CLI_OPT_TREE },
	  "  --tree DIR        build your kernel tree (a git checkout, without\n"
	  "                    uncommitted changes, or any folder) with our\n"
	  "                    config fragments, out of tree into the cache\n" },
	{ { "series", no_argument, NULL, CLI_OPT_SERIES },
	  "  --series          with --tree: apply our series to a copy of it\n" },
	{ { "results", required_argument, NULL, CLI_OPT_RESULTS },
	  "  --results DIR  where the runs are (default: $" STORE_ENV "\n"
	  "                 or the cache's results/)\n" },
	{ { "scenarios", required_argument, NULL, CLI_OPT_SCENARIOS },
	  "  --scenarios DIR   the scenario tree (default: " VLALAB_SRCDIR
	  "/scenarios)\n" },
	{ { "output", required_argument, NULL, CLI_OPT_OUTPUT },
	  "  --output DIR      run directory (default: RUN-ID in the results root,\n"
	  "                    $" STORE_ENV " or the cache's results/, with\n"
	  "                    latest there)\n" },
	{ { "accel", required_argument, NULL, CLI_OPT_ACCEL },
	  "  --accel ACCEL     auto, kvm or tcg (default: auto)\n" },
	{ { "machine", required_argument, NULL, CLI_OPT_MACHINE },
	  "  --machine M       QEMU's machine type for the VMs, q35 or pc\n"
	  "                    (default: q35); a scenario's boot may name\n"
	  "                    its own\n" },
	{ { "image", required_argument, NULL, CLI_OPT_IMAGE },
	  "  --image cloud:PATH\n"
	  "                    boot every VM from this cloud image (a qcow2, e.g.\n"
	  "                    Debian's genericcloud) through a qcow2 overlay, with\n"
	  "                    the kernel's modules on a disk and guestd installed\n"
	  "                    by cloud-init (docs/repro.md, \"Cloud images\");\n"
	  "                    scenarios with boots or a disk skip\n" },
	{ { "junit", required_argument, NULL, CLI_OPT_JUNIT },
	  "  --junit FILE      also write the results as JUnit XML\n" },
	{ { "kcidb", required_argument, NULL, CLI_OPT_KCIDB },
	  "  --kcidb FILE      also write them as KCIDB 5.3 JSON (hostctl export)\n" },
	{ { "no-restore", no_argument, NULL, CLI_OPT_NO_RESTORE },
	  "  --no-restore      boot every fresh VM rather than restore it from\n"
	  "                    the image of a guest saved right after its hello\n"
	  "                    (docs/performance.md, \"Restored VMs\")\n" },
};

#define N_DEFS (sizeof(defs) / sizeof(defs[0]))

static const struct cli_opt_def *find(enum cli_opt id)
{
	for (size_t i = 0; i < N_DEFS; i++)
		if (defs[i].row.val == (int)id)
			return &defs[i];
	return NULL;
}

void cli_opts_table(const enum cli_opt *ids, const struct option *own,
		    struct option *ret)
{
	size_t n = 0;

	for (; *ids != CLI_OPT_END && n < CLI_OPTS_MAX - 1; ids++) {
		const struct cli_opt_def *d = find(*ids);

		if (d)
			ret[n++] = d->row;
	}
	for (; own && own->name && n < CLI_OPTS_MAX - 1; own++)
		ret[n++] = *own;
	ret[n] = (struct option){ 0 };
}

void cli_opt_usage(FILE *f, enum cli_opt id)
{
	const struct cli_opt_def *d = find(id);

	if (d && d->usage)
		fputs(d->usage, f);
}
