// SPDX-License-Identifier: GPL-2.0-only
/* Finding the port by name in a fake /sys/class/virtio-ports. */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "guestd.h"
#include "tap.h"
#include "testutil.h"

static void add_port(const char *sys, const char *dev, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", sys, dev);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/name", sys, dev);
	tu_write(path, name, O_TRUNC);
}

int main(void)
{
	char *dir = tu_tmpdir(), sys[512], found[512];

	snprintf(sys, sizeof(sys), "%s/virtio-ports", dir);
	mkdir(sys, 0755);
	is_int(port_find(sys, "/dev", PROTO_PORT_NAME, found, sizeof(found)),
	       -ENOENT, "no ports: -ENOENT");
	add_port(sys, "vport0p1", "org.qemu.guest_agent.0\n");
	add_port(sys, "vport1p0", "");
	is_int(port_find(sys, "/dev", PROTO_PORT_NAME, found, sizeof(found)),
	       -ENOENT, "other ports only: -ENOENT");
	add_port(sys, "vport1p2", PROTO_PORT_NAME "\n");
	is_int(port_find(sys, "/dev", PROTO_PORT_NAME, found, sizeof(found)),
	       0, "our port is found");
	is_str(found, "/dev/vport1p2", "its device path");
	add_port(sys, "vport2p1", PROTO_PORT_NAME "x\n");
	is_int(port_find(sys, "/devx", PROTO_PORT_NAME, found, sizeof(found)),
	       0, "a longer name does not match");
	is_str(found, "/devx/vport1p2", "still the right one");
	is_int(port_find("/nonexistent", "/dev", PROTO_PORT_NAME, found,
			 sizeof(found)), -ENOENT, "no sysfs dir: -ENOENT");
	tu_rmrf(dir);
	return tap_done();
}
