// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl bench's tables (bench-table.h): the details and the goals, as
 * text and as JSON.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "results/bench-table.h"
#include "jsonutil.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

uint64_t bench_median(uint64_t *us, unsigned int n)
{
	if (!n)
		return 0;
	qsort(us, n, sizeof(*us), cmp_u64);
	return n % 2 ? us[n / 2] : (us[n / 2 - 1] + us[n / 2]) / 2;
}

#define DETAIL_FMT "%-34s %10s %10s %10s %10s %7s   %s\n"

void bench_detail_header(FILE *f)
{
	fprintf(f, DETAIL_FMT, "measurement (ms)", "median", "min", "max",
		"raw QEMU", "x raw", "target");
}

void bench_detail(FILE *f, const char *what, uint64_t *us, unsigned int n,
		  uint64_t raw_us, const char *target)
{
	char med[16] = "-", lo[16] = "-", hi[16] = "-", raw[16] = "-";
	char ratio[16] = "-";
	uint64_t m = bench_median(us, n);

	if (n) {
		snprintf(med, sizeof(med), "%.1f", m / 1000.0);
		snprintf(lo, sizeof(lo), "%.1f", us[0] / 1000.0);
		snprintf(hi, sizeof(hi), "%.1f", us[n - 1] / 1000.0);
	}
	if (raw_us) {
		snprintf(raw, sizeof(raw), "%.1f", raw_us / 1000.0);
		if (n)
			snprintf(ratio, sizeof(ratio), "%.2fx",
				 (double)m / raw_us);
	}
	fprintf(f, DETAIL_FMT, what, med, lo, hi, raw, ratio, target);
}

void bench_row_set(struct bench_row *r, uint64_t *us, unsigned int n)
{
	r->n = n;
	r->median_us = bench_median(us, n);
	r->min_us = n ? us[0] : 0;
	r->max_us = n ? us[n - 1] : 0;
}

/* The ratio of @r, or a negative number when it has none. */
static double ratio(const struct bench_row *r)
{
	return r->n && r->beside_us ? (double)r->median_us / r->beside_us : -1;
}

const char *bench_row_verdict(const struct bench_row *r)
{
	double x = ratio(r);

	if (!r->n)
		return "-";
	if (r->goal == BENCH_GOAL_RATIO)
		return x < 0 ? "-" : x <= r->limit ? "ok" : "MISSED";
	return r->median_us / 1000.0 <= r->limit ? "ok" : "MISSED";
}

/* @us as the row counts: "3566 ms", "842.1 s", or "-" for 0 with @n 0. */
static void fig(char *buf, size_t len, const struct bench_row *r, uint64_t us,
		bool have)
{
	if (!have)
		snprintf(buf, len, "-");
	else if (r->seconds)
		snprintf(buf, len, "%.1f s", us / 1e6);
	else
		snprintf(buf, len, "%.0f ms", us / 1e3);
}

#define GOAL_FMT "%-4s %-38s %10s %10s %10s %10s %7s  %-12s %s\n"

void bench_goals_print(FILE *f, const struct bench_row *rows, size_t n)
{
	fprintf(f, GOAL_FMT, "goal", "measurement", "median", "min", "max",
		"beside", "ratio", "goal", "verdict");
	for (size_t i = 0; i < n; i++) {
		const struct bench_row *r = &rows[i];
		char med[24], lo[24], hi[24], bes[24], rat[16] = "-";
		char no[8], goal[32];
		double x = ratio(r);

		fig(med, sizeof(med), r, r->median_us, r->n);
		fig(lo, sizeof(lo), r, r->min_us, r->n);
		fig(hi, sizeof(hi), r, r->max_us, r->n);
		fig(bes, sizeof(bes), r, r->beside_us, r->beside_us);
		if (x >= 0)
			snprintf(rat, sizeof(rat), "%.2fx", x);
		snprintf(no, sizeof(no), "%u", r->goal_no);
		if (r->goal == BENCH_GOAL_RATIO)
			snprintf(goal, sizeof(goal), "<= %.2fx", r->limit);
		else if (r->seconds)
			snprintf(goal, sizeof(goal), "<= %.0f s",
				 r->limit / 1000);
		else
			snprintf(goal, sizeof(goal), "<= %.0f ms", r->limit);
		fprintf(f, GOAL_FMT, no, r->what, med, lo, hi, bes, rat, goal,
			bench_row_verdict(r));
		fprintf(f, "     beside: %s",
			r->beside ? r->beside : "nothing");
		if (r->note)
			fprintf(f, "; %s", r->note);
		fputc('\n', f);
	}
}

