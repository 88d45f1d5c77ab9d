// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl gc --keep N: remove all but the newest N stored runs, so that a
 * nightly lab does not fill its disk. Only run directories (a directory
 * of the results folder with a summary.json) are removed, never the one
 * results/latest points to.
 *
 * hostctl gc --cache --keep N: remove the kernel builds and guest images
 * of the cache that the newest N runs of its usage log (kbuild/uses.c)
 * did not use, largest first, each under its lock (docs/nightly.md).
 *
 * hostctl gc --connect URI: remove the volumes that dead runs of this
 * machine's left in a libvirt host's pool "vlalab" (pool_reap(),
 * docs/scale.md).
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kbuild.h"
#include "results/results.h"
#include "results/store.h"
#include "cli/options.h"
#include "cli/verbs.h"
#include "results/rundir.h"
#include "vm/owner.h"
#include "vm/pool.h"
#include "vm/snapshot.h"
#include "vm/vm.h"

static void gc_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl gc --keep N [--dry-run] [--results DIR]\n"
		"       hostctl gc --cache [DIR] --keep N [--dry-run] [--results DIR]\n"
		"       hostctl gc --connect URI [--dry-run]\n"
		"\n"
		"Remove all but the newest N stored runs of the results root (and\n"
		"never the one its latest points to).\n"
		"\n"
		"With --cache, remove instead the kernel builds and guest images\n"
		"of the cache (DIR, else $VLALAB_CACHE or ~/.cache/vlalab) that\n"
		"the newest N runs in its usage log did not use, largest first.\n"
		"The log counts the runs of every checkout and results folder\n"
		"sharing the cache. Kept too: what was used in the last hour,\n"
		"what a running hostctl holds, latest's build and image,\n"
		"and what the log never names unless it is older than the kept\n"
		"runs. The object and source trees are reported, not removed.\n"
		"The saved guests fresh VMs are restored from all go, but one a\n"
		"running hostctl holds: the next run makes them again.\n"
		"\n"
		"With --connect, remove instead what runs of this machine that\n"
		"were killed left in the libvirt host's storage pool 'vlalab'\n"
		"(cloud VMs' overlays, memory dumps, uploads cut short); the\n"
		"files named by their content stay, and so does what another\n"
		"machine's runs made. A run does this too when it opens the pool.\n"
		"\n"
		"  --keep N       the runs to keep, newest first (required, but\n"
		"                 with --connect)\n"
		"  --cache        the cache's builds and images, not the runs\n"
		"  --connect URI  a libvirt host's pool, not the runs\n"
		"  --dry-run      say what would go, remove nothing\n");
	cli_opt_usage(f, CLI_OPT_RESULTS);
	fputs("  --help         show this help\n"
	      "\n"
	      "Exit codes: 0 done, 2 usage or something that could not be\n"
	      "removed.\n",
	      f);
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

/* Kept for anything used within this many seconds. */
#define RECENT_S 3600

#define MIB(b) ((double)(b) / (1 << 20))

static uint64_t du_bytes;
static time_t du_mtime;

static int du_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)path;
	(void)flag;
	(void)ftw;
	du_bytes += (uint64_t)st->st_blocks * 512;
	if (st->st_mtime > du_mtime)
		du_mtime = st->st_mtime;
	return 0;
}

/* The bytes under @path and its newest mtime. 0 or -errno. */
static int du(const char *path, uint64_t *ret_bytes, time_t *ret_mtime)
{
	int r;

	du_bytes = 0;
	du_mtime = 0;
	r = nftw(path, du_one, 16, FTW_PHYS);
	if (r != 0)
		return r < 0 && errno ? -errno : -EIO;
	*ret_bytes = du_bytes;
	*ret_mtime = du_mtime;
	return 0;
}

/* A build or image of the cache: "builds/<key>" or "images/<key>". */
struct entry {
	char name[8 + KBUILD_CACHE_KEY_MAX];
	const char *kind; /* "build" or "image" */
	uint64_t bytes;
	time_t mtime;
};

