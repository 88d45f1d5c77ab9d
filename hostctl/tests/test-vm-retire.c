// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/vm-retire.c on libvirt's test driver: a
 * domain handed over is destroyed in the background, its name busy for
 * vm_host_has() until then, and vm_host_settle() waits for it; a destroy
 * that leaves its domain running is told by vm_host_settle(), once, with
 * the domain's name (recorded by hand: the test driver never fails a
 * destroy of a running domain).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <libvirt/libvirt.h>

#include "tap.h"
#include "vm/vm.h"
#include "vm/vm-priv.h"

static virDomainPtr start(virConnectPtr conn, const char *name)
{
	char xml[256];

	snprintf(xml, sizeof(xml),
		 "<domain type='test'><name>%s</name><memory>1024</memory>"
		 "<os><type>hvm</type></os></domain>",
		 name);
	return virDomainCreateXML(conn, xml, 0);
}

static bool exists(virConnectPtr conn, const char *name)
{
	virDomainPtr d = virDomainLookupByName(conn, name);

	if (d)
		virDomainFree(d);
	return d != NULL;
}

static void test_retire(struct vm_host *h, virConnectPtr conn)
{
	char err[512] = "";
	virDomainPtr d[3];
	int n = 0;

	for (int i = 0; i < 3; i++) {
		char name[32];

		snprintf(name, sizeof(name), "vlalab-retire-%d", i);
		d[i] = start(conn, name);
		n += d[i] != NULL;
	}
	if (n != 3) {
		ok(0, "the test driver starts three domains");
		return;
	}
	ok(vm_host_has(h, "vlalab-retire-0"), "a running domain: has");
	for (int i = 0; i < 3; i++) {
		char name[32];

		snprintf(name, sizeof(name), "vlalab-retire-%d", i);
		is_int(vm_retire(h, d[i], name), 0, "handed over");
	}
	is_int(vm_host_settle(h, err, sizeof(err)), 0,
	       "settled: every destroy returned");
	ok(!exists(conn, "vlalab-retire-0") &&
		   !exists(conn, "vlalab-retire-1") &&
		   !exists(conn, "vlalab-retire-2"),
	   "...and every domain is gone");
	ok(!vm_retiring(h, "vlalab-retire-1") &&
		   !vm_host_has(h, "vlalab-retire-1"),
	   "its name is free again");
	is_int(vm_host_settle(h, err, sizeof(err)), 0,
	       "nothing left to settle");
}

/* A destroy that fails while the domain still runs is told, not lost. */
static void test_failed(struct vm_host *h, virConnectPtr conn)
{
	char err[512] = "";
	virDomainPtr d = start(conn, "vlalab-stays");
	virDomainPtr same;

	if (!d) {
		ok(0, "the test driver starts a domain");
		return;
	}
	/*
	 * Destroyed once here, the handle's second destroy in the thread
	 * fails ("not running"), and so does its IsActive(): no failure.
	 */
	same = virDomainLookupByName(conn, "vlalab-stays");
	virDomainDestroy(same);
	virDomainFree(same);
	is_int(vm_retire(h, d, "vlalab-stays"), 0, "a domain stopped meanwhile");
	is_int(vm_host_settle(h, err, sizeof(err)), 0,
	       "...is no failure: it stopped");
	/*
	 * The test driver's destroy does not fail on a running domain: the
	 * report's path is driven by hand, as retire_thread() records it.
	 */
	snprintf(h->retire_failed, sizeof(h->retire_failed),
		 "vlalab-x: destroying the domain: an error");
	is_int(vm_host_settle(h, err, sizeof(err)), -EIO, "a failure is told");
	is_str(err, "vlalab-x: destroying the domain: an error",
	       "...with the domain's name and libvirt's reason");
	is_int(vm_host_settle(h, err, sizeof(err)), 0, "...once");
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
	/* The test driver's default instance is one per process. */
	conn = virConnectOpen("test:///default");
	test_retire(h, conn);
	test_failed(h, conn);
	virConnectClose(conn);
	vm_host_close(h);
	return tap_done();
}
