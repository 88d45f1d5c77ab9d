/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The statistics of hostctl compare (docs/evidence.md): the ratio of a
 * candidate's bench figures to a baseline's, and its 95% confidence
 * interval. Pure: libc and libm.
 *
 * Each flavour brings one or more rounds, each a bench step's median,
 * coefficient of variation and count of runs. The ratio works on the log
 * scale, where a ratio is a difference: with two rounds or more, a
 * flavour's mean log median and its standard error over the rounds; with
 * one round, the log of its median and the standard error its own runs
 * give (cv / sqrt(runs), the delta method). The interval is Welch's: the
 * difference of the means, plus or minus Student's t at 97.5% for the
 * Welch-Satterthwaite degrees of freedom times the combined standard
 * error, taken back with exp().
 */
#ifndef VLALAB_CMPSTAT_H
#define VLALAB_CMPSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One round of one flavour: a bench step's figures (struct proto_bench). */
struct cmp_round {
	uint64_t median; /* > 0 */
	uint64_t cv_ppm;
	uint32_t runs; /* >= 1 */
};

struct cmp_ratio {
	double ratio; /* candidate / baseline, the geometric mean ratio */
	double lo, hi; /* its 95% confidence interval */
	double df; /* the degrees of freedom the interval used */
	bool significant; /* the interval leaves out 1.0 */
};

/* Student's t quantile at 97.5% for @df degrees of freedom (>= 1; a
 * fraction rounds down, the wider interval); NAN below 1. */
double cmp_t975(double df);

/*
 * The ratio of @cand to @base, each @ncand/@nbase rounds. Returns 0, or
 * -EINVAL when either has no rounds or a round has a zero median or no
 * runs, or when neither spread nor degrees of freedom can be had (one
 * round of one run on both sides).
 */
int cmp_ratio_ci(const struct cmp_round *base, size_t nbase,
		 const struct cmp_round *cand, size_t ncand,
		 struct cmp_ratio *ret);

#endif