/* The key of @e: its name after the slash. */
static const char *key_of(const struct entry *e)
{
	return strchr(e->name, '/') + 1;
}

/* What the log and results/latest say to keep. */
struct keep {
	const struct kbuild_cache_use *u;
	size_t n;
	const char **runs; /* the newest N runs of the log */
	size_t nruns;
	bool full; /* the log holds N runs: what only older ones used goes */
	time_t cutoff; /* before the kept runs and the last hour */
	const char *latest_run, *latest_build; /* or NULL */
};

static bool run_kept(const struct keep *k, const char *run)
{
	for (size_t i = 0; i < k->nruns; i++)
		if (!strcmp(k->runs[i], run))
			return true;
	return false;
}

/* Why @e stays, or NULL when it goes; *ret_logged: the log names it. */
static const char *why_kept(const struct keep *k, const struct entry *e,
			    time_t now, bool *ret_logged)
{
	bool build = !strcmp(e->kind, "build"), logged = false;

	if (build && k->latest_build && !strcmp(key_of(e), k->latest_build))
		return "results/latest's build";
	for (size_t i = 0; i < k->n; i++) {
		const struct kbuild_cache_use *u = &k->u[i];

		if (u->build != build || strcmp(u->key, key_of(e)))
			continue;
		*ret_logged = logged = true;
		if (u->when > now - RECENT_S)
			return "used in the last hour";
		if (k->latest_run && !strcmp(u->run, k->latest_run))
			return "used by results/latest's run";
		if (run_kept(k, u->run))
			return "used by a kept run";
	}
	if (!logged && !k->full)
		return "not in the log, which holds fewer than N runs";
	if (!logged && e->mtime >= k->cutoff)
		return "not in the log, and not older than the kept runs";
	return NULL;
}

/* The newest N runs of the log (a run: the uses of one run id), and the
 * cutoff before them. */
static int keep_runs(struct keep *k, long keep, time_t now)
{
	k->cutoff = now - RECENT_S;
	k->runs = calloc(keep ? keep : 1, sizeof(*k->runs));
	if (!k->runs)
		return -ENOMEM;
	for (size_t i = k->n; i-- > 0;) {
		if (run_kept(k, k->u[i].run))
			continue;
		if (k->nruns == (size_t)keep)
			break;
		k->runs[k->nruns++] = k->u[i].run;
	}
	k->full = k->nruns == (size_t)keep;
	for (size_t i = 0; i < k->n; i++)
		if (run_kept(k, k->u[i].run) && k->u[i].when < k->cutoff)
			k->cutoff = k->u[i].when;
	return 0;
}

/* Adds the builds or images of @cache/@sub to *@v. 0 or -errno. */
static int list_entries(const char *cache, const char *sub, const char *kind,
			struct entry **v, size_t *n)
{
	char dir[PATH_MAX], path[PATH_MAX + 256];
	struct dirent *d;
	struct stat st;
	DIR *dh;
	int r = 0;

	snprintf(dir, sizeof(dir), "%s/%s", cache, sub);
	dh = opendir(dir);
	if (!dh)
		return errno == ENOENT ? 0 : -errno;
	while (r == 0 && (d = readdir(dh))) {
		struct entry *e;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode) ||
		    !kbuild_cache_name_ok(d->d_name, KBUILD_CACHE_KEY_MAX)) {
			printf("left alone: %s/%s (no build or image)\n", sub,
			       d->d_name);
			continue;
		}
		e = realloc(*v, (*n + 1) * sizeof(**v));
		if (!e) {
			r = -ENOMEM;
			break;
		}
		*v = e;
		e = &e[(*n)++];
		if (snprintf(e->name, sizeof(e->name), "%s/%s", sub,
			     d->d_name) >= (int)sizeof(e->name)) {
			r = -ENAMETOOLONG;
			break;
		}
		e->kind = kind;
		r = du(path, &e->bytes, &e->mtime);
	}
	closedir(dh);
	return r;
}

