// SPDX-License-Identifier: GPL-2.0-only
/*
 * The NETLINK_ROUTE socket of the bridge steps: one request and its ACK,
 * or one dump. Each call opens its own socket with extended ACKs
 * (NETLINK_EXT_ACK) and capped ACKs (NETLINK_CAP_ACK), so the kernel's
 * extack message comes back and the request does not.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "nl.h"

static void sock_closep(struct mnl_socket **s)
{
	if (*s)
		mnl_socket_close(*s);
}

static void buf_freep(char **p)
{
	free(*p);
}

/* One interface ioctl (SIOCGIFINDEX, SIOCGIFNAME) on a netlink socket. */
static int if_ioctl(unsigned long cmd, struct ifreq *ifr)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	int r = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, cmd, ifr) < 0)
		r = -errno;
	close(fd);
	return r;
}

int nl_if_index(const char *name, int *ret)
{
	struct ifreq ifr = { 0 };
	int r;

	if (strlen(name) >= sizeof(ifr.ifr_name))
		return -ENODEV;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	r = if_ioctl(SIOCGIFINDEX, &ifr);
	if (r == 0)
		*ret = ifr.ifr_ifindex;
	return r;
}

int nl_if_name(int ifindex, char *buf)
{
	struct ifreq ifr = { .ifr_ifindex = ifindex };
	int r = if_ioctl(SIOCGIFNAME, &ifr);

	if (r == 0)
		snprintf(buf, IF_NAMESIZE, "%.*s", IF_NAMESIZE - 1,
			 ifr.ifr_name);
	return r;
}

static int sock_open(struct mnl_socket **ret)
{
	struct mnl_socket *s = mnl_socket_open(NETLINK_ROUTE);
	int one = 1;

	if (!s)
		return -errno;
	/* Both are best effort: without them the errno still comes back. */
	mnl_socket_setsockopt(s, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(s, NETLINK_CAP_ACK, &one, sizeof(one));
	if (mnl_socket_bind(s, 0, MNL_SOCKET_AUTOPID) < 0) {
		int err = errno;

		mnl_socket_close(s);
		return -err;
	}
	*ret = s;
	return 0;
}

/*
 * Send @nlh and read the answers: messages of our sequence go to @cb
 * (when set) until an NLMSG_ERROR (the ACK) or NLMSG_DONE (a dump's end),
 * which fills @ack. Returns 0 when the kernel answered, or -errno.
 */
static int exchange(struct nlmsghdr *nlh,
		    int (*cb)(const struct nlmsghdr *, void *), void *data,
		    struct nl_ack *ack)
{
	struct mnl_socket *s __attribute__((cleanup(sock_closep))) = NULL;
	char *buf __attribute__((cleanup(buf_freep))) = NULL;
	uint32_t portid, seq = (uint32_t)time(NULL);
	int r;

	r = sock_open(&s);
	if (r < 0)
		return r;
	buf = malloc(NL_RECV_MAX);
	if (!buf)
		return -ENOMEM;
	portid = mnl_socket_get_portid(s);
	nlh->nlmsg_seq = seq;
	if (mnl_socket_sendto(s, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(s, buf, NL_RECV_MAX);

		if (n < 0)
			return errno == ENOBUFS ? -ENOBUFS : -errno;
		r = nl_recv_walk(buf, (size_t)n, seq, portid, cb, data, ack);
		if (r != 0)
			return r < 0 ? r : 0;
	}
}

int nl_talk(struct nlmsghdr *nlh, struct nl_ack *ack)
{
	nlh->nlmsg_flags |= NLM_F_ACK;
	return exchange(nlh, NULL, NULL, ack);
}

int nl_dump(struct nlmsghdr *nlh, int (*cb)(const struct nlmsghdr *, void *),
	    void *data, struct nl_ack *ack)
{
	int r = exchange(nlh, cb, data, ack);

	if (r == 0 && ack->err)
		return -ack->err;
	return r;
}

static int vlans_cb(const struct nlmsghdr *nlh, void *data)
{
	return nl_parse_vlans(nlh, data);
}

static int mdbs_cb(const struct nlmsghdr *nlh, void *data)
{
	return nl_parse_mdbs(nlh, data);
}

int nl_dump_vlans(struct nl_vlans *ret, struct nl_ack *ack)
{
	char buf[NL_MSG_MAX];
	struct nl_vlans l = { 0 };
	int r;

	r = nl_dump(nl_msg_vlan_dump(buf), vlans_cb, &l, ack);
	if (r < 0) {
		nl_vlans_free(&l);
		return r;
	}
	nl_vlans_sort(&l);
	*ret = l;
	return 0;
}

/* @ifindex's name (nl_if_name()) into @buf, or "if<ifindex>". */
static void ifname_of(int ifindex, char *buf)
{
	char tmp[IF_NAMESIZE];

	if (ifindex > 0 && nl_if_name(ifindex, tmp) == 0)
		snprintf(buf, BRSPEC_IFNAME_MAX, "%s", tmp);
	else
		snprintf(buf, BRSPEC_IFNAME_MAX, "if%d", ifindex);
}

/* Fill the MDB names from the ifindexes. */
static void mdbs_name(struct nl_mdbs *l)
{
	for (size_t i = 0; i < l->n; i++) {
		ifname_of(l->v[i].bridge, l->v[i].bridge_name);
		ifname_of(l->v[i].port, l->v[i].port_name);
	}
}

int nl_dump_mdbs(struct nl_mdbs *ret, struct nl_ack *ack)
{
	char buf[NL_MSG_MAX];
	struct nl_mdbs l = { 0 };
	int r;

	r = nl_dump(nl_msg_mdb_dump(buf), mdbs_cb, &l, ack);
	if (r < 0) {
		nl_mdbs_free(&l);
		return r;
	}
	mdbs_name(&l);
	nl_mdbs_sort(&l);
	*ret = l;
	return 0;
}
