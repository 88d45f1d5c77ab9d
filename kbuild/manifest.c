// SPDX-License-Identifier: GPL-2.0-only
/*
 * manifest.json beside each build: what went in (source version, patches,
 * fragments, flavour) and what came out (release, warning counts). Later
 * issues compare flavours with it and hostctl embeds it in summary.json.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "kb.h"

#define MANIFEST_FORMAT 1

void kb_manifest_free(struct kb_manifest *m)
{
	if (!m)
		return;
	free(m->source_version);
	free(m->compiler);
	free(m->flavour);
	for (size_t i = 0; i < m->npatches; i++)
		free(m->patches[i].name);
	free(m->patches);
	for (size_t i = 0; i < m->nfragments; i++)
		free(m->fragments[i].name);
	free(m->fragments);
	memset(m, 0, sizeof(*m));
}

static int add_str(struct json_object *o, const char *key, const char *val)
{
	struct json_object *s = json_object_new_string(val ? val : "");

	if (!s)
		return -ENOMEM;
	if (json_object_object_add(o, key, s) < 0) {
		json_object_put(s);
		return -ENOMEM;
	}
	return 0;
}

static int add_obj(struct json_object *o, const char *key, struct json_object *v)
{
	if (!v)
		return -ENOMEM;
	if (json_object_object_add(o, key, v) < 0) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

static struct json_object *items_to_json(const struct kb_manifest_item *v, size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < n; i++) {
		struct json_object *o = json_object_new_object();

		if (!o || add_str(o, "name", v[i].name) < 0 || add_str(o, "sha256", v[i].sha256) < 0 ||
		    json_object_array_add(a, o) < 0) {
			json_object_put(o);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

/* Seconds with two decimals, not 17 digits of binary noise. */
static struct json_object *seconds_json(double s)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.2f", s);
	return json_object_new_double_s(strtod(buf, NULL), buf);
}

int kb_manifest_to_json(const struct kb_manifest *m, char **ret)
{
	struct json_object *o = json_object_new_object();
	struct json_object *w;
	const char *s;
	int r = -ENOMEM;

	if (!o)
		return -ENOMEM;
	if (add_obj(o, "format", json_object_new_int(MANIFEST_FORMAT)) < 0 ||
	    add_str(o, "source_version", m->source_version) < 0 || add_str(o, "compiler", m->compiler) < 0 ||
	    add_str(o, "flavour", m->flavour) < 0 || add_str(o, "key", m->key) < 0 ||
	    add_str(o, "release", m->release) < 0 ||
	    add_obj(o, "patches", items_to_json(m->patches, m->npatches)) < 0 ||
	    add_obj(o, "fragments", items_to_json(m->fragments, m->nfragments)) < 0 ||
	    add_obj(o, "build_seconds", seconds_json(m->build_seconds)) < 0 ||
	    add_obj(o, "timestamp", json_object_new_int64(m->timestamp)) < 0 ||
	    add_obj(o, "incremental", json_object_new_boolean(m->incremental)) < 0)
		goto out;
	w = json_object_new_object();
	if (add_obj(o, "warnings", w) < 0 || add_obj(w, "Wvla", json_object_new_int64(m->warn_vla)) < 0 ||
	    add_obj(w, "Wframe-larger-than", json_object_new_int64(m->warn_frame)) < 0)
		goto out;
	s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!s)
		goto out;
	*ret = strdup(s);
	r = *ret ? 0 : -ENOMEM;
out:
	json_object_put(o);
	return r;
}

static int get_str(struct json_object *o, const char *key, char **ret)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return -EBADMSG;
	*ret = strdup(json_object_get_string(v));
	return *ret ? 0 : -ENOMEM;
}

static int get_hex(struct json_object *o, const char *key, char ret[65])
{
	struct json_object *v;
	const char *s;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return -EBADMSG;
	s = json_object_get_string(v);
	if (strlen(s) > 64)
		return -EBADMSG;
	strcpy(ret, s);
	return 0;
}

static int get_items(struct json_object *o, const char *key, struct kb_manifest_item **ret, size_t *ret_n)
{
	struct json_object *a;
	size_t n;

	if (!json_object_object_get_ex(o, key, &a) || !json_object_is_type(a, json_type_array))
		return -EBADMSG;
	n = json_object_array_length(a);
	*ret = calloc(n ? n : 1, sizeof(**ret));
	if (!*ret)
		return -ENOMEM;
	*ret_n = n;
	for (size_t i = 0; i < n; i++) {
		struct json_object *it = json_object_array_get_idx(a, i);
		int r;

		if (!json_object_is_type(it, json_type_object))
			return -EBADMSG;
		r = get_str(it, "name", &(*ret)[i].name);
		if (r == 0)
			r = get_hex(it, "sha256", (*ret)[i].sha256);
		if (r < 0)
			return r;
	}
	return 0;
}

int kb_manifest_parse(const char *text, struct kb_manifest *ret)
{
	struct kb_manifest m = { 0 };
	struct json_object *o, *v, *w;
	char *release = NULL;
	int r;

	o = json_tokener_parse(text);
	if (!o || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return -EBADMSG;
	}
	r = get_str(o, "source_version", &m.source_version);
	if (r == 0)
		r = get_str(o, "compiler", &m.compiler);
	if (r == 0)
		r = get_str(o, "flavour", &m.flavour);
	if (r == 0)
		r = get_hex(o, "key", m.key);
	if (r == 0)
		r = get_str(o, "release", &release);
	if (r == 0 && strlen(release) >= sizeof(m.release))
		r = -EBADMSG;
	if (r == 0)
		strcpy(m.release, release);
	if (r == 0)
		r = get_items(o, "patches", &m.patches, &m.npatches);
	if (r == 0)
		r = get_items(o, "fragments", &m.fragments, &m.nfragments);
	if (r == 0 && json_object_object_get_ex(o, "build_seconds", &v))
		m.build_seconds = json_object_get_double(v);
	if (r == 0 && json_object_object_get_ex(o, "timestamp", &v))
		m.timestamp = json_object_get_int64(v);
	if (r == 0 && json_object_object_get_ex(o, "incremental", &v))
		m.incremental = json_object_get_boolean(v);
	if (r == 0 && json_object_object_get_ex(o, "warnings", &w)) {
		if (json_object_object_get_ex(w, "Wvla", &v))
			m.warn_vla = json_object_get_int64(v);
		if (json_object_object_get_ex(w, "Wframe-larger-than", &v))
			m.warn_frame = json_object_get_int64(v);
	}
	free(release);
	json_object_put(o);
	if (r < 0) {
		kb_manifest_free(&m);
		return r;
	}
	*ret = m;
	return 0;
}

void kb_count_warnings(const char *log, size_t len, unsigned *ret_vla, unsigned *ret_frame)
{
	unsigned vla = 0, frame = 0;
	const char *p = log, *end;

	*ret_vla = *ret_frame = 0;
	if (!log || !len)
		return;
	end = log + len;
	while (p && p < end) {
		const char *e = memchr(p, '\n', end - p);
		size_t n = e ? (size_t)(e - p) : (size_t)(end - p);

		if (memmem(p, n, "warning:", 8)) {
			if (memmem(p, n, "[-Wvla]", 7) || memmem(p, n, "[-Wvla-larger-than=]", 20))
				vla++;
			if (memmem(p, n, "[-Wframe-larger-than", 20))
				frame++;
		}
		p = e ? e + 1 : end;
	}
	*ret_vla = vla;
	*ret_frame = frame;
}
