// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl lava job|fetch: a run over LAVA (docs/lava.md). job writes a
 * LAVA job definition that boots our kernel and an initramfs holding the
 * scenarios' run requests, guestd in framed mode on the serial console
 * (docs/protocol.md, "Framed mode"); submit (verb-lava-server.c) hands it
 * to a LAVA server; fetch (verb-lava-fetch.c) reads the job's log, a
 * file's or the server's, back into a run directory.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "fileio.h"
#include "scenario/bootcheck.h"
#include "scenario/scenario.h"
#include "run/setup.h"
#include "cli/lava.h"
#include "cli/options.h"
#include "cli/verbs.h"

#ifndef VLALAB_SRCDIR
#error "VLALAB_SRCDIR (the repository root) must be defined by the build"
#endif

static void lava_usage(FILE *f)
{
	fprintf(f,
		"Usage: hostctl lava job [--out DIR] [--device-type TYPE] SCENARIO...\n"
		"       hostctl lava submit --server URL --token-file F JOBDIR\n"
		"       hostctl lava fetch --server URL [--token-file F] [--wait S] JOBDIR|N\n"
		"       hostctl lava fetch JOBDIR LOG\n"
		"\n"
		"job: write a LAVA job definition, DIR/job.yaml (default DIR:\n"
		"lava-job), that boots the kernel and a guest image holding the\n"
		"run requests of the SCENARIOs (names or globs) with LAVA's qemu\n"
		"method (deploy to tmpfs), guestd in framed mode on ttyS0; the\n"
		"kernel and the image are in DIR, named by file:// URLs.\n"
		"submit: POST DIR/job.yaml to the LAVA server URL (http:// or\n"
		"https://) with the token in file F, through LAVA's REST API\n"
		"(api/v0.2/jobs/); the job id goes to stdout and to DIR/lava-job-id.\n"
		"fetch: read the log of that job into a run directory under the\n"
		"results directory, through the session, verdict code and crash\n"
		"judge of a local run: with --server, the server's log of the job\n"
		"once it has finished, the job of DIR/lava-job-id, or job N (its\n"
		"scenarios named by its definition); else the file LOG (LAVA's\n"
		"log, or the console alone).\n"
		"See docs/lava.md.\n"
		"\n"
		"  --out DIR          where job writes (default: lava-job)\n"
		"  --device-type T    the job's device_type (default: qemu)\n"
		"  --server URL       the LAVA server, http[s]://HOST[:PORT][/PREFIX]\n"
		"                     (https: the system's CAs, or SSL_CERT_FILE)\n"
		"  --token-file F     the API token, the file's first line\n"
		"  --wait S           fetch: wait up to S seconds for the job to\n"
		"                     finish (default 0: refuse a job not finished)\n"
		"  --cache DIR        the cache (default: ~/.cache/vlalab)\n"
		"  --scenarios DIR    the scenario tree (default: %s/scenarios)\n"
		"  --results DIR      fetch's results directory (default: results)\n"
		"  --help             show this help\n",
		VLALAB_SRCDIR);
}

static const enum cli_opt shared[] = {
	CLI_OPT_CACHE, CLI_OPT_SCENARIOS, CLI_OPT_RESULTS,
	CLI_OPT_HELP,  CLI_OPT_END,
};

static const struct option own[] = {
	{ "out", required_argument, NULL, 'o' },
	{ "device-type", required_argument, NULL, 'd' },
	{ "server", required_argument, NULL, 's' },
	{ "token-file", required_argument, NULL, 't' },
	{ "wait", required_argument, NULL, 'w' },
	{ 0 },
};

const struct verb verb_lava_def = {
	.name = "lava",
	.min_args = 2,
	.max_args = VERB_ANY,
	.fn = verb_lava,
	.usage = "job|submit|fetch ARGS...",
	.summary = "run over LAVA: write a job, fetch its results",
	.shared = shared,
	.own = own,
	.optstring = "",
};