static int by_size(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	return x->bytes < y->bytes ? 1 : x->bytes > y->bytes ? -1 : 0;
}

/* Renames @e aside (a clean miss at once), then removes it. 0 or -errno. */
static int remove_entry(const char *cache, const struct entry *e)
{
	char path[PATH_MAX], aside[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", cache, e->name) >=
		    (int)sizeof(path) ||
	    snprintf(aside, sizeof(aside), "%s/%.6s/.gc-%s", cache, e->name,
		     key_of(e)) >= (int)sizeof(aside))
		return -ENAMETOOLONG;
	if (rename(path, aside) < 0)
		return -errno;
	return rm_tree(aside);
}

/* What an earlier gc renamed aside and could not remove. */
static int remove_leftovers(const char *cache, const char *sub, bool dry)
{
	char path[PATH_MAX + 256];
	struct dirent *d;
	DIR *dh;
	int r, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", cache, sub);
	dh = opendir(path);
	if (!dh)
		return 0;
	while ((d = readdir(dh))) {
		if (strncmp(d->d_name, ".gc-", 4))
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s", cache, sub, d->d_name);
		r = dry ? 0 : rm_tree(path);
		if (r < 0) {
			fprintf(stderr, "hostctl gc: removing '%s': %s\n", path,
				strerror(-r));
			ret = r;
			continue;
		}
		printf("%s %s (left over from an earlier gc)\n",
		       dry ? "would remove" : "removed", path);
	}
	closedir(dh);
	return ret;
}

static int not_hidden(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* The flavours' and user trees' object and source trees, sizes only, by
 * name. */
static void report_trees(const char *cache)
{
	static const char *const subs[] = { "obj", "trees" };
	char path[PATH_MAX + 256];
	uint64_t bytes, total = 0;
	struct dirent **d;
	time_t mtime;
	int n;

	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", cache, subs[i]);
		n = scandir(path, &d, not_hidden, alphasort);
		for (int j = 0; j < n; j++) {
			if (snprintf(path, sizeof(path), "%s/%s/%s", cache,
				     subs[i],
				     d[j]->d_name) >= (int)sizeof(path) ||
			    du(path, &bytes, &mtime) < 0) {
				printf("tree     %s/%s: cannot be read\n",
				       subs[i], d[j]->d_name);
			} else {
				printf("tree     %s/%s %.1f MiB\n", subs[i],
				       d[j]->d_name, MIB(bytes));
				total += bytes;
			}
			free(d[j]);
		}
		if (n >= 0)
			free(d);
	}
	printf("left alone: %.1f MiB of object and source trees (obj/, trees/): what the next build of their flavour or --tree starts from\n",
	       MIB(total));
}

/* hostctl gc --cache: see the top of the file. */
/*
 * The saved images fresh VMs are restored from (vm/snapshot.c,
 * <cache>/snapshots): each is one boot's worth of work that the next run
 * needing it makes again, and their keys change with every kernel, image
 * and domain, so old ones only take room (60 MiB each). All go but those a
 * running hostctl holds (its slot's lock, shared or exclusive). Adds what
 * went to *@gone and *@bytes; 0, or -errno for an image that would not go.
 */
