// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's plan (plan.h), what every round shares: the scenarios loaded
 * and selected (cut to repro's step), the kernel and image built or
 * reused (setup.c), the cloud image when a VM boots it, the run
 * directory, and what the host holds for -j auto. Each scenario's skip
 * before booting: requires the kernel does not meet, an image that does
 * not fit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "crash/verdict.h"
#include "fileio.h"
#include "kbuild.h"
#include "results/store.h"
#include "run/plan.h"
#include "run/schedule.h"
#include "scenario/bites.h"
#include "vm/domain.h"
#include "results/rundir.h"

/*
 * The selftest folders the selected scenarios' kselftest steps run from,
 * each once: what the image must carry. At most KSELFTEST_DIRS_MAX; the
 * image builder refuses more.
 */
#define KSELFTEST_DIRS_MAX 16
/* QEMU's own memory beside a guest's (TCG's translation cache, libvirt's
 * share), for -j auto. */
#define RUNNER_VM_OVERHEAD_MIB 256

/*
 * ROOT/<run-id> in the results root, and ROOT/latest pointing at it but
 * for a repro (@latest false): a cut run is no run of its scenario.
 */
static int make_run_dir(const char *output, const char *root,
			const char *run_id, bool latest, char *buf, size_t len)
{
	char tmp[PATH_MAX + 32], link[PATH_MAX + 16];
	int r;

	if (output) {
		if (snprintf(buf, len, "%s", output) >= (int)len)
			return -ENAMETOOLONG;
		return fs_mkdir_p(buf);
	}
	if (snprintf(buf, len, "%s/%s", root, run_id) >= (int)len)
		return -ENAMETOOLONG;
	r = fs_mkdir_p(buf);
	if (r < 0 || !latest)
		return r;
	if (snprintf(tmp, sizeof(tmp), "%s/" RUNDIR_LATEST_TMP, root,
		     getpid()) >= (int)sizeof(tmp) ||
	    snprintf(link, sizeof(link), "%s/" RUNDIR_LATEST, root) >=
		    (int)sizeof(link))
		return -ENAMETOOLONG;
	unlink(tmp);
	if (symlink(run_id, tmp) < 0 || rename(tmp, link) < 0)
		return -errno;
	return 0;
}

/*
 * Whether @sc can run on this run's images: 1 with the reason when not
 * (it skips), else 0.
 */
static int image_fits(const struct run_spec *s, const struct scenario *sc,
		      char *reason, size_t len)
{
	if (s->image && (sc->nboots || sc->has_disk)) {
		snprintf(
			reason, len,
			"needs the initramfs image: its disks come first, from vda, where a cloud image's root goes");
		return 1;
	}
	for (size_t j = 0;
	     (s->image || sc->cloud) && j < sc->nsteps + sc->ncleanup; j++)
		if (sc->steps[j].kselftest_dir[0]) {
			snprintf(
				reason, len,
				"needs the initramfs image: only it carries the kselftest programs (%s)",
				sc->steps[j].kselftest_dir);
			return 1;
		}
	if (s->initrd && sc->cloud) {
		snprintf(
			reason, len,
			"needs the cloud image, and --initrd replaces the image");
		return 1;
	}
	return 0;
}

/*
 * A user's tree: when the skip is for an option of our fragments that did
 * not make it into its config, say why, from the manifest's
 * "missing_options" ("configs/edac.config:13: CONFIG_X=y: not in this
 * tree's Kconfig").
 */
static void explain_missing(const struct setup *su, char *reason, size_t len)
{
	struct json_object *tree, *missing;

	if (!su->manifest ||
	    !json_object_object_get_ex(su->manifest, "tree", &tree) ||
	    !json_object_object_get_ex(tree, "missing_options", &missing) ||
	    !json_object_is_type(missing, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(missing); i++) {
		const char *m = json_object_get_string(
			json_object_array_get_idx(missing, i));
		const char *opt = m ? strstr(m, ": CONFIG_") : NULL;
		size_t n, used = strlen(reason);
		char name[PROTO_NAME_MAX];

		if (!opt)
			continue;
		opt += 2;
		n = strcspn(opt, "=");
		if (n >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%.*s is not set", (int)n, opt);
		if (strstr(reason, name) && used < len)
			snprintf(reason + used, len - used, " (%s)", m);
	}
}

/*
 * Whether @sc's "flavour" is the kernel of its group @g in this run: 1
 * with the reason when it cannot be (it skips), else 0.
 */
static int flavour_fits(const struct run_spec *s, const struct scenario *sc,
			size_t g, char *reason, size_t len)
{
	const char *f = sc->flavour, *run = s->flavour ? s->flavour : "patched";

	if (!*f || g)
		return 0;
	if (s->tree || s->ext_kernel)
		snprintf(
			reason, len,
			"needs the '%s' flavour of our kernel, and %s gives this run another kernel",
			f, s->tree ? "--tree" : "--kernel");
	else if (!strcmp(f, run))
		return 0;
	else if (s->flavour)
		snprintf(
			reason, len,
			"needs the '%s' flavour, and --flavour %s runs another",
			f, s->flavour);
	else if (sc->cloud || s->image)
		snprintf(
			reason, len,
			"needs the '%s' flavour and the cloud image, whose modules disk is the run's kernel's",
			f);
	else
		snprintf(
			reason, len,
			"needs the '%s' flavour's own image, and --initrd replaces the image",
			f);
	return 1;
}

const struct setup *plan_setup(const struct run_plan *p, size_t g)
{
	if (!g)
		return &p->su;
	return p->fl[g - 1].su_ok ? &p->fl[g - 1].su : NULL;
}

static bool has_kselftest(const struct scenario *sc)
{
	for (size_t j = 0; j < sc->nsteps + sc->ncleanup; j++)
		if (*sc->steps[j].kselftest_dir)
			return true;
	return false;
}

int plan_results(const struct run_spec *s, struct run_plan *p,
		 struct res_run *run)
{
	run->repro_until_step = p->repro_until;
	run->repro_steps = p->repro_steps;
	if (s->exec)
		snprintf(run->exec, sizeof(run->exec), "%s", s->exec);
	run->v = calloc(p->n ? p->n : 1, sizeof(*run->v));
	if (!run->v)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++) {
		const struct scenario *sc = &p->set.v[p->idx[i]];
		const struct setup *su = plan_setup(p, p->grp[i]);
		char reason[PROTO_TEXT_MAX];
		int r;

		r = runner_result_init(sc, &run->v[i]);
		if (r < 0)
			return r;
		run->n++;
		p->scn[i] = &p->set.v[p->idx[i]];
		if (p->grp[i])
			snprintf(run->v[i].flavour, sizeof(run->v[i].flavour),
				 "%s", sc->flavour);
		if (!su) {
			snprintf(
				reason, sizeof(reason),
				"building its flavour '%s' failed (hostctl build --flavour %s says why)",
				sc->flavour, sc->flavour);
			res_scenario_finish(&run->v[i], VERDICT_ERROR, reason);
			continue;
		}
		r = flavour_fits(s, sc, p->grp[i], reason, sizeof(reason));
		if (r == 0)
			r = scn_check_requires(sc, su->kernel.config,
					       su->modules_dir, reason,
					       sizeof(reason));
		if (r == 0 && !*su->kernel.tree && has_kselftest(sc)) {
			snprintf(
				reason, sizeof(reason),
				"its kselftest steps need the kernel's source tree, which a kernel built elsewhere (--kernel) does not come with");
			r = 1;
		}
		if (r == 0)
			r = image_fits(s, sc, reason, sizeof(reason));
		if (r == 1) {
			explain_missing(su, reason, sizeof(reason));
			verdict_decide_unrun(sc, &run->v[i],
					     VERDICT_CAUSE_UNMET, reason);
		} else if (r < 0) {
			char what[PROTO_TEXT_MAX + 64];

			snprintf(what, sizeof(what),
				 "checking requires failed: %s", reason);
			verdict_decide_unrun(sc, &run->v[i], VERDICT_CAUSE_HOST,
					     what);
		}
	}
	return 0;
}

bool plan_icount(const struct run_spec *s, const struct run_plan *p)
{
	if (s->clock != RUN_CLOCK_AUTO)
		return s->clock == RUN_CLOCK_ICOUNT;
	for (size_t i = 0; i < p->n; i++) {
		const struct scenario *sc = &p->set.v[p->idx[i]];

		for (size_t j = 0; j < sc->nsteps + sc->ncleanup; j++)
			if (!strcmp(sc->steps[j].kind, "bench"))
				return true;
	}
	return false;
}

/* The kselftest folders of the selection, each once, into @ret (which
 * points into the set); at most KSELFTEST_DIRS_MAX + 1. */
static size_t kselftest_dirs(const struct run_plan *p, const char **ret)
{
	size_t nret = 0;

	for (size_t i = 0; i < p->n; i++) {
		const struct scenario *sc = &p->set.v[p->idx[i]];

		for (size_t j = 0; j < sc->nsteps + sc->ncleanup; j++) {
			const char *d = sc->steps[j].kselftest_dir;
			bool seen = !*d;

			for (size_t k = 0; !seen && k < nret; k++)
				seen = !strcmp(ret[k], d);
			if (!seen && nret < KSELFTEST_DIRS_MAX + 1)
				ret[nret++] = d;
		}
	}
	return nret;
}

/* MemAvailable of /proc/meminfo in MiB; 0 when it cannot be read. */
static uint64_t mem_available_mib(void)
{
	unsigned long long kib = 0;
	char *buf, *p;

	if (fileio_read("/proc/meminfo", 1 << 16, &buf, NULL, NULL) < 0)
		return 0;
	p = strstr(buf, "\nMemAvailable:");
	if (p && sscanf(p, "\nMemAvailable: %llu kB", &kib) != 1)
		kib = 0;
	free(buf);
	return kib / 1024;
}

/* Its VM's memory and QEMU's own, RUNNER_VM_OVERHEAD_MIB. */
unsigned int plan_jobs_auto(const struct run_plan *p)
{
	uint64_t vm = DOMAIN_MEMORY_MIB_DEFAULT;

	for (size_t i = 0; i < p->n; i++)
		for (size_t k = 0; k < p->scn[i]->nboots; k++)
			if (p->scn[i]->boots[k].memory_mib > vm)
				vm = p->scn[i]->boots[k].memory_mib;
	return sched_default_lanes(sysconf(_SC_NPROCESSORS_ONLN),
				   mem_available_mib(),
				   vm + RUNNER_VM_OVERHEAD_MIB);
}

/* Records the use of the local cloud image @path, <cache>/images/<name>/
 * disk.qcow2, as kbuild does a build's and an image's (gc --cache). */
static int cloud_use(const char *cache, const char *path)
{
	char name[PATH_MAX], *slash;

	snprintf(name, sizeof(name), "%s", path);
	slash = strrchr(name, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	slash = strrchr(name, '/');
	return kbuild_cache_use(cache, "image", slash ? slash + 1 : name);
}

/* The local cloud image, built or found in the cache, into ci->base; a
 * build that fails leaves it empty, and only its scenarios suffer. */
static int cloud_local(struct run_plan *p)
{
	struct cloud_image *ci = &p->cloud;
	int r;

	fprintf(stderr,
		"hostctl run: a scenario needs the cloud image: building it or finding it in the cache\n");
	r = cloud_build_local(VLALAB_SRCDIR, p->su.cache_dir, ci->base,
			      sizeof(ci->base));
	if (r < 0) {
		fprintf(stderr,
			"hostctl run: building the cloud image (images/cloud/build.sh) failed: %s; the scenarios that need it will be errors\n",
			r == -EIO ? "see its messages above" : strerror(-r));
		/* Only its scenarios suffer (runner.c). */
		return 1;
	}
	r = cloud_use(p->su.cache_dir, ci->base);
	if (r < 0)
		fprintf(stderr,
			"hostctl run: recording the use of the cloud image '%s' in the cache: %s\n",
			ci->base, strerror(-r));
	return r;
}

/*
 * The cloud image's files, when a VM of this run boots it (--image, or a
 * selected scenario with "image": "cloud" that did not skip): the image
 * (built locally when no --image names one), the kernel's modules disk,
 * and the seed in the run directory. 0, or -errno after saying why.
 */
static int prepare_cloud(const struct run_spec *s, struct run_plan *p)
{
	struct cloud_image *ci = &p->cloud;
	char host_key[PATH_MAX];
	bool need = s->image != NULL;
	size_t n;
	int r;

	for (size_t i = 0; i < p->n && !s->initrd; i++)
		need |= p->set.v[p->idx[i]].cloud;
	if (!need)
		return 0;
	if (s->image) {
		snprintf(ci->base, sizeof(ci->base), "%s", s->image);
	} else {
		r = cloud_local(p);
		if (r != 0)
			return r < 0 ? r : 0;
	}
	r = cloud_modules_disk(p->su.kernel.dir, ci->modules,
			       sizeof(ci->modules));
	if (r < 0) {
		fprintf(stderr,
			"hostctl run: the modules disk '%s' (mkfs.ext4 -d): %s\n",
			ci->modules, strerror(-r));
		return r;
	}
	/* The image's dropbear host key, whose public part hostctl pins. */
	n = strlen(p->su.image.ssh_host_key_pub);
	if (n < 5 || strcmp(p->su.image.ssh_host_key_pub + n - 4, ".pub")) {
		fprintf(stderr,
			"hostctl run: the image has no SSH host key to give the cloud image\n");
		return -ENOENT;
	}
	snprintf(host_key, sizeof(host_key), "%.*s", (int)(n - 4),
		 p->su.image.ssh_host_key_pub);
	if (snprintf(ci->seed, sizeof(ci->seed), "%s/" RUNDIR_CLOUD_SEED,
		     p->run_dir) >= (int)sizeof(ci->seed)) {
		fprintf(stderr, "hostctl run: run directory '%s': %s\n",
			p->run_dir, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	r = cloud_seed(VLALAB_SRCDIR, ci->seed, VLALAB_GUESTD_PATH,
		       p->su.ssh_client_pub, host_key);
	if (r < 0) {
		fprintf(stderr,
			"hostctl run: the cloud image's seed '%s' (images/cloud/seed.sh): %s\n",
			ci->seed,
			r == -EIO ? "see its messages above" : strerror(-r));
		return r;
	}
	p->cloud_ok = true;
	return 0;
}

/*
 * hostctl repro without --until-step: up to the first failing step of
 * the newest stored run that ran @sc whole, else all its steps (without
 * the cleanup list).
 */
static size_t repro_default_step(const char *results, const struct scenario *sc)
{
	char run[128];
	size_t step = 0;

	if (store_failing_step(results, sc->name, sc->nsteps, &step, run,
			       sizeof(run)) < 0)
		printf("hostctl repro: no stored run ran all of %s: all %zu steps\n",
		       sc->name, sc->nsteps);
	else if (step)
		printf("hostctl repro: up to step %zu, where %s failed in run %s\n",
		       step, sc->name, run);
	else
		printf("hostctl repro: %s passed in run %s: all %zu steps\n",
		       sc->name, run, sc->nsteps);
	fflush(stdout);
	return step ? step : sc->nsteps;
}

/* hostctl repro: one scenario, its steps cut to until_step. */
static int plan_repro(const struct run_repro *rp, struct run_plan *p)
{
	struct scenario *sc;
	size_t until;
	int r;

	if (p->n != 1) {
		fprintf(stderr, "hostctl repro: name one scenario, not %zu\n",
			p->n);
		return -EINVAL;
	}
	sc = &p->set.v[p->idx[0]];
	until = rp->until_step ? rp->until_step :
				 repro_default_step(p->results, sc);
	/* Recorded in summary.json (struct res_run's repro_*). */
	p->repro_steps = (uint32_t)sc->nsteps;
	p->repro_until =
		(uint32_t)(until && until < sc->nsteps ? until : sc->nsteps);
	r = until ? scn_truncate(sc, until) : 0;
	if (r == -ERANGE)
		fprintf(stderr,
			"hostctl repro: %s has %zu steps; --until-step takes 1 to %zu\n",
			sc->name, sc->nsteps, sc->nsteps);
	else if (r < 0)
		fprintf(stderr, "hostctl repro: out of memory\n");
	return r;
}

/* The scenarios of @s loaded, their bites resolved, and selected. */
static int plan_select(const struct run_spec *s, struct run_plan *p)
{
	char scn_dir[PATH_MAX], err[1024];
	int r;

	if (s->exec)
		return plan_exec(s, p);
	snprintf(scn_dir, sizeof(scn_dir), "%s",
		 s->scenarios ? s->scenarios : VLALAB_SRCDIR "/scenarios");
	r = scn_load_dir(scn_dir, &p->set, &p->errs);
	if (r == 0)
		r = bites_resolve(&p->set, VLALAB_SRCDIR "/kernel", &p->errs);
	if (r == 0)
		r = scn_flavours_check(&p->set, s->kernel_dir, &p->errs);
	if (r < 0) {
		for (size_t i = 0; i < p->errs.n; i++)
			fprintf(stderr, "%s\n", p->errs.msgs[i]);
		if (!p->errs.n)
			fprintf(stderr,
				"hostctl run: loading scenarios from '%s': %s\n",
				scn_dir, strerror(-r));
		return r;
	}
	r = scn_select(&p->set, s->names, (int)s->n_names, &p->idx, &p->n, err,
		       sizeof(err));
	if (r < 0) {
		fprintf(stderr, "hostctl run: %s\n", err);
		return r;
	}
	return s->repro ? plan_repro(s->repro, p) : 0;
}

/* The run id names this run's uses of the cache (gc --cache). */
static int plan_run_id(struct run_plan *p)
{
	time_t now = time(NULL);

	strftime(p->run_id, sizeof(p->run_id), "%Y%m%d-%H%M%S",
		 localtime(&now));
	snprintf(p->run_id + strlen(p->run_id),
		 sizeof(p->run_id) - strlen(p->run_id), "-%d", getpid());
	if (kbuild_cache_run_id(p->run_id) < 0) {
		fprintf(stderr, "hostctl run: run id '%s': %s\n", p->run_id,
			strerror(EINVAL));
		return -EINVAL;
	}
	return 0;
}

/*
 * The groups of the selection (p->grp): a scenario naming a flavour that
 * the run's kernel is not runs on a build of that flavour, when this run
 * builds our kernel on its own image (no --flavour, --tree, --kernel,
 * --initrd, --image) and the scenario boots the initramfs; otherwise it
 * stays with the run's kernel, where plan_results() skips it.
 */
static int plan_flavours(const struct run_spec *s, struct run_plan *p)
{
	bool groups = !s->flavour && !s->tree && !s->ext_kernel && !s->initrd &&
		      !s->image;

	p->grp = calloc(p->n ? p->n : 1, sizeof(*p->grp));
	p->fl = calloc(p->n ? p->n : 1, sizeof(*p->fl));
	if (!p->grp || !p->fl) {
		fprintf(stderr, "hostctl run: out of memory\n");
		return -ENOMEM;
	}
	for (size_t i = 0; groups && i < p->n; i++) {
		const struct scenario *sc = &p->set.v[p->idx[i]];
		size_t k = 0;

		if (!*sc->flavour || !strcmp(sc->flavour, "patched") ||
		    sc->cloud)
			continue;
		while (k < p->nfl && strcmp(p->fl[k].name, sc->flavour))
			k++;
		if (k == p->nfl)
			snprintf(p->fl[p->nfl++].name, sizeof(p->fl[k].name),
				 "%s", sc->flavour);
		p->grp[i] = k + 1;
	}
	return 0;
}

/* The kernel and image of @s, built or found in the cache: the run's
 * (@flavour NULL: s->flavour) or a group's flavour, on the run's libvirt
 * URI. */
static int plan_build(const struct run_spec *s, struct run_plan *p,
		      const char *flavour, struct setup *su)
{
	const char *ks[KSELFTEST_DIRS_MAX + 1];
	/* A kernel built elsewhere has no tree to take selftests from: its
	 * scenarios that run them skip (plan_results()). */
	size_t nks = s->ext_kernel ? 0 : kselftest_dirs(p, ks);

	/* A flavour's VMs go to the run's libvirt: the root it claimed. */
	return setup_prepare_kernel(
		s->cache, flavour ? p->su.uri : s->connect, s->initrd,
		&(struct setup_kernel){
			.kernel_dir = s->kernel_dir,
			.flavour = flavour ? flavour : s->flavour,
			.line = s->line,
			.without = s->without,
			.n_without = s->n_without,
			.tree = s->tree,
			.tree_series = s->tree_series,
			.ext_kernel = s->ext_kernel,
			.ext_modules = s->ext_modules,
			.ext_config = s->ext_config,
			.kselftests = ks,
			.n_kselftests = nks,
		},
		su);
}

/* The run's kernel, then each group's flavour: a flavour whose build
 * fails leaves only its scenarios as errors. */
static int plan_kernel(const struct run_spec *s, struct run_plan *p)
{
	int r = plan_build(s, p, NULL, &p->su);

	if (r < 0)
		return r;
	p->su_ok = true;
	for (size_t k = 0; k < p->nfl; k++) {
		struct plan_flavour *f = &p->fl[k];

		fprintf(stderr,
			"hostctl run: a scenario needs the '%s' flavour: building it or finding it in the cache\n",
			f->name);
		if (plan_build(s, p, f->name, &f->su) < 0) {
			fprintf(stderr,
				"hostctl run: the '%s' flavour could not be built; its scenarios will be errors\n",
				f->name);
			continue;
		}
		f->su_ok = true;
		snprintf(f->vmlinux, sizeof(f->vmlinux), "%s/vmlinux",
			 f->su.kernel.dir);
	}
	return 0;
}

/* The run directory, made absolute: disk images and sockets go to
 * libvirt. */
static int plan_dir(const struct run_spec *s, struct run_plan *p)
{
	char abs_dir[PATH_MAX];
	int r;

	r = make_run_dir(s->output, p->results, p->run_id,
			 !s->repro && !s->exec, p->run_dir, sizeof(p->run_dir));
	if (r == 0 && !realpath(p->run_dir, abs_dir))
		r = -errno;
	if (r < 0) {
		fprintf(stderr, "hostctl run: run directory '%s': %s\n",
			p->run_dir, strerror(-r));
		return r;
	}
	snprintf(p->run_dir, sizeof(p->run_dir), "%s", abs_dir);
	return 0;
}

/* The live progress line and the plain lines of a log (progress.h). */
static void plan_progress(const struct run_spec *s, struct run_plan *p)
{
	p->prog.f = s->format == RES_FORMAT_TEXT ? stdout : stderr;
	p->prog.live = isatty(fileno(p->prog.f));
	/* A repro's steps are listed by repro itself, and its closing line
	 * says what they gave: no "PASS" line for a cut scenario. */
	p->prog.results = s->format == RES_FORMAT_TEXT && !s->repro;
	p->prog.color = p->prog.results && progress_color_on(s->color, stdout);
	if (!p->prog.live && !p->prog.results)
		p->prog.f = NULL;
	/* For a log: a plain line per scenario as it ends (not a repro's:
	 * its cut scenario has no verdict). */
	if (!isatty(STDOUT_FILENO) && !s->repro)
		p->prog.plain = stderr;
	/* --exec: stdout and stderr are the command's alone. */
	if (s->exec)
		p->prog = (struct progress){ 0 };
}

/* The results root (store_root()), for the run directory and history. */
static int plan_root(const struct run_spec *s, struct run_plan *p)
{
	int r = store_root(s->results, p->results, sizeof(p->results));

	if (r < 0)
		fprintf(stderr, "hostctl run: the results root: %s\n",
			strerror(-r));
	return r < 0 ? r : 0;
}

int plan_run(const struct run_spec *s, struct run_plan *p)
{
	int r;

	r = plan_root(s, p);
	if (r == 0)
		r = plan_select(s, p);
	if (r == 0)
		r = plan_flavours(s, p);
	if (r == 0)
		r = plan_run_id(p);
	if (r == 0)
		r = plan_kernel(s, p);
	if (r == 0)
		r = plan_dir(s, p);
	if (r == 0)
		r = prepare_cloud(s, p);
	if (r < 0)
		return r;
	p->scn = calloc(p->n ? p->n : 1, sizeof(*p->scn));
	if (!p->scn) {
		fprintf(stderr, "hostctl run: out of memory\n");
		return -ENOMEM;
	}
	snprintf(p->vmlinux, sizeof(p->vmlinux), "%s/vmlinux",
		 p->su.kernel.dir);
	snprintf(p->tree, sizeof(p->tree), "%s", p->su.kernel.tree);
	plan_progress(s, p);
	return 0;
}

void plan_free(struct run_plan *p)
{
	for (size_t k = 0; k < p->nfl; k++)
		if (p->fl[k].su_ok)
			setup_free(&p->fl[k].su);
	free(p->fl);
	free(p->grp);
	free(p->scn);
	free(p->idx);
	if (p->su_ok)
		setup_free(&p->su);
	scn_set_free(&p->set);
	scn_errors_free(&p->errs);
}
