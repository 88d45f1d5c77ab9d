/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the parts of the libvirt layer share, and nothing outside
 * hostctl/vm/ may see. From the bottom up, each calling only those below
 * it: vm-loop.c runs libvirt's event loop (the clock, one turn, the
 * hand-over to the lanes, the interrupt); vm-stream.c reads and writes a
 * guest's two streams, its channel and its serial console, and ends a VM
 * that died; vm-wait.c waits on one VM; vm-retire.c destroys domains
 * whose QEMU is gone in threads of their own; vm.c opens the connection,
 * starts and destroys a guest, with its lifecycle events and the QEMU
 * watchdog; pool.c places what a remote host's domains boot in its
 * storage pool, and brings their dumps back through it; pool-reap.c
 * names the volumes a run makes for itself with their hostctl and
 * deletes those of dead ones.
 */
#ifndef VLALAB_VM_PRIV_H
#define VLALAB_VM_PRIV_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "proto.h"
#include "vm/pool.h"
#include "vm/silence.h"

#define VM_TICK_MS 100
/* The owner's tag at the end of a pool volume's name, at most. */
#define POOL_TAG_MAX 128
/*
 * libvirt's keepalive on a connection through a daemon: a ping after
 * VM_KEEPALIVE_S of quiet, and the connection closed when
 * VM_KEEPALIVE_COUNT of them in a row got no answer, so a daemon that
 * answers nothing for (COUNT + 1) * S = 12 s at most is taken for dead.
 */
#define VM_KEEPALIVE_S 3
#define VM_KEEPALIVE_COUNT 3
/* The loop not run for this long means the host was busy, not the guests. */
#define VM_STALL_MS 1000
/* A dead VM's console: quiet this long is done; at most this long. */
#define VM_CONSOLE_QUIET_MS 300
#define VM_CONSOLE_SETTLE_MS 3000
/*
 * Most bytes one turn of the loop reads of one guest's channel, and of its
 * console: the rest waits in the stream, which stays readable, for the next
 * turn. A guest that sends without end must not hold the loop: timers,
 * other guests and the waits' deadlines come between two such reads.
 */
#define VM_TURN_BYTES (64 * 1024)
/* What a dead guest's channel may still hold: more than its socket can. */
#define VM_DEATH_BYTES (4 * 1024 * 1024)

struct vm_retiring;

struct vm_host {
	virConnectPtr conn;
	char embed_root[PATH_MAX]; /* "" unless the embedded driver */
	int lifecycle_id;
	int tick_id;
	bool close_cb; /* the connection's close callback is registered */
	struct vm *vms; /* running guests, for the callback */
	uint64_t probe_ms; /* libvirt probed QEMU at open, this long; or 0 */
	bool remote; /* uri_remote(): nothing shared but the connection */
	virStoragePoolPtr pool; /* pool.c's, opened at its first use */
	struct pool_placed *placed; /* pool.c: files placed, by local path */
	struct pool_stats up; /* pool.c: what placing them cost */
	struct pool_scratch *scratch; /* pool.c: the domains' own volumes */
	/* vm-retire.c: domains being destroyed, and the first destroy that
	 * left its domain running ("NAME: reason"), until vm_host_settle(). */
	struct vm_retiring *retiring;
	char retire_failed[PROTO_TEXT_MAX + 160];
	/*
	 * pool-reap.c: "~<pid>~<start>~<host>", this hostctl's, ending the
	 * name of each volume it makes for itself; "" when its host name
	 * cannot go into one (such volumes are never reaped). And the host.
	 */
	char pool_tag[POOL_TAG_MAX];
	char pool_host[POOL_TAG_MAX];
};

struct vm {
	struct vm_host *host;
	struct vm *next;
	virDomainPtr dom;
	virStreamPtr st;
	bool st_cb; /* stream callback registered */
	bool st_eof; /* the stream ended: QEMU closed the channel */
	virStreamPtr con; /* the serial console */
	bool con_cb, con_eof;
	uint64_t con_rx_us; /* when console bytes last came */
	struct proto_linebuf lb;
	char name[128];
	/*
	 * Restored: its domain has the name of the one saved, and of every
	 * one restored from the same image before, whose late events
	 * (their stop) must not reach it; events are taken from its own
	 * start (VIR_DOMAIN_EVENT_STARTED) on, which comes after theirs.
	 */
	bool await_start;
	/* The owner's line hooks (vm_params). */
	int (*on_line)(void *userdata, const char *line, size_t len, char *why,
		       size_t whylen);
	void (*on_bad_line)(void *userdata, const char *start, size_t len,
			    const char *reason, char *why, size_t whylen);
	void (*on_console)(void *userdata, const char *buf, size_t len);
	void *userdata;
	bool up; /* the guest is up: the silence bound applies */
	bool paused; /* vm_pause(): its silence does not count */
	bool dead;
	bool panicked, silent;
	char dead_reason[PROTO_TEXT_MAX];
	int proto_error;
	uint64_t t_call_us, t_created_us, t_hello_us, last_rx_us;
	char *out; /* bytes queued for the guest */
	size_t out_len, out_off;
	int qemu_pidfd; /* -1 unless QEMU is our child */
	pid_t qemu_pid; /* 0 unless the embedded driver's pid file named it */
	uint64_t silence_ms; /* VM_SILENCE_MS unless vm_set_silence_ms() */
	/*
	 * The silence rule's (vm-wait.c): QEMU's vCPUs as sampled after the
	 * guest's line of @rx_sample_us (its last_rx_us then), at
	 * @rx_sampled_us.
	 */
	struct silence_sample rx_sample;
	uint64_t rx_sample_us, rx_sampled_us;
	bool stopped; /* a lifecycle event said the domain stopped */
	bool lost; /* its host's connection closed while it ran (vm_lost()) */
	bool guest_stopped; /* ... because the guest powered off or reset */
};

