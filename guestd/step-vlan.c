// SPDX-License-Identifier: GPL-2.0-only
/*
 * vlan_add and vlan_del: `bridge vlan add|del dev DEV vid VID [pvid]
 * [untagged] [self]` over rtnetlink (RTM_SETLINK / RTM_DELLINK on
 * AF_BRIDGE with IFLA_AF_SPEC). On a port the bridge (and through
 * switchdev, the switch) acts; with self on the bridge device the bridge's
 * own VLAN is set, which DSA programs on the CPU port.
 */
#include <stdio.h>

#include "guestd.h"
#include "nl.h"

static int vlan_run(struct json_object *step, struct step_result *res, bool add)
{
	const char *dev = step_str(step, "dev");
	int64_t vid = step_int(step, "vid", 0);
	struct brspec_vlan v = {
		.pvid = step_bool(step, "pvid", false),
		.untagged = step_bool(step, "untagged", false),
	};
	bool self = step_bool(step, "self", false);
	char buf[NL_MSG_MAX], what[256];
	struct nl_ack ack;
	int ifindex, r;

	/* 0 and 4095 go to the kernel, whose refusal is what a test wants. */
	if (vid > 0xffff) {
		step_error(res, "vid %lld is not a 16-bit number",
			   (long long)vid);
		return 0;
	}
	v.vid = (uint16_t)vid;
	snprintf(what, sizeof(what), "vlan_%s '%s' vid %u%s%s%s",
		 add ? "add" : "del", dev, v.vid, v.pvid ? " pvid" : "",
		 v.untagged ? " untagged" : "", self ? " self" : "");
	if (nl_step_ifindex(res, step, what, dev, &ifindex) < 0)
		return 0;
	r = nl_talk(nl_msg_vlan(buf, add, ifindex, &v, self), &ack);
	return nl_step_judge(res, step, add ? "RTM_SETLINK" : "RTM_DELLINK",
			     what, r, &ack);
}

static int vlan_add_run(struct step_ctx *ctx, struct json_object *step,
			struct step_result *res)
{
	return vlan_run(step, res, true);
}

static int vlan_del_run(struct step_ctx *ctx, struct json_object *step,
			struct step_result *res)
{
	return vlan_run(step, res, false);
}

const struct step_ops step_vlan_add = {
	.name = "vlan_add",
	.run = vlan_add_run,
};

const struct step_ops step_vlan_del = {
	.name = "vlan_del",
	.run = vlan_del_run,
};
