// SPDX-License-Identifier: GPL-2.0-only
/*
 * Golden test of the console classifier: every corpus/<name>.log is parsed
 * and its reports, one "kind<TAB>title<TAB>guilty<TAB>corrupted" line each,
 * are compared with corpus/<name>.expected. With VLALAB_UPDATE_GOLDEN=1 the
 * .expected files are rewritten instead. TAP, one test point per log.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/report.h"
#include "tap.h"

static int read_file(const char *path, char **ret, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f)
		return -errno;
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	buf[len] = '\0';
	*ret = buf;
	*ret_len = len;
	return 0;
}

/* The reports of one log in the .expected format, malloc'd. */
static char *format_reports(const char *log, size_t len)
{
	struct report *reps = NULL;
	ssize_t n = report_parse(log, len, &reps);
	char *out = NULL;
	size_t out_len = 0;
	FILE *f;

	if (n < 0)
		return NULL;
	f = open_memstream(&out, &out_len);
	if (!f) {
		free(reps);
		return NULL;
	}
	for (ssize_t i = 0; i < n; i++)
		fprintf(f, "%s\t%s\t%s\t%s\n", report_kind_name(reps[i].kind),
			reps[i].title, reps[i].guilty,
			reps[i].corrupted ? "corrupted" : "complete");
	fclose(f);
	free(reps);
	return out;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int only_logs(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 4 && strcmp(d->d_name + n - 4, ".log") == 0;
}

int main(int argc, char **argv)
{
	const char *update = getenv("VLALAB_UPDATE_GOLDEN");
	bool do_update = update && strcmp(update, "1") == 0;
	struct dirent **ents;
	int n;

	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	n = scandir(argv[1], &ents, only_logs, by_name);
	if (n < 0) {
		fprintf(stderr, "cannot read corpus '%s': %s\n", argv[1],
			strerror(errno));
		return 1;
	}
	ok(n > 0, "the corpus has logs");
	for (int i = 0; i < n; i++) {
		char path[4096], exp_path[4096];
		char *log = NULL, *want = NULL, *got;
		size_t len, want_len;
		int r;

		snprintf(path, sizeof(path), "%s/%s", argv[1], ents[i]->d_name);
		snprintf(exp_path, sizeof(exp_path), "%.*s.expected",
			 (int)(strlen(path) - 4), path);
		r = read_file(path, &log, &len);
		got = r < 0 ? NULL : format_reports(log, len);
		if (!got) {
			ok(0, ents[i]->d_name);
			printf("#   cannot parse '%s'\n", path);
		} else if (do_update) {
			FILE *f = fopen(exp_path, "w");

			ok(f && fputs(got, f) >= 0 && fclose(f) == 0,
			   ents[i]->d_name);
		} else if (read_file(exp_path, &want, &want_len) < 0) {
			ok(0, ents[i]->d_name);
			printf("#   missing '%s' (VLALAB_UPDATE_GOLDEN=1 writes it)\n",
			       exp_path);
		} else if (!ok(strcmp(got, want) == 0, ents[i]->d_name)) {
			printf("#   want:\n");
			for (char *l = strtok(want, "\n"); l;
			     l = strtok(NULL, "\n"))
				printf("#     %s\n", l);
			printf("#   got:\n");
			for (char *l = strtok(got, "\n"); l;
			     l = strtok(NULL, "\n"))
				printf("#     %s\n", l);
		}
		free(got);
		free(want);
		free(log);
		free(ents[i]);
	}
	free(ents);
	return tap_done();
}
