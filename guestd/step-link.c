// SPDX-License-Identifier: GPL-2.0-only
/*
 * bridge_add, link_del and link_set: `ip link add type bridge`, `ip link
 * del` and `ip link set [master|nomaster] [up|down]`, over rtnetlink so the
 * step sees the kernel's errno and extack message.
 */
#include <errno.h>
#include <stdio.h>

#include "guestd.h"
#include "nl.h"

/* A boolean key as 1 or 0, or -1 when absent. */
static int tristate(struct json_object *step, const char *key)
{
	if (!json_object_object_get_ex(step, key, NULL))
		return -1;
	return step_bool(step, key, false);
}

static int bridge_add_run(struct step_ctx *ctx, struct json_object *step,
			  struct step_result *res)
{
	const char *dev = step_str(step, "dev");
	struct nl_bridge_opts o = {
		.vlan_filtering = tristate(step, "vlan_filtering"),
		.mcast_snooping = tristate(step, "mcast_snooping"),
	};
	char buf[NL_MSG_MAX], what[128];
	struct nl_ack ack;
	int r;

	snprintf(what, sizeof(what), "bridge_add '%s'", dev);
	r = nl_talk(nl_msg_bridge_add(buf, dev, &o), &ack);
	return nl_step_judge(res, step, "RTM_NEWLINK", what, r, &ack);
}

static int link_del_run(struct step_ctx *ctx, struct json_object *step,
			struct step_result *res)
{
	const char *dev = step_str(step, "dev");
	char buf[NL_MSG_MAX], what[128];
	struct nl_ack ack;
	int ifindex, r;

	snprintf(what, sizeof(what), "link_del '%s'", dev);
	if (nl_step_ifindex(res, step, what, dev, &ifindex) < 0)
		return 0;
	r = nl_talk(nl_msg_link_del(buf, ifindex), &ack);
	return nl_step_judge(res, step, "RTM_DELLINK", what, r, &ack);
}

static int link_set_run(struct step_ctx *ctx, struct json_object *step,
			struct step_result *res)
{
	const char *dev = step_str(step, "dev");
	const char *master = step_str(step, "master");
	char buf[NL_MSG_MAX], what[256];
	int ifindex, master_index = -1, r;
	struct nl_ack ack;

	if (master && step_bool(step, "nomaster", false)) {
		step_error(res,
			   "link_set '%s': 'master' and 'nomaster' together",
			   dev);
		return 0;
	}
	snprintf(what, sizeof(what), "link_set '%s'%s%s%s%s", dev,
		 master ? " master " : "", master ? master : "",
		 step_bool(step, "nomaster", false) ? " nomaster" : "",
		 tristate(step, "up") < 0     ? "" :
		 step_bool(step, "up", false) ? " up" :
						" down");
	if (nl_step_ifindex(res, step, what, dev, &ifindex) < 0)
		return 0;
	if (master &&
	    nl_step_ifindex(res, step, what, master, &master_index) < 0)
		return 0;
	if (step_bool(step, "nomaster", false))
		master_index = 0;
	r = nl_talk(nl_msg_link_set(buf, ifindex, master_index,
				    tristate(step, "up")),
		    &ack);
	return nl_step_judge(res, step, "RTM_NEWLINK", what, r, &ack);
}

const struct step_ops step_bridge_add = {
	.name = "bridge_add",
	.run = bridge_add_run,
};

const struct step_ops step_link_del = {
	.name = "link_del",
	.run = link_del_run,
};

const struct step_ops step_link_set = {
	.name = "link_set",
	.run = link_set_run,
};
