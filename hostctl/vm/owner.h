/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which hostctl owns a domain. On a libvirt daemon (qemu:///system, any URI
 * but the embedded driver's) a domain outlives the hostctl that made it
 * when that hostctl is killed: hostctl marks each domain it creates with
 * its owner in the domain's <metadata>, under its own namespace, and at the
 * start of a run reaps the domains of owners that are dead, and only those
 * (docs/reliability.md, "Guest output, kills and full disks").
 */
#ifndef VLALAB_OWNER_H
#define VLALAB_OWNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* The metadata element's namespace and prefix. */
#define OWNER_XMLNS "https://vlalab.invalid/xmlns/owner/1"
#define OWNER_XMLNS_PREFIX "vlalab"

struct owner {
	pid_t pid; /* the hostctl process */
	/* Its start time, in clock ticks after boot (/proc/PID/stat's 22nd
	 * field): a pid used again is another process. */
	uint64_t start;
	char run_id[64];
	char host[256]; /* gethostname() */
};

/* The calling process as an owner of @run_id. 0 or a negative errno. */
int owner_self(const char *run_id, struct owner *ret);

/*
 * The start time of process @pid into *@ret: 0, -ESRCH when there is no
 * such process, or another negative errno.
 */
int owner_pid_start(pid_t pid, uint64_t *ret);

/* The metadata element, <vlalab:owner xmlns:vlalab=... pid= .../>. */
void owner_xml(FILE *f, const struct owner *o);

/*
 * Parse the element owner_xml() wrote, as libvirt gives it back (its
 * own serialisation: either quote, any attribute order). 0, or -EINVAL
 * when an attribute is missing, empty, too long or malformed.
 */
int owner_parse(const char *xml, struct owner *ret);

/*
 * True when @o's hostctl ran on @host and is gone: no process @o->pid,
 * or one that started at another time. A domain of another host, or of a
 * live hostctl, is never an orphan.
 */
bool owner_orphan(const struct owner *o, const char *host);

#endif
