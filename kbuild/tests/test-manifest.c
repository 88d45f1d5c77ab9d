// SPDX-License-Identifier: GPL-2.0-only
/*
 * The build manifest: JSON round trip and warning counts from a log; what
 * a build has (kbuild_has_config(), kbuild_has_module()) in a scratch tree.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"
#include "tap.h"

static const char log_text[] =
	"  CC      kernel/fork.o\n"
	"lib/foo.c:12:9: warning: ISO C90 forbids variable length array 'buf' [-Wvla]\n"
	"lib/bar.c:40:1: warning: the frame size of 1200 bytes is larger than 1024 bytes [-Wframe-larger-than=]\n"
	"drivers/x.c:3:1: warning: the frame size of 2048 bytes is larger than 1024 bytes [-Wframe-larger-than=]\n"
	"lib/foo.c:12:9: note: the [-Wvla] flag (not a warning line)\n"
	"lib/baz.c:1:1: warning: unused variable 'x' [-Wunused-variable]\n"
	"net/y.c:5:5: warning: ISO C90 forbids array 'z' whose size cannot be evaluated [-Wvla]";

/* sha256 of the JSON of the manifest with a tree and external below. */
#define MANIFEST_PIN "221c6a4163a0d492975f710f4a5d406e86f7d32597c3904ab36924fd917dc253"

static void test_ledger(void)
{
	static const char cold[] =
		"  CC      lib/foo.o\n"
		"lib/foo.c:12:9: warning: ISO C90 forbids variable length array 'buf' [-Wvla]\n"
		"lib/foo.c:40:1: warning: the frame size of 1200 bytes is larger than 1024 bytes [-Wframe-larger-than=]\n"
		"  CC [M]  drivers/net/dsa/dsa_loop.o\n"
		"drivers/net/dsa/dsa_loop.c:9:1: warning: the frame size of 2048 bytes is larger than 1024 bytes [-Wframe-larger-than=]\n"
		"  CC      kernel/fork.o\n"
		"  AR      lib/built-in.a\n";
	static const char incr[] =
		"  SYNC    include/config/auto.conf\n"
		"  CC      lib/foo.o\n"
		"  LD      vmlinux.o\n";
	struct kb_ledger l = { .complete = true }, back;
	unsigned vla, frame;
	char *text = NULL;

	okf(kb_ledger_update(&l, cold, strlen(cold)) == 0, "a cold log fills the ledger");
	kb_ledger_totals(&l, &vla, &frame);
	okf(vla == 1 && frame == 2, "totals after the cold build: %u Wvla, %u Wframe", vla, frame);
	okf(kb_ledger_update(&l, incr, strlen(incr)) == 0, "an incremental log updates it");
	kb_ledger_totals(&l, &vla, &frame);
	okf(vla == 0 && frame == 1, "a recompiled object's warnings are replaced, others kept (%u, %u)", vla,
	    frame);
	okf(kb_ledger_to_text(&l, &text) == 0 && text, "the ledger serializes");
	okf(text && !strncmp(text, "vlalab-warnings 1 complete\n", 27) && !strstr(text, "lib/foo.o") &&
		    strstr(text, "drivers/net/dsa/dsa_loop.o\t0\t1\n"),
	    "only objects with warnings are written");
	okf(text && kb_ledger_parse(text, &back) == 0 && back.complete && back.n == 1,
	    "and parse back");
	kb_ledger_free(&back);
	free(text);
	kb_ledger_free(&l);
	okf(kb_ledger_parse("junk\n", &back) < 0, "a bad header is refused");
	okf(kb_ledger_parse("vlalab-warnings 1 partial\nx.o\tnope\n", &back) < 0, "a bad line is refused");
	okf(kb_ledger_parse("vlalab-warnings 1 partial\n", &back) == 0 && !back.complete && back.n == 0,
	    "an empty partial ledger");
	kb_ledger_free(&back);
}

static char tmp[64];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], dir[PATH_MAX];

	if (kb_path(path, sizeof(path), "%s/%s", tmp, rel) < 0)
		exit(1);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	if (kb_mkdir_p(dir, 0755) < 0 || fileio_write_atomic(path, text, strlen(text)) < 0) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

