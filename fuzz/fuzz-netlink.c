// SPDX-License-Identifier: GPL-2.0-only
/*
 * guestd's netlink answers on any datagram: nl_recv_walk() with the VLAN
 * dump's parser, then with the MDB dump's, as nl_dump() reads them, and
 * each ACK. Whatever the parsers keep must be sorted and formatted within
 * bounds, and a list must compare equal to itself.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "guestd.h"
#include "nl.h"

/* The request's sequence number and port the seeds carry. */
#define SEQ 1
#define PORTID 0

static int vlans_cb(const struct nlmsghdr *nlh, void *data)
{
	return nl_parse_vlans(nlh, data);
}

static int mdbs_cb(const struct nlmsghdr *nlh, void *data)
{
	return nl_parse_mdbs(nlh, data);
}

static void check_ack(int r, const struct nl_ack *ack)
{
	if (r == 1)
		assert(memchr(ack->extack, '\0', sizeof(ack->extack)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char dgram[NL_RECV_MAX] __attribute__((aligned(8)));
	struct nl_vlans vl = { 0 };
	struct nl_mdbs ml = { 0 };
	struct nl_ack ack;
	char text[256];
	int r;

	if (size > sizeof(dgram))
		return -1;
	/* The kernel's datagrams are aligned, and so is recvfrom()'s buffer. */
	memcpy(dgram, data, size);

	r = nl_recv_walk(dgram, size, SEQ, PORTID, vlans_cb, &vl, &ack);
	check_ack(r, &ack);
	nl_vlans_sort(&vl);
	for (size_t i = 0; i < vl.n; i++) {
		assert(memchr(vl.v[i].ifname, '\0', sizeof(vl.v[i].ifname)));
		assert(i == 0 || nl_vlan_key_cmp(&vl.v[i - 1], &vl.v[i]) <= 0);
		nl_vlan_fmt(&vl.v[i], text, sizeof(text));
	}
	assert(br_vlans_diff(&vl, &vl, "a", "b", text, sizeof(text)) == 0);

	r = nl_recv_walk(dgram, size, SEQ, PORTID, mdbs_cb, &ml, &ack);
	check_ack(r, &ack);
	nl_mdbs_sort(&ml);
	for (size_t i = 0; i < ml.n; i++) {
		assert(i == 0 || nl_mdb_key_cmp(&ml.v[i - 1], &ml.v[i]) <= 0);
		nl_mdb_fmt(&ml.v[i], text, sizeof(text));
	}
	assert(br_mdbs_diff(&ml, &ml, "a", "b", text, sizeof(text)) == 0);

	nl_vlans_free(&vl);
	nl_mdbs_free(&ml);
	return 0;
}
