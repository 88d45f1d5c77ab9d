// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl compare: the same scenarios on two kernel flavours, --rounds
 * times each, every round a `hostctl run` of its own (fresh VMs), then one
 * table (compare.c) printed and written as compare.json and compare.svg
 * into the compare directory (docs/evidence.md).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "results/compare.h"
#include "fileio.h"
#include "kbuild.h"
#include "results/store.h"
#include "cli/options.h"
#include "cli/verbs.h"
#include "run/spec.h"

/* At most this many scenarios on the command line. */
#define CMP_SCENARIOS_MAX 48

static void compare_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl compare --baseline FLAVOUR --candidate FLAVOUR [OPTIONS] SCENARIO...\n"
		"\n"
		"Run the scenarios on both kernel flavours, each round on fresh VMs,\n"
		"and print one table: verdicts, bench medians with the candidate/\n"
		"baseline ratio and its 95%% confidence interval, -Wvla counts and the\n"
		"touched functions' code and frame sizes from the build manifests, and\n"
		"the accelerator and clock. Under TCG the VMs count instructions\n"
		"(-icount): instruction-time, not hardware speed. Writes compare.json\n"
		"and compare.svg into the compare directory. Exit 0 when every\n"
		"scenario gave the same verdicts on both, 1 otherwise.\n"
		"\n"
		"  --baseline NAME   the flavour to compare against (e.g. vla)\n"
		"  --candidate NAME  the flavour under test (e.g. patched)\n"
		"  --rounds N        runs of each flavour, 1..%d (default: 2)\n"
		"  --output DIR      the compare directory (default: compare-DATE-TIME\n"
		"                    in the results root); each round's run\n"
		"                    goes in DIR/{baseline,candidate}-<flavour>-<round>\n"
		"  --accel ACCEL     auto, kvm or tcg, for every run (default: auto)\n"
		"  --kernel-dir DIR  the kernel/ folder with the flavours\n",
		CMP_ROUNDS_MAX);
	cli_opt_usage(f, CLI_OPT_LINE);
	cli_opt_usage(f, CLI_OPT_HELP);
}

/* One run of @flavour into @dir (run/spec.h, in a child process): its
 * exit code (128 + a signal that killed it), or -errno when it could not
 * be forked. */
static int run_flavour(const char *flavour, const char *line, const char *dir,
		       enum accel_choice accel, const char *kernel_dir,
		       char *const *scenarios, int nscenarios)
{
	struct run_spec s;
	int status, r;

	run_spec_init(&s);
	s.names = scenarios;
	s.n_names = (size_t)nscenarios;
	s.flavour = flavour;
	s.line = line;
	s.output = dir;
	s.format = RES_FORMAT_TEXT;
	s.accel = accel;
	if (kernel_dir)
		s.kernel_dir = kernel_dir;
	r = verb_run_child(&s, false, &status);
	return r < 0 ? r : status;
}

