// SPDX-License-Identifier: GPL-2.0-only
/*
 * mtd_flip: make exactly 'bits' bit errors in one ECC step of a page, as
 * worn NAND would. Read the page raw (data and OOB, no ECC), clear 'bits'
 * bits that are 1 in the data of ECC step 'ecc_step' (chosen by
 * mtd_pick_bits() from 'seed'), write the page back raw and read it raw
 * again to check that only those bits changed. NAND programming can only
 * clear bits, so writing the same page again is what real flash allows
 * and what nandsim models; the OOB, ECC bytes included, is written back
 * as it was read, so it does not change.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guestd.h"

/* "bits 17, 230 and 4001" of the step, for the result text. */
static void mtd_flip_list(char *buf, size_t size, const size_t *bits,
			  unsigned int k, size_t base)
{
	size_t o = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < k && o < size; i++) {
		int n = snprintf(buf + o, size - o, "%s%zu",
				 i == 0	    ? "" :
				 i + 1 == k ? " and " :
					      ", ",
				 bits[i] - base);

		if (n < 0)
			break;
		o += (size_t)n;
	}
}

static int mtd_flip_run(struct step_ctx *ctx, struct json_object *step,
			struct step_result *res)
{
	int64_t page = step_int(step, "page", 0);
	int64_t k = step_int(step, "bits", 0);
	int64_t ecc_step = step_int(step, "ecc_step", 0);
	uint64_t seed = (uint64_t)step_int(step, "seed", 0);
	struct mtd_read_req_ecc_stats st;
	size_t bits[MTD_FLIP_MAX], base, first;
	uint8_t *data = NULL, *oob = NULL, *back = NULL, *backoob = NULL;
	char list[MTD_FLIP_MAX * 8];
	struct mtd_dev dev;
	uint32_t nsteps;
	int r = 0;

	if (k < 1 || k > MTD_FLIP_MAX) {
		step_error(res, "bits %" PRId64 " is out of range 1..%d", k,
			   MTD_FLIP_MAX);
		return 0;
	}
	if (!mtd_step_open(step, res, &dev))
		return 0;
	if (!mtd_step_range(res, &dev, page, 1))
		goto out;
	nsteps = dev.info.writesize / dev.step_size;
	if ((uint64_t)ecc_step >= nsteps) {
		step_error(res,
			   "ecc_step %" PRId64
			   " is not in a page of /dev/%s (steps 0..%u)",
			   ecc_step, dev.name, nsteps - 1);
		goto out;
	}
	data = malloc(dev.info.writesize);
	back = malloc(dev.info.writesize);
	oob = malloc(dev.info.oobsize + 1);
	backoob = malloc(dev.info.oobsize + 1);
	if (!data || !back || !oob || !backoob) {
		r = -ENOMEM;
		goto out;
	}
	res->verdict = VERDICT_FAIL;
	snprintf(res->reason, sizeof(res->reason),
		 "clearing %" PRId64 " bits in ECC step %" PRId64
		 " of page %" PRId64 " of /dev/%s",
		 k, ecc_step, page, dev.name);
	r = mtd_read_page(&dev, (uint64_t)page, data, oob, MTD_OPS_RAW, &st);
	if (r < 0) {
		step_errno_mismatch(res, 0, -r, "the raw MEMREAD");
		goto done;
	}
	base = (size_t)ecc_step * dev.step_size;
	r = mtd_pick_bits(data + base, dev.step_size, (unsigned int)k, seed,
			  bits);
	if (r < 0) {
		step_expected(res, "%" PRId64 " bits set in the step", k);
		step_got(res, "fewer bits set: is the page erased?");
		goto done;
	}
	for (int64_t i = 0; i < k; i++) {
		bits[i] += base * 8;
		data[bits[i] / 8] &= (uint8_t) ~(1u << (bits[i] % 8));
	}
	r = mtd_write_page(&dev, (uint64_t)page, data, oob, MTD_OPS_RAW);
	if (r < 0) {
		step_errno_mismatch(res, 0, -r, "the raw MEMWRITE");
		goto done;
	}
	r = mtd_read_page(&dev, (uint64_t)page, back, backoob, MTD_OPS_RAW,
			  &st);
	if (r < 0) {
		step_errno_mismatch(res, 0, -r, "the raw MEMREAD back");
		goto done;
	}
	mtd_flip_list(list, sizeof(list), bits, (unsigned int)k, base * 8);
	if (mtd_diff(data, back, dev.info.writesize, &first) ||
	    mtd_diff(oob, backoob, dev.info.oobsize, &first)) {
		step_expected(
			res,
			"the raw page as written, with bits %s of the step cleared",
			list);
		step_got(res,
			 "a raw page that differs from it, first at byte %zu",
			 first);
		goto done;
	}
	res->verdict = VERDICT_PASS;
	res->reason[0] = '\0';
	step_got(res,
		 "cleared bits %s of ECC step %" PRId64 " (%u bytes at %zu)",
		 list, ecc_step, dev.step_size, base);
done:
	r = 0;
out:
	free(data);
	free(back);
	free(oob);
	free(backoob);
	mtd_dev_close(&dev);
	return r;
}

const struct step_ops step_mtd_flip = {
	.name = "mtd_flip",
	.run = mtd_flip_run,
};
