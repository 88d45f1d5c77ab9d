/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text made safe for the formats other programs read: XML (the domain
 * XML) and JSON for strict readers (KCIDB). What the guest wrote may hold
 * any bytes, and both XML 1.0 and a UTF-8 JSON reader refuse some:
 * esc_clean() is the one rule for them. Text that reaches a terminal or a
 * line-oriented format (the progress line, text, KTAP, JUnit, HTML, the
 * report verb) goes out through esc_term_*(): the one rule for those,
 * applied where the text leaves, not where it is made. Pure.
 */
#ifndef VLALAB_ESCAPE_H
#define VLALAB_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/*
 * A malloc'd copy of @s that is valid UTF-8 without control characters
 * other than tab, newline and carriage return: each byte of an invalid
 * sequence, and each such control character, becomes '?'. NULL on ENOMEM.
 */
char *esc_clean(const char *s);

/* Write @s to @f cleaned, with &, <, >, ' and " escaped. */
void esc_xml_put(FILE *f, const char *s);

/* The same for at most the first @n bytes of @s. */
void esc_xml_putn(FILE *f, const char *s, size_t n);

/*
 * fprintf for the fixed parts of @fmt, esc_xml_put() for @value in place
 * of its one "%s".
 */
void esc_xml_printf(FILE *f, const char *fmt, const char *value);

/*
 * Write at most @n bytes of @s to @f (less at a NUL) safe for a terminal
 * and for readers that split lines on any line end: each C0 control byte
 * but tab (newline included: a line of output stays one line), DEL, each
 * C1 control (U+0080..U+009F), U+2028 and U+2029 (line ends to some
 * readers), and each byte of an invalid UTF-8 sequence goes out as
 * "\xHH", one per byte. Everything else, backslashes included, goes out
 * as it is, so ordinary text is unchanged.
 */
void esc_term_putn(FILE *f, const char *s, size_t n);
/*
 * The length of the valid UTF-8 sequence at @s (1..4, within @left
 * bytes), or 0 when the bytes there are not one: overlong forms,
 * surrogates and code points above U+10FFFF included. What
 * esc_term_putn() keeps, and what fuzz-session checks its output with.
 */
size_t esc_utf8_len(const unsigned char *s, size_t left);

/*
 * fprintf(@f, @fmt, ...) through esc_term_putn(), but for one newline at
 * the very end: for one line (or part of one) whose values may hold
 * anything, a newline included.
 */
void esc_term_printf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * esc_term_putn()'s rule for XML text and attributes (JUnit, HTML):
 * newlines kept, &, <, >, ' and " as entities.
 */
void esc_term_xml_putn(FILE *f, const char *s, size_t n);

/* esc_term_xml_putn() of all of @s. */
void esc_term_xml_put(FILE *f, const char *s);

/*
 * fprintf for the fixed parts of @fmt, esc_term_xml_put() for @value in
 * place of its one "%s".
 */
void esc_term_xml_printf(FILE *f, const char *fmt, const char *value);

#endif
