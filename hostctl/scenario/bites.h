/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scenarios' "bites" against the patch series: each entry names a
 * patch of kernel/patches/series (docs/kernel.md, "Every test bites").
 * The scenario validator has no series, so hostctl checks the names here
 * after loading. No logging: problems go to a struct scn_errors.
 */
#ifndef VLALAB_BITES_H
#define VLALAB_BITES_H

#include <stdbool.h>

#include "scenario/scenario.h"

struct json_object;
struct scn_ctx;

/*
 * Check $.bites of the scenario document @doc, whose steps number
 * @nsteps (every boot's): 1..SCN_BITES_MAX objects {patch, step, reason}
 * or {patch, step, incident}, each with optional lines (1..
 * SCN_BITE_LINES_MAX known kernel lines, each once; none: every line).
 * patch is a name or number prefix of a series patch, each once
 * (bites_resolve() checks it against the series: the validator has none); step an index 0..@nsteps-1; reason a substring of
 * the step's failure (one line, 1..SCN_BITE_REASON_MAX bytes) or incident
 * an incident title regex, exactly one of them. The old form {patch,
 * steps: [...]} is refused with the new one as an example. Errors go to
 * @ctx.
 */
void bites_check(struct scn_ctx *ctx, struct json_object *doc, size_t nsteps);

/* Whether the bite @b holds on the kernel line @line: its "lines" name
 * it, or it has none (every line). */
bool bites_on_line(const struct scn_bite *b, const char *line);

/* Fill @s's bites from the validated @doc. Returns 0 or -ENOMEM. */
int bites_fill(struct json_object *doc, struct scenario *s);

/* Free @s's bites. */
void bites_free(struct scenario *s);

/*
 * Resolve every bites entry of @set against the series of each line it
 * bites on (@kernel_dir's patches/series for 6.1, patches/<line>/series
 * for another): each patch becomes the series file name it means (a file
 * name or a prefix of exactly one), the same on every line. An unknown or
 * ambiguous name on one of its lines, or two entries of one scenario
 * naming the same patch, is an error "file: $.bites[i].patch: reason" in
 * @errs. Returns 0, -EINVAL when there
 * were errors, or -errno (with one error saying why) when the series
 * cannot be read.
 */
int bites_resolve(struct scn_set *set, const char *kernel_dir,
		  struct scn_errors *errs);

#endif
