/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Choosing the accelerator: KVM when /dev/kvm opens, unless this host is
 * known (cached verdict) to hang KVM guests; TCG otherwise. The verdict is
 * cached in <cache>/host/accel under a key naming the host, its kernel and
 * the hypervisor version, so any change of those probes again.
 */
#ifndef VLALAB_ACCEL_H
#define VLALAB_ACCEL_H

#include <stdbool.h>
#include <stddef.h>

#include "vm/domain.h"

enum accel_choice { ACCEL_AUTO, ACCEL_KVM, ACCEL_TCG };

/* "auto", "kvm", "tcg" -> *ret; -EINVAL otherwise. */
int accel_parse(const char *s, enum accel_choice *ret);

/* True when /dev/kvm opens read-write. */
bool accel_kvm_usable(void);

/* "<hostname> <uname -r> <uname -v> qemu-<hv_version>" into @buf. */
int accel_host_key(const char *hv_version, char *buf, size_t len);

/*
 * The cached verdict for @key: 0 and *ret, -ENOENT when there is none or
 * it was made under another key, -errno on I/O errors.
 */
int accel_cache_read(const char *cache_dir, const char *key,
		     enum domain_accel *ret);
int accel_cache_write(const char *cache_dir, const char *key,
		      enum domain_accel a);

#endif
