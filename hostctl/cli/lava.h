/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hostctl lava (verb-lava.c; verb-lava-fetch.c, verb-lava-submit.c over
 * lava-http.c and lava-log.c): docs/lava.md.
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
/* At most this much of a server's log (remote input, held in memory). */
#define LAVA_REMOTE_LOG_MAX ((size_t)256 << 20)

/*
 * Read the console log @log of the job written to @jobdir into a new run
 * directory under @results; the exit code (EXIT_GREEN, EXIT_RED,
 * EXIT_SETUP), each problem one line on stderr.
 */
int lava_fetch(const char *scenarios, const char *results, const char *jobdir,
	       const char *log);

/*
 * The same for the LAVA log @raw (@len bytes, malloc'd; taken) named
 * @log in messages, each scenario's host @host (verb-lava-fetch.c). The
 * job's scenarios, in order: @names (@nnames, the job's copy on a
 * server), or when NULL those of @jobdir/requests.jsonl.
 */
int lava_fetch_log(const char *scenarios, const char *results,
		   const char *jobdir, const char *const *names, size_t nnames,
		   const char *log, char *raw, size_t len, const char *host);

/*
 * The job number in @jobdir/lava-job-id (lava submit's), digits alone
 * and a newline: 0, or a negative errno (-EINVAL: something else).
 */
int lava_job_id_read(const char *jobdir, char *id, size_t size);

/*
 * The same as lava_fetch() for a job on the LAVA server @server
 * (lava-http.c's URLs), with the token of @token_file (NULL: none, for a
 * public job). @job is the folder lava job wrote, with the job's id in
 * its lava-job-id (lava submit's), or the job's id alone: its scenarios
 * are then the ones the job's definition on the server names (the
 * comment LAVA_SCENARIOS_COMMENT of lava job's job.yaml). A job not
 * finished is waited for up to @wait_s seconds (0: refused at once).
 */
int lava_fetch_remote(const char *scenarios, const char *results,
		      const char *job, const char *server,
		      const char *token_file, unsigned wait_s);

/* The comment of job.yaml that names its scenarios: a JSON array after. */
#define LAVA_SCENARIOS_COMMENT "# vlalab-scenarios: "

/*
 * Submit @jobdir/job.yaml to the LAVA server @server with the token of
 * @token_file (verb-lava-submit.c): the exit code; the job id on stdout
 * and in @jobdir/lava-job-id.
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

/* A LAVA server: "http[s]://HOST[:PORT][/PREFIX]" (lava-http.c). */
struct lava_url {
	bool tls;
	char host[256]; /* an IPv6 address without its brackets */
	char port[8];
	char prefix[1024]; /* "" or "/PREFIX", without a trailing '/' */
};

struct lava_reply {
	int status;
	char *body; /* NUL-terminated; @len bytes before the NUL */
	size_t len;
};

/* @url into @u: 0, or -EINVAL with the reason in @err. */
int lava_url_parse(const char *url, struct lava_url *u, char *err,
		   size_t errlen);

/*
 * The API token on the first line of @path, into @ret (free it with
 * lava_token_free()): 0, or a negative errno with the reason in @err.
 */
int lava_token_read(const char *path, char **ret, char *err, size_t errlen);
void lava_token_free(char *tok);

/*
 * One request, @method @u's prefix + @path (HTTP/1.1, "Authorization:
 * Token @token" when @token, the JSON @body when not NULL), and its reply
 * into @r (free it with lava_reply_free()): its status, and its body of
 * at most @max bytes (-EFBIG beyond). 0 whatever the status, or a
 * negative errno with the reason in @err (never the token).
 */
int lava_http(const struct lava_url *u, const char *method, const char *path,
	      const char *token, const char *body, size_t max,
	      struct lava_reply *r, char *err, size_t errlen);
void lava_reply_free(struct lava_reply *r);

/*
 * The reply @buf (malloc'd, @len bytes read to the end of the stream or
 * of the body and a NUL after them; @clean: the stream closed cleanly,
 * lava_http()'s conn_read()) into @r: its status, and its body of at
 * most @max bytes in @buf itself (taken) on success. 0, or -EPROTO or
 * -EFBIG with the reason in @err (@buf is then still the caller's).
 */
int lava_reply_parse(char *buf, size_t len, bool clean, size_t max,
		     struct lava_reply *r, char *err, size_t errlen);

#endif
