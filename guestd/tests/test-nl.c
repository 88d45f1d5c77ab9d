// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pure parts of the netlink steps, without a kernel: the brspec.h
 * texts, the requests nl-msg.c builds, ACKs with extack and the VLAN/MDB
 * dump messages it parses (built here by hand, as the kernel lays them
 * out), the has/lacks/exactly checks, the dump diff, `bridge -j` parsing,
 * and the judging of an answer against expect_errno/expect_extack.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "guestd.h"
#include "nl.h"
#include "tap.h"
#include "testutil.h"

static char buf[NL_MSG_MAX];

static void test_brspec(void)
{
	struct brspec_group g;
	struct brspec_vlan v;
	struct brspec_mdb m;
	char text[64], err[256];

	is_int(brspec_group_parse("239.1.1.1", &g), 0, "group: IPv4");
	is_int(g.proto, 0x0800, "group: IPv4 proto");
	brspec_group_fmt(&g, text, sizeof(text));
	is_str(text, "239.1.1.1", "group: IPv4 text");
	is_int(brspec_group_parse("FF0E::1", &g), 0, "group: IPv6");
	is_int(g.proto, 0x86dd, "group: IPv6 proto");
	brspec_group_fmt(&g, text, sizeof(text));
	is_str(text, "ff0e::1", "group: IPv6 canonical text");
	is_int(brspec_group_parse("01:00:5E:01:02:03", &g), 0, "group: MAC");
	is_int(g.proto, 0, "group: L2 proto 0");
	brspec_group_fmt(&g, text, sizeof(text));
	is_str(text, "01:00:5e:01:02:03", "group: MAC text");
	is_int(brspec_group_parse("239.1.1", &g), -EINVAL, "group: short IPv4");
	is_int(brspec_group_parse("01:00:5e:01:02:03:04", &g), -EINVAL,
	       "group: long MAC");
	is_int(brspec_group_parse("01:00:5e:01:02:0x", &g), -EINVAL,
	       "group: bad MAC digit");

	is_int(brspec_vlan_parse("10 untagged pvid", false, &v, err, sizeof(err)),
	       0, "vlan: flags in any order");
	ok(v.vid == 10 && v.pvid && v.untagged, "vlan: parsed");
	is_int(brspec_vlan_parse("4096", false, &v, err, sizeof(err)), -EINVAL,
	       "vlan: 4096");
	is_int(brspec_vlan_parse("10 pvid", true, &v, err, sizeof(err)), -EINVAL,
	       "vlan: VID only");
	is_str(err, "VLAN '10 pvid': unexpected 'pvid' (want a VID only)",
	       "vlan: VID only message");
	is_int(brspec_vlan_parse("", false, &v, err, sizeof(err)), -EINVAL,
	       "vlan: empty");

	is_int(brspec_mdb_parse("lan1 239.1.1.1 vid 10 permanent offload", false,
				&m, err, sizeof(err)), 0, "mdb: full");
	ok(!strcmp(m.port, "lan1") && m.vid == 10 && m.permanent == 1 &&
	   m.offload == 1, "mdb: fields");
	is_int(brspec_mdb_parse("lan2 ff0e::1 temp no_offload", false, &m, err,
				sizeof(err)), 0, "mdb: temp no_offload");
	ok(m.vid == 0 && m.permanent == 0 && m.offload == 0, "mdb: negatives");
	is_int(brspec_mdb_parse("lan2 ff0e::1", false, &m, err, sizeof(err)), 0,
	       "mdb: key only");
	ok(m.permanent == -1 && m.offload == -1, "mdb: flags not given");
	is_int(brspec_mdb_parse("lan1 239.1.1.1 vid", false, &m, err,
				sizeof(err)), -EINVAL, "mdb: vid without number");
	is_int(brspec_mdb_parse("lan1 239.1.1.1 temp permanent", false, &m, err,
				sizeof(err)), -EINVAL, "mdb: two states");
	is_int(brspec_mdb_parse("lan1 239.1.1.1 offload", true, &m, err,
				sizeof(err)), -EINVAL, "mdb: key only refuses flags");
}

/* The first attribute of type @type in @nlh after @off, or NULL. */
static const struct nlattr *attr(const struct nlmsghdr *nlh, size_t off,
				 uint16_t type)
{
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, off)
		if (mnl_attr_get_type(a) == type)
			return a;
	return NULL;
}

static const struct nlattr *nested(const struct nlattr *nest, uint16_t type)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, nest)
		if (mnl_attr_get_type(a) == type)
			return a;
	return NULL;
}

