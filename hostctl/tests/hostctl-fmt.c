// SPDX-License-Identifier: GPL-2.0-only
/*
 * The golden tests' driver: run one of hostctl's pure formatters on an
 * input file and print the result.
 *   hostctl-fmt xml FILE             FILE holds key=value lines of a domain_config
 *   hostctl-fmt ktap|text|json FILE  FILE is a summary.json
 *   hostctl-fmt junit|kcidb|html FILE
 *                                    FILE is a summary.json; fixed URLs, no
 *                                    console tails, no history
 *   hostctl-fmt repeat-text|repeat-ktap|repeat-json FILE
 *                                    FILE is {"run_id", "requested",
 *                                    "rounds": [summary.json, ...]}
 *   hostctl-fmt closing FILE         FILE is a summary.json; hostctl run's
 *                                    closing line for some wall times
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/domain.h"
#include "export/export.h"
#include "results/progress.h"
#include "results/repeat.h"
#include "results/results.h"

static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "re"), *m;
	char chunk[4096];
	size_t n;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	if (!m) {
		fclose(f);
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(f);
	if (fclose(m) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int do_xml(char *text)
{
	struct domain_config c = { 0 };
	struct domain_disk disks[DOMAIN_DISKS_MAX];
	char *save = NULL, *xml;

	for (char *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (!eq || line[0] == '#')
			continue;
		*eq++ = '\0';
		if (strcmp(line, "name") == 0)
			c.name = eq;
		else if (strcmp(line, "accel") == 0)
			c.accel = strcmp(eq, "kvm") == 0 ? DOMAIN_ACCEL_KVM :
							   DOMAIN_ACCEL_TCG;
		else if (strcmp(line, "memory_mib") == 0)
			c.memory_mib = strtoull(eq, NULL, 10);
		else if (strcmp(line, "vcpus") == 0)
			c.vcpus = strtoul(eq, NULL, 10);
		else if (strcmp(line, "kernel") == 0)
			c.kernel = eq;
		else if (strcmp(line, "initrd") == 0)
			c.initrd = eq;
		else if (strcmp(line, "cmdline") == 0)
			c.cmdline = eq;
		else if (strcmp(line, "firmware") == 0)
			c.firmware = eq;
		else if (strcmp(line, "machine") == 0)
			c.machine = eq;
		else if (strcmp(line, "icount") == 0)
			c.icount = strcmp(eq, "yes") == 0;
		else if (strcmp(line, "nic") == 0)
			c.nic = strcmp(eq, "yes") == 0;
		else if (strcmp(line, "disk") == 0 &&
			 c.ndisks < DOMAIN_DISKS_MAX && strchr(eq, ',')) {
			/* disk=FORMAT,PATH */
			disks[c.ndisks].path = strchr(eq, ',') + 1;
			disks[c.ndisks].readonly = false;
			*strchr(eq, ',') = '\0';
			disks[c.ndisks++].format = eq;
			c.disks = disks;
		} else {
			fprintf(stderr, "hostctl-fmt: unknown key '%s'\n",
				line);
			return 1;
		}
	}
	if (domain_xml(&c, &xml) < 0) {
		fprintf(stderr, "hostctl-fmt: domain_xml refused the config\n");
		return 1;
	}
	fputs(xml, stdout);
	free(xml);
	return 0;
}

/* Fold every round of @root into @t; 0, or 1 after saying why not. */
static int fold_rounds(struct json_object *root, struct repeat_table *t)
{
	struct json_object *rounds;
	char err[512];

	if (!json_object_object_get_ex(root, "rounds", &rounds) ||
	    !json_object_is_type(rounds, json_type_array)) {
		fprintf(stderr, "hostctl-fmt: $.rounds: not an array\n");
		return 1;
	}
	for (size_t k = 0; k < json_object_array_length(rounds); k++) {
		struct json_object *o = json_object_array_get_idx(rounds, k);
		struct res_run run;
		int r;

		if (res_run_from_json(json_object_to_json_string(o), &run, err,
				      sizeof(err)) < 0) {
			fprintf(stderr, "hostctl-fmt: $.rounds[%zu]: %s\n", k,
				err);
			return 1;
		}
		r = repeat_add_round(t, &run);
		res_run_free(&run);
		if (r < 0) {
			fprintf(stderr, "hostctl-fmt: $.rounds[%zu]: %s\n", k,
				strerror(-r));
			return 1;
		}
	}
	return 0;
}

