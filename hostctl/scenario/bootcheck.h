/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pure parts of a scenario's boots (bootcheck.c): a boot's run
 * request and kernel command line, and the marker rule that ties boots
 * together. Every scenario is a list of boots: one without `boots` is one
 * implicit boot. No libvirt, no I/O: the unit tests link it alone.
 */
#ifndef VLALAB_BOOTCHECK_H
#define VLALAB_BOOTCHECK_H

#include <stddef.h>
#include <sys/types.h>

#include "proto.h"
#include "results/results.h"
#include "scenario/scenario.h"

/*
 * The run request of boot @k of @s, as one protocol line in a malloc'd
 * string: that boot's steps and bound, or for a scenario without boots
 * (@k 0) all its steps, state_files and cleanup list. The one place a
 * scenario's request is made, the line-limit checks of the loader
 * included. Returns 0, or as proto_run_encode() (-E2BIG: over the line
 * limit, -EINVAL: no steps), or -ENOMEM.
 */
int boots_run_encode(const struct scenario *s, size_t k, char **ret_line,
		     size_t *ret_len);

/*
 * How long guestd itself may take over that request: the boot's bound, or
 * the scenario's plus its cleanup list's. The host adds its slack on top.
 */
uint64_t boots_bound_ms(const struct scenario *s, size_t k);

/* "running", "poweroff" or "reboot": how a boot is expected to end. */
const char *boots_end_name(enum scn_boot_end e);

/*
 * The marker rule across boots: every marker check that found a token
 * must find the one the latest marker set before it reported. A check
 * that saw another token is turned into a fail. Returns the index of the
 * first such step, or -1. Pure: reads and writes @sc only.
 */
ssize_t boots_check_markers(struct res_scenario *sc);

/*
 * @base followed by @args, space-separated, into @buf. Returns 0 or
 * -ENAMETOOLONG.
 */
int boots_cmdline(const char *base, char *const *args, size_t nargs, char *buf,
		  size_t len);

#endif
