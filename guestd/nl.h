/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rtnetlink for the bridge steps, over libmnl: building the requests, the
 * ACK with the kernel's errno and extack message, and the VLAN and MDB
 * dumps. Building and parsing are pure and take buffers, so the unit tests
 * drive them without a kernel; nl_talk() and nl_dump() do the I/O.
 */
#ifndef VLALAB_GUESTD_NL_H
#define VLALAB_GUESTD_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>
#include <libmnl/libmnl.h>

#include "brspec.h"

#define NL_EXTACK_MAX 512
/* A request's buffer (libmnl's MNL_SOCKET_BUFFER_SIZE is not a constant). */
#define NL_MSG_MAX 8192
/* A receive buffer: what the kernel puts in one dump datagram at most. */
#define NL_RECV_MAX 32768
/* Entries a dump may hold before it is cut off (and reported as such). */
#define NL_DUMP_MAX 4096

/*
 * An interface's index by name, or its name (IF_NAMESIZE bytes) by index,
 * through SIOCGIFINDEX/SIOCGIFNAME on a NETLINK_ROUTE socket of their own.
 * Not glibc's if_nametoindex(): that opens a socket of the first family
 * that works, so a failed allocation there is quietly retried with
 * another family, which lets a step under a fault go on and do its work
 * with the fault spent. Here a failure is the step's. Returns 0 or -errno.
 */
int nl_if_index(const char *name, int *ret);
int nl_if_name(int ifindex, char *buf);

/* What the kernel answered to one request. */
struct nl_ack {
	int err; /* positive errno, or 0 */
	char extack[NL_EXTACK_MAX]; /* NLMSGERR_ATTR_MSG, or "" */
};

/*
 * Parse an NLMSG_ERROR message (an ACK when its error is 0), or the
 * NLMSG_DONE ending a dump, into @ret. Returns 0, or -EBADMSG when @nlh is
 * neither or is malformed.
 */
int nl_parse_ack(const struct nlmsghdr *nlh, struct nl_ack *ret);

/*
 * Walk one datagram (@len bytes, at most NL_RECV_MAX) of the kernel's
 * answer to request @seq of socket @portid: messages of other requests
 * are skipped, and @cb (may be NULL) gets each other message until an
 * NLMSG_ERROR or NLMSG_DONE, which fills @ack. Returns 1 when that ended
 * the answer, 0 when more datagrams are to come, -EBADMSG for a malformed
 * ACK, -EMSGSIZE for a datagram over NL_RECV_MAX, or the first negative
 * value @cb returned.
 */
int nl_recv_walk(const void *buf, size_t len, uint32_t seq, uint32_t portid,
		 int (*cb)(const struct nlmsghdr *, void *), void *data,
		 struct nl_ack *ack);

/* The requests. Each fills @buf, NL_MSG_MAX bytes. */
struct nl_bridge_opts {
	int vlan_filtering; /* 1, 0, or -1 to leave the default */
	int mcast_snooping; /* likewise */
};

struct nlmsghdr *nl_msg_bridge_add(void *buf, const char *name,
				   const struct nl_bridge_opts *o);
struct nlmsghdr *nl_msg_link_del(void *buf, int ifindex);
/* @master: an ifindex, 0 to release, -1 to leave; @up: 1, 0, or -1. */
struct nlmsghdr *nl_msg_link_set(void *buf, int ifindex, int master, int up);
struct nlmsghdr *nl_msg_vlan(void *buf, bool add, int ifindex,
			     const struct brspec_vlan *v, bool self);

struct nl_mdb_req {
	int bridge; /* ifindex of the bridge */
	int port; /* ifindex of the port */
	struct brspec_group group;
	uint16_t vid;
	bool permanent;
};

struct nlmsghdr *nl_msg_mdb(void *buf, bool add, const struct nl_mdb_req *m);
/* Dump requests: every bridge port's VLANs; every bridge's MDB. */
struct nlmsghdr *nl_msg_vlan_dump(void *buf);
struct nlmsghdr *nl_msg_mdb_dump(void *buf);

/* One VLAN of one port (or bridge, for its own "self" VLANs). */
struct nl_vlan {
	int ifindex;
	char ifname[BRSPEC_IFNAME_MAX];
	uint16_t vid;
	bool pvid;
	bool untagged;
};

/* One MDB entry. */
struct nl_mdb {
	int bridge;
	int port;
	char bridge_name[BRSPEC_IFNAME_MAX];
	char port_name[BRSPEC_IFNAME_MAX];
	struct brspec_group group;
	uint16_t vid;
	bool permanent;
	bool offload;
};

struct nl_vlans {
	struct nl_vlan *v;
	size_t n;
};

struct nl_mdbs {
	struct nl_mdb *v;
	size_t n;
};

