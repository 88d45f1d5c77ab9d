// SPDX-License-Identifier: GPL-2.0-only
/*
 * vlan_expect and mdb_expect: dump the VLANs of every bridge port
 * (RTM_GETLINK on AF_BRIDGE with RTEXT_FILTER_BRVLAN) or the MDB of every
 * bridge (RTM_GETMDB), and check one interface's or bridge's entries
 * against has / lacks / exactly (brexpect.c).
 */
#include <stdio.h>

#include "guestd.h"
#include "nl.h"

static const struct step_key vlan_expect_keys[] = {
	{ "dev", KEY_STRING, true },
	{ "has", KEY_STRINGS, false },
	{ "lacks", KEY_STRINGS, false },
	{ "exactly", KEY_STRINGS, false },
	{ NULL },
};

static const struct step_key mdb_expect_keys[] = {
	{ "dev", KEY_STRING, true },
	{ "has", KEY_STRINGS, false },
	{ "lacks", KEY_STRINGS, false },
	{ "exactly", KEY_STRINGS, false },
	{ NULL },
};

static struct json_object *strs(struct json_object *step, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(step, key, &v) ? v : NULL;
}

/* Fill @res from br_*_expect()'s answer @r. */
static int judge(struct step_result *res, int r, const char *what)
{
	if (r == 0) {
		res->verdict = VERDICT_PASS;
		return 0;
	}
	if (r < 0) {
		step_error(res, "%s: %s", what, res->got);
		return 0;
	}
	res->verdict = VERDICT_FAIL;
	snprintf(res->reason, sizeof(res->reason), "%s", what);
	return 0;
}

static int dump_failed(struct step_result *res, const char *what, int r,
		       const struct nl_ack *ack)
{
	step_error(res, "%s: dump failed: %s%s%s%s", what, util_errno_desc(-r),
		   ack->extack[0] ? " (extack '" : "", ack->extack,
		   ack->extack[0] ? "')" : "");
	return 0;
}

static int vlan_expect_run(struct step_ctx *ctx, struct json_object *step,
			   struct step_result *res)
{
	const char *dev = step_str(step, "dev");
	struct nl_vlans d = { 0 };
	struct nl_ack ack = { 0 };
	char what[128];
	int r;

	snprintf(what, sizeof(what), "vlan_expect '%s'", dev);
	r = nl_dump_vlans(&d, &ack);
	if (r < 0)
		return dump_failed(res, what, r, &ack);
	r = br_vlans_expect(&d, dev, strs(step, "has"), strs(step, "lacks"),
			    strs(step, "exactly"), res->expected, res->got,
			    sizeof(res->got));
	nl_vlans_free(&d);
	return judge(res, r, what);
}

static int mdb_expect_run(struct step_ctx *ctx, struct json_object *step,
			  struct step_result *res)
{
	const char *dev = step_str(step, "dev");
	struct nl_mdbs d = { 0 };
	struct nl_ack ack = { 0 };
	char what[128];
	int r;

	snprintf(what, sizeof(what), "mdb_expect '%s'", dev);
	r = nl_dump_mdbs(&d, &ack);
	if (r < 0)
		return dump_failed(res, what, r, &ack);
	r = br_mdbs_expect(&d, dev, strs(step, "has"), strs(step, "lacks"),
			   strs(step, "exactly"), res->expected, res->got,
			   sizeof(res->got));
	nl_mdbs_free(&d);
	return judge(res, r, what);
}

const struct step_ops step_vlan_expect = {
	.name = "vlan_expect",
	.keys = vlan_expect_keys,
	.run = vlan_expect_run,
};

const struct step_ops step_mdb_expect = {
	.name = "mdb_expect",
	.keys = mdb_expect_keys,
	.run = mdb_expect_run,
};