static void test_requests(void)
{
	struct nl_bridge_opts o = { .vlan_filtering = 1, .mcast_snooping = 0 };
	struct brspec_vlan v = { .vid = 10, .pvid = true };
	const struct bridge_vlan_info *info;
	const struct br_mdb_entry *be;
	const struct nlattr *a, *data;
	const struct ifinfomsg *ifi;
	struct nlmsghdr *nlh;
	struct nl_mdb_req m = { .bridge = 7, .port = 3, .vid = 20,
				.permanent = true };

	nlh = nl_msg_bridge_add(buf, "br0", &o);
	is_int(nlh->nlmsg_type, RTM_NEWLINK, "bridge_add: RTM_NEWLINK");
	ok(nlh->nlmsg_flags & NLM_F_EXCL && nlh->nlmsg_flags & NLM_F_CREATE,
	   "bridge_add: create, exclusive");
	a = attr(nlh, sizeof(struct ifinfomsg), IFLA_IFNAME);
	is_str(a ? mnl_attr_get_str(a) : NULL, "br0", "bridge_add: name");
	a = attr(nlh, sizeof(struct ifinfomsg), IFLA_LINKINFO);
	is_str(a && nested(a, IFLA_INFO_KIND) ?
	       mnl_attr_get_str(nested(a, IFLA_INFO_KIND)) : NULL, "bridge",
	       "bridge_add: kind");
	data = a ? nested(a, IFLA_INFO_DATA) : NULL;
	ok(data && nested(data, IFLA_BR_VLAN_FILTERING) &&
	   mnl_attr_get_u8(nested(data, IFLA_BR_VLAN_FILTERING)) == 1,
	   "bridge_add: vlan_filtering 1");
	ok(data && nested(data, IFLA_BR_MCAST_SNOOPING) &&
	   mnl_attr_get_u8(nested(data, IFLA_BR_MCAST_SNOOPING)) == 0,
	   "bridge_add: mcast_snooping 0");
	o.vlan_filtering = o.mcast_snooping = -1;
	nlh = nl_msg_bridge_add(buf, "br0", &o);
	a = attr(nlh, sizeof(struct ifinfomsg), IFLA_LINKINFO);
	data = a ? nested(a, IFLA_INFO_DATA) : NULL;
	ok(data && !nested(data, IFLA_BR_VLAN_FILTERING) &&
	   !nested(data, IFLA_BR_MCAST_SNOOPING), "bridge_add: defaults left");

	nlh = nl_msg_link_set(buf, 4, 0, 0);
	ifi = mnl_nlmsg_get_payload(nlh);
	ok(ifi->ifi_index == 4 && ifi->ifi_change == IFF_UP &&
	   !(ifi->ifi_flags & IFF_UP), "link_set: down");
	a = attr(nlh, sizeof(*ifi), IFLA_MASTER);
	ok(a && mnl_attr_get_u32(a) == 0, "link_set: nomaster is IFLA_MASTER 0");
	nlh = nl_msg_link_set(buf, 4, -1, -1);
	ifi = mnl_nlmsg_get_payload(nlh);
	ok(ifi->ifi_change == 0 && !attr(nlh, sizeof(*ifi), IFLA_MASTER),
	   "link_set: nothing asked, nothing set");

	nlh = nl_msg_vlan(buf, true, 5, &v, false);
	ifi = mnl_nlmsg_get_payload(nlh);
	ok(nlh->nlmsg_type == RTM_SETLINK && ifi->ifi_family == AF_BRIDGE &&
	   ifi->ifi_index == 5, "vlan_add: RTM_SETLINK, AF_BRIDGE, ifindex");
	a = attr(nlh, sizeof(*ifi), IFLA_AF_SPEC);
	ok(a && !nested(a, IFLA_BRIDGE_FLAGS), "vlan_add: no self flag");
	info = a && nested(a, IFLA_BRIDGE_VLAN_INFO) ?
	       mnl_attr_get_payload(nested(a, IFLA_BRIDGE_VLAN_INFO)) : NULL;
	ok(info && info->vid == 10 && info->flags == BRIDGE_VLAN_INFO_PVID,
	   "vlan_add: vid 10 pvid");
	nlh = nl_msg_vlan(buf, false, 5, &v, true);
	a = attr(nlh, sizeof(*ifi), IFLA_AF_SPEC);
	ok(nlh->nlmsg_type == RTM_DELLINK && a &&
	   nested(a, IFLA_BRIDGE_FLAGS) &&
	   mnl_attr_get_u16(nested(a, IFLA_BRIDGE_FLAGS)) == BRIDGE_FLAGS_SELF,
	   "vlan_del self: RTM_DELLINK with BRIDGE_FLAGS_SELF");

	brspec_group_parse("ff0e::1", &m.group);
	nlh = nl_msg_mdb(buf, true, &m);
	ok(nlh->nlmsg_type == RTM_NEWMDB &&
	   ((const struct br_port_msg *)mnl_nlmsg_get_payload(nlh))->ifindex == 7,
	   "mdb_add: RTM_NEWMDB on the bridge");
	a = attr(nlh, sizeof(struct br_port_msg), MDBA_SET_ENTRY);
	be = a ? mnl_attr_get_payload(a) : NULL;
	ok(be && be->ifindex == 3 && be->state == MDB_PERMANENT &&
	   be->vid == 20 && be->addr.proto == htons(0x86dd) &&
	   be->addr.u.ip6.s6_addr[0] == 0xff && be->addr.u.ip6.s6_addr[15] == 1,
	   "mdb_add: the br_mdb_entry");
	brspec_group_parse("01:00:5e:00:00:01", &m.group);
	m.permanent = false;
	nlh = nl_msg_mdb(buf, false, &m);
	a = attr(nlh, sizeof(struct br_port_msg), MDBA_SET_ENTRY);
	be = a ? mnl_attr_get_payload(a) : NULL;
	ok(nlh->nlmsg_type == RTM_DELMDB && be && be->addr.proto == 0 &&
	   be->state == MDB_TEMPORARY && be->addr.u.mac_addr[2] == 0x5e,
	   "mdb_del: L2 entry, temporary");

	nlh = nl_msg_vlan_dump(buf);
	a = attr(nlh, sizeof(struct ifinfomsg), IFLA_EXT_MASK);
	ok(nlh->nlmsg_flags & NLM_F_DUMP && a &&
	   mnl_attr_get_u32(a) == RTEXT_FILTER_BRVLAN, "vlan dump: BRVLAN mask");
}

