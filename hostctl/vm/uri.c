// SPDX-License-Identifier: GPL-2.0-only
/*
 * libvirt URIs for hostctl (uri.h): percent-escaping of the embedded
 * driver's root, the checks on that root, and the qemu.conf hostctl
 * writes into it. libc only: the libvirt calls are vm.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "vm/uri.h"

#define EMBED_PREFIX "qemu:///embed?root="

int uri_default(const char *cache_dir, unsigned int slot, char *buf, size_t len)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(EMBED_PREFIX);
	char root_tail[32] = "/libvirt";

	if (slot)
		snprintf(root_tail, sizeof(root_tail), "/libvirt-%u", slot);

	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(buf, EMBED_PREFIX, n);
	for (int pass = 0; pass < 2; pass++) {
		const char *p = pass == 0 ? cache_dir : root_tail;

		for (; *p; p++) {
			unsigned char c = *p;
			bool plain = (c >= 'a' && c <= 'z') ||
				     (c >= 'A' && c <= 'Z') ||
				     (c >= '0' && c <= '9') || c == '/' ||
				     c == '-' || c == '_' || c == '.' ||
				     c == '~';

			if (n + 4 > len)
				return -ENAMETOOLONG;
			if (plain) {
				buf[n++] = c;
			} else {
				buf[n++] = '%';
				buf[n++] = hex[c >> 4];
				buf[n++] = hex[c & 15];
			}
		}
	}
	buf[n] = '\0';
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int unescape(const char *s, size_t slen, char *buf, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < slen; i++) {
		unsigned int c = (unsigned char)s[i];

		if (c == '%' && i + 2 < slen && hexval(s[i + 1]) >= 0 &&
		    hexval(s[i + 2]) >= 0) {
			c = hexval(s[i + 1]) * 16 + hexval(s[i + 2]);
			i += 2;
		}
		if (n + 1 >= len)
			return -ENAMETOOLONG;
		buf[n++] = (char)c;
	}
	buf[n] = '\0';
	return 0;
}

int uri_embed_root(const char *uri, char *buf, size_t len)
{
	const char *p;

	if (strncmp(uri, EMBED_PREFIX, strlen(EMBED_PREFIX)) != 0)
		return -EINVAL;
	p = uri + strlen(EMBED_PREFIX);
	return unescape(p, strcspn(p, "&"), buf, len);
}

const char *uri_choose(const char *connect, const char *env)
{
	if (connect)
		return connect;
	return env && *env ? env : NULL;
}

bool uri_remote(const char *uri)
{
	const char *colon, *plus, *host;

	if (!uri)
		return false;
	colon = strchr(uri, ':');
	if (!colon || strncmp(colon, "://", 3) != 0)
		return false;
	/* A transport other than the local unix socket reaches a host. */
	plus = memchr(uri, '+', (size_t)(colon - uri));
	if (plus && strncmp(plus, "+unix:", 6) != 0)
		return true;
	host = colon + 3;
	return *host && *host != '/' && *host != '?';
}

bool uri_embed_busy(const char *uri)
{
	char root[PATH_MAX], path[PATH_MAX + 32];
	struct flock fl = { .l_type = F_WRLCK,
			    .l_whence = SEEK_SET,
			    .l_start = 0,
			    .l_len = 1 };
	int fd;

	if (uri_embed_root(uri, root, sizeof(root)) < 0 ||
	    snprintf(path, sizeof(path), "%s/run/qemu/driver.pid", root) >=
		    (int)sizeof(path))
		return false;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	/* libvirt write-locks the pid file's first byte while it runs. */
	if (fcntl(fd, F_GETLK, &fl) < 0)
		fl.l_type = F_UNLCK;
	close(fd);
	return fl.l_type != F_UNLCK;
}

