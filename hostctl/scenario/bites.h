/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The scenarios' "bites" against the patch series: each entry names a
 * patch of kernel/patches/series (docs/kernel.md, "Every test bites").
 * The scenario validator has no series, so hostctl checks the names here
 * after loading. No logging: problems go to a struct scn_errors.
 */
#ifndef VLALAB_BITES_H
#define VLALAB_BITES_H

#include "scenario/scenario.h"

/*
 * Resolve every bites entry of @set against @kernel_dir's series (its
 * patches/series): each patch becomes the series file name it means (a
 * file name or a prefix of exactly one). An unknown or ambiguous name, or
 * two entries of one scenario naming the same patch, is an error
 * "file: $.bites[i].patch: reason" in @errs. Returns 0, -EINVAL when there
 * were errors, or -errno (with one error saying why) when the series
 * cannot be read.
 */
int bites_resolve(struct scn_set *set, const char *kernel_dir,
		  struct scn_errors *errs);

#endif
