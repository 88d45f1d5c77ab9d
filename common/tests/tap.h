/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The TAP producer of every C test: ok()/okf()/is_int()/is_str() print one
 * test point each and remember failures; tap_done() prints the plan and
 * returns the exit status. okf() takes a printf format for the description
 * and, when the test point fails, also prints the condition's text.
 */
#ifndef VLALAB_TAP_H
#define VLALAB_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static inline int tap_ok(int cond, const char *what, const char *file, int line)
{
	tap_n++;
	printf("%sok %d - %s\n", cond ? "" : "not ", tap_n, what);
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	return cond;
}

#define ok(cond, what) tap_ok(!!(cond), (what), __FILE__, __LINE__)

__attribute__((format(printf, 5, 6)))
static inline int tap_okf(int cond, const char *text, const char *file,
			  int line, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d: %s\n", file, line, text);
	}
	return cond;
}

#define okf(cond, ...) tap_okf(!!(cond), #cond, __FILE__, __LINE__, __VA_ARGS__)

#define is_int(got, want, what)                                             \
	do {                                                                \
		long long g_ = (got), w_ = (want);                          \
		if (!ok(g_ == w_, (what)))                                  \
			printf("#   got %lld, want %lld\n", g_, w_);        \
	} while (0)

#define is_str(got, want, what)                                             \
	do {                                                                \
		const char *g_ = (got), *w_ = (want);                       \
		if (!ok(g_ && w_ && strcmp(g_, w_) == 0, (what)))           \
			printf("#   got '%s'\n#   want '%s'\n",             \
			       g_ ? g_ : "(null)", w_ ? w_ : "(null)");     \
	} while (0)

/* @text as TAP comments under "# @what:", a "#   " before each line. */
static inline void tap_diag(const char *what, const char *text)
{
	printf("# %s:\n", what);
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);

		printf("#   %.*s\n", n, p);
		p = nl ? nl + 1 : NULL;
	}
}

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
