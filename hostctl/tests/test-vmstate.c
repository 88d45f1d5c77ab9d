// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/vmstate.c: the live VMs' state files written,
 * found by label or domain name, stale when their owner is dead, and
 * refused when malformed.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm/vmstate.h"
#include "tap.h"
#include "testdir.h"

static char tmpdir[] = "/tmp/hostctl-test-XXXXXX";

static void test_vmstate(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	struct vmstate a = { .pid = getpid() }, b, got;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/vms", tmpdir);
	snprintf(a.domain, sizeof(a.domain), "vlalab-1-1");
	snprintf(a.label, sizeof(a.label), "vm1");
	snprintf(a.socket, sizeof(a.socket), "/s/1.ssh");
	snprintf(a.host_key, sizeof(a.host_key), "/k.pub");
	snprintf(a.run_dir, sizeof(a.run_dir), "/r");
	b = a;
	snprintf(b.domain, sizeof(b.domain), "vlalab-2-1");
	is_int(vmstate_resolve(dir, "vm1", &got), -ENOENT,
	       "no state dir: none");
	is_int(vmstate_write(dir, &a), 0, "state written");
	{
		struct stat st;

		/* The SSH and console sockets' folder: root's alone. */
		ok(stat(dir, &st) == 0 && (st.st_mode & 07777) == 0700,
		   "the state dir is made 0700");
	}
	is_int(vmstate_resolve(dir, "vm1", &got), 0, "by label");
	ok(strcmp(got.socket, "/s/1.ssh") == 0 && got.pid == getpid(),
	   "read back");
	is_int(vmstate_write(dir, &b), 0, "second state written");
	is_int(vmstate_resolve(dir, "vm1", &got), -EEXIST,
	       "a label two VMs share is ambiguous");
	is_int(vmstate_resolve(dir, "vlalab-2-1", &got), 0, "by domain");
	ok(strcmp(got.domain, "vlalab-2-1") == 0, "the right one");
	vmstate_remove(dir, "vlalab-2-1");
	is_int(vmstate_resolve(dir, "vm1", &got), 0, "removed: one again");
	/* A dead owner: pid 2^22 + 1 is above Linux's pid_max limit. */
	snprintf(path, sizeof(path), "%s/vlalab-3-1.json", dir);
	f = fopen(path, "w");
	if (f) {
		fputs("{\"domain\":\"vlalab-3-1\",\"label\":\"vm9\",\"socket\":\"/s\","
		      "\"host_key\":\"/k\",\"run_dir\":\"/r\",\"pid\":4194305}",
		      f);
		fclose(f);
	}
	is_int(vmstate_resolve(dir, "vm9", &got), -ENOENT,
	       "a dead owner's VM is stale");
	is_int(vmstate_parse("{\"domain\":\"x\"}", &got), -EINVAL,
	       "a state without its fields is refused");
	is_int(vmstate_parse(
		       "{\"domain\":\"x\",\"label\":\"vm1\",\"socket\":\"/s\","
		       "\"host_key\":\"/k\",\"run_dir\":\"/r\",\"pid\":-1}",
		       &got),
	       -EINVAL, "a negative pid is refused");
	/* hostctl ls: the scenario and step, written and read back. */
	snprintf(a.scenario, sizeof(a.scenario), "ftrace/cached-filter");
	a.step = 2;
	a.steps = 4;
	is_int(vmstate_write(dir, &a), 0, "state with its step written");
	is_int(vmstate_resolve(dir, "vlalab-1-1", &got), 0, "and found");
	ok(strcmp(got.scenario, "ftrace/cached-filter") == 0 && got.step == 2 &&
		   got.steps == 4,
	   "scenario and step read back");
#define VMSTATE_BASE                                             \
	"{\"domain\":\"x\",\"label\":\"vm1\",\"socket\":\"/s\"," \
	"\"host_key\":\"/k\",\"run_dir\":\"/r\",\"pid\":1"
	is_int(vmstate_parse(VMSTATE_BASE "}", &got), 0,
	       "no scenario yet is fine");
	ok(got.scenario[0] == '\0' && got.step == 0, "and says none");
	is_int(vmstate_parse(VMSTATE_BASE ",\"scenario\":\"a/b\",\"step\":5,"
					  "\"steps\":4}",
			     &got),
	       -EINVAL, "a step past the last is refused");
	is_int(vmstate_parse(VMSTATE_BASE
			     ",\"scenario\":\"a/b\",\"step\":\"1\","
			     "\"steps\":4}",
			     &got),
	       -EINVAL, "a step that is not a number is refused");
	is_int(vmstate_parse(VMSTATE_BASE ",\"scenario\":7}", &got), -EINVAL,
	       "a scenario that is not a string is refused");
#undef VMSTATE_BASE
}

int main(void)
{
	if (!testdir_make(tmpdir))
		return 1;
	test_vmstate();
	testdir_remove(tmpdir);
	return tap_done();
}
