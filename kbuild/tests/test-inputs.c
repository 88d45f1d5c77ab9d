// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a build is made of (inputs.c), read from a small kernel/ of the
 * test's own: the series less a left-out patch, another line's series
 * with a patch it shares with 6.1's, the config fragments in their merge
 * order (base.config first, configs/<line>/ in the place of the fragments
 * it names, a flavour's folder last), a flavour's own patches after the
 * series, the refusals, and the cache key of each, pinned: what is read,
 * its names and its order all go into the key of every cached kernel, so
 * a change to any of them must be a change of the pins. (The pins are
 * what kbuild.c's read_inputs() and compute_key() gave before they moved
 * here, with the same source version and compiler.)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kb.h"
#include "tap.h"
#include "tfile.h"

static char root[] = "/tmp/kbuild-test-inputs-XXXXXX";
/* What kb_inputs_read() said to its kb_progress: its first line. */
static char msgs[4096];

/* Reads root's inputs of flavour on line (with a fixed source version and
 * compiler, as kbuild_run() fills them in) into *in, and their key. */
static int read_key(const char *dir, const char *line, const char *flavour,
		    const char *without, struct kb_inputs *in, char key[65])
{
	struct kbuild_opts o = { .without = &without, .n_without = !!without };
	FILE *f = fmemopen(msgs, sizeof(msgs), "w");
	struct kb_progress p;
	int r;

	memset(in, 0, sizeof(*in));
	in->line = kb_line_get(line);
	snprintf(in->source_version, sizeof(in->source_version), "6.1.0-test");
	snprintf(in->compiler, sizeof(in->compiler), "gcc (test) 12.2.0");
	kb_progress_init(&p, f, false);
	r = kb_inputs_read(dir, in->line, flavour, &o, in, &p);
	fclose(f);
	msgs[strcspn(msgs, "\n")] = '\0';
	key[0] = '\0';
	if (r == 0)
		r = kb_inputs_key(in, flavour, key);
	return r;
}

/* "a b c": the series' names, or the fragments'. */
static const char *series_names(const struct kb_inputs *in)
{
	static char buf[1024];

	buf[0] = '\0';
	for (size_t i = 0; i < in->series.n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
			 i ? " " : "", in->series.v[i].name);
	return buf;
}

static const char *frag_names(const struct kb_inputs *in)
{
	static char buf[1024];

	buf[0] = '\0';
	for (size_t i = 0; i < in->nfrags; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
			 i ? " " : "", in->frag_names[i]);
	return buf;
}

/* One build's inputs: its series, its fragments and its key. */
static void check(const char *line, const char *flavour, const char *without,
		  const char *want_series, const char *want_frags,
		  const char *want_key)
{
	struct kb_inputs in;
	char key[65];
	int r;

	r = read_key(root, line, flavour, without, &in, key);
	okf(r == 0, "%s %s%s%s: read", line, flavour,
	    without ? " without " : "", without ? without : "");
	if (r < 0)
		printf("# %s\n", msgs);
	is_str(series_names(&in), want_series, "its series");
	is_str(frag_names(&in), want_frags, "its fragments, in merge order");
	is_str(key, want_key, "its key");
	kb_inputs_free(&in);
}

int main(void)
{
	struct kb_inputs in;
	char key[65], other[sizeof(root)], ver[128], tarball[PATH_MAX];
	struct timespec ts[2] = { { .tv_sec = 1700000000 },
				  { .tv_sec = 1700000000 } };
	int r;

	if (!mkdtemp(root)) {
		printf("Bail out! mkdtemp %s\n", root);
		return 1;
	}
	tfile_put(root, "patches/series", "0001-a.patch\n0002-b.patch\n");
	tfile_put(root, "patches/0001-a.patch", "a\n");
	tfile_put(root, "patches/0002-b.patch", "b\n");
	tfile_put(root, "patches/6.12/series", "0001-a.patch\n0003-c.patch\n");
	tfile_put(root, "patches/6.12/0003-c.patch", "c\n");
	tfile_put(root, "configs/x.config", "CONFIG_X=y\n");
	tfile_put(root, "configs/a.config", "CONFIG_A=y\n");
	tfile_put(root, "configs/base.config", "CONFIG_BASE=y\n");
	tfile_put(root, "configs/y.config", "# CONFIG_Y is not set\n");
	tfile_put(root, "configs/6.12/x.config", "CONFIG_X=m\n");
	tfile_put(root, "configs/6.12/z.config", "CONFIG_Z=y\n");
	tfile_put(root, "flavours/f/f.config", "CONFIG_F=y\n");
	tfile_put(root, "flavours/f/0001-f.patch", "f\n");

	check("6.1", "patched", NULL, "0001-a.patch 0002-b.patch",
	      "base.config a.config x.config y.config",
	      "210ab715921fba1053e7e749a7ea2ae058f8ede956a87ac9ea594274d0e841ca");
	check("6.1", "patched", "0002", "0001-a.patch",
	      "base.config a.config x.config y.config",
	      "14a57c8253111201feccd6ec914007c26a87924d7825c309b585400e4d02f163");
	check("6.1", "vanilla", NULL, "", "base.config a.config x.config y.config",
	      "fe784e06d6e36e3a486f43b275e7b5700c3cdc5aae21768e80dee11f9f377e18");
	check("6.1", "f", NULL, "0001-a.patch 0002-b.patch flavours/f/0001-f.patch",
	      "base.config a.config x.config y.config flavours/f/f.config",
	      "61b6a72b27ca3ad2d5ce72bd2921c1e4f739b47efbe518c62197f6cc00a3c945");
	check("6.1", KB_TREE_FLAVOUR, NULL, "", "base.config a.config x.config y.config",
	      "34f25f5b5d2b3dae91220519b0408e39ee50e0328716720cf45902a99444a573");
	check("6.12", "patched", NULL, "0001-a.patch 0003-c.patch",
	      "base.config a.config configs/6.12/x.config y.config configs/6.12/z.config",
	      "2f533de62aae87d1378bf5b707127a617ddc2837c776455a9464e6b36049e431");
	check("6.12", "f", "0001",
	      "0003-c.patch flavours/f/0001-f.patch",
	      "base.config a.config configs/6.12/x.config y.config configs/6.12/z.config flavours/f/f.config",
	      "5a82383c3aff280fd62d99f97c44b6582b2e8335c39cbb65f181ba1121f016c9");

	/* What is read is what is hashed: 6.12 reads 0001 from patches/. */
	r = read_key(root, "6.12", "patched", NULL, &in, key);
	okf(r == 0 && in.series.n == 2 && in.patch_len[0] == 2 &&
		    !memcmp(in.patch_data[0], "a\n", 2) &&
		    in.patch_len[1] == 2 && !memcmp(in.patch_data[1], "c\n", 2),
	    "6.12's shared patch is read from patches/, its own from patches/6.12/");
	kb_inputs_free(&in);

	/* The refusals, each said once with its file. */
	r = read_key(root, "6.1", "patched", "0009", &in, key);
	okf(r == -EINVAL && strstr(msgs, "kbuild: ") && strstr(msgs, "0009"),
	    "a left-out patch not in the series: %s", msgs);
	kb_inputs_free(&in);
	tfile_put(root, "configs/y.config", "CONFIG_Y=y\nY=n\n");
	r = read_key(root, "6.1", "patched", NULL, &in, key);
	okf(r == -EINVAL && strstr(msgs, "/configs/y.config:2: not an option line"),
	    "a fragment's bad line, with its file and line: %s", msgs);
	kb_inputs_free(&in);
	tfile_put(root, "configs/y.config", "# CONFIG_Y is not set\n");
	snprintf(other, sizeof(other), "%s", "/tmp/kbuild-test-inputs-XXXXXX");
	if (!mkdtemp(other)) {
		printf("Bail out! mkdtemp %s\n", other);
		return 1;
	}
	tfile_put(other, "configs/README", "no fragments\n");
	r = read_key(other, "6.1", "vanilla", NULL, &in, key);
	okf(r == -ENOENT && strstr(msgs, "kbuild: no config fragments (*.config) in '"),
	    "no fragments: %s", msgs);
	kb_inputs_free(&in);

	/* A tarball other than the line's is known by its size and mtime. */
	snprintf(tarball, sizeof(tarball), "%s/linux.tar.xz", root);
	tfile_put(root, "linux.tar.xz", "12345");
	utimensat(AT_FDCWD, tarball, ts, 0);
	r = kb_source_version(tarball, kb_line_get(NULL), ver, sizeof(ver));
	okf(r == 0 && !strcmp(ver, "tarball:5:1700000000"),
	    "another tarball's version: %s", ver);

	kb_rm_rf(root);
	kb_rm_rf(other);
	return tap_done();
}