/* An NLMSG_ERROR as the kernel sends it, capped or with the request. */
static struct nlmsghdr *error_msg(int error, const char *extack, bool capped)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct nlmsghdr req = { .nlmsg_len = sizeof(req) + 8,
				.nlmsg_type = RTM_SETLINK };
	struct nlmsgerr *e;

	nlh->nlmsg_type = NLMSG_ERROR;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = -error;
	e->msg = req;
	if (capped) {
		nlh->nlmsg_flags |= NLM_F_CAPPED;
	} else {
		/* The request's payload follows the header copy. */
		mnl_nlmsg_put_extra_header(nlh, 8);
	}
	if (extack) {
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, extack);
	}
	return nlh;
}

static void test_ack(void)
{
	struct nl_ack ack;
	struct nlmsghdr *nlh;
	struct nlattr *a;

	is_int(nl_parse_ack(error_msg(0, NULL, true), &ack), 0, "ack: parses");
	ok(ack.err == 0 && !ack.extack[0], "ack: success, no extack");
	is_int(nl_parse_ack(error_msg(EINVAL, "bridge: Vlan id is invalid", true),
			    &ack), 0, "ack capped: parses");
	is_int(ack.err, EINVAL, "ack capped: errno");
	is_str(ack.extack, "bridge: Vlan id is invalid", "ack capped: extack");
	is_int(nl_parse_ack(error_msg(ENOSPC, "full", false), &ack), 0,
	       "ack with request: parses");
	ok(ack.err == ENOSPC && !strcmp(ack.extack, "full"),
	   "ack with request: errno and extack after the request");

	nlh = error_msg(EINVAL, "abc", true);
	a = (struct nlattr *)((char *)nlh + sizeof(*nlh) + sizeof(struct nlmsgerr));
	((char *)mnl_attr_get_payload(a))[3] = 'x';     /* no NUL */
	is_int(nl_parse_ack(nlh, &ack), -EBADMSG, "ack: unterminated extack");
	nlh = error_msg(EINVAL, NULL, true);
	nlh->nlmsg_len = sizeof(*nlh) + 2;
	is_int(nl_parse_ack(nlh, &ack), -EBADMSG, "ack: short");

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_DONE;
	*(int *)mnl_nlmsg_put_extra_header(nlh, sizeof(int)) = -EOPNOTSUPP;
	is_int(nl_parse_ack(nlh, &ack), 0, "done: parses");
	is_int(ack.err, EOPNOTSUPP, "done: the dump's error");
	/* Found by fuzz-netlink: negating INT_MIN was undefined. */
	*(int *)mnl_nlmsg_get_payload(nlh) = INT_MIN;
	is_int(nl_parse_ack(nlh, &ack), -EBADMSG, "done: an error of INT_MIN");
	*(int *)mnl_nlmsg_get_payload(nlh) = 1;
	is_int(nl_parse_ack(nlh, &ack), -EBADMSG, "done: a positive error");
	is_int(nl_parse_ack(error_msg(-4096, NULL, true), &ack), -EBADMSG,
	       "ack: an errno over 4095");
	is_int(nl_parse_ack(error_msg(4095, NULL, true), &ack), 0,
	       "ack: errno 4095");
	nlh->nlmsg_type = RTM_NEWLINK;
	is_int(nl_parse_ack(nlh, &ack), -EBADMSG, "ack: not an ACK");
}

static void put_vlan(struct nlmsghdr *nlh, uint16_t vid, uint16_t flags)
{
	struct bridge_vlan_info info = { .flags = flags, .vid = vid };

	mnl_attr_put(nlh, IFLA_BRIDGE_VLAN_INFO, sizeof(info), &info);
}

static int vlans_walk_cb(const struct nlmsghdr *nlh, void *data)
{
	return nl_parse_vlans(nlh, data);
}

static struct nlmsghdr *link_msg(int family, int ifindex, const char *name)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	struct nlattr *spec;

	nlh->nlmsg_type = RTM_NEWLINK;
	ifi->ifi_family = (unsigned char)family;
	ifi->ifi_index = ifindex;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	mnl_attr_put_u32(nlh, IFLA_MASTER, 9);
	spec = mnl_attr_nest_start(nlh, IFLA_AF_SPEC);
	put_vlan(nlh, 1, BRIDGE_VLAN_INFO_UNTAGGED);
	put_vlan(nlh, 10, BRIDGE_VLAN_INFO_PVID | BRIDGE_VLAN_INFO_UNTAGGED);
	mnl_attr_nest_end(nlh, spec);
	return nlh;
}

static void put_mdb(struct nlmsghdr *nlh, int port, const char *grp,
		    uint16_t vid, bool permanent, bool offload)
{
	struct br_mdb_entry e = { .ifindex = (uint32_t)port, .vid = vid };
	struct brspec_group g;
	struct nlattr *info;

	brspec_group_parse(grp, &g);
	e.state = permanent ? MDB_PERMANENT : MDB_TEMPORARY;
	e.flags = offload ? MDB_FLAGS_OFFLOAD : 0;
	e.addr.proto = htons(g.proto);
	memcpy(&e.addr.u, g.addr, sizeof(e.addr.u));
	/* The struct, then MDBA_MDB_EATTR_* inside the same attribute. */
	info = mnl_attr_nest_start(nlh, MDBA_MDB_ENTRY_INFO);
	memcpy(mnl_nlmsg_get_payload_tail(nlh), &e, sizeof(e));
	nlh->nlmsg_len += MNL_ALIGN(sizeof(e));
	mnl_attr_put_u32(nlh, MDBA_MDB_EATTR_TIMER, 250);
	mnl_attr_nest_end(nlh, info);
	info->nla_type = MDBA_MDB_ENTRY_INFO;   /* no NLA_F_NESTED: a struct */
}

