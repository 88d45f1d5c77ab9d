// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a killed run leaves in a remote host's pool (pool.h). The volumes
 * a run makes for itself, a cloud VM's overlay, a memory dump and the
 * marker of an upload under way, carry their hostctl in their name,
 * "<what>~<pid>~<start>~<host>" (owner.h's fields); those of a hostctl of
 * this machine's that is gone are deleted (pool_reap()), and with them
 * the uploads it cut short, as the domains of dead runs are
 * (vm_reap_orphans()). The volumes named by content stay: they are the
 * pool's cache. Nothing here prints.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "vm/owner.h"
#include "vm/pool.h"
#include "vm/vm-priv.h"

#define HEX_LEN 64

/* A host name that can go into a volume's name as it is. */
static bool host_ok(const char *host)
{
	if (!*host)
		return false;
	for (const char *p = host; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' ||
		      *p == '_'))
			return false;
	return true;
}

void pool_tag_init(struct vm_host *h)
{
	struct owner o;

	h->pool_tag[0] = '\0';
	h->pool_host[0] = '\0';
	if (owner_self("", &o) < 0 || !host_ok(o.host) ||
	    strlen(o.host) >= sizeof(h->pool_host) ||
	    snprintf(h->pool_tag, sizeof(h->pool_tag), "~%d~%" PRIu64 "~%s",
		     (int)o.pid, o.start, o.host) >= (int)sizeof(h->pool_tag)) {
		h->pool_tag[0] = '\0';
		return;
	}
	snprintf(h->pool_host, sizeof(h->pool_host), "%s", o.host);
}

int pool_tag_name(const struct vm_host *h, char *buf, size_t len)
{
	size_t n = strlen(buf), t = strlen(h->pool_tag);

	if (n + t >= len)
		return -ENAMETOOLONG;
	memcpy(buf + n, h->pool_tag, t + 1);
	return 0;
}

/* The decimal number of @p up to @end into *@ret: 0 or -EINVAL. */
static int number(const char *p, const char *end, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;

	if (p == end || end - p > 20)
		return -EINVAL;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9' ||
		    v > (max - (uint64_t)(*p - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	*ret = v;
	return 0;
}

int pool_tag_parse(const char *name, struct owner *ret, size_t *ret_what)
{
	const char *t = strchr(name, '~'), *s, *u;
	struct owner o = { 0 };
	uint64_t pid;

	if (!t || t == name)
		return -EINVAL;
	s = strchr(t + 1, '~');
	u = s ? strchr(s + 1, '~') : NULL;
	if (!u || number(t + 1, s, INT32_MAX, &pid) < 0 || pid < 1 ||
	    number(s + 1, u, UINT64_MAX, &o.start) < 0 ||
	    strlen(u + 1) >= sizeof(o.host) || !host_ok(u + 1))
		return -EINVAL;
	o.pid = (pid_t)pid;
	snprintf(o.host, sizeof(o.host), "%s", u + 1);
	*ret = o;
	*ret_what = (size_t)(t - name);
	return 0;
}

/* A volume named by content: 64 lower-case hex digits and @suffix. */
static bool content_name(const char *name, size_t len, const char *suffix)
{
	if (len != HEX_LEN + strlen(suffix) ||
	    strcmp(name + HEX_LEN, suffix) != 0)
		return false;
	for (size_t i = 0; i < HEX_LEN; i++)
		if (!((name[i] >= '0' && name[i] <= '9') ||
		      (name[i] >= 'a' && name[i] <= 'f')))
			return false;
	return true;
}

/* A volume of @names (@n) is named exactly @want. */
static bool listed(char **names, int n, const char *want, size_t len)
{
	for (int i = 0; i < n; i++)
		if (names[i] && strlen(names[i]) == len &&
		    !strncmp(names[i], want, len))
			return true;
	return false;
}

/*
 * Of the volumes @names (@n), the one @i goes: a volume of a dead
 * hostctl of @host's (its owner into @o); an upload no live hostctl
 * makes and that was cut short ("<sha256>" without its ".ok"); a marker
 * ".ok" of a volume that is gone. @o->pid 0 for the last two.
 */
static bool goes(char **names, int n, int i, const char *host, struct owner *o)
{
	const char *name = names[i];
	size_t what, len = strlen(name);
	char want[HEX_LEN + 8];
	struct owner w;

	memset(o, 0, sizeof(*o));
	if (pool_tag_parse(name, &w, &what) == 0) {
		*o = w;
		return owner_orphan(&w, host);
	}
	if (content_name(name, len, ".ok"))
		return !listed(names, n, name, HEX_LEN);
	if (!content_name(name, len, ""))
		return false;
	snprintf(want, sizeof(want), "%s.ok", name);
	if (listed(names, n, want, strlen(want)))
		return false;
	/* An upload under way: its marker's hostctl lives, or is another
	 * machine's (not known dead). */
	snprintf(want, sizeof(want), "%s.up", name);
	for (int k = 0; k < n; k++)
		if (names[k] && pool_tag_parse(names[k], &w, &what) == 0 &&
		    what == strlen(want) && !strncmp(names[k], want, what) &&
		    !owner_orphan(&w, host))
			return false;
	return true;
}

int pool_reap(struct vm_host *h, const char *host, bool dry,
	      void (*cb)(const char *vol, const struct owner *o,
			 const char *failed, void *data),
	      void *data, char *err, size_t errlen)
{
	virStorageVolPtr *vols = NULL;
	char **names;
	int n, reaped = 0;

	if (!h->pool) {
		h->pool = virStoragePoolLookupByName(h->conn, POOL_NAME);
		if (!h->pool)
			return 0; /* no pool, nothing in it */
		/* What the directory holds now (pool_open() does this too). */
		if (virStoragePoolIsActive(h->pool) == 1 &&
		    virStoragePoolRefresh(h->pool, 0) < 0) {
			vm_set_err(err, errlen,
				   "refreshing the storage pool '" POOL_NAME
				   "'");
			return -EIO;
		}
	}
	if (virStoragePoolIsActive(h->pool) != 1)
		return 0;
	n = virStoragePoolListAllVolumes(h->pool, &vols, 0);
	if (n < 0) {
		vm_set_err(err, errlen,
			   "listing the volumes of the pool '" POOL_NAME "'");
		return -EIO;
	}
	names = calloc((size_t)n + 1, sizeof(*names));
	for (int i = 0; names && i < n; i++) {
		const char *s = virStorageVolGetName(vols[i]);

		names[i] = s ? strdup(s) : NULL;
	}
	for (int i = 0; names && i < n; i++) {
		struct owner o;
		const char *failed = NULL;

		if (!names[i] || !goes(names, n, i, host, &o))
			continue;
		if (!dry && virStorageVolDelete(vols[i], 0) < 0)
			failed = virGetLastErrorMessage();
		if (cb)
			cb(names[i], &o, failed, data);
		reaped += !failed;
	}
	for (int i = 0; i < n; i++) {
		if (names)
			free(names[i]);
		virStorageVolFree(vols[i]);
	}
	free(names);
	free(vols);
	if (!names && n > 0) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return reaped;
}