static int gc_snapshots(const char *cache, bool dry, size_t *gone,
			uint64_t *bytes)
{
	char dir[PATH_MAX], key[65];
	struct snapshot_slot sl;
	struct dirent *d;
	struct stat st;
	unsigned int slot;
	int r, ret = 0;
	DIR *dh;

	if (snapshot_dir(cache, dir, sizeof(dir)) < 0)
		return -ENAMETOOLONG;
	dh = opendir(dir);
	if (!dh)
		return errno == ENOENT ? 0 : -errno;
	while ((d = readdir(dh))) {
		char tail[8];

		if (sscanf(d->d_name, "%64[0-9a-f]-%u.%7s", key, &slot, tail) !=
			    3 ||
		    strcmp(tail, "save") != 0 ||
		    snapshot_slot(dir, key, slot, &sl) < 0 ||
		    strcmp(strrchr(sl.path, '/') + 1, d->d_name) != 0)
			continue;
		if (stat(sl.path, &st) < 0)
			continue;
		r = snapshot_lock(&sl, true);
		if (r == -EWOULDBLOCK) {
			printf("keep     snapshots/%s %.1f MiB: in use by a running hostctl\n",
			       d->d_name, MIB((uint64_t)st.st_size));
			continue;
		}
		if (r == 0 && !dry && unlink(sl.path) < 0)
			r = -errno;
		if (r == 0 && !dry)
			unlink(sl.lock);
		snapshot_unlock(&sl);
		if (r < 0) {
			fprintf(stderr, "hostctl gc: removing '%s': %s\n",
				sl.path, strerror(-r));
			ret = r;
			continue;
		}
		printf("%s snapshots/%s %.1f MiB (a saved guest: remade when needed)\n",
		       dry ? "would remove" : "removed ", d->d_name,
		       MIB((uint64_t)st.st_size));
		*bytes += (uint64_t)st.st_size;
		++*gone;
	}
	closedir(dh);
	return ret;
}

static int gc_cache(const char *cache, const char *results, long keep, bool dry)
{
	char path[PATH_MAX + 64], latest[PATH_MAX], err[512];
	struct keep k = { 0 };
	struct entry *v = NULL;
	struct res_run run = { 0 };
	struct kbuild_cache_use *u = NULL;
	size_t n = 0, line, gone = 0;
	uint64_t freed_bytes = 0;
	time_t now = time(NULL);
	bool have_run = false;
	ssize_t ll;
	int r, r2, fd, ret = EXIT_GREEN;

	r = kbuild_cache_uses_read(cache, &u, &k.n, &line);
	if (r == -EBADMSG) {
		fprintf(stderr,
			"hostctl gc: %s/%s:%zu: not a use (time kind key run); nothing removed\n",
			cache, KBUILD_CACHE_USES, line);
		return EXIT_SETUP;
	}
	if (r < 0 && r != -ENOENT) {
		fprintf(stderr, "hostctl gc: %s/%s: %s\n", cache,
			KBUILD_CACHE_USES, strerror(-r));
		return EXIT_SETUP;
	}
	k.u = u;
	r = keep_runs(&k, keep, now);
	snprintf(path, sizeof(path), "%s/" RUNDIR_LATEST, results);
	ll = readlink(path, latest, sizeof(latest) - 1);
	if (r == 0 && ll > 0) {
		latest[ll] = '\0';
		k.latest_run = strrchr(latest, '/') ? strrchr(latest, '/') + 1 :
						      latest;
		have_run = store_read_run(path, &run, err, sizeof(err)) == 0;
		if (have_run && *res_kernel_str(&run, "key"))
			k.latest_build = res_kernel_str(&run, "key");
	}
	if (r == 0)
		printf("keeping what the newest %zu run%s of %s/%s used%s\n",
		       k.nruns, k.nruns == 1 ? "" : "s", cache,
		       KBUILD_CACHE_USES,
		       k.full ? "" : " (all the runs it holds)");
	if (r == 0)
		r = list_entries(cache, "builds", "build", &v, &n);
	if (r == 0)
		r = list_entries(cache, "images", "image", &v, &n);
	if (r < 0) {
		fprintf(stderr, "hostctl gc: reading the cache '%s': %s\n",
			cache, strerror(-r));
		ret = EXIT_SETUP;
		goto out;
	}
	/* First, so that a key renamed aside again finds the place free. */
	if (remove_leftovers(cache, "builds", dry) < 0 ||
	    remove_leftovers(cache, "images", dry) < 0)
		ret = EXIT_SETUP;
	qsort(v, n, sizeof(*v), by_size);
	for (size_t i = 0; i < n; i++) {
		bool logged = false;
		const char *why = why_kept(&k, &v[i], now, &logged);

		if (why) {
			printf("keep     %s %.1f MiB: %s\n", v[i].name,
			       MIB(v[i].bytes), why);
			continue;
		}
		fd = -1;
		r = kbuild_cache_lock(cache, v[i].kind, key_of(&v[i]), !dry,
				      &fd);
		if (r == -EWOULDBLOCK) {
			printf("keep     %s %.1f MiB: in use by a running hostctl\n",
			       v[i].name, MIB(v[i].bytes));
			continue;
		}
		if (r < 0)
			fprintf(stderr,
				"hostctl gc: '%s/%s': cannot take its lock: %s\n",
				cache, v[i].name, strerror(-r));
		else if (!dry && (r = remove_entry(cache, &v[i])) < 0)
			fprintf(stderr, "hostctl gc: removing '%s/%s': %s\n",
				cache, v[i].name, strerror(-r));
		r2 = fd < 0 ? 0 :
			      kbuild_cache_unlock(cache, v[i].kind,
						  key_of(&v[i]), fd,
						  r == 0 && !dry);
		if (r2 < 0) {
			fprintf(stderr,
				"hostctl gc: '%s/%s': cannot remove its lock file: %s\n",
				cache, v[i].name, strerror(-r2));
			ret = EXIT_SETUP;
		}
		if (r < 0) {
			ret = EXIT_SETUP;
			continue;
		}
		printf("%s %s %.1f MiB%s\n", dry ? "would remove" : "removed ",
		       v[i].name, MIB(v[i].bytes),
		       logged ? "" :
				" (not in the log, older than the kept runs)");
		freed_bytes += v[i].bytes;
		gone++;
	}
	report_trees(cache);
	printf("%s %zu of %zu builds and images in %s, %.1f MiB%s\n",
	       dry ? "would remove" : "removed", gone, n, cache,
	       MIB(freed_bytes), dry ? "" : " freed");
	gone = 0;
	freed_bytes = 0;
	if (gc_snapshots(cache, dry, &gone, &freed_bytes) < 0)
		ret = EXIT_SETUP;
	if (gone)
		printf("%s %zu saved guest%s, %.1f MiB%s\n",
		       dry ? "would remove" : "removed", gone,
		       gone == 1 ? "" : "s", MIB(freed_bytes),
		       dry ? "" : " freed");
out:
	if (have_run)
		res_run_free(&run);
	free(k.runs);
	free(u);
	free(v);
	if (fflush(stdout) != 0)
		ret = EXIT_SETUP;
	return ret;
}
/* What hostctl gc --connect saw: --dry-run, and the volumes that stayed. */
struct gc_pool {
	bool dry;
	unsigned int failed;
};

