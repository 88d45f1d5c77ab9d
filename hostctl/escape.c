// SPDX-License-Identifier: GPL-2.0-only
/*
 * Text made safe for XML and strict JSON readers (escape.h).
 */
#include <stdlib.h>
#include <string.h>

#include "escape.h"

/*
 * The length of the valid UTF-8 sequence at @s (1..4), or 0 when the
 * bytes there are not one: overlong forms, surrogates and code points
 * above U+10FFFF included.
 */
static size_t utf8_len(const unsigned char *s)
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
		size_t n = utf8_len(p);

		if (n == 0 || n > (size_t)(end - p) ||
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

void esc_xml_printf(FILE *f, const char *fmt, const char *value)
{
	const char *p = strstr(fmt, "%s");

	if (!p) {
		fputs(fmt, f);
		return;
	}
	fwrite(fmt, 1, p - fmt, f);
	esc_xml_put(f, value);
	fputs(p + 2, f);
}
