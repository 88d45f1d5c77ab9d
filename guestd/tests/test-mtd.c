// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pure parts of the MTD steps: the pattern, the choice of bits to
 * clear, the checksum, counter parsing, read classification; and the
 * mtd_* steps' own checks, which refuse a bad step before any ioctl.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "guestd.h"
#include "tap.h"

static size_t popcount(const uint8_t *buf, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len * 8; i++)
		n += !!(buf[i / 8] & (1u << (i % 8)));
	return n;
}

static void test_pattern(void)
{
	static uint8_t a[2048], b[2048], c[13];

	mtd_pattern(1, 0, a, sizeof(a));
	mtd_pattern(1, 0, b, sizeof(b));
	ok(memcmp(a, b, sizeof(a)) == 0, "pattern: same seed and page, same bytes");
	mtd_pattern(1, 0, c, sizeof(c));
	ok(memcmp(a, c, sizeof(c)) == 0, "pattern: a shorter one is a prefix");
	mtd_pattern(1, 1, b, sizeof(b));
	ok(memcmp(a, b, sizeof(a)) != 0, "pattern: another page differs");
	mtd_pattern(2, 0, b, sizeof(b));
	ok(memcmp(a, b, sizeof(a)) != 0, "pattern: another seed differs");
	/*
	 * Pinned: the bits the scenarios clear follow from these bytes, so
	 * a change to the generator changes what the scenarios test.
	 */
	is_int((long long)mtd_checksum(a, sizeof(a)),
	       (long long)UINT64_C(0xbe4825d2c2d10ca2), "pattern: pinned checksum");
	mtd_pattern(0, 0, b, sizeof(b));
	ok(popcount(b, sizeof(b)) > 6000 && popcount(b, sizeof(b)) < 10400,
	   "pattern: seed 0 has about half its bits set");
}

static void test_pick(void)
{
	static uint8_t buf[512], zero[512];
	size_t bits[MTD_FLIP_MAX], again[MTD_FLIP_MAX], other[MTD_FLIP_MAX];
	bool all_set = true, distinct = true;

	mtd_pattern(7, 3, buf, sizeof(buf));
	for (unsigned int k = 1; k <= MTD_FLIP_MAX; k++) {
		if (mtd_pick_bits(buf, sizeof(buf), k, 5, bits) < 0) {
			ok(0, "pick: k bits from a pattern");
			return;
		}
		for (unsigned int i = 0; i < k; i++) {
			all_set &= bits[i] < sizeof(buf) * 8 &&
				   (buf[bits[i] / 8] & (1u << (bits[i] % 8)));
			for (unsigned int j = 0; j < i; j++)
				distinct &= bits[i] != bits[j];
		}
	}
	ok(all_set, "pick: every chosen bit is a 1 in the buffer");
	ok(distinct, "pick: the chosen bits are distinct");

	mtd_pick_bits(buf, sizeof(buf), 9, 5, bits);
	mtd_pick_bits(buf, sizeof(buf), 9, 5, again);
	ok(memcmp(bits, again, 9 * sizeof(bits[0])) == 0,
	   "pick: the same inputs choose the same bits");
	mtd_pick_bits(buf, sizeof(buf), 9, 6, other);
	ok(memcmp(bits, other, 9 * sizeof(bits[0])) != 0,
	   "pick: another seed chooses other bits");

	{
		uint8_t copy[512];

		memcpy(copy, buf, sizeof(buf));
		for (unsigned int i = 0; i < 9; i++)
			copy[bits[i] / 8] &= (uint8_t)~(1u << (bits[i] % 8));
		is_int((long long)popcount(buf, sizeof(buf)) -
			       (long long)popcount(copy, sizeof(copy)),
		       9, "pick: clearing them clears exactly k bits");
	}

	is_int(mtd_pick_bits(zero, sizeof(zero), 1, 0, bits), -ENOSPC,
	       "pick: an erased-to-zero buffer has no bit to clear");
	zero[100] = 0x81;
	zero[3] = 0x10;
	is_int(mtd_pick_bits(zero, sizeof(zero), 3, 1, bits), 0,
	       "pick: exactly k set bits: all of them");
	is_int((long long)(bits[0] + bits[1] + bits[2]), 800 + 807 + 28,
	       "pick: ... and those are bits 28, 800 and 807");
	is_int(mtd_pick_bits(zero, sizeof(zero), 4, 1, bits), -ENOSPC,
	       "pick: k + 1 of k set bits is ENOSPC");
	is_int(mtd_pick_bits(buf, sizeof(buf), MTD_FLIP_MAX + 1, 1, bits),
	       -EINVAL, "pick: more than MTD_FLIP_MAX is EINVAL");
}

