// SPDX-License-Identifier: GPL-2.0-only
/* Series parsing and checking against the patch folder. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "kb.h"
#include "tap.h"

int main(void)
{
	struct kb_series s;
	char err[512] = "";

	okf(kb_series_parse("patches/series",
			    "# The series.\n\n0001-first.patch\n  0002-second.patch  \n# tail comment\n", &s, err,
			    sizeof(err)) == 0,
	    "series parses");
	okf(s.n == 2 && !strcmp(s.v[0].name, "0001-first.patch") && s.v[0].line == 3 &&
		    !strcmp(s.v[1].name, "0002-second.patch") && s.v[1].line == 4,
	    "names and line numbers, blanks trimmed");
	{
		char *present[] = { "0001-first.patch", "0002-second.patch", "series", "README" };
		char *extra[] = { "0001-first.patch", "0002-second.patch", "0003-stray.patch", "series" };
		char *missing[] = { "0001-first.patch", "series" };

		okf(kb_series_check("patches/series", &s, present, 4, err, sizeof(err)) == 0,
		    "every listed patch exists, other files ignored");
		okf(kb_series_check("patches/series", &s, extra, 4, err, sizeof(err)) == -EINVAL &&
			    strstr(err, "'0003-stray.patch' is not listed"),
		    "an unlisted .patch file is an error: %s", err);
		okf(kb_series_check("patches/series", &s, missing, 2, err, sizeof(err)) == -EINVAL &&
			    strstr(err, "patches/series:4:") && strstr(err, "'0002-second.patch'"),
		    "a missing patch names file:line: %s", err);
	}
	kb_series_free(&s);

	okf(kb_series_parse("patches/series", "", &s, err, sizeof(err)) == 0 && s.n == 0, "an empty series");
	kb_series_free(&s);
	okf(kb_series_parse("patches/series", "# only comments\n\n", &s, err, sizeof(err)) == 0 && s.n == 0,
	    "a series of comments is empty");
	kb_series_free(&s);
	okf(kb_series_parse("patches/series", "a.patch\nsub/b.patch\n", &s, err, sizeof(err)) == -EINVAL &&
		    strstr(err, "patches/series:2:"),
	    "a path is refused with file:line: %s", err);
	okf(kb_series_parse("patches/series", "a.patch\na b.patch\n", &s, err, sizeof(err)) == -EINVAL,
	    "a name with a blank is refused: %s", err);
	okf(kb_series_parse("patches/series", ".hidden.patch\n", &s, err, sizeof(err)) == -EINVAL,
	    "a dot file is refused: %s", err);
	okf(kb_series_parse("patches/series", "a.patch\n\na.patch\n", &s, err, sizeof(err)) == -EINVAL &&
		    strstr(err, ":3:") && strstr(err, "line 1"),
	    "a duplicate is refused with both lines: %s", err);
	okf(kb_series_parse("patches/series", "no-newline.patch", &s, err, sizeof(err)) == 0 && s.n == 1,
	    "a last line without newline");
	kb_series_free(&s);

	/* --without-patch: full names or unique prefixes. */
	{
		static const char *const by_prefix[] = { "0002" };
		static const char *const by_name[] = { "0001-first.patch", "0003-third.patch", "0001" };
		static const char *const unknown[] = { "0009" };
		static const char *const ambiguous[] = { "000" };
		char **removed = NULL;
		size_t nremoved = 0;
		const char *text = "0001-first.patch\n0002-second.patch\n0003-third.patch\n";

		okf(kb_series_parse("patches/series", text, &s, err, sizeof(err)) == 0 && s.n == 3,
		    "a three-patch series");
		okf(kb_series_without(&s, by_prefix, 1, &removed, &nremoved, err, sizeof(err)) == 0 &&
			    nremoved == 1 && !strcmp(removed[0], "0002-second.patch") && s.n == 2 &&
			    !strcmp(s.v[0].name, "0001-first.patch") && !strcmp(s.v[1].name, "0003-third.patch"),
		    "a unique prefix leaves that patch out, the order stays");
		kb_strv_free(removed, nremoved);
		kb_series_free(&s);

		kb_series_parse("patches/series", text, &s, err, sizeof(err));
		okf(kb_series_without(&s, by_name, 3, &removed, &nremoved, err, sizeof(err)) == 0 &&
			    nremoved == 2 && !strcmp(removed[0], "0001-first.patch") &&
			    !strcmp(removed[1], "0003-third.patch") && s.n == 1 &&
			    !strcmp(s.v[0].name, "0002-second.patch"),
		    "full names, a repeat harmless, left out in series order");
		kb_strv_free(removed, nremoved);
		kb_series_free(&s);

		kb_series_parse("patches/series", text, &s, err, sizeof(err));
		okf(kb_series_without(&s, unknown, 1, &removed, &nremoved, err, sizeof(err)) == -EINVAL &&
			    strstr(err, "'0009' is not a patch of the series") &&
			    strstr(err, "(series: 0001-first.patch, 0002-second.patch, 0003-third.patch)") &&
			    s.n == 3,
		    "an unknown name lists the series, which stays whole: %s", err);
		okf(kb_series_without(&s, ambiguous, 1, &removed, &nremoved, err, sizeof(err)) == -EINVAL &&
			    strstr(err, "'000' matches more than one patch") && s.n == 3,
		    "an ambiguous prefix is refused: %s", err);
		okf(kb_series_without(&s, NULL, 0, &removed, &nremoved, err, sizeof(err)) == 0 && nremoved == 0 &&
			    !removed && s.n == 3,
		    "nothing left out");
		kb_series_free(&s);
		okf(kb_series_parse("patches/series", "", &s, err, sizeof(err)) == 0 &&
			    kb_series_without(&s, by_prefix, 1, &removed, &nremoved, err, sizeof(err)) == -EINVAL &&
			    strstr(err, "(series: none, it is empty)"),
		    "an empty series says so: %s", err);
		kb_series_free(&s);
	}

	{
		char *na[] = { "a", "b", "c" }, *sa[] = { "1", "2", "3" };
		char *nb[] = { "a", "b", "d" }, *sb[] = { "1", "9", "4" };

		okf(kb_series_common_prefix(na, sa, 3, na, sa, 3) == 3, "identical lists share everything");
		okf(kb_series_common_prefix(na, sa, 3, nb, sb, 3) == 1, "same name, new content ends the prefix");
		okf(kb_series_common_prefix(na, sa, 3, na, sa, 2) == 2, "a shorter new series");
		okf(kb_series_common_prefix(na, sa, 0, na, sa, 3) == 0, "nothing applied yet");
	}
	return tap_done();
}
