// SPDX-License-Identifier: GPL-2.0-only
/*
 * manifest.json beside each build: what went in (source version, patches,
 * fragments, flavour) and what came out (release, warning counts). Later
 * issues compare flavours with it and hostctl embeds it in summary.json.
 * And the evidence table of a build, from its manifest
 * (kbuild_evidence_print()). The warning counts come from ledger.c; what
 * a build has, a .config option or a module, is asked in has.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "fileio.h"
#include "jsonutil.h"
#include "kb.h"

#define MANIFEST_FORMAT 1

void kb_manifest_free(struct kb_manifest *m)
{
	if (!m)
		return;
	free(m->line);
	free(m->source_version);
	free(m->compiler);
	free(m->flavour);
	free(m->seeded_from);
	kb_evidence_free(m->evidence, m->nevidence);
	for (size_t i = 0; i < m->npatches; i++)
		free(m->patches[i].name);
	free(m->patches);
	for (size_t i = 0; i < m->nfragments; i++)
		free(m->fragments[i].name);
	free(m->fragments);
	for (size_t i = 0; i < m->nwithout; i++)
		free(m->without[i]);
	free(m->without);
	free(m->tree_path);
	free(m->tree_id);
	for (size_t i = 0; i < m->nabsent; i++)
		free(m->absent[i]);
	free(m->absent);
	free(m->ext_bzimage);
	free(m->ext_modules);
	free(m->ext_config);
	free(m->ext_version);
	memset(m, 0, sizeof(*m));
}

static int add_str(struct json_object *o, const char *key, const char *val)
{
	return jsonutil_add(o, key, json_object_new_string(val ? val : ""));
}

static struct json_object *names_to_json(char *const *v, size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < n; i++) {
		struct json_object *s = json_object_new_string(v[i]);

		if (!s || json_object_array_add(a, s) < 0) {
			json_object_put(s);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

/* An array of strings; anything else is -EBADMSG. */
static int get_names(struct json_object *a, char ***ret, size_t *ret_n)
{
	size_t n;
	char **v;

	if (!json_object_is_type(a, json_type_array))
		return -EBADMSG;
	n = json_object_array_length(a);
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(a, i);

		if (!json_object_is_type(s, json_type_string))
			goto bad;
		v[i] = strdup(json_object_get_string(s));
		if (!v[i])
			goto bad;
	}
	*ret = v;
	*ret_n = n;
	return 0;
bad:
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return -EBADMSG;
}

