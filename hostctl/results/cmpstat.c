// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ratio of two flavours' bench figures and its 95% confidence
 * interval (cmpstat.h says how).
 */
#include <errno.h>
#include <math.h>

#include "results/cmpstat.h"

/* Student's t at 97.5% for 1..30 degrees of freedom. */
static const double t975[] = {
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201,	2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080,	2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double cmp_t975(double df)
{
	if (!(df >= 1))
		return NAN;
	if (df <= 30)
		return t975[(int)df - 1];
	if (df <= 40)
		return 2.021;
	if (df <= 60)
		return 2.000;
	if (df <= 120)
		return 1.980;
	return 1.960;
}

/* A flavour's mean log median, its squared standard error and its degrees
 * of freedom. */
struct side {
	double mean, se2, df;
};

static int side_of(const struct cmp_round *r, size_t n, struct side *ret)
{
	double sum = 0, ss = 0, cv;

	if (!n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!r[i].median || !r[i].runs)
			return -EINVAL;
		sum += log((double)r[i].median);
	}
	ret->mean = sum / n;
	if (n >= 2) {
		for (size_t i = 0; i < n; i++) {
			double d = log((double)r[i].median) - ret->mean;

			ss += d * d;
		}
		ret->se2 = ss / (n - 1) / n;
		ret->df = n - 1;
		return 0;
	}
	cv = r[0].cv_ppm / 1e6;
	ret->se2 = cv * cv / r[0].runs;
	ret->df = r[0].runs - 1;
	return 0;
}

int cmp_ratio_ci(const struct cmp_round *base, size_t nbase,
		 const struct cmp_round *cand, size_t ncand,
		 struct cmp_ratio *ret)
{
	struct side b, c;
	double d, se2, df, half;
	int r;

	r = side_of(base, nbase, &b);
	if (r == 0)
		r = side_of(cand, ncand, &c);
	if (r < 0)
		return r;
	d = c.mean - b.mean;
	se2 = b.se2 + c.se2;
	if (se2 > 0) {
		/* Welch-Satterthwaite; a side without spread adds nothing. */
		double den = 0;

		if (b.se2 > 0 && b.df > 0)
			den += b.se2 * b.se2 / b.df;
		if (c.se2 > 0 && c.df > 0)
			den += c.se2 * c.se2 / c.df;
		if (den <= 0)
			return -EINVAL;
		df = se2 * se2 / den;
	} else {
		/* No spread at all (icount repeats itself exactly). */
		df = b.df + c.df;
		if (df < 1)
			return -EINVAL;
	}
	half = cmp_t975(df) * sqrt(se2);
	ret->ratio = exp(d);
	ret->lo = exp(d - half);
	ret->hi = exp(d + half);
	ret->df = df;
	ret->significant = ret->lo > 1.0 || ret->hi < 1.0;
	return 0;
}
