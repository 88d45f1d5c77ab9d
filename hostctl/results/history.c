// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stored runs compared (history.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "results/history.h"

static size_t kernel_list_len(const struct res_run *run, const char *key)
{
	struct json_object *v;

	if (run->kernel && json_object_object_get_ex(run->kernel, key, &v) &&
	    json_object_is_type(v, json_type_array))
		return json_object_array_length(v);
	return 0;
}

/* "12 patches" or "12 patches, without 0003-x.patch 0007-y.patch". */
static void series(const struct res_run *run, FILE *f)
{
	size_t nw = kernel_list_len(run, "without");
	struct json_object *w;

	if (!run->kernel) {
		fputs("series ?", f);
		return;
	}
	if (*res_kernel_str2(run, "tree", "path") ||
	    *res_kernel_str2(run, "external", "bzimage")) {
		char buf[RES_KERNEL_DESC_MAX];

		res_kernel_describe(run, buf, sizeof(buf));
		fputs(buf, f);
		return;
	}
	fprintf(f, "%zu patches", kernel_list_len(run, "patches"));
	if (!nw)
		return;
	json_object_object_get_ex(run->kernel, "without", &w);
	fputs(", without", f);
	for (size_t i = 0; i < nw; i++) {
		struct json_object *s = json_object_array_get_idx(w, i);

		fprintf(f, " %s",
			json_object_is_type(s, json_type_string) ?
				json_object_get_string(s) :
				"?");
	}
}

/* "2026-12-04 19:28:41" from a run id "20261204-192841-PID". */
static void run_date(const char *id, FILE *f)
{
	if (strlen(id) >= 15 && strspn(id, "0123456789") == 8 && id[8] == '-' &&
	    strspn(id + 9, "0123456789") == 6)
		fprintf(f, "%.4s-%.2s-%.2s %.2s:%.2s:%.2s", id, id + 4, id + 6,
			id + 9, id + 11, id + 13);
	else
		fprintf(f, "%-19s", "(no date in its id)");
}

void hist_run_line(const struct res_run *run, FILE *f)
{
	size_t counts[VERDICT__COUNT] = { 0 };
	const char *key = res_kernel_str(run, "key");

	for (size_t i = 0; i < run->n; i++)
		if (run->v[i].verdict < VERDICT__COUNT)
			counts[run->v[i].verdict]++;
	fprintf(f, "%-24s ", run->run_id);
	run_date(run->run_id, f);
	fprintf(f, "  kernel %.12s  ", *key ? key : "?");
	series(run, f);
	fprintf(f, "  %zu scenarios:", run->n);
	for (int v = 0; v < VERDICT__COUNT; v++)
		if (counts[v])
			fprintf(f, " %s %zu", proto_verdict_name(v), counts[v]);
	/* Its verdicts are the cut steps', not the scenario's. */
	if (run->repro_until_step)
		fprintf(f, "  repro to step %u of %u", run->repro_until_step,
			run->repro_steps);
	/* Its verdict is its command's: no scenario ran. */
	if (run->exec[0]) {
		size_t len = strlen(run->exec);

		fputs("  exec '", f);
		esc_term_putn(f, run->exec, HIST_EXEC_SHOWN);
		fputs(len > HIST_EXEC_SHOWN ? "...'" : "'", f);
	}
	fputc('\n', f);
}

static const struct res_scenario *find(const struct res_run *run,
				       const char *name)
{
	for (size_t i = 0; i < run->n; i++)
		if (!strcmp(run->v[i].name, name))
			return &run->v[i];
	return NULL;
}

/* The first line of a reason, for a diff line. */
static void reason_tail(const struct res_scenario *sc, FILE *f)
{
	if (!sc->reason || !*sc->reason)
		return;
	/* The guest's text: no control of its reaches the terminal. */
	fputs(" (", f);
	esc_term_putn(f, sc->reason, strcspn(sc->reason, "\n"));
	fputc(')', f);
}

