// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl lava submit and fetch --server: a LAVA server's REST API
 * (api/v0.2/, LAVA 2023.01), over http:// or https:// (lava-http.c), the
 * token in the header "Authorization: Token ..." and nowhere else.
 * submit POSTs JOBDIR/job.yaml to api/v0.2/jobs/; the job id goes to
 * stdout and to JOBDIR/lava-job-id. fetch GETs the job's state
 * (api/v0.2/jobs/N/; N from JOBDIR/lava-job-id, or given alone: then the
 * scenarios are the ones its definition names), waits while it is not
 * finished if asked to, then its log (api/v0.2/jobs/N/logs/, the YAML
 * records of LAVA's log), and turns that into a run directory as a log
 * file is (verb-lava-fetch.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "fileio.h"
#include "base/escape.h"
#include "results/results.h"
#include "cli/lava.h"
#include "cli/verbs.h"

#define SUBMIT_REPLY_MAX (64 * 1024)
/* A job's state: its definition is in it. */
#define JOB_REPLY_MAX (4 << 20)
/* While a job runs: first 1 s, then twice as long, at most 30 s. */
#define WAIT_FIRST_S 1
#define WAIT_MAX_S 30

/* The server's URL and the token (none without @token_file). */
static int server_open(const char *server, const char *token_file,
		       struct lava_url *u, char **token)
{
	char err[256];

	*token = NULL;
	if (lava_url_parse(server, u, err, sizeof(err)) < 0) {
		esc_term_printf(stderr, "hostctl lava: '%s': %s\n", server,
				err);
		return -EINVAL;
	}
	if (token_file &&
	    lava_token_read(token_file, token, err, sizeof(err)) < 0) {
		esc_term_printf(stderr, "hostctl lava: '%s': %s\n", token_file,
				err);
		return -EINVAL;
	}
	return 0;
}

/*
 * One request: 0 with @r's status @want, else a line on stderr (the
 * server's status and the start of its reply, escaped) and -EIO.
 */
static int request(const struct lava_url *u, const char *server,
		   const char *method, const char *path, const char *token,
		   const char *body, size_t max, int want, struct lava_reply *r)
{
	char err[512];

	if (lava_http(u, method, path, token, body, max, r, err, sizeof(err)) <
	    0) {
		esc_term_printf(stderr, "hostctl lava: '%s': %s %s: %s\n",
				server, method, path, err);
		return -EIO;
	}
	if (r->status != want) {
		esc_term_printf(stderr,
				"hostctl lava: '%s': %s %s: HTTP %d: %.300s\n",
				server, method, path, r->status, r->body);
		lava_reply_free(r);
		return -EIO;
	}
	return 0;
}

int lava_submit(const char *server, const char *token_file, const char *jobdir)
{
	struct json_object *req = NULL, *o = NULL, *ids;
	struct lava_reply rep = { 0 };
	struct lava_url u;
	char path[4096], id[32], *job = NULL, *token = NULL;
	size_t len;
	int64_t n;
	int r, code = EXIT_SETUP;

	if (server_open(server, token_file, &u, &token) < 0)
		return EXIT_SETUP;
	snprintf(path, sizeof(path), "%s/job.yaml", jobdir);
	r = fileio_read(path, SUBMIT_REPLY_MAX * 16, &job, &len, NULL);
	if (r < 0) {
		fprintf(stderr, "hostctl lava: '%s': %s\n", path, strerror(-r));
		goto out;
	}
	req = json_object_new_object();
	if (!req || json_object_object_add(req, "definition",
					   json_object_new_string(job)) < 0)
		goto out;
	if (request(&u, server, "POST", "/api/v0.2/jobs/", token,
		    json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN),
		    SUBMIT_REPLY_MAX, 201, &rep) < 0)
		goto out;
	o = json_tokener_parse(rep.body);
	if (!o || !json_object_object_get_ex(o, "job_ids", &ids) ||
	    !json_object_is_type(ids, json_type_array) ||
	    json_object_array_length(ids) != 1 ||
	    !json_object_is_type(json_object_array_get_idx(ids, 0),
				 json_type_int) ||
	    (n = json_object_get_int64(json_object_array_get_idx(ids, 0))) <
		    0) {
		esc_term_printf(
			stderr,
			"hostctl lava: '%s' took the job but said no job id: %.300s\n",
			server, rep.body);
		goto out;
	}
	printf("%" PRId64 "\n", n);
	snprintf(path, sizeof(path), "%s/lava-job-id", jobdir);
	r = snprintf(id, sizeof(id), "%" PRId64 "\n", n);
	if (fileio_write_atomic(path, id, (size_t)r) < 0) {
		fprintf(stderr, "hostctl lava: writing '%s': %s\n", path,
			strerror(errno));
		goto out;
	}
	code = EXIT_GREEN;
out:
	json_object_put(o);
	json_object_put(req);
	lava_reply_free(&rep);
	lava_token_free(token);
	free(job);
	return code;
}

/* A string member of @o, or "". */
static const char *str_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return "";
	return json_object_get_string(v);
}

/*
 * Wait for job @id to finish, up to @wait_s seconds: 0 once it has, its
 * state in @ret (a line on stderr when its health is not "Complete": its
 * log is read as it is), else -EAGAIN or -EIO after a line on stderr.
 */
static int job_finished(const struct lava_url *u, const char *server,
			const char *token, const char *id, unsigned wait_s,
			struct json_object **ret)
{
	time_t deadline = time(NULL) + wait_s;
	unsigned pause = WAIT_FIRST_S;
	char path[64];
	bool said = false;