/* One cpio "newc" entry: header, name, padding, data, padding. */
static void cpio_put(FILE *f, const char *name, unsigned mode, const char *data,
		     size_t len)
{
	static const char zeros[4];
	size_t nlen = strlen(name) + 1;

	fprintf(f,
		"070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		0u, mode, 0u, 0u, 1u, 0u, len, 0u, 0u, 0u, 0u, nlen, 0u);
	fwrite(name, 1, nlen, f);
	fwrite(zeros, 1, (4 - (110 + nlen) % 4) % 4, f);
	fwrite(data, 1, len, f);
	fwrite(zeros, 1, (4 - len % 4) % 4, f);
}

/*
 * @out/initramfs: the guest image, padded to 4 bytes, then an uncompressed
 * cpio archive holding FRAMED_REQUESTS_PATH (/vlalab/requests.jsonl); the
 * kernel unpacks both (Documentation/driver-api/early-userspace).
 */
static int write_initramfs(const char *image, const char *path, const char *req,
			   size_t len)
{
	char *buf, *out = NULL;
	size_t n, outlen = 0;
	FILE *f;
	int r;

	r = fileio_read(image, (size_t)1 << 31, &buf, &n, NULL);
	if (r < 0)
		return r;
	/* Made in memory, then written all or nothing, as copy_file()
	 * writes the kernel: a short write is never a job's initramfs. */
	f = open_memstream(&out, &outlen);
	if (!f) {
		free(buf);
		return -ENOMEM;
	}
	fwrite(buf, 1, n, f);
	free(buf);
	fwrite("\0\0\0", 1, (4 - n % 4) % 4, f);
	cpio_put(f, "vlalab", 040755, "", 0);
	cpio_put(f, "vlalab/requests.jsonl", 0100644, req, len);
	cpio_put(f, "TRAILER!!!", 0, "", 0);
	r = ferror(f) ? -ENOMEM : 0;
	if (fclose(f) != 0)
		r = -ENOMEM;
	if (r == 0)
		r = fileio_write_atomic(path, out, outlen);
	free(out);
	return r;
}

static int copy_file(const char *from, const char *to)
{
	size_t n;
	char *buf;
	int r;

	r = fileio_read(from, (size_t)1 << 31, &buf, &n, NULL);
	if (r < 0)
		return r;
	r = fileio_write_atomic(to, buf, n);
	free(buf);
	return r;
}

/* The run requests of @sel, one a line, as guest_send_run() sends them. */
static int requests(const struct scn_set *set, const size_t *sel, size_t n,
		    char **ret, size_t *ret_len)
{
	size_t len = 0;
	char *all = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct scenario *s = &set->v[sel[i]];
		char *line, *p;
		size_t ll;
		int r;

		if (s->nboots || s->cloud) {
			fprintf(stderr,
				"hostctl lava: '%s' runs on %s: not over LAVA yet (docs/lava.md)\n",
				s->name,
				s->cloud ? "the cloud image" :
					   "VMs of its own (boots or a disk)");
			free(all);
			return -EOPNOTSUPP;
		}
		r = boots_run_encode(s, 0, &line, &ll);
		if (r < 0) {
			fprintf(stderr, "hostctl lava: '%s': %s\n", s->name,
				strerror(-r));
			free(all);
			return r;
		}
		p = realloc(all, len + ll + 1);
		if (!p) {
			free(line);
			free(all);
			return -ENOMEM;
		}
		all = p;
		memcpy(all + len, line, ll);
		len += ll;
		all[len] = '\0';
		free(line);
	}
	*ret = all;
	*ret_len = len;
	return 0;
}

/*
 * @path: the job. Its comments name the command that wrote it, and the
 * scenarios of @sel in order as a JSON array (LAVA_SCENARIOS_COMMENT):
 * a server keeps them in the job's original_definition, which is how
 * fetch by a job id alone knows them.
 */