struct diff_counts {
	size_t regressed, fixed, changed, added, removed, slower, faster;
};

static void verdict_lines(const struct res_run *a, const struct res_run *b,
			  struct diff_counts *c, FILE *f)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct res_scenario *sb = &b->v[i];
		const struct res_scenario *sa = find(a, sb->name);
		bool okb = proto_verdict_ok(sb->verdict);
		const char *what;

		if (!sa) {
			c->added++;
			c->regressed += !okb;
			fprintf(f, "%s %s: new, %s",
				okb ? "new      " : "REGRESSED", sb->name,
				proto_verdict_name(sb->verdict));
			if (!okb)
				reason_tail(sb, f);
			fputc('\n', f);
			continue;
		}
		if (sa->verdict == sb->verdict)
			continue;
		if (proto_verdict_ok(sa->verdict) && !okb) {
			c->regressed++;
			what = "REGRESSED";
		} else if (!proto_verdict_ok(sa->verdict) && okb) {
			c->fixed++;
			what = "fixed    ";
		} else {
			c->changed++;
			what = "changed  ";
		}
		fprintf(f, "%s %s: %s -> %s", what, sb->name,
			proto_verdict_name(sa->verdict),
			proto_verdict_name(sb->verdict));
		if (!okb)
			reason_tail(sb, f);
		fputc('\n', f);
	}
	for (size_t i = 0; i < a->n; i++) {
		if (find(b, a->v[i].name))
			continue;
		c->removed++;
		fprintf(f, "removed   %s (was %s)\n", a->v[i].name,
			proto_verdict_name(a->v[i].verdict));
	}
}

static void ms_text(uint64_t ms, FILE *f)
{
	fprintf(f, "%" PRIu64 ".%01" PRIu64 " s", ms / 1000, ms % 1000 / 100);
}

/* Durations of scenarios that ran in both, beyond both thresholds. */
static void duration_lines(const struct res_run *a, const struct res_run *b,
			   const struct hist_diff_opts *o,
			   struct diff_counts *c, FILE *f)
{
	for (size_t i = 0; i < b->n; i++) {
		const struct res_scenario *sb = &b->v[i];
		const struct res_scenario *sa = find(a, sb->name);
		uint64_t lo, hi, d;

		if (!sa || sa->verdict == VERDICT_SKIP ||
		    sb->verdict == VERDICT_SKIP || !sa->duration_ms)
			continue;
		lo = sa->duration_ms < sb->duration_ms ? sa->duration_ms :
							 sb->duration_ms;
		hi = sa->duration_ms ^ sb->duration_ms ^ lo;
		d = hi - lo;
		if (d < o->min_ms ||
		    d * 100 <= (uint64_t)o->pct * sa->duration_ms)
			continue;
		if (sb->duration_ms > sa->duration_ms)
			c->slower++;
		else
			c->faster++;
		fprintf(f, "%s %s: ",
			sb->duration_ms > sa->duration_ms ? "slower   " :
							    "faster   ",
			sb->name);
		ms_text(sa->duration_ms, f);
		fputs(" -> ", f);
		ms_text(sb->duration_ms, f);
		fprintf(f, " (%+" PRId64 "%%)\n",
			((int64_t)sb->duration_ms - (int64_t)sa->duration_ms) *
				100 / (int64_t)sa->duration_ms);
	}
}

size_t hist_diff(const struct res_run *a, const struct res_run *b,
		 const struct hist_diff_opts *o, FILE *f)
{
	struct diff_counts c = { 0 };

	fputs("A ", f);
	hist_run_line(a, f);
	fputs("B ", f);
	hist_run_line(b, f);
	verdict_lines(a, b, &c, f);
	duration_lines(a, b, o, &c, f);
	fprintf(f,
		"%zu regressed, %zu fixed, %zu changed, %zu new, %zu removed, %zu slower, %zu faster (durations beyond %u%% and ",
		c.regressed, c.fixed, c.changed, c.added, c.removed, c.slower,
		c.faster, o->pct);
	ms_text(o->min_ms, f);
	fputs(")\n", f);
	return c.regressed;
}

