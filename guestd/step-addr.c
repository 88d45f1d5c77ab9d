// SPDX-License-Identifier: GPL-2.0-only
/*
 * addr_add: `ip addr add A/N dev D; ip link set D up` and, with gateway,
 * `ip route add default via G`, through the classic ioctls. A hostile
 * guest can do as much on any NIC it has; the hostctl-guest-egress test
 * does it to show that the NIC of a scenario with "nic": true still
 * reaches nothing. expect_errno ENODEV passes where there is no such
 * interface.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <net/route.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "guestd.h"
#include "stepspec.h"

static void sin_set(struct sockaddr *sa, struct in_addr a)
{
	struct sockaddr_in *in = (struct sockaddr_in *)sa;

	memset(in, 0, sizeof(*in));
	in->sin_family = AF_INET;
	in->sin_addr = a;
}

/*
 * Configure @dev; returns 0, or a positive errno with @where naming the
 * ioctl that failed.
 */
static int addr_apply(int fd, const char *dev, struct in_addr a,
		      unsigned int prefix, const struct in_addr *gw,
		      const char **where)
{
	struct in_addr mask = { .s_addr = prefix ? htonl(~0u << (32 - prefix)) :
						   0 };
	struct rtentry rt;
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	sin_set(&ifr.ifr_addr, a);
	*where = "SIOCSIFADDR";
	if (ioctl(fd, SIOCSIFADDR, &ifr) < 0)
		return errno;
	sin_set(&ifr.ifr_netmask, mask);
	*where = "SIOCSIFNETMASK";
	if (ioctl(fd, SIOCSIFNETMASK, &ifr) < 0)
		return errno;
	*where = "SIOCGIFFLAGS";
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		return errno;
	ifr.ifr_flags |= IFF_UP;
	*where = "SIOCSIFFLAGS";
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		return errno;
	if (!gw)
		return 0;
	memset(&rt, 0, sizeof(rt));
	sin_set(&rt.rt_dst, (struct in_addr){ 0 });
	sin_set(&rt.rt_genmask, (struct in_addr){ 0 });
	sin_set(&rt.rt_gateway, *gw);
	rt.rt_flags = RTF_UP | RTF_GATEWAY;
	rt.rt_dev = ifr.ifr_name;
	*where = "SIOCADDRT";
	if (ioctl(fd, SIOCADDRT, &rt) < 0)
		return errno;
	return 0;
}

static int addr_add_run(struct step_ctx *ctx, struct json_object *step,
			struct step_result *res)
{
	const char *dev = step_str(step, "dev");
	const char *addr = step_str(step, "addr");
	const char *gateway = step_str(step, "gateway");
	const char *expect = step_str(step, "expect_errno");
	const char *where = "socket";
	struct in_addr a, gw;
	unsigned int prefix;
	char what[256];
	int want = 0, err, fd;

	(void)ctx;
	if (expect && proto_errno_parse(expect, &want) < 0) {
		step_error(res, "unknown errno name '%s'", expect);
		return 0;
	}
	if (stepspec_ipv4_prefix(addr, &a, &prefix) < 0 ||
	    (gateway && inet_pton(AF_INET, gateway, &gw) != 1)) {
		step_error(res, "addr_add: '%s' or its gateway is no address",
			   addr);
		return 0;
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	err = fd < 0 ? errno :
		       addr_apply(fd, dev, a, prefix, gateway ? &gw : NULL,
				  &where);
	if (fd >= 0)
		close(fd);
	if (err == want) {
		res->verdict = VERDICT_PASS;
		return 0;
	}
	util_fmt(what, sizeof(what), "%s on '%s'", where, dev);
	snprintf(res->reason, sizeof(res->reason), "addr_add '%s' dev '%s'",
		 addr, dev);
	if (!step_errno_mismatch(res, want, err, what))
		step_got(res, "success: '%s' has %s%s%s", dev, addr,
			 gateway ? ", default via " : "",
			 gateway ? gateway : "");
	return 0;
}

const struct step_ops step_addr_add = {
	.name = "addr_add",
	.run = addr_add_run,
};
