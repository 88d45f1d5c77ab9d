// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/run/hosts.c: --connect URI[,jobs=N] given once or
 * more, a hosts file's lines and comments, every error naming the file
 * and line, the name of a host in results ("embedded"), and the lanes of
 * a run spread over the hosts.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "run/hosts.h"
#include "run/schedule.h"
#include "tap.h"

static void test_connect(void)
{
	struct run_hosts h = { 0 };
	char err[1024] = "";

	is_int(hosts_add(&h, "qemu+tcp://127.0.0.1:16599/system,jobs=3", err,
			 sizeof(err)),
	       0, "URI,jobs=N");
	is_str(h.v[0].uri, "qemu+tcp://127.0.0.1:16599/system", "its URI");
	is_int(h.v[0].jobs, 3, "its jobs");
	is_int(hosts_add(&h, "embedded", err, sizeof(err)), 0, "embedded");
	is_str(h.v[1].uri, "", "the default: no URI");
	is_int(h.v[1].jobs, 0, "no jobs: -j's");
	is_int(hosts_add(&h, "qemu:///system?a=b,c", err, sizeof(err)), 0,
	       "a comma of the URI's own stays");
	is_str(h.v[2].uri, "qemu:///system?a=b,c", "...in it");
	is_int(h.n, 3, "three hosts");

	is_int(hosts_add(&h, "embedded,jobs=2", err, sizeof(err)), -EINVAL,
	       "a host twice");
	is_str(err, "host 'embedded' is named twice", "...says so");
	is_int(hosts_add(&h, "qemu:///x,jobs=0", err, sizeof(err)), -EINVAL,
	       "jobs=0");
	is_str(err, "jobs '0' is not 1..16", "...says so");
	is_int(hosts_add(&h, "qemu:///x,jobs=17", err, sizeof(err)), -EINVAL,
	       "jobs over SCHED_LANES_MAX");
	is_int(hosts_add(&h, "qemu:///x,jobs=-1", err, sizeof(err)), -EINVAL,
	       "negative jobs");
	is_int(hosts_add(&h, "qemu:///x,jobs=2x", err, sizeof(err)), -EINVAL,
	       "jobs with garbage");
	is_int(hosts_add(&h, ",jobs=2", err, sizeof(err)), -EINVAL, "no URI");
	is_str(err, "no URI", "...says so");
	is_int(hosts_add(&h, "qemu:///a b", err, sizeof(err)), -EINVAL,
	       "a space in a URI");
	is_int(hosts_add(&h, "qemu:///a\033[2J", err, sizeof(err)), -EINVAL,
	       "an escape in a URI");
	is_int(h.n, 3, "no error added a host");
	for (int i = 0; h.n < RUN_HOSTS_MAX; i++) {
		char uri[32];

		snprintf(uri, sizeof(uri), "qemu+tcp://h%d/system", i);
		hosts_add(&h, uri, err, sizeof(err));
	}
	is_int(hosts_add(&h, "qemu:///last", err, sizeof(err)), -EINVAL,
	       "one too many");
	is_str(err, "more than 8 hosts", "...says so");
}

/* hosts_read() of @text as file "H"; its return, its error in @err. */
static int read_text(struct run_hosts *h, const char *text, char *err,
		     size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int r;

	*err = '\0';
	r = hosts_read(h, f, "H", err, errlen);
	fclose(f);
	return r;
}

