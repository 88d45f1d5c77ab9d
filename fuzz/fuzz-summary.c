// SPDX-License-Identifier: GPL-2.0-only
/*
 * summary.json read back (hostctl report, --repeat's rounds) from any
 * text: whatever reads must write out again, and that text must read back
 * and write out the same, so that reading a summary never changes it twice.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct res_run run, back;
	char err[256], *text, *a, *b;

	text = malloc(size + 1);
	assert(text);
	memcpy(text, data, size);
	text[size] = '\0';
	if (res_run_from_json(text, &run, err, sizeof(err)) < 0) {
		assert(err[0]);
		free(text);
		return 0;
	}
	free(text);
	assert(res_summary_json(&run, &a) == 0);
	assert(res_run_from_json(a, &back, err, sizeof(err)) == 0);
	assert(res_summary_json(&back, &b) == 0);
	assert(strcmp(a, b) == 0);
	free(a);
	free(b);
	res_run_free(&run);
	res_run_free(&back);
	return 0;
}
