/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What spans the boots of a scenario with VMs of its own (it has `boots`
 * or a `disk`): its persistent disk and each boot's extra ones, each
 * boot's domain (memory, machine, kernel arguments, disks), the view of
 * each boot's steps the session records into, the host lines that tell
 * the boots apart in events.jsonl, the settling of a session carried over
 * a guest's power-off (resumed or not, as the boot expects), and the
 * marker rule at the end (docs/scenarios.md, "Several boots").
 *
 * Running the boots is run-scenario.c's, as for every scenario: it starts
 * each boot's VM, runs its steps and decides how it ended (guest.c), and
 * calls these hooks on the way. Nothing here waits for a guest, and
 * nothing here decides the verdict: a hook that fails says why in @err,
 * and run-scenario.c notes it among the facts verdict_decide() (verdict.c)
 * decides from.
 */
#ifndef VLALAB_BOOTS_H
#define VLALAB_BOOTS_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "scenario/bootcheck.h"
#include "base/boundlog.h"
#include "vm/domain.h"
#include "vm/vmend.h"
#include "results/results.h"
#include "scenario/scenario.h"

struct boots {
	const struct scenario *s;
	struct res_scenario *sc;
	struct res_scenario views[SCN_BOOTS_MAX]; /* each boot's steps */
	const char *run_dir;
	struct boundlog *events; /* events.jsonl, or NULL */
	bool keep; /* keep the disk images after the run */
	const char *machine; /* the run's, for boots that name none */
	char disk[PATH_MAX]; /* "" without one */
	char extra[SCN_EXTRA_DISKS_MAX][PATH_MAX]; /* the boot's own */
	size_t nextra;
	struct domain_disk disks[1 + SCN_EXTRA_DISKS_MAX];
	char cmdline[2048];
};

/*
 * The part of scenario @s's disk images' names that comes from its name
 * (disk-<slug>....img in the run directory): two scenarios with one slug
 * ("a/b-c", "a-b/c") share their images, which hostctl run -j must not
 * use at once. Returns whether @s has disk images at all.
 */
bool boots_disk_slug(const struct scenario *s, char *buf, size_t len);

/*
 * Begin scenario @s (s->nboots > 0), whose result is @sc (from
 * runner_result_init()): each boot's view and result, and the persistent
 * disk (qemu-img). A boot that names no machine gets @machine, the run's
 * (NULL: DOMAIN_MACHINE_DEFAULT). Returns 0, or a negative errno with the
 * reason in @err; boots_end() is due either way.
 */
int boots_begin(struct boots *b, const struct scenario *s,
		struct res_scenario *sc, const char *run_dir,
		struct boundlog *events, bool keep, const char *machine,
		char *err, size_t errlen);

/*
 * Boot @k's domain on top of what every guest shares (@dc, from
 * guest_domain()): its memory, machine, kernel arguments after @base (the
 * run's command line, NULL: the default) and disks, its extra disks
 * created. Returns 0, or a negative errno with the reason in @err. @dc
 * points into @b until the next boot.
 */
int boots_domain(struct boots *b, size_t k, const char *base,
		 struct domain_config *dc, char *err, size_t errlen);

/*
 * The host line in events.jsonl for boot @k on the VM @label: "boot" as
 * it starts, "boot_end" with how it @ended and whether it @resumed (-1:
 * it did not follow a power-off). "boot_end" records both in the result.
 */
void boots_note(struct boots *b, const char *what, size_t k, const char *label,
		const char *ended, int resumed);

/*
 * Boot @k's guest is up after boot @k - 1 powered off: it @resumed that
 * boot's image or booted afresh. A fresh boot passes the previous boot's
 * view, still open at its power-off. Returns 0, or -EINVAL with the
 * reason in @err when the boot expects the other (the scenario fails).
 */
int boots_carried(struct boots *b, size_t k, bool resumed, char *err,
		  size_t errlen);

/*
 * Boot @k's VM goes, as @end says it stands (guest_vm_end()): a boot
 * whose end was not recorded ends so (vm_end_name()); its extra disks go
 * unless kept.
 */
void boots_vm_gone(struct boots *b, size_t k, enum vm_end end);

/*
 * The scenario is judged: its steps get the scenario's numbers (the
 * session gave each boot's its own), and the persistent disk goes unless
 * kept.
 */
void boots_end(struct boots *b);

#endif
