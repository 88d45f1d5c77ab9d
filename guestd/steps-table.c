// SPDX-License-Identifier: GPL-2.0-only
/*
 * The table of step kinds. Apart from steps.c, whose helpers the step
 * files call, so that the calls go one way: this table to the steps, the
 * steps to steps.c (hostctl/tests/call-loops.py).
 */
#include "guestd.h"

/*
 * Every step kind guestd knows: step_kinds in guestd/meson.build, the one
 * list a kind is added to, generates this table's rows and the
 * declarations in steps-decls.h.
 */
const struct step_ops *const step_table[] = {
#include "steps-table.inc"
	NULL,
};
