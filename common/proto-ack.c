// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "ack" request (proto.h): the host tells guestd it has read its hello
 * or step_begin with this t_us, so that guestd starts a step only once the
 * host has its step_begin (docs/protocol.md, "Acknowledgements").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "errmsg.h"
#include "proto.h"

int proto_ack_encode(uint64_t t_us, char **ret_line, size_t *ret_len)
{
	char *line;
	int n;

	/* What proto_ack_decode() takes: below json-c's clamp. */
	if (t_us >= INT64_MAX)
		return -EINVAL;
	n = asprintf(&line, "{\"req\":\"ack\",\"t_us\":%" PRIu64 "}\n", t_us);
	if (n < 0)
		return -ENOMEM;
	*ret_line = line;
	*ret_len = (size_t)n;
	return 0;
}

int proto_ack_decode(struct json_object *req, uint64_t *ret_t_us, char *err,
		     size_t errlen)
{
	struct json_object *v;
	int64_t n;

	if (!json_object_object_get_ex(req, "t_us", &v) ||
	    !json_object_is_type(v, json_type_int))
		return errmsg(err, errlen, -EPROTO,
			      "'t_us' must be an integer");
	/* json-c clamps a larger number to INT64_MAX. */
	n = json_object_get_int64(v);
	if (n < 0 || n == INT64_MAX)
		return errmsg(err, errlen, -EPROTO,
			      "'t_us' must be between 0 and %" PRId64,
			      INT64_MAX - 1);
	json_object_object_foreach(req, key, val) {
		(void)val;
		if (strcmp(key, "req") && strcmp(key, "t_us"))
			return errmsg(err, errlen, -EPROTO,
				      "unknown key '%.64s'", key);
	}
	*ret_t_us = (uint64_t)n;
	return 0;
}
