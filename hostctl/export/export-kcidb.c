// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run as KCIDB I/O JSON, schema 5.3: one checkout (Debian's
 * linux-source and our series as its patchset), one build (the kernel's
 * manifest: compiler, config fragments, log), and tests, one per scenario
 * ("vlalab.AREA.NAME") and one per step of it ("vlalab.AREA.NAME.N-STEP",
 * cleanup steps "...cleanup-N-STEP"). Every string that came from the
 * guest is cleaned first (escape.h): KCIDB readers want valid UTF-8.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "export/export.h"
#include "jsonutil.h"
#include "results/rundir.h"

#define KCIDB_ORIGIN "vlalab"
#define KCIDB_EXCERPT_MAX 16384

#define JSON_FLAGS_PRETTY                                    \
	(JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | \
	 JSON_C_TO_STRING_NOSLASHESCAPE)

const char *export_kcidb_status(enum proto_verdict v, bool began)
{
	switch (v) {
	case VERDICT_PASS:
		return "PASS";
	case VERDICT_SKIP:
		return "SKIP";
	case VERDICT_XFAIL:
		return "DONE";
	case VERDICT_ERROR:
		return began ? "ERROR" : "MISS";
	default: /* fail, crash, timeout, xpass */
		return "FAIL";
	}
}

/* A VM label as hostctl writes it (rundir_vm_parse()), safe in a path. */
bool export_vm_label_ok(const char *vm)
{
	unsigned int vmno;

	return rundir_vm_parse(vm, &vmno) == 0;
}

const char *export_scenario_vm(const struct res_scenario *sc)
{
	for (size_t i = sc->nboots; i > 0; i--)
		if (*sc->boots[i - 1].vm)
			return export_vm_label_ok(sc->boots[i - 1].vm) ?
				       sc->boots[i - 1].vm :
				       NULL;
	return export_vm_label_ok(sc->vm) ? sc->vm : NULL;
}

/* A copy of the manifest member @key, when it has one; else 0. */
static int copy_member(struct json_object *to, const struct json_object *m,
		       const char *key)
{
	struct json_object *v;

	if (!m || !json_object_object_get_ex(m, key, &v))
		return 0;
	return jsonutil_add(to, key, json_object_get(v));
}

/* @s cleaned, as a new json string; NULL on ENOMEM. */
static struct json_object *clean_str(const char *s, size_t max)
{
	char *c = esc_clean(s ? s : "");
	struct json_object *o;
	size_t n;

	if (!c)
		return NULL;
	n = strlen(c);
	if (n > max) {
		/* Keep the end, where a log's outcome is; not mid-character. */
		const char *p = c + n - max;

		while ((*p & 0xc0) == 0x80)
			p++;
		o = json_object_new_string(p);
	} else {
		o = json_object_new_string(c);
	}
	free(c);
	return o;
}

static struct json_object *seconds(uint64_t ms)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64 ".%03" PRIu64, ms / 1000,
		 ms % 1000);
	return json_object_new_double_s((double)ms / 1000.0, buf);
}

