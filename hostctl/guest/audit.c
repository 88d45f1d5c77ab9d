// SPDX-License-Identifier: GPL-2.0-only
/*
 * The state-leak audit, host side: collect a scenario's "before" and
 * "after" snapshots from the guest's events, checking their order, and
 * turn every difference into a one-line leak note that names the
 * scenario. The guest is untrusted: its strings are bounded by the
 * decoder, and here only copied and quoted.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guest/audit.h"
#include "errmsg.h"

static struct audit_snap *phase_snap(struct audit_pair *pair, const char *phase)
{
	if (strcmp(phase, "before") == 0)
		return &pair->before;
	if (strcmp(phase, "after") == 0)
		return &pair->after;
	return NULL;
}

static int take_audit(struct audit_pair *pair, const struct proto_audit *e,
		      bool step_open, bool steps_begun, char *err,
		      size_t errlen)
{
	struct audit_snap *snap = phase_snap(pair, e->phase);

	if (!snap)
		return errmsg(err, errlen, -EPROTO, "audit: unknown phase '%s'",
			      e->phase);
	if (snap->have)
		return errmsg(err, errlen, -EPROTO, "a second '%s' audit",
			      e->phase);
	if (snap == &pair->before && steps_begun)
		return errmsg(err, errlen, -EPROTO,
			      "a 'before' audit after the first step began");
	if (snap == &pair->after && step_open)
		return errmsg(err, errlen, -EPROTO,
			      "an 'after' audit while a step is open");
	if (snap == &pair->after && pair->before.got < pair->before.nfiles)
		return errmsg(
			err, errlen, -EPROTO,
			"an 'after' audit before the 'before' state files");
	memset(snap, 0, sizeof(*snap));
	snap->have = true;
	snap->tainted = e->tainted;
	snap->warns = e->warns;
	snap->bugs = e->bugs;
	snap->nfiles = e->nfiles;
	return 0;
}

static int take_file(struct audit_pair *pair, const struct proto_audit_file *e,
		     char *err, size_t errlen)
{
	struct audit_snap *snap = phase_snap(pair, e->phase);
	struct audit_file_snap *f;

	if (!snap)
		return errmsg(err, errlen, -EPROTO,
			      "audit_file: unknown phase '%s'", e->phase);
	if (!snap->have || snap->got >= snap->nfiles)
		return errmsg(
			err, errlen, -EPROTO,
			"an audit_file for '%s' that its '%s' audit did not announce",
			e->path, e->phase);
	f = &snap->files[snap->got++];
	memcpy(f->path, e->path, sizeof(f->path));
	memcpy(f->err, e->err, sizeof(f->err));
	f->size = e->size;
	memcpy(f->hash, e->hash, sizeof(f->hash));
	memcpy(f->head, e->head, sizeof(f->head));
	return 0;
}

int audit_take(struct audit_pair *pair, const struct proto_event *ev,
	       bool step_open, bool steps_begun, char *err, size_t errlen)
{
	if (ev->type == PROTO_EV_AUDIT)
		return take_audit(pair, &ev->u.audit, step_open, steps_begun,
				  err, errlen);
	if (ev->type == PROTO_EV_AUDIT_FILE)
		return take_file(pair, &ev->u.audit_file, err, errlen);
	return errmsg(err, errlen, -EPROTO, "not an audit event");
}

void audit_taint_letters(uint64_t tainted, char *buf, size_t size)
{
	/* kernel/panic.c's taint_flags[] in 6.1, bit by bit. */
	static const char letters[] = "PFSRMBUDAWCIOELKXTN";
	size_t n = 0;

	for (unsigned int bit = 0; bit < 64 && n + 1 < size; bit++) {
		if (!(tainted & (UINT64_C(1) << bit)))
			continue;
		buf[n++] = bit < sizeof(letters) - 1 ? letters[bit] : '?';
	}
	buf[n] = '\0';
}

void audit_notes_free(struct audit_notes *notes)
{
	for (size_t i = 0; i < notes->n; i++)
		free(notes->v[i]);
	free(notes->v);
	notes->v = NULL;
	notes->n = 0;
}

