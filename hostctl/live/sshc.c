// SPDX-License-Identifier: GPL-2.0-only
/*
 * SSH to a guest with libssh over a unix socket (sshc.h). The guest end is
 * dropbear in inetd mode behind guestd's relay; each connection gets a
 * dropbear of its own. This file holds the keys, the connection and a
 * command's run; SFTP is sshc-sftp.c's, the interactive shell
 * sshc-shell.c's (sshc-priv.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <libssh/libssh.h>

#include "fileio.h"
#include "base/fsutil.h"
#include "proto.h"
#include "live/sshc.h"
#include "live/sshc-priv.h"
#include "live/sshhold.h"

#define SSHC_HANDSHAKE_S 60L /* libssh: 10 s */
/* Most an earlier connection may leave before this one's echo. */
#define SSHC_STALE_MAX (64ULL << 20)

/*
 * Write @len bytes of @text to @tmp, a new file of mode @mode from its
 * creation (fileio_create_tmp()), and check that nobody but its owner can
 * read it when @mode says so: a private key is never readable by others,
 * not even for a moment.
 */
static int write_new(const char *tmp, const char *text, size_t len, mode_t mode)
{
	struct stat st;
	int fd, r;

	fd = fileio_create_tmp(tmp, mode);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (st.st_mode & 07777 & ~mode)
		r = -EPERM;
	else
		r = fileio_write_all(fd, text, len);
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

/* A key an earlier hostctl left readable by others: its owner's alone. */
static int key_private(const char *priv)
{
	struct stat st;

	if (lstat(priv, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid())
		return -EPERM;
	if ((st.st_mode & 077) && chmod(priv, 0600) < 0)
		return -errno;
	return 0;
}

int sshc_client_key(const char *cache_dir, char *ret_priv, size_t priv_len,
		    char *ret_pub, size_t pub_len, char *err, size_t errlen)
{
	char dir[PATH_MAX], priv[PATH_MAX], pub[PATH_MAX], tmp[PATH_MAX + 32];
	char line[256];
	ssh_key key = NULL;
	char *b64 = NULL, *pem = NULL;
	int r;

	if (snprintf(dir, sizeof(dir), "%s/ssh", cache_dir) >=
		    (int)sizeof(dir) ||
	    snprintf(priv, sizeof(priv), "%s/client_ed25519", dir) >=
		    (int)sizeof(priv) ||
	    snprintf(pub, sizeof(pub), "%s.pub", priv) >= (int)sizeof(pub)) {
		snprintf(err, errlen, "cache path '%s' too long", cache_dir);
		return -ENAMETOOLONG;
	}
	/* The folder of the key: its owner's alone, 0700. */
	r = fs_mkdir_private(dir);
	if (r < 0) {
		snprintf(err, errlen, "creating '%s' (mode 0700): %s", dir,
			 strerror(-r));
		return r;
	}
	if (access(priv, R_OK) == 0 && access(pub, R_OK) == 0) {
		r = key_private(priv);
		if (r < 0) {
			snprintf(err, errlen,
				 "making the client key '%s' mode 0600: %s",
				 priv, strerror(-r));
			return r;
		}
		goto done;
	}
	/* Private names, then link(): two hostctls may race; one key wins. */
	if (ssh_pki_generate(SSH_KEYTYPE_ED25519, 0, &key) != SSH_OK ||
	    ssh_pki_export_pubkey_base64(key, &b64) != SSH_OK ||
	    ssh_pki_export_privkey_base64(key, NULL, NULL, NULL, &pem) !=
		    SSH_OK) {
		snprintf(err, errlen, "libssh could not make an ed25519 key");
		ssh_string_free_char(b64);
		ssh_key_free(key);
		return -EIO;
	}
	/*
	 * Not ssh_pki_export_privkey_file(): it fopen()s the name, through
	 * a link, and creates the file 0666 less the umask until a chmod.
	 */
	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", priv, (long)getpid());
	r = write_new(tmp, pem, strlen(pem), 0600);
	if (r == 0) {
		if (link(tmp, priv) < 0)
			r = errno == EEXIST ? 1 : -errno;
		unlink(tmp);
	}
	if (r == 0) {
		snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", pub, (long)getpid());
		snprintf(line, sizeof(line), "ssh-ed25519 %s vlalab-client\n",
			 b64);
		r = write_new(tmp, line, strlen(line), 0644);
		if (r == 0 && rename(tmp, pub) < 0) {
			r = -errno;
			unlink(tmp);
		}
	}
	ssh_string_free_char(b64);
	ssh_string_free_char(pem);
	ssh_key_free(key);
	if (r < 0) {
		snprintf(err, errlen, "writing the client key '%s': %s", priv,
			 strerror(-r));
		return r;
	}
	/* Lost the race: the winner writes the public part. */
	if (r == 1 && access(pub, R_OK) < 0) {
		snprintf(err, errlen,
			 "the client key '%s' has no public part yet", priv);
		return -EAGAIN;
	}
done:
	snprintf(ret_priv, priv_len, "%s", priv);
	snprintf(ret_pub, pub_len, "%s", pub);
	return 0;
}

static int connect_unix(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, r;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	return fd;
}

/*
 * Send this connection's hello (proto.h) to @fd, and drop what the guest
 * sends before its echo: the tail of an earlier connection, which the
 * port may still carry. Reads only up to the echo's end, so that libssh
 * gets the first byte of dropbear's.
 */
static int hello(int fd, char *err, size_t errlen)
{
	const size_t plen = strlen(SSHPORT_PREAMBLE);
	char want[SSHPORT_HELLO_LEN], buf[4096];
	unsigned char rnd[SSHPORT_NONCE_LEN / 2];
	unsigned long long stale = 0;
	size_t k = 0;
	ssize_t n, i;

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd)) {
		snprintf(err, errlen, "getrandom: %s", strerror(errno));
		return -EIO;
	}
	memcpy(want, SSHPORT_PREAMBLE, plen);
	for (i = 0; i < (ssize_t)sizeof(rnd); i++)
		snprintf(want + plen + 2 * i, 3, "%02x", rnd[i]);
	want[sizeof(want) - 1] = '\n';
	if (write(fd, want, sizeof(want)) != (ssize_t)sizeof(want)) {
		snprintf(err, errlen, "writing the hello: %s", strerror(errno));
		return -EIO;
	}
	/*
	 * @k bytes of the echo seen so far. Its first byte, 'V', comes
	 * nowhere else in it, so a mismatch restarts the match at that byte.
	 */
	while (k < sizeof(want)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		n = poll(&p, 1, (int)SSHC_HANDSHAKE_S * 1000);
		if (n == 0) {
			snprintf(
				err, errlen,
				"no answer from the guest's relay in %ld s (does a client other than hostctl hold its one connection?)",
				SSHC_HANDSHAKE_S);
			return -ETIMEDOUT;
		}
		if (n > 0)
			n = recv(fd, buf, sizeof(buf), MSG_PEEK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(err, errlen,
				 "the guest's relay closed before its answer");
			return -EPIPE;
		}
		for (i = 0; i < n && k < sizeof(want); i++)
			k = buf[i] == want[k] ? k + 1 : buf[i] == want[0];
		/* Take only what was matched: the rest is libssh's. */
		if (recv(fd, buf, (size_t)i, 0) != i) {
			snprintf(err, errlen, "reading the hello: %s",
				 strerror(errno));
			return -EIO;
		}
		stale += (unsigned long long)i;
		if (stale > SSHC_STALE_MAX) {
			snprintf(
				err, errlen,
				"the guest sent over %llu MiB before its answer",
				SSHC_STALE_MAX >> 20);
			return -EPROTO;
		}
	}
	return 0;
}

