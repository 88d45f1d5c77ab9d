// SPDX-License-Identifier: GPL-2.0-only
/*
 * Issue 28: the guest's console text must never reach a shell or an
 * interpreter on the host. A fake console carries a panic whose call trace
 * holds awk and $(...) payloads (as root in a guest can write them to
 * /dev/kmsg) among honest frames; it goes through the real judge and
 * bundle code (judge_incidents(), pm_bundle()) with the newest 6.1 build
 * of the whole patched series in the cache as vmlinux. No payload may create its file, the
 * payload lines must reach stack.txt as they were, and the honest frames
 * must resolve to file:line, a module's too (dsa_loop, whose DWARF is in
 * the object tree) when the build has it. Exit 77 (skip, with the reason) when the cache
 * holds no build: `hostctl build` makes one, and ./bootstrap test runs it
 * first.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>
#include <json-c/json.h>
#include <libelf.h>

#include "crash/judge.h"
#include "crash/postmortem.h"
#include "tap.h"

/* The cache as kbuild_cache_dir() finds it. */
static int cache_dir(char *buf, size_t len)
{
	const char *v = getenv("VLALAB_CACHE");

	if (v && *v)
		return snprintf(buf, len, "%s", v) < (int)len ? 0 : -1;
	v = getenv("XDG_CACHE_HOME");
	if (v && *v)
		return snprintf(buf, len, "%s/vlalab", v) < (int)len ? 0 : -1;
	v = getenv("HOME");
	if (!v || !*v)
		return -1;
	return snprintf(buf, len, "%s/.cache/vlalab", v) < (int)len ? 0 : -1;
}

/*
 * Whether manifest @m is the whole series' patched kernel of the default
 * line, 6.1, whose tree is trees/patched: not one built without a patch
 * (hostctl-bites) nor another line's, which may well be newer.
 */
static bool whole_patched(struct json_object *m)
{
	struct json_object *v;

	if (!m || !json_object_object_get_ex(m, "flavour", &v) ||
	    strcmp(json_object_get_string(v), "patched") != 0)
		return false;
	if (json_object_object_get_ex(m, "line", &v) &&
	    strcmp(json_object_get_string(v), "6.1") != 0)
		return false;
	return !json_object_object_get_ex(m, "without", &v) ||
	       json_object_array_length(v) == 0;
}

/* The newest such builds/<key>/ with a vmlinux, or -ENOENT. */
static int find_build(const char *cache, char *ret, size_t len)
{
	char path[8192];
	time_t best = 0;
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/builds", cache);
	d = opendir(path);
	if (!d)
		return -ENOENT;
	while ((de = readdir(d))) {
		struct json_object *m;
		struct stat st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/builds/%s/vmlinux", cache,
			 de->d_name);
		if (access(path, R_OK) < 0)
			continue;
		snprintf(path, sizeof(path), "%s/builds/%s/manifest.json",
			 cache, de->d_name);
		if (stat(path, &st) < 0 || st.st_mtime < best)
			continue;
		m = json_object_from_file(path);
		if (whole_patched(m)) {
			best = st.st_mtime;
			snprintf(ret, len, "%s/builds/%s", cache, de->d_name);
		}
		json_object_put(m);
	}
	closedir(d);
	return best ? 0 : -ENOENT;
}

/* @tmpl with its one "@T@" replaced by @t. */
static void expand(const char *tmpl, const char *t, char *ret, size_t len)
{
	const char *at = strstr(tmpl, "@T@");

	snprintf(ret, len, "%.*s%s%s", (int)(at - tmpl), tmpl, t, at + 3);
}

/* The GNU build ID of ELF file @path as hex into @ret ("" without). */
static void build_id(const char *path, char *ret, size_t len)
{
	const unsigned char *id;
	ssize_t n = 0;
	Elf *elf;
	int fd;

	*ret = '\0';
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf)
		n = dwelf_elf_gnu_build_id(elf, (const void **)&id);
	for (ssize_t i = 0; i < n && (size_t)(2 * i + 2) < len; i++)
		snprintf(ret + 2 * i, 3, "%02x", id[i]);
	elf_end(elf);
	close(fd);
}

/*
 * Whether the build's staged dsa_loop.ko (stripped) has its whole twin,
 * same build ID, in the object tree: then its frames get file:line.
 */
