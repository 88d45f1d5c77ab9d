/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The libvirt layer: one connection with libvirt's default event loop, and
 * guests whose virtio-serial channel is read through a non-blocking
 * virStream. All I/O happens in callbacks on that loop; vm_wait() runs the
 * loop until a condition holds, the VM dies, or a deadline passes.
 */
#ifndef VLALAB_VM_H
#define VLALAB_VM_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "session.h"

/* A guest that sent nothing for this long after hello is dead. */
#define VM_SILENCE_MS 15000

struct vm_host;
struct vm;

/* Monotonic clock in microseconds. */
uint64_t vm_now_us(void);

/*
 * Register libvirt's default event loop (once per process) and connect.
 * Returns 0, or a negative errno with libvirt's message in @err: -EBUSY
 * when an embedded driver's root is in use by another process.
 */
int vm_host_open(const char *uri, struct vm_host **ret, char *err,
		 size_t errlen);
void vm_host_close(struct vm_host *h);
/* The hypervisor's version (QEMU's, for the qemu driver) as "7.2.0". */
int vm_host_hv_version(struct vm_host *h, char *buf, size_t len);

struct vm_params {
	const char *xml; /* from domain_xml() */
	const char *label; /* "vm1": names files in the run dir */
	const char *run_dir; /* where protocol-error-<label>.txt goes */
	const char *console_log; /* the console file in the XML */
	FILE *events; /* events.jsonl: accepted lines appended */
	struct session *session; /* fed every line */
};

/*
 * Create the transient domain, open its channel and start reading. Returns
 * 0, or a negative errno with libvirt's message in @err.
 */
int vm_start(struct vm_host *h, const struct vm_params *p, struct vm **ret,
	     char *err, size_t errlen);

/* Queue @line (with its '\n') for the guest; 0, -EPIPE if dead, -ENOMEM. */
int vm_send(struct vm *vm, const char *line, size_t len);

/*
 * Make every vm_wait() return -EINTR from now on; async-signal-safe, for
 * a SIGINT/SIGTERM handler.
 */
void vm_interrupt(void);

/*
 * Run the event loop until @done(@arg) is true (0), the VM dies (-EPIPE:
 * stream closed, domain stopped, protocol error or silence), @timeout_ms
 * passes (-ETIMEDOUT) or vm_interrupt() was called (-EINTR). @done may be
 * NULL to wait for death.
 */
int vm_wait(struct vm *vm, bool (*done)(void *arg), void *arg,
	    uint64_t timeout_ms);

bool vm_dead(const struct vm *vm);
/*
 * Hooks for multi-boot scenarios (boots.c): a silence bound other than
 * VM_SILENCE_MS (a hibernating guest is frozen while it writes its
 * image), and whether the VM ended because the guest powered off or reset
 * itself (libvirt's stopped/shutdown), rather than crashing or being
 * destroyed; it runs the event loop up to @timeout_ms for that event.
 */
void vm_set_silence_ms(struct vm *vm, uint64_t ms);
bool vm_guest_stopped(struct vm *vm, uint64_t timeout_ms);
/* Why the VM died; "" while it lives. */
const char *vm_dead_reason(const struct vm *vm);
/* The session's error when the VM ended on a protocol error, else 0. */
int vm_proto_error(const struct vm *vm);
/* Microseconds from virDomainCreateXML() returning to hello; 0 before. */
uint64_t vm_create_us(const struct vm *vm);
uint64_t vm_hello_us(const struct vm *vm);

/* The guest panicked (pvpanic: libvirt's crashed event). */
bool vm_panicked(const struct vm *vm);
/* The guest went silent past VM_SILENCE_MS: it hangs (its domain runs). */
bool vm_silent(const struct vm *vm);

/*
 * Dump the guest's memory to @path with virDomainCoreDumpWithFormat()
 * (memory only, so crash and drgn can read it); @format is a
 * VIR_DOMAIN_CORE_DUMP_FORMAT_* value. The domain must still exist: a
 * guest that panicked is kept paused for this (on_crash preserve). Returns
 * 0, -ENODEV when the domain is gone, or -EIO with libvirt's message.
 */
int vm_dump(struct vm *vm, const char *path, int format, char *err,
	    size_t errlen);

/* Destroy the domain (if still running) and free everything. NULL is fine. */
void vm_destroy(struct vm *vm);

#endif