void sshc_close(struct sshc *c)
{
	if (!c)
		return;
	if (c->s) {
		ssh_disconnect(c->s);
		ssh_free(c->s);
	}
	if (c->fd >= 0)
		close(c->fd);
	sshhold_release(c->sock, c->hold);
	free(c);
}

/* 0 when the server's key is the pinned one. */
static int check_host_key(ssh_session s, const char *pinned, char *err,
			  size_t errlen)
{
	ssh_key srv = NULL, pin = NULL;
	unsigned char *hash = NULL;
	size_t hlen = 0;
	char *fp = NULL;
	int r = 0;

	if (ssh_pki_import_pubkey_file(pinned, &pin) != SSH_OK) {
		snprintf(err, errlen, "cannot read the pinned host key '%s'",
			 pinned);
		return -ENOENT;
	}
	if (ssh_get_server_publickey(s, &srv) != SSH_OK) {
		snprintf(err, errlen, "the guest sent no host key");
		r = -EPROTO;
	} else if (ssh_key_cmp(srv, pin, SSH_KEY_CMP_PUBLIC) != 0) {
		if (ssh_get_publickey_hash(srv, SSH_PUBLICKEY_HASH_SHA256,
					   &hash, &hlen) == 0)
			fp = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256,
						      hash, hlen);
		snprintf(
			err, errlen,
			"the guest's host key (%s) is not the one pinned in '%s': refusing to connect",
			fp ? fp : "?", pinned);
		r = -EPERM;
	}
	ssh_string_free_char(fp);
	ssh_clean_pubkey_hash(&hash);
	ssh_key_free(srv);
	ssh_key_free(pin);
	return r;
}

