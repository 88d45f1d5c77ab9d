/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Text made safe for the formats other programs read: XML (the domain
 * XML, JUnit) and JSON for strict readers (KCIDB). What the guest wrote
 * may hold any bytes, and both XML 1.0 and a UTF-8 JSON reader refuse
 * some: esc_clean() is the one rule for them. Pure.
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

#endif
