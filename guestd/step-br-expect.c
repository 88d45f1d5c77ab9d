// SPDX-License-Identifier: GPL-2.0-only
/*
 * vlan_expect and mdb_expect: dump the VLANs of every bridge port
 * (RTM_GETLINK on AF_BRIDGE with RTEXT_FILTER_BRVLAN) or the MDB of every
 * bridge (RTM_GETMDB), and check one interface's or bridge's entries
 * against has / lacks / exactly (brexpect.c), again and again until they
 * hold or within_ms is over: the bridge hands MDB entries to switchdev
 * deferred, so an entry's offload flag comes some time after mdb_add.
 */
#include <stdio.h>

#include "guestd.h"
#include "nl.h"

/* mdb_expect's default wait: offload is asynchronous (see above). */
#define MDB_EXPECT_WITHIN_MS 2000
#define EXPECT_POLL_MS 20

static struct json_object *strs(struct json_object *step, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(step, key, &v) ? v : NULL;
}

/*
 * Dump the VLANs (or with @mdb the MDB) once and check @step's keys.
 * Returns what br_*_expect() does, or -errno for a failed dump (with
 * @res's reason set).
 */
static int expect_once(struct json_object *step, struct step_result *res,
		       bool mdb, const char *what)
{
	const char *dev = step_str(step, "dev");
	struct nl_vlans vl = { 0 };
	struct nl_mdbs ml = { 0 };
	struct nl_ack ack = { 0 };
	int r;

	r = mdb ? nl_dump_mdbs(&ml, &ack) : nl_dump_vlans(&vl, &ack);
	if (r < 0) {
		step_error(res, "%s: dump failed: %s%s%s%s", what,
			   util_errno_desc(-r),
			   ack.extack[0] ? " (extack '" : "", ack.extack,
			   ack.extack[0] ? "')" : "");
		return r;
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
	if (r < 0)
		step_error(res, "%s: %s", what, res->got);
	return r;
}

static int expect_run(struct json_object *step, struct step_result *res,
		      bool mdb)
{
	int64_t within = step_int(step, "within_ms", -1);
	uint64_t start = guestd_now_us();
	char what[128];
	int r;

	/* A default wait stays well inside the step's own timeout. */
	if (within < 0) {
		within = mdb ? MDB_EXPECT_WITHIN_MS : 0;
		if (within > step_int(step, "timeout_ms", INT64_MAX) / 2)
			within = step_int(step, "timeout_ms", 0) / 2;
	}
	snprintf(what, sizeof(what), "%s_expect '%s'", mdb ? "mdb" : "vlan",
		 step_str(step, "dev"));
	for (;;) {
		r = expect_once(step, res, mdb, what);
		if (r <= 0)
			break;
		if ((guestd_now_us() - start) / 1000 >= (uint64_t)within)
			break;
		step_msleep(EXPECT_POLL_MS);
	}
	if (r == 0) {
		res->verdict = VERDICT_PASS;
		res->expected[0] = res->got[0] = '\0';
	} else if (r > 0) {
		res->verdict = VERDICT_FAIL;
		if (within)
			snprintf(res->reason, sizeof(res->reason),
				 "%s, still so after %lld ms", what,
				 (long long)within);
		else
			snprintf(res->reason, sizeof(res->reason), "%s", what);
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
	.run = vlan_expect_run,
};

const struct step_ops step_mdb_expect = {
	.name = "mdb_expect",
	.run = mdb_expect_run,
};
