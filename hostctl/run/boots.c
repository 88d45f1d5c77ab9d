// SPDX-License-Identifier: GPL-2.0-only
/*
 * What spans the boots of a scenario with VMs of its own (boots.h). Its
 * persistent disk is created once (qemu-img) and attached to every boot
 * as vda, each boot's extra disks after it; all live in the run
 * directory and go after the run unless kept.
 *
 * Each boot's steps go to guestd as one run request named after the
 * scenario; the session records them into that boot's view, a slice of
 * the scenario's steps. A boot whose guest powers itself off while a step
 * is open, as the boot's end says it should (a hibernation), leaves that
 * step provisionally passed and the session open. The next boot then
 * either resumes the image, and guestd goes on where it stopped (the step
 * ends for real, the rest of that boot's steps follow, then the next
 * boot's own steps), or boots afresh with a hello. Which of the two
 * happened is this boot's "resumed", checked against the file here
 * (boots_carried()) and written to events.jsonl.
 *
 * runner.c runs the boots, as it runs every scenario (one boot on a VM,
 * its end decided by guest.c); crashes are judged there too: each boot's
 * console before its VM goes, the verdict rules once after the last boot
 * (docs/crashes.md).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "run/boots.h"
#include "base/fsutil.h"

/* The machine boot @sb runs on: its own, or the run's. */
static const char *boot_machine(const struct boots *b,
				const struct scn_boot *sb)
{
	return sb->machine[0] ? sb->machine : b->machine;
}

