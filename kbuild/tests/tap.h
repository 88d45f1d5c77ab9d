/* SPDX-License-Identifier: GPL-2.0-only */
/* Minimal TAP for kbuild's tests: CHECK continues, the summary fails. */
#ifndef VLALAB_KB_TAP_H
#define VLALAB_KB_TAP_H

#include <stdio.h>

static unsigned tap_n, tap_failed;

#define CHECK(cond, ...)                                                         \
	do {                                                                     \
		bool ok_ = (cond);                                               \
		printf("%sok %u - ", ok_ ? "" : "not ", ++tap_n);                \
		printf(__VA_ARGS__);                                             \
		printf("\n");                                                    \
		if (!ok_) {                                                      \
			tap_failed++;                                            \
			printf("# failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
		}                                                                \
	} while (0)

static inline int tap_done(void)
{
	printf("1..%u\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
