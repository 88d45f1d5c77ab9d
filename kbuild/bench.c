// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbuild-bench: the kernel pipeline's numbers, in a scratch cache so the
 * user's cache is neither used nor disturbed. Prints the cold build time
 * (unpacking included), the cache-hit time, the first build of a second
 * flavour seeded from the first's trees, the rebuild time after one
 * fragment line changes, the image build time and the image size.
 *
 * Usage: kbuild-bench [--keep] [SCRATCH_DIR]
 * Run it alone: it is a full cold kernel build (minutes, ~3 GB of disk).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kb.h"

#ifndef VLALAB_SRCDIR
#error "VLALAB_SRCDIR must be defined by the build"
#endif

/* A one-line change that verifies and makes vmlinux relink: the uuid
 * self-test, built in (RUNTIME_TESTING_MENU is in hardening.config). */
#define BENCH_FRAGMENT "hardening.config"
#define BENCH_LINE "CONFIG_TEST_UUID=y\n"

/* A flavour with patches of its own, built after the cold patched build:
 * seeded from its trees, it compiles only what its patches touch. */
#define BENCH_SEEDED "vla"

static void fmt_time(double s, char *buf, size_t len)
{
	if (s < 60)
		snprintf(buf, len, "%.2fs", s);
	else
		snprintf(buf, len, "%dm%02ds (%.0fs)", (int)s / 60, (int)s % 60,
			 s);
}

static int step(const char *what, const struct kbuild_opts *o,
		struct kbuild_result *res, double *ret_s)
{
	double t0 = kb_now();
	int r = kbuild_run(o, res);

	*ret_s = kb_now() - t0;
	if (r < 0)
		fprintf(stderr, "kbuild-bench: %s failed: %s\n", what,
			strerror(-r));
	return r;
}

int main(int argc, char *argv[])
{
	char scratch[PATH_MAX] = "/var/tmp/vlalab-bench-XXXXXX", kdir[PATH_MAX],
	     frag[PATH_MAX];
	double cold, hit, seeded, rebuild, image_s, t0;
	struct kbuild_result res, res2;
	struct kbuild_image_result ir;
	char a[64], b[64], c[64], d[64], e[64];
	bool keep = false;
	int i = 1, r, fd;

	if (i < argc && !strcmp(argv[i], "--keep"))
		keep = true, i++;
	if (i < argc) {
		if (kb_path(scratch, sizeof(scratch), "%s", argv[i]) < 0 ||
		    kb_mkdir_p(scratch, 0755) < 0) {
			fprintf(stderr, "kbuild-bench: cannot use '%s'\n",
				argv[i]);
			return 2;
		}
	} else if (!mkdtemp(scratch)) {
		fprintf(stderr, "kbuild-bench: cannot create '%s': %s\n",
			scratch, strerror(errno));
		return 2;
	}
	if (kb_path(kdir, sizeof(kdir), "%s/kernel", scratch) < 0 ||
	    kb_path(frag, sizeof(frag), "%s/configs/" BENCH_FRAGMENT, kdir) < 0)
		return 2;
	{
		char *cp[] = { "cp", "-RL", VLALAB_SRCDIR "/kernel", kdir,
			       NULL };
		pid_t pid;

		kb_rm_rf(kdir);
		if (kb_spawn(cp, NULL, -1, -1, 2, &pid) < 0 ||
		    kb_wait(pid, NULL) < 0) {
			fprintf(stderr,
				"kbuild-bench: cannot copy '%s/kernel'\n",
				VLALAB_SRCDIR);
			return 2;
		}
	}
	printf("kbuild-bench: scratch cache %s\n", scratch);
	fflush(stdout);

	struct kbuild_opts o = { .cache_dir = scratch,
				 .kernel_dir = kdir,
				 .progress = true };

	r = step("the cold build", &o, &res, &cold);
	if (r == 0)
		r = step("the cache hit", &o, &res2, &hit);
	if (r == 0 && !res2.cache_hit) {
		fprintf(stderr,
			"kbuild-bench: the second run was not a cache hit\n");
		r = -EIO;
	}
	if (r == 0) {
		/* A second flavour, seeded from the patched trees (seed.c). */
		struct kbuild_opts of = o;

		of.flavour = BENCH_SEEDED;
		r = step("the seeded flavour's build", &of, &res2, &seeded);
	}
	if (r == 0) {
		fd = open(frag, O_WRONLY | O_APPEND | O_CLOEXEC);
		if (fd < 0 || write(fd, BENCH_LINE, strlen(BENCH_LINE)) !=
				      (ssize_t)strlen(BENCH_LINE))
			r = -EIO;
		if (fd >= 0)
			close(fd);
	}
	if (r == 0)
		r = step("the fragment rebuild", &o, &res2, &rebuild);
	if (r == 0) {
		t0 = kb_now();
		r = kbuild_image_build(
			&(struct kbuild_image_opts){ .cache_dir = scratch,
						     .kernel = &res2 },
			&ir);
		image_s = kb_now() - t0;
		if (r < 0)
			fprintf(stderr,
				"kbuild-bench: the image build failed: %s\n",
				strerror(-r));
	}
	if (r == 0) {
		fmt_time(cold, a, sizeof(a));
		fmt_time(hit, b, sizeof(b));
		fmt_time(rebuild, c, sizeof(c));
		fmt_time(image_s, d, sizeof(d));
		printf("cold build:        %-18s target <= 8 min (unpacking included, -j%ld)\n",
		       a, sysconf(_SC_NPROCESSORS_ONLN));
		printf("cache hit:         %-18s target <= 1 s\n", b);
		fmt_time(seeded, e, sizeof(e));
		printf("seeded flavour:    %-18s target <= 3 min (--flavour %s, its first build, copy included)\n",
		       e, BENCH_SEEDED);
		printf("fragment rebuild:  %-18s target <= 90 s (%s += %.*s)\n",
		       c, BENCH_FRAGMENT, (int)strlen(BENCH_LINE) - 1,
		       BENCH_LINE);
		printf("image build:       %-18s target <= 5 s\n", d);
		printf("image size:        %-18.2f target <= 8 MiB (MiB, gzip, no guestd)\n",
		       ir.size / 1048576.0);
	}
	if (!keep)
		kb_rm_rf(scratch);
	else
		printf("kbuild-bench: kept %s\n", scratch);
	return r < 0 ? 1 : 0;
}
