// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/rawqemu.c: the raw QEMU command line bench
 * compares libvirt against, and the launcher, with this program itself
 * as the emulator (argv[1] "-name": it plays QEMU, writing to the
 * descriptors it was given).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm/rawqemu.h"
#include "proto.h"
#include "tap.h"

/* The vector as one line, arguments split by spaces. */
static const char *joined(const struct rawqemu_argv *a)
{
	static char buf[4096];
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; i < a->argc; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s",
				i ? " " : "", a->argv[i]);
	return buf;
}

static void test_argv(void)
{
	struct rawqemu_config c = {
		.kernel = "/k/bzImage",
		.initrd = "/i/initramfs.cpio.gz",
		.firmware = "/usr/share/qemu/qboot.rom",
	};
	struct rawqemu_argv a;

	is_int(rawqemu_argv(&c, &a), 0, "the default command line");
	is_str(joined(&a),
	       "qemu-system-x86_64 -name vlalab-raw -machine q35 -accel tcg "
	       "-cpu qemu64 -m 512 -smp 1 -nodefaults -no-user-config "
	       "-display none -bios /usr/share/qemu/qboot.rom "
	       "-kernel /k/bzImage -initrd /i/initramfs.cpio.gz "
	       "-append console=ttyS0 panic=-1 rdinit=/init quiet loglevel=5 no_timer_check "
	       "-chardev socket,id=con,fd=3 -serial chardev:con "
	       "-device virtio-serial-pci,id=vs -chardev socket,id=chan,fd=4 "
	       "-device virtserialport,bus=vs.0,chardev=chan,"
	       "name=org.vlalab.guestd.0",
	       "the domain's kernel, initramfs, command line, firmware, "
	       "machine, memory and vCPUs; console and channel on fds 3, 4");
	ok(a.argv[a.argc] == NULL, "NULL-terminated");
	ok(!strcmp(a.argv[a.argc - 12], "-append") &&
		   !strcmp(a.argv[a.argc - 11], domain_default_cmdline),
	   "the command line is one argument");

	c.machine = "pc";
	c.memory_mib = 1024;
	c.vcpus = 2;
	c.firmware = NULL;
	c.accel = DOMAIN_ACCEL_KVM;
	c.cmdline = "console=ttyS0 x='a b'";
	c.ssh_port = true;
	c.emulator = "/opt/q";
	is_int(rawqemu_argv(&c, &a), 0, "pc, KVM, SeaBIOS, an SSH port");
	is_str(joined(&a),
	       "/opt/q -name vlalab-raw -machine pc -accel kvm -cpu qemu64 "
	       "-m 1024 -smp 2 -nodefaults -no-user-config -display none "
	       "-kernel /k/bzImage -initrd /i/initramfs.cpio.gz "
	       "-append console=ttyS0 x='a b' "
	       "-chardev socket,id=con,fd=3 -serial chardev:con "
	       "-device virtio-serial-pci,id=vs -chardev socket,id=chan,fd=4 "
	       "-device virtserialport,bus=vs.0,chardev=chan,"
	       "name=org.vlalab.guestd.0 -chardev socket,id=ssh,fd=5 "
	       "-device virtserialport,bus=vs.0,chardev=ssh,"
	       "name=org.vlalab.ssh.0",
	       "no -bios without firmware, the SSH port on fd 5");

	c.machine = "isapc";
	is_int(rawqemu_argv(&c, &a), -EINVAL, "an unknown machine");
	c.machine = NULL;
	c.vcpus = 3;
	is_int(rawqemu_argv(&c, &a), -EINVAL, "three vCPUs, as domain_xml");
	c.vcpus = 0;
	c.initrd = NULL;
	is_int(rawqemu_argv(&c, &a), -EINVAL, "no initramfs");
	c.initrd = "/i";
	c.kernel = NULL;
	is_int(rawqemu_argv(&c, &a), -EINVAL, "no kernel");

	c.kernel = "/k";
	c.ssh_port = false;
	c.monitor = true;
	c.incoming = "/c/bench/raw-state-1/state";
	is_int(rawqemu_argv(&c, &a), 0, "a monitor and a state to restore");
	ok(strstr(joined(&a),
		  "name=org.vlalab.guestd.0 -chardev socket,id=mon,fd=6 "
		  "-mon chardev=mon,mode=readline "
		  "-incoming exec:cat /c/bench/raw-state-1/state") != NULL,
	   "the monitor on fd 6, then -incoming exec:cat PATH");
	c.incoming = "/c/st ate;reboot";
	is_int(rawqemu_argv(&c, &a), -EINVAL,
	       "a state path the shell would split: refused");
	c.incoming = "";
	is_int(rawqemu_argv(&c, &a), -EINVAL, "an empty state path");
}

