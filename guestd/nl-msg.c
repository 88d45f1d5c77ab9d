// SPDX-License-Identifier: GPL-2.0-only
/*
 * rtnetlink messages for the bridge steps: building requests, and parsing
 * ACKs and the VLAN and MDB dumps. Pure: no sockets (nl.c has those), so
 * that the unit tests feed it buffers.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <arpa/inet.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "nl.h"

/* The kernel's errnos are 1..4095 (MAX_ERRNO); it sends them negated. */
#define NL_ERRNO_MAX 4095

/* @v, a negated errno or 0 from the kernel: its errno, or -EBADMSG. */
static int errno_of(int v)
{
	if (v > 0 || v < -NL_ERRNO_MAX)
		return -EBADMSG;
	return -v;
}

int nl_parse_ack(const struct nlmsghdr *nlh, struct nl_ack *ret)
{
	const struct nlmsgerr *e;
	const struct nlattr *a;
	size_t off;

	memset(ret, 0, sizeof(*ret));
	if (nlh->nlmsg_len < sizeof(*nlh))
		return -EBADMSG;
	if (nlh->nlmsg_type == NLMSG_DONE) {
		int v;

		/* A dump ends with its error, 0 when it went well. */
		if (mnl_nlmsg_get_payload_len(nlh) < sizeof(v))
			return 0;
		memcpy(&v, mnl_nlmsg_get_payload(nlh), sizeof(v));
		ret->err = errno_of(v);
		off = sizeof(v);
	} else if (nlh->nlmsg_type == NLMSG_ERROR) {
		if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e))
			return -EBADMSG;
		e = mnl_nlmsg_get_payload(nlh);
		ret->err = errno_of(e->error);
		off = sizeof(*e);
		/* Without NETLINK_CAP_ACK the request follows, whole. */
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
			if (e->msg.nlmsg_len < sizeof(e->msg))
				return -EBADMSG;
			off += NLMSG_ALIGN(e->msg.nlmsg_len) - sizeof(e->msg);
		}
	} else {
		return -EBADMSG;
	}
	if (ret->err < 0) {
		ret->err = 0;
		return -EBADMSG;
	}
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	if (off > mnl_nlmsg_get_payload_len(nlh))
		return -EBADMSG;
	mnl_attr_for_each(a, nlh, off) {
		if (mnl_attr_get_type(a) != NLMSGERR_ATTR_MSG)
			continue;
		if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
			return -EBADMSG;
		snprintf(ret->extack, sizeof(ret->extack), "%s",
			 mnl_attr_get_str(a));
	}
	return 0;
}

/*
 * mnl_nlmsg_ok() compares nlmsg_len with the bytes left as an int, so a
 * length of 2 GiB or more passes it and mnl_nlmsg_next() then steps out of
 * the datagram: only a message that fits is one.
 */
static bool msg_ok(const struct nlmsghdr *m, int left)
{
	return mnl_nlmsg_ok(m, left) && m->nlmsg_len <= (uint32_t)left;
}

int nl_recv_walk(const void *buf, size_t len, uint32_t seq, uint32_t portid,
		 int (*cb)(const struct nlmsghdr *, void *), void *data,
		 struct nl_ack *ack)
{
	const struct nlmsghdr *m;
	int left, r;

	if (len > NL_RECV_MAX)
		return -EMSGSIZE;
	left = (int)len;
	for (m = buf; msg_ok(m, left); m = mnl_nlmsg_next(m, &left)) {
		if (m->nlmsg_seq != seq || m->nlmsg_pid != portid)
			continue;
		if (m->nlmsg_type == NLMSG_ERROR ||
		    m->nlmsg_type == NLMSG_DONE) {
			r = nl_parse_ack(m, ack);
			return r < 0 ? r : 1;
		}
		if (m->nlmsg_type < NLMSG_MIN_TYPE || !cb)
			continue;
		r = cb(m, data);
		if (r < 0)
			return r;
	}
	return 0;
}

