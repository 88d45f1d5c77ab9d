// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which hostctl owns a domain (owner.c), and the reaper that destroys the
 * domains of dead ones (vm_reap_orphans()), on libvirt's test driver: a
 * daemon's domains outlive hostctl, and the embedded driver cannot make an
 * orphan to reap. Four domains: one of a dead hostctl of this host, one of
 * this live process, one of another host, and one without the mark; only
 * the first may go.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "vm/owner.h"
#include "tap.h"
#include "vm/vm.h"

/* The pid of a process that has exited and been waited for. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

static void test_parse(void)
{
	struct owner o, back;
	char *buf = NULL;
	size_t size = 0;
	FILE *f;

	is_int(owner_self("20261204-1", &o), 0, "owner_self");
	ok(o.pid == getpid() && o.start > 0 && o.host[0], "pid, start, host");
	snprintf(o.host, sizeof(o.host), "lab&<host>");
	f = open_memstream(&buf, &size);
	owner_xml(f, &o);
	fclose(f);
	ok(strstr(buf, "host='lab&amp;&lt;host&gt;'") != NULL,
	   "the host is XML-escaped");
	is_int(owner_parse(buf, &back), -EINVAL,
	   "an entity in a value is refused, not unescaped");
	free(buf);

	snprintf(o.host, sizeof(o.host), "lab-1.example");
	buf = NULL;
	f = open_memstream(&buf, &size);
	owner_xml(f, &o);
	fclose(f);
	is_int(owner_parse(buf, &back), 0, "what owner_xml() writes parses");
	ok(back.pid == o.pid && back.start == o.start &&
	   strcmp(back.run_id, "20261204-1") == 0 &&
	   strcmp(back.host, "lab-1.example") == 0, "to the same owner");
	free(buf);

	/* As libvirt gives it back: its own quotes and order. */
	is_int(owner_parse("<owner xmlns=\"" OWNER_XMLNS "\" host=\"h\" "
			   "run=\"r\" start=\"77\" pid=\"12\"/>", &back),
	       0, "libvirt's serialisation");
	ok(back.pid == 12 && back.start == 77 && !strcmp(back.host, "h") &&
	   !strcmp(back.run_id, "r"), "its values");
	is_int(owner_parse("<owner start='1' run='r' host='h'/>", &back),
	       -EINVAL, "no pid");
	is_int(owner_parse("<owner pid='0' start='1' run='r' host='h'/>", &back),
	       -EINVAL, "pid 0");
	is_int(owner_parse("<owner pid='1x' start='1' run='r' host='h'/>",
			   &back), -EINVAL, "pid 1x");
	is_int(owner_parse("<owner pid='-1' start='1' run='r' host='h'/>",
			   &back), -EINVAL, "pid -1");
	is_int(owner_parse("<owner pid='1' start='1' run='r' host=''/>", &back),
	       -EINVAL, "an empty host");
	is_int(owner_parse("<owner xpid='1' start='1' run='r' host='h'/>",
			   &back), -EINVAL, "xpid is not pid");
	is_int(owner_parse("<owner pid='1' start='1' run='r'/><x host='h'/>",
			   &back), -EINVAL, "another element's attribute");
}

static void test_orphan(void)
{
	struct owner o;

	owner_self("r", &o);
	ok(!owner_orphan(&o, o.host), "this live process: not an orphan");
	o.start++;
	ok(owner_orphan(&o, o.host),
	   "its pid with another start time (a pid used again): an orphan");
	o.start--;
	o.pid = dead_pid();
	ok(owner_orphan(&o, o.host), "a pid that is gone: an orphan");
	ok(!owner_orphan(&o, "another-host"),
	   "a dead pid of another host: not ours to judge");
}

/* A test-driver domain named @name, marked by @o unless it is NULL. */
static void define(virConnectPtr conn, const char *name, const struct owner *o)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	virDomainPtr d;

	fprintf(f, "<domain type='test'><name>%s</name><memory>1024</memory>",
		name);
	if (o) {
		fputs("<metadata>", f);
		owner_xml(f, o);
		fputs("</metadata>", f);
	}
	fputs("<os><type>hvm</type></os></domain>", f);
	fclose(f);
	d = virDomainCreateXML(conn, buf, 0);
	if (!d)
		fprintf(stderr, "# creating '%s': %s\n", name,
			virGetLastErrorMessage());
	else
		virDomainFree(d);
	free(buf);
}

static void count_reaped(const char *name, const struct owner *o,
			 const char *failed, void *data)
{
	char *names = data;

	(void)o;
	strcat(names, failed ? "!" : " ");
	strcat(names, name);
}

static bool exists(virConnectPtr conn, const char *name)
{
	virDomainPtr d = virDomainLookupByName(conn, name);

	if (d)
		virDomainFree(d);
	return d != NULL;
}

static void test_reap(void)
{
	struct owner self, dead, foreign;
	char err[512] = "", names[256] = "";
	struct vm_host *h;
	virConnectPtr conn;

	if (vm_host_open("test:///default", &h, err, sizeof(err)) < 0) {
		printf("# test:///default: %s\n", err);
		ok(0, "the test driver opens");
		return;
	}
	/* The test driver's default instance is one per process. */
	conn = virConnectOpen("test:///default");
	owner_self("alive", &self);
	dead = self;
	dead.pid = dead_pid();
	snprintf(dead.run_id, sizeof(dead.run_id), "dead");
	foreign = dead;
	snprintf(foreign.host, sizeof(foreign.host), "another-host");
	define(conn, "vlalab-dead", &dead);
	define(conn, "vlalab-alive", &self);
	define(conn, "vlalab-foreign", &foreign);
	define(conn, "not-ours", NULL);
	is_int(vm_reap_orphans(h, self.host, count_reaped, names, err,
			       sizeof(err)),
	       1, "one domain reaped");
	is_str(names, " vlalab-dead", "the dead hostctl's");
	ok(!exists(conn, "vlalab-dead"), "it is gone");
	ok(exists(conn, "vlalab-alive") && exists(conn, "vlalab-foreign") &&
	   exists(conn, "not-ours") && exists(conn, "test"),
	   "a live hostctl's, another host's and unmarked ones stay");
	names[0] = '\0';
	is_int(vm_reap_orphans(h, self.host, count_reaped, names, err,
			       sizeof(err)),
	       0, "a second pass reaps nothing");
	virConnectClose(conn);
	vm_host_close(h);
}

int main(void)
{
	test_parse();
	test_orphan();
	test_reap();
	return tap_done();
}
