// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/vm-offload.c on libvirt's test driver: alone,
 * a call runs in the caller and the loop waits; with lanes (a yield set),
 * it runs in a thread of its own while the loop turns (a 10 ms timer
 * fires meanwhile), its result and its libvirt error text come back, and
 * a domain being started under a name counts as the host's
 * (vm_host_has()), so that no other lane restores the same slot.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libvirt/libvirt.h>

#include "tap.h"
#include "vm/vm.h"
#include "vm/vm-priv.h"

static int ticks;

static void tick(int timer, void *opaque)
{
	(void)timer;
	(void)opaque;
	ticks++;
}

struct call {
	virConnectPtr conn;
	pthread_t thread;
	char err[256];
};

/* 200 ms of a blocking call, then one that fails in libvirt. */
static int slow_call(void *arg)
{
	struct call *c = arg;
	struct timespec ts = { 0, 200 * 1000 * 1000 };
	virDomainPtr d;

	c->thread = pthread_self();
	nanosleep(&ts, NULL);
	d = virDomainLookupByName(c->conn, "vlalab-no-such-domain");
	if (d) {
		virDomainFree(d);
		return 0;
	}
	vm_set_err(c->err, sizeof(c->err), "looking it up");
	return -EIO;
}

/* The lanes' scheduler, as lanes.c's yield hands it the loop. */
static void yield(void *data)
{
	(void)data;
	(void)vm_loop_once();
}

static void test_offload(virConnectPtr conn)
{
	struct call c = { .conn = conn };
	int timer = virEventAddTimeout(10, tick, NULL, NULL);

	ok(timer >= 0, "a 10 ms timer in the loop");
	ticks = 0;
	is_int(vm_offload(slow_call, &c), -EIO, "alone: the call's result");
	ok(pthread_equal(c.thread, pthread_self()), "...made in the caller");
	is_int(ticks, 0, "...while the loop waited");

	vm_set_yield(yield, NULL);
	ticks = 0;
	c.err[0] = '\0';
	is_int(vm_offload(slow_call, &c), -EIO, "with lanes: the result");
	ok(!pthread_equal(c.thread, pthread_self()),
	   "...made in a thread of its own");
	ok(ticks >= 5, "...while the loop turned");
	printf("# %d ticks of 10 ms during a 200 ms call\n", ticks);
	ok(strstr(c.err, "looking it up: ") && strlen(c.err) > 16,
	   "...and libvirt's error text of its thread came back");
	printf("# %s\n", c.err);
	vm_set_yield(NULL, NULL);
	virEventRemoveTimeout(timer);
}

/* A VM of ours under a slot's name is the host's, domain or not yet. */
static void test_has(struct vm_host *h)
{
	struct vm *vm = calloc(1, sizeof(*vm));

	if (!vm) {
		ok(0, "out of memory");
		return;
	}
	ok(!vm_host_has(h, "vlalab-snap-0123456789abcdef-2"),
	   "a slot nobody has");
	snprintf(vm->name, sizeof(vm->name), "vlalab-snap-0123456789abcdef-2");
	vm->next = h->vms;
	h->vms = vm;
	ok(vm_host_has(h, "vlalab-snap-0123456789abcdef-2"),
	   "a slot being restored (no domain yet) is busy");
	h->vms = vm->next;
	free(vm);
}

int main(void)
{
	char err[512];
	struct vm_host *h;
	virConnectPtr conn;

	if (vm_host_open("test:///default", &h, err, sizeof(err)) < 0) {
		printf("# test:///default: %s\n", err);
		ok(0, "the test driver opens");
		return tap_done();
	}
	conn = virConnectOpen("test:///default");
	test_offload(conn);
	test_has(h);
	virConnectClose(conn);
	vm_host_close(h);
	return tap_done();
}
