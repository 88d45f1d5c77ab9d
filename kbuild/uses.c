// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cache's record of its own uses, for hostctl gc --cache
 * (docs/nightly.md, "gc"). The cache is shared by every checkout and
 * results folder on the host, so it, not a results folder, says which
 * builds and images runs used: each use appends one line to
 * <cache>/uses.log, and holds a shared flock on
 * <cache>/locks/<kind>-<key>.lock until the process exits, so that gc,
 * which takes that lock exclusively before it removes an entry, never
 * removes what a running hostctl boots or builds.
 *
 * A line: "<ISO 8601 UTC time> <kind> <key> <run>\n", kind "build" or
 * "image", run the run id (hostctl run's) or "<date>-<time>-<pid>" of the
 * process's first use. Each is one write() of O_APPEND of less than
 * PIPE_BUF bytes, so lines of concurrent processes never interleave.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "kb.h"

/* Bounds the log read at once: 400 000 uses. */
#define USES_MAX ((size_t)64 << 20)

static char run_id[KBUILD_CACHE_RUN_MAX];

int kbuild_cache_run_id(const char *id)
{
	if (!kbuild_cache_name_ok(id, sizeof(run_id) - 1))
		return -EINVAL;
	snprintf(run_id, sizeof(run_id), "%s", id);
	return 0;
}

bool kbuild_cache_name_ok(const char *s, size_t max)
{
	size_t n = strspn(s, "abcdefghijklmnopqrstuvwxyz"
			     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.");

	return n > 0 && n <= max && !s[n] && s[0] != '.';
}

static bool kind_ok(const char *kind)
{
	return !strcmp(kind, "build") || !strcmp(kind, "image");
}

static int lock_path(const char *cache, const char *kind, const char *key,
		     char *buf, size_t len)
{
	int r;

	if (!kind_ok(kind) || !kbuild_cache_name_ok(key, KBUILD_CACHE_KEY_MAX))
		return -EINVAL;
	r = kb_path(buf, len, "%s/locks", cache);
	if (r == 0)
		r = kb_mkdir_p(buf, 0755);
	if (r == 0)
		r = kb_path(buf, len, "%s/locks/%s-%s.lock", cache, kind, key);
	return r;
}

/* Opens (@create: creates) and flocks @path (op: LOCK_SH or LOCK_EX, maybe
 * | LOCK_NB); again if gc removed the file meanwhile, so that the lock held
 * is the path's. */
static int lock_file(const char *path, int op, bool create, int *ret_fd)
{
	struct stat a, b;
	int fd, r;

	for (;;) {
		fd = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0),
			  0644);
		if (fd < 0)
			return -errno;
		while ((r = flock(fd, op)) < 0 && errno == EINTR)
			;
		if (r < 0) {
			r = -errno;
			close(fd);
			return r;
		}
		if (fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
		    a.st_ino == b.st_ino && a.st_dev == b.st_dev)
			break;
		close(fd);
	}
	*ret_fd = fd;
	return 0;
}

int kbuild_cache_use(const char *cache, const char *kind, const char *key)
{
	char path[PATH_MAX], line[PIPE_BUF], when[32];
	time_t now = time(NULL);
	struct tm tm;
	int lock_fd, fd, n, r;
	ssize_t w;

	r = lock_path(cache, kind, key, path, sizeof(path));
	if (r < 0)
		return r;
	/* Held until this process exits: lock_fd is never closed. */
	r = lock_file(path, LOCK_SH, true, &lock_fd);
	if (r < 0)
		return r;
	if (!run_id[0]) {
		strftime(run_id, sizeof(run_id), "%Y%m%d-%H%M%S",
			 localtime_r(&now, &tm));
		snprintf(run_id + strlen(run_id),
			 sizeof(run_id) - strlen(run_id), "-%ld",
			 (long)getpid());
	}
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	n = snprintf(line, sizeof(line), "%s %s %s %s\n", when, kind, key,
		     run_id);
	if (n < 0 || n >= (int)sizeof(line))
		return -ENAMETOOLONG;
	r = kb_path(path, sizeof(path), "%s/" KBUILD_CACHE_USES, cache);
	if (r < 0)
		return r;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	/* One write, never retried: a part of a line would be torn. */
	w = write(fd, line, n);
	if (w != n)
		r = w < 0 ? -errno : -EIO;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

int kbuild_cache_uses_read(const char *cache, struct kbuild_cache_use **ret,
			   size_t *ret_n, size_t *ret_line)
{
	struct kbuild_cache_use *v = NULL;
	char path[PATH_MAX], *text = NULL, *line, *next;
	size_t n = 0, no = 0;
	int r;

	*ret_line = 0;
	r = kb_path(path, sizeof(path), "%s/" KBUILD_CACHE_USES, cache);
	if (r == 0)
		r = fileio_read(path, USES_MAX, &text, NULL, NULL);
	if (r < 0)
		return r;
	for (line = text; *line; line = next) {
		struct kbuild_cache_use *u;
		char when[32], kind[8], key[KBUILD_CACHE_KEY_MAX + 1],
			run[KBUILD_CACHE_RUN_MAX], end;
		struct tm tm = { 0 };
		char *rest;

		no++;
		next = strchr(line, '\n');
		/* A line with no newline was cut short: not a use. */
		if (!next || next - line >= 256 ||
		    sscanf(line, "%31s %7s %80s %63s%c", when, kind, key, run,
			   &end) != 5 ||
		    end != '\n' || !kind_ok(kind) ||
		    !kbuild_cache_name_ok(key, KBUILD_CACHE_KEY_MAX) ||
		    !kbuild_cache_name_ok(run, sizeof(run) - 1) ||
		    !(rest = strptime(when, "%Y-%m-%dT%H:%M:%SZ", &tm)) ||
		    *rest) {
			*ret_line = no;
			r = -EBADMSG;
			goto out;
		}
		next++;
		u = realloc(v, (n + 1) * sizeof(*v));
		if (!u) {
			r = -ENOMEM;
			goto out;
		}
		v = u;
		u = &v[n++];
		u->when = timegm(&tm);
		u->build = !strcmp(kind, "build");
		snprintf(u->key, sizeof(u->key), "%s", key);
		snprintf(u->run, sizeof(u->run), "%s", run);
	}
	*ret = v;
	*ret_n = n;
	v = NULL;
out:
	free(v);
	free(text);
	return r;
}

int kbuild_cache_lock(const char *cache, const char *kind, const char *key,
		      bool create, int *ret_fd)
{
	char path[PATH_MAX];
	int r = lock_path(cache, kind, key, path, sizeof(path));

	if (r == 0)
		r = lock_file(path, LOCK_EX | LOCK_NB, create, ret_fd);
	if (r == -ENOENT && !create) {
		*ret_fd = -1;
		r = 0;
	}
	return r;
}

int kbuild_cache_unlock(const char *cache, const char *kind, const char *key,
			int fd, bool gone)
{
	char path[PATH_MAX];
	int r = gone ? lock_path(cache, kind, key, path, sizeof(path)) : 0;

	/* Unlinked while still held: a waiter sees another inode, again. */
	if (r == 0 && gone && unlink(path) < 0)
		r = -errno;
	close(fd);
	return r;
}

int kb_cache_use(struct kb_progress *p, const char *cache, const char *kind,
		 const char *key)
{
	int r = kbuild_cache_use(cache, kind, key);

	if (r < 0)
		kb_msg(p,
		       "kbuild: cannot record the use of %s %s in '%s/%s': %s",
		       kind, key, cache, KBUILD_CACHE_USES, strerror(-r));
	return r;
}
