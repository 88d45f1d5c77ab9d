/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Post-mortem bundles: for a guest that crashed or hung, a directory in the
 * run directory with the console, the reports, the last events, a memory
 * dump taken through libvirt and a symbolized stack. docs/crashes.md,
 * "Post-mortem bundles", lists the files and how to open the dump.
 */
#ifndef VLALAB_POSTMORTEM_H
#define VLALAB_POSTMORTEM_H

#include <stddef.h>
#include <stdint.h>

#include "vm/vm.h"

/* Default --dump-max-mb: a kdump-compressed dump of an idle 512 MiB guest
 * is a few tens of MiB; anything bigger is dropped, not kept. */
#define PM_DUMP_MAX_MB_DEFAULT 64

struct pm_opts {
	const char *run_dir;
	const char *vmlinux; /* the build's vmlinux, or NULL */
	/* Its source tree, or NULL: stack.txt shows file names relative to it.
	 * The .ko files are looked for in the modules/ folder beside vmlinux. */
	const char *tree;
	uint64_t dump_max_mb; /* 0: no dump */
	const char *dump_format; /* "kdump-zlib" (default), "elf", ... */
	uint64_t memory_mib; /* the guest's memory, to skip a hopeless ELF dump */
};

/* Check a --dump-format word; 0 or -EINVAL. */
int pm_dump_format_check(const char *word);

/*
 * Write bundle-@label-@seq/ in the run directory: console.log (a copy of
 * @console), reports.txt (@reports), events.jsonl (the last events of this
 * VM, from the run's events.jsonl), stack.txt (@raw with its call-trace
 * frames resolved to file:line in-process, symbolize.h), vmcore.* (the
 * dump, when the domain still exists) and dump.txt (what became of the
 * dump and of stack.txt). The directory's name relative to the run
 * directory goes to @ret_rel. Returns 0, or a negative errno when the
 * directory could not be made; a missing part is said in dump.txt and
 * does not fail the bundle.
 */
int pm_bundle(const struct pm_opts *o, struct vm *vm, const char *label,
	      unsigned int seq, const char *console, const char *reports,
	      const char *raw, char *ret_rel, size_t len);

/*
 * The kernel log still in the memory of @vm, a guest that panicked and is
 * kept paused (kmsg.h): the symbol vmcoreinfo_data from the System.map
 * beside @o's vmlinux, the ring read through vm_peek(). A malloc'd,
 * NUL-terminated *@ret of *@ret_len bytes. 0; -ENOENT without a vmlinux
 * or a System.map that lists the symbol; kmsg_read()'s errors.
 */
int pm_kmsg(const struct pm_opts *o, struct vm *vm, char **ret,
	    size_t *ret_len);

/*
 * Read at most the last @max bytes of @path into a malloc'd, NUL-terminated
 * buffer. 0 or -errno.
 */
int pm_read_tail(const char *path, size_t max, char **ret, size_t *ret_len);

#endif
