// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fsutil.h"

extern char **environ;

int fs_mkdir_p(const char *path)
{
	char tmp[PATH_MAX];

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) < 0) {
		struct stat st;

		if (errno != EEXIST)
			return -errno;
		/* As mkdir -p: what stands there must be a folder. */
		if (stat(tmp, &st) < 0)
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
	}
	return 0;
}

int fs_mkdir_private(const char *path)
{
	struct stat st;
	int r;

	r = fs_mkdir_p(path);
	if (r < 0)
		return r;
	/* New, it is 0755 less the umask; old, it may be anything. */
	if (lstat(path, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (st.st_uid != geteuid())
		return -EPERM;
	if ((st.st_mode & 07777) != 0700 && chmod(path, 0700) < 0)
		return -errno;
	return 0;
}

int fs_read_tail(const char *path, size_t max, char **ret, size_t *ret_len)
{
	char *buf;
	ssize_t n;
	off_t size;
	int fd, r;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size = lseek(fd, 0, SEEK_END);
	buf = malloc(max + 1);
	if (size < 0 || !buf ||
	    lseek(fd, (size_t)size > max ? size - (off_t)max : 0, SEEK_SET) <
		    0) {
		r = !buf ? -ENOMEM : -errno;
		close(fd);
		free(buf);
		return r;
	}
	n = read(fd, buf, max);
	if (n < 0) {
		r = -errno;
		close(fd);
		free(buf);
		return r;
	}
	close(fd);
	buf[n] = '\0';
	*ret = buf;
	*ret_len = (size_t)n;
	return 0;
}

int fs_run(char *const argv[], const char *out_path, int *ret_status)
{
	posix_spawn_file_actions_t fa;
	int status, r;
	pid_t pid;

	if (posix_spawn_file_actions_init(&fa) != 0)
		return -ENOMEM;
	posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO,
					 out_path ? out_path : "/dev/null",
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	r = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (r != 0)
		return -r;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (ret_status)
		*ret_status = WIFEXITED(status) ? WEXITSTATUS(status) :
						  128 + WTERMSIG(status);
	return -EIO;
}
