// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl's small pure pieces: domain XML checks and
 * escaping, the accelerator cache, the embedded-driver URI and its
 * qemu.conf, the console tail, KTAP/summary round trips, the shell's "~."
 * escape, text made safe for terminals, and the live VMs' state files and
 * their names.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm/accel.h"
#include "vm/cloud.h"
#include "vm/domain.h"
#include "base/escape.h"
#include "live/shell-escape.h"
#include "base/fsutil.h"
#include "results/progress.h"
#include "crash/report.h"
#include "results/results.h"
#include "tap.h"
#include "vm/uri.h"
#include "vm/vmstate.h"

static char tmpdir[] = "/tmp/hostctl-test-XXXXXX";

static void test_domain(void)
{
	struct domain_config c = {
		.name = "a<b>&'\"",
		.kernel = "/k",
		.initrd = "/i",
	};
	char *xml = NULL;

	is_int(domain_xml(&c, &xml), 0, "domain_xml");
	ok(xml && strstr(xml, "<name>a&lt;b&gt;&amp;&apos;&quot;</name>"),
	   "name escaped");
	ok(xml && strstr(xml, "<console type='pty'>"),
	   "the console on a pty, for hostctl's stream");
	ok(xml && strstr(xml, "<domain type='qemu'>"), "TCG is type qemu");
	ok(xml && strstr(xml, "name='org.vlalab.guestd.0'"), "channel named");
	ok(xml && strstr(xml, "<memballoon model='none'/>"), "no balloon");
	ok(xml && strstr(xml, "<panic model='isa'>"), "pvpanic");
	ok(xml && !strstr(xml, "<interface"), "no NIC unasked");
	ok(xml && !strstr(xml, "icount") && !strstr(xml, "xmlns:qemu"),
	   "no icount unasked");
	free(xml);
	xml = NULL;
	c.icount = true;
	is_int(domain_xml(&c, &xml), 0, "domain_xml with icount");
	ok(xml && strstr(xml, "<domain type='qemu' xmlns:qemu='"
			      "http://libvirt.org/schemas/domain/qemu/1.0'>") &&
		   strstr(xml, "  </devices>\n"
			       "  <qemu:commandline>\n"
			       "    <qemu:arg value='-icount'/>\n"
			       "    <qemu:arg value='shift=0,sleep=off'/>\n"
			       "  </qemu:commandline>\n"
			       "</domain>\n"),
	   "icount through the QEMU namespace");
	free(xml);
	xml = NULL;
	c.icount = false;
	c.nic = true;
	is_int(domain_xml(&c, &xml), 0, "domain_xml with a NIC");
	ok(xml && strstr(xml, "<interface type='udp'>\n"
			      "      <source address='127.0.0.1' port='0'>\n"
			      "        <local address='127.0.0.1' port='0'/>\n"
			      "      </source>\n"
			      "      <model type='virtio'/>\n"
			      "      <rom enabled='no'/>\n"),
	   "a NIC: virtio-net, a UDP backend that sends to port 0 (nothing)");
	ok(xml && !strstr(strstr(xml, "<interface") + 1, "<interface"),
	   "only one NIC");
	ok(xml && !strstr(xml, "type='user'") && !strstr(xml, "mcast") &&
		   !strstr(xml, "'server'") && !strstr(xml, "'client'"),
	   "no user network, multicast or TCP socket backend");
	free(xml);
	xml = NULL;
	c.nic = false;
	c.icount = true;
	c.accel = DOMAIN_ACCEL_KVM;
	is_int(domain_xml(&c, &xml), -EINVAL, "icount with KVM refused");
	c.accel = DOMAIN_ACCEL_TCG;
	c.icount = false;
	c.vcpus = 3;
	is_int(domain_xml(&c, &xml), -EINVAL, "3 vcpus refused");
	c.vcpus = 2;
	c.name = "";
	is_int(domain_xml(&c, &xml), -EINVAL, "empty name refused");
	c.name = "x";
	c.kernel = NULL;
	is_int(domain_xml(&c, &xml), -EINVAL, "no kernel refused");
	c.kernel = "/k";
	xml = NULL;
	is_int(domain_xml(&c, &xml), 0, "domain_xml again");
	ok(xml && !strstr(xml, "org.vlalab.ssh.0"), "no SSH port unasked");
	free(xml);
	xml = NULL;
	c.ssh_socket = "/s/x.ssh";
	is_int(domain_xml(&c, &xml), 0, "domain_xml with an SSH port");
	ok(xml && strstr(xml, "<source mode='bind' path='/s/x.ssh'/>") &&
		   strstr(xml, "name='org.vlalab.ssh.0'"),
	   "SSH port: a unix socket QEMU binds");
	ok(xml && strstr(xml, "<initrd>/i</initrd>"), "the initramfs");
	free(xml);
	xml = NULL;
	/* The cloud image: its root is a disk, no initramfs. */
	c.initrd = NULL;
	c.cmdline = domain_cloud_cmdline;
	c.disks = (const struct domain_disk[]){
		{ "/r/cloud-vm1.qcow2", "qcow2", false },
		{ "/b/cloud-modules.img", "raw", true },
	};
	c.ndisks = 2;
	is_int(domain_xml(&c, &xml), 0, "domain_xml without an initramfs");
	ok(xml && !strstr(xml, "<initrd>") &&
		   strstr(xml, "<cmdline>console=ttyS0 panic=-1 root=/dev/vda") &&
		   strstr(xml, "<source file='/r/cloud-vm1.qcow2'/>\n"
			       "      <target dev='vda' bus='virtio'/>\n"
			       "    </disk>"),
	   "no initrd element, the root on vda, writable");
	ok(xml && strstr(xml, "<source file='/b/cloud-modules.img'/>\n"
			      "      <target dev='vdb' bus='virtio'/>\n"
			      "      <readonly/>\n"),
	   "a shared disk is read-only");
	free(xml);
}

