// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/domain.c: the domain XML, its checks and its
 * escaping, the console, channels, icount, a NIC, an SSH port and disks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vm/domain.h"
#include "tap.h"

static void test_domain(void)
{
	struct domain_config c = {
		.name = "a<b>&'\"",
		.kernel = "/k",
		.initrd = "/i",
	};
	char *xml = NULL;

	is_int(domain_xml(&c, &xml), 0, "domain_xml");
	ok(xml && strstr(xml, "<name>a&lt;b&gt;&amp;&apos;&quot;</name>"),
	   "name escaped");
	ok(xml && strstr(xml, "<console type='pty'>"),
	   "the console on a pty, for hostctl's stream");
	ok(xml && strstr(xml, "<domain type='qemu'>"), "TCG is type qemu");
	ok(xml && strstr(xml, "name='org.vlalab.guestd.0'"), "channel named");
	ok(xml && strstr(xml, "<memballoon model='none'/>"), "no balloon");
	ok(xml && strstr(xml, "<panic model='isa'>"), "pvpanic");
	ok(xml && !strstr(xml, "<interface"), "no NIC unasked");
	ok(xml && !strstr(xml, "icount") && !strstr(xml, "xmlns:qemu"),
	   "no icount unasked");
	free(xml);
	xml = NULL;
	c.icount = true;
	is_int(domain_xml(&c, &xml), 0, "domain_xml with icount");
	ok(xml &&
		   strstr(xml,
			  "<domain type='qemu' xmlns:qemu='"
			  "http://libvirt.org/schemas/domain/qemu/1.0'>") &&
		   strstr(xml, "  </devices>\n"
			       "  <qemu:commandline>\n"
			       "    <qemu:arg value='-icount'/>\n"
			       "    <qemu:arg value='shift=0,sleep=off'/>\n"
			       "  </qemu:commandline>\n"
			       "</domain>\n"),
	   "icount through the QEMU namespace");
	free(xml);
	xml = NULL;
	c.icount = false;
	c.nic = true;
	is_int(domain_xml(&c, &xml), 0, "domain_xml with a NIC");
	ok(xml && strstr(xml, "<interface type='udp'>\n"
			      "      <source address='127.0.0.1' port='0'>\n"
			      "        <local address='127.0.0.1' port='0'/>\n"
			      "      </source>\n"
			      "      <model type='virtio'/>\n"
			      "      <rom enabled='no'/>\n"),
	   "a NIC: virtio-net, a UDP backend that sends to port 0 (nothing)");
	ok(xml && !strstr(strstr(xml, "<interface") + 1, "<interface"),
	   "only one NIC");
	ok(xml && !strstr(xml, "type='user'") && !strstr(xml, "mcast") &&
		   !strstr(xml, "'server'") && !strstr(xml, "'client'"),
	   "no user network, multicast or TCP socket backend");
	free(xml);
	xml = NULL;
	c.nic = false;
	c.icount = true;
	c.accel = DOMAIN_ACCEL_KVM;
	is_int(domain_xml(&c, &xml), -EINVAL, "icount with KVM refused");
	c.accel = DOMAIN_ACCEL_TCG;
	c.icount = false;
	c.vcpus = 3;
	is_int(domain_xml(&c, &xml), -EINVAL, "3 vcpus refused");
	c.vcpus = 2;
	c.name = "";
	is_int(domain_xml(&c, &xml), -EINVAL, "empty name refused");
	c.name = "x";
	c.kernel = NULL;
	is_int(domain_xml(&c, &xml), -EINVAL, "no kernel refused");
	c.kernel = "/k";
	xml = NULL;
	is_int(domain_xml(&c, &xml), 0, "domain_xml again");
	ok(xml && !strstr(xml, "org.vlalab.ssh.0"), "no SSH port unasked");
	free(xml);
	xml = NULL;
	c.ssh_socket = "/s/x.ssh";
	is_int(domain_xml(&c, &xml), 0, "domain_xml with an SSH port");
	ok(xml && strstr(xml, "<source mode='bind' path='/s/x.ssh'/>") &&
		   strstr(xml, "name='org.vlalab.ssh.0'"),
	   "SSH port: a unix socket QEMU binds");
	ok(xml && strstr(xml, "<initrd>/i</initrd>"), "the initramfs");
	free(xml);
	xml = NULL;
	/* The cloud image: its root is a disk, no initramfs. */
	c.initrd = NULL;
	c.cmdline = domain_cloud_cmdline;
	c.disks = (const struct domain_disk[]){
		{ "/r/cloud-vm1.qcow2", "qcow2", false },
		{ "/b/cloud-modules.img", "raw", true },
	};
	c.ndisks = 2;
	is_int(domain_xml(&c, &xml), 0, "domain_xml without an initramfs");
	ok(xml && !strstr(xml, "<initrd>") &&
		   strstr(xml,
			  "<cmdline>console=ttyS0 panic=-1 root=/dev/vda") &&
		   strstr(xml, "<source file='/r/cloud-vm1.qcow2'/>\n"
			       "      <target dev='vda' bus='virtio'/>\n"
			       "      <address type='pci' domain='0x0000' "
			       "bus='0x00' slot='0x03' function='0x0'/>\n"
			       "    </disk>"),
	   "no initrd element, the root on vda, writable");
	ok(xml && strstr(xml, "<source file='/b/cloud-modules.img'/>\n"
			      "      <target dev='vdb' bus='virtio'/>\n"
			      "      <readonly/>\n"),
	   "a shared disk is read-only");
	free(xml);
}

