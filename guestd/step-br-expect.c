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

/* The same keys for both; the texts differ (brspec.h). */
static const struct step_key expect_keys[] = {
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

/* Dump the VLANs (or with @mdb the MDB) and check @step's keys. */
static int expect_run(struct json_object *step, struct step_result *res,
		      bool mdb)
{
	const char *dev = step_str(step, "dev");
	struct nl_vlans vl = { 0 };
	struct nl_mdbs ml = { 0 };
	struct nl_ack ack = { 0 };
	char what[128];
	int r;

	snprintf(what, sizeof(what), "%s_expect '%s'", mdb ? "mdb" : "vlan",
		 dev);
	r = mdb ? nl_dump_mdbs(&ml, &ack) : nl_dump_vlans(&vl, &ack);
	if (r < 0) {
		step_error(res, "%s: dump failed: %s%s%s%s", what,
			   util_errno_desc(-r), ack.extack[0] ? " (extack '" : "",
			   ack.extack, ack.extack[0] ? "')" : "");
		return 0;
	}
	if (mdb)
		r = br_mdbs_expect(&ml, dev, strs(step, "has"),
				   strs(step, "lacks"), strs(step, "exactly"),
				   res->expected, res->got, sizeof(res->got));
	else
		r = br_vlans_expect(&vl, dev, strs(step, "has"),
				    strs(step, "lacks"), strs(step, "exactly"),
				    res->expected, res->got, sizeof(res->got));
	nl_vlans_free(&vl);
	nl_mdbs_free(&ml);
	if (r < 0) {
		step_error(res, "%s: %s", what, res->got);
	} else if (r > 0) {
		res->verdict = VERDICT_FAIL;
		snprintf(res->reason, sizeof(res->reason), "%s", what);
	} else {
		res->verdict = VERDICT_PASS;
	}
	return 0;
}

static int vlan_expect_run(struct step_ctx *ctx, struct json_object *step,
			   struct step_result *res)
{
	return expect_run(step, res, false);
}

static int mdb_expect_run(struct step_ctx *ctx, struct json_object *step,
			  struct step_result *res)
{
	return expect_run(step, res, true);
}

const struct step_ops step_vlan_expect = {
	.name = "vlan_expect",
	.keys = expect_keys,
	.run = vlan_expect_run,
};

const struct step_ops step_mdb_expect = {
	.name = "mdb_expect",
	.keys = expect_keys,
	.run = mdb_expect_run,
};
