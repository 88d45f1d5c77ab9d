// SPDX-License-Identifier: GPL-2.0-only
/*
 * mtd_stats: the device's ECC counters, from ECCGETSTATS and from
 * /sys/class/mtd/mtdN/{corrected_bits,ecc_failures,ecc_strength}. The two
 * sources must agree. Expectations are exact ('corrected', 'failed',
 * 'badblocks', 'ecc_strength') or deltas from the previous mtd_stats
 * sample of the same device in this scenario ('corrected_delta',
 * 'failed_delta'). Every sample is remembered for the next one, with the
 * inode of the device's sysfs directory: when the driver is reloaded the
 * device is a new one with new counters, and a delta from the old sample
 * is refused.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "guestd.h"

/*
 * The previous sample of each device. A scenario runs in its own forked
 * child, so this starts empty in every scenario.
 */
#define MTD_SAMPLES 8

static struct mtd_sample {
	char name[16];
	ino_t ino; /* of /sys/class/mtd/mtdN */
	struct mtd_ecc_stats st;
} mtd_samples[MTD_SAMPLES];

static struct mtd_sample *mtd_sample_find(const char *name)
{
	for (size_t i = 0; i < MTD_SAMPLES; i++)
		if (strcmp(mtd_samples[i].name, name) == 0)
			return &mtd_samples[i];
	return NULL;
}

static void mtd_sample_save(const char *name, ino_t ino,
			    const struct mtd_ecc_stats *st)
{
	struct mtd_sample *s = mtd_sample_find(name);

	if (!s)
		s = mtd_sample_find("");
	if (!s)
		s = &mtd_samples[0];
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->ino = ino;
	s->st = *st;
}

/* One expectation, added to @exp: @what is @want (a delta when @delta). */
static bool mtd_expect(char *exp, const char *what, int64_t want, uint32_t have,
		       bool delta)
{
	size_t o = strlen(exp);

	if (want < 0)
		return true;
	snprintf(exp + o, PROTO_TEXT_MAX - o, "%s%s %s%" PRId64, o ? ", " : "",
		 what, delta ? "+" : "", want);
	return (int64_t)have == want;
}

static int mtd_stats_run(struct step_ctx *ctx, struct json_object *step,
			 struct step_result *res)
{
	int64_t dc = step_int(step, "corrected_delta", -1);
	int64_t df = step_int(step, "failed_delta", -1);
	char exp[PROTO_TEXT_MAX] = "", got[PROTO_TEXT_MAX];
	uint32_t sys_corr, sys_fail, strength;
	const struct mtd_sample *prev;
	struct mtd_ecc_stats st, before = { 0 };
	char sysdir[64], delta_c[32] = "", delta_f[32] = "";
	struct mtd_dev dev;
	struct stat sb;
	bool ok = true;
	int r;

	if (!mtd_step_open(step, res, &dev))
		return 0;
	snprintf(sysdir, sizeof(sysdir), "/sys/class/mtd/%s", dev.name);
	if (stat(sysdir, &sb) < 0) {
		step_errno_mismatch(res, 0, errno, sysdir);
		goto out;
	}
	prev = mtd_sample_find(dev.name);
	if (prev && prev->ino != sb.st_ino)
		prev = NULL;
	if ((dc >= 0 || df >= 0) && !prev) {
		step_error(
			res,
			"a delta needs an earlier mtd_stats step on this instance of /dev/%s in this scenario (none, or the driver was reloaded since)",
			dev.name);
		goto out;
	}
	if (prev)
		before = prev->st;
	res->verdict = VERDICT_FAIL;
	snprintf(res->reason, sizeof(res->reason), "ECC counters of /dev/%s",
		 dev.name);
	r = mtd_ecc_stats(&dev, &st);
	if (r < 0) {
		step_errno_mismatch(res, 0, -r, "ECCGETSTATS");
		goto out;
	}
	mtd_sample_save(dev.name, sb.st_ino, &st);
	r = mtd_sysfs_counter(&dev, "corrected_bits", &sys_corr);
	if (r == 0)
		r = mtd_sysfs_counter(&dev, "ecc_failures", &sys_fail);
	if (r == 0)
		r = mtd_sysfs_counter(&dev, "ecc_strength", &strength);
	if (r < 0) {
		step_errno_mismatch(res, 0, -r,
				    "reading a counter in /sys/class/mtd");
		goto out;
	}
	if (prev) {
		snprintf(delta_c, sizeof(delta_c), " (+%u)",
			 st.corrected - before.corrected);
		snprintf(delta_f, sizeof(delta_f), " (+%u)",
			 st.failed - before.failed);
	}
	snprintf(
		got, sizeof(got),
		"corrected %u%s, failed %u%s, badblocks %u, ecc_strength %u; sysfs corrected_bits %u, ecc_failures %u",
		st.corrected, delta_c, st.failed, delta_f, st.badblocks,
		strength, sys_corr, sys_fail);
	ok &= mtd_expect(exp, "corrected", step_int(step, "corrected", -1),
			 st.corrected, false);
	ok &= mtd_expect(exp, "corrected", dc, st.corrected - before.corrected,
			 true);
	ok &= mtd_expect(exp, "failed", step_int(step, "failed", -1), st.failed,
			 false);
	ok &= mtd_expect(exp, "failed", df, st.failed - before.failed, true);
	ok &= mtd_expect(exp, "badblocks", step_int(step, "badblocks", -1),
			 st.badblocks, false);
	ok &= mtd_expect(exp, "ecc_strength",
			 step_int(step, "ecc_strength", -1), strength, false);
	/* The ioctl and sysfs read the same mtd->ecc_stats. */
	snprintf(exp + strlen(exp), sizeof(exp) - strlen(exp),
		 "%ssysfs equal to ECCGETSTATS", exp[0] ? ", " : "");
	ok &= sys_corr == st.corrected && sys_fail == st.failed;
	step_expected(res, "%s", exp);
	step_got(res, "%s", got);
	if (ok) {
		res->verdict = VERDICT_PASS;
		res->reason[0] = '\0';
	}
out:
	mtd_dev_close(&dev);
	return 0;
}

const struct step_ops step_mtd_stats = {
	.name = "mtd_stats",
	.run = mtd_stats_run,
};