void boots_note(struct boots *b, const char *what, size_t k, const char *label,
		const char *ended, int resumed)
{
	const struct scn_boot *sb = &b->s->boots[k];
	struct json_object *o;
	const char *line;

	if (b->sc->boots) {
		struct res_boot *rb = &b->sc->boots[k];

		snprintf(rb->vm, sizeof(rb->vm), "%s", label);
		if (ended)
			snprintf(rb->ended, sizeof(rb->ended), "%s", ended);
		rb->resumed = resumed;
	}
	o = json_object_new_object();
	if (!o || !b->events)
		goto out;
	json_object_object_add(o, "host", json_object_new_string(what));
	json_object_object_add(o, "scenario",
			       json_object_new_string(b->s->name));
	json_object_object_add(o, "boot", json_object_new_int64((int64_t)k));
	if (!ended) {
		json_object_object_add(
			o, "memory_mib",
			json_object_new_int64((int64_t)sb->memory_mib));
		json_object_object_add(
			o, "machine",
			json_object_new_string(boot_machine(b, sb)));
		json_object_object_add(
			o, "expected_end",
			json_object_new_string(boots_end_name(sb->end)));
	} else {
		json_object_object_add(o, "ended",
				       json_object_new_string(ended));
		json_object_object_add(
			o, "resumed",
			resumed < 0 ? NULL : json_object_new_boolean(resumed));
	}
	line = json_object_to_json_string_ext(
		o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
	/* "vm" goes first, as on every line (boundlog_vm_line()). A failed
	 * write is kept in the log, for the runner to see. */
	if (line)
		boundlog_vm_line(b->events, label, line, strlen(line));
out:
	json_object_put(o);
}

/* qemu-img create -f FORMAT PATH SIZE, without a shell. 0 or -errno. */
static int disk_create(const struct scn_disk *d, const char *path)
{
	char size[32];
	char *argv[] = { "qemu-img",
			 "create",
			 "-q",
			 "-f",
			 d->format == SCN_DISK_QCOW2 ? "qcow2" : "raw",
			 (char *)path,
			 size,
			 NULL };

	snprintf(size, sizeof(size), "%" PRIu64 "M", d->size_mib);
	return fs_run(argv, NULL, NULL);
}

bool boots_disk_slug(const struct scenario *s, char *buf, size_t len)
{
	bool disks = s->has_disk;

	for (size_t k = 0; k < s->nboots; k++)
		disks = disks || s->boots[k].n_extra_disks;
	/* Scenario names are [a-z0-9-]+/[a-z0-9-]+: one '/' to replace. */
	snprintf(buf, len, "%s", s->name);
	for (char *p = buf; *p; p++)
		if (*p == '/')
			*p = '-';
	return disks;
}

static void disk_path(struct boots *b, char *buf, size_t len,
		      const char *suffix, const struct scn_disk *d)
{
	char slug[PROTO_NAME_MAX];

	boots_disk_slug(b->s, slug, sizeof(slug));
	snprintf(buf, len, "%s/disk-%s%s.%s", b->run_dir, slug, suffix,
		 d->format == SCN_DISK_QCOW2 ? "qcow2" : "img");
}

void boots_finish(struct boots *b, size_t k, enum proto_verdict v,
		  const char *why)
{
	char *text;

	if (b->sc->done)
		return;
	if (asprintf(&text, "boot %zu: %s", k, why) < 0)
		text = NULL;
	res_scenario_finish(b->sc, v, text ? text : why);
	free(text);
}

int boots_domain(struct boots *b, size_t k, const char *base,
		 struct domain_config *dc)
{
	const struct scn_boot *sb = &b->s->boots[k];
	char what[PATH_MAX + 128];
	int r;

	dc->ndisks = 0;
	if (*b->disk) {
		b->disks[dc->ndisks].path = b->disk;
		b->disks[dc->ndisks++].format =
			b->s->disk.format == SCN_DISK_QCOW2 ? "qcow2" : "raw";
	}
	b->nextra = 0;
	for (size_t i = 0; i < sb->n_extra_disks; i++) {
		char suffix[48];

		snprintf(suffix, sizeof(suffix), "-b%zu-%zu", k, i);
		disk_path(b, b->extra[i], sizeof(b->extra[i]), suffix,
			  &sb->extra_disks[i]);
		r = disk_create(&sb->extra_disks[i], b->extra[i]);
		if (r < 0) {
			snprintf(what, sizeof(what),
				 "qemu-img could not create '%s': %s",
				 b->extra[i], strerror(-r));
			boots_finish(b, k, VERDICT_ERROR, what);
			return r;
		}
		b->nextra++;
		b->disks[dc->ndisks].path = b->extra[i];
		b->disks[dc->ndisks++].format =
			sb->extra_disks[i].format == SCN_DISK_QCOW2 ? "qcow2" :
								      "raw";
	}
	r = boots_cmdline(base ? base : domain_default_cmdline, sb->kernel_args,
			  sb->n_kernel_args, b->cmdline, sizeof(b->cmdline));
	if (r < 0) {
		boots_finish(b, k, VERDICT_ERROR,
			     "the kernel command line is too long");
		return r;
	}
	dc->memory_mib = sb->memory_mib;
	dc->machine = boot_machine(b, sb);
	dc->cmdline = b->cmdline;
	dc->disks = b->disks;
	return 0;
}

int boots_carried(struct boots *b, size_t k, bool resumed)
{
	const struct scn_boot *sb = &b->s->boots[k];
	struct res_scenario *prev = &b->views[k - 1];

	if (!resumed && !prev->done)
		res_scenario_finish(prev, VERDICT_PASS, NULL);
	if (sb->resumed == SCN_RESUMED_YES && !resumed) {
		boots_finish(
			b, k, VERDICT_FAIL,
			"expected to resume the previous boot's image, but the guest booted afresh (hello)");
		return -EINVAL;
	}
	if (sb->resumed == SCN_RESUMED_NO && resumed) {
		boots_finish(
			b, k, VERDICT_FAIL,
			"expected a fresh boot, but the guest resumed the previous boot's image");
		return -EINVAL;
	}
	return 0;
}

void boots_vm_gone(struct boots *b, size_t k, bool died)
{
	struct res_boot *rb = b->sc->boots ? &b->sc->boots[k] : NULL;

	if (rb && !*rb->ended)
		snprintf(rb->ended, sizeof(rb->ended), "%s",
			 died ? "died" : "running");
	for (size_t i = 0; i < b->nextra; i++)
		if (!b->keep)
			unlink(b->extra[i]);
	b->nextra = 0;
}

static void init_views(struct boots *b)
{
	struct res_scenario *sc = b->sc;

	sc->boots = calloc(b->s->nboots, sizeof(*sc->boots));
	if (sc->boots)
		sc->nboots = b->s->nboots;
	for (size_t k = 0; k < b->s->nboots; k++) {
		const struct scn_boot *sb = &b->s->boots[k];
		struct res_scenario *v = &b->views[k];

		for (size_t i = 0; i < sb->nsteps; i++)
			sc->steps[sb->first_step + i].boot = (uint32_t)k;
		if (sc->boots) {
			struct res_boot *rb = &sc->boots[k];

			rb->index = (uint32_t)k;
			rb->memory_mib = sb->memory_mib;
			snprintf(rb->machine, sizeof(rb->machine), "%s",
				 boot_machine(b, sb));
			snprintf(rb->expected_end, sizeof(rb->expected_end),
				 "%s", boots_end_name(sb->end));
			rb->resumed = -1;
		}

		snprintf(v->name, sizeof(v->name), "%s", b->s->name);
		v->steps = sc->steps + sb->first_step;
		v->nsteps = sb->nsteps;
	}
}

int boots_begin(struct boots *b, const struct scenario *s,
		struct res_scenario *sc, const char *run_dir,
		struct boundlog *events, bool keep, const char *machine)
{
	char what[PATH_MAX + 128];
	int r;

	b->machine = machine ? machine : DOMAIN_MACHINE_DEFAULT;
	b->s = s;
	b->sc = sc;
	b->run_dir = run_dir;
	b->events = events;
	b->keep = keep;
	init_views(b);
	if (!s->has_disk)
		return 0;
	disk_path(b, b->disk, sizeof(b->disk), "", &s->disk);
	r = disk_create(&s->disk, b->disk);
	if (r < 0) {
		snprintf(what, sizeof(what),
			 "qemu-img could not create '%s': %s", b->disk,
			 strerror(-r));
		res_scenario_finish(sc, VERDICT_ERROR, what);
		b->disk[0] = '\0';
	}
	return r;
}

void boots_verdict(struct boots *b)
{
	struct res_scenario *sc = b->sc;
	ssize_t bad;
	char what[128];

	if (sc->done)
		return;
	bad = boots_check_markers(sc);
	if (bad >= 0) {
		snprintf(
			what, sizeof(what),
			"step %zd (marker): the marker read back is not the one set",
			bad + 1);
		res_scenario_finish(sc, VERDICT_FAIL, what);
	} else {
		res_scenario_finish(sc, VERDICT_PASS, NULL);
	}
}

void boots_end(struct boots *b)
{
	struct res_scenario *sc = b->sc;

	/* The session numbered each boot's steps from 0. */
	for (size_t i = 0; i < sc->nsteps; i++)
		sc->steps[i].index = (uint32_t)i;
	for (size_t k = 0; k < b->s->nboots; k++)
		free(b->views[k].reason);
	if (*b->disk && !b->keep)
		unlink(b->disk);
}
