/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Strict JSON for files that people write: exactly one value, json-c's
 * JSON_TOKENER_STRICT, and the line and column of the first mistake; and
 * the keys an object holds twice, which json-c would silently collapse to
 * the last one.
 */
#ifndef VLALAB_JSONSTRICT_H
#define VLALAB_JSONSTRICT_H

#include <stddef.h>

#include <json-c/json.h>

/* A JSON path's size, NUL included; a longer one ends with "...". */
#define JSONSTRICT_PATH_MAX 256

/* Where and why a text is not one strict JSON value. */
struct jsonstrict_error {
	size_t line; /* from 1 */
	size_t column; /* from 1, in bytes */
	const char *what; /* a static string: json-c's words, or ours */
};

/*
 * Parse the @len bytes of @buf as one strict JSON value with nothing but
 * white space after it. Returns 0 with the value in *ret (the caller puts
 * it), -EINVAL with *ret_err saying where and why not, or -ENOMEM when no
 * parser could be made.
 */
int jsonstrict_parse(const char *buf, size_t len, struct json_object **ret,
		     struct jsonstrict_error *ret_err);

/*
 * Call @fn for every key that one object in @buf holds again, in text
 * order, with the JSON path of the repeated key: "$", then ".key" for
 * members and "[i]" for array elements, e.g. "$.steps[2].kind". @buf must
 * be valid JSON (jsonstrict_parse() took it).
 */
void jsonstrict_dup_keys(const char *buf, size_t len,
			 void (*fn)(const char *path, void *data), void *data);

/*
 * JSON paths into @dst (JSONSTRICT_PATH_MAX bytes): "$" with ".key" or
 * "[i]" appended to @base; a path too long ends in "...".
 */
void jsonstrict_path_key(char *dst, const char *base, const char *key);
void jsonstrict_path_index(char *dst, const char *base, size_t i);

#endif