static void test_accel(void)
{
	enum domain_accel a;
	enum accel_choice ch;
	char key[512];

	is_int(accel_parse("tcg", &ch), 0, "parse tcg");
	is_int(ch, ACCEL_TCG, "tcg");
	is_int(accel_parse("xen", &ch), -EINVAL, "parse xen refused");
	is_int(accel_host_key("7.2.0", key, sizeof(key)), 0, "host key");
	ok(strstr(key, "qemu-7.2.0") != NULL, "host key names qemu");
	is_int(accel_cache_read(tmpdir, key, &a), -ENOENT, "no cache yet");
	is_int(accel_cache_write(tmpdir, key, DOMAIN_ACCEL_TCG), 0,
	       "cache written");
	is_int(accel_cache_read(tmpdir, key, &a), 0, "cache read");
	is_int(a, DOMAIN_ACCEL_TCG, "cached verdict tcg");
	is_int(accel_cache_read(tmpdir, "another host", &a), -ENOENT,
	       "another key is a miss");
	is_int(accel_cache_write(tmpdir, key, DOMAIN_ACCEL_KVM), 0,
	       "cache rewritten");
	is_int(accel_cache_read(tmpdir, key, &a), 0, "cache read again");
	is_int(a, DOMAIN_ACCEL_KVM, "cached verdict kvm");
}

/* @path's start into @buf (at most @size - 1 bytes); false if unreadable. */
static bool slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	buf[0] = '\0';
	if (!f)
		return false;
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	return true;
}

static void test_uri(void)
{
	char uri[4096], cache[256], path[512];
	char buf[1024] = "";

	is_int(uri_default("/root/.cache/vlalab", 0, uri, sizeof(uri)), 0,
	       "default uri");
	is_str(uri, "qemu:///embed?root=/root/.cache/vlalab/libvirt",
	       "default uri text");
	is_int(uri_default("/a b&c", 0, uri, sizeof(uri)), 0, "uri escaped");
	is_str(uri, "qemu:///embed?root=/a%20b%26c/libvirt",
	       "space and & escaped");
	is_int(uri_default("/x", 0, uri, 10), -ENAMETOOLONG, "uri too long");
	is_str(uri_choose("qemu:///system", "qemu+ssh://h/system"),
	       "qemu:///system", "--connect wins over LIBVIRT_DEFAULT_URI");
	is_str(uri_choose(NULL, "qemu+ssh://h/system"), "qemu+ssh://h/system",
	       "LIBVIRT_DEFAULT_URI without --connect");
	ok(uri_choose(NULL, "") == NULL,
	   "an empty LIBVIRT_DEFAULT_URI: embedded");
	ok(uri_choose(NULL, NULL) == NULL, "neither: embedded");

	snprintf(cache, sizeof(cache), "%s/c d", tmpdir);
	is_int(uri_default("/c", 2, uri, sizeof(uri)), 0, "slot 2");
	is_str(uri, "qemu:///embed?root=/c/libvirt-2", "slot 2 root");
	uri_default(cache, 0, uri, sizeof(uri));
	is_int(uri_prepare(uri, NULL, NULL, false), 0, "qemu.conf written");
	snprintf(path, sizeof(path), "%s/c d/libvirt/etc/qemu.conf", tmpdir);
	ok(slurp(path, buf, sizeof(buf)), "qemu.conf under the unescaped root");
	ok(strstr(buf, "user = \"root\"") &&
		   strstr(buf, "stdio_handler = \"file\""),
	   "qemu.conf content");
	is_int(uri_prepare("qemu:///system", "vlalab", "vlalab", true), 0,
	       "other URIs untouched");
	is_int(uri_prepare(uri, "vla\"lab", "vlalab", true), -EINVAL,
	       "a user name that cannot be quoted");
	is_int(uri_prepare(uri, "vlalab", NULL, true), -EINVAL,
	       "a user without a group");
	is_int(uri_prepare(uri, "vlalab", "kvm", true), 0,
	       "confined qemu.conf written");
	slurp(path, buf, sizeof(buf));
	ok(strstr(buf, "user = \"vlalab\"\n") &&
		   strstr(buf, "group = \"kvm\"\n") &&
		   strstr(buf, "seccomp_sandbox = 1\n") &&
		   strstr(buf, "namespaces = [ \"mount\" ]\n") &&
		   !strstr(buf, "\"root\""),
	   "confined qemu.conf: QEMU's user, seccomp, a mount namespace");
	is_int(uri_prepare(uri, "vlalab", "kvm", false), 0,
	       "confined, no namespaces");
	slurp(path, buf, sizeof(buf));
	ok(strstr(buf, "namespaces = []\n") != NULL,
	   "no mount namespace where the machine allows none");
}

