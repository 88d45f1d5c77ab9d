// SPDX-License-Identifier: GPL-2.0-only
/* jsonstrict: one strict value with line and column, and repeated keys. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonstrict.h"
#include "tap.h"

/* Every path jsonstrict_dup_keys() reported, one a line. */
struct paths {
	char text[4096];
	int n;
};

static void add_path(const char *path, void *data)
{
	struct paths *p = data;
	size_t used = strlen(p->text);

	snprintf(p->text + used, sizeof(p->text) - used, "%s\n", path);
	p->n++;
}

static int parse(const char *text, struct json_object **ret,
		 struct jsonstrict_error *ret_err)
{
	return jsonstrict_parse(text, strlen(text), ret, ret_err);
}

static void test_parse(void)
{
	struct jsonstrict_error err = { 0 };
	struct json_object *obj = NULL;

	is_int(parse("{ \"a\": [1, 2] }\n\n", &obj, &err), 0,
	       "an object with white space after it");
	ok(obj && json_object_is_type(obj, json_type_object), "is an object");
	json_object_put(obj);

	is_int(parse("{}\n{}", &obj, &err), -EINVAL, "two values");
	ok(err.line == 2 && err.column == 1, "where the second begins");
	is_str(err.what, "unexpected character", "in json-c's words");

	/* json-c stops at a NUL byte as at the end of the value. */
	is_int(jsonstrict_parse("{}\n\0x", 5, &obj, &err), -EINVAL,
	       "a NUL byte after the value");
	ok(err.line == 2 && err.column == 1, "where it is");
	is_str(err.what, "text after the end of the object", "says so");

	is_int(parse("{\n  \"a\": 1,\n", &obj, &err), -EINVAL,
	       "a text that stops early");
	ok(err.line == 3 && err.column == 1, "at the end of the text");
	is_str(err.what, "unexpected end of file", "says so");

	is_int(parse("{\n  \"a\": 1,\n  \"b\" 2\n}", &obj, &err), -EINVAL,
	       "a missing colon");
	ok(err.line == 3 && err.column == 7, "at the line and column of it");
	is_str(err.what,
	       json_tokener_error_desc(json_tokener_error_parse_object_key_sep),
	       "in json-c's words");

	is_int(parse("[1, 2,]", &obj, &err), -EINVAL,
	       "a trailing comma is not strict JSON");
}

static void test_dup_keys(void)
{
	static const char text[] =
		"{ \"a\": 1, \"b\": { \"c\": 1, \"c\": 2 }, \"a\": 3,\n"
		"  \"list\": [ {}, { \"x\": \"}\", \"x\\\"\": 1, \"x\": [] } ],\n"
		"  \"a\": 4 }";
	static const char none[] =
		"{ \"a\": { \"a\": 1 }, \"b\": [ { \"a\": 1 }, { \"a\": 2 } ] }";
	struct paths p = { 0 };

	jsonstrict_dup_keys(text, strlen(text), add_path, &p);
	is_int(p.n, 4, "every repeated key, not the first of each");
	is_str(p.text,
	       "$.b.c\n"
	       "$.a\n"
	       "$.list[1].x\n"
	       "$.a\n",
	       "by JSON path, in text order, escapes and braces in strings skipped");

	memset(&p, 0, sizeof(p));
	jsonstrict_dup_keys(none, strlen(none), add_path, &p);
	is_int(p.n, 0, "the same key in different objects is no repeat");
}

static void test_long_path(void)
{
	char text[1024], want[JSONSTRICT_PATH_MAX];
	struct paths p = { 0 };
	char key[300];

	memset(key, 'k', sizeof(key) - 1);
	key[sizeof(key) - 1] = '\0';
	snprintf(text, sizeof(text), "{ \"%s\": 1, \"%s\": 2 }", key, key);
	jsonstrict_dup_keys(text, strlen(text), add_path, &p);
	/* "$.kkk...kkk...": cut to the bound, NUL included. */
	memset(want, 'k', sizeof(want));
	memcpy(want, "$.", 2);
	strcpy(want + sizeof(want) - 4, "...");
	is_int(p.n, 1, "a long repeated key");
	ok(strlen(p.text) == JSONSTRICT_PATH_MAX &&
		   strncmp(p.text, want, sizeof(want) - 1) == 0,
	   "has its path cut with '...'");
}

int main(void)
{
	test_parse();
	test_dup_keys();
	test_long_path();
	return tap_done();
}
