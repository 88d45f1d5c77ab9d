// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/vm/accel.c: --accel parsed, the host key, and the
 * cached verdict of the KVM probe written and read back.
 */
#include <errno.h>
#include <string.h>

#include "vm/accel.h"
#include "vm/domain.h"
#include "tap.h"
#include "testdir.h"

static char tmpdir[] = "/tmp/hostctl-test-XXXXXX";

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

int main(void)
{
	if (!testdir_make(tmpdir))
		return 1;
	test_accel();
	testdir_remove(tmpdir);
	return tap_done();
}
