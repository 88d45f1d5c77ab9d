// SPDX-License-Identifier: GPL-2.0-only
/*
 * Domain XML: direct kernel boot, a virtio-serial channel for guestd (and
 * one for SSH, when asked: a unix socket QEMU listens on), the
 * serial console on a pty (hostctl reads it as a libvirt stream into a
 * bounded log, vm.c and guest.c: a file QEMU writes has no bound), a
 * pvpanic device, no balloon, and no NIC unless asked: the guest is
 * hostile, and has no network. A scenario that needs one,
 * "nic": true (dsa_loop's master, eth0 in the guest), gets a virtio-net
 * NIC whose backend reaches nothing (domain_nic_xml()).
 * A poweroff or reboot destroys the domain, so the host sees every end as a
 * lifecycle event. A panic (pvpanic) keeps it, paused in the crashed state
 * (on_crash preserve), so hostctl can dump its memory before destroying it.
 * The vmcoreinfo device lets a kernel with CONFIG_FW_CFG_SYSFS and
 * CONFIG_CRASH_CORE hand QEMU its VMCOREINFO, which QEMU writes into the
 * dump (drgn needs it; crash and makedumpfile use it).
 * Every PCI device sits on the root bus at an address of ours
 * (domain_pci_addr()), so that libvirt adds no PCIe root ports.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/domain.h"
#include "base/escape.h"
#include "vm/owner.h"
#include "proto.h"

/*
 * loglevel=5 keeps KERN_WARNING and default-level lines on the serial
 * console: WARN_ON() reports and oops call traces are printed at those
 * levels, and the console is a crash's evidence. Only the chatty info and
 * notice lines stay off it; guestd forwards every line as kmsg anyway.
 *
 * no_timer_check: the kernel's check_timer() counts timer interrupts
 * against a busy loop at boot, host time a TCG guest on a loaded host
 * does not get, and panics with "IO-APIC + timer doesn't work!" when too
 * few came (seen at load 15-27 on 2 cores, 2026-12-07). The emulated
 * timer works; the check only measures the host's load. virtme-ng and
 * the cloud images of several distributions pass it for the same reason.
 */
const char domain_default_cmdline[] =
	"console=ttyS0 panic=-1 rdinit=/init quiet loglevel=5 no_timer_check";

/*
 * The cloud image (docs/repro.md, "Cloud images"): no initramfs, the root
 * is the whole of the disk the runner puts first (no partition table, so
 * no LABEL= without an initramfs to resolve it), and systemd is init.
 */
const char domain_cloud_cmdline[] =
	"console=ttyS0 panic=-1 root=/dev/vda rw quiet loglevel=5 no_timer_check";

const char *domain_accel_name(enum domain_accel a)
{
	return a == DOMAIN_ACCEL_KVM ? "kvm" : "tcg";
}

/*
 * Every PCI device's address, on the root bus (pcie.0 of q35, pci.0 of
 * pc), one slot each from DOMAIN_PCI_SLOT_FIRST: the NIC, then the
 * channels' controller, then the disks, the order libvirt gave their root
 * ports, so that the guest enumerates them as before (the NIC is virtio0,
 * which dsa/probe-error-release checks). Left
 * to itself, libvirt puts each PCIe device of a q35 machine behind a
 * pcie-root-port of its own and adds one more, empty, for hotplug: two
 * bridges the guest kernel probes at every boot (pcieport, its hotplug
 * and AER services), which cost the boot about 0.2 s under TCG
 * (docs/performance.md, "Boot parity"). The guest hotplugs nothing, and
 * the devices work as well as integrated endpoints.
 */
#define DOMAIN_PCI_SLOT_FIRST 2

static void domain_pci_addr(FILE *f, unsigned int *slot)
{
	fprintf(f,
		"      <address type='pci' domain='0x0000' bus='0x00' "
		"slot='0x%02x' function='0x0'/>\n",
		(*slot)++);
}

/* Each disk as virtio vda, vdb, ...: the order the guest names them in. */
static void domain_disks_xml(FILE *f, const struct domain_config *c,
			     unsigned int *slot)
{
	for (unsigned int i = 0; i < c->ndisks; i++) {
		fputs("    <disk type='file' device='disk'>\n", f);
		esc_xml_printf(f, "      <driver name='qemu' type='%s'/>\n",
			       c->disks[i].format);
		esc_xml_printf(f, "      <source file='%s'/>\n",
			       c->disks[i].path);
		fprintf(f, "      <target dev='vd%c' bus='virtio'/>\n",
			'a' + i);
		if (c->disks[i].readonly)
			fputs("      <readonly/>\n", f);
		domain_pci_addr(f, slot);
		fputs("    </disk>\n", f);
	}
}

/*
 * The NIC of a VM that asks for one: a virtio-net device, eth0 in the
 * guest, whose backend is a UDP socket that can send nothing. QEMU binds
 * it to an ephemeral port of the host's 127.0.0.1 and sends each frame
 * the guest transmits to 127.0.0.1 port 0, which the host kernel refuses
 * (udp_sendmsg() returns EINVAL for a destination port 0) before any
 * packet exists: every frame is dropped, and no address of the host or
 * beyond ever sees one. libvirt 9.0 offers no user network that is
 * restricted, and its type 'null' crashes it; a NIC with no backend at
 * all would need QEMU arguments outside libvirt's PCI addressing. The
 * guest still sees a NIC whose link is up, all dsa_loop needs. Its option
 * ROM is off: the kernel boots directly.
 */
