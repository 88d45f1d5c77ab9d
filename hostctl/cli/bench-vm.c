// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl bench's libvirt measurements (bench-priv.h): a boot, a
 * restore, a gap after a failure, each a runner run in a child process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "cli/bench-priv.h"
#include "results/results.h"
#include "run/spec.h"

/* What a runner child (bench_runner()) sends back. */
struct runner_out {
	int r; /* runner_run()'s, or -errno */
	struct guest_stats stats;
	char accel[16];
	bool pass; /* the first scenario passed */
	uint64_t duration_ms, steps_us; /* its duration, its steps' sum */
	size_t nsteps;
};

/* In the child: runner_run() on @scn, its figures into @out. */
static void runner_child(struct bench *b, struct scenario **scn, size_t n,
			 const char *tag, unsigned int i, bool restore,
			 bool spare, struct runner_out *out)
{
	struct runner_opts ro = { 0 };
	struct res_run run = { 0 };
	char run_dir[PATH_MAX + 128], run_id[64], err[1024];
	int r;

	snprintf(run_id, sizeof(run_id), "bench-%s-%d-%u", tag, getppid(), i);
	snprintf(run_dir, sizeof(run_dir), "%s/bench/%s", b->su.cache_dir,
		 run_id);
	run.v = calloc(n, sizeof(*run.v));
	r = fs_mkdir_p(run_dir) < 0 || !run.v ? -ENOMEM : 0;
	for (size_t j = 0; r == 0 && j < n; j++)
		r = runner_result_init(scn[j], &run.v[j]);
	if (r < 0) {
		fprintf(stderr, "hostctl bench: preparing run %u failed\n", i);
		out->r = -ENOMEM;
		return;
	}
	run.n = n;
	run_runner_opts(&b->su, run_dir, run_id, &ro);
	ro.machine = b->machine;
	ro.boot_scale = setup_boot_scale(&b->su);
	ro.accel = b->accel;
	ro.restore = restore;
	ro.spare = spare;
	out->r = runner_run(&ro, scn, &run, &out->stats, err, sizeof(err));
	if (out->r < 0)
		fprintf(stderr, "hostctl bench: libvirt '%s': %s\n", b->su.uri,
			err);
	else if (run.v[n - 1].verdict != VERDICT_PASS)
		fprintf(stderr, "hostctl bench: %s run %u: %s: %s\n", tag,
			i + 1, proto_verdict_name(run.v[n - 1].verdict),
			run.v[n - 1].reason ? run.v[n - 1].reason : "");
	if (out->r >= 0) {
		snprintf(out->accel, sizeof(out->accel), "%s", run.accelerator);
		out->pass = run.v[0].verdict == VERDICT_PASS;
		out->duration_ms = run.v[0].duration_ms;
		out->nsteps = run.v[0].nsteps;
		for (size_t j = 0; j < run.v[0].nsteps; j++)
			out->steps_us += run.v[0].steps[j].duration_us;
	}
	res_run_free(&run);
}

/*
 * A run of the runner on @scn (@n scenarios) for run @i, @tag naming its
 * directory: restoring its fresh VMs with @restore, a spare with @spare,
 * its boots added to @stats, its figures into @out. In a child process:
 * libvirt's embedded driver registers anew at each connection, and a
 * process has room for about 20 ("Too many drivers, cannot register
 * QEMU"); this one opens none. 0, or -errno after saying why.
 */
static int bench_runner(struct bench *b, struct scenario **scn, size_t n,
			const char *tag, unsigned int i, bool restore,
			bool spare, struct guest_stats *stats,
			struct runner_out *out)
{
	int fds[2], status = 0;
	size_t got = 0;
	pid_t pid;

	memset(out, 0, sizeof(*out));
	out->stats = *stats;
	fflush(stdout);
	fflush(stderr);
	if (pipe(fds) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (pid == 0) {
		close(fds[0]);
		runner_child(b, scn, n, tag, i, restore, spare, out);
		fflush(stderr);
		_exit(write(fds[1], out, sizeof(*out)) == sizeof(*out) ? 0 : 1);
	}
	close(fds[1]);
	while (got < sizeof(*out)) {
		ssize_t k = read(fds[0], (char *)out + got, sizeof(*out) - got);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += (size_t)k;
	}
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got < sizeof(*out)) {
		fprintf(stderr,
			"hostctl bench: %s run %u: its process ended without its figures (status %d)\n",
			tag, i + 1, status);
		return -EIO;
	}
	if (out->r < 0)
		return out->r;
	*stats = out->stats;
	return 0;
}