static int write_job(const char *path, const char *dtype, const char *dir,
		     char *const *args, size_t nargs, const struct scn_set *set,
		     const size_t *sel, size_t nsel)
{
	struct json_object *names = json_object_new_array();
	FILE *f;

	for (size_t i = 0; names && i < nsel; i++)
		if (json_object_array_add(names, json_object_new_string(
							 set->v[sel[i]].name)) <
		    0) {
			json_object_put(names);
			names = NULL;
		}
	if (!names)
		return -ENOMEM;
	f = fopen(path, "we");
	if (!f) {
		int r = -errno;

		json_object_put(names);
		return r;
	}
	fprintf(f, "# hostctl lava job");
	for (size_t i = 0; i < nargs; i++)
		fprintf(f, " '%s'", args[i]);
	/* JSON escapes what could end the comment's line. */
	fprintf(f, "\n" LAVA_SCENARIOS_COMMENT "%s",
		json_object_to_json_string_ext(
			names, JSON_C_TO_STRING_PLAIN |
				       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(names);
	fprintf(f,
		"\n# docs/lava.md; fetch: hostctl lava fetch %s LOG\n"
		"device_type: %s\n"
		"job_name: vlalab\n"
		"priority: medium\n"
		"visibility: public\n"
		"timeouts:\n"
		"  job: {minutes: 60}\n"
		"  action: {minutes: 50}\n"
		"context:\n"
		"  arch: amd64\n"
		"actions:\n"
		"- deploy:\n"
		"    timeout: {minutes: 5}\n"
		"    to: tmpfs\n"
		"    images:\n"
		"      kernel:\n"
		"        image_arg: -kernel {kernel} -append \"%s\"\n"
		"        url: file://%s/bzImage\n"
		"      ramdisk:\n"
		"        image_arg: -initrd {ramdisk}\n"
		"        url: file://%s/initramfs\n"
		"- boot:\n"
		"    timeout: {minutes: 50}\n"
		"    method: qemu\n"
		"    media: tmpfs\n"
		"    prompts: ['" LAVA_END_PROMPT "']\n",
		dir, dtype, LAVA_CMDLINE, dir, dir);
	return fclose(f) == 0 ? 0 : -errno;
}

static int lava_job(const char *cache, const char *scenarios, const char *out,
		    const char *dtype, char *const *args, size_t nargs)
{
	char dir[PATH_MAX], path[PATH_MAX + 32], err[1024];
	struct scn_errors errs = { 0 };
	struct scn_set set = { 0 };
	struct setup st = { 0 };
	size_t *sel = NULL, nsel = 0, len = 0, nks = 0;
	const char *ks[KSELFTEST_DIRS_MAX];
	char *req = NULL;
	int r;

	r = scn_load_dir(scenarios, &set, &errs);
	for (size_t i = 0; i < errs.n; i++)
		fprintf(stderr, "%s\n", errs.msgs[i]);
	if (r < 0) {
		fprintf(stderr,
			"hostctl lava: cannot load the scenarios in '%s'\n",
			scenarios);
		goto out;
	}
	r = scn_select(&set, args, nargs, &sel, &nsel, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "hostctl lava: %s\n", err);
		goto out;
	}
	r = requests(&set, sel, nsel, &req, &len);
	if (r < 0)
		goto out;
	if (mkdir(out, 0755) < 0 && errno != EEXIST) {
		r = -errno;
		fprintf(stderr, "hostctl lava: '%s': %s\n", out, strerror(-r));
		goto out;
	}
	if (!realpath(out, dir)) {
		r = -errno;
		fprintf(stderr, "hostctl lava: '%s': %s\n", out, strerror(-r));
		goto out;
	}
	/* The image carries the kselftest folders the selection runs, as
	 * a local run's (run/plan.c). */
	for (size_t i = 0; i < nsel; i++) {
		const struct scenario *s = &set.v[sel[i]];

		for (size_t j = 0; j < s->nsteps; j++) {
			const char *d = s->steps[j].kselftest_dir;
			size_t k = 0;

			while (k < nks && strcmp(ks[k], d))
				k++;
			if (*d && k == nks && nks < KSELFTEST_DIRS_MAX)
				ks[nks++] = d;
		}
	}
	/* The job names it in file:// URLs, unquoted: keep to plain bytes. */
	if (dir[strspn(
		    dir,
		    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/-")]) {
		fprintf(stderr,
			"hostctl lava: '%s': the job's folder may hold letters, digits and ._/- only\n",
			dir);
		r = -EINVAL;
		goto out;
	}
	r = setup_prepare_kernel(cache, NULL, NULL,
				 &(struct setup_kernel){
					 .kselftests = ks,
					 .n_kselftests = nks,
				 },
				 &st);
	if (r < 0)
		goto out;
	snprintf(path, sizeof(path), "%s/bzImage", dir);
	r = copy_file(st.kernel_path, path);
	if (r == 0) {
		snprintf(path, sizeof(path), "%s/initramfs", dir);
		r = write_initramfs(st.image.path, path, req, len);
	}
	if (r == 0) {
		snprintf(path, sizeof(path), "%s/requests.jsonl", dir);
		r = fileio_write_atomic(path, req, len);
	}
	if (r == 0) {
		snprintf(path, sizeof(path), "%s/job.yaml", dir);
		r = write_job(path, dtype, dir, args, nargs, &set, sel, nsel);
	}
	if (r < 0)
		fprintf(stderr, "hostctl lava: writing '%s': %s\n", path,
			strerror(-r));
	else
		printf("%s: %zu scenario%s\n", path, nsel,
		       nsel == 1 ? "" : "s");
	setup_free(&st);
out:
	free(req);
	free(sel);
	scn_set_free(&set);
	scn_errors_free(&errs);
	return r < 0 ? EXIT_SETUP : EXIT_GREEN;
}

int verb_lava(int argc, char *argv[])
{
	struct option opts[CLI_OPTS_MAX];
	const char *cache = NULL, *scenarios = VLALAB_SRCDIR "/scenarios";
	const char *out = "lava-job", *dtype = "qemu", *results = "results";
	const char *server = NULL, *token = NULL;
	unsigned long wait_s = 0;
	char *end;
	int c;

	cli_opts_table(shared, own, opts);
	optind = 0;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case CLI_OPT_CACHE:
			cache = optarg;
			break;
		case CLI_OPT_SCENARIOS:
			scenarios = optarg;
			break;
		case CLI_OPT_RESULTS:
			results = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'd':
			dtype = optarg;
			break;
		case 's':
			server = optarg;
			break;
		case 't':
			token = optarg;
			break;
		case 'w':
			errno = 0;
			wait_s = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || *optarg == '-' ||
			    wait_s > 7 * 24 * 3600) {
				fprintf(stderr,
					"hostctl lava: --wait '%s': not a number of seconds (at most a week)\n",
					optarg);
				return EXIT_SETUP;
			}
			break;
		case CLI_OPT_HELP:
			lava_usage(stdout);
			return EXIT_GREEN;
		default:
			lava_usage(stderr);
			return EXIT_SETUP;
		}
	}
	if (optind + 2 <= argc && !strcmp(argv[optind], "job"))
		return lava_job(cache, scenarios, out, dtype, argv + optind + 1,
				(size_t)(argc - optind - 1));
	if (optind + 2 == argc && !strcmp(argv[optind], "fetch") && server)
		return lava_fetch_remote(scenarios, results, argv[optind + 1],
					 server, token, (unsigned)wait_s);
	if (optind + 3 == argc && !strcmp(argv[optind], "fetch") && !server &&
	    !wait_s)
		return lava_fetch(scenarios, results, argv[optind + 1],
				  argv[optind + 2]);
	if (optind + 2 == argc && !strcmp(argv[optind], "submit") && server &&
	    token)
		return lava_submit(server, token, argv[optind + 1]);
	fprintf(stderr,
		"hostctl lava: want 'job SCENARIO...', 'submit --server URL --token-file F JOBDIR', 'fetch --server URL JOBDIR|N' or 'fetch JOBDIR LOG'; see 'hostctl help lava'\n");
	return EXIT_SETUP;
}