/*
 * vm-retire.c: destroy @dom, whose QEMU is gone, with virDomainDestroy()
 * in a thread of its own, then free it; a domain named @name counts as
 * running (vm_retiring()) until then. 0, or a negative errno when no
 * thread took it (the caller destroys it itself).
 */
int vm_retire(struct vm_host *h, virDomainPtr dom, const char *name);
/* vm-retire.c: a domain named @name is being destroyed (vm_retire()). */
bool vm_retiring(struct vm_host *h, const char *name);

/* libvirt's last error as "@what: message" in @err. */
static inline void vm_set_err(char *err, size_t errlen, const char *what)
{
	const char *msg = virGetLastErrorMessage();

	snprintf(err, errlen, "%s: %s", what, msg ? msg : "unknown error");
}

/*
 * vm-offload.c: @fn(@arg), a libvirt call that blocks for long, made in a
 * thread of its own while the calling lane yields (vm_set_yield()), so
 * that the other lanes' guests are served meanwhile; without lanes, in
 * the caller. @fn takes libvirt's error text itself: its thread's. What
 * @fn returns.
 */
int vm_offload(int (*fn)(void *arg), void *arg);
/* vm-loop.c: a wait hands the loop to the lanes' scheduler. */
bool vm_loop_yields(void);

/* vm-loop.c: vm_interrupt() was called. */
extern volatile sig_atomic_t vm_interrupted;
/*
 * vm-loop.c: the host the loop serves, for the stall rule (vm.c sets it),
 * and when the loop last ran (vm_wait() judges silence as of then).
 */
extern struct vm_host *vm_loop_host;
extern uint64_t vm_loop_last_us;

/*
 * vm-stream.c: the VM is dead, for the reason @fmt says (vm_dead_reason());
 * its channel is no longer read, and what its console holds is handed
 * over with its last line ended. Only the first reason counts.
 */
void vm_die(struct vm *vm, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * vm-stream.c: read at most @budget bytes of the guest's channel, handing
 * its lines to the owner: 1 when it is empty for now, 0 when the budget
 * ran out first, -1 when it ended, failed or broke the protocol (the VM is
 * dead then).
 */
int vm_channel_read(struct vm *vm, size_t budget);
/* vm-stream.c: the channel stream's callback, for vm_start(). */
void vm_channel_cb(virStreamPtr st, int events, void *opaque);
/*
 * vm-stream.c: hand the owner what the console has now, without waiting,
 * up to VM_TURN_BYTES; true when that bound stopped it (more may wait).
 */
bool vm_console_read(struct vm *vm);
/*
 * vm-stream.c: open the serial console as a stream, while the domain is
 * paused. 0, or -EIO with libvirt's message in @err.
 */
int vm_console_open(struct vm *vm, char *err, size_t errlen);

/*
 * pool.c: dump @vm's memory into a volume of the host's pool, download it
 * to @path and delete the volume: vm_dump() on a remote host. 0, or -EIO
 * with libvirt's message in @err.
 */
int pool_dump(struct vm *vm, const char *path, int format, char *err,
	      size_t errlen);
/*
 * pool.c: delete the volumes made for domain @domain (its disks'
 * overlays), once it is gone; NULL: every domain's.
 */
void pool_scratch_drop(struct vm_host *h, const char *domain);
/* pool.c: forget what was placed, release the pool; for vm_host_close(). */
void pool_close(struct vm_host *h);
/* pool-reap.c: this hostctl's tag (vm_host.pool_tag), when the pool opens. */
void pool_tag_init(struct vm_host *h);
/*
 * pool-reap.c: end the volume name in @buf with the tag: 0, or
 * -ENAMETOOLONG (@buf unchanged).
 */
int pool_tag_name(const struct vm_host *h, char *buf, size_t len);

#endif