static struct nlmsghdr *mdb_msg(void)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct br_port_msg *bpm = mnl_nlmsg_put_extra_header(nlh, sizeof(*bpm));
	struct nlattr *mdb, *entry;

	nlh->nlmsg_type = RTM_GETMDB;   /* what a dump's messages carry */
	bpm->family = AF_BRIDGE;
	bpm->ifindex = 9;
	mdb = mnl_attr_nest_start(nlh, MDBA_MDB);
	entry = mnl_attr_nest_start(nlh, MDBA_MDB_ENTRY);
	put_mdb(nlh, 3, "239.1.1.1", 10, true, true);
	put_mdb(nlh, 4, "239.1.1.1", 10, false, false);
	mnl_attr_nest_end(nlh, entry);
	entry = mnl_attr_nest_start(nlh, MDBA_MDB_ENTRY);
	put_mdb(nlh, 3, "01:00:5e:01:02:03", 0, true, true);
	mnl_attr_nest_end(nlh, entry);
	mnl_attr_nest_end(nlh, mdb);
	return nlh;
}

static void name_mdbs(struct nl_mdbs *l)
{
	for (size_t i = 0; i < l->n; i++) {
		snprintf(l->v[i].bridge_name, BRSPEC_IFNAME_MAX, "br0");
		snprintf(l->v[i].port_name, BRSPEC_IFNAME_MAX, "%s",
			 l->v[i].port == 9 ? "br0" : l->v[i].port == 3 ? "lan1" : "lan2");
	}
	nl_mdbs_sort(l);
}

static void test_dumps(void)
{
	struct nl_vlans vl = { 0 };
	struct nl_mdbs ml = { 0 };
	char text[160];

	is_int(nl_parse_vlans(link_msg(AF_BRIDGE, 3, "lan1"), &vl), 0,
	       "vlans: parses");
	is_int(vl.n, 2, "vlans: two VLANs");
	if (vl.n == 2) {
		ok(vl.v[0].vid == 1 && !vl.v[0].pvid && vl.v[0].untagged &&
		   !strcmp(vl.v[0].ifname, "lan1"), "vlans: 1 untagged on lan1");
		nl_vlan_fmt(&vl.v[1], text, sizeof(text));
		is_str(text, "lan1 vid 10 pvid untagged", "vlans: 10 pvid untagged");
	}
	is_int(nl_parse_vlans(link_msg(AF_UNSPEC, 4, "eth0"), &vl), 0,
	       "vlans: another family is skipped");
	is_int(vl.n, 2, "vlans: nothing added for it");
	nl_vlans_free(&vl);

	is_int(nl_parse_mdbs(mdb_msg(), &ml), 0, "mdbs: parses");
	is_int(ml.n, 3, "mdbs: three entries");
	name_mdbs(&ml);
	if (ml.n == 3) {
		/* Sorted by bridge, port, protocol (L2 is 0), group, vid. */
		nl_mdb_fmt(&ml.v[0], text, sizeof(text));
		is_str(text, "br0 lan1 01:00:5e:01:02:03 permanent offload",
		       "mdbs: L2 entry");
		nl_mdb_fmt(&ml.v[1], text, sizeof(text));
		is_str(text, "br0 lan1 239.1.1.1 vid 10 permanent offload",
		       "mdbs: IPv4 entry");
		nl_mdb_fmt(&ml.v[2], text, sizeof(text));
		is_str(text, "br0 lan2 239.1.1.1 vid 10 temp no_offload",
		       "mdbs: temporary, not offloaded");
	}
	nl_mdbs_free(&ml);
}

static int full_cb(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return -ENOBUFS;
}

/* Append a copy of @nlh, with @seq, to the datagram @dgram of *@len bytes. */
static void dgram_add(char *dgram, size_t *len, const struct nlmsghdr *nlh,
		      uint32_t seq)
{
	struct nlmsghdr *m = (struct nlmsghdr *)(dgram + *len);

	memcpy(m, nlh, nlh->nlmsg_len);
	m->nlmsg_seq = seq;
	m->nlmsg_pid = 5;
	*len += NLMSG_ALIGN(nlh->nlmsg_len);
}