/* The --repeat table of the rounds in @text, as @mode says. */
static int do_repeat(const char *mode, const char *text)
{
	struct json_object *root = json_tokener_parse(text), *v;
	struct repeat_table t = { 0 };
	const char *run_id = "";
	char *json;
	int ret;

	if (!root) {
		fprintf(stderr, "hostctl-fmt: not JSON\n");
		return 1;
	}
	if (json_object_object_get_ex(root, "run_id", &v))
		run_id = json_object_get_string(v);
	if (json_object_object_get_ex(root, "requested", &v))
		t.requested = json_object_get_uint64(v);
	ret = fold_rounds(root, &t);
	if (ret == 0 && !t.rounds) {
		fprintf(stderr, "hostctl-fmt: $.rounds: empty\n");
		ret = 1;
	}
	if (ret == 0 && strcmp(mode, "repeat-text") == 0) {
		repeat_text(&t, stdout);
	} else if (ret == 0 && strcmp(mode, "repeat-ktap") == 0) {
		repeat_ktap(&t, stdout);
	} else if (ret == 0 && strcmp(mode, "repeat-json") == 0) {
		/* The accelerator and kernel of the last round. */
		struct json_object *rounds =
			json_object_object_get(root, "rounds");
		struct json_object *last = json_object_array_get_idx(
			rounds, json_object_array_length(rounds) - 1);

		ret = repeat_summary_json(
			      &t, run_id,
			      json_object_get_string(json_object_object_get(
				      last, "accelerator")),
			      json_object_object_get(last, "kernel"),
			      &json) < 0;
		if (ret == 0) {
			fputs(json, stdout);
			free(json);
		}
	} else if (ret == 0) {
		fprintf(stderr, "hostctl-fmt: unknown mode '%s'\n", mode);
		ret = 2;
	}
	repeat_table_free(&t);
	json_object_put(root);
	return ret;
}

/* The JUnit or KCIDB export of the summary.json @text. */
static int do_export(const char *mode, const char *path, const char *text)
{
	struct export_in in = {
		.run_url = "file:///results/run",
		.patches_url = "file:///src/kernel/patches",
		.build_url = "file:///cache/builds/key",
		.patchset_hash = "",
	};
	struct res_run run;
	char err[512], *json;
	int ret;

	if (res_run_from_json(text, &run, err, sizeof(err)) < 0) {
		fprintf(stderr, "hostctl-fmt: '%s': %s\n", path, err);
		return 1;
	}
	in.run = &run;
	if (strcmp(mode, "junit") == 0) {
		ret = export_junit(&in, stdout) < 0;
	} else if (strcmp(mode, "html") == 0) {
		ret = export_html(&in, stdout) < 0;
	} else {
		ret = export_kcidb(&in, &json) < 0;
		if (ret == 0) {
			fputs(json, stdout);
			free(json);
		}
	}
	res_run_free(&run);
	return ret;
}

/* hostctl run's closing line of the summary.json @text, for a wall time
 * under a minute, under an hour, and above. */
static int do_closing(const char *path, const char *text)
{
	static const uint64_t walls[] = { 0, 41234, 723000, 3723999 };
	struct res_run run;
	char err[512];

	if (res_run_from_json(text, &run, err, sizeof(err)) < 0) {
		fprintf(stderr, "hostctl-fmt: '%s': %s\n", path, err);
		return 1;
	}
	for (size_t i = 0; i < sizeof(walls) / sizeof(walls[0]); i++)
		progress_closing(&run, walls[i], "/results/run", stdout);
	res_run_free(&run);
	return 0;
}

int main(int argc, char *argv[])
{
	struct res_run run;
	enum res_format fmt;
	char err[512], *text, *json;
	int ret = 0;

	if (argc != 3) {
		fprintf(stderr,
			"usage: hostctl-fmt xml|ktap|text|json|junit|kcidb|html|repeat-text|repeat-ktap|repeat-json|closing FILE\n");
		return 2;
	}
	text = slurp(argv[2]);
	if (!text) {
		fprintf(stderr, "hostctl-fmt: cannot read '%s'\n", argv[2]);
		return 2;
	}
	if (strcmp(argv[1], "xml") == 0) {
		ret = do_xml(text);
		free(text);
		return ret;
	}
	if (strncmp(argv[1], "repeat-", 7) == 0) {
		ret = do_repeat(argv[1], text);
		free(text);
		return ret;
	}
	if (strcmp(argv[1], "closing") == 0) {
		ret = do_closing(argv[2], text);
		free(text);
		return ret;
	}
	if (strcmp(argv[1], "junit") == 0 || strcmp(argv[1], "kcidb") == 0 ||
	    strcmp(argv[1], "html") == 0) {
		ret = do_export(argv[1], argv[2], text);
		free(text);
		return ret;
	}
	if (res_format_parse(argv[1], &fmt) < 0) {
		fprintf(stderr, "hostctl-fmt: unknown mode '%s'\n", argv[1]);
		free(text);
		return 2;
	}
	if (res_run_from_json(text, &run, err, sizeof(err)) < 0) {
		fprintf(stderr, "hostctl-fmt: '%s': %s\n", argv[2], err);
		free(text);
		return 1;
	}
	switch (fmt) {
	case RES_FORMAT_TEXT:
		res_text(&run, stdout);
		break;
	case RES_FORMAT_KTAP:
		res_ktap(&run, stdout);
		break;
	case RES_FORMAT_JSON:
		if (res_summary_json(&run, &json) < 0) {
			ret = 1;
			break;
		}
		fputs(json, stdout);
		free(json);
		break;
	}
	res_run_free(&run);
	free(text);
	return ret;
}
