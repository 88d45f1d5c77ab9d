// SPDX-License-Identifier: GPL-2.0-only
/*
 * The framed mode (docs/protocol.md, "Framed mode"): no virtio-serial
 * port and no host to answer. guestd writes each event as a frame
 * (common/frame.h) on a console the kernel shares, and takes its run
 * requests from a file of the image, one at a time, each when the one
 * before it has ended; when they run out, it shuts down.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "guestd.h"

int framed_cmdline(const char *cmdline, char *path, size_t size)
{
	static const char key[] = "vlalab.framed=";
	const char *p = cmdline, *v;
	size_t n;

	for (;;) {
		p = strstr(p, key);
		if (!p)
			return 0;
		if (p == cmdline || p[-1] == ' ')
			break;
		p++;
	}
	v = p + sizeof(key) - 1;
	n = strcspn(v, " \n");
	if (n == 0 || n > 32)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)v[i]))
			return -EINVAL;
	if ((size_t)snprintf(path, size, "/dev/%.*s", (int)n, v) >= size)
		return -EINVAL;
	return 1;
}

int framed_open(struct framed *fm, const char *requests)
{
	*fm = (struct framed){ .on = true };
	fm->requests = fopen(requests, "re");
	if (!fm->requests)
		return -errno;
	return 0;
}

bool framed_wanted(const char **path, bool pid1)
{
	static char dev[48];
	char *cmdline;
	size_t len;

	if (*path)
		return true;
	if (!pid1 ||
	    fileio_read("/proc/cmdline", 4096, &cmdline, &len, NULL) < 0)
		return false;
	if (framed_cmdline(cmdline, dev, sizeof(dev)) == 1)
		*path = dev;
	free(cmdline);
	return *path != NULL;
}

int framed_wrap(struct framed *fm, char **line, size_t *len)
{
	size_t n = *len && (*line)[*len - 1] == '\n' ? *len - 1 : *len;
	char *framed;
	int r;

	r = frame_encode(fm->seq, *line, n, &framed, len);
	free(*line);
	*line = r == 0 ? framed : NULL;
	if (r == 0)
		fm->seq++;
	return r;
}

static int next_request(struct framed *fm, char **line, size_t *len)
{
	ssize_t n;

	if (!fm->requests)
		return 0;
	for (;;) {
		n = getline(&fm->buf, &fm->cap, fm->requests);
		if (n < 0) {
			fclose(fm->requests);
			fm->requests = NULL;
			return 0;
		}
		if (n > 0 && fm->buf[n - 1] == '\n')
			fm->buf[--n] = '\0';
		if (n == 0)
			continue;
		if (n >= PROTO_LINE_MAX)
			return -E2BIG;
		*line = fm->buf;
		*len = (size_t)n;
		return 1;
	}
}

int framed_pump(struct framed *fm, proto_line_cb cb)
{
	char *line;
	size_t len;
	int r;

	r = next_request(fm, &line, &len);
	if (r == 1)
		cb(line, len, NULL);
	return r;
}
