// SPDX-License-Identifier: GPL-2.0-only
/*
 * guestd's run-request decoding on any line from the host: the request
 * line, proto_run_decode(), and each step checked against its kind as
 * guestd's runner checks them. A request that decodes must encode again
 * to a line that decodes to the same request, field by field and list by
 * list as they go on the wire (or, when the encoding outgrew
 * PROTO_LINE_MAX, be refused as too long).
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "guestd.h"

/*
 * The same on the wire: the texts the lists encode to. (Read leniently,
 * "0100e" encoded as "0100" and read back as 100: the decoder is strict
 * since, docs/reliability.md finding 5.)
 */
static bool same_list(struct json_object *a, struct json_object *b)
{
	const int flags = JSON_C_TO_STRING_PLAIN |
			  JSON_C_TO_STRING_NOSLASHESCAPE;

	if (!a || !b)
		return !a && !b;
	return strcmp(json_object_to_json_string_ext(a, flags),
		      json_object_to_json_string_ext(b, flags)) == 0;
}

static void check_steps(struct json_object *steps, bool cleanup)
{
	size_t n = steps ? json_object_array_length(steps) : 0;
	char err[256];

	for (size_t i = 0; i < n; i++) {
		struct json_object *step = json_object_array_get_idx(steps, i);
		int r;

		r = cleanup ? step_check_cleanup(step_table, step, err,
						 sizeof(err)) :
			      step_check(step_table, step, err, sizeof(err));
		assert(r == 0 || err[0]);
	}
}

static void check_roundtrip(const struct proto_run *run)
{
	enum proto_request_type type;
	struct json_object *obj;
	struct proto_run back;
	char err[256], *line;
	size_t len;
	int r;

	r = proto_run_encode(run, &line, &len);
	if (r == -E2BIG)
		return;
	assert(r == 0 && len <= PROTO_LINE_MAX && line[len - 1] == '\n');
	assert(proto_request_decode(line, len - 1, &type, &obj, err,
				    sizeof(err)) == 0);
	assert(type == PROTO_REQ_RUN);
	assert(proto_run_decode(obj, &back, err, sizeof(err)) == 0);
	assert(strcmp(run->scenario, back.scenario) == 0);
	assert(run->timeout_ms == back.timeout_ms);
	assert(run->step_timeout_ms == back.step_timeout_ms);
	assert(same_list(run->steps, back.steps));
	assert(same_list(run->state_files, back.state_files));
	assert(same_list(run->cleanup, back.cleanup));
	assert(run->cleanup_timeout_ms == back.cleanup_timeout_ms);
	json_object_put(obj);
	free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum proto_request_type type;
	struct json_object *req;
	struct proto_run run;
	char err[256];

	if (proto_request_decode((const char *)data, size, &type, &req, err,
				 sizeof(err)) < 0) {
		assert(err[0]);
		return 0;
	}
	if (type == PROTO_REQ_RUN) {
		if (proto_run_decode(req, &run, err, sizeof(err)) == 0) {
			assert(run.scenario && run.steps);
			check_steps(run.steps, false);
			check_steps(run.cleanup, true);
			check_roundtrip(&run);
		} else {
			assert(err[0]);
		}
	}
	json_object_put(req);
	return 0;
}