static bool dsa_loop_whole(const char *cache, const char *build)
{
	char pat[8400], obj[4200], a[129], b[129];
	glob_t g;
	bool same;

	snprintf(pat, sizeof(pat),
		 "%s/modules/lib/modules/*/kernel/drivers/net/dsa/dsa_loop.ko",
		 build);
	if (glob(pat, 0, NULL, &g) != 0)
		return false;
	snprintf(obj, sizeof(obj), "%s/obj/patched/drivers/net/dsa/dsa_loop.ko",
		 cache);
	build_id(g.gl_pathv[0], a, sizeof(a));
	build_id(obj, b, sizeof(b));
	globfree(&g);
	same = *a && strcmp(a, b) == 0;
	if (!same)
		printf("# dsa_loop.ko: no twin of build ID '%s' in '%s': "
		       "its frame is not checked\n",
		       a, obj);
	return same;
}

static char *slurp(const char *dir, const char *name)
{
	char path[8192], *buf = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (pm_read_tail(path, 16 << 20, &buf, &len) < 0)
		return NULL;
	return buf;
}

/* The line of @text that holds @a, and @b after it; or NULL. */
static const char *line_with(const char *text, const char *a, const char *b)
{
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		const char *x = memmem(p, n, a, strlen(a));

		if (x && memmem(x, n - (size_t)(x - p), b, strlen(b)))
			return p;
		p = nl ? nl + 1 : NULL;
	}
	return NULL;
}

