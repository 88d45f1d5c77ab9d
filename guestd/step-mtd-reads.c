// SPDX-License-Identifier: GPL-2.0-only
/*
 * mtd_reads: many ECC reads in one step, for random bit flips (nandsim's
 * bitflips=). Page 'page' + i % 'pages' is read 'reads' times with
 * MEMREAD (MTD_OPS_PLACE_OOB, so every read reaches the chip) and each
 * read is classified by mtd_classify() against the pattern of 'seed':
 * clean, corrected (EUCLEAN, data right), failed (EBADMSG: reported), or
 * silent (success or EUCLEAN with wrong data). The step passes when no
 * read was silent, no other errno came, at most 'max_failed' (default 0)
 * failed and at least 'min_corrected' (default 0) were corrected. The
 * counts are reported in 'got' either way.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guestd.h"

struct mtd_reads_count {
	uint64_t n[MTD_ERROR + 1];
	uint64_t bits; /* bit flips corrected in all */
	uint64_t silent_read; /* the first silent read */
	size_t silent_byte;
	int err; /* the other errno, when one came */
};

static int mtd_reads_loop(const struct mtd_dev *dev, int64_t page,
			  int64_t pages, int64_t reads, uint64_t seed,
			  struct mtd_reads_count *c)
{
	uint32_t ws = dev->info.writesize;
	uint8_t *want = malloc((size_t)ws * (size_t)pages);
	uint8_t *data = malloc(ws), *oob = malloc(dev->info.oobsize + 1);
	struct mtd_read_req_ecc_stats st;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	if (!want || !data || !oob) {
		ret = -ENOMEM;
		goto out;
	}
	for (int64_t p = 0; p < pages; p++)
		mtd_pattern(seed, (uint64_t)(page + p), want + (size_t)p * ws,
			    ws);
	for (int64_t i = 0; i < reads; i++) {
		const uint8_t *w = want + (size_t)(i % pages) * ws;
		size_t first = 0, differ;
		enum mtd_outcome o;
		int r;

		r = mtd_read_page(dev, (uint64_t)(page + i % pages), data, oob,
				  MTD_OPS_PLACE_OOB, &st);
		differ = mtd_diff(data, w, ws, &first);
		o = mtd_classify(r, differ == 0);
		c->n[o]++;
		c->bits += st.corrected_bitflips;
		if (o == MTD_SILENT && c->n[o] == 1) {
			c->silent_read = (uint64_t)i;
			c->silent_byte = first;
		}
		if (o == MTD_ERROR) {
			c->err = -r;
			break;
		}
	}
out:
	free(want);
	free(data);
	free(oob);
	return ret;
}

static int mtd_reads_run(struct step_ctx *ctx, struct json_object *step,
			 struct step_result *res)
{
	int64_t page = step_int(step, "page", 0);
	int64_t pages = step_int(step, "pages", 1);
	int64_t reads = step_int(step, "reads", 0);
	uint64_t seed = (uint64_t)step_int(step, "seed", 0);
	int64_t max_failed = step_int(step, "max_failed", 0);
	int64_t min_corr = step_int(step, "min_corrected", 0);
	struct mtd_reads_count c;
	struct mtd_dev dev;
	size_t o;
	int r = 0;

	if (reads < 1 || pages > 1024) {
		step_error(res,
			   "reads must be 1 or more and pages at most 1024");
		return 0;
	}
	if (!mtd_step_open(step, res, &dev))
		return 0;
	if (!mtd_step_range(res, &dev, page, pages))
		goto out;
	r = mtd_reads_loop(&dev, page, pages, reads, seed, &c);
	if (r < 0)
		goto out;
	step_expected(res,
		      "0 silent, at most %" PRId64 " failed, at least %" PRId64
		      " corrected, no other errno",
		      max_failed, min_corr);
	step_got(res,
		 "%" PRIu64 " reads: %" PRIu64 " clean, %" PRIu64
		 " corrected (%" PRIu64 " bits), %" PRIu64 " failed, %" PRIu64
		 " silent",
		 c.n[MTD_CLEAN] + c.n[MTD_CORRECTED] + c.n[MTD_FAILED] +
			 c.n[MTD_SILENT] + c.n[MTD_ERROR],
		 c.n[MTD_CLEAN], c.n[MTD_CORRECTED], c.bits, c.n[MTD_FAILED],
		 c.n[MTD_SILENT]);
	o = strlen(res->got);
	if (c.n[MTD_SILENT])
		snprintf(res->got + o, sizeof(res->got) - o,
			 "; the first silent one: read %" PRIu64 ", byte %zu",
			 c.silent_read, c.silent_byte);
	else if (c.err)
		snprintf(res->got + o, sizeof(res->got) - o,
			 "; stopped at errno %s from MEMREAD",
			 proto_errno_name(c.err));
	if (c.n[MTD_SILENT] == 0 && c.n[MTD_ERROR] == 0 &&
	    c.n[MTD_FAILED] <= (uint64_t)max_failed &&
	    c.n[MTD_CORRECTED] >= (uint64_t)min_corr) {
		res->verdict = VERDICT_PASS;
		goto out;
	}
	res->verdict = VERDICT_FAIL;
	snprintf(res->reason, sizeof(res->reason),
		 "%" PRId64 " MEMREADs of pages %" PRId64 "..%" PRId64
		 " of /dev/%s",
		 reads, page, page + pages - 1, dev.name);
out:
	mtd_dev_close(&dev);
	return r < 0 ? r : 0;
}

const struct step_ops step_mtd_reads = {
	.name = "mtd_reads",
	.run = mtd_reads_run,
};
