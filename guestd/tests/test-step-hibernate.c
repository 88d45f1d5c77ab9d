// SPDX-License-Identifier: GPL-2.0-only
/*
 * The step kinds of hibernation: the swap header mkswap writes, byte for
 * byte, and swap (no swapon), marker and resume against a fake disk,
 * /run and sysfs under a temp dir.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "guestd.h"
#include "steprun.h"
#include "tap.h"
#include "testutil.h"

/* The header mkswap writes, byte for byte where the kernel reads it. */
static void test_swap_header(void)
{
	static char page[4096];
	uint8_t uuid[16] = { 1, 2, 3 };
	char sig[64];
	uint32_t v;

	is_int(swap_header_build(page, 4096, 4096 * 9, uuid), -EINVAL,
	       "swap: under ten pages is refused");
	is_int(swap_header_build(page, 3000, 1 << 20, uuid), -EINVAL,
	       "swap: a page size that is no power of two is refused");
	is_int(swap_header_build(page, 4096, (1 << 20) + 100, uuid), 0,
	       "swap: 1 MiB and a bit");
	memcpy(&v, page + 1024, 4);
	is_int(v, 1, "swap: version 1");
	memcpy(&v, page + 1028, 4);
	is_int(v, 255, "swap: last_page is the last whole page");
	memcpy(&v, page + 1032, 4);
	is_int(v, 0, "swap: no bad pages");
	ok(page[1036] == 1 && page[1037] == 2, "swap: the uuid follows");
	swap_signature(page, 4096, sig, sizeof(sig));
	is_str(sig, "SWAPSPACE2", "swap: the signature at the page's end");
	memcpy(page + 4096 - 10, "S1SUSPEND\0", 10);
	swap_signature(page, 4096, sig, sizeof(sig));
	is_str(sig, "S1SUSPEND", "swap: a hibernation signature, NUL-padded");
	ok(swap_dev_name_ok("vda") && !swap_dev_name_ok("../vda") &&
	   !swap_dev_name_ok("") && !swap_dev_name_ok("VDA"),
	   "swap: device names are [a-z0-9]+");
}

