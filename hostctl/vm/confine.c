// SPDX-License-Identifier: GPL-2.0-only
/*
 * QEMU's user when hostctl runs as root (confine.h): who it is, and the
 * ACL entries that let it open what its VM needs and nothing else.
 */
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vm/confine.h"
#include "base/fsutil.h"

/* Directories already given search, so that each VM costs no setfacl. */
#define CONFINE_DIRS_MAX 64

static struct {
	bool on;
	uid_t uid;
	gid_t gid;
	char *dirs[CONFINE_DIRS_MAX];
	size_t ndirs;
} conf;

int confine_init(char *user, size_t ulen, char *group, size_t glen)
{
	struct passwd *pw;
	struct group *gr;

	errno = 0;
	pw = getpwnam(CONFINE_USER);
	if (!pw)
		return errno ? -errno : -ENOENT;
	conf.uid = pw->pw_uid;
	conf.gid = pw->pw_gid;
	if (conf.uid == 0)
		return -EPERM;
	if (snprintf(user, ulen, "%s", pw->pw_name) >= (int)ulen)
		return -ENAMETOOLONG;
	errno = 0;
	gr = getgrgid(conf.gid);
	if (!gr)
		return errno ? -errno : -ENOENT;
	if (snprintf(group, glen, "%s", gr->gr_name) >= (int)glen)
		return -ENAMETOOLONG;
	conf.on = true;
	return 0;
}

bool confine_on(void)
{
	return conf.on;
}

bool confine_namespaces_ok(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return false;
	if (pid == 0)
		_exit(unshare(CLONE_NEWNS) == 0 ? 0 : 1);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int setfacl(const char *path, const char *perm)
{
	char entry[64];
	char *argv[] = { "setfacl", "-m", entry, (char *)path, NULL };

	int r;

	snprintf(entry, sizeof(entry), "u:%lu:%s", (unsigned long)conf.uid,
		 perm);
	r = fs_run(argv, NULL, NULL);
	return r == -ENOENT ? -ENOPKG : r;
}

/* Whether QEMU's user may search @st without an entry of its own. */
static bool can_search(const struct stat *st)
{
	if (st->st_uid == conf.uid)
		return st->st_mode & S_IXUSR;
	return st->st_mode & S_IXOTH;
}

static int grant_search(const char *dir)
{
	struct stat st;
	int r;

	for (size_t i = 0; i < conf.ndirs; i++)
		if (!strcmp(conf.dirs[i], dir))
			return 0;
	if (stat(dir, &st) < 0)
		return -errno;
	if (!can_search(&st)) {
		r = setfacl(dir, "x");
		if (r < 0)
			return r;
	}
	if (conf.ndirs < CONFINE_DIRS_MAX) {
		conf.dirs[conf.ndirs] = strdup(dir);
		if (conf.dirs[conf.ndirs])
			conf.ndirs++;
	}
	return 0;
}

int confine_path(const char *path, enum confine_access a)
{
	char real[PATH_MAX];
	struct stat st;
	int r;

	if (!conf.on)
		return 0;
	if (a == CONFINE_DENY)
		return setfacl(path, "-");
	/* The directories QEMU walks are the link-free path's. */
	if (!realpath(path, real) || stat(real, &st) < 0)
		return -errno;
	for (char *p = strchr(real + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		r = grant_search(real);
		*p = '/';
		if (r < 0)
			return r;
	}
	if (a == CONFINE_WRITE)
		return setfacl(real, "rw");
	if (st.st_uid == conf.uid || (st.st_mode & S_IROTH))
		return 0;
	return setfacl(real, "r");
}

int confine_domain(const struct domain_config *dc, char *err, size_t errlen)
{
	const char *what = dc->kernel;
	int r = 0;

	if (!conf.on)
		return 0;
	if (dc->kernel)
		r = confine_path(dc->kernel, CONFINE_READ);
	if (r == 0 && dc->initrd)
		r = confine_path(what = dc->initrd, CONFINE_READ);
	if (r == 0 && dc->firmware)
		r = confine_path(what = dc->firmware, CONFINE_READ);
	for (unsigned int i = 0; r == 0 && i < dc->ndisks; i++) {
		what = dc->disks[i].path;
		r = confine_path(what, dc->disks[i].readonly ? CONFINE_READ :
							       CONFINE_WRITE);
	}
	if (r < 0)
		snprintf(err, errlen,
			 "giving QEMU's user '%s' access to '%s': %s",
			 CONFINE_USER, what, confine_strerror(r));
	return r;
}

const char *confine_strerror(int r)
{
	if (r == -EIO)
		return "setfacl failed (its message is above)";
	if (r == -ENOPKG)
		return "there is no setfacl: install the acl package";
	return strerror(-r);
}
