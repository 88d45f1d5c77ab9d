/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The libvirt layer: one connection with libvirt's default event loop, and
 * guests whose virtio-serial channel is read through a non-blocking
 * virStream. All I/O happens in callbacks on that loop; vm_wait() runs the
 * loop until a condition holds, the VM dies, or a deadline passes. The
 * guest's lines go to the owner's on_line hook (guest.c): what they mean
 * and which files they go to is not this layer's business.
 */
#ifndef VLALAB_VM_H
#define VLALAB_VM_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A guest that sent nothing for this long after hello is dead. */
#define VM_SILENCE_MS 15000

struct vm_host;
struct owner;
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
/*
 * How long libvirt spent probing QEMU's capabilities when the embedded
 * driver opened (it does when its cache for the root is missing or
 * outdated), in ms; 0 when its cache served or the driver is another.
 */
uint64_t vm_host_probe_ms(const struct vm_host *h);

/*
 * On a libvirt daemon (not the embedded driver, whose QEMUs die with
 * hostctl), destroy (and undefine) every domain marked with an owner
 * (owner.h) that ran on @host and is dead, calling @cb for each with
 * @failed NULL, or libvirt's reason when it could not; a domain without
 * the mark, of another host or of a live hostctl is left alone. Returns
 * how many went, or a negative errno (listing the domains failed) with
 * the reason in @err.
 */
int vm_reap_orphans(struct vm_host *h, const char *host,
		    void (*cb)(const char *name, const struct owner *o,
			       const char *failed, void *data),
		    void *data, char *err, size_t errlen);
/*
 * Whether @h's connection is alive: false once it closed (through a
 * daemon: seen at once when the daemon dies, and within VM_KEEPALIVE_S *
 * (VM_KEEPALIVE_COUNT + 1) s when it stops answering; an RPC error).
 */
bool vm_host_alive(struct vm_host *h);

/* The hypervisor's version (QEMU's, for the qemu driver) as "7.2.0". */
int vm_host_hv_version(struct vm_host *h, char *buf, size_t len);

struct vm_params {
	/*
	 * From domain_xml(); with @restore, the XML the restored domain
	 * gets instead of the saved one's (snapshot_restore_xml()).
	 */
	const char *xml;
	/*
	 * A saved image (vm_save(), snapshot.h) to restore rather than
	 * boot, of the domain @restore_name; NULL: boot @xml.
	 */
	const char *restore;
	const char *restore_name;
	/*
	 * Required: each line from the guest, without its '\n'. Returns 0
	 * when the line is accepted, 1 when it is accepted and the guest is
	 * up from now on (its hello, or the first event of a resumed guest:
	 * the silence bound counts from then), or a negative errno with a
	 * one-line reason in @why: the VM then ends with a protocol error
	 * (vm_proto_error()).
	 */
	int (*on_line)(void *userdata, const char *line, size_t len, char *why,
		       size_t whylen);
	/*
	 * The start of a line longer than PROTO_LINE_MAX - 1 bytes, which
	 * ends the VM with a protocol error: @reason says so, and @why
	 * (@reason unless the hook changes it) becomes the error's text.
	 * May be NULL.
	 */
	void (*on_bad_line)(void *userdata, const char *start, size_t len,
			    const char *reason, char *why, size_t whylen);
	/*
	 * Required: bytes of the guest's serial console, read as a libvirt
	 * stream from the domain's start (it starts paused until the stream
	 * is open). @buf NULL: the console has nothing more for now (the VM
	 * died: its last line is to be ended) or for good (its stream
	 * ended, or the VM is being destroyed). Called until vm_destroy()
	 * returns.
	 */
	void (*on_console)(void *userdata, const char *buf, size_t len);
	void *userdata;
};

/*
 * Create the transient domain (or restore it, vm_params.restore), open
 * its channel and start reading. Returns 0, or a negative errno with
 * libvirt's message in @err.
 */
int vm_start(struct vm_host *h, const struct vm_params *p, struct vm **ret,
	     char *err, size_t errlen);

/*
 * Hand the owner's on_console hook what the console holds now: before
 * the console log is read. Of a VM that died, also what it printed just
 * before: the event loop runs until its console ends or has been quiet
 * for a moment (300 ms, 3 s at most), and its last line is ended.
 */
void vm_console_drain(struct vm *vm);
/*
 * Run the event loop for @ms (or until vm_interrupt(), or the console's
 * end) whatever the VM's state, the console read meanwhile, then drain
 * it; of a dead VM, end the console's last line. For a grace that lets a
 * hung guest's detectors print.
 */
void vm_console_wait(struct vm *vm, uint64_t ms);
/*
 * Type @len bytes on the guest's console (an attached user). 0, -EPIPE
 * when the console is gone, -EIO.
 */
int vm_console_send(struct vm *vm, const char *buf, size_t len);

/* Queue @line (with its '\n') for the guest; 0, -EPIPE if dead, -ENOMEM. */
int vm_send(struct vm *vm, const char *line, size_t len);

/*
 * Make every vm_wait() return -EINTR from now on; async-signal-safe, for
 * a SIGINT/SIGTERM handler.
 */
void vm_interrupt(void);

/*
 * The watchdog that kills the QEMUs of a hostctl that died, even by
 * SIGKILL (vm.c): vm_host_open() starts it, once, for the embedded
 * driver, before libvirt starts a thread; without one, QEMUs die only
 * with a clean exit. vm_watchdog_add() gives it a copy of a QEMU's pidfd.
 * Both are silent and best effort; the unit test drives them directly.
 */
