// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl compare's table: built from the runs of both flavours, then
 * printed and drawn from the JSON alone, so that what the terminal shows,
 * compare.json and compare.svg never disagree.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "results/cmpstat.h"
#include "results/compare.h"
#include "base/escape.h"
#include "jsonutil.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Seed 005's published table (lib/bch: remove VLA usage, 2018): Ivan
 * Djelic's figures on an Intel Core i5 650, m=13 t=4. Reference only. */
static const struct {
	const char *buffer;
	int mbit_s;
} seed_bch[] = {
	{ "on-stack, VLA", 3988 },
	{ "on-stack, fixed", 4494 },
	{ "kmalloc", 1967 },
};

static int64_t int_of(struct json_object *o, const char *key, int64_t dflt)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_int))
		return dflt;
	return json_object_get_int64(v);
}

static const struct res_scenario *find_scn(const struct res_run *run,
					   const char *name)
{
	for (size_t i = 0; i < run->n; i++)
		if (!strcmp(run->v[i].name, name))
			return &run->v[i];
	return NULL;
}

/* "pass pass fail": a scenario's verdict in each round of one flavour. */
static struct json_object *verdicts_of(const struct res_run *runs, size_t n,
				       const char *name)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < n; i++) {
		const struct res_scenario *s = find_scn(&runs[i], name);
		const char *v = s ? proto_verdict_name(s->verdict) : "missing";

		if (jsonutil_append(a, json_object_new_string(v)) < 0) {
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

/* One flavour's rounds of step @step of scenario @name; how many had it. */
static size_t rounds_of(const struct res_run *runs, size_t n, const char *name,
			size_t step, struct cmp_round *ret)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct res_scenario *s = find_scn(&runs[i], name);
		const struct proto_bench *b;

		if (!s || step >= s->nsteps || !s->steps[step].bench.runs)
			continue;
		b = &s->steps[step].bench;
		ret[k++] = (struct cmp_round){ b->median, b->cv_ppm, b->runs };
	}
	return k;
}

static uint64_t median_of(const struct cmp_round *r, size_t n)
{
	uint64_t lo = 0;

	/* n is small (rounds): the middle of a sorted copy. */
	struct cmp_round s[CMP_ROUNDS_MAX];

	memcpy(s, r, n * sizeof(*r));
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && s[j - 1].median > s[j].median;
		     j--) {
			struct cmp_round t = s[j];

			s[j] = s[j - 1];
			s[j - 1] = t;
		}
	if (n % 2)
		return s[n / 2].median;
	lo = s[n / 2 - 1].median;
	return lo + (s[n / 2].median - lo) / 2;
}

/* What a step's row starts with: its scenario, index and name. */
static int add_row_head(struct json_object *row, const struct res_scenario *s,
			size_t step)
{
	int r = jsonutil_add(row, "scenario", json_object_new_string(s->name));

	if (r == 0)
		r = jsonutil_add(row, "step", json_object_new_int64(step));
	if (r == 0)
		r = jsonutil_add(row, "name",
				 json_object_new_string(s->steps[step].name));
	return r;
}

