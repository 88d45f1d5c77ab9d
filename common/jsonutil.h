/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small json-c helpers that the tree's JSON writers and readers share.
 */
#ifndef VLALAB_JSONUTIL_H
#define VLALAB_JSONUTIL_H

#include <json-c/json.h>

/*
 * Add @val to @obj under @key, taking ownership of @val whatever happens:
 * it is released when json-c refuses it. A NULL @val (a failed
 * json_object_new_*()) is -ENOMEM. Returns 0 or -ENOMEM.
 */
int jsonutil_add(struct json_object *obj, const char *key,
		 struct json_object *val);

/* The same for appending @val to the array @arr. 0 or -ENOMEM. */
int jsonutil_append(struct json_object *arr, struct json_object *val);

/*
 * The string member @key of @obj, or "" when @obj is NULL or has no
 * string under @key: for readers that print what a file holds. The text
 * belongs to @obj.
 */
const char *jsonutil_str(const struct json_object *obj, const char *key);

#endif