static struct nlmsghdr *msg_new(void *buf, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	return nlh;
}

static struct ifinfomsg *put_ifinfo(struct nlmsghdr *nlh, int family,
				    int ifindex)
{
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));

	ifi->ifi_family = (unsigned char)family;
	ifi->ifi_index = ifindex;
	return ifi;
}

struct nlmsghdr *nl_msg_bridge_add(void *buf, const char *name,
				   const struct nl_bridge_opts *o)
{
	struct nlmsghdr *nlh =
		msg_new(buf, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	struct nlattr *info, *data;

	put_ifinfo(nlh, AF_UNSPEC, 0);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bridge");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	if (o->vlan_filtering >= 0)
		mnl_attr_put_u8(nlh, IFLA_BR_VLAN_FILTERING,
				(uint8_t)o->vlan_filtering);
	if (o->mcast_snooping >= 0)
		mnl_attr_put_u8(nlh, IFLA_BR_MCAST_SNOOPING,
				(uint8_t)o->mcast_snooping);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, info);
	return nlh;
}

struct nlmsghdr *nl_msg_link_del(void *buf, int ifindex)
{
	struct nlmsghdr *nlh = msg_new(buf, RTM_DELLINK, 0);

	put_ifinfo(nlh, AF_UNSPEC, ifindex);
	return nlh;
}

struct nlmsghdr *nl_msg_link_set(void *buf, int ifindex, int master, int up)
{
	struct nlmsghdr *nlh = msg_new(buf, RTM_NEWLINK, 0);
	struct ifinfomsg *ifi = put_ifinfo(nlh, AF_UNSPEC, ifindex);

	if (up >= 0) {
		ifi->ifi_change = IFF_UP;
		ifi->ifi_flags = up ? IFF_UP : 0;
	}
	if (master >= 0)
		mnl_attr_put_u32(nlh, IFLA_MASTER, (uint32_t)master);
	return nlh;
}

struct nlmsghdr *nl_msg_vlan(void *buf, bool add, int ifindex,
			     const struct brspec_vlan *v, bool self)
{
	struct nlmsghdr *nlh = msg_new(buf, add ? RTM_SETLINK : RTM_DELLINK, 0);
	struct bridge_vlan_info info = { .vid = v->vid };
	struct nlattr *spec;

	if (v->pvid)
		info.flags |= BRIDGE_VLAN_INFO_PVID;
	if (v->untagged)
		info.flags |= BRIDGE_VLAN_INFO_UNTAGGED;
	put_ifinfo(nlh, AF_BRIDGE, ifindex);
	spec = mnl_attr_nest_start(nlh, IFLA_AF_SPEC);
	if (self)
		mnl_attr_put_u16(nlh, IFLA_BRIDGE_FLAGS, BRIDGE_FLAGS_SELF);
	mnl_attr_put(nlh, IFLA_BRIDGE_VLAN_INFO, sizeof(info), &info);
	mnl_attr_nest_end(nlh, spec);
	return nlh;
}

static struct br_port_msg *put_port_msg(struct nlmsghdr *nlh, int ifindex)
{
	struct br_port_msg *bpm = mnl_nlmsg_put_extra_header(nlh, sizeof(*bpm));

	bpm->family = AF_BRIDGE;
	bpm->ifindex = (uint32_t)ifindex;
	return bpm;
}

struct nlmsghdr *nl_msg_mdb(void *buf, bool add, const struct nl_mdb_req *m)
{
	struct nlmsghdr *nlh = msg_new(buf, add ? RTM_NEWMDB : RTM_DELMDB,
				       add ? NLM_F_CREATE | NLM_F_EXCL : 0);
	struct br_mdb_entry e = {
		.ifindex = (uint32_t)m->port,
		.state = m->permanent ? MDB_PERMANENT : MDB_TEMPORARY,
		.vid = m->vid,
		.addr.proto = htons(m->group.proto),
	};