static void say_volume(const char *vol, const struct owner *o,
		       const char *failed, void *data)
{
	struct gc_pool *g = data;

	if (failed) {
		fprintf(stderr,
			"hostctl gc: volume '%s': cannot delete it: %s\n", vol,
			failed);
		g->failed++;
		return;
	}
	if (o->pid)
		printf("%s volume %s (of a dead hostctl, pid %d)\n",
		       g->dry ? "would remove" : "removed ", vol, (int)o->pid);
	else
		printf("%s volume %s (an upload cut short)\n",
		       g->dry ? "would remove" : "removed ", vol);
}

/* hostctl gc --connect: see the top of the file. */
static int gc_pool(const char *uri, bool dry)
{
	struct gc_pool g = { .dry = dry };
	struct vm_host *h;
	struct owner self;
	char err[1024];
	int r;

	r = owner_self("", &self);
	if (r < 0) {
		fprintf(stderr,
			"hostctl gc: who am I (/proc/self/stat, hostname): %s\n",
			strerror(-r));
		return EXIT_SETUP;
	}
	r = vm_host_open(uri, &h, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "hostctl gc: libvirt '%s': %s\n", uri, err);
		return EXIT_SETUP;
	}
	r = pool_reap(h, self.host, dry, say_volume, &g, err, sizeof(err));
	vm_host_close(h);
	if (r < 0) {
		fprintf(stderr, "hostctl gc: libvirt '%s': %s\n", uri, err);
		return EXIT_SETUP;
	}
	printf("%s %d volume%s of dead runs in the pool '" POOL_NAME
	       "' of '%s'\n",
	       dry ? "would remove" : "removed", r, r == 1 ? "" : "s", uri);
	if (fflush(stdout) != 0)
		return EXIT_SETUP;
	return g.failed ? EXIT_SETUP : EXIT_GREEN;
}

