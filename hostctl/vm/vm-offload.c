// SPDX-License-Identifier: GPL-2.0-only
/*
 * A libvirt call that blocks for long, made off the loop (vm-priv.h): a
 * domain's restore or start, a memory dump, a save take 0.1 to 2 s, and
 * while one lane of hostctl run -j waited in such a call, the loop did
 * not turn: every other lane's guest waited for its next scenario, its
 * lines unread, and under icount (sleep=off) a guest that waits spins
 * through its timers on a core of its own. So with several lanes the
 * call runs in a thread of its own while the lane that made it yields,
 * and an eventfd in the loop says when it is back. One lane alone calls
 * it directly: nobody else waits. The function runs in another thread:
 * it touches only what its argument holds, and takes libvirt's error
 * text there (libvirt's last error is per thread).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <libvirt/libvirt.h>

#include "vm/vm.h"
#include "vm/vm-priv.h"

struct offload {
	int (*fn)(void *arg);
	void *arg;
	int r;
	atomic_bool done;
	int efd;
};

static void *offload_thread(void *data)
{
	struct offload *o = data;
	uint64_t one = 1;

	o->r = o->fn(o->arg);
	atomic_store(&o->done, true);
	/* The loop wakes for it; a full counter is awake already. */
	(void)!write(o->efd, &one, sizeof(one));
	return NULL;
}

static void offload_wake(int watch, int fd, int events, void *opaque)
{
	uint64_t n;

	(void)watch;
	(void)events;
	(void)opaque;
	(void)!read(fd, &n, sizeof(n));
}

/* The loop drops the handle at its next turn: the eventfd closes then. */
static void offload_free(void *opaque)
{
	close((int)(intptr_t)opaque);
}

int vm_offload(int (*fn)(void *arg), void *arg)
{
	struct offload o = { .fn = fn, .arg = arg };
	pthread_t thread;
	int watch;

	if (!vm_loop_yields())
		return fn(arg);
	o.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (o.efd < 0)
		return fn(arg);
	watch = virEventAddHandle(o.efd, VIR_EVENT_HANDLE_READABLE,
				  offload_wake, (void *)(intptr_t)o.efd,
				  offload_free);
	if (watch < 0) {
		close(o.efd);
		return fn(arg);
	}
	if (pthread_create(&thread, NULL, offload_thread, &o) != 0) {
		virEventRemoveHandle(watch);
		return fn(arg);
	}
	/* The call cannot be cut short: even an interrupted run waits. */
	while (!atomic_load(&o.done))
		(void)vm_loop_step();
	pthread_join(thread, NULL);
	virEventRemoveHandle(watch);
	return o.r;
}