/* A console log's tail as hostctl reads it for a reason. */
static char *console_tail(const char *path, unsigned int nlines)
{
	size_t len;
	char *log, *tail;

	if (fs_read_tail(path, 16384, &log, &len) < 0)
		return NULL;
	tail = report_console_tail(log, len, nlines);
	free(log);
	return tail;
}

static void test_console_tail(void)
{
	char path[512], *tail;
	FILE *f;

	snprintf(path, sizeof(path), "%s/console.log", tmpdir);
	f = fopen(path, "w");
	for (int i = 1; i <= 30; i++)
		fprintf(f, "line %d\r\n", i);
	fputs("bell\a\n", f);
	fclose(f);
	tail = console_tail(path, 3);
	is_str(tail, "line 29\nline 30\nbell?", "last 3 lines, cleaned");
	free(tail);
	ok(console_tail("/nonexistent/x", 3) == NULL, "missing file");
}

static void test_ktap(void)
{
	struct res_step st = {
		.index = 0, .kind = "read", .ran = true, .verdict = VERDICT_FAIL
	};
	struct res_scenario sc[2] = {
		{ .name = "a/one",
		  .done = true,
		  .verdict = VERDICT_FAIL,
		  .steps = &st,
		  .nsteps = 1 },
		{ .name = "a/two", .done = true, .verdict = VERDICT_SKIP },
	};
	struct res_run run = {
		.run_id = "r", .accelerator = "tcg", .v = sc, .n = 2
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	sc[1].reason = "CONFIG_X is not set";
	res_ktap(&run, f);
	fclose(f);
	ok(strncmp(buf, "KTAP version 1\n", 15) == 0, "KTAP header");
	ok(strstr(buf, "\n1..2\n") != NULL, "plan");
	ok(strstr(buf, "    not ok 1 0-read\n") != NULL, "failed step");
	ok(strstr(buf, "\nnot ok 1 a/one\n") != NULL, "failed scenario");
	ok(strstr(buf, "\nok 2 a/two # SKIP CONFIG_X is not set\n") != NULL,
	   "skip directive");
	ok(!res_run_ok(&run), "a fail makes the run red");
	sc[0].verdict = VERDICT_XFAIL;
	ok(res_run_ok(&run), "xfail and skip keep it green");
	sc[1].done = false;
	ok(!res_run_ok(&run), "an unfinished scenario is red");
	free(buf);
}

/*
 * A streamed run (progress.h) writes the KTAP res_ktap() writes, each
 * scenario as it ends, and a plain line per scenario; a stream that
 * cannot be written is an error, never silence.
 */
static void test_stream(void)
{
	struct res_scenario sc[3] = {
		{ .name = "a/one",
		  .done = true,
		  .verdict = VERDICT_FAIL,
		  .duration_ms = 4149,
		  .reason = "bad" },
		{ .name = "a/two", .done = true, .verdict = VERDICT_SKIP },
		{ .name = "b/three",
		  .done = true,
		  .verdict = VERDICT_PASS,
		  .duration_ms = 12050 },
	};
	struct res_run run = { .run_id = "r",
			       .accelerator = "tcg",
			       .complete = RES_COMPLETE_YES,
			       .v = sc,
			       .n = 3 };
	char *batch = NULL, *stream = NULL, *plain = NULL;
	size_t blen = 0, slen = 0, plen = 0;
	FILE *b = open_memstream(&batch, &blen);
	struct progress p = {
		.ktap = { open_memstream(&stream, &slen) },
		.ktap_name = { "stream" },
		.plain = open_memstream(&plain, &plen),
	};
	const char *name = NULL;
	char *one_line;
	int r;

	res_ktap(&run, b);
	fclose(b);
	r = progress_begin(&p, &run, &name);
	one_line = r == 0 ? strdup(stream) : NULL;
	for (size_t i = 0; r == 0 && i < run.n; i++)
		r = progress_result(&p, &sc[i], &name);
	if (r == 0)
		r = progress_end(&p, &run, &name);
	fclose(p.ktap[0]);
	fclose(p.plain);
	ok(r == 0, "stream written");
	ok(one_line && strcmp(one_line, "KTAP version 1\n# vlalab run r\n"
					"1..3\n") == 0,
	   "the plan goes out before any scenario ends");
	ok(batch && stream && strcmp(batch, stream) == 0,
	   "streamed KTAP is res_ktap()'s");
	ok(plain && strcmp(plain, "[1/3] a/one fail 4.1 s\n"
				  "[2/3] a/two skip 0.0 s\n"
				  "[3/3] b/three pass 12.0 s\n") == 0,
	   "a plain line per scenario");
	free(one_line);
	free(batch);
	free(stream);
	free(plain);

	/* A stream that cannot take the bytes (a full disk). */
	p.ktap[0] = fopen("/dev/full", "w");
	p.plain = NULL;
	name = NULL;
	if (!p.ktap[0]) {
		ok(0, "open /dev/full");
		return;
	}
	r = progress_begin(&p, &run, &name);
	is_int(r, -ENOSPC, "a full disk is -ENOSPC");
	ok(name && !strcmp(name, "stream"), "naming the stream");
	fclose(p.ktap[0]);
}

/* Exit codes: the kernel's fault (1) or the lab's (3), never hidden. */
static void test_outcome(void)
{
	struct res_scenario sc[3] = {
		{ .name = "a/one", .done = true, .verdict = VERDICT_PASS },
		{ .name = "a/two", .done = true, .verdict = VERDICT_SKIP },
		{ .name = "a/three", .done = true, .verdict = VERDICT_XFAIL },
	};
	struct res_run run = { .run_id = "r", .v = sc, .n = 3 };
	static const enum proto_verdict kernel[] = {
		VERDICT_FAIL, VERDICT_TIMEOUT, VERDICT_CRASH, VERDICT_XPASS
	};

	is_int(res_run_outcome(&run), RES_OUTCOME_OK, "pass, skip, xfail: ok");
	sc[1].verdict = VERDICT_ERROR;
	is_int(res_run_outcome(&run), RES_OUTCOME_LAB, "error: the lab's");
	for (size_t i = 0; i < sizeof(kernel) / sizeof(kernel[0]); i++) {
		sc[2].verdict = kernel[i];
		okf(res_run_outcome(&run) == RES_OUTCOME_KERNEL,
		    "%s beside an error: the kernel's",
		    proto_verdict_name(kernel[i]));
	}
	sc[1].verdict = VERDICT_PASS;
	sc[2].verdict = VERDICT_PASS;
	sc[2].done = false;
	is_int(res_run_outcome(&run), RES_OUTCOME_LAB, "no verdict: the lab's");
}

/* Feed @in in one go; what goes out, and whether it quit. */
static void esc_case(struct escape *e, const char *in, const char *want,
		     bool want_quit, const char *what)
{
	char out[64];
	bool quit;
	size_t n = escape_feed(e, in, strlen(in), out, &quit);

	out[n] = '\0';
	ok(strcmp(out, want) == 0 && quit == want_quit, what);
	if (strcmp(out, want) != 0)
		printf("# got '%s', want '%s'\n", out, want);
}

static void test_escape(void)
{
	struct escape e;

	escape_init(&e);
	esc_case(&e, "~.", "", true, "~. at the start leaves");
	escape_init(&e);
	esc_case(&e, "ls\r~.", "ls\r", true, "~. after a newline leaves");
	escape_init(&e);
	esc_case(&e, "a~.", "a~.", false, "~. mid-line is typed");
	escape_init(&e);
	esc_case(&e, "~~x", "~x", false, "~~ sends one ~");
	escape_init(&e);
	esc_case(&e, "~x", "~x", false, "~ then another key sends both");
	escape_init(&e);
	esc_case(&e, "~", "", false, "a lone ~ is held");
	esc_case(&e, ".", "", true, "... and . in the next read leaves");
	escape_init(&e);
	esc_case(&e, "\n~~.", "\n~.", false, "~~. sends ~. and stays");
}

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

/* --image cloud:PATH: the form, and a qcow2 by its magic. */
static void test_cloud(void)
{
	char path[PATH_MAX], abs[PATH_MAX];
	const char *got = NULL;
	FILE *f;

	is_int(cloud_spec_path("cloud:/a/b.qcow2", &got), 0, "cloud:PATH");
	ok(got && !strcmp(got, "/a/b.qcow2"), "its PATH");
	is_int(cloud_spec_path("cloud:", &got), -EINVAL, "no PATH refused");
	is_int(cloud_spec_path("/a/b.qcow2", &got), -EINVAL,
	       "no cloud: refused");
	snprintf(path, sizeof(path), "%s/img", tmpdir);
	is_int(cloud_check_qcow2(path, abs, sizeof(abs)), -ENOENT,
	       "a missing image");
	f = fopen(path, "w");
	fputs("QFI", f);
	fclose(f);
	is_int(cloud_check_qcow2(path, abs, sizeof(abs)), -EMEDIUMTYPE,
	       "three bytes are no qcow2");
	f = fopen(path, "w");
	fputs("QFI\xfb\x00\x00\x00\x03", f);
	fclose(f);
	is_int(cloud_check_qcow2(path, abs, sizeof(abs)), 0, "a qcow2");
	ok(!strcmp(abs, path), "its absolute path");
	is_int(cloud_check_qcow2(tmpdir, abs, sizeof(abs)), -EISDIR,
	       "a folder refused");
}

/* One call of esc_term_*() into a string. */
static char *term(int how, const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (how == 0)
		esc_term_putn(f, s, strlen(s));
	else if (how == 1)
		esc_term_printf(f, "[%s]\n", s);
	else
		esc_term_xml_put(f, s);
	fclose(f);
	return buf;
}

static void term_case(int how, const char *in, const char *want,
		      const char *what)
{
	char *got = term(how, in);

	if (!ok(got && !strcmp(got, want), what) && got) {
		for (size_t i = 0; got[i]; i++)
			got[i] = got[i] == '\n' ? '|' : got[i];
		printf("#   got '%s'\n", got);
	}
	free(got);
}

/* The rule for text that leaves for a terminal or a line (escape.h). */
static void test_term(void)
{
	term_case(0, "plain text: a\\b 'c' \"d\" <e> \u00e9\u2603\t",
		  "plain text: a\\b 'c' \"d\" <e> \u00e9\u2603\t",
		  "ordinary text, tab and UTF-8 unchanged");
	term_case(0, "\x1b]52;c;eA==\x07", "\\x1b]52;c;eA==\\x07",
		  "OSC 52: ESC and BEL escaped");
	term_case(0, "a\rok 2 b\nc\x7f", "a\\x0dok 2 b\\x0ac\\x7f",
		  "\\r, \\n and DEL escaped");
	term_case(0, "\xc2\x9b" "2J \xc2\x85 \xc2\xa0",
		  "\\xc2\\x9b2J \\xc2\\x85 \xc2\xa0",
		  "C1 controls escaped, U+00A0 kept");
	term_case(0, "a\xe2\x80\xa8" "b\xe2\x80\xa9", "a\\xe2\\x80\\xa8b\\xe2\\x80\\xa9",
		  "U+2028 and U+2029 escaped");
	term_case(0, "\x9b\xff\xc3", "\\x9b\\xff\\xc3",
		  "bytes of invalid UTF-8 escaped");
	term_case(1, "x\ny\r", "[x\\x0ay\\x0d]\n",
		  "printf: the line's own newline kept, the value's escaped");
	term_case(2, "<a>&\n\x1b\r\xc2\x85", "&lt;a&gt;&amp;\n\\x1b\\x0d\\xc2\\x85",
		  "XML: entities, newline kept, controls escaped");
}

int main(void)
{
	char cmd[64];

	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_domain();
	test_accel();
	test_uri();
	test_console_tail();
	test_ktap();
	test_stream();
	test_outcome();
	test_escape();
	test_term();
	test_vmstate();
	test_cloud();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmpdir);
	return tap_done();
}