void nl_vlans_free(struct nl_vlans *l);
void nl_mdbs_free(struct nl_mdbs *l);
/* Append @e; -E2BIG past NL_DUMP_MAX, or -ENOMEM. */
int nl_vlans_add(struct nl_vlans *l, const struct nl_vlan *e);
int nl_mdbs_add(struct nl_mdbs *l, const struct nl_mdb *e);

/*
 * Parse one message of a dump into @l: an RTM_NEWLINK (AF_BRIDGE) with
 * IFLA_AF_SPEC VLANs, or an RTM_GETMDB/RTM_NEWMDB (the kernel's MDB dump
 * uses the former). Other messages are skipped.
 * Returns 0, -EBADMSG for a malformed message, or what _add returns.
 */
int nl_parse_vlans(const struct nlmsghdr *nlh, struct nl_vlans *l);
int nl_parse_mdbs(const struct nlmsghdr *nlh, struct nl_mdbs *l);

/*
 * The order of the lists: VLANs by interface name and VID; MDB entries by
 * bridge and port name, protocol (L2 is 0), group, VID. Flags don't count.
 */
int nl_vlan_key_cmp(const struct nl_vlan *a, const struct nl_vlan *b);
int nl_mdb_key_cmp(const struct nl_mdb *a, const struct nl_mdb *b);
void nl_vlans_sort(struct nl_vlans *l);
void nl_mdbs_sort(struct nl_mdbs *l);

/* "lan1 vid 10 pvid untagged", "br0 lan1 239.1.1.1 vid 10 permanent offload" */
void nl_vlan_fmt(const struct nl_vlan *e, char *buf, size_t size);
void nl_mdb_fmt(const struct nl_mdb *e, char *buf, size_t size);

/* ---- the socket ---- */

/*
 * Send @nlh (flagged NLM_F_ACK here) on a fresh NETLINK_ROUTE socket with
 * extended ACKs, and read the answer into @ack. Returns 0 when the kernel
 * answered (@ack says how), or -errno for a socket problem.
 */
int nl_talk(struct nlmsghdr *nlh, struct nl_ack *ack);
/*
 * Send the dump request @nlh and call @cb on each message until
 * NLMSG_DONE. A negative @cb return stops it and is returned; a failed
 * dump returns -errno with @ack filled.
 */
int nl_dump(struct nlmsghdr *nlh, int (*cb)(const struct nlmsghdr *, void *),
	    void *data, struct nl_ack *ack);

/* The VLANs of every port and the MDB of every bridge, sorted and named. */
int nl_dump_vlans(struct nl_vlans *ret, struct nl_ack *ack);
int nl_dump_mdbs(struct nl_mdbs *ret, struct nl_ack *ack);

/* ---- brexpect.c: a dump against what a step expects (pure) ---- */

/*
 * Check @dump's VLANs of interface @dev against arrays of brspec.h VLAN
 * texts (any may be NULL): @has must be there with exactly those flags,
 * @lacks (VIDs) must not, @exactly is the whole set. Returns 0 when all
 * hold, 1 with @expected and @got describing the first that does not, or
 * -EINVAL with the reason in @got for a bad text.
 */
int br_vlans_expect(const struct nl_vlans *dump, const char *dev,
		    struct json_object *has, struct json_object *lacks,
		    struct json_object *exactly, char *expected, char *got,
		    size_t size);
/*
 * The same for the MDB of bridge @dev with brspec.h MDB texts: entries
 * are told apart by port, group and vid; permanent/temp and
 * offload/no_offload are checked only when a text gives them. @exactly
 * leaves out the bridge's own entries (port = @dev) unless a text names
 * @dev as its port.
 */
int br_mdbs_expect(const struct nl_mdbs *dump, const char *dev,
		   struct json_object *has, struct json_object *lacks,
		   struct json_object *exactly, char *expected, char *got,
		   size_t size);
/*
 * Compare two sorted lists; on the first difference return 1 and describe
 * it in @diff, naming @a_name and @b_name ("netlink", "bridge -j vlan
 * show"). Returns 0 when they are equal.
 */
int br_vlans_diff(const struct nl_vlans *a, const struct nl_vlans *b,
		  const char *a_name, const char *b_name, char *diff,
		  size_t size);
int br_mdbs_diff(const struct nl_mdbs *a, const struct nl_mdbs *b,
		 const char *a_name, const char *b_name, char *diff,
		 size_t size);

/* ---- brjson.c: iproute2's `bridge -j` output (pure) ---- */

/*
 * Parse `bridge -j vlan show` / `bridge -j mdb show` into a sorted list.
 * Returns 0, or -EINVAL with the reason in @err.
 */
int brjson_vlans(const char *text, struct nl_vlans *ret, char *err,
		 size_t errlen);
int brjson_mdbs(const char *text, struct nl_mdbs *ret, char *err,
		size_t errlen);

#endif
