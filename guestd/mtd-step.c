// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the mtd_* step kinds share: opening the step's device and turning
 * the outcome of an ioctl into a verdict with expected/got text.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "guestd.h"

bool mtd_step_open(struct json_object *step, struct step_result *res,
		   struct mtd_dev *dev)
{
	const char *path = step_str(step, "device");
	char what[256], name[16];
	int r;

	if (mtd_dev_name(path, name, sizeof(name)) < 0) {
		step_error(res, "device '%s' is not /dev/mtdN", path);
		return false;
	}
	r = mtd_dev_open(path, dev, what, sizeof(what));
	if (r == 0)
		return true;
	step_errno_mismatch(res, 0, -r, what);
	snprintf(res->reason, sizeof(res->reason), "opening MTD device '%s'",
		 path);
	return false;
}

bool mtd_step_range(struct step_result *res, const struct mtd_dev *dev,
		    int64_t page, int64_t pages)
{
	uint64_t n = mtd_pages(dev);

	if (pages < 1 || (uint64_t)page >= n ||
	    (uint64_t)pages > n - (uint64_t)page) {
		step_error(res,
			   "pages %" PRId64 "..%" PRId64
			   " are not on /dev/%s (pages 0..%" PRIu64 ")",
			   page, page + pages - 1, dev->name, n - 1);
		return false;
	}
	return true;
}

void mtd_step_judge(struct step_result *res, const char *expect, int r,
		    const char *done, const char *what)
{
	int want = 0;

	if (expect && proto_errno_parse(expect, &want) < 0) {
		step_error(res, "unknown errno name '%s'", expect);
		return;
	}
	if (want ? -r == want : r == 0) {
		res->verdict = VERDICT_PASS;
		return;
	}
	if (!step_errno_mismatch(res, want, -r, what))
		step_got(res, "success (%s)", done);
}