/* One letter per verdict, for the strip; '.' where it did not run. */
static char letter(const struct res_scenario *sc)
{
	static const char letters[VERDICT__COUNT] = {
		[VERDICT_PASS] = 'P',	 [VERDICT_FAIL] = 'F',
		[VERDICT_SKIP] = 'S',	 [VERDICT_XFAIL] = 'x',
		[VERDICT_TIMEOUT] = 'T', [VERDICT_ERROR] = 'E',
		[VERDICT_CRASH] = 'C',	 [VERDICT_XPASS] = 'X',
	};

	return sc && sc->verdict < VERDICT__COUNT ? letters[sc->verdict] : '.';
}

void hist_flips(const struct res_run *runs, size_t n, const char *name,
		size_t *ret_flips, size_t *ret_pairs)
{
	const struct res_scenario *prev = NULL;
	const char *prev_key = NULL;
	size_t flips = 0, pairs = 0;

	for (size_t k = 0; k < n; k++) {
		const struct res_scenario *sc = find(&runs[k], name);
		const char *key = res_kernel_str(&runs[k], "key");

		if (!sc)
			continue;
		if (prev && !strcmp(prev_key, key)) {
			pairs++;
			flips += prev->verdict != sc->verdict;
		}
		prev = sc;
		prev_key = key;
	}
	*ret_flips = flips;
	*ret_pairs = pairs;
}

const struct res_scenario *hist_find(const struct res_run *run,
				     const char *name)
{
	return find(run, name);
}

struct flake {
	const char *name;
	size_t flips, pairs;
};

static int cmp_flakes(const void *pa, const void *pb)
{
	const struct flake *a = pa, *b = pb;
	/* flips/pairs, descending, without floating point. */
	uint64_t l = (uint64_t)a->flips * b->pairs;
	uint64_t r = (uint64_t)b->flips * a->pairs;

	if (l != r)
		return l > r ? -1 : 1;
	return strcmp(a->name, b->name);
}

int hist_flakes(const struct res_run *runs, size_t n, FILE *f)
{
	struct flake *v = NULL;
	size_t nv = 0, cap = 0, flipped = 0;

	/* Every scenario of every run, once. */
	for (size_t k = 0; k < n; k++) {
		for (size_t i = 0; i < runs[k].n; i++) {
			const char *name = runs[k].v[i].name;
			size_t j;

			for (j = 0; j < nv && strcmp(v[j].name, name); j++)
				;
			if (j < nv)
				continue;
			if (nv == cap) {
				struct flake *nvp;

				cap = cap ? 2 * cap : 64;
				nvp = realloc(v, cap * sizeof(*v));
				if (!nvp) {
					free(v);
					return -ENOMEM;
				}
				v = nvp;
			}
			v[nv++] = (struct flake){ .name = name };
		}
	}
	for (size_t j = 0; j < nv; j++) {
		hist_flips(runs, n, v[j].name, &v[j].flips, &v[j].pairs);
		flipped += v[j].flips > 0;
	}
	if (nv)
		qsort(v, nv, sizeof(*v), cmp_flakes);
	for (size_t j = 0; j < nv && v[j].flips; j++) {
		fprintf(f, "%3zu%%  %zu of %zu  ",
			v[j].flips * 100 / v[j].pairs, v[j].flips, v[j].pairs);
		for (size_t k = 0; k < n; k++)
			fputc(letter(find(&runs[k], v[j].name)), f);
		fprintf(f, "  %s\n", v[j].name);
	}
	fprintf(f,
		"%zu of %zu scenarios flipped over %zu runs (a flip: another verdict than in the previous run on the same kernel)\n",
		flipped, nv, n);
	free(v);
	return (int)flipped;
}
