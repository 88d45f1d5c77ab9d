// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/crash/judge.c, judge_incidents() on a console log
 * and a timeline without a VM: each report goes to the scenario it
 * happened in (an earlier scenario's late report is listed there once,
 * its verdict unchanged), a hang the host saw is a "hang" incident at
 * the open step, and a bundle is written when the guest died or hung,
 * never for a guest that survived.
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "crash/judge.h"
#include "tap.h"

static const char console_text[] =
	"[    1.000000] ------------[ cut here ]------------\n"
	"[    1.000001] WARNING: CPU: 0 PID: 35 at lib/x.c:10 old_fn+0x10/0x20\n"
	"[    1.000002] CPU: 0 PID: 35 Comm: sh Not tainted 6.1.0 #1\n"
	"[    1.000003] RIP: 0010:old_fn+0x10/0x20\n"
	"[    1.000004] ---[ end trace 0000000000000000 ]---\n"
	"[    3.000000] ------------[ cut here ]------------\n"
	"[    3.000001] WARNING: CPU: 0 PID: 36 at lib/y.c:20 new_fn+0x10/0x20\n"
	"[    3.000002] CPU: 0 PID: 36 Comm: sh Not tainted 6.1.0 #1\n"
	"[    3.000003] RIP: 0010:new_fn+0x10/0x20\n"
	"[    3.000004] ---[ end trace 0000000000000000 ]---\n";

static void feed(struct incident_timeline *tl, enum proto_event_type type,
		 uint64_t t_us, const char *scn)
{
	struct proto_event ev = { .type = type, .t_us = t_us };

	if (type == PROTO_EV_SCENARIO_BEGIN) {
		snprintf(ev.u.scenario_begin.scenario, PROTO_NAME_MAX, "%s",
			 scn);
	} else if (type == PROTO_EV_STEP_BEGIN) {
		snprintf(ev.u.step_begin.scenario, PROTO_NAME_MAX, "%s", scn);
		snprintf(ev.u.step_begin.kind, PROTO_KIND_MAX, "write");
		snprintf(ev.u.step_begin.name, PROTO_NAME_MAX, "provoke");
	}
	if (incident_timeline_feed(tl, &ev) < 0)
		abort();
}

/* a/old ran from 0.5 s to 2 s, b/cur from 2 s on; one step each. */
static void timeline(struct incident_timeline *tl)
{
	incident_timeline_init(tl);
	feed(tl, PROTO_EV_SCENARIO_BEGIN, 500000, "a/old");
	feed(tl, PROTO_EV_STEP_BEGIN, 600000, "a/old");
	feed(tl, PROTO_EV_STEP_END, 1500000, "a/old");
	feed(tl, PROTO_EV_SCENARIO_BEGIN, 2000000, "b/cur");
	feed(tl, PROTO_EV_STEP_BEGIN, 2500000, "b/cur");
}

struct fixture {
	char dir[64], run_dir[128], console[128];
	struct incident_timeline tl;
	struct res_step steps[2];
	struct res_scenario sc[2]; /* a/old (done, pass), b/cur */
	struct res_run run;
	struct pm_opts pm;
	unsigned int bundles;
	struct judge_in in;
};