int main(void)
{
	char cache[4096], build[8192], vmlinux[8300], tree[4200];
	char t[] = "/tmp/vlalab-pm-inj-XXXXXX", run[64], console[128];
	char bundle[256], path[512];
	/* Issue 28's payloads as it wrote them, and variants without blanks
	 * that 6.1's decode_stacktrace.sh splices into awk and $((...)). */
	const char *payloads[] = {
		"[    5.000105]  x\"||system(\"touch @T@/p1\")||\"+0x1/0x2",
		"[    5.000106]  x\"||system(\"touch${IFS}@T@/p1b\")>=0||\"+0x1/0x2",
		"[    5.000107]  f+a[$(touch @T@/p2)]/0x1 [mod]",
		"[    5.000108]  ? x+0x1/0x2 ksys_write+a[$(touch${IFS}@T@/p2b)]/0x1",
		"[    5.000109]  f+0x1/0x2 [$(touch${IFS}@T@/p3)]",
	};
	const char *files[] = { "p1", "p1b", "p2", "p2b", "p3" };
	struct proto_event ev = { .type = PROTO_EV_SCENARIO_BEGIN, .t_us = 1 };
	struct pm_opts pm = { .dump_max_mb = 0 };
	struct res_scenario sc = { .name = "inj/panic" };
	struct incident_timeline tl;
	struct judge_in in = { 0 };
	unsigned int bundles = 0;
	char *text = NULL, *stack, *dump, *raw;
	size_t tlen = 0;
	FILE *f;

	if (cache_dir(cache, sizeof(cache)) < 0 ||
	    find_build(cache, build, sizeof(build)) < 0) {
		printf("1..0 # SKIP no patched build with a vmlinux in the "
		       "cache's builds/ (hostctl build makes one)\n");
		return 77;
	}
	snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", build);
	snprintf(tree, sizeof(tree), "%s/trees/patched", cache);
	printf("# vmlinux: %s\n", vmlinux);
	if (!mkdtemp(t))
		abort();
	snprintf(run, sizeof(run), "%s/run", t);
	snprintf(console, sizeof(console), "%s/console-vm1.log", t);
	if (mkdir(run, 0755) < 0)
		abort();

	/* A sysrq crash's panic, its trace salted with the payloads. */
	f = open_memstream(&text, &tlen);
	if (!f)
		abort();
	fputs("[    5.000000] sysrq: Trigger a crash\n"
	      "[    5.000001] Kernel panic - not syncing: sysrq triggered crash\n"
	      "[    5.000002] CPU: 0 PID: 55 Comm: guestd Not tainted 6.1.0 #1\n"
	      "[    5.000003] Hardware name: QEMU Standard PC (Q35 + ICH9, 2009)\n"
	      "[    5.000004] Call Trace:\n"
	      "[    5.000005]  <TASK>\n"
	      "[    5.000006]  dump_stack_lvl+0x10/0x42\n"
	      "[    5.000007]  panic+0x10/0x2d7\n"
	      "[    5.000008]  sysrq_handle_crash+0x10/0x20\n",
	      f);
	for (size_t i = 0; i < sizeof(payloads) / sizeof(payloads[0]); i++) {
		char line[512];

		expand(payloads[i], t, line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	fputs("[    5.000110]  dsa_loop_port_vlan_add+0x20/0x100 [dsa_loop]\n"
	      "[    5.000110]  ksys_write+0x10/0xe0\n"
	      "[    5.000111]  do_syscall_64+0x10/0x90\n"
	      "[    5.000112]  </TASK>\n"
	      "[    5.000113] Kernel Offset: disabled\n"
	      "[    5.000114] ---[ end Kernel panic - not syncing: sysrq "
	      "triggered crash ]---\n",
	      f);
	if (fclose(f) != 0)
		abort();
	f = fopen(console, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		abort();

	incident_timeline_init(&tl);
	snprintf(ev.u.scenario_begin.scenario, PROTO_NAME_MAX, "inj/panic");
	if (incident_timeline_feed(&tl, &ev) < 0)
		abort();
	pm.run_dir = run;
	pm.vmlinux = vmlinux;
	pm.tree = tree;
	in.pm = &pm;
	in.label = "vm1";
	in.console = console;
	in.tl = &tl;
	in.bundles = &bundles;
	in.sc = &sc;
	in.survived = false;
	in.open_step = -1;
	judge_incidents(&in);

	ok(sc.nincidents >= 1 && !strcmp(sc.incidents[0].kind, "panic"),
	   "the console's panic is the scenario's incident");
	ok(sc.nincidents && sc.incidents[0].bundle, "it points at a bundle");
	snprintf(bundle, sizeof(bundle), "%s/%s", run,
		 sc.nincidents && sc.incidents[0].bundle ?
			 sc.incidents[0].bundle :
			 "?");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", t, files[i]);
		okf(access(path, F_OK) < 0, "payload %zu did not create %s", i,
		    files[i]);
	}
	raw = slurp(bundle, "reports-raw.txt");
	ok(raw && strstr(raw, "ksys_write+a[$(touch${IFS}"),
	   "the payloads are in the report given to the decoder");
	stack = slurp(bundle, "stack.txt");
	dump = slurp(bundle, "dump.txt");
	tap_diag("dump.txt", dump ? dump : "(none)");
	tap_diag("stack.txt", stack ? stack : "(none)");
	ok(stack != NULL, "stack.txt written");
	if (stack) {
		ok(line_with(stack, "ksys_write", "(fs/read_write.c:"),
		   "ksys_write resolves to fs/read_write.c:N");
		ok(line_with(stack, "do_syscall_64",
			     "(arch/x86/entry/common.c:"),
		   "do_syscall_64 resolves to arch/x86/entry/common.c:N");
		if (dsa_loop_whole(cache, build))
			ok(line_with(stack, "dsa_loop_port_vlan_add",
				     "(drivers/net/dsa/dsa_loop.c:"),
			   "a module frame resolves to "
			   "drivers/net/dsa/dsa_loop.c:N");
		ok(line_with(stack, "sysrq_handle_crash",
			     "(drivers/tty/sysrq.c:"),
		   "sysrq_handle_crash resolves to drivers/tty/sysrq.c:N");
		for (size_t i = 0; i < sizeof(payloads) / sizeof(payloads[0]);
		     i++) {
			char want[512];

			expand(payloads[i], t, want, sizeof(want) - 1);
			strcat(want, "\n");
			okf(strstr(stack, want) != NULL,
			    "payload %zu is in stack.txt as it was", i);
		}
	}
	ok(dump && strstr(dump, "stack.txt: ") &&
		   strstr(dump, "with file:line"),
	   "dump.txt says what the decoder resolved");

	free(stack);
	free(dump);
	free(raw);
	free(text);
	incident_timeline_free(&tl);
	res_scenario_free(&sc);
	{
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t);
		if (tap_failed == 0 && system(cmd) != 0)
			printf("# could not remove %s\n", t);
		else if (tap_failed)
			printf("# left for a look: %s\n", t);
	}
	return tap_done();
}
