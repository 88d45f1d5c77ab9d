// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel lines (line.c; docs/kernel.md, "Lines"): the known lines, the
 * names of a line's trees and series folder, where a line's patch is read
 * (its own folder first, then the shared one), the series check with
 * shared patches, and the repository's own series of each line.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kb.h"
#include "tap.h"
#include "tfile.h"

int main(void)
{
	const struct kb_line *l61 = kb_line_get(NULL), *l612 = kb_line_get("6.12");
	char tmp[64], buf[PATH_MAX], own[PATH_MAX], shared[PATH_MAX], err[512];
	struct kb_series s = { 0 };

	/* The lines. */
	okf(l61 && !strcmp(l61->name, "6.1") && kb_line_is_default(l61),
	    "no line is 6.1, the default");
	okf(l612 && !strcmp(l612->package, "linux-source-6.12") &&
		    !strcmp(l612->tarball, "/usr/src/linux-source-6.12.tar.xz") &&
		    !kb_line_is_default(l612),
	    "6.12 is linux-source-6.12's tarball");
	okf(!kb_line_get("6.2") && !kb_line_get("") && !kb_line_get("6.1 "),
	    "other names are no line");
	okf(kbuild_line_check("6.12", err, sizeof(err)) == 0, "6.12 checks");
	okf(kbuild_line_check("5.10", err, sizeof(err)) == -EINVAL &&
		    !strcmp(err, "unknown kernel line '5.10' (known: 6.1, 6.12)"),
	    "an unknown line lists the known ones: %s", err);
	okf(!strcmp(kbuild_line_tarball("6.1"), KBUILD_DEFAULT_TARBALL) &&
		    !kbuild_line_tarball("7"),
	    "kbuild_line_tarball()");

	/* 6.1 keeps its names; another line has its own. */
	okf(kb_line_name(l61, "vla", buf, sizeof(buf)) == 0 &&
		    !strcmp(buf, "vla"),
	    "6.1's trees are trees/<flavour>: %s", buf);
	okf(kb_line_name(l612, "patched", buf, sizeof(buf)) == 0 &&
		    !strcmp(buf, "patched@6.12"),
	    "6.12's are trees/<flavour>@6.12: %s", buf);
	okf(kb_line_patches_dir(l61, "/k", buf, sizeof(buf)) == 0 &&
		    !strcmp(buf, "/k/patches"),
	    "6.1's series is patches/series");
	okf(kb_line_patches_dir(l612, "/k", buf, sizeof(buf)) == 0 &&
		    !strcmp(buf, "/k/patches/6.12"),
	    "6.12's is patches/6.12/series");

	/* Where a line's patch is read. */
	snprintf(tmp, sizeof(tmp), "/tmp/kbuild-test-line-XXXXXX");
	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	tfile_put(tmp, "patches/0001-a.patch", "shared\n");
	tfile_put(tmp, "patches/0002-b.patch", "6.1's\n");
	tfile_put(tmp, "patches/6.12/0002-b.patch", "6.12's\n");
	kb_path(shared, sizeof(shared), "%s/patches", tmp);
	kb_path(own, sizeof(own), "%s/patches/6.12", tmp);
	okf(kb_line_patch_path(own, shared, "0002-b.patch", buf, sizeof(buf)) ==
			    0 &&
		    !strcmp(buf + strlen(tmp), "/patches/6.12/0002-b.patch"),
	    "the line's own file first: %s", buf);
	okf(kb_line_patch_path(own, shared, "0001-a.patch", buf, sizeof(buf)) ==
			    0 &&
		    !strcmp(buf + strlen(tmp), "/patches/0001-a.patch"),
	    "else the shared one: %s", buf);
	okf(kb_line_patch_path(shared, NULL, "0002-b.patch", buf, sizeof(buf)) ==
			    0 &&
		    !strcmp(buf + strlen(tmp), "/patches/0002-b.patch"),
	    "6.1 reads patches/ only");

	/* The series check with shared patches. */
	{
		char *ownv[] = { "0002-b.patch", "0005-e.patch" };
		char *sharedv[] = { "0001-a.patch", "0002-b.patch",
				    "0020-z.patch" };

		kb_series_parse("6.12/series", "0001-a.patch\n0002-b.patch\n",
				&s, err, sizeof(err));
		okf(kb_series_check_shared("6.12/series", &s, ownv, 1, sharedv,
					   3, err, sizeof(err)) == 0,
		    "listed files from both folders, a shared one unlisted");
		okf(kb_series_check_shared("6.12/series", &s, ownv, 2, sharedv,
					   3, err, sizeof(err)) == -EINVAL &&
			    strstr(err, "'0005-e.patch' is not listed"),
		    "the line's own file must be listed: %s", err);
		okf(kb_series_check_shared("6.12/series", &s, ownv, 1, sharedv +
					   1, 2, err, sizeof(err)) == -EINVAL &&
			    strstr(err, "'0001-a.patch' is listed but missing"),
		    "a listed file in neither folder: %s", err);
		kb_series_free(&s);
	}
	kb_rm_rf(tmp);

	/* The repository's series: 0020 is 6.1's only (upstream in 6.12). */
	{
		const char *const w20[] = { "0020" }, *const w01[] = { "0001" };

		okf(kbuild_without_check(VLALAB_SRCDIR "/kernel", NULL, w20, 1,
					 err, sizeof(err)) == 0,
		    "6.1's series has 0020");
		okf(kbuild_without_check(VLALAB_SRCDIR "/kernel", "6.12", w20,
					 1, err, sizeof(err)) == -EINVAL,
		    "6.12's has not: %s", err);
		okf(kbuild_without_check(VLALAB_SRCDIR "/kernel", "6.12", w01,
					 1, err, sizeof(err)) == 0,
		    "6.12's has 0001 (its own port)");
		okf(kbuild_without_check(VLALAB_SRCDIR "/kernel", "6.0", w01, 1,
					 err, sizeof(err)) == -EINVAL &&
			    strstr(err, "unknown kernel line"),
		    "an unknown line: %s", err);
	}
	return tap_done();
}
