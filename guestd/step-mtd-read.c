// SPDX-License-Identifier: GPL-2.0-only
/*
 * mtd_read: MEMREAD of whole pages with ECC (MTD_OPS_PLACE_OOB, the OOB
 * read too, so nand_base's page cache never answers), checked against the
 * errno ('expect_errno': EUCLEAN when bits were corrected, EBADMSG when a
 * step was uncorrectable), the request's ECC stats ('corrected',
 * 'max_bitflips', 'uncorrectable': exact values summed over the pages,
 * max_bitflips the largest), and the data against the pattern of 'seed'
 * ('matches', default true: the data must be the pattern; false: it must
 * differ).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guestd.h"

/* Append ", " and a formatted item to @buf. */
static void mtd_add(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void mtd_add(char *buf, size_t size, const char *fmt, ...)
{
	size_t o = strlen(buf);
	va_list ap;

	if (o && o + 2 < size) {
		memcpy(buf + o, ", ", 3);
		o += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + o, size - o, fmt, ap);
	va_end(ap);
}

struct mtd_read_sum {
	int r; /* 0, -EUCLEAN, -EBADMSG, or other */
	uint64_t corrected, uncorrectable;
	uint32_t max_bitflips;
	size_t differ; /* bytes unlike the pattern */
	uint64_t diff_page; /* the first page that differs */
	size_t diff_byte;
	uint64_t sum_got, sum_want; /* checksums of that page */
};

/* Read the pages, summing the stats and comparing with the pattern. */
static int mtd_read_pages(const struct mtd_dev *dev, int64_t page,
			  int64_t pages, int64_t seed, struct mtd_read_sum *sum)
{
	uint8_t *data = malloc(dev->info.writesize);
	uint8_t *want = malloc(dev->info.writesize);
	uint8_t *oob = malloc(dev->info.oobsize + 1);
	struct mtd_read_req_ecc_stats st;
	int ret = 0;

	memset(sum, 0, sizeof(*sum));
	if (!data || !want || !oob) {
		ret = -ENOMEM;
		goto out;
	}
	for (int64_t p = page; p < page + pages; p++) {
		size_t n, first = 0;
		int r = mtd_read_page(dev, (uint64_t)p, data, oob,
				      MTD_OPS_PLACE_OOB, &st);

		if (r < 0 && r != -EUCLEAN && r != -EBADMSG) {
			sum->r = r;
			break;
		}
		if (r == -EBADMSG || (r == -EUCLEAN && sum->r == 0))
			sum->r = r;
		sum->corrected += st.corrected_bitflips;
		sum->uncorrectable += st.uncorrectable_errors;
		if (st.max_bitflips > sum->max_bitflips)
			sum->max_bitflips = st.max_bitflips;
		if (seed < 0)
			continue;
		mtd_pattern((uint64_t)seed, (uint64_t)p, want,
			    dev->info.writesize);
		n = mtd_diff(data, want, dev->info.writesize, &first);
		if (n && !sum->differ) {
			sum->diff_page = (uint64_t)p;
			sum->diff_byte = first;
			sum->sum_got = mtd_checksum(data, dev->info.writesize);
			sum->sum_want = mtd_checksum(want, dev->info.writesize);
		}
		sum->differ += n;
	}
out:
	free(data);
	free(want);
	free(oob);
	return ret;
}

static int mtd_read_run(struct step_ctx *ctx, struct json_object *step,
			struct step_result *res)
{
	int64_t page = step_int(step, "page", 0);
	int64_t pages = step_int(step, "pages", 1);
	int64_t seed = step_int(step, "seed", -1);
	bool matches = step_bool(step, "matches", true);
	const char *expect = step_str(step, "expect_errno");
	int64_t corrected = step_int(step, "corrected", -1);
	int64_t maxbf = step_int(step, "max_bitflips", -1);
	int64_t uncorr = step_int(step, "uncorrectable", -1);
	char exp[PROTO_TEXT_MAX] = "", got[PROTO_TEXT_MAX] = "";
	struct mtd_read_sum sum;
	struct mtd_dev dev;
	bool ok = true;
	int want = 0, r = 0;

	if (expect && proto_errno_parse(expect, &want) < 0) {
		step_error(res, "unknown errno name '%s'", expect);
		return 0;
	}
	if (seed < 0 && json_object_object_get_ex(step, "matches", NULL)) {
		step_error(res, "'matches' needs the 'seed' of the pattern");
		return 0;
	}
	if (!mtd_step_open(step, res, &dev))
		return 0;
	if (!mtd_step_range(res, &dev, page, pages))
		goto out;
	r = mtd_read_pages(&dev, page, pages, seed, &sum);
	if (r < 0)
		goto out;

	mtd_add(exp, sizeof(exp), "%s%s", want ? "errno " : "success",
		want ? proto_errno_name(want) : "");
	if (sum.r && sum.r != -EUCLEAN && sum.r != -EBADMSG) {
		/* Another errno stopped the reads: only the errno is judged. */
		if (-sum.r == want) {
			res->verdict = VERDICT_PASS;
			goto out;
		}
		step_errno_mismatch(res, want, -sum.r, "MEMREAD");
		step_expected(res, "%s", exp);
		goto fail;
	}
	ok &= -sum.r == want;
	mtd_add(got, sizeof(got), "%s%s", sum.r ? "errno " : "success",
		sum.r ? proto_errno_name(-sum.r) : "");
	if (corrected >= 0) {
		mtd_add(exp, sizeof(exp), "corrected %" PRId64, corrected);
		ok &= sum.corrected == (uint64_t)corrected;
	}
	if (maxbf >= 0) {
		mtd_add(exp, sizeof(exp), "max_bitflips %" PRId64, maxbf);
		ok &= sum.max_bitflips == (uint64_t)maxbf;
	}
	if (uncorr >= 0) {
		mtd_add(exp, sizeof(exp), "uncorrectable %" PRId64, uncorr);
		ok &= sum.uncorrectable == (uint64_t)uncorr;
	}
	mtd_add(got, sizeof(got),
		"corrected %" PRIu64
		", max_bitflips %u, uncorrectable %" PRIu64,
		sum.corrected, sum.max_bitflips, sum.uncorrectable);
	if (seed >= 0) {
		mtd_add(exp, sizeof(exp),
			"data %s the pattern of seed %" PRId64,
			matches ? "equal to" : "unlike", seed);
		ok &= (sum.differ == 0) == matches;
		if (sum.differ)
			mtd_add(got, sizeof(got),
				"%zu bytes unlike the pattern, first page %" PRIu64
				" byte %zu (checksum %016" PRIx64
				", pattern %016" PRIx64 ")",
				sum.differ, sum.diff_page, sum.diff_byte,
				sum.sum_got, sum.sum_want);
		else
			mtd_add(got, sizeof(got), "data equal to the pattern");
	}
	step_expected(res, "%s", exp);
	step_got(res, "%s", got);
	if (ok) {
		res->verdict = VERDICT_PASS;
		goto out;
	}
	res->verdict = VERDICT_FAIL;
fail:
	snprintf(res->reason, sizeof(res->reason),
		 "MEMREAD of pages %" PRId64 "..%" PRId64 " of /dev/%s", page,
		 page + pages - 1, dev.name);
	r = 0;
out:
	mtd_dev_close(&dev);
	return r < 0 ? r : 0;
}

const struct step_ops step_mtd_read = {
	.name = "mtd_read",
	.run = mtd_read_run,
};
