/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The libvirt hosts of a run: hostctl run --connect URI[,jobs=N] (given
 * once or more) or --hosts FILE (one host a line: a URI and its job
 * count, # comments), parsed into one list (hosts.c). "embedded" names
 * the default, the embedded driver in the cache. Pure: the unit test
 * drives the parser with strings and streams.
 */
#ifndef VLALAB_RUN_HOSTS_H
#define VLALAB_RUN_HOSTS_H

#include <stddef.h>
#include <stdio.h>

#include "results/results.h"

/* At most this many hosts in one run. */
#define RUN_HOSTS_MAX 8
/* A host's URI is shorter than this (it goes into summary.json). */
#define RUN_HOST_URI_MAX RES_HOST_MAX
/* The word that names the default host, the embedded driver. */
#define RUN_HOST_EMBEDDED "embedded"

struct run_host {
	/* The libvirt URI; "": the default (RUN_HOST_EMBEDDED). */
	char uri[RUN_HOST_URI_MAX];
	unsigned int jobs; /* its VMs at once; 0: -j's */
};

struct run_hosts {
	struct run_host v[RUN_HOSTS_MAX];
	size_t n;
};

/*
 * Add the host @arg, "URI" or "URI,jobs=N" (N in 1..SCHED_LANES_MAX), to
 * @h. 0, or -EINVAL (a bad URI or job count, a host named twice, one
 * too many) with @err saying why.
 */
int hosts_add(struct run_hosts *h, const char *arg, char *err, size_t errlen);

/*
 * Add the hosts of the hosts file @f, named @name in errors, to @h: per
 * line "URI [N]" (or "URI,jobs=N"), blank lines and # comments skipped.
 * 0, or -EINVAL with @err "NAME:LINE: reason" (-EIO: reading it failed).
 */
int hosts_read(struct run_hosts *h, FILE *f, const char *name, char *err,
	       size_t errlen);

/* hosts_read() of the file @path; -errno with @err when it can't open. */
int hosts_load(struct run_hosts *h, const char *path, char *err, size_t errlen);

/*
 * The lanes of a run over the hosts @h, each host's job count of them
 * (@jobs for a host without one; 0 counts as 1), interleaved so that the
 * first lanes go to different hosts: lane k's host into @lane_host[k],
 * at most @max lanes. Returns the number of lanes.
 */
unsigned int hosts_lanes(const struct run_hosts *h, unsigned int jobs,
			 unsigned int *lane_host, unsigned int max);

/*
 * The name of host URI @uri in results: RUN_HOST_EMBEDDED for NULL, ""
 * or an embedded driver's URI (qemu:///embed?root=...), else @uri.
 */
const char *hosts_label(const char *uri);

#endif