static int add_bench_row(struct json_object *rows, const struct cmp_input *in,
			 const struct res_scenario *s, size_t step)
{
	struct cmp_round b[CMP_ROUNDS_MAX], c[CMP_ROUNDS_MAX];
	size_t nb, nc;
	struct cmp_ratio r;
	struct json_object *row = json_object_new_object();
	int ret;

	if (!row)
		return -ENOMEM;
	nb = rounds_of(in->base, in->nrounds, s->name, step, b);
	nc = rounds_of(in->cand, in->nrounds, s->name, step, c);
	ret = add_row_head(row, s, step);
	if (ret == 0)
		ret = jsonutil_add(row, "baseline_rounds",
				   json_object_new_int64(nb));
	if (ret == 0)
		ret = jsonutil_add(row, "candidate_rounds",
				   json_object_new_int64(nc));
	if (ret == 0 && nb)
		ret = jsonutil_add(row, "baseline_median",
				   json_object_new_uint64(median_of(b, nb)));
	if (ret == 0 && nc)
		ret = jsonutil_add(row, "candidate_median",
				   json_object_new_uint64(median_of(c, nc)));
	if (ret == 0 && cmp_ratio_ci(b, nb, c, nc, &r) == 0) {
		ret = jsonutil_add(row, "ratio",
				   json_object_new_double(r.ratio));
		if (ret == 0)
			ret = jsonutil_add(row, "ci_lo",
					   json_object_new_double(r.lo));
		if (ret == 0)
			ret = jsonutil_add(row, "ci_hi",
					   json_object_new_double(r.hi));
		if (ret == 0)
			ret = jsonutil_add(
				row, "significant",
				json_object_new_boolean(r.significant));
		if (ret == 0)
			ret = jsonutil_add(
				row, "verdict",
				json_object_new_string(
					!r.significant ?
						"no significant difference" :
					r.ratio < 1 ? "candidate lower" :
						      "candidate higher"));
	} else if (ret == 0) {
		ret = jsonutil_add(
			row, "verdict",
			json_object_new_string(
				"no ratio: a flavour lacks figures"));
	}
	if (ret == 0)
		return jsonutil_append(rows, row);
	json_object_put(row);
	return ret;
}

/* The deepest of one flavour's rounds of stack_tracer step @step of
 * scenario @name, or NULL when no round has figures. */
static const struct proto_stack *
deepest_of(const struct res_run *runs, size_t n, const char *name, size_t step)
{
	const struct proto_stack *deepest = NULL;

	for (size_t i = 0; i < n; i++) {
		const struct res_scenario *s = find_scn(&runs[i], name);
		const struct proto_stack *st;

		if (!s || step >= s->nsteps || !s->steps[step].stack.max_bytes)
			continue;
		st = &s->steps[step].stack;
		if (!deepest || st->max_bytes > deepest->max_bytes)
			deepest = st;
	}
	return deepest;
}

static int add_stack_side(struct json_object *row, const char *side,
			  const struct proto_stack *st)
{
	char key[64];
	int r;

	if (!st)
		return 0;
	snprintf(key, sizeof(key), "%s_max_bytes", side);
	r = jsonutil_add(row, key, json_object_new_int64(st->max_bytes));
	snprintf(key, sizeof(key), "%s_frames", side);
	if (r == 0)
		r = jsonutil_add(row, key, json_object_new_int64(st->frames));
	snprintf(key, sizeof(key), "%s_functions", side);
	if (r == 0)
		r = jsonutil_add(row, key,
				 json_object_new_string(st->functions));
	return r;
}

/* A stack_tracer step's row: the deepest stack of each flavour's rounds,
 * and through which functions. */
static int add_stack_row(struct json_object *rows, const struct cmp_input *in,
			 const struct res_scenario *s, size_t step)
{
	struct json_object *row = json_object_new_object();
	int r;

	if (!row)
		return -ENOMEM;
	r = add_row_head(row, s, step);
	if (r == 0)
		r = add_stack_side(row, "baseline",
				   deepest_of(in->base, in->nrounds, s->name,
					      step));
	if (r == 0)
		r = add_stack_side(row, "candidate",
				   deepest_of(in->cand, in->nrounds, s->name,
					      step));
	if (r == 0)
		return jsonutil_append(rows, row);
	json_object_put(row);
	return r;
}

/* What a flavour's build manifest says: -Wvla warnings and, when the
 * manifest has them, the touched functions' code and frame sizes. */