/* Its options (the verb table's row, below, has them too). */
static const enum cli_opt shared[] = {
	CLI_OPT_RESULTS,
	CLI_OPT_HELP,
	CLI_OPT_END,
};

static const struct option own[] = {
	{ "keep", required_argument, NULL, 'k' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "cache", no_argument, NULL, 'C' },
	{ "connect", required_argument, NULL, 'c' },
	{ 0 },
};

int verb_gc(int argc, char *argv[])
{
	struct option opts[CLI_OPTS_MAX];
	const char *results = NULL, *connect = NULL;
	char root[PATH_MAX], **names, dir[PATH_MAX], latest[PATH_MAX], *end;
	long keep = -1;
	bool dry = false, cache = false;
	size_t n, removed = 0;
	ssize_t ll;
	int c, r, ret = EXIT_GREEN;

	cli_opts_table(shared, own, opts);
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
		case CLI_OPT_RESULTS:
			results = optarg;
			break;
		case 'C':
			cache = true;
			break;
		case 'c':
			connect = optarg;
			break;
		case CLI_OPT_HELP:
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
	if (connect) {
		if (keep >= 0 || cache || optind < argc) {
			fprintf(stderr,
				"hostctl gc: --connect goes without --keep, --cache and a folder\n");
			return EXIT_SETUP;
		}
		return gc_pool(connect, dry);
	}
	if (keep < 0) {
		fprintf(stderr,
			"hostctl gc: give --keep N, the number of runs to keep\n");
		return EXIT_SETUP;
	}
	if (optind < argc && !cache) {
		fprintf(stderr,
			"hostctl gc: '%s': a folder goes with --cache only\n",
			argv[optind]);
		return EXIT_SETUP;
	}
	if (cache) {
		if (optind < argc)
			r = snprintf(dir, sizeof(dir), "%s", argv[optind]) >=
					    (int)sizeof(dir) ?
				    -ENAMETOOLONG :
				    0;
		else
			r = kbuild_cache_dir(dir, sizeof(dir));
		if (r < 0) {
			fprintf(stderr, "hostctl gc: the cache folder: %s\n",
				strerror(-r));
			return EXIT_SETUP;
		}
		r = store_root(results, root, sizeof(root));
		if (r < 0) {
			fprintf(stderr, "hostctl gc: the results root: %s\n",
				strerror(-r));
			return EXIT_SETUP;
		}
		return gc_cache(dir, root, keep, dry);
	}
	r = store_list_root(results, root, sizeof(root), &names, &n);
	if (r < 0) {
		fprintf(stderr, "hostctl gc: the results root '%s': %s\n", root,
			strerror(-r));
		return EXIT_SETUP;
	}
	results = root;
	ll = snprintf(dir, sizeof(dir), "%s/" RUNDIR_LATEST, results) >=
			     (int)sizeof(dir) ?
		     -1 :
		     readlink(dir, latest, sizeof(latest) - 1);
	latest[ll > 0 ? ll : 0] = '\0';
	for (size_t i = 0; i + (size_t)keep < n; i++) {
		if (!strcmp(names[i], latest))
			continue;
		if (snprintf(dir, sizeof(dir), "%s/%s", results, names[i]) >=
		    (int)sizeof(dir))
			continue;
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
	.max_args = 1,
	.fn = verb_gc,
	.usage = "[--cache [DIR]] --keep N [OPTIONS]",
	.summary =
		"remove old runs, unused builds and images, or dead runs' pool volumes",
	.shared = shared,
	.own = own,
	.optstring = "h",
};
