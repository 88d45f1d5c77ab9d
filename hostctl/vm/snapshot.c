// SPDX-License-Identifier: GPL-2.0-only
/*
 * Saved images of guests right after their hello, and their restore
 * (snapshot.h). Nothing here prints: errors go back with their reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <libvirt/libvirt.h>

#include "base/fsutil.h"
#include "proto.h"
#include "vm/domain.h"
#include "vm/snapshot.h"
#include "vm/vm.h"
#include "vm/vm-priv.h"

/* How long libvirt's event for a saved domain may take to come. */
#define SNAPSHOT_STOPPED_MS 5000

static uint64_t fold(uint64_t h, uint64_t v)
{
	return proto_fnv1a(h, &v, sizeof(v));
}

/* A file the domain boots from: what says it changed. */
static int fold_file(uint64_t *h, const char *path)
{
	struct stat st;

	if (!path)
		return 0;
	if (stat(path, &st) < 0)
		return -errno;
	*h = fold(*h, (uint64_t)st.st_size);
	*h = fold(*h, (uint64_t)st.st_mtim.tv_sec);
	*h = fold(*h, (uint64_t)st.st_mtim.tv_nsec);
	*h = fold(*h, (uint64_t)st.st_ino);
	*h = fold(*h, (uint64_t)st.st_dev);
	return 0;
}

int snapshot_key(const struct domain_config *dc, const char *hv_version,
		 char *key, size_t len)
{
	struct domain_config n = *dc;
	uint64_t h = PROTO_FNV_INIT;
	char *xml;
	int r;

	n.name = "vlalab-snapshot";
	n.owner = NULL;
	n.ssh_socket = dc->ssh_socket ? "ssh" : NULL;
	r = domain_xml(&n, &xml);
	if (r < 0)
		return r;
	h = proto_fnv1a(h, xml, strlen(xml));
	free(xml);
	r = fold_file(&h, dc->kernel);
	if (r == 0)
		r = fold_file(&h, dc->initrd);
	if (r == 0)
		r = fold_file(&h, dc->firmware);
	for (unsigned int i = 0; r == 0 && i < dc->ndisks; i++)
		r = fold_file(&h, dc->disks[i].path);
	if (r < 0)
		return r;
	h = proto_fnv1a(h, hv_version, strlen(hv_version) + 1);
	h = fold(h, SNAPSHOT_FORMAT);
	snprintf(key, len, "%016" PRIx64, h);
	return 0;
}