uint64_t uri_embed_caps_stamp(const char *uri)
{
	char root[PATH_MAX], dir[PATH_MAX + 32], path[PATH_MAX + 320];
	uint64_t newest = 0;
	struct dirent *e;
	DIR *d;

	if (uri_embed_root(uri, root, sizeof(root)) < 0 ||
	    snprintf(dir, sizeof(dir), "%s/cache/qemu/capabilities", root) >=
		    (int)sizeof(dir))
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		struct stat st;
		uint64_t t;

		if (e->d_name[0] == '.' ||
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
			    (int)sizeof(path) ||
		    stat(path, &st) < 0)
			continue;
		t = (uint64_t)st.st_mtim.tv_sec * 1000000000 +
		    (uint64_t)st.st_mtim.tv_nsec;
		if (t > newest)
			newest = t;
	}
	closedir(d);
	return newest;
}

/*
 * Without "cpu-unavailable-features", libvirt 9.0 reads the started
 * guest's CPU back through its x86 path (two qom-get of feature-words and
 * filtered-features) instead of a qom-get per CPU property, about 400
 * QMP round trips inside every virDomainCreateXML() and
 * virDomainRestoreFlags(): 0.1-1.8 s at this machine's load
 * (docs/performance.md, "Inside libvirt's create and restore calls").
 * The CPU QEMU runs and the live XML libvirt derives from it are the
 * same; libvirt marks the domain "tainted: custom-hypervisor-feature"
 * in its log.
 */
#define URI_CAPS_FILTER \
	"capability_filters = [ \"cpu-unavailable-features\" ]\n"

int uri_prepare(const char *uri, const char *qemu_user, const char *qemu_group,
		bool namespaces)
{
	/* hostctl not root: libvirt runs QEMU as hostctl's own user. */
	static const char plain[] =
		"# Written by hostctl for its embedded libvirt driver.\n"
		"user = \"root\"\n"
		"group = \"root\"\n"
		"stdio_handler = \"file\"\n"
		"security_driver = \"none\"\n"
		"dynamic_ownership = 0\n"
		"remember_owner = 0\n"
		"namespaces = []\n"
		"cgroup_controllers = []\n" URI_CAPS_FILTER;
	/*
	 * hostctl as root: QEMU as @qemu_user, in libvirt's seccomp sandbox.
	 * No relabelling: the DAC driver would chown the shared kernel and
	 * image to QEMU's user for the life of each VM; hostctl grants what
	 * each VM needs instead (confine.c).
	 */
	static const char confined[] =
		"# Written by hostctl for its embedded libvirt driver:\n"
		"# QEMU confined (docs/architecture.md, \"QEMU's user\").\n"
		"user = \"%s\"\n"
		"group = \"%s\"\n"
		"stdio_handler = \"file\"\n"
		"security_driver = \"none\"\n"
		"dynamic_ownership = 0\n"
		"remember_owner = 0\n"
		"seccomp_sandbox = 1\n"
		"clear_emulator_capabilities = 1\n"
		"namespaces = [%s]\n"
		"cgroup_controllers = []\n" URI_CAPS_FILTER;
	char root[PATH_MAX], dir[PATH_MAX], path[PATH_MAX];
	FILE *f;
	int r;

	if (strncmp(uri, EMBED_PREFIX, strlen(EMBED_PREFIX)) != 0)
		return 0;
	/* The user's name lands in a quoted string of libvirt's format. */
	if (qemu_user &&
	    (!qemu_group || !*qemu_user || !*qemu_group ||
	     strpbrk(qemu_user, "\"\\\n") || strpbrk(qemu_group, "\"\\\n")))
		return -EINVAL;
	r = uri_embed_root(uri, root, sizeof(root));
	if (r < 0)
		return r;
	if (snprintf(dir, sizeof(dir), "%s/etc", root) >= (int)sizeof(dir) ||
	    snprintf(path, sizeof(path), "%s/qemu.conf", dir) >=
		    (int)sizeof(path))
		return -ENAMETOOLONG;
	r = fs_mkdir_p(dir);
	if (r < 0)
		return r;
	f = fopen(path, "we");
	if (!f)
		return -errno;
	if (qemu_user)
		fprintf(f, confined, qemu_user, qemu_group,
			namespaces ? " \"mount\" " : "");
	else
		fputs(plain, f);
	if (fclose(f) != 0)
		return -errno;
	return 0;
}
