// SPDX-License-Identifier: GPL-2.0-only
/* The live VMs' state files (vmstate.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "fileio.h"
#include "base/fsutil.h"
#include "jsonutil.h"
#include "vm/vmstate.h"

#define VMSTATE_FILE_MAX 16384

int vmstate_write(const char *dir, const struct vmstate *v)
{
	char path[PATH_MAX + 160];
	struct json_object *o = json_object_new_object();
	const char *text;
	int r;

	if (!o)
		return -ENOMEM;
	r = jsonutil_add(o, "domain", json_object_new_string(v->domain));
	if (r == 0)
		r = jsonutil_add(o, "label", json_object_new_string(v->label));
	if (r == 0)
		r = jsonutil_add(o, "socket",
				 json_object_new_string(v->socket));
	if (r == 0)
		r = jsonutil_add(o, "host_key",
				 json_object_new_string(v->host_key));
	if (r == 0)
		r = jsonutil_add(o, "run_dir",
				 json_object_new_string(v->run_dir));
	if (r == 0)
		r = jsonutil_add(o, "pid", json_object_new_int64(v->pid));
	if (r == 0 && v->scenario[0])
		r = jsonutil_add(o, "scenario",
				 json_object_new_string(v->scenario));
	if (r == 0 && v->scenario[0])
		r = jsonutil_add(o, "step", json_object_new_int64(v->step));
	if (r == 0 && v->scenario[0])
		r = jsonutil_add(o, "steps", json_object_new_int64(v->steps));
	text = r == 0 ? json_object_to_json_string_ext(
				o, JSON_C_TO_STRING_NOSLASHESCAPE) :
			NULL;
	if (r == 0 && !text)
		r = -ENOMEM;
	if (r == 0)
		r = fs_mkdir_private(dir);
	if (r == 0 && snprintf(path, sizeof(path), "%s/%s.json", dir,
			       v->domain) >= (int)sizeof(path))
		r = -ENAMETOOLONG;
	if (r == 0)
		r = fileio_write_atomic(path, text, strlen(text));
	json_object_put(o);
	return r;
}

void vmstate_remove(const char *dir, const char *domain)
{
	char path[PATH_MAX + 160];

	if (snprintf(path, sizeof(path), "%s/%s.json", dir, domain) <
	    (int)sizeof(path))
		unlink(path);
}

static int get_str(struct json_object *o, const char *key, char *dst,
		   size_t size)
{
	struct json_object *v;
	const char *s;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return -EINVAL;
	s = json_object_get_string(v);
	if (!*s || strlen(s) >= size)
		return -EINVAL;
	memcpy(dst, s, strlen(s) + 1);
	return 0;
}

/* An optional count in 0..65535 at @key; -EINVAL for a bad one. */
static int get_count(struct json_object *o, const char *key, unsigned *dst)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_int) ||
	    json_object_get_int64(v) < 0 || json_object_get_int64(v) > 65535)
		return -EINVAL;
	*dst = (unsigned)json_object_get_int64(v);
	return 0;
}

int vmstate_parse(const char *text, struct vmstate *ret)
{
	struct json_object *o = json_tokener_parse(text), *pid, *scn;
	struct vmstate v = { 0 };
	int r = -EINVAL;

	if (o && json_object_is_type(o, json_type_object) &&
	    get_str(o, "domain", v.domain, sizeof(v.domain)) == 0 &&
	    get_str(o, "label", v.label, sizeof(v.label)) == 0 &&
	    get_str(o, "socket", v.socket, sizeof(v.socket)) == 0 &&
	    get_str(o, "host_key", v.host_key, sizeof(v.host_key)) == 0 &&
	    get_str(o, "run_dir", v.run_dir, sizeof(v.run_dir)) == 0 &&
	    json_object_object_get_ex(o, "pid", &pid) &&
	    json_object_is_type(pid, json_type_int) &&
	    json_object_get_int64(pid) > 0 &&
	    json_object_get_int64(pid) <= INT_MAX &&
	    (!json_object_object_get_ex(o, "scenario", &scn) ||
	     get_str(o, "scenario", v.scenario, sizeof(v.scenario)) == 0) &&
	    get_count(o, "step", &v.step) == 0 &&
	    get_count(o, "steps", &v.steps) == 0 && v.step <= v.steps) {
		v.pid = (pid_t)json_object_get_int64(pid);
		*ret = v;
		r = 0;
	}
	json_object_put(o);
	return r;
}

int vmstate_list(const char *dir, struct vmstate **ret, size_t *ret_n)
{
	struct vmstate *v = NULL, *nv;
	size_t n = 0;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d) {
		if (errno != ENOENT)
			return -errno;
		*ret = NULL;
		*ret_n = 0;
		return 0;
	}
	while ((de = readdir(d))) {
		char path[PATH_MAX + 300], *text = NULL;
		size_t len = strlen(de->d_name), tlen;
		struct vmstate s;

		if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (fileio_read(path, VMSTATE_FILE_MAX, &text, &tlen, NULL) < 0)
			continue;
		/* A stale file: its hostctl is gone, and its VM with it. */
		if (vmstate_parse(text, &s) == 0 &&
		    (kill(s.pid, 0) == 0 || errno == EPERM)) {
			nv = realloc(v, (n + 1) * sizeof(*v));
			if (!nv) {
				free(text);
				free(v);
				closedir(d);
				return -ENOMEM;
			}
			v = nv;
			v[n++] = s;
		}
		free(text);
	}
	closedir(d);
	*ret = v;
	*ret_n = n;
	return 0;
}

int vmstate_resolve(const char *dir, const char *name, struct vmstate *ret)
{
	struct vmstate *v;
	size_t n, hits = 0, at = 0;
	int r = vmstate_list(dir, &v, &n);

	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(v[i].domain, name) == 0) {
			hits = 1;
			at = i;
			break;
		}
		if (strcmp(v[i].label, name) == 0) {
			hits++;
			at = i;
		}
	}
	if (hits == 1)
		*ret = v[at];
	free(v);
	return hits == 1 ? 0 : hits ? -EEXIST : -ENOENT;
}