int snapshot_dir(const char *cache_dir, char *buf, size_t len)
{
	const char *env = getenv(SNAPSHOT_DIR_ENV);
	int n = env && *env ? snprintf(buf, len, "%s", env) :
			      snprintf(buf, len, "%s/snapshots", cache_dir);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int snapshot_slot(const char *dir, const char *key, unsigned int slot,
		  struct snapshot_slot *ret)
{
	ret->lock_fd = -1;
	snprintf(ret->name, sizeof(ret->name), "vlalab-snap-%.16s-%u", key,
		 slot);
	if (snprintf(ret->path, sizeof(ret->path), "%s/%s-%u.save", dir, key,
		     slot) >= (int)sizeof(ret->path) ||
	    snprintf(ret->lock, sizeof(ret->lock), "%s/%s-%u.lock", dir, key,
		     slot) >= (int)sizeof(ret->lock))
		return -ENAMETOOLONG;
	return 0;
}

int snapshot_lock(struct snapshot_slot *s, bool excl)
{
	if (s->lock_fd < 0) {
		char dir[PATH_MAX];
		char *slash;
		int r;

		snprintf(dir, sizeof(dir), "%s", s->lock);
		slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			r = fs_mkdir_p(dir);
			if (r < 0)
				return r;
		}
		s->lock_fd = open(s->lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (s->lock_fd < 0)
			return -errno;
	}
	if (flock(s->lock_fd, (excl ? LOCK_EX : LOCK_SH) | LOCK_NB) < 0) {
		int r = errno == EWOULDBLOCK ? -EWOULDBLOCK : -errno;

		snapshot_unlock(s);
		return r;
	}
	return 0;
}

void snapshot_unlock(struct snapshot_slot *s)
{
	if (s->lock_fd >= 0)
		close(s->lock_fd);
	s->lock_fd = -1;
}

/* The template VM's lines: only its hello matters. */
static int make_line(void *userdata, const char *line, size_t len, char *why,
		     size_t whylen)
{
	static struct proto_event ev;
	char err[128];

	if (proto_event_decode(line, len, &ev, err, sizeof(err)) < 0 ||
	    ev.type != PROTO_EV_HELLO)
		return 0;
	if (ev.u.hello.version != PROTO_VERSION) {
		snprintf(why, whylen, "guestd speaks protocol version %" PRId64,
			 ev.u.hello.version);
		return -EPROTONOSUPPORT;
	}
	*(bool *)userdata = true;
	return 1;
}

static void make_console(void *userdata, const char *buf, size_t len)
{
}

static bool flag_set(void *arg)
{
	return *(bool *)arg;
}

int snapshot_make(struct vm_host *h, struct snapshot_slot *s, const char *xml,
		  uint64_t hello_ms, char *err, size_t errlen)
{
	bool hello = false;
	struct vm_params p = { .xml = xml,
			       .on_line = make_line,
			       .on_console = make_console,
			       .userdata = &hello };
	char tmp[PATH_MAX + 32], dir[PATH_MAX], *slash;
	struct vm *vm;
	int r;

	snprintf(dir, sizeof(dir), "%s", s->path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	r = fs_mkdir_p(dir);
	if (r < 0) {
		snprintf(err, errlen, "creating '%s': %s", dir, strerror(-r));
		return r;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp-%d", s->path, (int)getpid());
	r = vm_start(h, &p, &vm, err, errlen);
	if (r < 0)
		return r;
	r = vm_wait(vm, flag_set, &hello, hello_ms);
	if (r < 0) {
		snprintf(err, errlen, "%s",
			 r == -ETIMEDOUT ? "no hello in time" :
			 r == -EINTR	 ? "interrupted" :
					   vm_dead_reason(vm));
		vm_destroy(vm);
		return r == -EINTR ? r : -EIO;
	}
	r = vm_save(vm, tmp, err, errlen);
	/* Its stopped event, before a domain of its name is restored. */
	if (r == 0)
		vm_guest_stopped(vm, SNAPSHOT_STOPPED_MS);
	vm_destroy(vm);
	if (r == 0 && rename(tmp, s->path) < 0) {
		r = -errno;
		snprintf(err, errlen, "renaming '%s': %s", tmp, strerror(-r));
	}
	if (r < 0)
		unlink(tmp);
	return r;
}

/*
 * The element @open...@close of @saved (its first), or NULL; its length
 * in *len, at most @max.
 */
static const char *element(const char *saved, const char *open,
			   const char *close, size_t max, size_t *len)
{
	const char *b = strstr(saved, open), *e = b ? strstr(b, close) : NULL;

	if (!e || (size_t)(e - b) > max)
		return NULL;
	*len = (size_t)(e - b) + strlen(close);
	return b;
}

/* @xml with @ins (@len bytes, a line) after the line that ends with @at. */
static char *insert_after(const char *xml, const char *at, const char *ins,
			  size_t len)
{
	const char *p = strstr(xml, at);
	char *out;

	if (!p)
		return NULL;
	p += strlen(at);
	if (asprintf(&out, "%.*s%.*s\n%s", (int)(p - xml), xml, (int)len, ins,
		     p) < 0)
		return NULL;
	return out;
}

int snapshot_restore_xml(struct vm_host *h, const struct snapshot_slot *s,
			 const char *xml, char **ret, char *err, size_t errlen)
{
	const char *uuid, *mac = NULL;
	size_t ulen, mlen = 0;
	char *saved, *a, *b = NULL;

	if (access(s->path, R_OK) < 0) {
		snprintf(err, errlen, "no image '%s'", s->path);
		return -ENOENT;
	}
	saved = virDomainSaveImageGetXMLDesc(h->conn, s->path, 0);
	if (!saved) {
		vm_set_err(err, errlen, "reading the saved image");
		return -EIO;
	}
	/*
	 * What libvirt made up for the saved domain and checks on restore:
	 * its UUID, and its NIC's MAC address when it has one.
	 */
	uuid = element(saved, "<uuid>", "</uuid>", 64, &ulen);
	if (strstr(xml, "<interface "))
		mac = element(saved, "<mac address=", "/>", 64, &mlen);
	a = uuid ? insert_after(xml, "</name>\n", uuid, ulen) : NULL;
	if (a && mac) {
		char line[96];
		int n = snprintf(line, sizeof(line), "      %.*s", (int)mlen,
				 mac);

		b = insert_after(a, "<interface type='udp'>\n", line,
				 (size_t)n);
		free(a);
		a = b;
	}
	free(saved);
	if (!a) {
		snprintf(err, errlen,
			 "no UUID (or MAC address) in the saved image '%s'",
			 s->path);
		return -EINVAL;
	}
	*ret = a;
	return 0;
}

int snapshot_greeting(char boot_id[PROTO_BOOT_ID_MAX], char **line, size_t *len)
{
	struct proto_restored r = { 0 };
	unsigned char u[16];
	struct timespec ts;

	if (getrandom(u, sizeof(u), 0) != sizeof(u) ||
	    getrandom(r.seed, sizeof(r.seed), 0) != sizeof(r.seed))
		return -EIO;
	u[6] = (u[6] & 0x0f) | 0x40; /* version 4 */
	u[8] = (u[8] & 0x3f) | 0x80; /* RFC 4122 variant */
	snprintf(
		r.boot_id, sizeof(r.boot_id),
		"%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		u[10], u[11], u[12], u[13], u[14], u[15]);
	clock_gettime(CLOCK_REALTIME, &ts);
	r.wall_ns = (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
	memcpy(boot_id, r.boot_id, PROTO_BOOT_ID_MAX);
	return proto_restored_encode(&r, line, len);
}