void vm_watchdog_start(void);
void vm_watchdog_add(int pidfd);

/*
 * Several guests at once (hostctl run -j, runner.c): each lane of the
 * run waits in a coroutine of its own, and a wait that would run the
 * event loop calls @fn(@data) instead, which hands the loop to the
 * scheduler; NULL @fn: waits run the loop themselves again.
 */
void vm_set_yield(void (*fn)(void *data), void *data);
/*
 * One turn of libvirt's event loop: every callback that is due runs, or
 * it waits for one (VM_TICK_MS at most). A loop that did not run for a
 * second was a busy host: the guests' silence counts from now. 0, or -1
 * when the loop failed.
 */
int vm_loop_once(void);
/*
 * One turn of the loop for a wait: the scheduler's (vm_set_yield()) when
 * the caller is a lane of several, else vm_loop_once(). 0 or -1.
 */
int vm_loop_step(void);

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
 * Run the event loop until @fd is readable (0), the VM dies (-EPIPE) or
 * @timeout_ms passes (-ETIMEDOUT; 0: no bound), as vm_wait() does: the
 * guest's lines go on meanwhile. @fd -1: only the bound or death.
 */
int vm_wait_fd(struct vm *vm, int fd, uint64_t timeout_ms);
/*
 * For boots that hibernate or power off (guest.c, runner.c): a silence
 * bound other than VM_SILENCE_MS (a hibernating guest is frozen while it
 * writes its image), and whether the VM ended because the guest powered off or reset
 * itself (libvirt's stopped/shutdown), rather than crashing or being
 * destroyed; it runs the event loop up to @timeout_ms for that event.
 */
void vm_set_silence_ms(struct vm *vm, uint64_t ms);
bool vm_guest_stopped(struct vm *vm, uint64_t timeout_ms);
/* Why the VM died; "" while it lives. */
const char *vm_dead_reason(const struct vm *vm);
/* The on_line hook's error (-E2BIG for a line too long) when the VM
 * ended on a protocol error, else 0. */
int vm_proto_error(const struct vm *vm);
/* Microseconds from virDomainCreateXML() returning to hello; 0 before. */
uint64_t vm_create_us(const struct vm *vm);
uint64_t vm_hello_us(const struct vm *vm);

/*
 * The VM died because its host's connection closed (the daemon died or
 * stopped answering its keepalive, vm.c): the host lost it, whatever its
 * guest did (vm_end_of()'s VM_END_LOST).
 */
bool vm_lost(const struct vm *vm);
/* The guest panicked (pvpanic: libvirt's crashed event). */
bool vm_panicked(const struct vm *vm);
/* The guest went silent past VM_SILENCE_MS: it hangs (its domain runs). */
bool vm_silent(const struct vm *vm);

/*
 * Dump the guest's memory to @path with virDomainCoreDumpWithFormat()
 * (memory only, so crash and drgn can read it); @format is a
 * VIR_DOMAIN_CORE_DUMP_FORMAT_* value. The domain must still exist: a
 * guest that panicked is kept paused for this (on_crash preserve). On a
 * remote host (uri_remote()) QEMU writes it into a volume of the host's
 * pool, which is downloaded to @path and deleted (pool.c). Returns
 * 0, -ENODEV when the domain is gone, or -EIO with libvirt's message.
 */
int vm_dump(struct vm *vm, const char *path, int format, char *err,
	    size_t errlen);

/*
 * Read @len bytes of the guest's memory at the kernel virtual address
 * @addr (virDomainMemoryPeek(), VIR_MEMORY_VIRTUAL: through the page
 * tables of the guest's first CPU), as for a guest that panicked and is
 * kept paused. 0, -ENODEV when the domain is gone, or -EIO.
 */
int vm_peek(struct vm *vm, uint64_t addr, void *buf, size_t len);

/*
 * Save the guest's state to @path (virDomainSaveFlags()): its domain
 * stops, and vm_start() with vm_params.restore brings it back. 0, or
 * -EIO with libvirt's message in @err.
 */
int vm_save(struct vm *vm, const char *path, char *err, size_t errlen);
/*
 * Pause the guest (@pause), or let it go on: a VM kept for later (the
 * spare) then takes no CPU, where an idle guest under -icount sleep=off
 * runs through its timers as fast as the host lets it, and under icount
 * its clock stands still meanwhile. While paused its silence does not
 * count; from the resume on it does. 0, -EPIPE when it died, or -EIO.
 */
int vm_pause(struct vm *vm, bool pause);
/* A domain named @name runs on @h, or is being destroyed. */
bool vm_host_has(struct vm_host *h, const char *name);
/*
 * Wait until every domain vm_destroy() left to be destroyed in the
 * background (vm-retire.c) is; 0, or -EIO with the first destroy that
 * left its domain running ("NAME: libvirt's reason") in @err.
 * vm_host_close() waits too, silently.
 */
int vm_host_settle(struct vm_host *h, char *err, size_t errlen);

/*
 * Destroy the domain (if still running) and free everything. NULL is
 * fine. The console has been read to its end and QEMU is gone when this
 * returns; of a domain of the embedded driver whose QEMU ended on its
 * SIGTERM, libvirt's cleanup (virDomainDestroy()) goes on in the
 * background, its name busy meanwhile (vm_host_has(), vm_host_settle()).
 */
void vm_destroy(struct vm *vm);

#endif