static void test_counter(void)
{
	static const struct {
		const char *text;
		int r;
		uint32_t v;
	} cases[] = {
		{ "0\n", 0, 0 },
		{ "123", 0, 123 },
		{ "4294967295\n", 0, UINT32_MAX },
		{ "4294967296\n", -ERANGE, 0 },
		{ "99999999999\n", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
		{ "\n", -EINVAL, 0 },
		{ "12a\n", -EINVAL, 0 },
		{ " 1\n", -EINVAL, 0 },
		{ "-1\n", -EINVAL, 0 },
		{ "1\n\n", -EINVAL, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		uint32_t v = 7;
		char what[64];
		int r = mtd_parse_counter(cases[i].text, strlen(cases[i].text),
					  &v);

		snprintf(what, sizeof(what), "counter %zu: result", i);
		is_int(r, cases[i].r, what);
		snprintf(what, sizeof(what), "counter %zu: value", i);
		is_int(v, cases[i].r ? 7 : cases[i].v, what);
	}
}

static void test_classify(void)
{
	is_int(mtd_classify(0, true), MTD_CLEAN, "classify: success, right data");
	is_int(mtd_classify(-EUCLEAN, true), MTD_CORRECTED,
	       "classify: EUCLEAN, right data");
	is_int(mtd_classify(-EBADMSG, false), MTD_FAILED,
	       "classify: EBADMSG, wrong data: a reported failure");
	is_int(mtd_classify(-EBADMSG, true), MTD_FAILED,
	       "classify: EBADMSG, right data: still a failure");
	is_int(mtd_classify(0, false), MTD_SILENT,
	       "classify: success, wrong data: silent");
	is_int(mtd_classify(-EUCLEAN, false), MTD_SILENT,
	       "classify: EUCLEAN, wrong data: silent");
	is_int(mtd_classify(-EIO, true), MTD_ERROR, "classify: EIO");
}

static void test_diff_checksum(void)
{
	uint8_t a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, b[8];
	size_t first = 99;

	memcpy(b, a, sizeof(a));
	is_int(mtd_diff(a, b, sizeof(a), &first), 0, "diff: equal");
	is_int(first, 99, "diff: first untouched when equal");
	b[6] = 0;
	b[2] = 0;
	is_int(mtd_diff(a, b, sizeof(a), &first), 2, "diff: two bytes");
	is_int(first, 2, "diff: the first is byte 2");
	is_int((long long)mtd_checksum((const uint8_t *)"a", 1),
	       (long long)UINT64_C(0xaf63dc4c8601ec8c), "checksum: FNV-1a 64");
}

/* The steps refuse bad input before touching any device. */
static void run_step(struct step_result *res, const char *json)
{
	static const struct step_env env = { .kmsg_path = "/nonexistent" };
	struct step_ctx ctx = { .env = &env };
	struct json_object *step = json_tokener_parse(json);
	char err[256];

	memset(res, 0, sizeof(*res));
	res->verdict = VERDICT_CRASH;
	if (!step || step_check(step_table, step, err, sizeof(err)) < 0) {
		printf("# bad test step %s: %s\n", json, step ? err : "JSON");
		json_object_put(step);
		return;
	}
	if (step_find(step_table, step_str(step, "kind"))->run(&ctx, step,
								res) < 0)
		res->verdict = VERDICT_CRASH;
	json_object_put(step);
}

/* @json is refused by the request check, before it runs, with @reason. */
static void refused(const char *json, const char *reason, const char *what)
{
	struct json_object *s = json_tokener_parse(json);
	char err[256] = "";

	is_int(step_check(step_table, s, err, sizeof(err)), -EINVAL, what);
	is_str(err, reason, what);
	json_object_put(s);
}

static void test_steps(void)
{
	struct step_result res;
	char err[256];
	struct json_object *s;

	refused("{\"kind\":\"mtd_erase\",\"device\":\"/dev/null\"}",
		"key 'device': bad MTD device '/dev/null' (want /dev/mtdN)",
		"check: a device that is not /dev/mtdN");
	run_step(&res, "{\"kind\":\"mtd_read\",\"device\":\"/dev/mtd999\",\"page\":0}");
	is_int(res.verdict, VERDICT_FAIL, "step: a missing device fails");
	is_str(res.got,
	       "errno ENOENT from open('/dev/mtd999') (No such file or directory)",
	       "step: ... with the open's errno");
	run_step(&res, "{\"kind\":\"mtd_read\",\"device\":\"/dev/mtd0\",\"page\":0,\"matches\":false}");
	is_int(res.verdict, VERDICT_ERROR, "step: matches without seed");
	is_str(res.reason, "'matches' needs the 'seed' of the pattern",
	       "step: ... says so");
	refused("{\"kind\":\"mtd_read\",\"device\":\"/dev/mtd0\",\"page\":0,\"expect_errno\":\"EFOO\"}",
		"key 'expect_errno': unknown errno name 'EFOO'",
		"check: an unknown errno name");
	refused("{\"kind\":\"mtd_flip\",\"device\":\"/dev/mtd0\",\"page\":0,\"bits\":0}",
		"key 'bits': 0 is out of range 1..64", "check: zero bits to flip");
	refused("{\"kind\":\"mtd_write\",\"device\":\"/dev/mtd0\",\"page\":0,\"mode\":\"ecc\"}",
		"key 'mode': 'ecc' is not one of: auto, place, raw",
		"check: an unknown write mode");
	refused("{\"kind\":\"mtd_reads\",\"device\":\"/dev/mtd0\",\"page\":0,\"reads\":0}",
		"key 'reads': 0 is out of range 1..1000000", "check: zero reads");

	s = json_tokener_parse("{\"kind\":\"mtd_stats\",\"device\":\"/dev/mtd0\",\"corrected\":-1}");
	is_int(step_check(step_table, s, err, sizeof(err)), -EINVAL,
	       "check: a negative expectation");
	is_str(err, "key 'corrected': -1 is out of range 0..4294967295",
	       "check: ... says so");
	json_object_put(s);
	s = json_tokener_parse("{\"kind\":\"mtd_reads\",\"device\":\"/dev/mtd0\",\"page\":0}");
	is_int(step_check(step_table, s, err, sizeof(err)), -EINVAL,
	       "check: mtd_reads needs reads");
	is_str(err, "step kind 'mtd_reads' needs key 'reads'",
	       "check: ... says so");
	json_object_put(s);
}

int main(void)
{
	test_pattern();
	test_pick();
	test_counter();
	test_classify();
	test_diff_checksum();
	test_steps();
	return tap_done();
}
