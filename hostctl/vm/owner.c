// SPDX-License-Identifier: GPL-2.0-only
/* Which hostctl owns a domain: the metadata element and the orphan test. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/escape.h"
#include "vm/owner.h"

int owner_pid_start(pid_t pid, uint64_t *ret)
{
	char path[64], buf[1024], *p;
	unsigned long long start;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* The name may hold spaces and parentheses: fields follow the last
	 * ')'. The 22nd field is the 20th after it. */
	p = strrchr(buf, ')');
	if (!p)
		return -EIO;
	p++;
	for (int i = 0; i < 19; i++) {
		p = strchr(p + 1, ' ');
		if (!p)
			return -EIO;
	}
	if (sscanf(p, " %llu", &start) != 1)
		return -EIO;
	*ret = start;
	return 0;
}

int owner_self(const char *run_id, struct owner *ret)
{
	int r;

	memset(ret, 0, sizeof(*ret));
	ret->pid = getpid();
	r = owner_pid_start(ret->pid, &ret->start);
	if (r < 0)
		return r;
	if (gethostname(ret->host, sizeof(ret->host) - 1) < 0)
		return -errno;
	snprintf(ret->run_id, sizeof(ret->run_id), "%s", run_id);
	return 0;
}

void owner_xml(FILE *f, const struct owner *o)
{
	fprintf(f,
		"    <" OWNER_XMLNS_PREFIX ":owner xmlns:" OWNER_XMLNS_PREFIX
		"='" OWNER_XMLNS "' pid='%d' start='%" PRIu64 "'",
		(int)o->pid, o->start);
	esc_xml_printf(f, " run='%s'", o->run_id);
	esc_xml_printf(f, " host='%s'/>\n", o->host);
}

/*
 * Attribute @name's value of the first element in @xml into @buf: 0, or
 * -EINVAL when it is missing, empty, longer than @size - 1, or holds an
 * entity (the values written are names and numbers).
 */
static int attr(const char *xml, const char *name, char *buf, size_t size)
{
	size_t nlen = strlen(name);
	const char *end = strchr(xml, '>');
	const char *p = xml, *q;

	if (!end)
		return -EINVAL;
	for (;;) {
		p = strstr(p, name);
		if (!p || p > end)
			return -EINVAL;
		if (p > xml && p[-1] == ' ' && p[nlen] == '=' &&
		    (p[nlen + 1] == '\'' || p[nlen + 1] == '"'))
			break;
		p += nlen;
	}
	p += nlen + 1;
	q = strchr(p + 1, *p);
	if (!q || q > end || q == p + 1 || (size_t)(q - p - 1) >= size ||
	    memchr(p + 1, '&', (size_t)(q - p - 1)) ||
	    memchr(p + 1, '<', (size_t)(q - p - 1)))
		return -EINVAL;
	memcpy(buf, p + 1, (size_t)(q - p - 1));
	buf[q - p - 1] = '\0';
	return 0;
}

/* A decimal number of @buf in 1..@max: 0 or -EINVAL. */
static int number(const char *buf, uint64_t max, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	if (buf[0] < '0' || buf[0] > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || *end || v == 0 || v > max)
		return -EINVAL;
	*ret = v;
	return 0;
}

int owner_parse(const char *xml, struct owner *ret)
{
	struct owner o = { 0 };
	char buf[32];
	uint64_t v;

	if (attr(xml, "pid", buf, sizeof(buf)) < 0 ||
	    number(buf, INT_MAX, &v) < 0)
		return -EINVAL;
	o.pid = (pid_t)v;
	if (attr(xml, "start", buf, sizeof(buf)) < 0 ||
	    number(buf, UINT64_MAX, &o.start) < 0 ||
	    attr(xml, "run", o.run_id, sizeof(o.run_id)) < 0 ||
	    attr(xml, "host", o.host, sizeof(o.host)) < 0)
		return -EINVAL;
	*ret = o;
	return 0;
}

bool owner_orphan(const struct owner *o, const char *host)
{
	uint64_t start;
	int r;

	if (strcmp(o->host, host) != 0)
		return false;
	r = owner_pid_start(o->pid, &start);
	if (r == -ESRCH)
		return true;
	/* Unreadable: not known dead, so kept. */
	return r == 0 && start != o->start;
}
