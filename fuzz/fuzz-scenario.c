// SPDX-License-Identifier: GPL-2.0-only
/*
 * The scenario loader and validator on any file text: it loads or says
 * why not, and what it loads must make a run request per boot with steps
 * (the runner sends none for a boot without) that the protocol's decoder
 * (guestd's first check) takes: the host's validator may not pass a
 * scenario the guest would refuse.
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "scenario/bootcheck.h"
#include "scenario/scenario.h"

static void check_requests(const struct scenario *s)
{
	size_t nboots = s->nboots ? s->nboots : 1;

	for (size_t k = 0; k < nboots; k++) {
		enum proto_request_type type;
		struct json_object *obj;
		struct proto_run run;
		char err[256], *line;
		size_t len;
		int r;

		if (s->nboots && !s->boots[k].nsteps)
			continue;
		r = boots_run_encode(s, k, &line, &len);
		if (r == -E2BIG)
			continue;
		assert(r == 0);
		assert(proto_request_decode(line, len - 1, &type, &obj, err,
					    sizeof(err)) == 0);
		assert(proto_run_decode(obj, &run, err, sizeof(err)) == 0);
		json_object_put(obj);
		free(line);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scn_errors errs = { 0 };
	struct scenario s;
	int r;

	r = scn_load_buf("fuzz.json", "fuzz/input", (const char *)data, size,
			 &s, &errs);
	if (r == 0) {
		assert(errs.n == 0);
		check_requests(&s);
		scn_free(&s);
	} else {
		assert(r == -EINVAL && errs.n > 0);
	}
	for (size_t i = 0; i < errs.n; i++)
		assert(errs.msgs[i][0]);
	scn_errors_free(&errs);
	return 0;
}
