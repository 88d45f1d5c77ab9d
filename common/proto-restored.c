// SPDX-License-Identifier: GPL-2.0-only
/*
 * The "restored" request (proto.h): the host restored the guest from an
 * image saved right after its hello, and gives it what must not be the
 * saved guest's: a boot id, the wall clock and a seed for its RNG
 * (docs/protocol.md, "Restored guests").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "errmsg.h"
#include "proto.h"
#include "proto-req.h"

/* 36 characters of lower-case hex digits and dashes. */
static bool boot_id_ok(const char *s)
{
	size_t n = strlen(s);

	if (n != PROTO_BOOT_ID_MAX - 1)
		return false;
	return strspn(s, "0123456789abcdef-") == n;
}

int proto_restored_encode(const struct proto_restored *r, char **ret_line,
			  size_t *ret_len)
{
	char seed[2 * PROTO_SEED_BYTES + 1];
	char *line;
	int n;

	if (!boot_id_ok(r->boot_id) || r->wall_ns >= INT64_MAX)
		return -EINVAL;
	for (size_t i = 0; i < PROTO_SEED_BYTES; i++)
		snprintf(seed + 2 * i, 3, "%02x", r->seed[i]);
	n = asprintf(
		&line,
		"{\"req\":\"restored\",\"boot_id\":\"%s\",\"wall_ns\":%" PRIu64
		",\"seed\":\"%s\"}\n",
		r->boot_id, r->wall_ns, seed);
	if (n < 0)
		return -ENOMEM;
	*ret_line = line;
	*ret_len = (size_t)n;
	return 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int proto_restored_decode(struct json_object *req, struct proto_restored *ret,
			  char *err, size_t errlen)
{
	static const char *const keys[] = { "boot_id", "wall_ns", "seed",
					    NULL };
	struct json_object *v;
	const char *s;
	int r;

	memset(ret, 0, sizeof(*ret));
	if (!json_object_object_get_ex(req, "boot_id", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    !boot_id_ok(json_object_get_string(v)))
		return errmsg(err, errlen, -EPROTO,
			      "'boot_id' must be 36 characters of [0-9a-f-]");
	snprintf(ret->boot_id, sizeof(ret->boot_id), "%s",
		 json_object_get_string(v));
	r = proto_req_u63(req, "wall_ns", &ret->wall_ns, err, errlen);
	if (r < 0)
		return r;
	if (!json_object_object_get_ex(req, "seed", &v) ||
	    !json_object_is_type(v, json_type_string) ||
	    strlen(json_object_get_string(v)) != 2 * PROTO_SEED_BYTES)
		return errmsg(err, errlen, -EPROTO,
			      "'seed' must be %d hex digits",
			      2 * PROTO_SEED_BYTES);
	s = json_object_get_string(v);
	for (size_t i = 0; i < PROTO_SEED_BYTES; i++) {
		int hi = hex_digit(s[2 * i]), lo = hex_digit(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return errmsg(err, errlen, -EPROTO,
				      "'seed' must be %d hex digits",
				      2 * PROTO_SEED_BYTES);
		ret->seed[i] = (unsigned char)(hi << 4 | lo);
	}
	return proto_req_keys(req, keys, err, errlen);
}
