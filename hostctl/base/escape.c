// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text made safe for XML and strict JSON readers, and for terminals and
 * line-oriented formats (escape.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"

size_t esc_utf8_len(const unsigned char *s, size_t left)
{
	unsigned int cp;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n > left)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* Copy @len bytes of @s cleaned to @f, through @put for each byte kept. */
static void clean_to(FILE *f, const char *s, size_t len,
		     void (*put)(FILE *, char))
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	while (p < end && *p) {
		size_t n = esc_utf8_len(p, (size_t)(end - p));

		if (n == 0 ||
		    (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') ||
		    *p == 0x7f) {
			put(f, '?');
			p++;
			continue;
		}
		for (size_t i = 0; i < n; i++)
			put(f, (char)p[i]);
		p += n;
	}
}

static void put_plain(FILE *f, char c)
{
	fputc(c, f);
}

char *esc_clean(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	clean_to(f, s, strlen(s), put_plain);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void put_xml(FILE *f, char c)
{
	switch (c) {
	case '&':
		fputs("&amp;", f);
		break;
	case '<':
		fputs("&lt;", f);
		break;
	case '>':
		fputs("&gt;", f);
		break;
	case '\'':
		fputs("&apos;", f);
		break;
	case '"':
		fputs("&quot;", f);
		break;
	default:
		fputc(c, f);
	}
}

void esc_xml_put(FILE *f, const char *s)
{
	clean_to(f, s, strlen(s), put_xml);
}

void esc_xml_putn(FILE *f, const char *s, size_t n)
{
	clean_to(f, s, n, put_xml);
}

/* @fmt's parts around its one "%s", and @value through @put between them. */
static void fmt_one(FILE *f, const char *fmt, const char *value,
		    void (*put)(FILE *, const char *))
{
	const char *p = strstr(fmt, "%s");

	if (!p) {
		fputs(fmt, f);
		return;
	}
	fwrite(fmt, 1, p - fmt, f);
	put(f, value);
	fputs(p + 2, f);
}

void esc_xml_printf(FILE *f, const char *fmt, const char *value)
{
	fmt_one(f, fmt, value, esc_xml_put);
}

/*
 * How many bytes at @p (of @left) esc_term's rule lets through as they
 * are: a valid UTF-8 sequence that is neither a control nor a line end
 * (newline aside, with @keep_nl); 0 for a byte to escape.
 */
static size_t term_ok_len(const unsigned char *p, size_t left, bool keep_nl)
{
	size_t n;

	if (*p < 0x80)
		return (*p >= 0x20 && *p != 0x7f) || *p == '\t' ||
				       (keep_nl && *p == '\n') ?
			       1 :
			       0;
	n = esc_utf8_len(p, left);
	/* C1 controls, U+0080..U+009F: C2 80..C2 9F. */
	if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)
		return 0;
	/* U+2028 and U+2029, which Python's splitlines() splits on. */
	if (n == 3 && p[0] == 0xe2 && p[1] == 0x80 &&
	    (p[2] == 0xa8 || p[2] == 0xa9))
		return 0;
	return n;
}

static void term_to(FILE *f, const char *s, size_t len, bool xml)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	void (*put)(FILE *, char) = xml ? put_xml : put_plain;

	while (p < end && *p) {
		size_t n = term_ok_len(p, (size_t)(end - p), xml);

		if (n == 0) {
			fprintf(f, "\\x%02x", *p++);
			continue;
		}
		for (size_t i = 0; i < n; i++)
			put(f, (char)p[i]);
		p += n;
	}
}

void esc_term_putn(FILE *f, const char *s, size_t n)
{
	term_to(f, s, n, false);
}

void esc_term_printf(FILE *f, const char *fmt, ...)
{
	char buf[1024], *s = buf;
	va_list ap;
	size_t len;
	bool nl;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (r < 0)
		return;
	len = (size_t)r;
	if (len >= sizeof(buf)) {
		s = malloc(len + 1);
		if (s) {
			va_start(ap, fmt);
			vsnprintf(s, len + 1, fmt, ap);
			va_end(ap);
		} else {
			/* Out of memory: the line's start, escaped still. */
			s = buf;
			len = sizeof(buf) - 1;
		}
	}
	nl = len && s[len - 1] == '\n';
	term_to(f, s, len - nl, false);
	if (nl)
		fputc('\n', f);
	if (s != buf)
		free(s);
}

void esc_term_xml_putn(FILE *f, const char *s, size_t n)
{
	term_to(f, s, n, true);
}

void esc_term_xml_put(FILE *f, const char *s)
{
	term_to(f, s, strlen(s), true);
}

void esc_term_xml_printf(FILE *f, const char *fmt, const char *value)
{
	fmt_one(f, fmt, value, esc_term_xml_put);
}
