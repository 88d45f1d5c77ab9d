// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/postmortem.c without a guest: a bundle with the
 * dump turned off (--dump-max-mb 0) and no vmlinux holds the console, the
 * reports, only that VM's events (the last 200, found by the VM each line
 * names), and says why there is no dump and no stack; dump formats are
 * checked by name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crash/postmortem.h"
#include "tap.h"

static void put(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		abort();
}

static char *get(const char *dir, const char *name)
{
	char path[4096], *buf = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (pm_read_tail(path, 1 << 20, &buf, &len) < 0)
		return NULL;
	return buf;
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		n += *s == '\n';
	return n;
}

int main(void)
{
	char run[] = "/tmp/vlalab-test-pm-XXXXXX";
	char bundle[4096], rel[128], *s, *events;
	struct pm_opts o = { 0 };
	FILE *f;
	int r;

	if (!mkdtemp(run))
		abort();
	put(run, "console-vm2.log",
	    "[    1.0] Kernel panic - not syncing: x\n");
	/*
	 * VM 1's events, then VM 2's (a hello and 300 heartbeats) with VM 12's
	 * between them, as two VMs at once write them, and VM 1's last.
	 */
	snprintf(bundle, sizeof(bundle), "%s/events.jsonl", run);
	f = fopen(bundle, "w");
	if (!f)
		abort();
	fputs("{\"vm\":\"vm1\",\"ev\":\"hello\",\"t_us\":1}\n", f);
	fputs("{\"vm\":\"vm2\",\"ev\":\"hello\",\"t_us\":1}\n", f);
	for (int i = 0; i < 300; i++)
		fprintf(f,
			"{\"vm\":\"vm2\",\"ev\":\"heartbeat\",\"t_us\":%d}\n"
			"{\"vm\":\"vm12\",\"ev\":\"heartbeat\",\"t_us\":%d}\n",
			i + 2, 1000 + i);
	fputs("{\"vm\":\"vm1\",\"ev\":\"bye\",\"t_us\":2}\n", f);
	fclose(f);

	o.run_dir = run;
	o.dump_max_mb = 0;
	snprintf(bundle, sizeof(bundle), "%s/console-vm2.log", run);
	r = pm_bundle(&o, NULL, "vm2", 3, bundle, "x/y step 0 (s) -> T\n",
		      "[    1.0] Kernel panic - not syncing: x\n", rel,
		      sizeof(rel));
	is_int(r, 0, "bundle written");
	is_str(rel, "bundle-vm2-3", "named from the label and the count");
	snprintf(bundle, sizeof(bundle), "%s/%s", run, rel);

	s = get(bundle, "console.log");
	is_str(s ? s : "", "[    1.0] Kernel panic - not syncing: x\n",
	       "console.log is a copy");
	free(s);
	s = get(bundle, "reports.txt");
	is_str(s ? s : "", "x/y step 0 (s) -> T\n", "reports.txt");
	free(s);
	events = get(bundle, "events.jsonl");
	is_int(count_lines(events), 200, "events.jsonl: the last 200");
	ok(events && !strstr(events, "bye"),
	   "events.jsonl: not the older VM's");
	ok(events && !strstr(events, "vm12") && !strstr(events, "vm1\""),
	   "events.jsonl: none of another VM's, whatever its name");
	ok(events && !strncmp(events, "{\"vm\":\"vm2\",", 12),
	   "events.jsonl: each line names its VM");
	ok(events && strstr(events, "\"t_us\":301}\n") &&
		   !strstr(events, "\"t_us\":101}"),
	   "events.jsonl: the newest ones");
	free(events);
	s = get(bundle, "dump.txt");
	ok(s && strstr(s, "no dump: --dump-max-mb 0"),
	   "dump.txt: no dump, why");
	ok(s && strstr(s, "no stack.txt: no vmlinux"),
	   "dump.txt: no stack, why");
	free(s);
	snprintf(bundle + strlen(bundle), sizeof(bundle) - strlen(bundle),
		 "/vmcore.kdump");
	ok(access(bundle, F_OK) < 0, "no vmcore file");

	is_int(pm_dump_format_check("kdump-zlib"), 0, "kdump-zlib is a format");
	is_int(pm_dump_format_check("elf"), 0, "elf is a format");
	is_int(pm_dump_format_check("zip"), -EINVAL, "zip is not");

	/* Leave nothing behind. */
	{
		char cmd[8192];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", run);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", run);
	}
	return tap_done();
}