/* One datagram of an answer: other requests' messages, then its end. */
static void test_recv_walk(void)
{
	static char dgram[NL_RECV_MAX];
	struct nl_vlans vl = { 0 };
	struct nl_ack ack;
	struct nlmsghdr *done;
	size_t len = 0;

	dgram_add(dgram, &len, link_msg(AF_BRIDGE, 3, "lan1"), 7);
	dgram_add(dgram, &len, link_msg(AF_BRIDGE, 4, "lan2"), 8);
	is_int(nl_recv_walk(dgram, len, 7, 5, vlans_walk_cb, &vl, &ack), 0,
	       "walk: no end yet, more to come");
	is_int(vl.n, 2, "walk: our message's two VLANs, not the other's");
	done = mnl_nlmsg_put_header(buf);
	done->nlmsg_type = NLMSG_DONE;
	*(int *)mnl_nlmsg_put_extra_header(done, sizeof(int)) = -EPERM;
	dgram_add(dgram, &len, done, 7);
	dgram_add(dgram, &len, link_msg(AF_BRIDGE, 3, "lan1"), 7);
	is_int(nl_recv_walk(dgram, len, 7, 5, vlans_walk_cb, &vl, &ack), 1,
	       "walk: NLMSG_DONE ends it");
	is_int(vl.n, 4, "walk: nothing read after the end");
	is_int(ack.err, EPERM, "walk: the dump's error");
	is_int(nl_recv_walk(dgram, len, 7, 5, full_cb, NULL, &ack), -ENOBUFS,
	       "walk: the callback's error stops it");
	is_int(nl_recv_walk(dgram, NL_RECV_MAX + 1, 7, 5, NULL, NULL, &ack),
	       -EMSGSIZE, "walk: a datagram over NL_RECV_MAX");
	nl_vlans_free(&vl);

	/*
	 * A message of another request claiming 2 GiB and more, then what
	 * would be our end: libmnl's own check passed it and the walk went
	 * off the datagram (found by fuzz-netlink). It ends the datagram.
	 */
	len = 0;
	dgram_add(dgram, &len, link_msg(AF_BRIDGE, 3, "lan1"), 8);
	((struct nlmsghdr *)dgram)->nlmsg_len = 0xf1f1f1f1;
	done = mnl_nlmsg_put_header(buf);
	done->nlmsg_type = NLMSG_DONE;
	dgram_add(dgram, &len, done, 7);
	is_int(nl_recv_walk(dgram, len, 7, 5, NULL, NULL, &ack), 0,
	       "walk: a message over 2 GiB ends the datagram");
}

static struct json_object *js(const char *text)
{
	return json_tokener_parse(text);
}

static void test_expect(void)
{
	struct nl_vlans vl = { 0 };
	struct nl_mdbs ml = { 0 };
	char exp[PROTO_TEXT_MAX], got[PROTO_TEXT_MAX];
	struct json_object *a, *b;

	nl_parse_vlans(link_msg(AF_BRIDGE, 3, "lan1"), &vl);
	nl_vlans_sort(&vl);
	a = js("[\"10 pvid untagged\"]");
	b = js("[\"20\"]");
	is_int(br_vlans_expect(&vl, "lan1", a, b, NULL, exp, got, sizeof(got)),
	       0, "vlan_expect: has and lacks hold");
	json_object_put(a);
	a = js("[\"10 pvid\"]");
	is_int(br_vlans_expect(&vl, "lan1", a, NULL, NULL, exp, got, sizeof(got)),
	       1, "vlan_expect: flags differ");
	is_str(exp, "lan1 vid 10 pvid", "vlan_expect: expected text");
	is_str(got, "lan1 VLANs: 1 untagged, 10 pvid untagged",
	       "vlan_expect: got lists the port's VLANs");
	json_object_put(a);
	json_object_put(b);
	b = js("[\"1\"]");
	is_int(br_vlans_expect(&vl, "lan1", NULL, b, NULL, exp, got, sizeof(got)),
	       1, "vlan_expect: lacks fails");
	is_str(exp, "lan1 without vid 1", "vlan_expect: lacks text");
	json_object_put(b);
	a = js("[\"10 pvid untagged\", \"1 untagged\"]");
	is_int(br_vlans_expect(&vl, "lan1", NULL, NULL, a, exp, got, sizeof(got)),
	       0, "vlan_expect: exactly, any order");
	json_object_put(a);
	a = js("[\"10 pvid untagged\"]");
	is_int(br_vlans_expect(&vl, "lan1", NULL, NULL, a, exp, got, sizeof(got)),
	       1, "vlan_expect: exactly misses one");
	is_str(exp, "lan1 VLANs exactly: 10 pvid untagged",
	       "vlan_expect: exactly text");
	json_object_put(a);
	a = js("[]");
	is_int(br_vlans_expect(&vl, "lan2", NULL, NULL, a, exp, got, sizeof(got)),
	       0, "vlan_expect: exactly none on a port without VLANs");
	is_int(br_vlans_expect(&vl, "lan1", NULL, NULL, a, exp, got, sizeof(got)),
	       1, "vlan_expect: exactly none fails with VLANs");
	is_str(exp, "lan1 VLANs exactly: none", "vlan_expect: none text");
	json_object_put(a);
	a = js("[\"10 pvid pvid\"]");
	is_int(br_vlans_expect(&vl, "lan1", a, NULL, NULL, exp, got, sizeof(got)),
	       -EINVAL, "vlan_expect: a bad text");
	json_object_put(a);

	nl_parse_mdbs(mdb_msg(), &ml);
	name_mdbs(&ml);
	a = js("[\"lan1 239.1.1.1 vid 10 offload\", \"lan2 239.1.1.1 vid 10 no_offload temp\"]");
	b = js("[\"lan1 239.1.1.1\", \"lan3 239.1.1.1 vid 10\"]");
	is_int(br_mdbs_expect(&ml, "br0", a, b, NULL, exp, got, sizeof(got)),
	       0, "mdb_expect: has (with flags) and lacks (vid apart) hold");
	json_object_put(a);
	json_object_put(b);
	a = js("[\"lan2 239.1.1.1 vid 10 offload\"]");
	is_int(br_mdbs_expect(&ml, "br0", a, NULL, NULL, exp, got, sizeof(got)),
	       1, "mdb_expect: not offloaded");
	is_str(exp, "br0 MDB entry lan2 239.1.1.1 vid 10 offload",
	       "mdb_expect: expected text");
	ok(strstr(got, "lan2 239.1.1.1 vid 10 temp no_offload") != NULL,
	   "mdb_expect: got shows the entry");
	json_object_put(a);
	a = js("[\"lan1 239.1.1.1 vid 10\", \"lan2 239.1.1.1 vid 10\", \"lan1 01:00:5e:01:02:03\"]");
	is_int(br_mdbs_expect(&ml, "br0", NULL, NULL, a, exp, got, sizeof(got)),
	       0, "mdb_expect: exactly");
	json_object_put(a);
	a = js("[\"lan1 239.1.1.1 vid 10\"]");
	is_int(br_mdbs_expect(&ml, "br0", NULL, NULL, a, exp, got, sizeof(got)),
	       1, "mdb_expect: exactly misses two");
	json_object_put(a);

	/* A host join (port = the bridge) counts only when named. */
	{
		struct nl_mdb host = ml.v[0];

		host.port = 9;
		nl_mdbs_add(&ml, &host);
		name_mdbs(&ml);
	}
	a = js("[\"lan1 239.1.1.1 vid 10\", \"lan2 239.1.1.1 vid 10\", \"lan1 01:00:5e:01:02:03\"]");
	is_int(br_mdbs_expect(&ml, "br0", NULL, NULL, a, exp, got, sizeof(got)),
	       0, "mdb_expect: exactly leaves the bridge's own entries out");
	json_object_put(a);
	a = js("[\"br0 239.1.1.1 vid 10\"]");
	is_int(br_mdbs_expect(&ml, "br0", NULL, NULL, a, exp, got, sizeof(got)),
	       1, "mdb_expect: ... unless a text names the bridge as port");
	json_object_put(a);
	nl_vlans_free(&vl);
	nl_mdbs_free(&ml);
}