/* @name made a path component: [a-zA-Z0-9_-], anything else '_'. */
static void path_part(char *buf, size_t len, const char *name)
{
	size_t i;

	for (i = 0; name[i] && i + 1 < len; i++) {
		char c = name[i];

		buf[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
					 (c >= '0' && c <= '9') || c == '-' ||
					 c == '_' ?
				 c :
				 '_';
	}
	buf[i] = '\0';
	if (!i)
		snprintf(buf, len, "_");
}

/* A URL @base/@name as a resource {name, url}; NULL on ENOMEM. */
static struct json_object *resource(const char *base, const char *name)
{
	struct json_object *o = json_object_new_object();
	char *url;

	if (!o || asprintf(&url, "%s/%s", base, name) < 0) {
		json_object_put(o);
		return NULL;
	}
	if (jsonutil_add(o, "name", json_object_new_string(name)) < 0 ||
	    jsonutil_add(o, "url", json_object_new_string(url)) < 0) {
		json_object_put(o);
		o = NULL;
	}
	free(url);
	return o;
}

/* The checkout's and the build's id: the kernel's cache key. */
static void kernel_id(const struct export_in *in, char *buf, size_t len)
{
	const char *key = jsonutil_str(in->run->kernel, "key");

	if (*key)
		snprintf(buf, len, KCIDB_ORIGIN ":%s", key);
	else
		snprintf(buf, len, KCIDB_ORIGIN ":run-%s", in->run->run_id);
}

static struct json_object *checkout(const struct export_in *in, const char *id)
{
	const struct json_object *m = in->run->kernel;
	struct json_object *o = json_object_new_object(), *files = NULL;
	struct json_object *misc = json_object_new_object(), *patches;
	const char *tree_id = res_kernel_str2(in->run, "tree", "id");
	const char *tree_name = "debian-linux-source";
	char comment[RES_KERNEL_DESC_MAX];
	int r;

	/* Which kernel ran: ours, a user's tree (--tree) or one built
	 * elsewhere (--kernel). */
	res_kernel_describe(in->run, comment, sizeof(comment));
	if (*tree_id)
		tree_name = "user-tree";
	else if (*res_kernel_str2(in->run, "external", "bzimage"))
		tree_name = "external";
	r = o && misc ? 0 : -ENOMEM;
	if (r == 0 && in->patches_url && m &&
	    json_object_object_get_ex(m, "patches", &patches) &&
	    json_object_is_type(patches, json_type_array)) {
		files = json_object_new_array();
		r = files ? 0 : -ENOMEM;
		for (size_t i = 0;
		     r == 0 && i < json_object_array_length(patches); i++) {
			const char *name = jsonutil_str(
				json_object_array_get_idx(patches, i), "name");

			if (!*name || strchr(name, '/'))
				continue;
			r = jsonutil_append(files,
					    resource(in->patches_url, name));
			if (r < 0)
				break;
		}
		if (r == 0)
			r = jsonutil_add(o, "patchset_files", files);
		else
			json_object_put(files);
	}
	if (r == 0)
		r = jsonutil_add(o, "id", json_object_new_string(id));
	if (r == 0)
		r = jsonutil_add(o, "origin",
				 json_object_new_string(KCIDB_ORIGIN));
	if (r == 0)
		r = jsonutil_add(o, "tree_name",
				 json_object_new_string(tree_name));
	if (r == 0 && !strncmp(tree_id, "git:", 4))
		r = jsonutil_add(o, "git_commit_hash",
				 json_object_new_string(tree_id + 4));
	if (r == 0)
		r = jsonutil_add(o, "comment", json_object_new_string(comment));
	if (r == 0 && in->patchset_hash)
		r = jsonutil_add(o, "patchset_hash",
				 json_object_new_string(in->patchset_hash));
	if (r == 0)
		r = jsonutil_add(o, "valid",
				 json_object_new_boolean(m != NULL));
	if (r == 0)
		r = copy_member(misc, m, "line");
	if (r == 0)
		r = copy_member(misc, m, "source_version");
	if (r == 0)
		r = copy_member(misc, m, "patches");
	if (r == 0)
		r = copy_member(misc, m, "without");
	if (r == 0)
		r = copy_member(misc, m, "tree");
	if (r == 0)
		r = copy_member(misc, m, "external");
	if (r == 0) {
		r = jsonutil_add(o, "misc", misc);
		misc = NULL;
	}
	json_object_put(misc);
	if (r < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* "flavour: a.config b.config", the fragments the config was made of. */
static char *config_name(const struct json_object *m)
{
	struct json_object *frags;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fputs(*jsonutil_str(m, "flavour") ? jsonutil_str(m, "flavour") :
					    "unknown",
	      f);
	if (m && json_object_object_get_ex(m, "fragments", &frags) &&
	    json_object_is_type(frags, json_type_array)) {
		fputc(':', f);
		for (size_t i = 0; i < json_object_array_length(frags); i++)
			fprintf(f, " %s",
				jsonutil_str(json_object_array_get_idx(frags,
								       i),
					     "name"));
	}
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static struct json_object *build(const struct export_in *in, const char *id)
{
	const struct json_object *m = in->run->kernel;
	struct json_object *o = json_object_new_object(), *misc = NULL, *v;
	char *cfg = config_name(m), *url = NULL;
	int r = o && cfg ? 0 : -ENOMEM;

	if (r == 0)
		r = jsonutil_add(o, "id", json_object_new_string(id));
	if (r == 0)
		r = jsonutil_add(o, "checkout_id", json_object_new_string(id));
	if (r == 0)
		r = jsonutil_add(o, "origin",
				 json_object_new_string(KCIDB_ORIGIN));
	if (r == 0)
		r = jsonutil_add(o, "architecture",
				 json_object_new_string("x86_64"));
	if (r == 0 && *jsonutil_str(m, "compiler"))
		r = jsonutil_add(
			o, "compiler",
			json_object_new_string(jsonutil_str(m, "compiler")));
	if (r == 0)
		r = jsonutil_add(o, "config_name", json_object_new_string(cfg));
	if (r == 0 && m && json_object_object_get_ex(m, "build_seconds", &v) &&
	    (json_object_is_type(v, json_type_double) ||
	     json_object_is_type(v, json_type_int)))
		r = jsonutil_add(o, "duration", json_object_get(v));
	if (r == 0 && in->build_url) {
		r = asprintf(&url, "%s/config", in->build_url) < 0 ? -ENOMEM :
								     0;
		if (r == 0)
			r = jsonutil_add(o, "config_url",
					 json_object_new_string(url));
		free(url);
		url = NULL;
		if (r == 0)
			r = asprintf(&url, "%s/build.log", in->build_url) < 0 ?
				    -ENOMEM :
				    0;
		if (r == 0)
			r = jsonutil_add(o, "log_url",
					 json_object_new_string(url));
		free(url);
	}
	if (r == 0 && in->build_log_tail)
		r = jsonutil_add(o, "log_excerpt",
				 clean_str(in->build_log_tail,
					   KCIDB_EXCERPT_MAX));
	if (r == 0)
		r = jsonutil_add(o, "status",
				 json_object_new_string(m ? "PASS" : "MISS"));
	if (r == 0)
		r = jsonutil_add(o, "misc", misc = json_object_new_object());
	if (r == 0)
		r = copy_member(misc, m, "key");
	if (r == 0)
		r = copy_member(misc, m, "release");
	if (r == 0)
		r = copy_member(misc, m, "fragments");
	free(cfg);
	if (r < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* The fields every test has; @o gets them. 0 or -ENOMEM. */
static int test_common(struct json_object *o, const struct export_in *in,
		       const char *build_id, const char *id, const char *path,
		       const char *status, uint64_t ms, const char *verdict)
{
	struct json_object *misc = json_object_new_object();
	int r = jsonutil_add(o, "misc", misc);

	if (r == 0)
		r = jsonutil_add(misc, "verdict",
				 json_object_new_string(verdict));
	if (r == 0)
		r = jsonutil_add(misc, "run_id",
				 json_object_new_string(in->run->run_id));
	if (r == 0)
		r = jsonutil_add(o, "id", json_object_new_string(id));
	if (r == 0)
		r = jsonutil_add(o, "build_id",
				 json_object_new_string(build_id));
	if (r == 0)
		r = jsonutil_add(o, "origin",
				 json_object_new_string(KCIDB_ORIGIN));
	if (r == 0)
		r = jsonutil_add(o, "path", json_object_new_string(path));
	if (r == 0)
		r = jsonutil_add(o, "status", json_object_new_string(status));
	if (r == 0)
		r = jsonutil_add(o, "duration", seconds(ms));
	return r;
}

/*
 * A test's "environment": the libvirt host @host it ran on, as its
 * comment and as misc.host. 0 or -ENOMEM.
 */
static int host_environment(struct json_object *o, const char *host)
{
	struct json_object *env = json_object_new_object(), *misc;
	int r = jsonutil_add(o, "environment", env);

	if (r == 0)
		r = jsonutil_add(env, "comment",
				 clean_str(host, KCIDB_EXCERPT_MAX));
	if (r == 0)
		r = jsonutil_add(env, "misc", misc = json_object_new_object());
	if (r == 0)
		r = jsonutil_add(misc, "host",
				 clean_str(host, KCIDB_EXCERPT_MAX));
	return r;
}

static bool began(const struct res_scenario *sc)
{
	for (size_t i = 0; i < sc->nsteps; i++)
		if (sc->steps[i].ran)
			return true;
	return false;
}

/* The tests of scenario @i into @tests. 0 or -ENOMEM. */
static int scenario_tests(struct json_object *tests, const struct export_in *in,
			  const char *build_id, size_t i)
{
	const struct res_scenario *sc = &in->run->v[i];
	char area[PROTO_NAME_MAX], name[PROTO_NAME_MAX], part[PROTO_NAME_MAX];
	char path[3 * PROTO_NAME_MAX + 32], id[3 * PROTO_NAME_MAX + 96];
	size_t alen = strcspn(sc->name, "/");
	struct json_object *o = json_object_new_object();
	char *url = NULL;
	int r;

	snprintf(part, sizeof(part), "%.*s", (int)alen, sc->name);
	path_part(area, sizeof(area), part);
	path_part(name, sizeof(name),
		  sc->name[alen] ? sc->name + alen + 1 : sc->name);
	snprintf(path, sizeof(path), KCIDB_ORIGIN ".%s.%s", area, name);
	snprintf(id, sizeof(id), KCIDB_ORIGIN ":%s:%s", in->run->run_id,
		 sc->name);
	r = o ? jsonutil_append(tests, o) : -ENOMEM;
	if (r == 0)
		r = test_common(o, in, build_id, id, path,
				export_kcidb_status(sc->verdict, began(sc)),
				sc->duration_ms,
				proto_verdict_name(sc->verdict));
	if (r == 0 && sc->reason)
		r = jsonutil_add(o, "comment",
				 clean_str(sc->reason, KCIDB_EXCERPT_MAX));
	if (r == 0 && *sc->host)
		r = host_environment(o, sc->host);
	if (r == 0 && in->tails && in->tails[i])
		r = jsonutil_add(o, "log_excerpt",
				 clean_str(in->tails[i], KCIDB_EXCERPT_MAX));
	if (r == 0 && in->run_url && export_scenario_vm(sc)) {
		r = asprintf(&url, "%s/" RUNDIR_CONSOLE, in->run_url,
			     export_scenario_vm(sc)) < 0 ?
			    -ENOMEM :
			    0;
		if (r == 0)
			r = jsonutil_add(o, "log_url",
					 json_object_new_string(url));
		free(url);
	}
	for (size_t k = 0; r == 0 && k < sc->nsteps; k++) {
		const struct res_step *st = &sc->steps[k];
		char sname[PROTO_NAME_MAX],
			spath[sizeof(path) + PROTO_NAME_MAX + 32];
		char sid[sizeof(id) + 32];
		struct json_object *t = json_object_new_object();

		path_part(sname, sizeof(sname),
			  *st->name ? st->name : st->kind);
		snprintf(spath, sizeof(spath), "%s.%s%" PRIu32 "-%s", path,
			 st->cleanup ? "cleanup-" : "", st->index, sname);
		snprintf(sid, sizeof(sid), "%s:%s%" PRIu32, id,
			 st->cleanup ? "cleanup-" : "", st->index);
		r = t ? jsonutil_append(tests, t) : -ENOMEM;
		if (r == 0)
			r = test_common(
				t, in, build_id, sid, spath,
				st->ran ?
					export_kcidb_status(st->verdict, true) :
					"SKIP",
				st->duration_us / 1000,
				st->ran ? proto_verdict_name(st->verdict) :
					  "not run");
		if (r == 0 && (st->reason || st->expected || st->got)) {
			char *c = NULL;

			r = asprintf(&c, "%s%s%s%s%s%s",
				     st->expected ? "expected: " : "",
				     st->expected ? st->expected : "",
				     st->got ? "\ngot: " : "",
				     st->got ? st->got : "",
				     st->reason ? "\nreason: " : "",
				     st->reason ? st->reason : "") < 0 ?
				    -ENOMEM :
				    0;
			if (r == 0)
				r = jsonutil_add(t, "comment",
						 clean_str(c,
							   KCIDB_EXCERPT_MAX));
			free(c);
		}
	}
	return r;
}

int export_kcidb(const struct export_in *in, char **ret)
{
	struct json_object *root = json_object_new_object(), *v = NULL;
	struct json_object *a = NULL;
	char id[128];
	int r = root ? 0 : -ENOMEM;

	kernel_id(in, id, sizeof(id));
	if (r == 0)
		r = jsonutil_add(root, "version", v = json_object_new_object());
	if (r == 0)
		r = jsonutil_add(v, "major", json_object_new_int(5));
	if (r == 0)
		r = jsonutil_add(v, "minor", json_object_new_int(3));
	if (r == 0)
		r = jsonutil_add(root, "checkouts",
				 a = json_object_new_array());
	if (r == 0)
		r = jsonutil_append(a, checkout(in, id));
	if (r == 0)
		r = jsonutil_add(root, "builds", a = json_object_new_array());
	if (r == 0)
		r = jsonutil_append(a, build(in, id));
	if (r == 0)
		r = jsonutil_add(root, "tests", a = json_object_new_array());
	for (size_t i = 0; r == 0 && i < in->run->n; i++)
		r = scenario_tests(a, in, id, i);
	if (r == 0) {
		const char *s =
			json_object_to_json_string_ext(root, JSON_FLAGS_PRETTY);

		r = s && asprintf(ret, "%s\n", s) >= 0 ? 0 : -ENOMEM;
	}
	json_object_put(root);
	return r;
}
