// SPDX-License-Identifier: GPL-2.0-only
/*
 * The HTTP client of hostctl lava submit and fetch: one request a
 * connection to a LAVA server's REST API, over http:// or https://
 * (OpenSSL, the certificate checked against the system's trust store or
 * SSL_CERT_FILE / SSL_CERT_DIR, and the server's name or address). The
 * server is remote input: its reply is bounded (the caller's bound on
 * the body, LAVA_HTTP_HEAD_MAX on the head), must be whole (its
 * Content-Length, or chunked to the last chunk), and each socket
 * operation times out. Nothing here prints: 0 or a negative errno, the
 * reason in the caller's buffer, which never holds the token.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include "errmsg.h"
#include "fileio.h"
#include "cli/lava.h"

#define LAVA_HTTP_HEAD_MAX (64 * 1024)
/* Each connect, send and receive; a server that stalls is an error. */
#define LAVA_HTTP_TIMEOUT_S 60

int lava_url_parse(const char *url, struct lava_url *u, char *err,
		   size_t errlen)
{
	const char *h, *end, *slash, *colon;
	size_t hl;

	memset(u, 0, sizeof(*u));
	if (!strncmp(url, "https://", 8)) {
		u->tls = true;
		h = url + 8;
	} else if (!strncmp(url, "http://", 7)) {
		h = url + 7;
	} else {
		return errmsg(err, errlen, -EINVAL,
			      "not an http:// or https:// URL");
	}
	slash = h + strcspn(h, "/");
	if (*h == '[') {
		/* An IPv6 address: [ADDR][:PORT]. */
		end = memchr(h, ']', (size_t)(slash - h));
		if (!end)
			return errmsg(err, errlen, -EINVAL, "not a URL");
		h++;
		hl = (size_t)(end - h);
		colon = end[1] == ':' ? end + 1 : NULL;
		if (!colon && end + 1 != slash)
			return errmsg(err, errlen, -EINVAL, "not a URL");
	} else {
		colon = memchr(h, ':', (size_t)(slash - h));
		hl = (size_t)((colon ? colon : slash) - h);
	}
	if (!hl || hl >= sizeof(u->host) || strlen(slash) >= sizeof(u->prefix))
		return errmsg(err, errlen, -EINVAL, "not a URL");
	memcpy(u->host, h, hl);
	u->host[hl] = '\0';
	if (colon) {
		size_t pl = (size_t)(slash - colon - 1);

		if (!pl || pl >= sizeof(u->port) ||
		    strspn(colon + 1, "0123456789") != pl)
			return errmsg(err, errlen, -EINVAL, "not a port");
		memcpy(u->port, colon + 1, pl);
	} else {
		snprintf(u->port, sizeof(u->port), "%s", u->tls ? "443" : "80");
	}
	snprintf(u->prefix, sizeof(u->prefix), "%s", slash);
	/* Nothing that could end the request line or a header early. */
	for (const char *p = url; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return errmsg(err, errlen, -EINVAL, "not a URL");
	while (*u->prefix && u->prefix[strlen(u->prefix) - 1] == '/')
		u->prefix[strlen(u->prefix) - 1] = '\0';
	return 0;
}

int lava_token_read(const char *path, char **ret, char *err, size_t errlen)
{
	char *tok;
	size_t len;
	int r;

	r = fileio_read(path, 4096, &tok, &len, NULL);
	if (r < 0)
		return errmsg(err, errlen, r, "%s", strerror(-r));
	tok[strcspn(tok, "\r\n")] = '\0';
	/* It goes into a header: printable ASCII, no space. */
	for (const char *p = tok; *p; p++)
		if ((unsigned char)*p <= ' ' || (unsigned char)*p >= 0x7f)
			*tok = '\0';
	if (!*tok) {
		explicit_bzero(tok, len);
		free(tok);
		return errmsg(err, errlen, -EINVAL,
			      "no token on its first line");
	}
	*ret = tok;
	return 0;
}

void lava_token_free(char *tok)
{
	if (tok)
		explicit_bzero(tok, strlen(tok));
	free(tok);
}

/* One connection: a socket, and TLS over it for https. */
struct conn {
	int fd;
	SSL_CTX *ctx;
	SSL *ssl;
};

static int dial(const struct lava_url *u, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *p;
	struct timeval tv = { .tv_sec = LAVA_HTTP_TIMEOUT_S };
	int fd = -1, e = ECONNREFUSED, g;

	g = getaddrinfo(u->host, u->port, &hints, &ai);
	if (g != 0)
		return errmsg(err, errlen, -EHOSTUNREACH, "%s",
			      gai_strerror(g));
	for (p = ai; p && fd < 0; p = p->ai_next) {
		fd = socket(p->ai_family, p->ai_socktype | SOCK_CLOEXEC,
			    p->ai_protocol);
		if (fd < 0) {
			e = errno;
			continue;
		}
		/* Linux bounds connect() by the send timeout too. */
		if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) <
			    0 ||
		    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) <
			    0 ||
		    connect(fd, p->ai_addr, p->ai_addrlen) < 0) {
			e = errno == EINPROGRESS ? ETIMEDOUT : errno;
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(ai);
	if (fd < 0)
		return errmsg(err, errlen, -e, "%s", strerror(e));
	return fd;
}