static struct json_object *items_to_json(const struct kb_manifest_item *v,
					 size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < n; i++) {
		struct json_object *o = json_object_new_object();

		if (!o || add_str(o, "name", v[i].name) < 0 ||
		    add_str(o, "sha256", v[i].sha256) < 0 ||
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

static int get_str(struct json_object *o, const char *key, char **ret);

/* -1 (not found) is null. */
static int add_bytes(struct json_object *o, const char *key, long v)
{
	if (v < 0)
		return json_object_object_add(o, key, NULL) < 0 ? -ENOMEM : 0;
	return jsonutil_add(o, key, json_object_new_int64(v));
}

static struct json_object *evidence_to_json(const struct kb_evidence *v,
					    size_t n)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < n; i++) {
		struct json_object *o = json_object_new_object();

		if (!o || add_str(o, "object", v[i].object) < 0 ||
		    add_str(o, "function", v[i].function) < 0 ||
		    add_str(o, "variant", v[i].variant) < 0 ||
		    add_str(o, "symbols", v[i].symbols) < 0 ||
		    add_bytes(o, "code_bytes", v[i].code_bytes) < 0 ||
		    add_bytes(o, "frame_bytes", v[i].frame_bytes) < 0 ||
		    add_str(o, "frame_kind", v[i].frame_kind) < 0 ||
		    jsonutil_add(o, "Wvla",
				 json_object_new_int64(v[i].vla_warnings)) <
			    0 ||
		    jsonutil_add(o, "Wframe-larger-than",
				 json_object_new_int64(v[i].frame_warnings)) <
			    0 ||
		    json_object_array_add(a, o) < 0) {
			json_object_put(o);
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

static long get_bytes(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return -1;
	return json_object_get_int64(v);
}

static int get_evidence(struct json_object *a, struct kb_evidence **ret,
			size_t *ret_n)
{
	struct kb_evidence *v;
	size_t n;
	int r = 0;

	if (!json_object_is_type(a, json_type_array))
		return -EBADMSG;
	n = json_object_array_length(a);
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; r == 0 && i < n; i++) {
		struct json_object *it = json_object_array_get_idx(a, i), *x;

		if (!json_object_is_type(it, json_type_object)) {
			r = -EBADMSG;
			break;
		}
		r = get_str(it, "object", &v[i].object);
		if (r == 0)
			r = get_str(it, "function", &v[i].function);
		if (r == 0)
			r = get_str(it, "variant", &v[i].variant);
		if (r == 0)
			r = get_str(it, "symbols", &v[i].symbols);
		if (r == 0)
			r = get_str(it, "frame_kind", &v[i].frame_kind);
		v[i].code_bytes = get_bytes(it, "code_bytes");
		v[i].frame_bytes = get_bytes(it, "frame_bytes");
		if (json_object_object_get_ex(it, "Wvla", &x))
			v[i].vla_warnings = json_object_get_int64(x);
		if (json_object_object_get_ex(it, "Wframe-larger-than", &x))
			v[i].frame_warnings = json_object_get_int64(x);
	}
	if (r < 0) {
		kb_evidence_free(v, n);
		return r;
	}
	*ret = v;
	*ret_n = n;
	return 0;
}

int kb_manifest_to_json(const struct kb_manifest *m, char **ret)
{
	struct json_object *o = json_object_new_object();
	struct json_object *w;
	const char *s;
	int r = -ENOMEM;

	if (!o)
		return -ENOMEM;
	if (jsonutil_add(o, "format", json_object_new_int(MANIFEST_FORMAT)) <
		    0 ||
	    (m->line && add_str(o, "line", m->line) < 0) ||
	    add_str(o, "source_version", m->source_version) < 0 ||
	    add_str(o, "compiler", m->compiler) < 0 ||
	    add_str(o, "flavour", m->flavour) < 0 ||
	    add_str(o, "key", m->key) < 0 ||
	    add_str(o, "release", m->release) < 0 ||
	    jsonutil_add(o, "patches", items_to_json(m->patches, m->npatches)) <
		    0 ||
	    jsonutil_add(o, "fragments",
			 items_to_json(m->fragments, m->nfragments)) < 0 ||
	    jsonutil_add(o, "without", names_to_json(m->without, m->nwithout)) <
		    0 ||
	    jsonutil_add(o, "build_seconds", seconds_json(m->build_seconds)) <
		    0 ||
	    jsonutil_add(o, "timestamp", json_object_new_int64(m->timestamp)) <
		    0 ||
	    jsonutil_add(o, "incremental",
			 json_object_new_boolean(m->incremental)) < 0 ||
	    jsonutil_add(o, "cold", json_object_new_boolean(m->cold)) < 0)
		goto out;
	if (m->seeded_from) {
		w = json_object_new_object();
		if (jsonutil_add(o, "seeded", w) < 0 ||
		    add_str(w, "from", m->seeded_from) < 0 ||
		    jsonutil_add(w, "seconds", seconds_json(m->seed_seconds)) <
			    0)
			goto out;
	}
	if (m->tree_path) {
		w = json_object_new_object();
		if (jsonutil_add(o, "tree", w) < 0 ||
		    add_str(w, "path", m->tree_path) < 0 ||
		    add_str(w, "id", m->tree_id ? m->tree_id : "") < 0 ||
		    jsonutil_add(w, "series",
				 json_object_new_boolean(m->tree_series)) < 0 ||
		    jsonutil_add(w, "missing_options",
				 names_to_json(m->absent, m->nabsent)) < 0)
			goto out;
	}
	if (m->ext_bzimage) {
		w = json_object_new_object();
		if (jsonutil_add(o, "external", w) < 0 ||
		    add_str(w, "bzimage", m->ext_bzimage) < 0 ||
		    add_str(w, "sha256", m->ext_sha256) < 0 ||
		    add_str(w, "modules",
			    m->ext_modules ? m->ext_modules : "") < 0 ||
		    add_str(w, "config", m->ext_config ? m->ext_config : "") <
			    0 ||
		    add_str(w, "version",
			    m->ext_version ? m->ext_version : "") < 0)
			goto out;
	}
	if (m->nevidence &&
	    jsonutil_add(o, "evidence",
			 evidence_to_json(m->evidence, m->nevidence)) < 0)
		goto out;
	w = json_object_new_object();
	if (jsonutil_add(o, "warnings", w) < 0 ||
	    jsonutil_add(w, "Wvla", json_object_new_int64(m->warn_vla)) < 0 ||
	    jsonutil_add(w, "Wframe-larger-than",
			 json_object_new_int64(m->warn_frame)) < 0 ||
	    jsonutil_add(w, "complete",
			 json_object_new_boolean(m->warn_complete)) < 0)
		goto out;
	w = json_object_new_object();
	if (jsonutil_add(o, "warnings_this_build", w) < 0 ||
	    jsonutil_add(w, "Wvla", json_object_new_int64(m->log_vla)) < 0 ||
	    jsonutil_add(w, "Wframe-larger-than",
			 json_object_new_int64(m->log_frame)) < 0)
		goto out;
	s = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
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

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return -EBADMSG;
	*ret = strdup(json_object_get_string(v));
	return *ret ? 0 : -ENOMEM;
}

static int get_hex(struct json_object *o, const char *key, char ret[65])
{
	struct json_object *v;
	const char *s;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return -EBADMSG;
	s = json_object_get_string(v);
	if (strlen(s) > 64)
		return -EBADMSG;
	strcpy(ret, s);
	return 0;
}

static int get_items(struct json_object *o, const char *key,
		     struct kb_manifest_item **ret, size_t *ret_n)
{
	struct json_object *a;
	size_t n;

	if (!json_object_object_get_ex(o, key, &a) ||
	    !json_object_is_type(a, json_type_array))
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
	/* Before lines existed there was 6.1 only: no "line" is 6.1. */
	r = json_object_object_get_ex(o, "line", NULL) ?
		    get_str(o, "line", &m.line) :
		    0;
	if (r == 0)
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
	if (r == 0 && json_object_object_get_ex(o, "without", &v))
		r = get_names(v, &m.without, &m.nwithout);
	if (r == 0 && json_object_object_get_ex(o, "build_seconds", &v))
		m.build_seconds = json_object_get_double(v);
	if (r == 0 && json_object_object_get_ex(o, "timestamp", &v))
		m.timestamp = json_object_get_int64(v);
	if (r == 0 && json_object_object_get_ex(o, "incremental", &v))
		m.incremental = json_object_get_boolean(v);
	if (r == 0 && json_object_object_get_ex(o, "cold", &v))
		m.cold = json_object_get_boolean(v);
	if (r == 0 && json_object_object_get_ex(o, "evidence", &w))
		r = get_evidence(w, &m.evidence, &m.nevidence);
	if (r == 0 && json_object_object_get_ex(o, "seeded", &w)) {
		r = get_str(w, "from", &m.seeded_from);
		if (r == 0 && json_object_object_get_ex(w, "seconds", &v))
			m.seed_seconds = json_object_get_double(v);
	}
	if (r == 0 && json_object_object_get_ex(o, "tree", &w)) {
		r = get_str(w, "path", &m.tree_path);
		if (r == 0)
			r = get_str(w, "id", &m.tree_id);
		if (r == 0 && json_object_object_get_ex(w, "series", &v))
			m.tree_series = json_object_get_boolean(v);
		if (r == 0 &&
		    json_object_object_get_ex(w, "missing_options", &v))
			r = get_names(v, &m.absent, &m.nabsent);
	}
	if (r == 0 && json_object_object_get_ex(o, "external", &w)) {
		r = get_str(w, "bzimage", &m.ext_bzimage);
		if (r == 0)
			r = get_hex(w, "sha256", m.ext_sha256);
		if (r == 0)
			r = get_str(w, "modules", &m.ext_modules);
		if (r == 0)
			r = get_str(w, "config", &m.ext_config);
		if (r == 0)
			r = get_str(w, "version", &m.ext_version);
	}
	if (r == 0 && json_object_object_get_ex(o, "warnings", &w)) {
		if (json_object_object_get_ex(w, "Wvla", &v))
			m.warn_vla = json_object_get_int64(v);
		if (json_object_object_get_ex(w, "Wframe-larger-than", &v))
			m.warn_frame = json_object_get_int64(v);
		if (json_object_object_get_ex(w, "complete", &v))
			m.warn_complete = json_object_get_boolean(v);
	}
	if (r == 0 && json_object_object_get_ex(o, "warnings_this_build", &w)) {
		if (json_object_object_get_ex(w, "Wvla", &v))
			m.log_vla = json_object_get_int64(v);
		if (json_object_object_get_ex(w, "Wframe-larger-than", &v))
			m.log_frame = json_object_get_int64(v);
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

/* ---- the evidence table ---- */

static void print_bytes(FILE *out, long v, int width)
{
	if (v < 0)
		fprintf(out, " %*s", width, "-");
	else
		fprintf(out, " %*ld", width, v);
}

int kbuild_evidence_print(const char *dir, FILE *out)
{
	struct kb_manifest m;
	char path[PATH_MAX], *text = NULL;
	int r;

	r = kb_path(path, sizeof(path), "%s/manifest.json", dir);
	if (r == 0)
		r = fileio_read(path, FILEIO_ALL, &text, NULL, NULL);
	if (r == 0)
		r = kb_manifest_parse(text, &m);
	free(text);
	if (r < 0)
		return r;
	fprintf(out, "warnings: %u -Wvla, %u -Wframe-larger-than%s\n",
		m.warn_vla, m.warn_frame,
		m.warn_complete ?
			"" :
			" (incomplete: objects older than the ledger)");
	if (m.seeded_from)
		fprintf(out,
			"seeded: from the %s flavour's trees (copy %.0f s), make %.0f s\n",
			m.seeded_from, m.seed_seconds, m.build_seconds);
	if (m.nevidence)
		fprintf(out, "%-62s %-17s %6s %6s %-16s %4s %6s\n",
			"evidence: function", "variant", "code", "frame",
			"frame kind", "Wvla", "Wframe");
	for (size_t i = 0; i < m.nevidence; i++) {
		const struct kb_evidence *e = &m.evidence[i];
		char name[256];

		snprintf(name, sizeof(name), "  %s:%s", e->object, e->function);
		fprintf(out, "%-62s %-17s", name, e->variant);
		print_bytes(out, e->code_bytes, 6);
		print_bytes(out, e->frame_bytes, 6);
		fprintf(out, " %-16s %4u %6u%s\n",
			e->frame_bytes < 0 ? "-" : e->frame_kind,
			e->vla_warnings, e->frame_warnings,
			e->code_bytes < 0 ?
				"  (inlined: no symbol of its own)" :
				"");
	}
	kb_manifest_free(&m);
	return 0;
}
