// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>

#include "jsonutil.h"

int jsonutil_add(struct json_object *obj, const char *key,
		 struct json_object *val)
{
	if (!val)
		return -ENOMEM;
	if (json_object_object_add(obj, key, val) < 0) {
		json_object_put(val);
		return -ENOMEM;
	}
	return 0;
}

int jsonutil_append(struct json_object *arr, struct json_object *val)
{
	if (!val)
		return -ENOMEM;
	if (json_object_array_add(arr, val) < 0) {
		json_object_put(val);
		return -ENOMEM;
	}
	return 0;
}

const char *jsonutil_str(const struct json_object *obj, const char *key)
{
	struct json_object *v;

	if (obj && json_object_object_get_ex(obj, key, &v) &&
	    json_object_is_type(v, json_type_string))
		return json_object_get_string(v);
	return "";
}
