/* SPDX-License-Identifier: GPL-2.0-only */
/* hostctl lava (verb-lava.c, verb-lava-fetch.c): docs/lava.md. */
#ifndef VLALAB_LAVA_H
#define VLALAB_LAVA_H

/* The job's kernel command line: a local run's, and the framed mode. */
#define LAVA_CMDLINE                                            \
	"console=ttyS0 panic=-1 rdinit=/init quiet loglevel=5 " \
	"no_timer_check vlalab.framed=ttyS0"
/* What the kernel says when guestd powers off: the boot action's end. */
#define LAVA_END_PROMPT "reboot: Power down"
/* At most this many kselftest folders in a job's image (run/plan.c's bound). */
#define KSELFTEST_DIRS_MAX 16

/*
 * Read the console log @log of the job written to @jobdir into a new run
 * directory under @results; the exit code (EXIT_GREEN, EXIT_RED,
 * EXIT_SETUP), each problem one line on stderr.
 */
int lava_fetch(const char *scenarios, const char *results, const char *jobdir,
	       const char *log);

/*
 * Submit @jobdir/job.yaml to the LAVA server @server (http://) with the
 * token of @token_file (verb-lava-submit.c): the exit code; the job id on
 * stdout and in @jobdir/lava-job-id.
 */
int lava_submit(const char *server, const char *token_file, const char *jobdir);

#endif