static void test_file(void)
{
	struct run_hosts h = { 0 };
	char err[1024];

	is_int(read_text(&h,
			 "# the lab\n"
			 "\n"
			 "embedded 2   # this machine\n"
			 "  qemu+tcp://127.0.0.1:16599/system\t1\n"
			 "qemu+ssh://lab2/system,jobs=4\n"
			 "qemu+ssh://lab3/system",
			 err, sizeof(err)),
	       0, "a hosts file");
	is_int(h.n, 4, "four hosts");
	is_str(h.v[0].uri, "", "embedded");
	is_int(h.v[0].jobs, 2, "with 2 jobs");
	is_str(h.v[1].uri, "qemu+tcp://127.0.0.1:16599/system", "a tab");
	is_int(h.v[1].jobs, 1, "with 1 job");
	is_int(h.v[2].jobs, 4, ",jobs=N as --connect's");
	is_str(h.v[3].uri, "qemu+ssh://lab3/system", "no newline at the end");
	is_int(h.v[3].jobs, 0, "no jobs: -j's");

	memset(&h, 0, sizeof(h));
	is_int(read_text(&h, "embedded\nqemu:///x 0\n", err, sizeof(err)),
	       -EINVAL, "jobs 0");
	is_str(err, "H:2: jobs '0' is not 1..16", "file:line and reason");
	memset(&h, 0, sizeof(h));
	is_int(read_text(&h, "# x\nqemu:///x 2 3\n", err, sizeof(err)),
	       -EINVAL, "two numbers");
	is_str(err, "H:2: '3' after the job count", "...file:line");
	memset(&h, 0, sizeof(h));
	is_int(read_text(&h, "qemu:///x,jobs=2 2\n", err, sizeof(err)),
	       -EINVAL, "two job counts");
	is_str(err, "H:1: two job counts", "...file:line");
	memset(&h, 0, sizeof(h));
	is_int(read_text(&h, "qemu:///x\n\nqemu:///x 2\n", err, sizeof(err)),
	       -EINVAL, "a host twice");
	is_str(err, "H:3: host 'qemu:///x' is named twice", "...file:line");
	memset(&h, 0, sizeof(h));
	is_int(read_text(&h, "# nothing\n\n", err, sizeof(err)), -EINVAL,
	       "no host");
	is_str(err, "H: no host in it", "...says so");
	memset(&h, 0, sizeof(h));
	{
		static char big[1500];

		memset(big, 'a', sizeof(big) - 2);
		big[sizeof(big) - 2] = '\n';
		is_int(read_text(&h, big, err, sizeof(err)), -EINVAL,
		       "a line too long");
		is_str(err, "H:1: line longer than 1024 bytes", "...says so");
	}
	memset(&h, 0, sizeof(h));
	is_int(hosts_load(&h, "/nonexistent/hosts", err, sizeof(err)), -ENOENT,
	       "no such file");
	is_str(err, "/nonexistent/hosts: No such file or directory",
	       "...names it");
}

static void test_label(void)
{
	is_str(hosts_label(NULL), "embedded", "NULL: embedded");
	is_str(hosts_label(""), "embedded", "\"\": embedded");
	is_str(hosts_label("qemu:///embed?root=/c/libvirt-2"), "embedded",
	       "an embedded root: embedded");
	is_str(hosts_label("qemu+tcp://127.0.0.1/system"),
	       "qemu+tcp://127.0.0.1/system", "else the URI");
}

static void test_lanes(void)
{
	struct run_hosts h = { 0 };
	unsigned int lh[64] = { 0 }, n;
	char err[256];

	hosts_add(&h, "embedded,jobs=1", err, sizeof(err));
	hosts_add(&h, "qemu+tcp://127.0.0.1/system,jobs=3", err, sizeof(err));
	hosts_add(&h, "qemu+tcp://b/system", err, sizeof(err));
	n = hosts_lanes(&h, 2, lh, 64);
	is_int(n, 6, "1 + 3 + -j's 2 lanes");
	ok(lh[0] == 0 && lh[1] == 1 && lh[2] == 2,
	   "the first lanes on different hosts");
	ok(lh[3] == 1 && lh[4] == 2 && lh[5] == 1, "then the hosts with more");
	n = hosts_lanes(&h, 0, lh, 64);
	is_int(n, 5, "-j 0 counts as one");
	n = hosts_lanes(&h, 2, lh, 2);
	ok(n == 2 && lh[0] == 0 && lh[1] == 1, "at most @max, spread");
}

int main(void)
{
	test_connect();
	test_file();
	test_label();
	test_lanes();
	return tap_done();
}