int sshc_connect(const char *sock, const char *verb, const char *pinned,
		 const char *client, struct sshc **ret, char *err,
		 size_t errlen)
{
	struct sshc *c = calloc(1, sizeof(*c));
	/*
	 * The handshake waits on a dropbear the guest's relay starts for
	 * this connection; under TCG on a loaded host that takes seconds,
	 * and libssh's own bound is 10 s.
	 */
	long timeout = SSHC_HANDSHAKE_S;
	int no = 0, r;
	ssh_key priv = NULL;

	if (!c)
		return -ENOMEM;
	c->fd = c->hold = -1;
	if (strlen(sock) >= sizeof(c->sock)) {
		r = -ENAMETOOLONG;
		snprintf(err, errlen, "socket path '%s' too long", sock);
		goto fail;
	}
	memcpy(c->sock, sock, strlen(sock) + 1);
	/* Before connecting: a second connection would wait unseen. */
	c->hold = sshhold_take(sock, verb, err, errlen);
	if (c->hold < 0) {
		r = c->hold;
		if (r != -EBUSY)
			snprintf(err, errlen, "locking '%s.lock': %s", sock,
				 strerror(-r));
		goto fail;
	}
	c->fd = connect_unix(sock);
	if (c->fd < 0) {
		r = c->fd;
		snprintf(err, errlen, "connecting to '%s': %s", sock,
			 strerror(-r));
		goto fail;
	}
	/* Where this connection starts, each way. */
	r = hello(c->fd, err, errlen);
	if (r < 0)
		goto fail;
	c->s = ssh_new();
	if (!c->s) {
		r = -ENOMEM;
		snprintf(err, errlen, "ssh_new failed");
		goto fail;
	}
	/* No ~/.ssh/config, no known_hosts: the pinned key decides. */
	if (ssh_options_set(c->s, SSH_OPTIONS_PROCESS_CONFIG, &no) < 0 ||
	    ssh_options_set(c->s, SSH_OPTIONS_HOST, "vlalab-guest") < 0 ||
	    ssh_options_set(c->s, SSH_OPTIONS_USER, "root") < 0 ||
	    ssh_options_set(c->s, SSH_OPTIONS_TIMEOUT, &timeout) < 0 ||
	    ssh_options_set(c->s, SSH_OPTIONS_FD, &c->fd) < 0) {
		r = -EINVAL;
		snprintf(err, errlen, "libssh options: %s",
			 ssh_get_error(c->s));
		goto fail;
	}
	if (ssh_connect(c->s) != SSH_OK) {
		r = -EPROTO;
		snprintf(err, errlen, "SSH handshake on '%s': %s", sock,
			 ssh_get_error(c->s));
		goto fail;
	}
	r = check_host_key(c->s, pinned, err, errlen);
	if (r < 0)
		goto fail;
	if (ssh_pki_import_privkey_file(client, NULL, NULL, NULL, &priv) !=
	    SSH_OK) {
		r = -ENOENT;
		snprintf(err, errlen, "cannot read the client key '%s'",
			 client);
		goto fail;
	}
	if (ssh_userauth_publickey(c->s, NULL, priv) != SSH_AUTH_SUCCESS) {
		r = -EACCES;
		snprintf(err, errlen,
			 "the guest refused the client key '%s': %s", client,
			 ssh_get_error(c->s));
		goto fail;
	}
	ssh_key_free(priv);
	*ret = c;
	return 0;
fail:
	ssh_key_free(priv);
	sshc_close(c);
	return r;
}