/* OpenSSL's reason for the last failure, and the certificate's. */
static int tls_error(struct conn *c, char *err, size_t errlen, const char *what)
{
	unsigned long e = ERR_get_error();
	long v = c->ssl ? SSL_get_verify_result(c->ssl) : X509_V_OK;
	char buf[256] = "";

	if (e)
		ERR_error_string_n(e, buf, sizeof(buf));
	ERR_clear_error();
	if (v != X509_V_OK)
		return errmsg(err, errlen, -EPROTO, "%s: certificate: %s", what,
			      X509_verify_cert_error_string(v));
	return errmsg(err, errlen, -EPROTO, "%s: %s", what,
		      *buf ? buf : "the connection failed");
}

static int conn_open(struct conn *c, const struct lava_url *u, char *err,
		     size_t errlen)
{
	unsigned char ip[16];
	bool literal;

	c->fd = dial(u, err, errlen);
	if (c->fd < 0 || !u->tls)
		return c->fd < 0 ? c->fd : 0;
	c->ctx = SSL_CTX_new(TLS_client_method());
	if (!c->ctx)
		return tls_error(c, err, errlen, "TLS");
	SSL_CTX_set_min_proto_version(c->ctx, TLS1_2_VERSION);
	SSL_CTX_set_verify(c->ctx, SSL_VERIFY_PEER, NULL);
	/* The system's trust store, or SSL_CERT_FILE / SSL_CERT_DIR. */
	if (SSL_CTX_set_default_verify_paths(c->ctx) != 1)
		return tls_error(c, err, errlen, "TLS trust store");
	c->ssl = SSL_new(c->ctx);
	if (!c->ssl || SSL_set_fd(c->ssl, c->fd) != 1)
		return tls_error(c, err, errlen, "TLS");
	literal = inet_pton(AF_INET, u->host, ip) == 1 ||
		  inet_pton(AF_INET6, u->host, ip) == 1;
	/* The certificate must name the server: its address or its name. */
	if (literal ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(c->ssl),
						    u->host) != 1 :
		      SSL_set_tlsext_host_name(c->ssl, u->host) != 1 ||
			      SSL_set1_host(c->ssl, u->host) != 1)
		return tls_error(c, err, errlen, "TLS");
	if (SSL_connect(c->ssl) != 1)
		return tls_error(c, err, errlen, "TLS handshake");
	return 0;
}

static void conn_close(struct conn *c)
{
	if (c->ssl)
		SSL_free(c->ssl);
	if (c->ctx)
		SSL_CTX_free(c->ctx);
	if (c->fd >= 0)
		close(c->fd);
	ERR_clear_error();
}