/* How often @needle occurs in @s. */
static unsigned int count(const char *s, const char *needle)
{
	unsigned int n = 0;

	while (s && (s = strstr(s, needle))) {
		n++;
		s++;
	}
	return n;
}

/*
 * Every PCI device on the root bus, one slot each in order, so that
 * libvirt adds no pcie-root-port for the guest to probe (boot parity,
 * docs/performance.md).
 */
static void test_pci_slots(void)
{
	struct domain_config c = {
		.name = "n",
		.kernel = "/k",
		.initrd = "/i",
		.nic = true,
		/* Not a shape the runner makes (a NIC is for the initramfs's
		 * dsa VMs, disks for the boots'), but domain_xml allows it. */
		.disks = (const struct domain_disk[]){ { "/a", "raw", false },
						       { "/b", "raw", true } },
		.ndisks = 2,
	};
	const char *ctl, *vda, *vdb, *nic;
	char *xml = NULL;

	is_int(domain_xml(&c, &xml), 0, "domain_xml with disks and a NIC");
	is_int(count(xml, "<address type='pci'"), 4,
	       "four PCI devices, four addresses");
	is_int(count(xml, "bus='0x00'"), 4, "all on the root bus");
	ctl = xml ? strstr(xml, "<controller type='virtio-serial' index='0'>\n"
				"      <address type='pci' domain='0x0000' "
				"bus='0x00' slot='0x03' function='0x0'/>\n"
				"    </controller>") :
		    NULL;
	nic = xml ? strstr(xml, "slot='0x02'") : NULL;
	vda = xml ? strstr(xml, "slot='0x04'") : NULL;
	vdb = xml ? strstr(xml, "slot='0x05'") : NULL;
	ok(ctl && vda && vdb && nic && ctl < vda && vda < vdb &&
		   strstr(xml, "<target dev='vda'") < vda &&
		   strstr(xml, "<target dev='vdb'") < vdb &&
		   strstr(xml, "<interface") < nic,
	   "the NIC in slot 2 (virtio0, as behind libvirt's first root "
	   "port), the channels' controller in 3, then vda, vdb");
	free(xml);
}

int main(void)
{
	test_domain();
	test_pci_slots();
	return tap_done();
}
