// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl compare's statistics: the candidate/baseline ratio and its 95%
 * confidence interval, against figures worked out by hand (docs in
 * cmpstat.h), and the cases it must refuse.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include <stdlib.h>
#include <string.h>

#include "results/cmpstat.h"
#include "results/compare.h"
#include "tap.h"

static int near(double a, double b)
{
	return fabs(a - b) < 5e-6;
}

/* A run of one scenario whose step 1 is a bench step with @median. */
static void fake_run(struct res_run *run, struct res_scenario *sc,
		     struct res_step *steps, uint64_t median,
		     enum proto_verdict v)
{
	memset(run, 0, sizeof(*run));
	memset(sc, 0, sizeof(*sc));
	memset(steps, 0, 2 * sizeof(*steps));
	strcpy(run->accelerator, "tcg");
	strcpy(run->clock, "icount");
	strcpy(sc->name, "bch/bench-encode");
	sc->verdict = v;
	sc->steps = steps;
	sc->nsteps = 2;
	strcpy(steps[0].kind, "modprobe");
	strcpy(steps[1].kind, "bench");
	strcpy(steps[1].name, "encode 4 MiB");
	steps[1].bench = (struct proto_bench){ 10, median, median, median, 0 };
	run->v = sc;
	run->n = 1;
}

/* The table from two flavours' runs: the row, the words, the text. */
static void test_table(void)
{
	struct res_run base[2], cand[2];
	struct res_scenario bs[2], cs[2];
	struct res_step bst[2][2], cst[2][2];
	struct json_object *t = NULL, *rows, *row, *v;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	fake_run(&base[0], &bs[0], bst[0], 1000, VERDICT_PASS);
	fake_run(&base[1], &bs[1], bst[1], 1000, VERDICT_PASS);
	fake_run(&cand[0], &cs[0], cst[0], 1200, VERDICT_PASS);
	fake_run(&cand[1], &cs[1], cst[1], 1200, VERDICT_FAIL);
	is_int(cmp_table(&(struct cmp_input){ "vla", "patched", base, cand, 2 },
			 &t),
	       0, "cmp_table");
	ok(json_object_object_get_ex(t, "bench", &rows) &&
		   json_object_array_length(rows) == 1,
	   "one bench row");
	row = json_object_array_get_idx(rows, 0);
	ok(json_object_object_get_ex(row, "ratio", &v) &&
		   fabs(json_object_get_double(v) - 1.2) < 1e-9,
	   "ratio 1.2");
	ok(json_object_object_get_ex(row, "verdict", &v) &&
		   !strcmp(json_object_get_string(v), "candidate higher"),
	   "an exact 1.2 is candidate higher");
	ok(json_object_object_get_ex(t, "clock_note", &v) &&
		   !strcmp(json_object_get_string(v), RES_ICOUNT_NOTE),
	   "the clock says instruction-time");
	f = open_memstream(&text, &len);
	cmp_print(t, f);
	fclose(f);
	ok(text && strstr(text, "pass fail") &&
		   strstr(text, "bch/bench-encode #2 encode 4 MiB") &&
		   strstr(text, "1.200  [1.200, 1.200]  candidate higher"),
	   "the text has the verdicts per round and the row");
	ok(text && strstr(text, "reference only") &&
		   strstr(text, "not our result"),
	   "the seed's figures are marked as reference");
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	cmp_svg(t, f);
	fclose(f);
	ok(text && !strncmp(text, "<svg", 4) && strstr(text, ">120.0<"),
	   "the chart draws the candidate at 120");
	free(text);
	json_object_put(t);
	is_int(cmp_table(&(struct cmp_input){ "vla", "patched", base, cand, 0 },
			 &t),
	       -EINVAL, "no rounds refused");
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
	test_table();
	return tap_done();
}