static void domain_nic_xml(FILE *f, unsigned int *slot)
{
	fputs("    <interface type='udp'>\n"
	      "      <source address='127.0.0.1' port='0'>\n"
	      "        <local address='127.0.0.1' port='0'/>\n"
	      "      </source>\n"
	      "      <model type='virtio'/>\n"
	      "      <rom enabled='no'/>\n",
	      f);
	domain_pci_addr(f, slot);
	fputs("    </interface>\n", f);
}

int domain_machine_check(const char *machine)
{
	return machine && (!strcmp(machine, "pc") || !strcmp(machine, "q35")) ?
		       0 :
		       -EINVAL;
}

int domain_xml(const struct domain_config *c, char **ret)
{
	uint64_t mem = c->memory_mib ? c->memory_mib :
				       DOMAIN_MEMORY_MIB_DEFAULT;
	unsigned int vcpus = c->vcpus ? c->vcpus : DOMAIN_VCPUS_DEFAULT;
	unsigned int nic_slot = DOMAIN_PCI_SLOT_FIRST;
	unsigned int slot = DOMAIN_PCI_SLOT_FIRST + c->nic;
	bool kvm = c->accel == DOMAIN_ACCEL_KVM;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	const char *machine = c->machine ? c->machine : DOMAIN_MACHINE_DEFAULT;

	if (!c->name || !*c->name || !c->kernel || vcpus > 2 ||
	    c->ndisks > DOMAIN_DISKS_MAX || (c->icount && kvm) ||
	    domain_machine_check(machine) < 0)
		return -EINVAL;
	for (unsigned int i = 0; i < c->ndisks; i++)
		if (!c->disks[i].path || !c->disks[i].format ||
		    (strcmp(c->disks[i].format, "raw") != 0 &&
		     strcmp(c->disks[i].format, "qcow2") != 0))
			return -EINVAL;
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	fprintf(f, "<domain type='%s'%s>\n", kvm ? "kvm" : "qemu",
		c->icount ? " xmlns:qemu='" DOMAIN_QEMU_NS "'" : "");
	esc_xml_printf(f, "  <name>%s</name>\n", c->name);
	if (c->owner) {
		fputs("  <metadata>\n", f);
		owner_xml(f, c->owner);
		fputs("  </metadata>\n", f);
	}
	fprintf(f, "  <memory unit='MiB'>%" PRIu64 "</memory>\n", mem);
	fprintf(f, "  <vcpu>%u</vcpu>\n", vcpus);
	fputs("  <os>\n", f);
	esc_xml_printf(f, "    <type arch='x86_64' machine='%s'>hvm</type>\n",
		       machine);
	if (c->firmware)
		esc_xml_printf(
			f,
			"    <loader readonly='yes' type='rom'>%s</loader>\n",
			c->firmware);
	esc_xml_printf(f, "    <kernel>%s</kernel>\n", c->kernel);
	if (c->initrd)
		esc_xml_printf(f, "    <initrd>%s</initrd>\n", c->initrd);
	esc_xml_printf(f, "    <cmdline>%s</cmdline>\n",
		       c->cmdline ? c->cmdline : domain_default_cmdline);
	fputs("  </os>\n"
	      "  <features>\n"
	      "    <acpi/>\n"
	      "    <vmcoreinfo state='on'/>\n"
	      "  </features>\n",
	      f);
	fputs("  <clock offset='utc'/>\n"
	      "  <on_poweroff>destroy</on_poweroff>\n"
	      "  <on_reboot>destroy</on_reboot>\n"
	      "  <on_crash>preserve</on_crash>\n"
	      "  <devices>\n",
	      f);
	fputs("    <controller type='virtio-serial' index='0'>\n", f);
	domain_pci_addr(f, &slot);
	fputs("    </controller>\n", f);
	domain_disks_xml(f, c, &slot);
	fputs("    <serial type='pty'>\n"
	      "      <target port='0'/>\n"
	      "    </serial>\n"
	      "    <console type='pty'>\n"
	      "      <target type='serial' port='0'/>\n"
	      "    </console>\n"
	      "    <controller type='usb' model='none'/>\n"
	      "    <channel type='unix'>\n"
	      "      <source mode='bind'/>\n",
	      f);
	esc_xml_printf(f, "      <target type='virtio' name='%s'/>\n",
		       PROTO_PORT_NAME);
	fputs("    </channel>\n", f);
	if (c->ssh_socket) {
		fputs("    <channel type='unix'>\n", f);
		esc_xml_printf(f, "      <source mode='bind' path='%s'/>\n",
			       c->ssh_socket);
		esc_xml_printf(f, "      <target type='virtio' name='%s'/>\n",
			       PROTO_SSH_PORT_NAME);
		fputs("    </channel>\n", f);
	}
	if (c->nic)
		domain_nic_xml(f, &nic_slot);
	fputs("    <panic model='isa'>\n"
	      "      <address type='isa' iobase='0x505'/>\n"
	      "    </panic>\n"
	      "    <video>\n"
	      "      <model type='none'/>\n"
	      "    </video>\n"
	      "    <memballoon model='none'/>\n"
	      "  </devices>\n",
	      f);
	if (c->icount)
		fputs("  <qemu:commandline>\n"
		      "    <qemu:arg value='-icount'/>\n"
		      "    <qemu:arg value='" DOMAIN_ICOUNT "'/>\n"
		      "  </qemu:commandline>\n",
		      f);
	fputs("</domain>\n", f);
	if (fclose(f) != 0) {
		free(buf);
		return -ENOMEM;
	}
	*ret = buf;
	return 0;
}