static const char vlan_json[] =
	"[{\"ifname\":\"lan1\",\"vlans\":[{\"vlan\":1,\"flags\":[\"Egress Untagged\"]},"
	"{\"vlan\":10,\"flags\":[\"PVID\",\"Egress Untagged\"]}]}]";
static const char mdb_json[] =
	"[{\"mdb\":[{\"index\":9,\"dev\":\"br0\",\"port\":\"lan1\",\"grp\":\"239.1.1.1\","
	"\"state\":\"permanent\",\"flags\":[\"offload\"],\"vid\":10},"
	"{\"index\":9,\"dev\":\"br0\",\"port\":\"lan2\",\"grp\":\"239.1.1.1\","
	"\"state\":\"temp\",\"flags\":[],\"vid\":10,\"timer\":\"  250.00\"},"
	"{\"index\":9,\"dev\":\"br0\",\"port\":\"lan1\",\"grp\":\"01:00:5e:01:02:03\","
	"\"state\":\"permanent\",\"flags\":[\"offload\"]}],\"router\":{}}]";

static void test_bridge_json(void)
{
	struct nl_vlans vl = { 0 }, jv = { 0 };
	struct nl_mdbs ml = { 0 }, jm = { 0 };
	char err[256], diff[512];

	nl_parse_vlans(link_msg(AF_BRIDGE, 3, "lan1"), &vl);
	nl_vlans_sort(&vl);
	is_int(brjson_vlans(vlan_json, &jv, err, sizeof(err)), 0,
	       "bridge -j vlan: parses");
	is_int(br_vlans_diff(&vl, &jv, "netlink", "bridge", diff, sizeof(diff)),
	       0, "bridge -j vlan: agrees with the dump");
	jv.v[1].pvid = false;
	is_int(br_vlans_diff(&vl, &jv, "netlink", "bridge", diff, sizeof(diff)),
	       1, "vlan diff: a flag differs");
	is_str(diff, "netlink has 'lan1 vid 10 pvid untagged', bridge has 'lan1 vid 10 untagged'",
	       "vlan diff: names both");
	jv.n = 1;
	is_int(br_vlans_diff(&vl, &jv, "netlink", "bridge", diff, sizeof(diff)),
	       1, "vlan diff: one missing");
	is_str(diff, "netlink has 'lan1 vid 10 pvid untagged', bridge does not",
	       "vlan diff: missing text");
	nl_vlans_free(&jv);
	is_int(brjson_vlans("[{\"ifname\":\"lan2\",\"vlans\":[{\"vlan\":5,\"vlanEnd\":7}]}]",
			    &jv, err, sizeof(err)), 0, "bridge -j vlan: a range");
	is_int(jv.n, 3, "bridge -j vlan: range expanded");
	nl_vlans_free(&jv);
	is_int(brjson_vlans("{}", &jv, err, sizeof(err)), -EINVAL,
	       "bridge -j vlan: not an array");
	is_int(brjson_vlans("[{\"vlans\":[]}]", &jv, err, sizeof(err)), -EINVAL,
	       "bridge -j vlan: no ifname");

	nl_parse_mdbs(mdb_msg(), &ml);
	name_mdbs(&ml);
	is_int(brjson_mdbs(mdb_json, &jm, err, sizeof(err)), 0,
	       "bridge -j mdb: parses");
	is_int(br_mdbs_diff(&ml, &jm, "netlink", "bridge", diff, sizeof(diff)),
	       0, "bridge -j mdb: agrees with the dump");
	{
		/* The bridge's own join, seen by one side only. */
		struct nl_mdb own = { .bridge = 2, .port = 2 };

		snprintf(own.bridge_name, sizeof(own.bridge_name), "br0");
		snprintf(own.port_name, sizeof(own.port_name), "br0");
		is_int(nl_mdbs_add(&jm, &own), 0, "mdb diff: an own join added");
		is_int(br_mdbs_diff(&ml, &jm, "netlink", "bridge", diff,
				    sizeof(diff)),
		       0, "mdb diff: the bridge's own join, on one side, is no difference");
		jm.n--;
	}
	jm.v[1].offload = false;
	is_int(br_mdbs_diff(&ml, &jm, "netlink", "bridge", diff, sizeof(diff)),
	       1, "mdb diff: offload differs");
	is_str(diff, "netlink has 'br0 lan1 239.1.1.1 vid 10 permanent offload', "
	       "bridge has 'br0 lan1 239.1.1.1 vid 10 permanent no_offload'",
	       "mdb diff: names the entry on both sides");
	jm.v[1].offload = true;
	jm.n = 2;
	is_int(br_mdbs_diff(&ml, &jm, "netlink", "bridge", diff, sizeof(diff)),
	       1, "mdb diff: one missing");
	is_str(diff, "netlink has 'br0 lan2 239.1.1.1 vid 10 temp no_offload', bridge does not",
	       "mdb diff: missing text");
	nl_mdbs_free(&jm);
	is_int(brjson_mdbs("[{\"mdb\":[{\"dev\":\"br0\",\"port\":\"lan1\",\"grp\":\"x\",\"state\":\"temp\"}]}]",
			   &jm, err, sizeof(err)), -EINVAL, "bridge -j mdb: bad group");
	is_str(err, "MDB group 'x' is no address", "bridge -j mdb: message");
	nl_vlans_free(&vl);
	nl_mdbs_free(&ml);
}

