/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the SSH client's parts share: the connection (sshc.c, which also
 * runs a command), SFTP's pull and push (sshc-sftp.c) and the interactive
 * shell (sshc-shell.c) all talk over one libssh session.
 */
#ifndef VLALAB_SSHC_PRIV_H
#define VLALAB_SSHC_PRIV_H

#include <sys/un.h>

#include <libssh/libssh.h>

#define SSHC_BUF 32768

struct sshc {
	ssh_session s;
	int fd;
	int hold; /* sshhold_take()'s lock on @sock, or -1 */
	char sock[sizeof(((struct sockaddr_un *)0)->sun_path)];
};

/*
 * What is buffered on @ch's stream @is_stderr (0 or 1), to @fd: 0 when
 * that is all for now, 1 at the stream's end, -EIO, or fileio's -errno.
 */
int sshc_copy_stream(ssh_channel ch, int is_stderr, int fd);

#endif