	memcpy(&e.addr.u, m->group.addr, sizeof(e.addr.u));
	put_port_msg(nlh, m->bridge);
	mnl_attr_put(nlh, MDBA_SET_ENTRY, sizeof(e), &e);
	return nlh;
}

struct nlmsghdr *nl_msg_vlan_dump(void *buf)
{
	struct nlmsghdr *nlh = msg_new(buf, RTM_GETLINK, NLM_F_DUMP);

	put_ifinfo(nlh, AF_BRIDGE, 0);
	mnl_attr_put_u32(nlh, IFLA_EXT_MASK, RTEXT_FILTER_BRVLAN);
	return nlh;
}

struct nlmsghdr *nl_msg_mdb_dump(void *buf)
{
	struct nlmsghdr *nlh = msg_new(buf, RTM_GETMDB, NLM_F_DUMP);

	put_port_msg(nlh, 0);
	return nlh;
}

void nl_vlans_free(struct nl_vlans *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

void nl_mdbs_free(struct nl_mdbs *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static int grow(void **v, size_t n, size_t size)
{
	void *p;

	if (n >= NL_DUMP_MAX)
		return -E2BIG;
	p = realloc(*v, (n + 1) * size);
	if (!p)
		return -ENOMEM;
	*v = p;
	return 0;
}

int nl_vlans_add(struct nl_vlans *l, const struct nl_vlan *e)
{
	int r = grow((void **)&l->v, l->n, sizeof(*e));

	if (r == 0)
		l->v[l->n++] = *e;
	return r;
}

int nl_mdbs_add(struct nl_mdbs *l, const struct nl_mdb *e)
{
	int r = grow((void **)&l->v, l->n, sizeof(*e));

	if (r == 0)
		l->v[l->n++] = *e;
	return r;
}

int nl_parse_vlans(const struct nlmsghdr *nlh, struct nl_vlans *l)
{
	const struct ifinfomsg *ifi;
	const struct nlattr *a, *spec = NULL;
	struct nl_vlan e = { 0 };
	int r;

	if (nlh->nlmsg_type != RTM_NEWLINK)
		return 0;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifi))
		return -EBADMSG;
	ifi = mnl_nlmsg_get_payload(nlh);
	if (ifi->ifi_family != AF_BRIDGE)
		return 0;
	e.ifindex = ifi->ifi_index;
	mnl_attr_for_each(a, nlh, sizeof(*ifi)) {
		if (mnl_attr_get_type(a) == IFLA_IFNAME) {
			if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
				return -EBADMSG;
			snprintf(e.ifname, sizeof(e.ifname), "%s",
				 mnl_attr_get_str(a));
		} else if (mnl_attr_get_type(a) == IFLA_AF_SPEC) {
			if (mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
				return -EBADMSG;
			spec = a;
		}
	}
	if (!spec)
		return 0;
	mnl_attr_for_each_nested(a, spec) {
		const struct bridge_vlan_info *info;

		if (mnl_attr_get_type(a) != IFLA_BRIDGE_VLAN_INFO)
			continue;
		if (mnl_attr_get_payload_len(a) < sizeof(*info))
			return -EBADMSG;
		info = mnl_attr_get_payload(a);
		e.vid = info->vid;
		e.pvid = info->flags & BRIDGE_VLAN_INFO_PVID;
		e.untagged = info->flags & BRIDGE_VLAN_INFO_UNTAGGED;
		r = nl_vlans_add(l, &e);
		if (r < 0)
			return r;
	}
	return 0;
}

/* MDBA_MDB_ENTRY: MDBA_MDB_ENTRY_INFO attributes, each one entry. */
static int parse_mdb_entry(const struct nlattr *entry, int bridge,
			   struct nl_mdbs *l)
{
	const struct nlattr *a;
	int r;

	mnl_attr_for_each_nested(a, entry) {
		const struct br_mdb_entry *be;
		struct nl_mdb e = { .bridge = bridge };

		if (mnl_attr_get_type(a) != MDBA_MDB_ENTRY_INFO)
			continue;
		/* The struct, then MDBA_MDB_EATTR_* (timer, source...). */
		if (mnl_attr_get_payload_len(a) < sizeof(*be))
			return -EBADMSG;
		be = mnl_attr_get_payload(a);
		e.port = (int)be->ifindex;
		e.vid = be->vid;
		e.permanent = be->state == MDB_PERMANENT;
		e.offload = be->flags & MDB_FLAGS_OFFLOAD;
		e.group.proto = ntohs(be->addr.proto);
		if (e.group.proto == 0x0800)
			memcpy(e.group.addr, &be->addr.u.ip4, 4);
		else if (e.group.proto == 0x86dd)
			memcpy(e.group.addr, &be->addr.u.ip6, 16);
		else
			memcpy(e.group.addr, be->addr.u.mac_addr, 6);
		r = nl_mdbs_add(l, &e);
		if (r < 0)
			return r;
	}
	return 0;
}

int nl_parse_mdbs(const struct nlmsghdr *nlh, struct nl_mdbs *l)
{
	const struct br_port_msg *bpm;
	const struct nlattr *a, *b;
	int r;

	/* A dump's messages are RTM_GETMDB; notifications RTM_NEWMDB. */
	if (nlh->nlmsg_type != RTM_GETMDB && nlh->nlmsg_type != RTM_NEWMDB)
		return 0;
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*bpm))
		return -EBADMSG;
	bpm = mnl_nlmsg_get_payload(nlh);
	mnl_attr_for_each(a, nlh, sizeof(*bpm)) {
		if (mnl_attr_get_type(a) != MDBA_MDB)
			continue;
		if (mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
			return -EBADMSG;
		mnl_attr_for_each_nested(b, a) {
			if (mnl_attr_get_type(b) != MDBA_MDB_ENTRY)
				continue;
			if (mnl_attr_validate(b, MNL_TYPE_NESTED) < 0)
				return -EBADMSG;
			r = parse_mdb_entry(b, (int)bpm->ifindex, l);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

int nl_vlan_key_cmp(const struct nl_vlan *a, const struct nl_vlan *b)
{
	int r = strcmp(a->ifname, b->ifname);

	if (r)
		return r;
	return (int)a->vid - (int)b->vid;
}

static int vlan_qcmp(const void *a, const void *b)
{
	return nl_vlan_key_cmp(a, b);
}

void nl_vlans_sort(struct nl_vlans *l)
{
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), vlan_qcmp);
}

int nl_mdb_key_cmp(const struct nl_mdb *a, const struct nl_mdb *b)
{
	int r = strcmp(a->bridge_name, b->bridge_name);

	if (!r)
		r = strcmp(a->port_name, b->port_name);
	if (!r)
		r = (int)a->group.proto - (int)b->group.proto;
	if (!r)
		r = memcmp(a->group.addr, b->group.addr, sizeof(a->group.addr));
	if (!r)
		r = (int)a->vid - (int)b->vid;
	return r;
}

static int mdb_qcmp(const void *a, const void *b)
{
	return nl_mdb_key_cmp(a, b);
}

void nl_mdbs_sort(struct nl_mdbs *l)
{
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), mdb_qcmp);
}

void nl_vlan_fmt(const struct nl_vlan *e, char *buf, size_t size)
{
	snprintf(buf, size, "%s vid %u%s%s", e->ifname, e->vid,
		 e->pvid ? " pvid" : "", e->untagged ? " untagged" : "");
}

void nl_mdb_fmt(const struct nl_mdb *e, char *buf, size_t size)
{
	char grp[64], vid[16] = "";

	brspec_group_fmt(&e->group, grp, sizeof(grp));
	if (e->vid)
		snprintf(vid, sizeof(vid), " vid %u", e->vid);
	snprintf(buf, size, "%s %s %s%s %s %s", e->bridge_name, e->port_name,
		 grp, vid, e->permanent ? "permanent" : "temp",
		 e->offload ? "offload" : "no_offload");
}
