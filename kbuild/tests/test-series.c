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

	CHECK(kb_series_parse("patches/series",
			      "# The series.\n\n0001-first.patch\n  0002-second.patch  \n# tail comment\n", &s, err,
			      sizeof(err)) == 0,
	      "series parses");
	CHECK(s.n == 2 && !strcmp(s.v[0].name, "0001-first.patch") && s.v[0].line == 3 &&
		      !strcmp(s.v[1].name, "0002-second.patch") && s.v[1].line == 4,
	      "names and line numbers, blanks trimmed");
	{
		char *present[] = { "0001-first.patch", "0002-second.patch", "series", "README" };
		char *extra[] = { "0001-first.patch", "0002-second.patch", "0003-stray.patch", "series" };
		char *missing[] = { "0001-first.patch", "series" };

		CHECK(kb_series_check("patches/series", &s, present, 4, err, sizeof(err)) == 0,
		      "every listed patch exists, other files ignored");
		CHECK(kb_series_check("patches/series", &s, extra, 4, err, sizeof(err)) == -EINVAL &&
			      strstr(err, "'0003-stray.patch' is not listed"),
		      "an unlisted .patch file is an error: %s", err);
		CHECK(kb_series_check("patches/series", &s, missing, 2, err, sizeof(err)) == -EINVAL &&
			      strstr(err, "patches/series:4:") && strstr(err, "'0002-second.patch'"),
		      "a missing patch names file:line: %s", err);
	}
	kb_series_free(&s);

	CHECK(kb_series_parse("patches/series", "", &s, err, sizeof(err)) == 0 && s.n == 0, "an empty series");
	kb_series_free(&s);
	CHECK(kb_series_parse("patches/series", "# only comments\n\n", &s, err, sizeof(err)) == 0 && s.n == 0,
	      "a series of comments is empty");
	kb_series_free(&s);
	CHECK(kb_series_parse("patches/series", "a.patch\nsub/b.patch\n", &s, err, sizeof(err)) == -EINVAL &&
		      strstr(err, "patches/series:2:"),
	      "a path is refused with file:line: %s", err);
	CHECK(kb_series_parse("patches/series", "a.patch\na b.patch\n", &s, err, sizeof(err)) == -EINVAL,
	      "a name with a blank is refused: %s", err);
	CHECK(kb_series_parse("patches/series", ".hidden.patch\n", &s, err, sizeof(err)) == -EINVAL,
	      "a dot file is refused: %s", err);
	CHECK(kb_series_parse("patches/series", "a.patch\n\na.patch\n", &s, err, sizeof(err)) == -EINVAL &&
		      strstr(err, ":3:") && strstr(err, "line 1"),
	      "a duplicate is refused with both lines: %s", err);
	CHECK(kb_series_parse("patches/series", "no-newline.patch", &s, err, sizeof(err)) == 0 && s.n == 1,
	      "a last line without newline");
	kb_series_free(&s);

	{
		char *na[] = { "a", "b", "c" }, *sa[] = { "1", "2", "3" };
		char *nb[] = { "a", "b", "d" }, *sb[] = { "1", "9", "4" };

		CHECK(kb_series_common_prefix(na, sa, 3, na, sa, 3) == 3, "identical lists share everything");
		CHECK(kb_series_common_prefix(na, sa, 3, nb, sb, 3) == 1, "same name, new content ends the prefix");
		CHECK(kb_series_common_prefix(na, sa, 3, na, sa, 2) == 2, "a shorter new series");
		CHECK(kb_series_common_prefix(na, sa, 0, na, sa, 3) == 0, "nothing applied yet");
	}
	return tap_done();
}
