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

int main(void)
{
	struct kb_manifest_item patches[] = { { .name = "0001-x.patch", .sha256 = "ab" } };
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
		.build_seconds = 412.5,
		.timestamp = 1764740000,
		.incremental = true,
		.warn_vla = 2,
		.warn_frame = 3,
	}, back;
	unsigned vla = 0, frame = 0;
	char *json = NULL;

	kb_count_warnings(log_text, strlen(log_text), &vla, &frame);
	CHECK(vla == 2, "two -Wvla warnings (got %u)", vla);
	CHECK(frame == 2, "two -Wframe-larger-than warnings (got %u)", frame);
	kb_count_warnings("", 0, &vla, &frame);
	CHECK(vla == 0 && frame == 0, "an empty log has none");

	CHECK(kb_manifest_to_json(&m, &json) == 0 && json, "manifest serializes");
	if (!json)
		return tap_done();
	CHECK(strstr(json, "\"gcc 12/x86_64\"") != NULL, "'/' is not escaped");
	CHECK(strstr(json, "\"Wvla\"") && strstr(json, "\"Wframe-larger-than\""), "warning counts present");
	CHECK(strchr(json, '\n') != NULL, "pretty-printed");
	CHECK(kb_manifest_parse(json, &back) == 0, "manifest parses back");
	CHECK(!strcmp(back.source_version, "6.1.192-3") && !strcmp(back.flavour, "patched") &&
		      !strcmp(back.key, "0123") && !strcmp(back.release, "6.1.192"),
	      "strings round-trip");
	CHECK(back.npatches == 1 && !strcmp(back.patches[0].name, "0001-x.patch") &&
		      !strcmp(back.patches[0].sha256, "ab"),
	      "patches round-trip");
	CHECK(back.nfragments == 2 && !strcmp(back.fragments[1].name, "dsa.config") &&
		      !strcmp(back.fragments[1].sha256, "ef"),
	      "fragments round-trip");
	CHECK(back.build_seconds == 412.5 && back.timestamp == 1764740000 && back.incremental &&
		      back.warn_vla == 2 && back.warn_frame == 3,
	      "numbers round-trip");
	kb_manifest_free(&back);
	free(json);

	CHECK(kb_manifest_parse("{\"source_version\": 3}", &back) < 0, "a wrong type is refused");
	CHECK(kb_manifest_parse("not json", &back) < 0, "garbage is refused");
	CHECK(kb_manifest_parse("{\"source_version\":\"a\",\"compiler\":\"b\",\"flavour\":\"c\",\"key\":\"k\","
				"\"release\":\"r\",\"patches\":[{\"name\":1,\"sha256\":\"x\"}],\"fragments\":[]}",
				&back) < 0,
	      "a patch with a numeric name is refused");
	return tap_done();
}
