// SPDX-License-Identifier: GPL-2.0-only
/*
 * bridge_check: iproute2 as a second opinion. Runs `bridge -j vlan show`
 * and `bridge -j mdb show` (fork and exec, no shell, output bounded),
 * parses their JSON (brjson.c) and compares it with guestd's own netlink
 * dumps (brexpect.c), failing on the first difference.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guestd.h"
#include "nl.h"

#define BRIDGE_PATH "/usr/sbin/bridge"
#define BRIDGE_OUTPUT_MAX (1024 * 1024)
#define BRIDGE_STDERR_MAX 1024

/* Read what @fd has into @buf (up to @max, NUL-terminated); 0 at EOF. */
static int drain(int fd, char *buf, size_t *len, size_t max, bool *full)
{
	char scratch[4096];
	ssize_t n;

	if (*len + 1 < max)
		n = read(fd, buf + *len, max - 1 - *len);
	else
		n = read(fd, scratch, sizeof(scratch));
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 1 : -errno;
	if (n == 0)
		return 0;
	if (*len + 1 >= max)
		*full = true;
	else
		*len += (size_t)n;
	buf[*len] = '\0';
	return 1;
}

/*
 * Run BRIDGE_PATH -j @what show; on success *ret_out holds stdout. On
 * failure @why says what happened (exit status, stderr). Returns 0 or
 * -errno (-EIO: the command failed, -E2BIG: too much output).
 */
static int run_bridge(const char *path, const char *what, char **ret_out,
		      char *why, size_t size)
{
	char *argv[] = { (char *)path, "-j", (char *)what, "show", NULL };
	char *out = NULL, err[BRIDGE_STDERR_MAX] = "", status_text[64];
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, status = 0, r = 0;
	size_t olen = 0, elen = 0;
	bool full = false, efull = false;
	pid_t pid;

	out = malloc(BRIDGE_OUTPUT_MAX);
	if (!out)
		return -ENOMEM;
	out[0] = '\0';
	if (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0) {
		r = -errno;
		snprintf(why, size, "pipe: %s", strerror(-r));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		r = -errno;
		snprintf(why, size, "fork: %s", strerror(-r));
		goto out;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		if (null >= 0)
			dup2(null, 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		execv(path, argv);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	po[1] = pe[1] = -1;
	for (bool oopen = true, eopen = true; oopen || eopen;) {
		struct pollfd fds[2] = {
			{ .fd = oopen ? po[0] : -1, .events = POLLIN },
			{ .fd = eopen ? pe[0] : -1, .events = POLLIN },
		};

		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		if (oopen && fds[0].revents) {
			int d = drain(po[0], out, &olen, BRIDGE_OUTPUT_MAX,
				      &full);

			oopen = d > 0;
			r = d < 0 ? d : r;
		}
		if (eopen && fds[1].revents) {
			int d = drain(pe[0], err, &elen, sizeof(err), &efull);

			eopen = d > 0;
			r = d < 0 ? d : r;
		}
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (r < 0) {
		snprintf(why, size, "reading '%s -j %s show': %s", path, what,
			 strerror(-r));
		goto out;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		util_wait_status(status, status_text, sizeof(status_text));
		snprintf(why, size, "'%s -j %s show' ended with %s%s%.512s",
			 path, what, status_text, err[0] ? ": " : "", err);
		r = -EIO;
		goto out;
	}
	if (full) {
		snprintf(why, size, "'%s -j %s show' wrote more than %d bytes",
			 path, what, BRIDGE_OUTPUT_MAX - 1);
		r = -E2BIG;
		goto out;
	}
	*ret_out = out;
	out = NULL;
out:
	for (int i = 0; i < 2; i++) {
		if (po[i] >= 0)
			close(po[i]);
		if (pe[i] >= 0)
			close(pe[i]);
	}
	free(out);
	return r;
}

/*
 * Compare the VLANs (or with @mdb the MDB entries) of guestd's dump and of
 * `bridge -j`. Returns 0 when they agree, 1 when @res says they don't, or
 * -errno when @res says why the check could not be made.
 */
static int check(struct step_result *res, const char *path, bool mdb)
{
	const char *cmd = mdb ? "mdb" : "vlan";
	struct nl_vlans vl = { 0 }, jv = { 0 };
	struct nl_mdbs ml = { 0 }, jm = { 0 };
	struct nl_ack ack = { 0 };
	char why[1024], diff[512], bridge[32];
	char *text = NULL;
	int r;

	snprintf(bridge, sizeof(bridge), "bridge -j %s show", cmd);
	r = mdb ? nl_dump_mdbs(&ml, &ack) : nl_dump_vlans(&vl, &ack);
	if (r < 0) {
		step_error(res, "bridge_check: %s dump failed: %s", cmd,
			   util_errno_desc(-r));
		goto out;
	}
	r = run_bridge(path, cmd, &text, why, sizeof(why));
	if (r == 0)
		r = mdb ? brjson_mdbs(text, &jm, why, sizeof(why)) :
			  brjson_vlans(text, &jv, why, sizeof(why));
	if (r < 0) {
		step_error(res, "bridge_check: %s", why);
		goto out;
	}
	if (mdb ? br_mdbs_diff(&ml, &jm, "netlink", bridge, diff,
			       sizeof(diff)) :
		  br_vlans_diff(&vl, &jv, "netlink", bridge, diff,
				sizeof(diff))) {
		res->verdict = VERDICT_FAIL;
		step_expected(res, "guestd's %s dump and '%s' agree",
			      mdb ? "MDB" : "VLAN", bridge);
		step_got(res, "%s", diff);
		r = 1;
	}
out:
	free(text);
	nl_vlans_free(&vl);
	nl_vlans_free(&jv);
	nl_mdbs_free(&ml);
	nl_mdbs_free(&jm);
	return r;
}

static int bridge_check_run(struct step_ctx *ctx, struct json_object *step,
			    struct step_result *res)
{
	const char *path = ctx->env->bridge_path ? ctx->env->bridge_path :
						   BRIDGE_PATH;

	if (!step_bool(step, "vlan", true) && !step_bool(step, "mdb", true)) {
		step_error(
			res,
			"bridge_check with vlan and mdb false checks nothing");
		return 0;
	}
	if (step_bool(step, "vlan", true) && check(res, path, false) != 0)
		return 0;
	if (step_bool(step, "mdb", true) && check(res, path, true) != 0)
		return 0;
	res->verdict = VERDICT_PASS;
	return 0;
}

const struct step_ops step_bridge_check = {
	.name = "bridge_check",
	.run = bridge_check_run,
};