static struct json_object *kernel_of(const struct res_run *run,
				     const char *flavour)
{
	struct json_object *k = json_object_new_object(), *w, *v;
	int r;

	if (!k)
		return NULL;
	r = jsonutil_add(k, "flavour", json_object_new_string(flavour));
	if (r == 0 && run->kernel)
		r = jsonutil_add(
			k, "key",
			json_object_new_string(res_kernel_str(run, "key")));
	if (r == 0 && run->kernel &&
	    json_object_object_get_ex(run->kernel, "warnings", &w) &&
	    json_object_object_get_ex(w, "Wvla", &v) &&
	    json_object_is_type(v, json_type_int))
		r = jsonutil_add(
			k, "Wvla",
			json_object_new_int64(json_object_get_int64(v)));
	if (r == 0 && run->kernel &&
	    json_object_object_get_ex(run->kernel, "evidence", &v) &&
	    json_object_is_type(v, json_type_array))
		r = jsonutil_add(k, "evidence", json_object_get(v));
	if (r < 0) {
		json_object_put(k);
		return NULL;
	}
	return k;
}

static struct json_object *reference(void)
{
	struct json_object *ref = json_object_new_object(), *rows;
	int r;

	rows = json_object_new_array();
	if (!ref || !rows) {
		json_object_put(ref);
		json_object_put(rows);
		return NULL;
	}
	r = jsonutil_add(
		ref, "source",
		json_object_new_string(
			"seed 005 (lib/bch: remove VLA usage), Ivan "
			"Djelic's table: Intel Core i5 650 @ 3.20GHz, "
			"m=13 t=4; published figures, not our result"));
	for (size_t i = 0; r == 0 && i < ARRAY_SIZE(seed_bch); i++) {
		struct json_object *o = json_object_new_object();

		r = jsonutil_add(o, "buffer",
				 json_object_new_string(seed_bch[i].buffer));
		if (r == 0)
			r = jsonutil_add(
				o, "mbit_s",
				json_object_new_int64(seed_bch[i].mbit_s));
		if (r == 0)
			r = jsonutil_append(rows, o);
		else
			json_object_put(o);
	}
	if (r == 0)
		r = jsonutil_add(ref, "bch_encode", rows);
	else
		json_object_put(rows);
	if (r < 0) {
		json_object_put(ref);
		return NULL;
	}
	return ref;
}

int cmp_table(const struct cmp_input *in, struct json_object **ret)
{
	struct json_object *t = json_object_new_object(), *verdicts, *bench,
			   *stack, *kernel;
	const struct res_run *first = in->nrounds ? &in->base[0] : NULL;
	bool icount;
	int r;

	if (!t)
		return -ENOMEM;
	if (!in->nrounds || in->nrounds > CMP_ROUNDS_MAX) {
		json_object_put(t);
		return -EINVAL;
	}
	icount = !strcmp(first->clock, "icount");
	r = jsonutil_add(t, "baseline", json_object_new_string(in->baseline));
	if (r == 0)
		r = jsonutil_add(t, "candidate",
				 json_object_new_string(in->candidate));
	if (r == 0)
		r = jsonutil_add(t, "rounds",
				 json_object_new_int64(in->nrounds));
	if (r == 0)
		r = jsonutil_add(t, "accelerator",
				 json_object_new_string(first->accelerator));
	if (r == 0)
		r = jsonutil_add(t, "clock",
				 json_object_new_string(first->clock));
	if (r == 0)
		r = jsonutil_add(
			t, "clock_note",
			json_object_new_string(icount ? RES_ICOUNT_NOTE :
							"wall-clock time"));
	verdicts = json_object_new_array();
	bench = json_object_new_array();
	if (r == 0)
		r = jsonutil_add(t, "verdicts", verdicts);
	else
		json_object_put(verdicts);
	if (r == 0)
		r = jsonutil_add(t, "bench", bench);
	else
		json_object_put(bench);
	stack = json_object_new_array();
	if (r == 0)
		r = jsonutil_add(t, "stack", stack);
	else
		json_object_put(stack);
	for (size_t i = 0; r == 0 && i < first->n; i++) {
		const struct res_scenario *s = &first->v[i];
		struct json_object *row = json_object_new_object();

		r = jsonutil_add(row, "scenario",
				 json_object_new_string(s->name));
		if (r == 0)
			r = jsonutil_add(row, "baseline",
					 verdicts_of(in->base, in->nrounds,
						     s->name));
		if (r == 0)
			r = jsonutil_add(row, "candidate",
					 verdicts_of(in->cand, in->nrounds,
						     s->name));
		if (r == 0)
			r = jsonutil_append(verdicts, row);
		else
			json_object_put(row);
		for (size_t j = 0; r == 0 && j < s->nsteps; j++) {
			if (!strcmp(s->steps[j].kind, "bench"))
				r = add_bench_row(bench, in, s, j);
			else if (!strcmp(s->steps[j].kind, "stack_tracer") &&
				 (deepest_of(in->base, in->nrounds, s->name,
					     j) ||
				  deepest_of(in->cand, in->nrounds, s->name,
					     j)))
				r = add_stack_row(stack, in, s, j);
		}
	}
	kernel = json_object_new_object();
	if (r == 0)
		r = jsonutil_add(t, "kernel", kernel);
	else
		json_object_put(kernel);
	if (r == 0)
		r = jsonutil_add(kernel, "baseline",
				 kernel_of(&in->base[0], in->baseline));
	if (r == 0)
		r = jsonutil_add(kernel, "candidate",
				 kernel_of(&in->cand[0], in->candidate));
	if (r == 0)
		r = jsonutil_add(t, "reference", reference());
	if (r < 0) {
		json_object_put(t);
		return r;
	}
	*ret = t;
	return 0;
}