/* kbuild_has_config() on one option of tmp's .config: its return and value. */
static void has_config(const char *opt, int want, const char *want_value, const char *what)
{
	char path[PATH_MAX], *val = (char *)"unset", err[256] = "";
	int r;

	snprintf(path, sizeof(path), "%s/config", tmp);
	r = kbuild_has_config(path, opt, &val, err, sizeof(err));
	okf(r == want && (want_value ? val && !strcmp(val, want_value) : !val) && !err[0],
	    "has_config %s: %s (got %d, '%s')", opt, what, r, val ? val : "(null)");
	if (r >= 0)
		free(val);
}

static void has_module(const char *dir, const char *name, int want, const char *what)
{
	char path[PATH_MAX], err[256] = "";
	int r;

	snprintf(path, sizeof(path), "%s/%s", tmp, dir);
	r = kbuild_has_module(path, name, err, sizeof(err));
	okf(r == want && !err[0], "has_module %s in %s: %s (got %d)", name, dir, what, r);
}

static void test_has(void)
{
	char path[PATH_MAX], err[256] = "", want[PATH_MAX + 64], *val = NULL;

	snprintf(tmp, sizeof(tmp), "/tmp/kbuild-test-manifest-XXXXXX");
	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	put("config", "CONFIG_FTRACE=y\n"
		      "CONFIG_MODULES=y\n"
		      "CONFIG_SAMPLE_TRACE_PRINTK=m\n"
		      "# CONFIG_KALLSYMS_ALL is not set\n"
		      "CONFIG_NR_CPUS=64\n"
		      "CONFIG_FTRACE_EXTRA=y\n"
		      "CONFIG_EMPTY=\n"
		      "CONFIG_LAST=m");
	has_config("CONFIG_FTRACE", 1, "y", "built in");
	has_config("CONFIG_SAMPLE_TRACE_PRINTK", 1, "m", "a module");
	has_config("CONFIG_LAST", 1, "m", "the last line, without a newline");
	has_config("CONFIG_KALLSYMS_ALL", 0, NULL, "'is not set' is not set");
	has_config("CONFIG_NOT_THERE", 0, NULL, "an absent option is not set");
	has_config("CONFIG_FTRACE_E", 0, NULL, "a prefix of an option is not that option");
	has_config("CONFIG_NR_CPUS", 0, "64", "a value other than y or m, as written");
	has_config("CONFIG_EMPTY", 0, "", "an empty value");
	snprintf(path, sizeof(path), "%s/config", tmp);
	okf(kbuild_has_config(path, "CONFIG_FTRACE", NULL, NULL, 0) == 1, "has_config: value and err may be NULL");
	snprintf(path, sizeof(path), "%s/nope", tmp);
	snprintf(want, sizeof(want), "cannot read '%s': No such file or directory", path);
	okf(kbuild_has_config(path, "CONFIG_FTRACE", &val, err, sizeof(err)) == -ENOENT && !strcmp(err, want),
	    "has_config: a missing .config is -ENOENT, and err names it (%s)", err);

	put("mods/modules.dep", "kernel/samples/trace_printk/trace-printk.ko:\n"
				"kernel/drivers/net/dsa/dsa_loop.ko.xz: kernel/net/dsa/dsa_core.ko\n");
	put("mods/modules.builtin", "kernel/drivers/virtio/virtio_pci.ko\n");
	has_module("mods", "trace_printk", 1, "in modules.dep, '-' and '_' alike");
	has_module("mods", "dsa-loop", 1, "a compressed module, '_' and '-' alike");
	has_module("mods", "virtio_pci", 1, "built in");
	has_module("mods", "dsa_core", 0, "a dependency is not a module line");
	has_module("mods", "trace", 0, "a prefix of a module is not that module");
	put("nodep/kernel/misc/foo-bar.ko.xz", "");
	put("nodep/kernel/samples/trace_printk/trace-printk.ko", "");
	put("nodep/kernel/misc/notes.txt", "");
	has_module("nodep", "foo_bar", 1, "no modules.dep: the .ko files are walked");
	has_module("nodep", "trace_printk", 1, "no modules.dep: a deeper .ko file");
	has_module("nodep", "notes", 0, "no modules.dep: only .ko files count");
	has_module("nodep", "virtio_pci", 0, "no modules.builtin: only .ko files");
	snprintf(path, sizeof(path), "%s/nope", tmp);
	snprintf(want, sizeof(want), "cannot read the modules in '%s': No such file or directory", path);
	err[0] = '\0';
	okf(kbuild_has_module(path, "foo", err, sizeof(err)) == -ENOENT && !strcmp(err, want),
	    "has_module: a missing modules directory is -ENOENT, and err names it (%s)", err);
	okf(kbuild_module_name_eq("dsa-loop", "dsa_loop") && kbuild_module_name_eq("a_b", "a-b") &&
		    !kbuild_module_name_eq("dsa_loop", "dsa_loo") && !kbuild_module_name_eq("dsa", "dsa_loop"),
	    "module names: '-' and '_' alike, nothing else");
	kb_rm_rf(tmp);
}

