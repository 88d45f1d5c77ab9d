/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the small hand-decoded requests share (proto-ack.c,
 * proto-restored.c): a non-negative integer below json-c's clamp, and
 * no key but the ones they name. Each fills @err the way errmsg() does.
 */
#ifndef VLALAB_PROTO_REQ_H
#define VLALAB_PROTO_REQ_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

/*
 * *@ret = @req's integer @key, 0 to INT64_MAX - 1 (json-c clamps a larger
 * number to INT64_MAX). 0, or -EPROTO when it is missing, not an integer
 * or out of that range.
 */
int proto_req_u63(struct json_object *req, const char *key, uint64_t *ret,
		  char *err, size_t errlen);

/* 0 when every key of @req is "req" or one of @keys (NULL-ended), else -EPROTO. */
int proto_req_keys(struct json_object *req, const char *const *keys, char *err,
		   size_t errlen);

#endif