static void print_verdicts(struct json_object *row, const char *key, FILE *f)
{
	struct json_object *a, *v;
	char buf[64] = "";
	size_t len = 0;

	if (json_object_object_get_ex(row, key, &a))
		for (size_t i = 0; i < json_object_array_length(a); i++) {
			v = json_object_array_get_idx(a, i);
			len += (size_t)snprintf(
				buf + len,
				len < sizeof(buf) ? sizeof(buf) - len : 0,
				"%s%s", i ? " " : "",
				json_object_get_string(v));
			if (len >= sizeof(buf))
				break;
		}
	fprintf(f, "  %-24s", buf);
}

static double dbl_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	return json_object_get_double(v);
}

static void print_functions(struct json_object *k, FILE *f)
{
	struct json_object *fns, *fn;

	fprintf(f, "  %s:", jsonutil_str(k, "flavour"));
	if (int_of(k, "Wvla", -1) >= 0)
		fprintf(f, " -Wvla warnings %" PRId64 ";",
			int_of(k, "Wvla", -1));
	else
		fputs(" -Wvla warnings not in the manifest;", f);
	if (!json_object_object_get_ex(k, "evidence", &fns)) {
		fputs(" no per-function figures in the manifest\n", f);
		return;
	}
	fputc('\n', f);
	for (size_t i = 0; i < json_object_array_length(fns); i++) {
		fn = json_object_array_get_idx(fns, i);
		fprintf(f, "    %-30s %-20s ", jsonutil_str(fn, "function"),
			jsonutil_str(fn, "variant"));
		/* No figures: inlined into its callers (null in the manifest). */
		if (int_of(fn, "code_bytes", -1) < 0) {
			fputs("inlined: no symbol of its own\n", f);
			continue;
		}
		fprintf(f, "code %6" PRId64 " B  frame %6" PRId64 " B %s\n",
			int_of(fn, "code_bytes", -1),
			int_of(fn, "frame_bytes", -1),
			jsonutil_str(fn, "frame_kind"));
	}
}

/* A bench or stack row's step: "<scenario> #<step> <name>". */
static void step_label(struct json_object *row, char *buf, size_t len)
{
	snprintf(buf, len, "%s #%" PRId64 " %s", jsonutil_str(row, "scenario"),
		 int_of(row, "step", 0) + 1, jsonutil_str(row, "name"));
}