/* What is buffered on @ch's stream @is_stderr, to @fd; 1 at its end. */
int sshc_copy_stream(ssh_channel ch, int is_stderr, int fd)
{
	char buf[SSHC_BUF];
	int n, r;

	for (;;) {
		n = ssh_channel_read_nonblocking(ch, buf, sizeof(buf),
						 is_stderr);
		if (n == SSH_EOF)
			return 1;
		if (n < 0)
			return -EIO;
		if (n == 0)
			return 0;
		r = fileio_write_all(fd, buf, (size_t)n);
		if (r < 0)
			return r;
	}
}

int sshc_exec(struct sshc *c, const char *cmd, int out_fd, int err_fd,
	      int *ret_status, char *err, size_t errlen)
{
	ssh_channel ch = ssh_channel_new(c->s);
	ssh_event ev = ssh_event_new();
	int r = 0, st;

	if (!ch || !ev) {
		r = -ENOMEM;
		goto out;
	}
	if (ssh_channel_open_session(ch) != SSH_OK ||
	    ssh_channel_request_exec(ch, cmd) != SSH_OK) {
		r = -EIO;
		snprintf(err, errlen, "starting the command: %s",
			 ssh_get_error(c->s));
		goto out;
	}
	ssh_channel_send_eof(ch);
	ssh_event_add_session(ev, c->s);
	/* Both streams as data comes, so neither can fill its window. */
	for (;;) {
		int a = sshc_copy_stream(ch, 0, out_fd);
		int b = a < 0 ? a : sshc_copy_stream(ch, 1, err_fd);

		if (a < 0 || b < 0) {
			r = a < 0 ? a : b;
			snprintf(
				err, errlen, "reading the command's output: %s",
				r == -EIO ? ssh_get_error(c->s) : strerror(-r));
			goto out;
		}
		if (ssh_channel_is_eof(ch) || ssh_channel_is_closed(ch)) {
			sshc_copy_stream(ch, 0, out_fd);
			sshc_copy_stream(ch, 1, err_fd);
			break;
		}
		if (ssh_event_dopoll(ev, -1) == SSH_ERROR) {
			r = -EIO;
			snprintf(err, errlen, "the connection broke: %s",
				 ssh_get_error(c->s));
			goto out;
		}
	}
	st = ssh_channel_get_exit_status(ch);
	*ret_status = st < 0 || st > 255 ? 255 : st;
out:
	if (ev) {
		ssh_event_remove_session(ev, c->s);
		ssh_event_free(ev);
	}
	if (ch) {
		ssh_channel_close(ch);
		ssh_channel_free(ch);
	}
	return r;
}