/* swap, marker and resume against files under the temp dir. */
static void test_hibernate_steps(void)
{
	struct step_result res;
	char f[512];
	int fd;

	env.dev_dir = env.sys_dir = env.run_dir = dir;
	snprintf(f, sizeof(f), "%s/vdz", dir);
	fd = open(f, O_CREAT | O_RDWR | O_TRUNC, 0600);
	ok(fd >= 0 && ftruncate(fd, 1 << 20) == 0, "a 1 MiB fake disk");
	close(fd);
	run(&res, "{\"kind\":\"swap\",\"device\":\"vdz\",\"mkswap\":false,"
	    "\"swapon\":false,\"signature\":\"SWAPSPACE2\"}");
	is_int(res.verdict, VERDICT_FAIL, "swap: a blank disk has no signature");
	is_str(res.expected, "signature 'SWAPSPACE2'", "swap: expected text");
	is_str(res.got, "signature ''", "swap: got text");
	run(&res, "{\"kind\":\"swap\",\"device\":\"vdz\"}");
	is_int(res.verdict, VERDICT_PASS, "swap: mkswap on the fake disk");
	is_str(res.got, "signature ''; mkswap: 256 pages; swapon",
	       "swap: says what it did");
	run(&res, "{\"kind\":\"swap\",\"device\":\"vdz\",\"mkswap\":false,"
	    "\"swapon\":false,\"signature\":\"SWAPSPACE2\"}");
	is_int(res.verdict, VERDICT_PASS, "swap: now it has the signature");
	refused("{\"kind\":\"swap\",\"device\":\"../etc\"}",
		"key 'device': bad block device name '../etc' (want [a-z0-9]{1,31}, e.g. vda)",
		"swap: a path is no device name, refused before it runs");
	run(&res, "{\"kind\":\"swap\",\"device\":\"vdy\"}");
	is_int(res.verdict, VERDICT_FAIL, "swap: a missing device fails");
	is_str(res.got, "errno ENOENT from open (No such file or directory)",
	       "swap: with the errno");

	run(&res, "{\"kind\":\"marker\",\"action\":\"check\",\"expect\":\"absent\"}");
	is_int(res.verdict, VERDICT_PASS, "marker: none yet, as expected");
	run(&res, "{\"kind\":\"marker\",\"action\":\"check\"}");
	is_int(res.verdict, VERDICT_FAIL, "marker: none yet fails a check");
	is_str(res.got, "no marker", "marker: got no marker");
	run(&res, "{\"kind\":\"marker\",\"action\":\"set\"}");
	is_int(res.verdict, VERDICT_PASS, "marker: set");
	ok(strncmp(res.got, "token ", 6) == 0 && strlen(res.got) > 22,
	   "marker: reports its token");
	{
		char tok[17];

		memcpy(tok, res.got + 6, 16);
		tok[16] = '\0';
		run(&res, "{\"kind\":\"marker\",\"action\":\"check\"}");
		is_int(res.verdict, VERDICT_PASS, "marker: found");
		ok(strncmp(res.got + 6, tok, 16) == 0 &&
		   strstr(res.got, ", set at uptime "),
		   "marker: the same token, and when it was set");
	}
	run(&res, "{\"kind\":\"marker\",\"action\":\"check\",\"expect\":\"absent\"}");
	is_int(res.verdict, VERDICT_FAIL, "marker: present when absent is expected");
	snprintf(f, sizeof(f), "%s/vlalab-marker", dir);
	tu_write(f, "0123456789abcdef 99999999999\n", O_TRUNC);
	run(&res, "{\"kind\":\"marker\",\"action\":\"check\"}");
	is_int(res.verdict, VERDICT_FAIL, "marker: uptime may not go back");
	tu_write(f, "garbage\n", O_TRUNC);
	run(&res, "{\"kind\":\"marker\",\"action\":\"check\"}");
	is_int(res.verdict, VERDICT_ERROR, "marker: a bad file is an error");
	run(&res, "{\"kind\":\"marker\",\"action\":\"set\",\"expect\":\"absent\"}");
	is_int(res.verdict, VERDICT_ERROR, "marker: expect goes with check");

	snprintf(f, sizeof(f), "%s/block", dir);
	mkdir(f, 0700);
	snprintf(f, sizeof(f), "%s/block/vdz", dir);
	mkdir(f, 0700);
	snprintf(f, sizeof(f), "%s/block/vdz/dev", dir);
	tu_write(f, "254:0\n", O_TRUNC);
	snprintf(f, sizeof(f), "%s/power", dir);
	mkdir(f, 0700);
	snprintf(f, sizeof(f), "%s/power/resume", dir);
	tu_write(f, "", O_TRUNC);
	run(&res, "{\"kind\":\"resume\",\"device\":\"vdz\"}");
	is_int(res.verdict, VERDICT_PASS, "resume: the write returned");
	is_str(tu_read(f), "254:0", "resume: wrote MAJ:MIN");
	run(&res, "{\"kind\":\"resume\",\"device\":\"vdz\","
	    "\"hold_snapshot\":true}");
	is_int(res.verdict, VERDICT_FAIL, "resume: hold_snapshot with no snapshot device");
	is_str(res.got, "errno ENOENT from open (No such file or directory)",
	       "resume: says why it could not hold it");
	{
		char snap[512];

		snprintf(snap, sizeof(snap), "%s/snapshot", dir);
		tu_write(snap, "", O_TRUNC);
		tu_write(f, "", O_TRUNC);
		run(&res, "{\"kind\":\"resume\",\"device\":\"vdz\","
		    "\"hold_snapshot\":true}");
		is_int(res.verdict, VERDICT_PASS, "resume: holding the snapshot device");
		ok(strstr(res.got, " holding /dev/snapshot;") != NULL,
		   "resume: says it held the snapshot device");
		is_str(tu_read(f), "254:0", "resume: and wrote MAJ:MIN");
	}
	snprintf(f, sizeof(f), "%s/block/vdz/dev", dir);
	tu_write(f, "254:0; rm -rf\n", O_TRUNC);
	run(&res, "{\"kind\":\"resume\",\"device\":\"vdz\"}");
	is_int(res.verdict, VERDICT_ERROR, "resume: a strange dev file is refused");
	env.dev_dir = env.sys_dir = env.run_dir = NULL;
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s", tu_tmpdir());
	test_swap_header();
	test_hibernate_steps();
	tu_rmrf(dir);
	return tap_done();
}
