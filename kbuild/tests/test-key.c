// SPDX-License-Identifier: GPL-2.0-only
/* The cache key changes when, and only when, an input changes. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kb.h"
#include "tap.h"

struct fixture {
	struct kb_blob patches[2];
	struct kb_blob frags[2];
	struct kb_key_input in;
};

static void fixture_init(struct fixture *f)
{
	f->patches[0] = (struct kb_blob){ "0001-a.patch", "diff a\n", 7 };
	f->patches[1] = (struct kb_blob){ "0002-b.patch", "diff b\n", 7 };
	f->frags[0] = (struct kb_blob){ "base.config", "CONFIG_A=y\n", 11 };
	f->frags[1] = (struct kb_blob){ "ftrace.config", "CONFIG_B=m\n", 11 };
	f->in = (struct kb_key_input){
		.source_version = "6.1.192-3",
		.compiler = "gcc (Debian 12.2.0-14+deb12u1) 12.2.0",
		.flavour = "patched",
		.series = { "series", "0001-a.patch\n0002-b.patch\n", 26 },
		.patches = f->patches,
		.npatches = 2,
		.fragments = f->frags,
		.nfragments = 2,
	};
}

static void key_of(struct fixture *f, char key[65])
{
	if (kb_cache_key(&f->in, key) < 0)
		strcpy(key, "error");
}

int main(void)
{
	struct fixture f;
	char base[65], k[65];

	fixture_init(&f);
	key_of(&f, base);
	okf(strlen(base) == 64, "key is 64 hex digits: %s", base);

	/* Same content in other buffers: same key. */
	{
		char *copy = strdup("CONFIG_A=y\n");

		fixture_init(&f);
		f.frags[0].data = copy;
		key_of(&f, k);
		okf(!strcmp(k, base), "same inputs in other memory give the same key");
		free(copy);
	}

#define VARY(what, stmt)                                          \
	do {                                                      \
		fixture_init(&f);                                 \
		stmt;                                             \
		key_of(&f, k);                                    \
		okf(strcmp(k, base) != 0, "key changes with %s", what); \
	} while (0)

	VARY("the source version", f.in.source_version = "6.1.192-4");
	VARY("the compiler", f.in.compiler = "gcc 13");
	VARY("the flavour", f.in.flavour = "vanilla");
	VARY("the series file", f.in.series = ((struct kb_blob){ "series", "0001-a.patch\n", 13 }));
	VARY("a patch's content", f.patches[1].data = "diff c\n");
	VARY("a patch's name", f.patches[1].name = "0002-c.patch");
	VARY("the patch count", f.in.npatches = 1);
	VARY("a fragment's content", f.frags[1].data = "CONFIG_B=y\n");
	VARY("a fragment's name", f.frags[1].name = "dsa.config");
	VARY("the fragment count", f.in.nfragments = 1);
	VARY("an evidence list", f.in.evidence = ((struct kb_blob){ "evidence", "function lib/bch.o bch_encode\n", 30 }));
	VARY("the fragment order", (f.frags[0] = (struct kb_blob){ "ftrace.config", "CONFIG_B=m\n", 11 },
				    f.frags[1] = (struct kb_blob){ "base.config", "CONFIG_A=y\n", 11 }));
	/* Framing: moving a byte from one input to the next changes the key. */
	VARY("bytes moved between name and content",
	     (f.frags[0] = (struct kb_blob){ "base.configC", "ONFIG_A=y\n", 10 }));
	VARY("an empty fragment appended",
	     (f.in.nfragments = 2, f.frags[1] = (struct kb_blob){ "ftrace.config", "", 0 }));

	/* --without-patch: the patch leaves the list and is named. */
	{
		static const char *const without[] = { "0002-b.patch" };

		VARY("a left-out patch", (f.in.npatches = 1, f.in.without = without, f.in.nwithout = 1));
		/* Named alone, with the same patch list, it still counts. */
		VARY("a left-out name", (f.in.without = without, f.in.nwithout = 1));
		fixture_init(&f);
		f.in.without = without;
		f.in.nwithout = 0;
		key_of(&f, k);
		okf(!strcmp(k, base), "an empty left-out list keeps the usual key");
	}

	/* Kernel lines: the default line's key is the one from before lines
	 * (so that every cached 6.1 kernel stays a hit): these keys of a
	 * patched, debug and vla request are what main's kb_cache_key() gave
	 * for them at 4fe1993, before kb_key_input had a line. Another line
	 * has keys of its own. */
	{
		static const struct {
			const char *flavour, *key;
		} pinned[] = {
			{ "patched",
			  "4ab6265b977d8997c20b9ce6eb61ff3f0792391ab20f55983a89aababc4e7884" },
			{ "debug",
			  "e17d39af5d8c881e7c6e9acc0f91fecda9f24ec0ae6a32ba909b66f4d67dd715" },
			{ "vla",
			  "d7f4b071a7adb41ea270f7f5625fb4499760aacb50612da438b17419422a0480" },
		};
		struct kb_blob frags[3] = {
			{ "base.config", "CONFIG_A=y\n", 11 },
			{ "ftrace.config", "CONFIG_B=m\n", 11 },
			{ "flavours/debug/debug.config", "CONFIG_KASAN=y\n", 15 },
		};
		static const char *const lines[] = { NULL, "6.1" };

		for (size_t i = 0; i < 3; i++) {
			for (size_t j = 0; j < 2; j++) {
				fixture_init(&f);
				f.in.fragments = frags;
				f.in.nfragments = i ? 3 : 2;
				f.in.flavour = pinned[i].flavour;
				f.in.line = lines[j];
				key_of(&f, k);
				okf(!strcmp(k, pinned[i].key),
				    "line %s, %s: the key from before lines",
				    lines[j] ? lines[j] : "(none)",
				    pinned[i].flavour);
			}
		}
		VARY("the line (6.12)", f.in.line = "6.12");
		fixture_init(&f);
		f.in.line = "6.12";
		key_of(&f, k);
		{
			char k2[65];

			f.in.line = "6.13";
			key_of(&f, k2);
			okf(strcmp(k, k2) != 0, "two other lines, two keys");
		}
	}

	/* Stability: the key of the fixture is fixed by the format. */
	fixture_init(&f);
	key_of(&f, k);
	okf(!strcmp(k, base), "the key is deterministic");
	return tap_done();
}