static int write_outputs(const char *dir, struct json_object *t)
{
	char path[PATH_MAX];
	const char *s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	s = json_object_to_json_string_ext(
		t, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s)
		return -ENOMEM;
	if (snprintf(path, sizeof(path), "%s/compare.json", dir) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	r = fileio_write_atomic(path, s, strlen(s));
	if (r < 0)
		return r;
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	cmp_svg(t, f);
	if (fclose(f) != 0) {
		free(buf);
		return -ENOMEM;
	}
	if (snprintf(path, sizeof(path), "%s/compare.svg", dir) >=
	    (int)sizeof(path))
		r = -ENAMETOOLONG;
	else
		r = fileio_write_atomic(path, buf, len);
	free(buf);
	return r;
}

/* Every scenario's verdicts the same on both flavours, in every round. */
static bool verdicts_agree(const struct cmp_input *in)
{
	for (size_t k = 0; k < in->nrounds; k++) {
		const struct res_run *b = &in->base[k], *c = &in->cand[k];

		if (b->n != c->n)
			return false;
		for (size_t i = 0; i < b->n; i++)
			if (strcmp(b->v[i].name, c->v[i].name) ||
			    b->v[i].verdict != c->v[i].verdict)
				return false;
	}
	return true;
}
/* Its options (the verb table's row, below, has them too). */
static const enum cli_opt shared[] = {
	CLI_OPT_KERNEL_DIR, CLI_OPT_LINE, CLI_OPT_ACCEL,
	CLI_OPT_HELP,	    CLI_OPT_END,
};

static const struct option own[] = {
	{ "baseline", required_argument, NULL, 'b' },
	{ "candidate", required_argument, NULL, 'c' },
	{ "rounds", required_argument, NULL, 'n' },
	{ "output", required_argument, NULL, 'o' },
	{ 0 },
};

int verb_compare(int argc, char *argv[])
{
	struct option opts[CLI_OPTS_MAX];
	enum accel_choice accel = ACCEL_AUTO;
	const char *baseline = NULL, *candidate = NULL, *output = NULL,
		   *kernel_dir = NULL, *line = NULL;
	struct res_run base[CMP_ROUNDS_MAX] = { 0 },
		       cand[CMP_ROUNDS_MAX] = { 0 };
	char dir[PATH_MAX], sub[PATH_MAX + 64], err[512], kd[PATH_MAX];
	struct json_object *table = NULL;
	unsigned long rounds = 2;
	int c, r, ret = EXIT_SETUP;
	size_t done = 0;
	char *end;

	cli_opts_table(shared, own, opts);
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) >= 0) {
		switch (c) {
		case 'b':
			baseline = optarg;
			break;
		case 'c':
			candidate = optarg;
			break;
		case 'n':
			errno = 0;
			rounds = strtoul(optarg, &end, 10);
			if (errno || *end || rounds < 1 ||
			    rounds > CMP_ROUNDS_MAX) {
				fprintf(stderr,
					"hostctl compare: --rounds '%s': give 1..%d\n",
					optarg, CMP_ROUNDS_MAX);
				return EXIT_SETUP;
			}
			break;
		case 'o':
			output = optarg;
			break;
		case CLI_OPT_ACCEL:
			/* Every run's, as run would take it. */
			if (accel_parse(optarg, &accel) < 0) {
				fprintf(stderr,
					"hostctl compare: unknown accelerator '%s'; use auto, kvm or tcg\n",
					optarg);
				return EXIT_SETUP;
			}
			break;
		case CLI_OPT_KERNEL_DIR:
			kernel_dir = optarg;
			break;
		case CLI_OPT_LINE:
			line = optarg;
			break;
		case CLI_OPT_HELP:
			compare_usage(stdout);
			return EXIT_GREEN;
		default:
			compare_usage(stderr);
			return EXIT_SETUP;
		}
	}
	r = verb_check_nargs(&verb_compare_def, argc - optind);
	if (r)
		return r;
	if (!baseline || !candidate) {
		fprintf(stderr,
			"hostctl compare: give --baseline and --candidate\n");
		return EXIT_SETUP;
	}
	snprintf(kd, sizeof(kd), "%s",
		 kernel_dir ? kernel_dir : VLALAB_SRCDIR "/kernel");
	if (line && kbuild_line_check(line, err, sizeof(err)) < 0) {
		fprintf(stderr, "hostctl compare: --line: %s\n", err);
		return EXIT_SETUP;
	}
	if (kbuild_flavour_check(kd, baseline, err, sizeof(err)) < 0 ||
	    kbuild_flavour_check(kd, candidate, err, sizeof(err)) < 0) {
		fprintf(stderr, "hostctl compare: %s\n", err);
		return EXIT_SETUP;
	}
	if (output) {
		snprintf(dir, sizeof(dir), "%s", output);
	} else {
		time_t now = time(NULL);
		struct tm tm;

		char root[PATH_MAX], name[64];

		gmtime_r(&now, &tm);
		strftime(name, sizeof(name), "compare-%Y%m%d-%H%M%S", &tm);
		r = store_root(NULL, root, sizeof(root));
		if (r >= 0)
			r = fs_mkdir_p(root);
		if (r < 0 || snprintf(dir, sizeof(dir), "%s/%s", root, name) >=
				     (int)sizeof(dir)) {
			fprintf(stderr,
				"hostctl compare: the results root: %s\n",
				strerror(r < 0 ? -r : ENAMETOOLONG));
			return EXIT_SETUP;
		}
	}
	if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
		fprintf(stderr, "hostctl compare: cannot create '%s': %s\n",
			dir, strerror(errno));
		return EXIT_SETUP;
	}
	/* Rounds alternate the flavours, so that a drift of the host hits
	 * both alike. */
	for (done = 0; done < rounds; done++) {
		const char *fl[2] = { baseline, candidate };
		const char *role[2] = { "baseline", "candidate" };
		struct res_run *into[2] = { &base[done], &cand[done] };

		for (int i = 0; i < 2; i++) {
			/* The role in the name: a flavour may be compared
			 * with itself. */
			snprintf(sub, sizeof(sub), "%s/%s-%s-%zu", dir, role[i],
				 fl[i], done + 1);
			fprintf(stderr,
				"hostctl compare: round %zu of %lu, %s: %s\n",
				done + 1, rounds, fl[i], sub);
			r = run_flavour(fl[i], line, sub, accel, kernel_dir,
					argv + optind, argc - optind);
			/* A run that ended red or with a lab error still
			 * has its verdicts; only one without a summary
			 * stops the comparison. */
			if (r < 0 || r == EXIT_SETUP || r >= 128) {
				fprintf(stderr,
					"hostctl compare: the run of %s in '%s' did not start (exit %d)\n",
					fl[i], sub, r);
				goto out;
			}
			r = store_read_run(sub, into[i], err, sizeof(err));
			if (r < 0) {
				fprintf(stderr,
					"hostctl compare: the run of %s has no results: %s\n",
					fl[i], err);
				goto out;
			}
		}
	}
	r = cmp_table(&(struct cmp_input){ baseline, candidate, base, cand,
					   rounds },
		      &table);
	if (r < 0) {
		fprintf(stderr, "hostctl compare: cannot build the table: %s\n",
			strerror(-r));
		goto out;
	}
	cmp_print(table, stdout);
	r = write_outputs(dir, table);
	if (r < 0) {
		fprintf(stderr,
			"hostctl compare: cannot write compare.json or compare.svg in '%s': %s\n",
			dir, strerror(-r));
		goto out;
	}
	printf("\ntable: %s/compare.json, chart: %s/compare.svg\n", dir, dir);
	if (fflush(stdout) != 0)
		goto out;
	ret = verdicts_agree(&(struct cmp_input){ baseline, candidate, base,
						  cand, rounds }) ?
		      EXIT_GREEN :
		      EXIT_RED;
out:
	json_object_put(table);
	for (size_t i = 0; i < CMP_ROUNDS_MAX; i++) {
		res_run_free(&base[i]);
		res_run_free(&cand[i]);
	}
	return ret;
}

/* Its row in the verb table (main.c). */
const struct verb verb_compare_def = {
	.name = "compare",
	.min_args = 1,
	.max_args = CMP_SCENARIOS_MAX,
	.fn = verb_compare,
	.usage = "--baseline F1 --candidate F2 [OPTIONS] SCENARIO...",
	.summary = "the same scenarios on two kernel flavours, one table",
	.shared = shared,
	.own = own,
	.optstring = "h",
};
