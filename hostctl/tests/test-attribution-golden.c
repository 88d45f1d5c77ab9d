// SPDX-License-Identifier: GPL-2.0-only
/*
 * Golden test of attribution: each attribution/<name>.log is a real VM's
 * serial console and <name>.events.jsonl the events its guestd sent in the
 * same run. The events feed an incident timeline, the console's reports
 * are joined to it, and the summary lines ("area/x step N (name) -> TITLE")
 * are compared with <name>.expected. VLALAB_UPDATE_GOLDEN=1 rewrites the
 * .expected files. TAP, one test point per log.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/incident.h"
#include "crash/report.h"
#include "tap.h"

static char *read_all(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0;

	if (f) {
		FILE *m = open_memstream(&buf, &len);
		char chunk[65536];
		size_t n;

		while (m && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
			fwrite(chunk, 1, n, m);
		if (m)
			fclose(m);
		fclose(f);
	}
	if (ret_len)
		*ret_len = len;
	return buf;
}

/* The summary lines of @name, in a malloc'd string; NULL on a bad file. */
static char *attribute(const char *dir, const char *name)
{
	struct incident_timeline tl;
	struct report *reps = NULL;
	char path[4096], *events, *log, *line, *save, *out = NULL;
	size_t len, out_len = 0;
	FILE *o;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s.events.jsonl", dir, name);
	events = read_all(path, NULL);
	snprintf(path, sizeof(path), "%s/%s.log", dir, name);
	log = read_all(path, &len);
	if (!events || !log) {
		free(events);
		free(log);
		return NULL;
	}
	incident_timeline_init(&tl);
	for (line = strtok_r(events, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct proto_event ev;
		char err[256];

		if (proto_event_decode(line, strlen(line), &ev, err,
				       sizeof(err)) < 0 ||
		    incident_timeline_feed(&tl, &ev) < 0) {
			printf("#   %s: bad event: %s\n", name, err);
			goto out;
		}
	}
	o = open_memstream(&out, &out_len);
	if (!o)
		goto out;
	n = report_parse(log, len, &reps);
	for (ssize_t i = 0; i < n; i++) {
		const struct incident_span *sp;
		struct res_incident inc;

		sp = incident_attribute(&tl, &reps[i], &inc);
		incident_summary(&inc, sp ? sp->scenario : NULL,
				 sp ? sp->name : NULL, sp ? sp->kind : NULL);
		fprintf(o, "%s\n", inc.summary);
	}
	fclose(o);
	free(reps);
out:
	incident_timeline_free(&tl);
	free(events);
	free(log);
	return out;
}

static int only_logs(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 4 && strcmp(d->d_name + n - 4, ".log") == 0;
}

int main(int argc, char **argv)
{
	const char *update = getenv("VLALAB_UPDATE_GOLDEN");
	struct dirent **ents;
	int n;

	if (argc != 2) {
		fprintf(stderr, "usage: %s ATTRIBUTION_DIR\n", argv[0]);
		return 2;
	}
	n = scandir(argv[1], &ents, only_logs, alphasort);
	if (n <= 0) {
		fprintf(stderr, "%s: no logs in '%s'\n", argv[0], argv[1]);
		return 2;
	}
	for (int i = 0; i < n; i++) {
		char name[256], exp[4096];
		char *got, *want;

		snprintf(name, sizeof(name), "%.*s",
			 (int)strlen(ents[i]->d_name) - 4, ents[i]->d_name);
		snprintf(exp, sizeof(exp), "%s/%s.expected", argv[1], name);
		got = attribute(argv[1], name);
		if (got && update && strcmp(update, "1") == 0) {
			FILE *f = fopen(exp, "we");

			ok(f && fputs(got, f) >= 0 && fclose(f) == 0, name);
		} else if (!got) {
			ok(0, name);
		} else {
			want = read_all(exp, NULL);
			if (!ok(want && strcmp(got, want) == 0, name))
				printf("#   want:\n%s#   got:\n%s",
				       want ? want : "(missing)\n", got);
			free(want);
		}
		free(got);
		free(ents[i]);
	}
	free(ents);
	return tap_done();
}
