// SPDX-License-Identifier: GPL-2.0-only
/*
 * connect: a TCP connect to an address and port, bounded by within_ms
 * (default STEPSPEC_CONNECT_WITHIN_MS), whose outcome is the verdict:
 * with expect "connect" the connection must be made, with "fail" it must
 * not (refused, no route, or no answer in time). A connection made is
 * closed at once; nothing is sent on it. The hostctl-guest-egress test
 * aims these at the host (10.0.2.2, what QEMU's user network maps to the
 * host's 127.0.0.1) and beyond, which a guest must not reach.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "guestd.h"
#include "stepspec.h"

/* How a connect ended: connected, an errno, or no answer in time. */
struct conn_outcome {
	bool connected;
	bool timed_out;
	int err;
};

static int conn_try(const struct sockaddr_storage *ss, socklen_t len,
		    uint64_t within_ms, struct conn_outcome *out)
{
	uint64_t end = guestd_now_us() + within_ms * 1000;
	struct pollfd p;
	socklen_t elen = sizeof(out->err);
	int fd, r;

	memset(out, 0, sizeof(*out));
	fd = socket(ss->ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (const struct sockaddr *)ss, len) == 0) {
		out->connected = true;
		goto out;
	}
	if (errno != EINPROGRESS) {
		out->err = errno;
		goto out;
	}
	p = (struct pollfd){ .fd = fd, .events = POLLOUT };
	for (;;) {
		uint64_t now = guestd_now_us();

		if (now >= end) {
			out->timed_out = true;
			goto out;
		}
		r = poll(&p, 1, (int)((end - now + 999) / 1000));
		if (r > 0)
			break;
		if (r < 0 && errno != EINTR) {
			r = -errno;
			close(fd);
			return r;
		}
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &out->err, &elen) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	out->connected = out->err == 0;
out:
	close(fd);
	return 0;
}

static int connect_run(struct step_ctx *ctx, struct json_object *step,
		       struct step_result *res)
{
	const char *addr = step_str(step, "addr");
	int64_t port = step_int(step, "port", 0);
	bool want = strcmp(step_str(step, "expect"), "connect") == 0;
	uint64_t within = (uint64_t)step_int(step, "within_ms",
					     STEPSPEC_CONNECT_WITHIN_MS);
	struct sockaddr_storage ss;
	struct conn_outcome o;
	socklen_t len;
	int r;

	(void)ctx;
	if (stepspec_ip_addr(addr, &ss, &len) < 0 || port < 1 || port > 65535) {
		step_error(res,
			   "connect: '%s' port %" PRId64
			   " is not an IP address and port",
			   addr, port);
		return 0;
	}
	if (ss.ss_family == AF_INET)
		((struct sockaddr_in *)&ss)->sin_port = htons((uint16_t)port);
	else
		((struct sockaddr_in6 *)&ss)->sin6_port = htons((uint16_t)port);
	r = conn_try(&ss, len, within, &o);
	if (r < 0) {
		step_error(res, "connect to '%s' port %" PRId64 ": %s", addr,
			   port, strerror(-r));
		return 0;
	}
	if (o.connected)
		step_got(res, "connected to '%s' port %" PRId64, addr, port);
	else if (o.timed_out)
		step_got(res,
			 "no answer from '%s' port %" PRId64 " within %" PRIu64
			 " ms",
			 addr, port, within);
	else
		step_got(res,
			 "errno %s from connect to '%s' port %" PRId64 " (%s)",
			 proto_errno_name(o.err), addr, port, strerror(o.err));
	if (o.connected == want) {
		res->verdict = VERDICT_PASS;
		return 0;
	}
	res->verdict = VERDICT_FAIL;
	snprintf(res->reason, sizeof(res->reason),
		 "a TCP connect to '%s' port %" PRId64 " %s", addr, port,
		 want ? "did not connect" : "connected");
	step_expected(res, want ? "a connection" : "no connection");
	return 0;
}

const struct step_ops step_connect = {
	.name = "connect",
	.run = connect_run,
};
