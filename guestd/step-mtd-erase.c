// SPDX-License-Identifier: GPL-2.0-only
/* mtd_erase: MEMERASE64 of one eraseblock, or of the whole device. */
#include <inttypes.h>
#include <stdio.h>

#include "guestd.h"

static int mtd_erase_run(struct step_ctx *ctx, struct json_object *step,
			 struct step_result *res)
{
	int64_t block = step_int(step, "block", -1);
	struct mtd_dev dev;
	uint64_t start = 0, len, nblocks;
	char what[128], done[128];
	int r;

	if (!mtd_step_open(step, res, &dev))
		return 0;
	nblocks = dev.info.size / dev.info.erasesize;
	len = dev.info.size;
	if (block >= 0) {
		if ((uint64_t)block >= nblocks) {
			step_error(res,
				   "block %" PRId64
				   " is not on /dev/%s (blocks 0..%" PRIu64 ")",
				   block, dev.name, nblocks - 1);
			goto out;
		}
		start = (uint64_t)block * dev.info.erasesize;
		len = dev.info.erasesize;
	}
	snprintf(what, sizeof(what),
		 "MEMERASE64 of /dev/%s at %" PRIu64 " + %" PRIu64, dev.name,
		 start, len);
	snprintf(done, sizeof(done), "erased %" PRIu64 " bytes", len);
	r = mtd_erase(&dev, start, len);
	mtd_step_judge(res, step_str(step, "expect_errno"), r, done, what);
	if (res->verdict == VERDICT_FAIL)
		snprintf(res->reason, sizeof(res->reason), "erasing %s", what);
out:
	mtd_dev_close(&dev);
	return 0;
}

const struct step_ops step_mtd_erase = {
	.name = "mtd_erase",
	.run = mtd_erase_run,
};
