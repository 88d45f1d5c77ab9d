/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hostctl lava (verb-lava.c; verb-lava-fetch.c over lava-log.c,
 * verb-lava-submit.c): docs/lava.md.
 */
#ifndef VLALAB_LAVA_H
#define VLALAB_LAVA_H

#include <stdbool.h>
#include <stddef.h>

/* The job's kernel command line: a local run's, and the framed mode. */
#define LAVA_CMDLINE                                            \
	"console=ttyS0 panic=-1 rdinit=/init quiet loglevel=5 " \
	"no_timer_check vlalab.framed=ttyS0"
/* What the kernel says when guestd powers off: the boot action's end. */
#define LAVA_END_PROMPT "reboot: Power down"
/* At most this many kselftest folders in a job's image (run/plan.c's bound). */
#define KSELFTEST_DIRS_MAX 16

/* At most this much of a LAVA log, a file's or a server's. */
#define LAVA_LOG_MAX ((size_t)1 << 30)

/*
 * Read the console log @log of the job written to @jobdir into a new run
 * directory under @results; the exit code (EXIT_GREEN, EXIT_RED,
 * EXIT_SETUP), each problem one line on stderr.
 */
int lava_fetch(const char *scenarios, const char *results, const char *jobdir,
	       const char *log);

/*
 * The same for the LAVA log @raw (@len bytes, malloc'd; taken) named
 * @log in messages, each scenario's host @host (verb-lava-fetch.c).
 */
int lava_fetch_log(const char *scenarios, const char *results,
		   const char *jobdir, const char *log, char *raw, size_t len,
		   const char *host);

/*
 * The job number in @jobdir/lava-job-id (lava submit's), digits alone
 * and a newline: 0, or a negative errno (-EINVAL: something else).
 */
int lava_job_id_read(const char *jobdir, char *id, size_t size);

/*
 * Submit @jobdir/job.yaml to the LAVA server @server (http://) with the
 * token of @token_file (verb-lava-submit.c): the exit code; the job id
 * on stdout and in @jobdir/lava-job-id.
 */
int lava_submit(const char *server, const char *token_file, const char *jobdir);

/*
 * LAVA's log (lava-run's standard output, a server's job log), or the
 * console itself, in @buf (@len bytes, malloc'd; taken unless it fails):
 * the console's bytes, in @ret (malloc'd; @buf itself for a console),
 * and how many lines looked like records but could not be read, in
 * @ret_bad (each may have been a console line). 0 or -ENOMEM.
 * lava-log.c.
 */
int lava_log_console(char *buf, size_t len, char **ret, size_t *ret_len,
		     size_t *ret_bad);

#endif
