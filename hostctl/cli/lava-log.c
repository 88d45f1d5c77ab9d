// SPDX-License-Identifier: GPL-2.0-only
/*
 * LAVA's log back into the console it recorded (hostctl lava fetch).
 * lava-run's standard output and a server's job log (api/v0.2/jobs/N/logs/,
 * the file output.yaml) hold the same records, one a line, each a YAML
 * flow mapping that lava_common/log.py's dump() writes with every scalar
 * double-quoted: '{"dt": "...", "lvl": "target", "msg": "..."}', with
 * "- " before it in a server's log (a YAML list). The console is the msg
 * of each "target" record. Its escapes are YAML's, not JSON's ("\xE9",
 * "\e", "\L", "\U0001F600", ...): each is decoded here to the UTF-8 the
 * console held, so no console line is lost to a JSON parser. Anything
 * else than such records is taken as the console itself.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli/lava.h"

/* @cp as UTF-8 at @out: how many bytes (a surrogate is U+FFFD). */
static size_t utf8_put(char *out, uint32_t cp)
{
	if (cp >= 0xd800 && cp <= 0xdfff)
		cp = 0xfffd;
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/*
 * The YAML double-quoted scalar at *@p (its opening '"'; *@p may be
 * @end), on one line ending at @end, decoded into @out (room for 3 bytes for each 2 of the
 * scalar: "\L" is 3 bytes of UTF-8); *@p moves past its closing '"'. Its
 * length, or -EINVAL when it is not one.
 */
static ssize_t yaml_dq(const char **p, const char *end, char *out)
{
	static const char simple[] =
		"0\0a\ab\bt\tn\nv\vf\fr\re\x1b \040\"\"//\\\\\t\t";
	const char *s = *p + 1;
	size_t n = 0;

	if (*p == end || **p != '"')
		return -EINVAL;
	for (; s < end && *s != '"'; s++) {
		const char *e;
		uint32_t cp = 0;
		int digits;

		if (*s != '\\') {
			out[n++] = *s;
			continue;
		}
		if (++s == end)
			return -EINVAL;
		for (e = simple; e < simple + sizeof(simple) - 1; e += 2)
			if (*e == *s)
				break;
		if (e < simple + sizeof(simple) - 1) {
			out[n++] = e[1];
			continue;
		}
		switch (*s) {
		case 'N':
			cp = 0x85;
			break;
		case '_':
			cp = 0xa0;
			break;
		case 'L':
			cp = 0x2028;
			break;
		case 'P':
			cp = 0x2029;
			break;
		case 'x':
		case 'u':
		case 'U':
			digits = *s == 'x' ? 2 : *s == 'u' ? 4 : 8;
			if (end - s <= digits)
				return -EINVAL;
			for (int i = 1; i <= digits; i++) {
				char c = s[i];

				if (c >= '0' && c <= '9')
					cp = cp << 4 | (uint32_t)(c - '0');
				else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
					cp = cp << 4 |
					     (uint32_t)((c | 0x20) - 'a' + 10);
				else
					return -EINVAL;
			}
			if (cp > 0x10ffff)
				return -EINVAL;
			s += digits;
			break;
		default:
			return -EINVAL;
		}
		n += utf8_put(out + n, cp);
	}
	if (s == end)
		return -EINVAL;
	*p = s + 1;
	return (ssize_t)n;
}

/* Past the spaces at @p, never past @end (the log has no NUL after it). */
static const char *spaces(const char *p, const char *end)
{
	while (p < end && *p == ' ')
		p++;
	return p;
}

/*
 * One record of LAVA's log, @line to @end: when it is a "target" record,
 * its msg decoded at @out and 1 (its length in *@ret_len); 0 for another
 * record; -EINVAL when it is not a record dump() writes.
 */
static int record(const char *line, const char *end, char *out, size_t *ret_len)
{
	const char *p = line;
	bool target = false;

	if (end - p >= 2 && !strncmp(p, "- ", 2))
		p += 2;
	if (p == end || *p++ != '{')
		return -EINVAL;
	for (;;) {
		ssize_t kl, vl;
		bool lvl, msg;

		p = spaces(p, end);
		kl = yaml_dq(&p, end, out);
		if (kl < 0)
			return -EINVAL;
		lvl = kl == 3 && !memcmp(out, "lvl", 3);
		msg = kl == 3 && !memcmp(out, "msg", 3);
		if (end - p < 2 || p[0] != ':' || p[1] != ' ')
			return -EINVAL;
		p += 2;
		/* dump() sorts its keys: dt, lvl, msg (then ns). */
		if (msg && !target)
			return 0;
		vl = yaml_dq(&p, end, out);
		if (vl < 0)
			return -EINVAL;
		if (lvl) {
			target = vl == 6 && !memcmp(out, "target", 6);
			if (!target)
				return 0;
		}
		if (msg) {
			*ret_len = (size_t)vl;
			return 1;
		}
		p = spaces(p, end);
		if (p == end || *p != ',')
			return -EINVAL;
		p++;
	}
}

/*
 * LAVA's ShellLogger (lava_dispatcher/shell.py) writes each console line
 * with a backslash before every '"' (and without '\r' and ESC, which a
 * frame never holds: JSON escapes them): drop that backslash, in place.
 * The bytes kept.
 */
static size_t unmangle(char *m, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++) {
		if (m[i] == '\\' && i + 1 < len && m[i + 1] == '"')
			continue;
		m[n++] = m[i];
	}
	return n;
}

int lava_log_console(char *buf, size_t len, char **ret, size_t *ret_len,
		     size_t *ret_bad)
{
	/* Decoded, a scalar takes at most 3 bytes for 2 ("\L"). */
	size_t n = 0, bad = 0, cap = len + len / 2 + 8;
	char *out, *line = buf, *nl;

	*ret_bad = 0;
	if ((len < 3 || strncmp(buf, "- {", 3) != 0) &&
	    (len < 6 || strncmp(buf, "{\"dt\":", 6) != 0)) {
		*ret = buf;
		*ret_len = len;
		return 0;
	}
	out = malloc(cap);
	if (!out)
		return -ENOMEM;
	for (; line < buf + len; line = nl + 1) {
		size_t ml = 0;
		int r;

		nl = memchr(line, '\n', (size_t)(buf + len - line));
		if (!nl)
			nl = buf + len;
		/* What is not a record at all (lava-run's own words). */
		if (nl == line || (*line != '{' &&
				   (nl - line < 3 || strncmp(line, "- {", 3))))
			continue;
		r = record(line, nl, out + n, &ml);
		if (r < 0) {
			bad++;
		} else if (r == 1) {
			n += unmangle(out + n, ml);
			out[n++] = '\n';
		}
	}
	free(buf);
	*ret = out;
	*ret_len = n;
	*ret_bad = bad;
	return 0;
}
