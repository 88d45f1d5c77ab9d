// SPDX-License-Identifier: GPL-2.0-only
/* The build manifest: JSON round trip and warning counts from a log. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

int main(void)
{
	struct kb_manifest_item patches[] = { { .name = "0001-x.patch", .sha256 = "ab" } };
	char *without[] = { "0002-y.patch" };
	struct kb_manifest_item frags[] = { { .name = "base.config", .sha256 = "cd" },
					    { .name = "dsa.config", .sha256 = "ef" } };
	struct kb_manifest m = {
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
	}, back;
	unsigned vla = 0, frame = 0;
	char *json = NULL;

	test_ledger();

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
	kb_manifest_free(&back);
	free(json);

	okf(kb_manifest_parse("{\"source_version\": 3}", &back) < 0, "a wrong type is refused");
	okf(kb_manifest_parse("not json", &back) < 0, "garbage is refused");
	okf(kb_manifest_parse("{\"source_version\":\"a\",\"compiler\":\"b\",\"flavour\":\"c\",\"key\":\"k\","
			      "\"release\":\"r\",\"patches\":[{\"name\":1,\"sha256\":\"x\"}],\"fragments\":[]}",
			      &back) < 0,
	    "a patch with a numeric name is refused");
	okf(kb_manifest_parse("{\"source_version\":\"a\",\"compiler\":\"b\",\"flavour\":\"c\",\"key\":\"k\","
			      "\"release\":\"r\",\"patches\":[],\"fragments\":[]}",
			      &back) == 0 && back.nwithout == 0,
	    "an older manifest without \"without\" parses, with none left out");
	kb_manifest_free(&back);
	okf(kb_manifest_parse("{\"source_version\":\"a\",\"compiler\":\"b\",\"flavour\":\"c\",\"key\":\"k\","
			      "\"release\":\"r\",\"patches\":[],\"fragments\":[],\"without\":[1]}",
			      &back) < 0,
	    "a numeric left-out name is refused");
	return tap_done();
}