	snprintf(path, sizeof(path), "/api/v0.2/jobs/%s/", id);
	for (;;) {
		struct lava_reply rep;
		struct json_object *o;
		char state[32], health[32];
		time_t now;

		if (request(u, server, "GET", path, token, NULL, JOB_REPLY_MAX,
			    200, &rep) < 0)
			return -EIO;
		o = json_tokener_parse(rep.body);
		snprintf(state, sizeof(state), "%s", str_of(o, "state"));
		snprintf(health, sizeof(health), "%s", str_of(o, "health"));
		if (!*state) {
			esc_term_printf(
				stderr,
				"hostctl lava: '%s': GET %s: no job state in %.300s\n",
				server, path, rep.body);
			json_object_put(o);
			lava_reply_free(&rep);
			return -EIO;
		}
		lava_reply_free(&rep);
		if (!strcmp(state, "Finished")) {
			if (strcmp(health, "Complete"))
				esc_term_printf(
					stderr,
					"hostctl lava: job %s ended '%s': its log is read as it is\n",
					id, health);
			*ret = o;
			return 0;
		}
		json_object_put(o);
		now = time(NULL);
		if (now >= deadline) {
			esc_term_printf(
				stderr,
				"hostctl lava: job %s on '%s' is '%s', not finished: fetch it later, or wait for it with --wait SECONDS\n",
				id, server, state);
			return -EAGAIN;
		}
		if (!said)
			esc_term_printf(
				stderr,
				"hostctl lava: job %s is '%s': waiting for it, up to %u s\n",
				id, state, wait_s);
		said = true;
		sleep(pause < deadline - now ? pause :
					       (unsigned)(deadline - now));
		pause = pause * 2 < WAIT_MAX_S ? pause * 2 : WAIT_MAX_S;
	}
}

/*
 * The scenarios job @id runs, from its definition as submitted
 * (original_definition, which keeps comments; LAVA_SCENARIOS_COMMENT's
 * line) in @state: @ret points into @ret_arr (put it), 0; else a line on
 * stderr and -EINVAL.
 */
static int job_names(struct json_object *state, const char *id,
		     const char ***ret, size_t *ret_n,
		     struct json_object **ret_arr)
{
	const char *def = str_of(state, "original_definition"), *line;
	struct json_object *arr = NULL;
	const char **names;
	size_t n = 0;

	for (line = def; line && *line; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (!strncmp(line, LAVA_SCENARIOS_COMMENT,
			     strlen(LAVA_SCENARIOS_COMMENT))) {
			const char *v = line + strlen(LAVA_SCENARIOS_COMMENT);
			char *one = strndup(v, strcspn(v, "\n"));

			arr = one ? json_tokener_parse(one) : NULL;
			free(one);
			break;
		}
	}
	if (arr && json_object_is_type(arr, json_type_array))
		n = json_object_array_length(arr);
	names = calloc(n ? n : 1, sizeof(*names));
	for (size_t i = 0; names && i < n; i++) {
		struct json_object *v = json_object_array_get_idx(arr, i);

		if (!json_object_is_type(v, json_type_string)) {
			n = 0;
			break;
		}
		names[i] = json_object_get_string(v);
	}
	if (!names || !n) {
		fprintf(stderr,
			"hostctl lava: job %s: its definition names no scenarios ('%s' comment, of hostctl lava job): fetch it with its job folder\n",
			id, LAVA_SCENARIOS_COMMENT);
		free(names);
		json_object_put(arr);
		return -EINVAL;
	}
	*ret = names;
	*ret_n = n;
	*ret_arr = arr;
	return 0;
}

int lava_fetch_remote(const char *scenarios, const char *results,
		      const char *job, const char *server,
		      const char *token_file, unsigned wait_s)
{
	struct json_object *state = NULL, *arr = NULL;
	struct lava_reply rep = { 0 };
	struct lava_url u;
	struct stat st;
	char id[24], path[64], host[RES_HOST_MAX], label[1400];
	const char *jobdir = NULL, **names = NULL;
	char *token = NULL;
	size_t nnames = 0, n = strspn(job, "0123456789");
	int code = EXIT_SETUP;

	if (stat(job, &st) == 0 && S_ISDIR(st.st_mode)) {
		jobdir = job;
		if (lava_job_id_read(jobdir, id, sizeof(id)) < 0) {
			fprintf(stderr,
				"hostctl lava: '%s/lava-job-id': no job id (lava submit writes it)\n",
				jobdir);
			return EXIT_SETUP;
		}
	} else if (n && n <= 20 && !job[n]) {
		snprintf(id, sizeof(id), "%s", job);
	} else {
		esc_term_printf(
			stderr,
			"hostctl lava: '%s': neither a job folder nor a job id\n",
			job);
		return EXIT_SETUP;
	}
	if (server_open(server, token_file, &u, &token) < 0)
		return EXIT_SETUP;
	if (job_finished(&u, server, token, id, wait_s, &state) < 0 ||
	    (!jobdir && job_names(state, id, &names, &nnames, &arr) < 0))
		goto out;
	snprintf(path, sizeof(path), "/api/v0.2/jobs/%s/logs/", id);
	if (request(&u, server, "GET", path, token, NULL, LAVA_REMOTE_LOG_MAX,
		    200, &rep) < 0)
		goto out;
	snprintf(host, sizeof(host), "lava job %s", id);
	snprintf(label, sizeof(label), "%s%s", server, path + 1);
	if (server[strlen(server) - 1] != '/')
		snprintf(label, sizeof(label), "%s%s", server, path);
	code = lava_fetch_log(scenarios, results, jobdir, names, nnames, label,
			      rep.body, rep.len, host);
	rep.body = NULL;
out:
	free(names);
	json_object_put(arr);
	json_object_put(state);
	lava_reply_free(&rep);
	lava_token_free(token);
	return code;
}
