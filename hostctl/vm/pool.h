/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a domain on a remote libvirt host boots (uri_remote()): the
 * kernel, the initramfs and read-only disks are uploaded into a storage
 * pool of the daemon's ("vlalab", a directory pool beside its default
 * images), one volume per content (named by its SHA-256), and the domain
 * names the volumes' paths as the daemon reports them. A volume already
 * there, complete, is not sent again. On a local host every path stays
 * what it is.
 */
#ifndef VLALAB_POOL_H
#define VLALAB_POOL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vm/domain.h"

#define POOL_NAME "vlalab"
/* Where the pool goes when the daemon has no pool "default" to sit beside. */
#define POOL_IMAGES_DIR "/var/lib/libvirt/images"

struct vm_host;
struct owner;

/* What pool_place() did on one host, since it was opened. */
struct pool_stats {
	unsigned int found; /* files whose volume was there already */
	unsigned int sent; /* files uploaded */
	uint64_t bytes; /* bytes uploaded */
	uint64_t hash_us; /* spent hashing files */
	uint64_t send_us; /* spent uploading them */
	unsigned int reaped; /* volumes of dead runs deleted (pool_reap()) */
};

/* The host is reached over a network (uri_remote() of its URI); NULL: no. */
bool vm_host_remote(const struct vm_host *h);

/*
 * The path the domain on @h names for the local file @path: @path itself
 * on a local host; on a remote one, the path of its volume in the pool,
 * uploaded first unless there (the pool is defined and started if
 * missing). The string in *@ret lives as long as @h. 0, or a negative
 * errno with the reason in @err (libvirt's message, or the file's).
 */
int pool_place(struct vm_host *h, const char *path, const char **ret, char *err,
	       size_t errlen);

/*
 * The domain @dc as @h must see it: on a remote host, its kernel,
 * initramfs and read-only disks placed (pool_place()), and a writable
 * qcow2 overlay on a qcow2 image (a cloud VM's root) made anew there on
 * the image placed, a volume of the domain's deleted when it goes; the
 * disks' copies in @disks. Another writable disk, or an SSH socket (files
 * of this machine's that the guest writes or QEMU binds), is -EOPNOTSUPP
 * with the reason in @err. Nothing changes on a local host. 0 or a
 * negative errno.
 */
int pool_domain(struct vm_host *h, struct domain_config *dc,
		struct domain_disk disks[DOMAIN_DISKS_MAX], char *err,
		size_t errlen);

/*
 * The backing file's name recorded in the qcow2 image @path, into @buf,
 * and its virtual size in *@ret_size: 1 with a backing file, 0 without
 * (@buf ""), -EINVAL when @path is no qcow2 image or the name is not a
 * string, -ENAMETOOLONG when it does not fit, or -errno.
 */
int pool_qcow2_backing(const char *path, char *buf, size_t len,
		       uint64_t *ret_size);

/* What a memory dump may hold beyond the guest's memory: its headers. */
#define POOL_DUMP_SLACK (64ULL << 20)

/*
 * A download that lands whole or not at all, and bounded (a remote
 * host's memory dump, pool.c): written to "@path.tmp.<pid>" (mode 0600,
 * fileio_create_tmp()), at most @max bytes, then fsync'd and renamed over
 * @path by pool_sink_commit(), or removed by pool_sink_abort().
 */
struct pool_sink {
	char tmp[PATH_MAX + 32];
	const char *path;
	int fd; /* -1 once committed or aborted */
	uint64_t got, max; /* bytes written so far, and the most */
};

/* Open @s for @path, at most @max bytes. 0 or a negative errno. */
int pool_sink_open(struct pool_sink *s, const char *path, uint64_t max);
/*
 * Add @len bytes: 0, -EFBIG when they would take it past its most
 * (nothing of them is written), or write(2)'s negative errno.
 */
int pool_sink_write(struct pool_sink *s, const void *buf, size_t len);
/* Make it @path: 0, or a negative errno (the temporary file is gone). */
int pool_sink_commit(struct pool_sink *s);
/* Remove what was written; nothing once committed. */
void pool_sink_abort(struct pool_sink *s);
/*
 * The most a memory dump of a guest of @mem_kib KiB may hold: its memory
 * and POOL_DUMP_SLACK of headers. A remote dump's volume reported larger
 * is not downloaded.
 */
uint64_t pool_dump_max(uint64_t mem_kib);

/*
 * The volumes dead runs left in @h's pool "vlalab" (pool-reap.c): each a
 * run makes for itself (a cloud VM's overlay, a memory dump, the marker
 * of an upload under way) ends its name with its hostctl,
 * "<what>~<pid>~<start>~<host>"; those of a hostctl of @host (this
 * machine's name) that is gone (owner_orphan()) are deleted, and the
 * uploads cut short that no live hostctl makes ("<sha256>" without
 * "<sha256>.ok"). The volumes named by content, complete, stay; so do
 * those of another machine's hostctls (whether they live is not known
 * here) and those named otherwise. Opening the pool for a run does this
 * (pool_stats().reaped); hostctl gc --connect too, saying each.
 * @cb gets each volume deleted (with @dry, each that would be), its
 * owner (pid 0 for an upload cut short), and libvirt's reason when it
 * would not go. How many went, or a negative errno with @err. A host
 * without the pool has nothing to reap: 0.
 */
int pool_reap(struct vm_host *h, const char *host, bool dry,
	      void (*cb)(const char *vol, const struct owner *o,
			 const char *failed, void *data),
	      void *data, char *err, size_t errlen);

/*
 * A volume name "<what>~<pid>~<start>~<host>" parsed: its owner into
 * @ret (run_id ""), the length of <what> into *@ret_what. 0, or -EINVAL
 * for a name of another form.
 */
int pool_tag_parse(const char *name, struct owner *ret, size_t *ret_what);

/* What placing files on @h cost so far. */
void pool_stats(const struct vm_host *h, struct pool_stats *ret);

#endif
