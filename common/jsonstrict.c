// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonstrict.h"

int jsonstrict_parse(const char *buf, size_t len, struct json_object **ret,
		     struct jsonstrict_error *ret_err)
{
	struct json_tokener *tok;
	struct json_object *obj;
	enum json_tokener_error jerr;
	size_t end, line = 1, col = 1;

	tok = json_tokener_new();
	if (!tok)
		return -ENOMEM;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	obj = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (obj && jerr == json_tokener_success) {
		while (end < len && isspace((unsigned char)buf[end]))
			end++;
		if (end == len) {
			*ret = obj;
			return 0;
		}
	}
	for (size_t i = 0; i < end && i < len; i++) {
		if (buf[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	ret_err->line = line;
	ret_err->column = col;
	if (obj)
		ret_err->what = "text after the end of the object";
	else if (jerr == json_tokener_continue)
		ret_err->what = "unexpected end of file";
	else
		ret_err->what = json_tokener_error_desc(jerr);
	json_object_put(obj);
	return -EINVAL;
}

void jsonstrict_path_key(char *dst, const char *base, const char *key)
{
	int r = snprintf(dst, JSONSTRICT_PATH_MAX, "%s.%s", base, key);

	if (r >= JSONSTRICT_PATH_MAX)
		strcpy(dst + JSONSTRICT_PATH_MAX - 4, "...");
}

void jsonstrict_path_index(char *dst, const char *base, size_t i)
{
	int r = snprintf(dst, JSONSTRICT_PATH_MAX, "%s[%zu]", base, i);

	if (r >= JSONSTRICT_PATH_MAX)
		strcpy(dst + JSONSTRICT_PATH_MAX - 4, "...");
}

/* A walk over text already known to be valid JSON. */
struct dup_scan {
	const char *s;
	size_t i, len;
	void (*fn)(const char *path, void *data);
	void *data;
};

static void skip_ws(struct dup_scan *d)
{
	while (d->i < d->len && isspace((unsigned char)d->s[d->i]))
		d->i++;
}

/* At an opening quote: step past the string, return its raw extent. */
static void skip_string(struct dup_scan *d, size_t *start, size_t *n)
{
	*start = ++d->i;
	while (d->i < d->len && d->s[d->i] != '"')
		d->i += d->s[d->i] == '\\' ? 2 : 1;
	*n = d->i - *start;
	d->i++;
}

static void scan_value(struct dup_scan *d, const char *path)
{
	char p[JSONSTRICT_PATH_MAX];
	size_t start, n;

	skip_ws(d);
	if (d->i >= d->len)
		return;
	if (d->s[d->i] == '{') {
		size_t *keys = NULL, nkeys = 0;

		d->i++;
		for (;;) {
			char key[JSONSTRICT_PATH_MAX];
			size_t *k;

			skip_ws(d);
			if (d->i >= d->len || d->s[d->i] == '}')
				break;
			if (d->s[d->i] == ',') {
				d->i++;
				continue;
			}
			skip_string(d, &start, &n);
			snprintf(key, sizeof(key), "%.*s", (int)n,
				 d->s + start);
			jsonstrict_path_key(p, path, key);
			for (size_t j = 0; j < nkeys; j++)
				if (keys[2 * j + 1] == n &&
				    memcmp(d->s + keys[2 * j], d->s + start,
					   n) == 0) {
					d->fn(p, d->data);
					break;
				}
			/* Out of memory, this key is forgotten: a repeat goes unseen. */
			k = realloc(keys, (nkeys + 1) * 2 * sizeof(*keys));
			if (k) {
				keys = k;
				keys[2 * nkeys] = start;
				keys[2 * nkeys + 1] = n;
				nkeys++;
			}
			skip_ws(d);
			if (d->i < d->len && d->s[d->i] == ':')
				d->i++;
			scan_value(d, p);
		}
		free(keys);
		d->i++;
	} else if (d->s[d->i] == '[') {
		size_t idx = 0;

		d->i++;
		for (;;) {
			skip_ws(d);
			if (d->i >= d->len || d->s[d->i] == ']')
				break;
			if (d->s[d->i] == ',') {
				d->i++;
				continue;
			}
			jsonstrict_path_index(p, path, idx++);
			scan_value(d, p);
		}
		d->i++;
	} else if (d->s[d->i] == '"') {
		skip_string(d, &start, &n);
	} else {
		while (d->i < d->len && !strchr(",]} \t\r\n", d->s[d->i]))
			d->i++;
	}
}

void jsonstrict_dup_keys(const char *buf, size_t len,
			 void (*fn)(const char *path, void *data), void *data)
{
	struct dup_scan d = { .s = buf, .len = len, .fn = fn, .data = data };

	scan_value(&d, "$");
}
