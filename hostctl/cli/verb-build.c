// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl build: the kernel pipeline (kbuild/). Builds, or finds in the
 * cache, the kernel for a flavour, and with --image the guest initramfs.
 * Exit codes: 0 done, 1 the build failed (a patch, the config check, make),
 * 2 usage or set-up errors (no kernel source, unknown flavour).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kbuild.h"
#include "run/setup.h"
#include "cli/options.h"
#include "cli/verbs.h"

#ifndef VLALAB_SRCDIR
#error "VLALAB_SRCDIR (the repository root) must be defined by the build"
#endif

#define BUILD_WITHOUT_MAX 32

static void build_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl build [OPTIONS]\n"
		"\n"
		"Build the kernel (Debian's linux-source-6.1 or -6.12, the line's patch\n"
		"series and the config fragments) into the cache, or find it there;\n"
		"print where it is.\n"
		"\n"
		"  --cache DIR       the cache (default: $VLALAB_CACHE, else\n"
		"                    ${XDG_CACHE_HOME:-$HOME/.cache}/vlalab)\n"
		"  --kernel-dir DIR  patches/ and configs/ (default: %s/kernel)\n"
		"  --tarball FILE    the kernel source (default: the line's,\n"
		"                    %s for 6.1)\n"
		"  --line LINE       the kernel line: 6.1 (default) or 6.12\n"
		"  --flavour NAME    patched (the series applied, default), vanilla (none),\n"
		"                    or a folder of kernel/flavours/ (e.g. debug: KASAN,\n"
		"                    lockdep, SLUB debugging on the patched tree)\n"
		"  --without-patch NAME\n"
		"                    leave this patch of the series out (its file name\n"
		"                    or a unique prefix such as 0001; repeatable)\n"
		"  --tree DIR        build your kernel tree instead, with our config\n"
		"                    fragments, out of tree into the cache\n"
		"  --series          with --tree: apply our series to a copy of it\n"
		"  -j, --jobs N      parallel make jobs (default: the number of CPUs)\n"
		"  --config-only     stop after the verified .config\n"
		"  --key             print the build's cache key and whether it is\n"
		"                    cached (yes or no); build nothing\n"
		"  --image           also pack the guest initramfs\n"
		"  --guestd FILE     with --image: the agent to install as /sbin/guestd\n"
		"  --extra DIR       with --image: files to copy under / in the image\n"
		"  -q, --quiet       no progress output\n"
		"  --help            show this help\n",
		VLALAB_SRCDIR, KBUILD_DEFAULT_TARBALL);
}

static void print_duration(double s)
{
	if (s < 60)
		printf("%.2fs", s);
	else
		printf("%dm%02ds", (int)s / 60, (int)s % 60);
}

/* Its options (the verb table's row, below, has them too). */
/* build's own options, below CLI_OPT_FIRST (options.h). */
enum {
	OPT_TARBALL = 0x80,
	OPT_CONFIG_ONLY,
	OPT_KEY,
	OPT_IMAGE,
	OPT_GUESTD,
	OPT_EXTRA,
};

static const enum cli_opt shared[] = {
	CLI_OPT_CACHE,	CLI_OPT_KERNEL_DIR,    CLI_OPT_FLAVOUR,
	CLI_OPT_LINE,	CLI_OPT_WITHOUT_PATCH, CLI_OPT_TREE,
	CLI_OPT_SERIES, CLI_OPT_HELP,	       CLI_OPT_END,
};

static const struct option own[] = {
	{ "tarball", required_argument, NULL, OPT_TARBALL },
	{ "jobs", required_argument, NULL, 'j' },
	{ "config-only", no_argument, NULL, OPT_CONFIG_ONLY },
	{ "key", no_argument, NULL, OPT_KEY },
	{ "image", no_argument, NULL, OPT_IMAGE },
	{ "guestd", required_argument, NULL, OPT_GUESTD },
	{ "extra", required_argument, NULL, OPT_EXTRA },
	{ "quiet", no_argument, NULL, 'q' },
	{ 0 },
};