/* Playing QEMU's monitor: answer "migrate" by writing the state (or, for
 * "save-fail", an error and no state) and exit at "quit". */
static int fake_monitor(bool fail)
{
	char buf[4096] = "", *p, *end;
	size_t len = 0;
	ssize_t n;
	FILE *f;

	while (!strstr(buf, "quit\n")) {
		n = read(RAWQEMU_FD_MONITOR, buf + len, sizeof(buf) - 1 - len);
		if (n <= 0)
			return 1;
		len += (size_t)n;
		buf[len] = '\0';
	}
	p = strstr(buf, "migrate \"exec:cat > ");
	end = p ? strchr(p + 20, '"') : NULL;
	if (!end)
		return 1;
	*end = '\0';
	if (fail)
		return write(RAWQEMU_FD_MONITOR, "Error: boom\r\n", 13) == 13 ?
			       0 :
			       1;
	f = fopen(p + 20, "w");
	if (!f || fputs("QEVM", f) < 0 || fclose(f))
		return 1;
	return 0;
}

/* Playing QEMU: argv[2] says what to do on the descriptors. */
static int fake_qemu(const char *what)
{
	struct proto_event ev = { .type = PROTO_EV_HELLO };
	size_t len;
	char *line;

	if (write(RAWQEMU_FD_CONSOLE, "SeaBIOS\r\n", 9) != 9)
		return 1;
	if (!strcmp(what, "exit"))
		return 0;
	if (!strcmp(what, "garbage"))
		return write(RAWQEMU_FD_CHANNEL, "not json\n", 9) == 9 ? 0 : 1;
	if (!strcmp(what, "silent")) {
		pause();
		return 0;
	}
	if (!strcmp(what, "save") || !strcmp(what, "save-fail"))
		return fake_monitor(!strcmp(what, "save-fail"));
	/* A kmsg-less heartbeat first: not the hello, then the hello. */
	ev.type = PROTO_EV_HEARTBEAT;
	if (proto_event_encode(&ev, &line, &len) < 0 ||
	    write(RAWQEMU_FD_CHANNEL, line, len) != (ssize_t)len)
		return 1;
	free(line);
	memset(&ev, 0, sizeof(ev));
	ev.type = PROTO_EV_HELLO;
	ev.u.hello.version = PROTO_VERSION;
	/* A restored guest's answer to "restored". */
	if (!strcmp(what, "restored")) {
		ev.u.hello.restored = 1;
		snprintf(ev.u.hello.boot_id, sizeof(ev.u.hello.boot_id),
			 "0a7d3c8e-1f2b-4c5d-8e9f-0a1b2c3d4e5f");
	}
	if (proto_event_encode(&ev, &line, &len) < 0)
		return 1;
	/* In two pieces, as a port may deliver it. */
	if (write(RAWQEMU_FD_CHANNEL, line, 5) != 5 ||
	    write(RAWQEMU_FD_CHANNEL, line + 5, len - 5) != (ssize_t)(len - 5))
		return 1;
	free(line);
	pause();
	return 0;
}

