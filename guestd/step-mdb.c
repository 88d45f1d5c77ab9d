// SPDX-License-Identifier: GPL-2.0-only
/*
 * mdb_add and mdb_del: `bridge mdb add|del dev BRIDGE port PORT grp GROUP
 * [permanent] [vid VID]` over rtnetlink (RTM_NEWMDB / RTM_DELMDB with a
 * struct br_mdb_entry). GROUP is IPv4, IPv6 or a MAC address (L2).
 */
#include <stdio.h>
#include <string.h>

#include "guestd.h"
#include "nl.h"

static int mdb_run(struct json_object *step, struct step_result *res, bool add)
{
	const char *dev = step_str(step, "dev");
	const char *port = step_str(step, "port");
	const char *group = step_str(step, "group");
	int64_t vid = step_int(step, "vid", 0);
	struct nl_mdb_req m = {
		.permanent = step_bool(step, "permanent", false),
	};
	char buf[NL_MSG_MAX], what[256];
	struct nl_ack ack;
	int r;

	if (brspec_group_parse(group, &m.group) < 0) {
		step_error(res, "'%s' is no IPv4, IPv6 or MAC group", group);
		return 0;
	}
	if (vid > 0xffff) {
		step_error(res, "vid %lld is not a 16-bit number",
			   (long long)vid);
		return 0;
	}
	m.vid = (uint16_t)vid;
	snprintf(what, sizeof(what), "mdb_%s dev '%s' port '%s' grp '%s'%s",
		 add ? "add" : "del", dev, port, group,
		 !add	     ? "" :
		 m.permanent ? " permanent" :
			       " temp");
	if (m.vid)
		snprintf(what + strlen(what), sizeof(what) - strlen(what),
			 " vid %u", m.vid);
	if (nl_step_ifindex(res, step, what, dev, &m.bridge) < 0 ||
	    nl_step_ifindex(res, step, what, port, &m.port) < 0)
		return 0;
	r = nl_talk(nl_msg_mdb(buf, add, &m), &ack);
	return nl_step_judge(res, step, add ? "RTM_NEWMDB" : "RTM_DELMDB", what,
			     r, &ack);
}

static int mdb_add_run(struct step_ctx *ctx, struct json_object *step,
		       struct step_result *res)
{
	return mdb_run(step, res, true);
}

static int mdb_del_run(struct step_ctx *ctx, struct json_object *step,
		       struct step_result *res)
{
	return mdb_run(step, res, false);
}

const struct step_ops step_mdb_add = {
	.name = "mdb_add",
	.run = mdb_add_run,
};

const struct step_ops step_mdb_del = {
	.name = "mdb_del",
	.run = mdb_del_run,
};