int verb_build(int argc, char *argv[])
{
	struct option opts[CLI_OPTS_MAX];
	struct kbuild_opts ko = {
		.kernel_dir = VLALAB_SRCDIR "/kernel",
		.progress = true,
	};
	struct kbuild_image_opts io = { 0 };
	const char *without[BUILD_WITHOUT_MAX];
	char err[1024];
	struct kbuild_result kr;
	struct kbuild_image_result ir;
	bool image = false;
	char *end;
	int c, r;

	cli_opts_table(shared, own, opts);
	optind = 0;
	while ((c = getopt_long(argc, argv, "j:qh", opts, NULL)) != -1) {
		switch (c) {
		case CLI_OPT_CACHE:
			ko.cache_dir = optarg;
			break;
		case CLI_OPT_KERNEL_DIR:
			ko.kernel_dir = optarg;
			break;
		case OPT_TARBALL:
			ko.tarball = optarg;
			break;
		case CLI_OPT_FLAVOUR:
			ko.flavour = optarg;
			break;
		case CLI_OPT_LINE:
			ko.line = optarg;
			break;
		case 'j':
			errno = 0;
			ko.jobs = (int)strtol(optarg, &end, 10);
			if (errno || *end || ko.jobs < 1 || ko.jobs > 1024) {
				fprintf(stderr,
					"hostctl build: -j wants a number from 1 to 1024, not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case CLI_OPT_TREE:
			ko.tree = optarg;
			break;
		case CLI_OPT_SERIES:
			ko.tree_series = true;
			break;
		case OPT_CONFIG_ONLY:
			ko.config_only = true;
			break;
		case OPT_KEY:
			ko.key_only = true;
			break;
		case OPT_IMAGE:
			image = true;
			break;
		case OPT_GUESTD:
			io.guestd = optarg;
			break;
		case OPT_EXTRA:
			io.extra_dir = optarg;
			break;
		case CLI_OPT_WITHOUT_PATCH:
			if (ko.n_without == BUILD_WITHOUT_MAX) {
				fprintf(stderr,
					"hostctl build: more than %d --without-patch\n",
					BUILD_WITHOUT_MAX);
				return 2;
			}
			without[ko.n_without++] = optarg;
			ko.without = without;
			break;
		case 'q':
			ko.progress = false;
			break;
		case CLI_OPT_HELP:
			build_usage(stdout);
			return 0;
		default:
			build_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr,
			"hostctl build: unexpected argument '%s'; see 'hostctl help build'\n",
			argv[optind]);
		return 2;
	}
	if ((ko.tree_series && !ko.tree) || (ko.tree && ko.flavour) ||
	    (ko.tree && ko.n_without && !ko.tree_series)) {
		fprintf(stderr,
			"hostctl build: --series goes with --tree, --flavour does not, and --without-patch with --tree needs --series\n");
		return 2;
	}
	if (ko.line && kbuild_line_check(ko.line, err, sizeof(err)) < 0) {
		fprintf(stderr, "hostctl build: --line: %s\n", err);
		return 2;
	}
	if (ko.line && ko.tree) {
		fprintf(stderr,
			"hostctl build: --line chooses Debian's source, not a --tree\n");
		return 2;
	}
	if (ko.flavour) {
		r = kbuild_flavour_check(ko.kernel_dir, ko.flavour, err,
					 sizeof(err));
		if (r < 0) {
			fprintf(stderr, "hostctl build: --flavour: %s\n",
				r == -EINVAL ? err : strerror(-r));
			return 2;
		}
	}
	if (ko.n_without && ko.flavour && !strcmp(ko.flavour, "vanilla")) {
		fprintf(stderr,
			"hostctl build: --without-patch goes with a flavour that has the series, not 'vanilla'\n");
		return 2;
	}
	if (ko.n_without) {
		r = kbuild_without_check(ko.kernel_dir, ko.line, ko.without,
					 ko.n_without, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "hostctl build: --without-patch: %s\n",
				err);
			return 2;
		}
	}
	if ((io.guestd || io.extra_dir) && !image) {
		fprintf(stderr,
			"hostctl build: --guestd and --extra go with --image\n");
		return 2;
	}
	if (image && ko.config_only) {
		fprintf(stderr,
			"hostctl build: --image needs a kernel, not --config-only\n");
		return 2;
	}
	if (ko.key_only && (image || ko.config_only)) {
		fprintf(stderr,
			"hostctl build: --key builds nothing: not with --image or --config-only\n");
		return 2;
	}

	r = kbuild_run(&ko, &kr);
	if (r < 0) {
		/* kbuild printed the details; a missing source is set-up. */
		if (r == -EINVAL || r == -EIO)
			fprintf(stderr,
				"hostctl build: the kernel build failed (details above)\n");
		else
			fprintf(stderr,
				"hostctl build: the kernel build failed: %s\n",
				strerror(-r));
		return r == -ENOENT || r == -EACCES ? 2 : 1;
	}
	if (ko.key_only) {
		printf("key: %s\ncached: %s\n", kr.key,
		       kr.cache_hit ? "yes" : "no");
		return 0;
	}
	if (ko.config_only) {
		if (kr.n_missing)
			printf("config: %s (verified, but %zu of the fragments' options %s missing: listed above)\n",
			       kr.config, kr.n_missing,
			       kr.n_missing == 1 ? "is" : "are");
		else
			printf("config: %s (verified)\n", kr.config);
		printf("key: %s\n", kr.key);
		return 0;
	}
	printf("kernel: %s/bzImage (%s", kr.dir,
	       kr.cache_hit ? "cache hit, " : "built in ");
	print_duration(kr.seconds);
	printf(")\nrelease: %s\nkey: %s\nmanifest: %s/manifest.json\n",
	       kr.release, kr.key, kr.dir);
	for (size_t i = 0; i < ko.n_without; i++)
		printf("without: %s\n", ko.without[i]);
	fflush(stdout);
	r = kbuild_evidence_print(kr.dir, stdout);
	if (r < 0) {
		fprintf(stderr,
			"hostctl build: cannot read '%s/manifest.json': %s\n",
			kr.dir, strerror(-r));
		return 1;
	}
	if (!image)
		return 0;

	io.cache_dir = ko.cache_dir;
	io.kernel = &kr;
	io.progress = ko.progress;
	/* The host programs hostctl run puts in every image. */
	io.programs = setup_image_programs;
	io.n_programs = setup_n_image_programs;
	r = kbuild_image_build(&io, &ir);
	if (r < 0) {
		fprintf(stderr, "hostctl build: the initramfs failed: %s\n",
			strerror(-r));
		return r == -ENOENT || r == -EACCES ? 2 : 1;
	}
	printf("image: %s (%.1f MiB%s)\n", ir.path, ir.size / 1048576.0,
	       ir.cache_hit ? ", cache hit" : "");
	return 0;
}

/* Its row in the verb table (main.c). */
const struct verb verb_build_def = {
	.name = "build",
	.min_args = 0,
	.max_args = 0,
	.fn = verb_build,
	.usage = "[OPTIONS]",
	.summary = "build the kernel and the guest image",
	.shared = shared,
	.own = own,
	.optstring = "j:qh",
};