/*
 * One libvirt boot (run @i of bench/trivial-read) into b->boot, and for a
 * pass the per-step figures; the accelerator it used into b->accel_used.
 * 0, or -errno after saying why.
 */
int bench_time_boot(struct bench *b, unsigned int i)
{
	struct scenario *scn[1] = { &b->s };
	struct runner_out out;
	int r = bench_runner(b, scn, 1, "boot", i, false, false, &b->boot,
			     &out);

	if (r == 0)
		snprintf(b->accel_used, sizeof(b->accel_used), "%s", out.accel);
	if (r == 0 && out.pass && b->s.nsteps) {
		b->step_own[b->nstep] = out.steps_us / b->s.nsteps;
		b->step[b->nstep++] = out.duration_ms * 1000 / b->s.nsteps;
	}
	return r;
}

/*
 * One VM restored from its saved image as run restores it (run @i of
 * bench/trivial-read), into b->rest; one that booted instead is counted
 * lost, not timed. 0, or -errno after saying why.
 */
int bench_time_restore(struct bench *b, unsigned int i)
{
	struct scenario *scn[1] = { &b->s };
	struct guest_stats st = { 0 };
	struct runner_out out;
	int r = bench_runner(b, scn, 1, "restore", i, true, false, &st, &out);

	if (r < 0)
		return r;
	if (st.boots != 1 || st.restored != 1) {
		fprintf(stderr,
			"hostctl bench: restore %u: the VM booted rather than restored; not counted\n",
			i + 1);
		b->restore_lost++;
		return 0;
	}
	b->rest.create_us[b->rest.boots] = st.create_us[0];
	b->rest.hello_us[b->rest.boots] = st.hello_us[0];
	b->rest.teardown_us[b->rest.boots++] = st.teardown_us[0];
	return 0;
}

/*
 * Run @i of a gap: bench/fails, then bench/trivial-read, which the
 * failure sends to a fresh VM (restored with @restore, the spare's with
 * @spare); @stats gets the gap. 0, or -errno after saying why.
 */
int bench_time_gap(struct bench *b, unsigned int i, bool restore, bool spare,
		   struct guest_stats *stats)
{
	struct scenario *scn[2] = { &b->fails, &b->s };
	struct runner_out out;

	return bench_runner(b, scn, 2,
			    spare   ? "gap-spare" :
			    restore ? "gap-restore" :
				      "gap",
			    i, restore, spare, stats, &out);
}

void bench_gap_stages(FILE *f, const struct guest_stats *st)
{
	static const struct {
		const char *what;
		enum guest_gap_stage to, from;
	} rows[] = {
		{ "  scenario judged, its VM gone", GUEST_GAP_SCENARIO,
		  GUEST_GAP_SCENARIO },
		{ "    of which the teardown", GUEST_GAP_TEARDOWN,
		  GUEST_GAP_TEARDOWN },
		{ "  its results written", GUEST_GAP_TAKE, GUEST_GAP_SCENARIO },
		{ "  domain, image key, slot", GUEST_GAP_PREPARED,
		  GUEST_GAP_TAKE },
		{ "  restore XML from the image", GUEST_GAP_XML,
		  GUEST_GAP_PREPARED },
		{ "  restore call", GUEST_GAP_CALL, GUEST_GAP_CALL },
		{ "  log, streams, resume, greeting", GUEST_GAP_STARTED,
		  GUEST_GAP_XML },
		{ "  started -> restored hello", GUEST_GAP_UP,
		  GUEST_GAP_STARTED },
	};
	uint64_t us[16];

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		unsigned int n = 0;

		for (unsigned int i = 0; i < st->gaps && i < 16; i++) {
			const uint64_t *g = st->gap_stage_us[i];
			uint64_t v = g[rows[k].to];

			/* Only the gaps that restored. */
			if (!g[GUEST_GAP_UP])
				continue;
			if (rows[k].from != rows[k].to)
				v -= g[rows[k].from];
			if (rows[k].to == GUEST_GAP_STARTED)
				v -= g[GUEST_GAP_CALL];
			us[n++] = v;
		}
		if (n)
			bench_detail(f, rows[k].what, us, n, 0, "");
	}
	{
		unsigned int n = 0;

		for (unsigned int i = 0; i < st->gaps && i < 16; i++)
			if (st->gap_stage_us[i][GUEST_GAP_UP])
				us[n++] = st->gap_us[i] -
					  st->gap_stage_us[i][GUEST_GAP_UP];
		if (n)
			bench_detail(f, "  hello -> next start", us, n, 0, "");
	}
}
