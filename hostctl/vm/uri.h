/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The libvirt URI hostctl connects to: by default libvirt's embedded
 * driver, rooted in the cache (qemu:///embed?root=DIR, DIR
 * percent-escaped), with the qemu.conf that lets it run without a daemon.
 * Pure of libvirt.
 */
#ifndef VLALAB_URI_H
#define VLALAB_URI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The default URI, qemu:///embed?root=<cache>/libvirt (percent-escaped),
 * into @buf; slot N > 0 gives root <cache>/libvirt-N instead, for a run
 * that finds the first root locked by another hostctl. 0 or -ENAMETOOLONG.
 */
int uri_default(const char *cache_dir, unsigned int slot, char *buf,
		size_t len);

/*
 * True when another process holds the embedded driver rooted where @uri
 * says (its pid file is locked). libvirt allows one process per root, and
 * one embedded root per process.
 */
bool uri_embed_busy(const char *uri);
/*
 * When libvirt last wrote its cache of QEMU's capabilities under the root
 * of embedded-driver URI @uri (the newest file's mtime, in ns): a change
 * across a call means libvirt probed QEMU in it. 0 when there is none.
 */
uint64_t uri_embed_caps_stamp(const char *uri);

/*
 * The URI to connect to: @connect (--connect) when given, else @env
 * ($LIBVIRT_DEFAULT_URI, as virsh honours it) when set and not empty;
 * NULL for neither, which means uri_default()'s embedded driver.
 */
const char *uri_choose(const char *connect, const char *env);

/*
 * True when @uri reaches its daemon over a network: it names a host
 * (qemu://HOST/system, qemu+ssh://HOST/system, even 127.0.0.1) or a
 * transport other than the local socket (qemu+tcp, qemu+tls, qemu+ssh,
 * qemu+ext). Then nothing but the connection is shared with the daemon:
 * no file of this machine's, no socket (vm/pool.c uploads what a domain
 * boots). False for NULL (the embedded driver), qemu:///system,
 * qemu+unix:///system and qemu:///embed?root=DIR. The one place that
 * decides "local or remote".
 */
bool uri_remote(const char *uri);

/* The root directory of an embedded-driver URI into @buf; -EINVAL if none. */
int uri_embed_root(const char *uri, char *buf, size_t len);

/*
 * For an embedded-driver URI (qemu:///embed?root=DIR), write DIR/etc/qemu.conf
 * so that the driver logs QEMU's stdio to files (no virtlogd) and runs
 * QEMU as @qemu_user and @qemu_group in libvirt's seccomp
 * sandbox, and in a mount namespace of its own when @namespaces; with
 * @qemu_user NULL (hostctl is not root), as hostctl's own user, without
 * namespaces. Other URIs are left alone: libvirt's own settings apply.
 * 0 or -errno (-EINVAL for a name that cannot be quoted).
 */
int uri_prepare(const char *uri, const char *qemu_user, const char *qemu_group,
		bool namespaces);

#endif
