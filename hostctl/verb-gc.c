// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl gc --keep N: remove all but the newest N stored runs, so that a
 * nightly lab does not fill its disk. Only run directories (a directory
 * of the results folder with a summary.json) are removed, never the one
 * results/latest points to.
 */
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "store.h"
#include "verbs.h"

static void gc_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl gc --keep N [--dry-run] [--results DIR]\n"
		"\n"
		"Remove all but the newest N stored runs (and never the one\n"
		"results/latest points to).\n"
		"\n"
		"  --keep N       the runs to keep, newest first (required)\n"
		"  --dry-run      say what would go, remove nothing\n"
		"  --results DIR  where the runs are (default: " STORE_DEFAULT_DIR
		")\n"
		"  --help         show this help\n"
		"\n"
		"Exit codes: 0 done, 2 usage or a run that could not be removed.\n");
}

static uint64_t freed;

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	if (flag == FTW_DP) {
		if (rmdir(path) < 0)
			return -errno;
		return 0;
	}
	freed += (uint64_t)st->st_blocks * 512;
	return unlink(path) < 0 ? -errno : 0;
}

/* rm -r @dir, not following symbolic links. 0 or -errno. */
static int rm_tree(const char *dir)
{
	int r = nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);

	return r > 0 ? -EIO : r < 0 ? (errno ? -errno : -EIO) : r;
}

int verb_gc(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "keep", required_argument, NULL, 'k' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "results", required_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *results = STORE_DEFAULT_DIR;
	char **names, dir[PATH_MAX], latest[PATH_MAX], *end;
	long keep = -1;
	bool dry = false;
	size_t n, removed = 0;
	ssize_t ll;
	int c, r, ret = EXIT_GREEN;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) >= 0) {
		switch (c) {
		case 'k':
			errno = 0;
			keep = strtol(optarg, &end, 10);
			if (*optarg < '0' || *optarg > '9' || errno || *end ||
			    keep > 1000000) {
				fprintf(stderr,
					"hostctl gc: --keep '%s': give a number of runs\n",
					optarg);
				return EXIT_SETUP;
			}
			break;
		case 'n':
			dry = true;
			break;
		case 'R':
			results = optarg;
			break;
		case 'h':
			gc_usage(stdout);
			return EXIT_GREEN;
		default:
			gc_usage(stderr);
			return EXIT_SETUP;
		}
	}
	r = verb_check_nargs(&verb_gc_def, argc - optind);
	if (r)
		return r;
	if (keep < 0) {
		fprintf(stderr,
			"hostctl gc: give --keep N, the number of runs to keep\n");
		return EXIT_SETUP;
	}
	r = store_list(results, &names, &n);
	if (r < 0) {
		fprintf(stderr, "hostctl gc: '%s': %s\n", results,
			strerror(-r));
		return EXIT_SETUP;
	}
	snprintf(dir, sizeof(dir), "%s/latest", results);
	ll = readlink(dir, latest, sizeof(latest) - 1);
	latest[ll > 0 ? ll : 0] = '\0';
	for (size_t i = 0; i + (size_t)keep < n; i++) {
		if (!strcmp(names[i], latest))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", results, names[i]);
		if (dry) {
			printf("would remove %s\n", dir);
			removed++;
			continue;
		}
		r = rm_tree(dir);
		if (r < 0) {
			fprintf(stderr, "hostctl gc: removing '%s': %s\n", dir,
				strerror(-r));
			ret = EXIT_SETUP;
			continue;
		}
		printf("removed %s\n", dir);
		removed++;
	}
	printf("%s %zu of %zu run%s in %s", dry ? "would remove" : "removed",
	       removed, n, n == 1 ? "" : "s", results);
	if (!dry)
		printf(", %.1f MiB freed", (double)freed / (1 << 20));
	putchar('\n');
	store_list_free(names, n);
	if (fflush(stdout) != 0)
		ret = EXIT_SETUP;
	return ret;
}

/* Its row in the verb table (main.c). */
const struct verb verb_gc_def = {
	.name = "gc",
	.min_args = 0,
	.max_args = 0,
	.fn = verb_gc,
	.usage = "--keep N [--dry-run] [--results DIR]",
	.summary = "remove all but the newest N stored runs",
};
