// SPDX-License-Identifier: GPL-2.0-only
/* What the small hand-decoded requests share (proto-req.h). */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "errmsg.h"
#include "proto-req.h"

int proto_req_u63(struct json_object *req, const char *key, uint64_t *ret,
		  char *err, size_t errlen)
{
	struct json_object *v;
	int64_t n;

	if (!json_object_object_get_ex(req, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return errmsg(err, errlen, -EPROTO, "'%s' must be an integer",
			      key);
	n = json_object_get_int64(v);
	if (n < 0 || n == INT64_MAX)
		return errmsg(err, errlen, -EPROTO,
			      "'%s' must be between 0 and %" PRId64, key,
			      INT64_MAX - 1);
	*ret = (uint64_t)n;
	return 0;
}

int proto_req_keys(struct json_object *req, const char *const *keys, char *err,
		   size_t errlen)
{
	json_object_object_foreach(req, key, val) {
		size_t i = 0;

		(void)val;
		while (keys[i] && strcmp(key, keys[i]))
			i++;
		if (strcmp(key, "req") && !keys[i])
			return errmsg(err, errlen, -EPROTO,
				      "unknown key '%.64s'", key);
	}
	return 0;
}
