// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cache's usage log (uses.c): a use is one line read back as written,
 * its lock keeps gc's exclusive lock out while this process lives, and a
 * line that is not a use is an error naming its number.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "kb.h"
#include "tap.h"
#include "tfile.h"

int main(void)
{
	char root[] = "/tmp/vlalab-uses-XXXXXX", path[PATH_MAX];
	struct kbuild_cache_use *u = NULL;
	size_t n = 0, line = 0;
	int fd = -1;

	if (!mkdtemp(root)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	is_int(kbuild_cache_uses_read(root, &u, &n, &line), -ENOENT,
	       "no log yet: -ENOENT");
	is_int(kbuild_cache_run_id("20261205-010203-42"), 0, "a run id");
	is_int(kbuild_cache_run_id("../x"), -EINVAL, "a run id with a slash");
	is_int(kbuild_cache_use(root, "build", "abc"), 0, "a build's use");
	is_int(kbuild_cache_use(root, "image", "cloud-def"), 0,
	       "an image's use");
	is_int(kbuild_cache_use(root, "build", "a/b"), -EINVAL,
	       "a key with a slash");
	is_int(kbuild_cache_uses_read(root, &u, &n, &line), 0, "the log reads");
	okf(n == 2 && u[0].build && !strcmp(u[0].key, "abc") && !u[1].build &&
		    !strcmp(u[1].key, "cloud-def") &&
		    !strcmp(u[1].run, "20261205-010203-42") &&
		    u[1].when > 1700000000,
	    "two uses read back: kind, key, run, time");
	free(u);
	/* Held by this process until it exits: gc's lock fails meanwhile. */
	is_int(kbuild_cache_lock(root, "build", "abc", true, &fd),
	       -EWOULDBLOCK, "a used build's lock is held");
	is_int(kbuild_cache_lock(root, "build", "unused", false, &fd), 0,
	       "a dry run makes no lock file");
	is_int(fd, -1, "and holds no lock");
	kb_path(path, sizeof(path), "%s/locks/build-unused.lock", root);
	okf(kbuild_cache_lock(root, "build", "unused", true, &fd) == 0 &&
		    kbuild_cache_unlock(root, "build", "unused", fd, true) ==
			    0 &&
		    access(path, F_OK) < 0,
	    "an unused entry's lock is taken, and dropped with its file");
	tfile_put(root, KBUILD_CACHE_USES,
		  "2026-12-05T01:02:03Z build k r\ncut");
	is_int(kbuild_cache_uses_read(root, &u, &n, &line), -EBADMSG,
	       "a line cut short is not a use");
	is_int((int)line, 2, "its number");
	tfile_put(root, KBUILD_CACHE_USES, "2026-12-05 build k r\n");
	is_int(kbuild_cache_uses_read(root, &u, &n, &line), -EBADMSG,
	       "a line without its time is not a use");
	is_int((int)line, 1, "its number");
	kb_rm_rf(root);
	return tap_done();
}
