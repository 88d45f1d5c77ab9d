// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl lava submit --server URL --token-file F JOBDIR: JOBDIR/job.yaml
 * to a LAVA server's REST API, POST URL/api/v0.2/jobs/ with the token
 * ("Authorization: Token ..."), over plain HTTP: an https:// server is
 * refused (no TLS library here; docs/lava.md). The job id goes to stdout
 * and to JOBDIR/lava-job-id.
 */
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <json-c/json.h>

#include "fileio.h"
#include "base/escape.h"
#include "cli/lava.h"
#include "cli/verbs.h"

#define SUBMIT_REPLY_MAX (64 * 1024)

/* "http://HOST[:PORT][/PREFIX]": 0, or -EINVAL after a message. */
static int parse_url(const char *url, char *host, size_t hsize, char *port,
		     size_t psize, char *prefix, size_t xsize)
{
	const char *h, *slash, *colon;

	if (strncmp(url, "http://", 7) != 0) {
		esc_term_printf(
			stderr,
			"hostctl lava: '%s': only an http:// server (docs/lava.md)\n",
			url);
		return -EINVAL;
	}
	h = url + 7;
	slash = strchr(h, '/');
	if (!slash)
		slash = h + strlen(h);
	colon = memchr(h, ':', (size_t)(slash - h));
	snprintf(host, hsize, "%.*s", (int)((colon ? colon : slash) - h), h);
	snprintf(port, psize, "%.*s", colon ? (int)(slash - colon - 1) : 2,
		 colon ? colon + 1 : "80");
	snprintf(prefix, xsize, "%s", slash);
	if (!*host || strpbrk(host, " \r\n") || strpbrk(prefix, " \r\n")) {
		esc_term_printf(stderr, "hostctl lava: '%s': not a URL\n", url);
		return -EINVAL;
	}
	while (*prefix && prefix[strlen(prefix) - 1] == '/')
		prefix[strlen(prefix) - 1] = '\0';
	return 0;
}

static int dial(const char *host, const char *port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *p;
	int fd = -1;

	if (getaddrinfo(host, port, &hints, &ai) != 0)
		return -EHOSTUNREACH;
	for (p = ai; p && fd < 0; p = p->ai_next) {
		fd = socket(p->ai_family, p->ai_socktype | SOCK_CLOEXEC,
			    p->ai_protocol);
		if (fd >= 0 && connect(fd, p->ai_addr, p->ai_addrlen) < 0) {
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(ai);
	return fd < 0 ? -ECONNREFUSED : fd;
}

/* The request, sent, and the reply, read to its end (bounded). */
static int exchange(int fd, const char *head, const char *body, char *reply,
		    size_t size, size_t *ret_len)
{
	size_t n = 0;
	ssize_t k;

	if (fileio_write_all(fd, head, strlen(head)) < 0 ||
	    fileio_write_all(fd, body, strlen(body)) < 0)
		return -EIO;
	while (n + 1 < size && (k = read(fd, reply + n, size - 1 - n)) > 0)
		n += (size_t)k;
	reply[n] = '\0';
	*ret_len = n;
	return 0;
}

int lava_submit(const char *server, const char *token_file, const char *jobdir)
{
	char host[256], port[16], prefix[1024], path[4096],
		*job = NULL, *token = NULL, *head = NULL, *reply = NULL;
	struct json_object *req = NULL, *o = NULL, *ids;
	const char *body, *json;
	size_t len;
	int fd = -1, status = 0, code = EXIT_SETUP;

	if (parse_url(server, host, sizeof(host), port, sizeof(port), prefix,
		      sizeof(prefix)) < 0)
		return EXIT_SETUP;
	snprintf(path, sizeof(path), "%s/job.yaml", jobdir);
	if (fileio_read(path, SUBMIT_REPLY_MAX * 16, &job, &len, NULL) < 0 ||
	    fileio_read(token_file, 4096, &token, &len, NULL) < 0) {
		fprintf(stderr, "hostctl lava: cannot read '%s' or '%s'\n",
			path, token_file);
		goto out;
	}
	token[strcspn(token, "\r\n")] = '\0';
	if (!*token || strpbrk(token, " \t")) {
		fprintf(stderr,
			"hostctl lava: '%s': no token on its first line\n",
			token_file);
		goto out;
	}
	req = json_object_new_object();
	json_object_object_add(req, "definition", json_object_new_string(job));
	body = json_object_to_json_string_ext(req, JSON_C_TO_STRING_PLAIN);
	if (asprintf(&head,
		     "POST %s/api/v0.2/jobs/ HTTP/1.1\r\nHost: %s:%s\r\n"
		     "Authorization: Token %s\r\nContent-Type: application/json\r\n"
		     "Content-Length: %zu\r\nConnection: close\r\n\r\n",
		     prefix, host, port, token, strlen(body)) < 0 ||
	    !(reply = malloc(SUBMIT_REPLY_MAX)))
		goto out;
	fd = dial(host, port);
	if (fd < 0 ||
	    exchange(fd, head, body, reply, SUBMIT_REPLY_MAX, &len) < 0) {
		esc_term_printf(stderr, "hostctl lava: '%s': %s\n", server,
				strerror(fd < 0 ? -fd : EIO));
		goto out;
	}
	sscanf(reply, "HTTP/1.%*d %d", &status);
	json = strstr(reply, "\r\n\r\n");
	o = json ? json_tokener_parse(json + 4) : NULL;
	if (status != 201 || !o ||
	    !json_object_object_get_ex(o, "job_ids", &ids) ||
	    !json_object_is_type(ids, json_type_array) ||
	    json_object_array_length(ids) != 1) {
		esc_term_printf(
			stderr,
			"hostctl lava: '%s' refused the job: HTTP %d: %.300s\n",
			server, status, json ? json + 4 : reply);
		goto out;
	}
	printf("%" PRId64 "\n",
	       json_object_get_int64(json_object_array_get_idx(ids, 0)));
	snprintf(path, sizeof(path), "%s/lava-job-id", jobdir);
	{
		char id[32];
		int n = snprintf(id, sizeof(id), "%" PRId64 "\n",
				 json_object_get_int64(
					 json_object_array_get_idx(ids, 0)));

		if (fileio_write_atomic(path, id, (size_t)n) < 0) {
			fprintf(stderr, "hostctl lava: writing '%s': %s\n",
				path, strerror(errno));
			goto out;
		}
	}
	code = EXIT_GREEN;
out:
	if (fd >= 0)
		close(fd);
	json_object_put(o);
	json_object_put(req);
	free(reply);
	free(head);
	free(token);
	free(job);
	return code;
}
