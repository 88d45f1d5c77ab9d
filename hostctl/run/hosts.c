// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hosts of a run (hosts.h): --connect URI[,jobs=N] and --hosts FILE
 * into one list, each error naming the argument, or the file and line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/hosts.h"
#include "run/schedule.h"

/* A host file's line is at most this long. */
#define HOSTS_LINE_MAX 1024
/* How an embedded driver's URI begins (vm/uri.c's, whatever its root). */
#define HOSTS_EMBED "qemu:///embed?"

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* "N" in 1..SCHED_LANES_MAX into *ret; -EINVAL otherwise. */
static int parse_jobs(const char *s, unsigned int *ret)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < 1 || v > SCHED_LANES_MAX)
		return -EINVAL;
	*ret = (unsigned int)v;
	return 0;
}

/* Whether @uri has a byte no URI has: a space or a control character. */
static bool bad_bytes(const char *uri)
{
	for (const unsigned char *p = (const unsigned char *)uri; *p; p++)
		if (*p <= ' ' || *p == 0x7f)
			return true;
	return false;
}

/* Host @uri with @jobs into @h, unless it is there or @h is full. */
static int add_one(struct run_hosts *h, const char *uri, size_t len,
		   unsigned int jobs, char *err, size_t errlen)
{
	char buf[RUN_HOST_URI_MAX];

	if (!len)
		return fail(err, errlen, "no URI");
	if (len >= sizeof(buf))
		return fail(err, errlen, "URI longer than %d bytes",
			    RUN_HOST_URI_MAX - 1);
	memcpy(buf, uri, len);
	buf[len] = '\0';
	if (bad_bytes(buf))
		return fail(err, errlen,
			    "URI '%.*s' has a space or a control character",
			    (int)len, uri);
	if (!strcmp(buf, RUN_HOST_EMBEDDED))
		*buf = '\0';
	for (size_t i = 0; i < h->n; i++)
		if (!strcmp(h->v[i].uri, buf))
			return fail(err, errlen, "host '%s' is named twice",
				    *buf ? buf : RUN_HOST_EMBEDDED);
	if (h->n == RUN_HOSTS_MAX)
		return fail(err, errlen, "more than %d hosts", RUN_HOSTS_MAX);
	snprintf(h->v[h->n].uri, sizeof(h->v[h->n].uri), "%s", buf);
	h->v[h->n].jobs = jobs;
	h->n++;
	return 0;
}

/* "URI" or "URI,jobs=N" of @len bytes: its URI's length, and N or 0. */
static int split_jobs(const char *arg, size_t len, size_t *uri_len,
		      unsigned int *jobs, char *err, size_t errlen)
{
	const char *comma = memrchr(arg, ',', len);
	char n[16];

	*uri_len = len;
	*jobs = 0;
	if (!comma || strncmp(comma + 1, "jobs=", 5))
		return 0;
	*uri_len = comma - arg;
	len -= comma + 6 - arg;
	if (len >= sizeof(n))
		return fail(err, errlen, "jobs '%.*s' is not 1..%d", (int)len,
			    comma + 6, SCHED_LANES_MAX);
	memcpy(n, comma + 6, len);
	n[len] = '\0';
	if (parse_jobs(n, jobs) < 0)
		return fail(err, errlen, "jobs '%s' is not 1..%d", n,
			    SCHED_LANES_MAX);
	return 0;
}

int hosts_add(struct run_hosts *h, const char *arg, char *err, size_t errlen)
{
	size_t uri_len;
	unsigned int jobs;
	int r;

	r = split_jobs(arg, strlen(arg), &uri_len, &jobs, err, errlen);
	return r < 0 ? r : add_one(h, arg, uri_len, jobs, err, errlen);
}

/* One line of a hosts file, its newline cut, into @h. */
static int read_line(struct run_hosts *h, char *line, char *err, size_t errlen)
{
	char *p = line, *uri, *n, *rest;
	size_t uri_len;
	unsigned int jobs, njobs;
	int r;

	p[strcspn(p, "#")] = '\0';
	p += strspn(p, " \t\r");
	if (!*p)
		return 0;
	uri = p;
	p += strcspn(p, " \t\r");
	r = split_jobs(uri, p - uri, &uri_len, &jobs, err, errlen);
	if (r < 0)
		return r;
	p += strspn(p, " \t\r");
	n = p;
	p += strcspn(p, " \t\r");
	rest = p + strspn(p, " \t\r");
	if (*rest)
		return fail(err, errlen, "'%s' after the job count", rest);
	*p = '\0';
	if (*n && jobs)
		return fail(err, errlen, "two job counts");
	if (*n && parse_jobs(n, &njobs) < 0)
		return fail(err, errlen, "jobs '%s' is not 1..%d", n,
			    SCHED_LANES_MAX);
	return add_one(h, uri, uri_len, *n ? njobs : jobs, err, errlen);
}

int hosts_read(struct run_hosts *h, FILE *f, const char *name, char *err,
	       size_t errlen)
{
	char line[HOSTS_LINE_MAX + 2], why[768];
	unsigned int lineno = 0;
	size_t before = h->n;
	int r;

	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		else if (!feof(f))
			return fail(err, errlen,
				    "%s:%u: line longer than %d bytes", name,
				    lineno, HOSTS_LINE_MAX);
		if (strlen(line) != len)
			return fail(err, errlen, "%s:%u: a NUL byte", name,
				    lineno);
		r = read_line(h, line, why, sizeof(why));
		if (r < 0)
			return fail(err, errlen, "%s:%u: %s", name, lineno,
				    why);
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: reading failed", name);
		return -EIO;
	}
	if (h->n == before)
		return fail(err, errlen, "%s: no host in it", name);
	return 0;
}

int hosts_load(struct run_hosts *h, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	int r;

	if (!f) {
		r = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	r = hosts_read(h, f, path, err, errlen);
	fclose(f);
	return r;
}

unsigned int hosts_lanes(const struct run_hosts *h, unsigned int jobs,
			 unsigned int *lane_host, unsigned int max)
{
	unsigned int n = 0;
	bool more = true;

	for (unsigned int round = 0; more && n < max; round++) {
		more = false;
		for (size_t k = 0; k < h->n && n < max; k++) {
			unsigned int j = h->v[k].jobs ? h->v[k].jobs : jobs;

			if (round < (j ? j : 1)) {
				lane_host[n++] = (unsigned int)k;
				more = true;
			}
		}
	}
	return n;
}

const char *hosts_label(const char *uri)
{
	if (!uri || !*uri || !strncmp(uri, HOSTS_EMBED, strlen(HOSTS_EMBED)))
		return RUN_HOST_EMBEDDED;
	return uri;
}