static void judge(struct step_result *res, const char *json, int err,
		  const char *extack)
{
	struct json_object *step = json_tokener_parse(json);
	struct nl_ack ack = { .err = err };

	snprintf(ack.extack, sizeof(ack.extack), "%s", extack);
	memset(res, 0, sizeof(*res));
	nl_step_judge(res, step, "RTM_SETLINK", "vlan_add 'lan1' vid 0", 0, &ack);
	json_object_put(step);
}

static void test_judge(void)
{
	struct step_result res;
	char err[256];
	struct json_object *s;

	judge(&res, "{}", 0, "");
	is_int(res.verdict, VERDICT_PASS, "judge: success wanted and seen");
	judge(&res, "{\"expect_errno\":\"EINVAL\",\"expect_extack\":\"Vlan id is invalid\"}",
	      EINVAL, "bridge: Vlan id is invalid");
	is_int(res.verdict, VERDICT_PASS, "judge: errno and extack as expected");
	judge(&res, "{}", EINVAL, "bridge: Vlan id is invalid");
	is_int(res.verdict, VERDICT_FAIL, "judge: unwanted failure");
	is_str(res.expected, "success", "judge: expected success");
	is_str(res.got, "errno EINVAL from RTM_SETLINK (Invalid argument), extack 'bridge: Vlan id is invalid'",
	       "judge: got errno and extack");
	is_str(res.reason, "vlan_add 'lan1' vid 0", "judge: reason names the step");
	judge(&res, "{\"expect_errno\":\"EINVAL\",\"expect_extack\":\"range\"}",
	      EINVAL, "bridge: Vlan id is invalid");
	is_int(res.verdict, VERDICT_FAIL, "judge: extack differs");
	is_str(res.expected, "errno EINVAL with extack matching 'range'",
	       "judge: expected names the regex");
	judge(&res, "{\"expect_errno\":\"EINVAL\"}", 0, "");
	is_str(res.got, "success", "judge: unwanted success");
	judge(&res, "{\"expect_errno\":\"EBOGUS\"}", 0, "");
	is_int(res.verdict, VERDICT_ERROR, "judge: unknown errno name");

	s = json_tokener_parse("{\"kind\":\"mdb_add\",\"dev\":\"br0\",\"port\":\"lan1\","
			       "\"group\":\"239.1.1.1\",\"vid\":10,\"permanent\":true,"
			       "\"expect_errno\":\"ENOSPC\",\"expect_extack\":\"x\"}");
	is_int(step_check(step_table, s, err, sizeof(err)), 0,
	       "step_check: an mdb_add step");
	json_object_put(s);
	s = json_tokener_parse("{\"kind\":\"vlan_expect\",\"dev\":\"lan1\",\"has\":[1]}");
	is_int(step_check(step_table, s, err, sizeof(err)), -EINVAL,
	       "step_check: has must be strings");
	json_object_put(s);
}

/*
 * bridge_check against fake `bridge` scripts. The netlink side is this
 * host's own dump, read only; the fakes list an interface no host has
 * ("vlalabfake0"), or fail in the ways the step must report.
 */
static void check_with(struct step_result *res, const char *dir,
		       const char *script, const char *json)
{
	struct step_env env = { .kmsg_path = "/nonexistent" };
	struct step_ctx ctx = { .env = &env };
	char path[512];
	struct json_object *step = json_tokener_parse(json);
	FILE *f;

	snprintf(path, sizeof(path), "%s/bridge", dir);
	f = fopen(path, "w");
	if (!f || fputs(script, f) < 0 || fclose(f) != 0 ||
	    chmod(path, 0755) < 0) {
		printf("# cannot write %s\n", path);
		exit(99);
	}
	env.bridge_path = path;
	memset(res, 0, sizeof(*res));
	res->verdict = VERDICT_CRASH;
	if (step_bridge_check.run(&ctx, step, res) < 0)
		res->verdict = VERDICT_CRASH;
	json_object_put(step);
}

