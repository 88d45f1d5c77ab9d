/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fresh VMs restored rather than booted (docs/performance.md, "Restored
 * VMs"): a guest saved right after guestd's hello (virDomainSaveFlags())
 * into the cache, one image per domain and slot, and restored for each
 * fresh VM that needs no real boot.
 *
 * libvirt restores an image only under the name and UUID it was saved
 * with, and one domain of a name runs at a time: each image is a slot's,
 * its domain named snapshot_name(), and the VMs of one process that run
 * at once take different slots (vm_host_has()). Slots are shared by the
 * processes of the cache through an flock each, on a lock file beside the
 * image: exclusive while one makes the image, shared while one restores
 * it.
 */
#ifndef VLALAB_SNAPSHOT_H
#define VLALAB_SNAPSHOT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto.h"

struct domain_config;
struct vm_host;

/* Slots per key: the VMs of one run up at once (lanes, the spare, and
 * those whose destroy still runs in the background, vm-retire.c). */
#define SNAPSHOT_SLOTS 8
/* A key: 16 hex digits. */
#define SNAPSHOT_KEY_LEN 17
/* Bump when what an image holds changes meaning. */
#define SNAPSHOT_FORMAT 1

/*
 * The key of the images of the domain @dc on the hypervisor @hv_version:
 * FNV-1a 64 of its domain XML with what differs between VMs left out
 * (its name, its owner, the SSH socket's path but not whether it has
 * one), of the kernel's, initramfs's and firmware's size, modification
 * time, inode and device, of @hv_version and SNAPSHOT_FORMAT. Any change
 * of the kernel, image, machine, memory, vCPUs, NIC, command line,
 * accelerator, clock or QEMU makes another key. 0, -EINVAL (a field
 * domain_xml() refuses), -ENOENT (a file missing), -ENOMEM.
 */
int snapshot_key(const struct domain_config *dc, const char *hv_version,
		 char *key, size_t len);

/* One slot of a key: its domain's name, its image, its lock. */
struct snapshot_slot {
	char name[64]; /* "vlalab-snap-<key>-<slot>" */
	char path[PATH_MAX]; /* <dir>/<key>-<slot>.save */
	char lock[PATH_MAX]; /* <dir>/<key>-<slot>.lock */
	int lock_fd; /* -1 unless locked */
};

/*
 * Fill @ret for slot @slot of @key, its image in @dir (the cache's
 * snapshots/, SNAPSHOT_DIR_ENV in tests). 0 or -ENAMETOOLONG.
 */
int snapshot_slot(const char *dir, const char *key, unsigned int slot,
		  struct snapshot_slot *ret);
/* The images' folder: $SNAPSHOT_DIR_ENV, else <@cache_dir>/snapshots. */
#define SNAPSHOT_DIR_ENV "VLALAB_SNAPSHOTS"
int snapshot_dir(const char *cache_dir, char *buf, size_t len);
/*
 * Lock the slot, shared or exclusive (@excl), without waiting: 0,
 * -EWOULDBLOCK when another process holds it the other way, or a negative
 * errno creating the lock. Again on a locked slot: converts the lock.
 */
int snapshot_lock(struct snapshot_slot *s, bool excl);
void snapshot_unlock(struct snapshot_slot *s);

/*
 * Make the slot's image (its lock held exclusive): boot @xml (a domain
 * named s->name), wait up to @hello_ms for guestd's hello, save it to a
 * temporary file and rename that into place. 0, or a negative errno with
 * the reason in @err.
 */
int snapshot_make(struct vm_host *h, struct snapshot_slot *s, const char *xml,
		  uint64_t hello_ms, char *err, size_t errlen);

/*
 * The XML for restoring the slot's image: @xml (domain_xml() of the VM
 * to be, named s->name) with the image's UUID, which libvirt requires.
 * A malloc'd string in *ret; 0, or a negative errno with the reason in
 * @err (-ENOENT: no image).
 */
int snapshot_restore_xml(struct vm_host *h, const struct snapshot_slot *s,
			 const char *xml, char **ret, char *err, size_t errlen);

/*
 * The "restored" request for a guest just restored (proto.h): a new
 * random boot id (a version 4 UUID, into @boot_id), the host's wall clock
 * and 32 random bytes. 0, or a negative errno.
 */
int snapshot_greeting(char boot_id[PROTO_BOOT_ID_MAX], char **line,
		      size_t *len);

#endif
