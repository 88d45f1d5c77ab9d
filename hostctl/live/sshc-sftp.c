// SPDX-License-Identifier: GPL-2.0-only
/*
 * A file to and from the guest over SFTP (sshc.h: sshc_pull(), sshc_push()),
 * on the session sshc.c opened. Each side writes a temporary file beside
 * the target and renames it, so a reader never sees half a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libssh/libssh.h>
#include <libssh/sftp.h>

#include "fileio.h"
#include "live/sshc.h"
#include "live/sshc-priv.h"

int sshc_pull(struct sshc *c, const char *remote, const char *local, char *err,
	      size_t errlen)
{
	char tmp[PATH_MAX + 32], buf[SSHC_BUF];
	sftp_session sftp = sftp_new(c->s);
	sftp_file file = NULL;
	sftp_attributes st = NULL;
	uint64_t total = 0;
	int fd = -1, r = 0;

	if (!sftp || sftp_init(sftp) != SSH_OK) {
		snprintf(err, errlen, "starting SFTP: %s", ssh_get_error(c->s));
		r = -EIO;
		goto out;
	}
	file = sftp_open(sftp, remote, O_RDONLY, 0);
	if (file)
		st = sftp_fstat(file);
	if (!file || !st) {
		snprintf(err, errlen, "guest file '%s': %s", remote,
			 sftp_get_error(sftp) == SSH_FX_NO_SUCH_FILE ?
				 "no such file" :
				 ssh_get_error(c->s));
		r = -ENOENT;
		goto out;
	}
	if (st->type != SSH_FILEXFER_TYPE_REGULAR) {
		snprintf(err, errlen, "guest file '%s' is not a regular file",
			 remote);
		r = -EINVAL;
		goto out;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", local, (long)getpid()) >=
	    (int)sizeof(tmp)) {
		r = -ENAMETOOLONG;
		snprintf(err, errlen, "'%s': %s", local, strerror(-r));
		goto out;
	}
	/* Never through a link planted at the temporary name. */
	fd = fileio_create_tmp(tmp, 0644);
	if (fd < 0) {
		r = fd;
		snprintf(err, errlen, "'%s': %s", tmp, strerror(-r));
		goto out;
	}
	/* Until end of file: procfs and tracefs files say size 0. */
	for (;;) {
		ssize_t n = sftp_read(file, buf, sizeof(buf));

		if (n < 0) {
			r = -EIO;
			snprintf(err, errlen, "reading '%s': %s", remote,
				 ssh_get_error(c->s));
			break;
		}
		if (n == 0)
			break;
		total += (uint64_t)n;
		if (total > SSHC_PULL_MAX) {
			r = -EFBIG;
			snprintf(err, errlen,
				 "guest file '%s' is larger than %llu bytes",
				 remote, (unsigned long long)SSHC_PULL_MAX);
			break;
		}
		r = fileio_write_all(fd, buf, (size_t)n);
		if (r < 0) {
			snprintf(err, errlen, "writing '%s': %s", tmp,
				 strerror(-r));
			break;
		}
	}
	if (close(fd) < 0 && r == 0) {
		r = -errno;
		snprintf(err, errlen, "writing '%s': %s", tmp, strerror(-r));
	}
	if (r == 0 && rename(tmp, local) < 0) {
		r = -errno;
		snprintf(err, errlen, "renaming to '%s': %s", local,
			 strerror(-r));
	}
	if (r < 0)
		unlink(tmp);
out:
	sftp_attributes_free(st);
	if (file)
		sftp_close(file);
	if (sftp)
		sftp_free(sftp);
	return r;
}

/*
 * Rename @from to @to. SFTP version 3's rename (OpenSSH's sftp-server,
 * which libssh 0.10 speaks) fails when @to exists, so a regular file
 * there is removed first: the replacement is not atomic.
 */
static int sftp_replace(sftp_session sftp, const char *from, const char *to)
{
	sftp_attributes st;
	bool regular;

	if (sftp_rename(sftp, from, to) == 0)
		return 0;
	st = sftp_lstat(sftp, to);
	regular = st && st->type == SSH_FILEXFER_TYPE_REGULAR;
	sftp_attributes_free(st);
	if (!regular || sftp_unlink(sftp, to) < 0 ||
	    sftp_rename(sftp, from, to) < 0)
		return -EIO;
	return 0;
}

/* Write all of @buf to the SFTP file @file. */
static int sftp_write_all(sftp_file file, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = sftp_write(file, buf, len);

		if (n <= 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int sshc_push(struct sshc *c, const char *local, const char *remote, char *err,
	      size_t errlen)
{
	char tmp[PATH_MAX + 32], buf[SSHC_BUF];
	sftp_session sftp = NULL;
	sftp_file file = NULL;
	bool created = false;
	struct stat st;
	int fd, r = 0;

	*err = '\0';
	fd = open(local, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		r = -errno;
		snprintf(err, errlen, "'%s': %s", local, strerror(-r));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		r = -EINVAL;
		snprintf(err, errlen, "'%s' is not a regular file", local);
		goto out;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", remote, (long)getpid()) >=
	    (int)sizeof(tmp)) {
		r = -ENAMETOOLONG;
		snprintf(err, errlen, "guest path '%s': %s", remote,
			 strerror(-r));
		goto out;
	}
	sftp = sftp_new(c->s);
	if (!sftp || sftp_init(sftp) != SSH_OK) {
		snprintf(err, errlen, "starting SFTP: %s", ssh_get_error(c->s));
		r = -EIO;
		goto out;
	}
	file = sftp_open(sftp, tmp, O_WRONLY | O_CREAT | O_EXCL,
			 st.st_mode & 0777);
	if (!file) {
		snprintf(err, errlen, "guest file '%s': %s", tmp,
			 sftp_get_error(sftp) == SSH_FX_NO_SUCH_FILE ?
				 "no such folder" :
				 ssh_get_error(c->s));
		r = -EIO;
		goto out;
	}
	created = true;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			snprintf(err, errlen, "reading '%s': %s", local,
				 strerror(-r));
			break;
		}
		if (n == 0)
			break;
		r = sftp_write_all(file, buf, (size_t)n);
		if (r < 0) {
			snprintf(err, errlen, "writing guest file '%s': %s",
				 tmp, ssh_get_error(c->s));
			break;
		}
	}
	/* The close is where the server reports a failed write. */
	if (sftp_close(file) != SSH_NO_ERROR && r == 0) {
		r = -EIO;
		snprintf(err, errlen, "closing guest file '%s': %s", tmp,
			 ssh_get_error(c->s));
	}
	file = NULL;
	if (r == 0)
		r = sftp_replace(sftp, tmp, remote);
	if (r < 0 && !*err) {
		r = -EIO;
		snprintf(err, errlen, "renaming guest file to '%s': %s", remote,
			 ssh_get_error(c->s));
	}
	if (r < 0 && created)
		sftp_unlink(sftp, tmp);
out:
	if (file)
		sftp_close(file);
	if (sftp)
		sftp_free(sftp);
	if (fd >= 0)
		close(fd);
	return r;
}