static int note(struct audit_notes *notes, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int note(struct audit_notes *notes, const char *fmt, ...)
{
	char buf[1024], **v, *s;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s = strdup(buf);
	if (!s)
		return -ENOMEM;
	v = realloc(notes->v, (notes->n + 1) * sizeof(*v));
	if (!v) {
		free(s);
		return -ENOMEM;
	}
	notes->v = v;
	notes->v[notes->n++] = s;
	return 0;
}

/* Taint and log-line differences from @a to @b; @who says whose. */
static int compare_kernel(const char *who, const struct audit_snap *a,
			  const struct audit_snap *b, struct audit_notes *notes)
{
	char letters[72];
	int r = 0;

	if (b->tainted & ~a->tainted) {
		audit_taint_letters(b->tainted & ~a->tainted, letters,
				    sizeof(letters));
		r = note(notes,
			 "leak: %s tainted the kernel '%s' (tainted %" PRIu64
			 " -> %" PRIu64 ")",
			 who, letters, a->tainted, b->tainted);
	}
	if (r == 0 && b->warns > a->warns)
		r = note(notes, "leak: %s logged %" PRIu64 " WARNING line(s)",
			 who, b->warns - a->warns);
	if (r == 0 && b->bugs > a->bugs)
		r = note(notes,
			 "leak: %s logged %" PRIu64 " BUG/Oops/panic line(s)",
			 who, b->bugs - a->bugs);
	return r;
}

/*
 * The guest's text on one line: newline and tab as \n and \t, any other
 * control byte as \xNN, so that a note stays one greppable line.
 */
static void one_line(const char *s, char *buf, size_t size)
{
	size_t n = 0;

	for (; *s && n + 5 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n')
			n += (size_t)snprintf(buf + n, size - n, "\\n");
		else if (c == '\t')
			n += (size_t)snprintf(buf + n, size - n, "\\t");
		else if (c < 0x20 || c == 0x7f)
			n += (size_t)snprintf(buf + n, size - n, "\\x%02x", c);
		else
			buf[n++] = (char)c;
	}
	buf[n] = '\0';
}

static void describe(const struct audit_file_snap *f, char *buf, size_t size)
{
	char head[PROTO_AUDIT_HEAD_MAX * 2];

	if (f->err[0]) {
		one_line(f->err, head, sizeof(head));
		snprintf(buf, size, "errno %s", head);
		return;
	}
	one_line(f->head, head, sizeof(head));
	snprintf(buf, size, "'%s' (%" PRIu64 " bytes)", head, f->size);
}

static int compare_files(const char *scenario, const struct audit_snap *a,
			 const struct audit_snap *b, struct audit_notes *notes)
{
	char was[PROTO_AUDIT_HEAD_MAX * 2 + 64],
		now[PROTO_AUDIT_HEAD_MAX * 2 + 64];
	char path[PROTO_PATH_MAX * 2];
	int r = 0;

	for (size_t i = 0; i < a->got && i < b->got && r == 0; i++) {
		const struct audit_file_snap *fa = &a->files[i];
		const struct audit_file_snap *fb = &b->files[i];

		one_line(fa->path, path, sizeof(path));
		if (strcmp(fa->path, fb->path) != 0) {
			one_line(fb->path, was, sizeof(was));
			r = note(
				notes,
				"leak: '%s': state file %zu is '%s' before and '%s' after",
				scenario, i, path, was);
			continue;
		}
		if (strcmp(fa->err, fb->err) == 0 && fa->size == fb->size &&
		    strcmp(fa->hash, fb->hash) == 0)
			continue;
		describe(fa, was, sizeof(was));
		describe(fb, now, sizeof(now));
		r = note(notes, "leak: '%s' left '%s' changed: was %s, now %s",
			 scenario, path, was, now);
	}
	return r;
}

int audit_compare(const char *scenario, const struct audit_pair *pair,
		  bool incident_expected, struct audit_notes *notes)
{
	char who[PROTO_NAME_MAX + 2];
	int r;

	if (!pair->before.have || !pair->after.have)
		return 0;
	snprintf(who, sizeof(who), "'%s'", scenario);
	r = incident_expected ?
		    0 :
		    compare_kernel(who, &pair->before, &pair->after, notes);
	if (r == 0)
		r = compare_files(scenario, &pair->before, &pair->after, notes);
	return r;
}

int audit_between(const char *prev, const struct audit_snap *prev_after,
		  const struct audit_snap *before, struct audit_notes *notes)
{
	char who[PROTO_NAME_MAX + 64];

	if (!prev_after->have || !before->have)
		return 0;
	snprintf(who, sizeof(who), "something after '%s' ended", prev);
	return compare_kernel(who, prev_after, before, notes);
}