static int conn_write(struct conn *c, const char *buf, size_t len)
{
	if (!c->ssl)
		return fileio_write_all(c->fd, buf, len);
	while (len) {
		size_t n = 0;

		if (SSL_write_ex(c->ssl, buf, len, &n) != 1)
			return -EIO;
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * Up to @size bytes into @buf: how many, 0 at the end of the stream
 * (@clean says whether the server closed it cleanly: for TLS, with a
 * close_notify; else a cut may have been an attacker's), or -errno.
 */
static ssize_t conn_read(struct conn *c, char *buf, size_t size, bool *clean)
{
	size_t n = 0;
	ssize_t k;
	int e;

	*clean = true;
	if (!c->ssl) {
		do
			k = read(c->fd, buf, size);
		while (k < 0 && errno == EINTR);
		return k < 0 ? -errno : k;
	}
	errno = 0;
	if (SSL_read_ex(c->ssl, buf, size, &n) == 1)
		return (ssize_t)n;
	e = SSL_get_error(c->ssl, 0);
	if (e == SSL_ERROR_ZERO_RETURN)
		return 0;
	if (e == SSL_ERROR_SYSCALL && errno && errno != EPIPE &&
	    errno != ECONNRESET)
		return -errno;
	/* OpenSSL 3: "unexpected eof while reading", or a reset. */
	ERR_clear_error();
	*clean = false;
	return 0;
}

/*
 * The body of a chunked reply, in place: its length, or -EPROTO when the
 * chunks are malformed or the last one is missing (the reply was cut).
 */
static ssize_t unchunk(char *b, size_t len)
{
	size_t in = 0, out = 0;

	for (;;) {
		size_t size = 0, digits = 0;
		char *eol;

		while (in < len && strchr("0123456789abcdefABCDEF", b[in]) &&
		       b[in]) {
			if (++digits > 15)
				return -EPROTO;
			size = size * 16 +
			       (size_t)(b[in] <= '9' ?
						b[in] - '0' :
						(b[in] | 0x20) - 'a' + 10);
			in++;
		}
		eol = memmem(b + in, len - in, "\r\n", 2);
		if (!digits || !eol)
			return -EPROTO;
		in = (size_t)(eol - b) + 2;
		if (size == 0)
			return (ssize_t)out;
		if (size > len - in || len - in - size < 2 ||
		    memcmp(b + in + size, "\r\n", 2) != 0)
			return -EPROTO;
		memmove(b + out, b + in, size);
		out += size;
		in += size + 2;
	}
}

/*
 * A header's value in the head from @head to @end (its blank line), or
 * NULL; the value ends at its "\r\n".
 */
static const char *header(const char *head, const char *end, const char *name)
{
	size_t nl = strlen(name);
	const char *l = head;

	while ((l = memmem(l, (size_t)(end - l), "\r\n", 2)) && l < end) {
		l += 2;
		if ((size_t)(end - l) > nl && !strncasecmp(l, name, nl) &&
		    l[nl] == ':')
			return l + nl + 1 + strspn(l + nl + 1, " \t");
	}
	return NULL;
}

/*
 * The status of the reply's status line at @buf (before its blank line):
 * "HTTP/1.0" or "HTTP/1.1", a space, three digits, a space or its end. A
 * sign, blanks or fewer digits are no status (sscanf's %d took "-20").
 */
static int status_line(const char *buf, int *status)
{
	const char *d = buf + 9;

	if (strncmp(buf, "HTTP/1.", 7) || (buf[7] != '0' && buf[7] != '1') ||
	    buf[8] != ' ' || strspn(d, "0123456789") != 3 ||
	    (d[3] != ' ' && d[3] != '\r'))
		return -EPROTO;
	*status = (d[0] - '0') * 100 + (d[1] - '0') * 10 + (d[2] - '0');
	return 0;
}

/* lava.h; a pure function of the bytes read (the fuzz suite's fuzz-lava-http). */
int lava_reply_parse(char *buf, size_t len, bool clean, size_t max,
		     struct lava_reply *r, char *err, size_t errlen)
{
	char *end = memmem(buf, len, "\r\n\r\n", 4), *body;
	const char *cl, *te;
	size_t blen;
	ssize_t n;

	if (!end || status_line(buf, &r->status) < 0)
		return errmsg(err, errlen, -EPROTO, "not an HTTP reply");
	body = end + 4;
	blen = len - (size_t)(body - buf);
	cl = header(buf, end, "Content-Length");
	te = header(buf, end, "Transfer-Encoding");
	if (te && !strncasecmp(te, "chunked", 7)) {
		n = unchunk(body, blen);
		if (n < 0)
			return errmsg(
				err, errlen, -EPROTO,
				"the reply was cut or its chunks are malformed");
		blen = (size_t)n;
	} else if (cl) {
		char *e;
		unsigned long long v;

		errno = 0;
		v = strtoull(cl, &e, 10);
		if (errno || e == cl || (*e != '\r' && *e != ' '))
			return errmsg(err, errlen, -EPROTO,
				      "a bad Content-Length");
		if (v > max)
			return errmsg(err, errlen, -EFBIG,
				      "the reply is larger than %zu MiB",
				      max >> 20);
		if (v > blen)
			return errmsg(err, errlen, -EPROTO,
				      "the reply was cut: %zu of %llu bytes",
				      blen, v);
		blen = (size_t)v;
	} else if (!clean) {
		return errmsg(err, errlen, -EPROTO,
			      "the reply was cut (no length, no TLS close)");
	}
	if (blen > max)
		return errmsg(err, errlen, -EFBIG,
			      "the reply is larger than %zu MiB", max >> 20);
	/* The body where the reply was, not a second copy of it. */
	memmove(buf, body, blen);
	buf[blen] = '\0';
	r->body = buf;
	r->len = blen;
	return 0;
}

/*
 * The whole stream, up to the end of its body when the head gives its
 * length (a TLS server need not close cleanly then), bounded.
 */
static int read_reply(struct conn *c, size_t max, char **ret, size_t *ret_len,
		      bool *clean, char *err, size_t errlen)
{
	/* Room for the head, the body, and chunk sizes at 1/8 of it. */
	size_t cap = 0, len = 0, bound = LAVA_HTTP_HEAD_MAX + max + max / 8;
	char *buf = NULL;
	ssize_t k;

	for (;;) {
		const char *end, *cl;

		if (cap - len < 65536 + 1) {
			size_t want = cap ? cap * 2 : 65536 * 2;
			char *p;

			if (want > bound + 1)
				want = bound + 1;
			if (want <= len + 1) {
				free(buf);
				return errmsg(
					err, errlen, -EFBIG,
					"the reply is larger than %zu MiB",
					max >> 20);
			}
			p = realloc(buf, want);
			if (!p) {
				free(buf);
				return errmsg(err, errlen, -ENOMEM, "%s",
					      strerror(ENOMEM));
			}
			buf = p;
			cap = want;
		}
		k = conn_read(c, buf + len, cap - 1 - len, clean);
		if (k < 0) {
			free(buf);
			return errmsg(err, errlen, (int)k, "%s",
				      k == -EAGAIN ? "timed out" :
						     strerror((int)-k));
		}
		if (k == 0)
			break;
		len += (size_t)k;
		buf[len] = '\0';
		end = memmem(buf, len, "\r\n\r\n", 4);
		if (!end && len > LAVA_HTTP_HEAD_MAX) {
			free(buf);
			return errmsg(err, errlen, -EPROTO,
				      "a reply head over %d KiB",
				      LAVA_HTTP_HEAD_MAX / 1024);
		}
		/* A body of known length, all here: done. */
		cl = end ? header(buf, end, "Content-Length") : NULL;
		/* Or too large to take: lava_reply_parse() says so. */
		if (cl && !header(buf, end, "Transfer-Encoding") &&
		    (strtoull(cl, NULL, 10) <= len - (size_t)(end + 4 - buf) ||
		     strtoull(cl, NULL, 10) > max))
			break;
	}
	*ret = buf;
	*ret_len = len;
	return 0;
}

int lava_http(const struct lava_url *u, const char *method, const char *path,
	      const char *token, const char *body, size_t max,
	      struct lava_reply *r, char *err, size_t errlen)
{
	struct conn c = { .fd = -1 };
	sigset_t pipe, old;
	char *head = NULL, *buf = NULL;
	size_t len = 0;
	bool clean = true;
	int n, ret;

	memset(r, 0, sizeof(*r));
	/* The server may close first: an error, never SIGPIPE's death. */
	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	sigprocmask(SIG_BLOCK, &pipe, &old);
	n = asprintf(&head,
		     "%s %s%s HTTP/1.1\r\nHost: %s%s%s:%s\r\n"
		     "User-Agent: vlalab-hostctl\r\nAccept: */*\r\n"
		     "%s%s%s%s%zu\r\nConnection: close\r\n\r\n",
		     method, u->prefix, path, strchr(u->host, ':') ? "[" : "",
		     u->host, strchr(u->host, ':') ? "]" : "", u->port,
		     token ? "Authorization: Token " : "", token ? token : "",
		     token ? "\r\n" : "",
		     body ? "Content-Type: application/json\r\n"
			    "Content-Length: " :
			    "Content-Length: ",
		     body ? strlen(body) : 0);
	if (n < 0) {
		head = NULL;
		ret = errmsg(err, errlen, -ENOMEM, "%s", strerror(ENOMEM));
		goto out;
	}
	ret = conn_open(&c, u, err, errlen);
	if (ret < 0)
		goto out;
	ret = conn_write(&c, head, (size_t)n);
	if (ret == 0 && body)
		ret = conn_write(&c, body, strlen(body));
	if (ret < 0) {
		ret = errmsg(err, errlen, -EIO, "sending the request failed");
		goto out;
	}
	ret = read_reply(&c, max, &buf, &len, &clean, err, errlen);
	if (ret == 0)
		ret = lava_reply_parse(buf, len, clean, max, r, err, errlen);
	if (ret == 0)
		buf = NULL;
out:
	conn_close(&c);
	if (head) {
		/* It held the token. */
		explicit_bzero(head, (size_t)n);
		free(head);
	}
	free(buf);
	{
		/* A SIGPIPE of this exchange goes, not one pending before. */
		sigset_t pending;
		struct timespec zero = { 0 };

		if (!sigismember(&old, SIGPIPE) && !sigpending(&pending) &&
		    sigismember(&pending, SIGPIPE))
			sigtimedwait(&pipe, NULL, &zero);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

void lava_reply_free(struct lava_reply *r)
{
	free(r->body);
	r->body = NULL;
}
