/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SSH to a guest over its virtio-serial SSH port (docs/repro.md), with
 * libssh: a unix socket handed over with SSH_OPTIONS_FD, the guest's host
 * key compared with the one pinned next to its image, the client key of
 * the cache. Nothing falls back to a password or to trust on first use.
 * Library-like: negative errno, and the reason in @err, never logged.
 */
#ifndef VLALAB_SSHC_H
#define VLALAB_SSHC_H

#include <stddef.h>
#include <stdint.h>

/* The largest file pull fetches. */
#define SSHC_PULL_MAX (1ULL << 30)

struct sshc;

/*
 * The cache's client key, <cache>/ssh/client_ed25519 and its ".pub",
 * made on first use. Writes both paths.
 */
int sshc_client_key(const char *cache_dir, char *ret_priv, size_t priv_len,
		    char *ret_pub, size_t pub_len, char *err, size_t errlen);

/*
 * Connect to the unix socket @sock, check the server's key against the
 * public key file @pinned (-EPERM on a mismatch) and log in as root with
 * the private key file @client. The port takes one connection at a time:
 * the connection holds its lock (sshhold.h) for @verb until sshc_close(),
 * and -EBUSY says another holds it, @err then naming the holder
 * ("hostctl repro, pid 42") or "" when it has not said yet.
 */
int sshc_connect(const char *sock, const char *verb, const char *pinned,
		 const char *client, struct sshc **ret, char *err,
		 size_t errlen);
void sshc_close(struct sshc *c);

/*
 * Run @cmd in the guest, its stdout to @out_fd and stderr to @err_fd.
 * *ret_status is its exit status, or 255 if it said none (a signal).
 */
int sshc_exec(struct sshc *c, const char *cmd, int out_fd, int err_fd,
	      int *ret_status, char *err, size_t errlen);

/*
 * Fetch the guest file @remote into @local over SFTP (through a private
 * name, renamed when complete); at most SSHC_PULL_MAX bytes.
 */
int sshc_pull(struct sshc *c, const char *remote, const char *local, char *err,
	      size_t errlen);

/*
 * Copy the local regular file @local to the guest path @remote over SFTP,
 * with the local file's permission bits: written under a private name
 * next to @remote, then renamed over it (not atomically over an existing
 * file: sftp_replace() in sshc-sftp.c).
 */
int sshc_push(struct sshc *c, const char *local, const char *remote, char *err,
	      size_t errlen);

/*
 * An interactive shell: a pty of the terminal's size (resized on
 * SIGWINCH), the terminal in raw mode meanwhile, "~." at a line's start
 * to leave. Returns the shell's exit status (255: none, or left by "~.").
 */
int sshc_shell(struct sshc *c, int *ret_status, char *err, size_t errlen);

#endif
