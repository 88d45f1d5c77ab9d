// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/conattach.c without a VM: the attach socket's
 * path and its bound (a unix socket's sun_path), and the client's
 * refusals: a path too long, no server, a server that says another user
 * is attached, a server that hangs up. The
 * attached loop itself needs a terminal and a console: hostctl-console.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vm/conattach.h"
#include "tap.h"
#include "testdir.h"

static char tmpdir[] = "/tmp/hostctl-test-XXXXXX";

static void test_path(void)
{
	char buf[256], dir[200];

	is_int(conattach_path("/c/vms", "vlalab-1-1", buf, sizeof(buf)), 0,
	       "a socket path");
	is_str(buf, "/c/vms/vlalab-1-1.con", "<vms>/<domain>.con");
	is_int(conattach_path("/c/vms", "vlalab-1-1", buf, 21), -ENAMETOOLONG,
	       "a buffer one byte short");
	memset(dir, 'd', sizeof(dir) - 1);
	dir[0] = '/';
	dir[sizeof(struct sockaddr_un) - sizeof(sa_family_t) - 8] = '\0';
	is_int(conattach_path(dir, "vlalab-1-1", buf, sizeof(buf)),
	       -ENAMETOOLONG, "longer than a unix socket's sun_path");
}

/*
 * A server on @path that answers one user with @say (nothing: hangs up),
 * in a child. Its pid, or -1.
 */
static pid_t serve_once(const char *path, const char *say)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	pid_t pid;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(s, 1) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int c = accept(s, NULL, NULL);

		if (c >= 0 && write(c, say, strlen(say)) < 0)
			_exit(1);
		_exit(0);
	}
	close(s);
	return pid;
}

/* conattach_client() on @path: its return, its message in @err. */
static int client(const char *path, char *err, size_t len)
{
	err[0] = '\0';
	return conattach_client(path, "attached\n", err, len);
}

static void test_client(void)
{
	char path[512], err[512], lng[200];
	pid_t pid;

	memset(lng, 'p', sizeof(lng) - 1);
	lng[0] = '/';
	lng[sizeof(lng) - 1] = '\0';
	is_int(client(lng, err, sizeof(err)), -ENAMETOOLONG,
	       "a path too long for a unix socket");
	ok(strstr(err, "path too long") != NULL, "... says so");

	snprintf(path, sizeof(path), "%s/none.con", tmpdir);
	is_int(client(path, err, sizeof(err)), -ENOENT, "no server");
	ok(strstr(err, "connecting to '") && strstr(err, "none.con"),
	   "... names the socket");

	snprintf(path, sizeof(path), "%s/busy.con", tmpdir);
	pid = serve_once(path, CONATTACH_BUSY);
	if (!ok(pid > 0, "a busy server"))
		return;
	is_int(client(path, err, sizeof(err)), -EBUSY,
	       "another user attached: -EBUSY");
	is_str(err, "another user is attached to this console", "... says so");
	waitpid(pid, NULL, 0);

	snprintf(path, sizeof(path), "%s/gone.con", tmpdir);
	pid = serve_once(path, "");
	if (!ok(pid > 0, "a server that hangs up"))
		return;
	is_int(client(path, err, sizeof(err)), -EBUSY, "hung up: -EBUSY");
	is_str(err, "the console's server closed the connection",
	       "hung up: says the server closed, not that it is busy");
	waitpid(pid, NULL, 0);
}

int main(void)
{
	if (!testdir_make(tmpdir))
		return 1;
	test_path();
	test_client();
	testdir_remove(tmpdir);
	return tap_done();
}
