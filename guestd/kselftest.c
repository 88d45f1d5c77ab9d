// SPDX-License-Identifier: GPL-2.0-only
/*
 * The results of a kernel selftest program, read from its output one line
 * at a time: KTAP (and TAP 13, which kselftest.h prints), or ftracetest's
 * own lines ("[3] desc<TAB>[PASS]" and its "# of passed: N" summary).
 * Pure: the step that runs the program (step-kselftest.c) feeds it lines.
 *
 * Only top-level results count. KTAP's nested subtests are indented and
 * their parent's line sums them up; a '#' line is a diagnostic.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "guestd.h"

int ks_format_parse(const char *s, enum ks_format *ret)
{
	if (strcmp(s, "ktap") == 0)
		*ret = KS_KTAP;
	else if (strcmp(s, "ftracetest") == 0)
		*ret = KS_FTRACETEST;
	else
		return -EINVAL;
	return 0;
}

void ks_parser_init(struct ks_parser *p, enum ks_format format)
{
	memset(p, 0, sizeof(*p));
	p->format = format;
	p->planned = -1;
}

/* @len bytes of @s, blanks trimmed at both ends, escaped into @dst. */
static void set_text(char *dst, size_t size, const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s)) {
		s++;
		len--;
	}
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	util_escape(dst, size, s, len, size - 1);
}

/*
 * A test's name, as set_text() makes it, but with no tab either: the host
 * refuses a name that holds a control character (docs/protocol.md).
 */
static void set_name(char *dst, size_t size, const char *s, size_t len)
{
	set_text(dst, size, s, len);
	for (char *p = strchr(dst, '\t'); p; p = strchr(p, '\t'))
		*p = ' ';
}

/* A decimal number at *@s, moving *@s past it; false when none. */
static bool take_number(const char **s, uint64_t *ret)
{
	char *end;

	if (!isdigit((unsigned char)**s))
		return false;
	errno = 0;
	*ret = strtoull(*s, &end, 10);
	if (errno)
		return false;
	*s = end;
	return true;
}

/*
 * "ok 3 - name # SKIP reason", "not ok 4 name # TODO why": its verdict,
 * name and reason. Returns 1, or 0 for a line that is no result.
 */
static int ktap_result(struct ks_parser *p, const char *line,
		       struct ks_result *ret)
{
	bool ok = strncmp(line, "ok ", 3) == 0;
	const char *s, *hash, *dir = NULL;
	uint64_t num;
	size_t dlen = 0;

	if (!ok && strncmp(line, "not ok ", 7) != 0)
		return 0;
	s = line + (ok ? 3 : 7);
	if (!take_number(&s, &num))
		return 0;
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '-' && (s[1] == ' ' || !s[1]))
		s++;
	/*
	 * After the first '#' that starts a word comes a directive (SKIP,
	 * TODO, XFAIL) and its reason, or another comment ("# error").
	 */
	for (hash = strchr(s, '#'); hash; hash = strchr(hash + 1, '#'))
		if (hash == s || hash[-1] == ' ' || hash[-1] == '\t')
			break;
	if (hash) {
		const char *w = hash + 1;

		while (*w == ' ')
			w++;
		dlen = strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				 "abcdefghijklmnopqrstuvwxyz");
		if ((dlen == 4 && (!strncasecmp(w, "SKIP", 4) ||
				   !strncasecmp(w, "TODO", 4))) ||
		    (dlen == 5 && !strncasecmp(w, "XFAIL", 5)))
			dir = w;
	}
	memset(ret, 0, sizeof(*ret));
	set_name(ret->name, sizeof(ret->name), s,
		 hash ? (size_t)(hash - s) : strlen(s));
	if (!ret->name[0])
		snprintf(ret->name, sizeof(ret->name), "test %" PRIu64, num);
	if (dir && !strncasecmp(dir, "SKIP", 4))
		ret->verdict = VERDICT_SKIP;
	else if (dir)
		ret->verdict = VERDICT_XFAIL;
	else
		ret->verdict = ok ? VERDICT_PASS : VERDICT_FAIL;
	if (dir)
		set_text(ret->reason, sizeof(ret->reason), dir + dlen,
			 strlen(dir + dlen));
	else if (hash)
		set_text(ret->reason, sizeof(ret->reason), hash + 1,
			 strlen(hash + 1));
	p->results++;
	return 1;
}

static int ktap_line(struct ks_parser *p, const char *line,
		     struct ks_result *ret)
{
	const char *s = line;
	uint64_t n;

	if (strncmp(line, "Bail out!", 9) == 0) {
		p->bailed = true;
		set_text(p->bail, sizeof(p->bail), line + 9, strlen(line + 9));
		return 0;
	}
	if (strncmp(line, "1..", 3) == 0) {
		s += 3;
		if (!take_number(&s, &n) || p->planned >= 0)
			return 0;
		p->planned = n > PROTO_SUBTESTS_MAX ? PROTO_SUBTESTS_MAX + 1 :
						      (int64_t)n;
		/* "1..0 # SKIP why": the program skipped as a whole. */
		s = strchr(s, '#');
		if (n == 0 && s) {
			s++;
			while (*s == ' ')
				s++;
			if (!strncasecmp(s, "SKIP", 4))
				s += 4;
			memset(ret, 0, sizeof(*ret));
			snprintf(ret->name, sizeof(ret->name), "%s",
				 "(every test)");
			ret->verdict = VERDICT_SKIP;
			set_text(ret->reason, sizeof(ret->reason), s,
				 strlen(s));
			p->skipped_all = true;
			return 1;
		}
		return 0;
	}
	return ktap_result(p, line, ret);
}