static void setup(struct fixture *f)
{
	FILE *c;

	memset(f, 0, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "/tmp/hostctl-judge-XXXXXX");
	if (!mkdtemp(f->dir))
		abort();
	snprintf(f->run_dir, sizeof(f->run_dir), "%s/run", f->dir);
	snprintf(f->console, sizeof(f->console), "%s/console-vm1.log", f->dir);
	if (mkdir(f->run_dir, 0755) < 0)
		abort();
	c = fopen(f->console, "w");
	if (!c || fputs(console_text, c) < 0 || fclose(c) != 0)
		abort();
	timeline(&f->tl);
	for (size_t i = 0; i < 2; i++) {
		snprintf(f->steps[i].kind, PROTO_KIND_MAX, "write");
		snprintf(f->steps[i].name, PROTO_NAME_MAX, "provoke");
		f->sc[i].steps = &f->steps[i];
		f->sc[i].nsteps = 1;
	}
	snprintf(f->sc[0].name, PROTO_NAME_MAX, "a/old");
	f->sc[0].done = true;
	f->sc[0].verdict = VERDICT_PASS;
	snprintf(f->sc[1].name, PROTO_NAME_MAX, "b/cur");
	f->run.v = f->sc;
	f->run.n = 2;
	f->pm.run_dir = f->run_dir;
	f->in = (struct judge_in){ .pm = &f->pm,
				   .label = "vm1",
				   .console = f->console,
				   .tl = &f->tl,
				   .bundles = &f->bundles,
				   .sc = &f->sc[1],
				   .run = &f->run,
				   .survived = true,
				   .open_step = -1 };
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void teardown(struct fixture *f)
{
	for (size_t i = 0; i < 2; i++) {
		for (size_t j = 0; j < f->sc[i].nincidents; j++)
			free(f->sc[i].incidents[j].bundle);
		free(f->sc[i].incidents);
	}
	incident_timeline_free(&f->tl);
	if (nftw(f->dir, rm_one, 8, FTW_DEPTH | FTW_PHYS) != 0)
		abort();
}

static bool bundle_has(const struct fixture *f, const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/bundle-vm1-1/%s", f->run_dir, file);
	return access(path, F_OK) == 0;
}

/* A guest that survived: each report to its own scenario, no bundle. */
static void test_survived(void)
{
	struct fixture f;
	const struct res_scenario *old, *cur;

	setup(&f);
	old = &f.sc[0];
	cur = &f.sc[1];
	judge_incidents(&f.in);
	is_int(cur->nincidents, 1, "survived: one incident of its own");
	if (cur->nincidents) {
		is_str(cur->incidents[0].title, "WARNING in new_fn",
		       "survived: the report of its own time");
		is_int(cur->incidents[0].step, 0, "survived: at its step");
		ok(!cur->incidents[0].bundle,
		   "a guest that survived: no bundle");
	}
	is_int(old->nincidents, 1,
	       "a late report goes to the earlier scenario");
	if (old->nincidents)
		is_str(old->incidents[0].title, "WARNING in old_fn",
		       "late: the earlier scenario's own report");
	is_str(proto_verdict_name(old->verdict), "pass",
	       "late: the earlier scenario's verdict stays");
	ok(!bundle_has(&f, "console.log"), "survived: no bundle folder");

	/* Judged again (the next boot on this VM): listed once. */
	f.sc[1].nincidents = 0;
	free(f.sc[1].incidents);
	f.sc[1].incidents = NULL;
	judge_incidents(&f.in);
	is_int(old->nincidents, 1, "late: listed once");
	teardown(&f);
}

/* A guest that died: its incidents point at the bundle. */
static void test_died(void)
{
	struct fixture f;
	const struct res_scenario *cur;

	setup(&f);
	cur = &f.sc[1];
	f.in.survived = false;
	judge_incidents(&f.in);
	is_int(cur->nincidents, 1, "died: its incident");
	ok(cur->nincidents && cur->incidents[0].bundle &&
		   !strcmp(cur->incidents[0].bundle, "bundle-vm1-1"),
	   "a guest that died: its incident points at the bundle");
	ok(bundle_has(&f, "console.log") && bundle_has(&f, "reports.txt"),
	   "died: the bundle holds console.log and reports.txt");
	is_int(f.bundles, 1, "died: one bundle counted");
	teardown(&f);
}

/* A hang the host saw: a "hang" incident at the open step, a bundle. */
static void test_hang(void)
{
	struct fixture f;
	const struct res_scenario *cur;
	const struct res_incident *h;

	setup(&f);
	cur = &f.sc[1];
	f.in.hang = "no heartbeat for 15 s";
	f.in.open_step = 0;
	judge_incidents(&f.in);
	is_int(cur->nincidents, 2, "hang: the report and the hang");
	h = cur->nincidents == 2 ? &cur->incidents[1] : NULL;
	is_str(h ? h->kind : "", "hang", "a hang the host saw: kind hang");
	is_str(h ? h->title : "", "hang: no heartbeat for 15 s",
	       "hang: its title says why");
	is_int(h ? h->step : -2, 0, "hang: at the open step");
	ok(h && h->bundle, "a guest that hung (still running): a bundle");
	teardown(&f);
}

int main(void)
{
	test_survived();
	test_died();
	test_hang();
	return tap_done();
}
