// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl compare's statistics: the candidate/baseline ratio and its 95%
 * confidence interval, against figures worked out by hand (docs in
 * cmpstat.h), and the cases it must refuse.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "cmpstat.h"
#include "tap.h"

static int near(double a, double b)
{
	return fabs(a - b) < 5e-6;
}

int main(void)
{
	struct cmp_round b2[] = { { 100, 0, 10 }, { 102, 0, 10 } };
	struct cmp_round c2[] = { { 90, 0, 10 }, { 91, 0, 10 } };
	struct cmp_round b1[] = { { 1000, 10000, 10 } };
	struct cmp_round c1[] = { { 1005, 10000, 10 } };
	struct cmp_round exact_b[] = { { 2000, 0, 10 } };
	struct cmp_round exact_c[] = { { 1800, 0, 10 } };
	struct cmp_round lone[] = { { 1800, 0, 1 } };
	struct cmp_round zero[] = { { 0, 0, 10 } };
	struct cmp_ratio r;

	ok(near(cmp_t975(1), 12.706) && near(cmp_t975(18), 2.101) &&
		   near(cmp_t975(30), 2.042) && near(cmp_t975(1000), 1.960),
	   "t at 97.5 percent: 1, 18, 30 and many degrees of freedom");
	ok(near(cmp_t975(1.57), 12.706), "a fractional df rounds down");
	ok(isnan(cmp_t975(0.5)), "no t below one degree of freedom");

	/* Two rounds each: the spread between rounds, Welch's df 1.57. */
	is_int(cmp_ratio_ci(b2, 2, c2, 2, &r), 0, "two rounds each");
	ok(near(r.ratio, 0.896070), "ratio 0.896070 (geometric means)");
	ok(near(r.lo, 0.775844) && near(r.hi, 1.034926),
	   "95 percent CI [0.775844, 1.034926]");
	ok(fabs(r.df - 1.5677) < 1e-3, "Welch-Satterthwaite df 1.5677");
	ok(!r.significant, "it crosses 1.0: no significant difference");

	/* One round each: the spread within each round's runs. */
	is_int(cmp_ratio_ci(b1, 1, c1, 1, &r), 0, "one round each");
	ok(near(r.ratio, 1.005) && near(r.lo, 0.995601) &&
		   near(r.hi, 1.014487),
	   "1.005 [0.995601, 1.014487] from cv 1 percent over 10 runs");
	ok(fabs(r.df - 18) < 1e-9 && !r.significant, "df 18, crosses 1.0");

	/* icount: the same instructions every run, no spread at all. */
	is_int(cmp_ratio_ci(exact_b, 1, exact_c, 1, &r), 0, "no spread");
	ok(near(r.ratio, 0.9) && near(r.lo, 0.9) && near(r.hi, 0.9) &&
		   r.significant,
	   "an exact 0.9 is significant");
	is_int(cmp_ratio_ci(exact_b, 1, exact_b, 1, &r), 0, "equal");
	ok(near(r.ratio, 1.0) && !r.significant,
	   "exactly 1.0 is no difference");

	is_int(cmp_ratio_ci(b1, 0, c1, 1, &r), -EINVAL, "no baseline rounds");
	is_int(cmp_ratio_ci(b1, 1, zero, 1, &r), -EINVAL, "a zero median");
	is_int(cmp_ratio_ci(lone, 1, lone, 1, &r), -EINVAL,
	       "one run on both sides: no degrees of freedom");
	return tap_done();
}
