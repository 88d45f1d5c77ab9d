// SPDX-License-Identifier: GPL-2.0-only
/*
 * The accelerator verdict and its per-host cache, a small JSON file:
 * {"key": "<host key>", "accel": "kvm" | "tcg"}.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <json-c/json.h>

#include "vm/accel.h"
#include "fileio.h"

int accel_parse(const char *s, enum accel_choice *ret)
{
	if (strcmp(s, "auto") == 0)
		*ret = ACCEL_AUTO;
	else if (strcmp(s, "kvm") == 0)
		*ret = ACCEL_KVM;
	else if (strcmp(s, "tcg") == 0)
		*ret = ACCEL_TCG;
	else
		return -EINVAL;
	return 0;
}

bool accel_kvm_usable(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int accel_host_key(const char *hv_version, char *buf, size_t len)
{
	struct utsname u;

	if (uname(&u) < 0)
		return -errno;
	if (snprintf(buf, len, "%s %s %s qemu-%s", u.nodename, u.release,
		     u.version, hv_version) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

static int cache_path(const char *cache_dir, char *buf, size_t len)
{
	if (snprintf(buf, len, "%s/host/accel", cache_dir) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int accel_cache_read(const char *cache_dir, const char *key,
		     enum domain_accel *ret)
{
	struct json_object *root, *k, *a;
	char path[4096];
	int r;

	r = cache_path(cache_dir, path, sizeof(path));
	if (r < 0)
		return r;
	if (access(path, F_OK) < 0)
		return errno == ENOENT ? -ENOENT : -errno;
	root = json_object_from_file(path);
	if (!root)
		return -ENOENT;
	r = -ENOENT;
	if (json_object_object_get_ex(root, "key", &k) &&
	    json_object_object_get_ex(root, "accel", &a) &&
	    json_object_is_type(k, json_type_string) &&
	    json_object_is_type(a, json_type_string) &&
	    strcmp(json_object_get_string(k), key) == 0) {
		if (strcmp(json_object_get_string(a), "kvm") == 0) {
			*ret = DOMAIN_ACCEL_KVM;
			r = 0;
		} else if (strcmp(json_object_get_string(a), "tcg") == 0) {
			*ret = DOMAIN_ACCEL_TCG;
			r = 0;
		}
	}
	json_object_put(root);
	return r;
}

int accel_cache_write(const char *cache_dir, const char *key,
		      enum domain_accel a)
{
	char dir[4096], path[4096];
	struct json_object *root;
	const char *text;
	int r = 0;

	if (snprintf(dir, sizeof(dir), "%s/host", cache_dir) >=
	    (int)sizeof(dir))
		return -ENAMETOOLONG;
	r = cache_path(cache_dir, path, sizeof(path));
	if (r < 0)
		return r;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	root = json_object_new_object();
	if (!root)
		return -ENOMEM;
	if (json_object_object_add(root, "key", json_object_new_string(key)) <
		    0 ||
	    json_object_object_add(
		    root, "accel",
		    json_object_new_string(domain_accel_name(a))) < 0)
		r = -ENOMEM;
	text = r == 0 ?
		       json_object_to_json_string_ext(root,
						      JSON_C_TO_STRING_PRETTY) :
		       NULL;
	if (r == 0 && !text)
		r = -ENOMEM;
	if (r == 0)
		r = fileio_write_atomic(path, text, strlen(text));
	json_object_put(root);
	return r;
}