/* @v with @prec decimals (no float noise in the file). */
static struct json_object *dbl(double v, int prec)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", prec, v);
	return json_object_new_double_s(v, buf);
}

/* @us in ms, or null when !@have. */
static struct json_object *ms(uint64_t us, bool have)
{
	return have ? dbl(us / 1000.0, 1) : NULL;
}

/* A string, or null for NULL. */
static struct json_object *str(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

/* jsonutil_add(), a NULL value being JSON's null rather than -ENOMEM. */
static int add(struct json_object *o, const char *key, struct json_object *v,
	       bool null)
{
	if (null) {
		json_object_put(v);
		return json_object_object_add(o, key, NULL) < 0 ? -ENOMEM : 0;
	}
	return jsonutil_add(o, key, v);
}

static struct json_object *row_json(const struct bench_row *r)
{
	struct json_object *o = json_object_new_object();
	double x = ratio(r);

	if (!o)
		return NULL;
	if (jsonutil_add(o, "goal", json_object_new_int(r->goal_no)) < 0 ||
	    jsonutil_add(o, "id", json_object_new_string(r->id)) < 0 ||
	    jsonutil_add(o, "what", json_object_new_string(r->what)) < 0 ||
	    add(o, "beside", str(r->beside), !r->beside) < 0 ||
	    jsonutil_add(o, "n", json_object_new_int(r->n)) < 0 ||
	    add(o, "median_ms", ms(r->median_us, r->n), !r->n) < 0 ||
	    add(o, "min_ms", ms(r->min_us, r->n), !r->n) < 0 ||
	    add(o, "max_ms", ms(r->max_us, r->n), !r->n) < 0 ||
	    add(o, "beside_ms", ms(r->beside_us, r->beside_us), !r->beside_us) <
		    0 ||
	    add(o, "ratio", dbl(x, 3), x < 0) < 0 ||
	    jsonutil_add(o, "goal_kind",
			 json_object_new_string(r->goal == BENCH_GOAL_RATIO ?
							"ratio" :
							"ms")) < 0 ||
	    jsonutil_add(o, "limit", dbl(r->limit, 2)) < 0 ||
	    jsonutil_add(o, "verdict",
			 json_object_new_string(bench_row_verdict(r))) < 0 ||
	    add(o, "note", str(r->note), !r->note) < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* A load average, or null when unknown. */
static int add_load(struct json_object *o, const char *key, double v)
{
	return add(o, key, dbl(v, 2), v < 0);
}

int bench_goals_json(const struct bench_meta *m, const struct bench_row *rows,
		     size_t n, char **ret)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();
	int r = -ENOMEM;

	if (!o || !a)
		goto out;
	if (jsonutil_add(o, "runs", json_object_new_int(m->runs)) < 0 ||
	    add(o, "accelerator", str(m->accelerator), !m->accelerator) < 0 ||
	    add(o, "machine", str(m->machine), !m->machine) < 0 ||
	    add(o, "kernel", str(m->kernel), !m->kernel) < 0 ||
	    add(o, "subset", str(m->subset), !m->subset) < 0 ||
	    jsonutil_add(o, "jobs", json_object_new_int(m->jobs)) < 0 ||
	    add_load(o, "load_start", m->load_start) < 0 ||
	    add_load(o, "load_end", m->load_end) < 0)
		goto out;
	for (size_t i = 0; i < n; i++)
		if (jsonutil_append(a, row_json(&rows[i])) < 0)
			goto out;
	r = jsonutil_add(o, "rows", a);
	a = NULL;
	if (r == 0) {
		*ret = strdup(json_object_to_json_string_ext(
			o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
				   JSON_C_TO_STRING_NOSLASHESCAPE));
		r = *ret ? 0 : -ENOMEM;
	}
out:
	json_object_put(a);
	json_object_put(o);
	return r;
}