/* Start this program as QEMU told to do @what; wait_hello's result. */
static int run_fake(const char *self, const char *what, uint64_t *us)
{
	struct rawqemu_config c = {
		.emulator = self,
		.kernel = "/k",
		.initrd = "/i",
	};
	struct rawqemu q = { .con_fd = -1, .chan_fd = -1, .ssh_fd = -1 };
	int r;

	/* The fake reads what to do from its environment. */
	setenv("RAWQEMU_TEST_DO", what, 1);
	r = rawqemu_start(&c, &q);
	if (r == 0)
		r = rawqemu_wait_hello(&q, !strcmp(what, "silent") ? 300 : 20000,
				       us);
	rawqemu_stop(&q);
	ok(q.pid == 0 && q.chan_fd == -1 && q.con_fd == -1,
	   "stopped: reaped and closed");
	return r;
}

/* The save (@what "save" or "save-fail") of a fake QEMU with a monitor. */
static int save_fake(const char *self, const char *what, const char *path)
{
	struct rawqemu_config c = {
		.emulator = self,
		.kernel = "/k",
		.initrd = "/i",
		.monitor = true,
	};
	struct rawqemu q;
	int r;

	setenv("RAWQEMU_TEST_DO", what, 1);
	r = rawqemu_start(&c, &q);
	if (r == 0)
		r = rawqemu_save(&q, path, 20000);
	rawqemu_stop(&q);
	return r;
}

/* A fake QEMU started from a state: only a restored hello counts. */
static int restore_fake(const char *self, const char *what, uint64_t *us)
{
	struct rawqemu_config c = {
		.emulator = self,
		.kernel = "/k",
		.initrd = "/i",
		.incoming = "/nonexistent/state",
	};
	struct rawqemu q;
	int r;

	setenv("RAWQEMU_TEST_DO", what, 1);
	r = rawqemu_start(&c, &q);
	if (r == 0)
		r = rawqemu_wait_hello(&q, !strcmp(what, "hello") ? 300 : 20000,
				       us);
	rawqemu_stop(&q);
	return r;
}

static void test_save_restore(const char *self)
{
	char dir[] = "/tmp/test-rawqemu-XXXXXX", path[64];
	struct rawqemu q = { .pid = 0, .mon_fd = -1 };
	uint64_t us = 0;
	struct stat st;

	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	snprintf(path, sizeof(path), "%s/state", dir);
	is_int(save_fake(self, "save", path), 0,
	       "migrate to exec:cat, then quit: saved");
	ok(stat(path, &st) == 0 && st.st_size == 4, "the state is there");
	unlink(path);
	is_int(save_fake(self, "save-fail", path), -EIO,
	       "the monitor says Error: -EIO");
	is_int(rawqemu_save(&q, path, 100), -EINVAL, "no monitor: -EINVAL");
	rmdir(dir);
	is_int(restore_fake(self, "restored", &us), 0,
	       "from a state: the restored hello");
	is_int(restore_fake(self, "hello", &us), -ETIMEDOUT,
	       "from a state: a booted guest's hello does not count");
}

static void test_launch(const char *self)
{
	uint64_t us = 0;

	is_int(run_fake(self, "hello", &us), 0, "hello read past a heartbeat");
	ok(us > 0, "exec -> hello timed");
	is_int(run_fake(self, "exit", &us), -EPIPE,
	       "QEMU gone before hello: -EPIPE");
	is_int(run_fake(self, "garbage", &us), -EPROTO,
	       "a line that is no event: -EPROTO");
	is_int(run_fake(self, "silent", &us), -ETIMEDOUT,
	       "no hello in time: -ETIMEDOUT");
}

int main(int argc, char **argv)
{
	char self[4096];
	ssize_t n;

	if (argc > 1 && !strcmp(argv[1], "-name"))
		return fake_qemu(getenv("RAWQEMU_TEST_DO") ?: "");
	test_argv();
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		test_launch(self);
		test_save_restore(self);
	}
	return tap_done();
}