void cmp_print(struct json_object *t, FILE *f)
{
	struct json_object *a, *row, *k, *ref;

	fprintf(f,
		"hostctl compare: baseline %s, candidate %s, %" PRId64
		" round%s\n",
		jsonutil_str(t, "baseline"), jsonutil_str(t, "candidate"),
		int_of(t, "rounds", 0), int_of(t, "rounds", 0) == 1 ? "" : "s");
	fprintf(f, "accelerator %s, clock %s (%s)\n\n",
		jsonutil_str(t, "accelerator"), jsonutil_str(t, "clock"),
		jsonutil_str(t, "clock_note"));
	fprintf(f, "%-38s  %-24s  %-24s\n", "scenario",
		jsonutil_str(t, "baseline"), jsonutil_str(t, "candidate"));
	json_object_object_get_ex(t, "verdicts", &a);
	for (size_t i = 0; a && i < json_object_array_length(a); i++) {
		row = json_object_array_get_idx(a, i);
		fprintf(f, "%-38s", jsonutil_str(row, "scenario"));
		print_verdicts(row, "baseline", f);
		print_verdicts(row, "candidate", f);
		fputc('\n', f);
	}
	json_object_object_get_ex(t, "bench", &a);
	if (a && json_object_array_length(a)) {
		fprintf(f, "\n%-34s  %14s  %14s  %6s  %-17s\n",
			"bench step (median of rounds)",
			jsonutil_str(t, "baseline"),
			jsonutil_str(t, "candidate"), "ratio", "95% CI");
		for (size_t i = 0; i < json_object_array_length(a); i++) {
			char what[160];

			row = json_object_array_get_idx(a, i);
			step_label(row, what, sizeof(what));
			fprintf(f, "%-34s  %14" PRId64 "  %14" PRId64, what,
				int_of(row, "baseline_median", 0),
				int_of(row, "candidate_median", 0));
			if (json_object_object_get_ex(row, "ratio", NULL))
				fprintf(f, "  %6.3f  [%.3f, %.3f]  %s\n",
					dbl_of(row, "ratio"),
					dbl_of(row, "ci_lo"),
					dbl_of(row, "ci_hi"),
					jsonutil_str(row, "verdict"));
			else
				fprintf(f, "  %s\n",
					jsonutil_str(row, "verdict"));
		}
	}
	json_object_object_get_ex(t, "stack", &a);
	if (a && json_object_array_length(a)) {
		fprintf(f, "\n%-34s  %14s  %14s\n",
			"deepest stack (bytes, of rounds)",
			jsonutil_str(t, "baseline"),
			jsonutil_str(t, "candidate"));
		for (size_t i = 0; i < json_object_array_length(a); i++) {
			char what[160];

			row = json_object_array_get_idx(a, i);
			step_label(row, what, sizeof(what));
			fprintf(f, "%-34s  %14" PRId64 "  %14" PRId64 "\n",
				what, int_of(row, "baseline_max_bytes", 0),
				int_of(row, "candidate_max_bytes", 0));
			fprintf(f, "  %s: %s\n", jsonutil_str(t, "baseline"),
				jsonutil_str(row, "baseline_functions"));
			fprintf(f, "  %s: %s\n", jsonutil_str(t, "candidate"),
				jsonutil_str(row, "candidate_functions"));
		}
	}
	fputs("\nkernel builds\n", f);
	if (json_object_object_get_ex(t, "kernel", &k)) {
		json_object_object_get_ex(k, "baseline", &row);
		print_functions(row, f);
		json_object_object_get_ex(k, "candidate", &row);
		print_functions(row, f);
	}
	if (json_object_object_get_ex(t, "reference", &ref) &&
	    json_object_object_get_ex(ref, "bch_encode", &a)) {
		fprintf(f, "\nreference only, %s:\n",
			jsonutil_str(ref, "source"));
		for (size_t i = 0; i < json_object_array_length(a); i++) {
			row = json_object_array_get_idx(a, i);
			fprintf(f, "  %-16s %5" PRId64 " Mbit/s\n",
				jsonutil_str(row, "buffer"),
				int_of(row, "mbit_s", 0));
		}
		fputs("  (as time ratios: fixed/VLA 0.887, kmalloc/fixed 2.285)\n",
		      f);
	}
}