static void test_bridge_check(void)
{
	char *dir = tu_tmpdir();
	struct step_result res;

	check_with(&res, dir,
		   "#!/bin/sh\n[ \"$1 $2 $3\" = \"-j vlan show\" ] || exit 3\n"
		   "echo '[{\"ifname\":\"vlalabfake0\",\"vlans\":[{\"vlan\":7}]}]'\n",
		   "{\"kind\":\"bridge_check\",\"mdb\":false}");
	is_int(res.verdict, VERDICT_FAIL, "bridge_check: an entry only bridge lists");
	is_str(res.got, "bridge -j vlan show has 'vlalabfake0 vid 7', netlink does not",
	       "bridge_check: names it and the side");
	is_str(res.expected, "guestd's VLAN dump and 'bridge -j vlan show' agree",
	       "bridge_check: expected text");

	check_with(&res, dir,
		   "#!/bin/sh\necho '[{\"mdb\":[{\"dev\":\"vlalabfake0\",\"port\":\"p\","
		   "\"grp\":\"239.1.1.1\",\"state\":\"temp\",\"flags\":[]}],\"router\":{}}]'\n",
		   "{\"kind\":\"bridge_check\",\"vlan\":false}");
	is_int(res.verdict, VERDICT_FAIL, "bridge_check mdb: an entry only bridge lists");
	is_str(res.got, "bridge -j mdb show has 'vlalabfake0 p 239.1.1.1 temp no_offload', netlink does not",
	       "bridge_check mdb: names it");

	check_with(&res, dir, "#!/bin/sh\necho boom >&2\nexit 2\n",
		   "{\"kind\":\"bridge_check\"}");
	is_int(res.verdict, VERDICT_ERROR, "bridge_check: bridge fails");
	ok(strstr(res.reason, "ended with exit status 2: boom") != NULL,
	   "bridge_check: its status and stderr in the reason");

	check_with(&res, dir, "#!/bin/sh\necho 'not json'\n",
		   "{\"kind\":\"bridge_check\"}");
	is_int(res.verdict, VERDICT_ERROR, "bridge_check: output is not JSON");
	ok(strstr(res.reason, "not a JSON array") != NULL,
	   "bridge_check: says so");

	check_with(&res, dir, "#!/bin/sh\nhead -c 2000000 /dev/zero\n",
		   "{\"kind\":\"bridge_check\"}");
	is_int(res.verdict, VERDICT_ERROR, "bridge_check: too much output");
	ok(strstr(res.reason, "wrote more than 1048575 bytes") != NULL,
	   "bridge_check: the bound in the reason");

	check_with(&res, dir, "#!/bin/sh\nexit 0\n",
		   "{\"kind\":\"bridge_check\",\"vlan\":false,\"mdb\":false}");
	is_int(res.verdict, VERDICT_ERROR, "bridge_check: nothing to check");
	tu_rmrf(dir);
}

/*
 * vlan_expect and mdb_expect on this host's own dumps (read only), for an
 * interface no host has: the wait for within_ms, and mdb_expect's default
 * wait kept to half the step's timeout.
 */
static void test_expect_wait(void)
{
	struct step_env env = { .kmsg_path = "/nonexistent" };
	struct step_ctx ctx = { .env = &env };
	struct step_result res;
	struct json_object *step;
	uint64_t t0, ms;

	step = json_tokener_parse("{\"kind\":\"vlan_expect\",\"dev\":\"vlalabfake0\","
				  "\"exactly\":[],\"within_ms\":5000}");
	memset(&res, 0, sizeof(res));
	t0 = guestd_now_us();
	step_vlan_expect.run(&ctx, step, &res);
	ms = (guestd_now_us() - t0) / 1000;
	is_int(res.verdict, VERDICT_PASS, "vlan_expect: holds at once");
	ok(ms < 2000, "vlan_expect: ... and does not wait");
	json_object_put(step);

	step = json_tokener_parse("{\"kind\":\"vlan_expect\",\"dev\":\"vlalabfake0\","
				  "\"has\":[\"7\"],\"within_ms\":150}");
	memset(&res, 0, sizeof(res));
	t0 = guestd_now_us();
	step_vlan_expect.run(&ctx, step, &res);
	ms = (guestd_now_us() - t0) / 1000;
	is_int(res.verdict, VERDICT_FAIL, "vlan_expect: never holds");
	ok(ms >= 150, "vlan_expect: tried for within_ms");
	is_str(res.reason, "vlan_expect 'vlalabfake0', still so after 150 ms",
	       "vlan_expect: the reason says how long");
	is_str(res.got, "vlalabfake0 VLANs: none", "vlan_expect: got");
	json_object_put(step);

	step = json_tokener_parse("{\"kind\":\"mdb_expect\",\"dev\":\"vlalabfake0\","
				  "\"has\":[\"lan1 239.1.1.1 offload\"],\"timeout_ms\":200}");
	memset(&res, 0, sizeof(res));
	t0 = guestd_now_us();
	step_mdb_expect.run(&ctx, step, &res);
	ms = (guestd_now_us() - t0) / 1000;
	is_int(res.verdict, VERDICT_FAIL, "mdb_expect: never holds");
	ok(ms >= 100 && ms < 1500, "mdb_expect: waits half the step's timeout by default");
	is_str(res.reason, "mdb_expect 'vlalabfake0', still so after 100 ms",
	       "mdb_expect: the default wait in the reason");
	json_object_put(step);
}

int main(void)
{
	test_brspec();
	test_requests();
	test_ack();
	test_dumps();
	test_recv_walk();
	test_expect();
	test_bridge_json();
	test_judge();
	test_bridge_check();
	test_expect_wait();
	return tap_done();
}
