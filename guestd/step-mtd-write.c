// SPDX-License-Identifier: GPL-2.0-only
/*
 * mtd_write: MEMWRITE of the test pattern (mtd_pattern()) to whole pages.
 * "auto" and "place" write the data alone and the kernel computes the
 * ECC; "raw" writes data and an erased (all 0xff) OOB with no ECC at all.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guestd.h"

static int mtd_write_mode(const char *name, uint8_t *ret)
{
	if (!name || strcmp(name, "auto") == 0)
		*ret = MTD_OPS_AUTO_OOB;
	else if (strcmp(name, "place") == 0)
		*ret = MTD_OPS_PLACE_OOB;
	else if (strcmp(name, "raw") == 0)
		*ret = MTD_OPS_RAW;
	else
		return -EINVAL;
	return 0;
}

static int mtd_write_run(struct step_ctx *ctx, struct json_object *step,
			 struct step_result *res)
{
	int64_t page = step_int(step, "page", 0);
	int64_t pages = step_int(step, "pages", 1);
	uint64_t seed = (uint64_t)step_int(step, "seed", 0);
	const char *mode_name = step_str(step, "mode");
	uint8_t *data = NULL, *oob = NULL, mode;
	char what[128], done[128];
	struct mtd_dev dev;
	int64_t p;
	int r = 0;

	if (mtd_write_mode(mode_name, &mode) < 0) {
		step_error(res, "mode '%s' is not one of: auto, place, raw",
			   mode_name);
		return 0;
	}
	if (!mtd_step_open(step, res, &dev))
		return 0;
	if (!mtd_step_range(res, &dev, page, pages))
		goto out;
	data = malloc(dev.info.writesize);
	oob = malloc(dev.info.oobsize ? dev.info.oobsize : 1);
	if (!data || !oob) {
		r = -ENOMEM;
		goto out;
	}
	memset(oob, 0xff, dev.info.oobsize);
	for (p = page; p < page + pages; p++) {
		mtd_pattern(seed, (uint64_t)p, data, dev.info.writesize);
		r = mtd_write_page(&dev, (uint64_t)p, data,
				   mode == MTD_OPS_RAW ? oob : NULL, mode);
		if (r < 0)
			break;
	}
	snprintf(what, sizeof(what),
		 "MEMWRITE (%s) of page %" PRId64 " of /dev/%s",
		 mode_name ? mode_name : "auto", p, dev.name);
	snprintf(done, sizeof(done), "wrote %" PRId64 " pages", pages);
	mtd_step_judge(res, step_str(step, "expect_errno"), r, done, what);
	if (res->verdict == VERDICT_FAIL)
		snprintf(res->reason, sizeof(res->reason),
			 "writing pattern seed %" PRIu64 " to pages %" PRId64
			 "..%" PRId64,
			 seed, page, page + pages - 1);
	r = 0;
out:
	free(data);
	free(oob);
	mtd_dev_close(&dev);
	return r;
}

const struct step_ops step_mtd_write = {
	.name = "mtd_write",
	.run = mtd_write_run,
};