#define SVG_W 720
#define SVG_ROW 56
#define SVG_LEFT 260
#define SVG_BAR 18

void cmp_svg(struct json_object *t, FILE *f)
{
	struct json_object *a = NULL, *row;
	size_t n;
	double scale = 1.0;

	json_object_object_get_ex(t, "bench", &a);
	n = a ? json_object_array_length(a) : 0;
	for (size_t i = 0; i < n; i++) {
		row = json_object_array_get_idx(a, i);
		if (dbl_of(row, "ci_hi") > scale)
			scale = dbl_of(row, "ci_hi");
	}
	/* Bars: baseline is 100; the axis reaches the widest whisker. */
	scale = (SVG_W - SVG_LEFT - 40) / (scale * 100);
	fprintf(f,
		"<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%zu' "
		"font-family='sans-serif' font-size='12'>\n",
		SVG_W, 70 + n * SVG_ROW);
	fputs("<text x='10' y='18' font-weight='bold'>", f);
	esc_xml_put(f, jsonutil_str(t, "candidate"));
	fputs(" vs ", f);
	esc_xml_put(f, jsonutil_str(t, "baseline"));
	fputs(" (baseline = 100; whisker: 95% CI)</text>\n"
	      "<text x='10' y='36'>",
	      f);
	esc_xml_put(f, jsonutil_str(t, "accelerator"));
	fputs(", clock ", f);
	esc_xml_put(f, jsonutil_str(t, "clock"));
	fputs(": ", f);
	esc_xml_put(f, jsonutil_str(t, "clock_note"));
	fputs("</text>\n", f);
	for (size_t i = 0; i < n; i++) {
		double y = 50 + i * SVG_ROW, ratio, lo, hi;
		char what[160];

		row = json_object_array_get_idx(a, i);
		snprintf(what, sizeof(what), "%s #%" PRId64 " %s",
			 jsonutil_str(row, "scenario"),
			 int_of(row, "step", 0) + 1, jsonutil_str(row, "name"));
		fprintf(f, "<text x='10' y='%.0f'>", y + SVG_BAR);
		esc_xml_put(f, what);
		fputs("</text>\n", f);
		fprintf(f,
			"<rect x='%d' y='%.0f' width='%.1f' height='%d' "
			"fill='#9aa5b1'/>\n",
			SVG_LEFT, y, 100 * scale, SVG_BAR);
		if (!json_object_object_get_ex(row, "ratio", NULL))
			continue;
		ratio = dbl_of(row, "ratio") * 100;
		lo = dbl_of(row, "ci_lo") * 100;
		hi = dbl_of(row, "ci_hi") * 100;
		fprintf(f,
			"<rect x='%d' y='%.0f' width='%.1f' height='%d' "
			"fill='#3d7cc9'/>\n",
			SVG_LEFT, y + SVG_BAR + 2, ratio * scale, SVG_BAR);
		fprintf(f,
			"<line x1='%.1f' x2='%.1f' y1='%.0f' y2='%.0f' "
			"stroke='black'/>\n",
			SVG_LEFT + lo * scale, SVG_LEFT + hi * scale,
			y + 1.5 * SVG_BAR + 2, y + 1.5 * SVG_BAR + 2);
		fprintf(f, "<text x='%.1f' y='%.0f'>%.1f</text>\n",
			SVG_LEFT + hi * scale + 4, y + 2 * SVG_BAR, ratio);
	}
	fputs("</svg>\n", f);
}
