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
#include "proto.h"
#include "proto-req.h"

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
	static const char *const keys[] = { "t_us", NULL };
	uint64_t t_us;
	int r;

	r = proto_req_u63(req, "t_us", &t_us, err, errlen);
	if (r == 0)
		r = proto_req_keys(req, keys, err, errlen);
	if (r == 0)
		*ret_t_us = t_us;
	return r;
}
