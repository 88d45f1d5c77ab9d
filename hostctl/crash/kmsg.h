/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel log of a stopped guest, read from its memory: the printk ring
 * buffer, found and laid out by the kernel's own VMCOREINFO (the text
 * makedumpfile and crash read), printed as the console prints it. For the
 * reports a panic never flushed to the console: on 6.12 a guard-page hit
 * in the double-fault handler (NMI context) is only stored, and pvpanic's
 * notifier stops the guest before console_flush_on_panic() (docs/crashes.md,
 * "The kernel log in memory"). Pure: the memory is a callback's.
 */
#ifndef VLALAB_KMSG_H
#define VLALAB_KMSG_H

#include <stddef.h>
#include <stdint.h>

/* Read @len bytes at the kernel virtual address @addr: 0 or -errno. */
typedef int (*kmsg_read_fn)(void *ctx, uint64_t addr, void *buf, size_t len);

/* At most this much log text (2^24 bytes) and this much of the
 * descriptors and their infos is read from a guest. */
#define KMSG_DATA_BITS_MAX 24
#define KMSG_DESCS_MAX (64u << 20)

/*
 * The address of the symbol @name in the System.map at @path. 0,
 * -ENOENT when it is not listed, or -errno when the file cannot be read.
 */
int kmsg_map_symbol(const char *path, const char *name, uint64_t *ret);

/*
 * Read the kernel log through @read: @vmcoreinfo_data is the address of
 * the kernel's vmcoreinfo_data pointer (System.map). Every record the
 * ring still holds, oldest first, each of its lines as
 * "[%5u.%06u] text\n" (control bytes but tab shown as '?'), into a
 * malloc'd, NUL-terminated *@ret of *@ret_len bytes. 0; -EIO when a read
 * fails; -EPROTO when VMCOREINFO lacks what the walk needs or the ring's
 * sizes are out of bounds; -ENOMEM.
 */
int kmsg_read(kmsg_read_fn read, void *ctx, uint64_t vmcoreinfo_data,
	      char **ret, size_t *ret_len);

#endif