/* ftracetest's words (ftracetest's eval_result) and what they mean here. */
static const struct {
	const char *word;
	enum proto_verdict verdict;
	const char *reason;
} ftrace_words[] = {
	{ "PASS", VERDICT_PASS, "" },
	{ "FAIL", VERDICT_FAIL, "" },
	{ "UNRESOLVED", VERDICT_FAIL, "unresolved" },
	{ "UNTESTED", VERDICT_SKIP, "untested" },
	{ "UNSUPPORTED", VERDICT_SKIP, "unsupported" },
	{ "XFAIL", VERDICT_XFAIL, "" },
	{ "UNDEFINED", VERDICT_FAIL, "undefined (a bug of the test)" },
};

/* Colour escapes ("\033[32m"), which ftracetest prints on a terminal. */
static void strip_escapes(char *dst, size_t size, const char *s)
{
	size_t n = 0;

	for (; *s && n + 1 < size; s++) {
		if (*s == '\033' && s[1] == '[') {
			s += 2;
			while (*s && (isdigit((unsigned char)*s) || *s == ';'))
				s++;
			if (!*s)
				break;
			continue; /* and the final letter */
		}
		dst[n++] = *s;
	}
	dst[n] = '\0';
}

/* "# of passed:  4": one line of the summary, which sums the results. */
static void ftrace_summary(struct ks_parser *p, const char *line)
{
	const char *colon = strchr(line, ':');
	uint64_t n;

	if (!colon)
		return;
	colon++;
	while (*colon == ' ' || *colon == '\t')
		colon++;
	if (!take_number(&colon, &n) || n > PROTO_SUBTESTS_MAX)
		return;
	p->summary_lines++;
	p->summary_total += n;
}

static int ftrace_line(struct ks_parser *p, const char *raw,
		       struct ks_result *ret)
{
	char line[KS_LINE_MAX];
	const char *s = line, *open, *close;
	uint64_t num;
	size_t wlen;

	strip_escapes(line, sizeof(line), raw);
	if (strncmp(line, "# of ", 5) == 0) {
		ftrace_summary(p, line);
		return 0;
	}
	if (*s != '[')
		return 0;
	s++;
	if (!take_number(&s, &num) || *s != ']')
		return 0;
	s++;
	close = line + strlen(line);
	while (close > s && isspace((unsigned char)close[-1]))
		close--;
	if (close == s || close[-1] != ']')
		return 0;
	close--;
	open = close;
	while (open > s && open[-1] != '[')
		open--;
	if (open == s)
		return 0;
	wlen = (size_t)(close - open);
	for (size_t i = 0; i < ARRAY_SIZE(ftrace_words); i++) {
		if (strlen(ftrace_words[i].word) != wlen ||
		    strncmp(ftrace_words[i].word, open, wlen) != 0)
			continue;
		memset(ret, 0, sizeof(*ret));
		set_name(ret->name, sizeof(ret->name), s,
			 (size_t)(open - 1 - s));
		if (!ret->name[0])
			snprintf(ret->name, sizeof(ret->name), "test %" PRIu64,
				 num);
		ret->verdict = ftrace_words[i].verdict;
		snprintf(ret->reason, sizeof(ret->reason), "%s",
			 ftrace_words[i].reason);
		p->results++;
		return 1;
	}
	return 0;
}

int ks_parse_line(struct ks_parser *p, const char *line, struct ks_result *ret)
{
	if (p->format == KS_FTRACETEST)
		return ftrace_line(p, line, ret);
	return ktap_line(p, line, ret);
}

/* ftracetest prints seven "# of" lines, one per result word but PASS. */
#define FTRACE_SUMMARY_LINES 7

int ks_parser_finish(const struct ks_parser *p, char *why, size_t len)
{
	if (p->bailed) {
		util_fmt(why, len, "the program bailed out: %s", p->bail);
		return -EBADMSG;
	}
	if (p->format == KS_FTRACETEST) {
		if (p->summary_lines != FTRACE_SUMMARY_LINES) {
			util_fmt(
				why, len,
				"no complete '# of ...' summary at the end (%u of %d lines): ftracetest stopped early",
				p->summary_lines, FTRACE_SUMMARY_LINES);
			return -EBADMSG;
		}
		if (p->summary_total != p->results) {
			util_fmt(why, len,
				 "the summary counts %" PRIu64
				 " tests, but %u result lines came",
				 p->summary_total, p->results);
			return -EBADMSG;
		}
		return 0;
	}
	if (p->planned < 0) {
		util_fmt(why, len, "no plan line ('1..N')");
		return -EBADMSG;
	}
	if (!p->skipped_all && p->planned != (int64_t)p->results) {
		util_fmt(why, len,
			 "the plan says %" PRId64 " tests, but %u results came",
			 p->planned, p->results);
		return -EBADMSG;
	}
	return 0;
}