int main(void)
{
	struct kb_manifest_item patches[] = { { .name = "0001-x.patch", .sha256 = "ab" } };
	char *without[] = { "0002-y.patch" };
	struct kb_manifest_item frags[] = { { .name = "base.config", .sha256 = "cd" },
					    { .name = "dsa.config", .sha256 = "ef" } };
	struct kb_evidence ev[2] = {
		{ "lib/bch.o", "bch_encode", "build", "bch_encode bch_encode.cold", 2557, 192, "dynamic", 1, 0 },
		{ "lib/bch.o", "build_deg2_base", "build", "", -1, -1, "", 1, 0 },
	};
	struct kb_manifest m = {
		.line = "6.12",
		.source_version = "6.1.192-3",
		.compiler = "gcc 12/x86_64",
		.flavour = "patched",
		.key = "0123",
		.release = "6.1.192",
		.patches = patches,
		.npatches = 1,
		.fragments = frags,
		.nfragments = 2,
		.without = without,
		.nwithout = 1,
		.build_seconds = 412.5,
		.timestamp = 1764740000,
		.incremental = true,
		.warn_vla = 2,
		.warn_frame = 3,
		.warn_complete = true,
		.log_vla = 1,
		.log_frame = 0,
		.seeded_from = "patched",
		.seed_seconds = 133.25,
		.evidence = ev,
		.nevidence = 2,
	}, back;
	unsigned vla = 0, frame = 0;
	char *json = NULL;

	test_ledger();
	test_has();

	kb_count_warnings(log_text, strlen(log_text), &vla, &frame);
	okf(vla == 2, "two -Wvla warnings (got %u)", vla);
	okf(frame == 2, "two -Wframe-larger-than warnings (got %u)", frame);
	kb_count_warnings("", 0, &vla, &frame);
	okf(vla == 0 && frame == 0, "an empty log has none");

	okf(kb_manifest_to_json(&m, &json) == 0 && json, "manifest serializes");
	if (!json)
		return tap_done();
	okf(strstr(json, "\"gcc 12/x86_64\"") != NULL, "'/' is not escaped");
	okf(strstr(json, "\"Wvla\"") && strstr(json, "\"Wframe-larger-than\""), "warning counts present");
	okf(strchr(json, '\n') != NULL, "pretty-printed");
	okf(kb_manifest_parse(json, &back) == 0, "manifest parses back");
	okf(!strcmp(back.source_version, "6.1.192-3") && !strcmp(back.flavour, "patched") &&
		    !strcmp(back.key, "0123") && !strcmp(back.release, "6.1.192"),
	    "strings round-trip");
	okf(back.line && !strcmp(back.line, "6.12"), "the line round-trips");
	okf(back.npatches == 1 && !strcmp(back.patches[0].name, "0001-x.patch") &&
		    !strcmp(back.patches[0].sha256, "ab"),
	    "patches round-trip");
	okf(back.nfragments == 2 && !strcmp(back.fragments[1].name, "dsa.config") &&
		    !strcmp(back.fragments[1].sha256, "ef"),
	    "fragments round-trip");
	okf(back.nwithout == 1 && !strcmp(back.without[0], "0002-y.patch"), "left-out patches round-trip");
	okf(back.build_seconds == 412.5 && back.timestamp == 1764740000 && back.incremental &&
		    back.warn_vla == 2 && back.warn_frame == 3 && back.warn_complete && back.log_vla == 1 &&
		    back.log_frame == 0,
	    "numbers round-trip");
	okf(back.seeded_from && !strcmp(back.seeded_from, "patched") && back.seed_seconds == 133.25,
	    "the seed round-trips");
	okf(back.nevidence == 2 && !strcmp(back.evidence[0].symbols, "bch_encode bch_encode.cold") &&
		    back.evidence[0].code_bytes == 2557 && back.evidence[0].frame_bytes == 192 &&
		    !strcmp(back.evidence[0].frame_kind, "dynamic") && back.evidence[0].vla_warnings == 1,
	    "evidence round-trips");
	okf(back.nevidence == 2 && back.evidence[1].code_bytes == -1 && back.evidence[1].frame_bytes == -1 &&
		    strstr(json, "\"code_bytes\":null"),
	    "an inlined function's sizes are null, and read back as -1");
	okf(strstr(json, "\"cold\":false") && !back.cold,
	    "an incremental build is not cold, and says so");
	kb_manifest_free(&back);
	free(json);

	/* A cold build says so: hostctl bench reports its build_seconds. */
	{
		struct kb_manifest c = m;

		c.incremental = false;
		c.seeded_from = NULL;
		c.cold = true;
		okf(kb_manifest_to_json(&c, &json) == 0 &&
			    strstr(json, "\"cold\":true") &&
			    kb_manifest_parse(json, &back) == 0 && back.cold,
		    "a cold build's manifest says \"cold\": true and reads back");
		kb_manifest_free(&back);
		free(json);
	}

	/* A user's tree and a kernel built elsewhere say which they were. */
	{
		char *missing[] = { "configs/edac.config:13: CONFIG_X=y: not in this tree's Kconfig" };
		struct kb_manifest t = m;
		char hex[65] = "";

		t.tree_path = "/src/linux";
		t.tree_id = "git:0123456789abcdef0123456789abcdef01234567";
		t.tree_series = true;
		t.absent = missing;
		t.nabsent = 1;
		t.ext_bzimage = "/boot/vmlinuz";
		snprintf(t.ext_sha256, sizeof(t.ext_sha256), "%064d", 7);
		t.ext_modules = "/lib/modules/6.1.192";
		t.ext_config = "ikconfig:bzImage";
		t.ext_version = "6.1.192 (root@vm) #1";
		okf(kb_manifest_to_json(&t, &json) == 0 && kb_manifest_parse(json, &back) == 0,
		    "a manifest with tree and external round-trips");
		/* Every field, byte for byte as main's manifest.c wrote it
		 * before the split (ledger.c, has.c): a build's manifest.json
		 * must not change with the code's layout. */
		okf(json && kb_sha256_hex(json, strlen(json), hex) == 0 && !strcmp(hex, MANIFEST_PIN),
		    "manifest.json bytes as before the split (sha256 %s)", hex);
		okf(back.tree_path && !strcmp(back.tree_path, "/src/linux") &&
			    !strcmp(back.tree_id, t.tree_id) && back.tree_series && back.nabsent == 1 &&
			    !strcmp(back.absent[0], missing[0]),
		    "the tree, its id, the series and the missing options");
		okf(back.ext_bzimage && !strcmp(back.ext_bzimage, "/boot/vmlinuz") &&
			    !strcmp(back.ext_sha256, t.ext_sha256) &&
			    !strcmp(back.ext_modules, t.ext_modules) && !strcmp(back.ext_config, t.ext_config) &&
			    !strcmp(back.ext_version, t.ext_version),
		    "the bzImage, its sha256, modules, config and version");
		kb_manifest_free(&back);
		free(json);
		okf(kb_manifest_parse("{\"source_version\":\"a\",\"compiler\":\"b\",\"flavour\":\"c\",\"key\":\"k\","
				      "\"release\":\"r\",\"patches\":[],\"fragments\":[],\"tree\":{\"path\":1}}",
				      &back) < 0,
		    "a tree without a string path is refused");
	}

	okf(kb_manifest_parse("{\"source_version\": 3}", &back) < 0, "a wrong type is refused");
	okf(kb_manifest_parse("not json", &back) < 0, "garbage is refused");
	okf(kb_manifest_parse("{\"source_version\":\"a\",\"compiler\":\"b\",\"flavour\":\"c\",\"key\":\"k\","
			      "\"release\":\"r\",\"patches\":[{\"name\":1,\"sha256\":\"x\"}],\"fragments\":[]}",
			      &back) < 0,
	    "a patch with a numeric name is refused");
	okf(kb_manifest_parse("{\"source_version\":\"a\",\"compiler\":\"b\",\"flavour\":\"c\",\"key\":\"k\","
			      "\"release\":\"r\",\"patches\":[],\"fragments\":[]}",
			      &back) == 0 && back.nwithout == 0 && !back.line,
	    "an older manifest without \"without\" or \"line\" parses, with none left out (6.1)");
	kb_manifest_free(&back);
	okf(kb_manifest_parse("{\"source_version\":\"a\",\"compiler\":\"b\",\"flavour\":\"c\",\"key\":\"k\","
			      "\"release\":\"r\",\"patches\":[],\"fragments\":[],\"without\":[1]}",
			      &back) < 0,
	    "a numeric left-out name is refused");
	return tap_done();
}
