// SPDX-License-Identifier: GPL-2.0-only
/*
 * hostctl bench's raw QEMU and cold build figures (bench-raw.h).
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/bench-raw.h"
#include "run/runner.h"
#include "run/setup.h"
#include "vm/confine.h"
#include "vm/rawqemu.h"
#include "vm/snapshot.h"
#include "vm/vm.h"

/* The configuration of @b's raw QEMUs. */
static struct rawqemu_config config(const struct bench_raw *b)
{
	return (struct rawqemu_config){
		.accel = b->accel && !strcmp(b->accel, "kvm") ?
				 DOMAIN_ACCEL_KVM :
				 DOMAIN_ACCEL_TCG,
		.machine = b->machine,
		.kernel = b->su->kernel_path,
		.initrd = b->su->image.path,
		.firmware = runner_firmware(),
		.confine = true,
	};
}

static unsigned int hello_ms(const struct bench_raw *b)
{
	return BENCH_RAW_HELLO_MS * setup_boot_scale(b->su);
}

/* Say why raw QEMU @what @i failed (@r), and return @r. */
static int said(const char *what, unsigned int i, int r)
{
	fprintf(stderr, "hostctl bench: raw QEMU %s %u: %s\n", what, i + 1,
		r == -EPIPE ? "QEMU exited before hello" : strerror(-r));
	return r;
}

int bench_raw_boot(const struct bench_raw *b, unsigned int i, uint64_t *ret_us)
{
	struct rawqemu_config c = config(b);
	struct rawqemu q;
	int r = rawqemu_start(&c, &q);

	if (r == 0)
		r = rawqemu_wait_hello(&q, hello_ms(b), ret_us);
	rawqemu_stop(&q);
	return r < 0 ? said("boot", i, r) : 0;
}

/* The state's folder, for QEMU's user to write in. 0 or -errno. */
static int state_dir(struct bench_raw *b)
{
	struct passwd *pw = geteuid() == 0 ? getpwnam(CONFINE_USER) : NULL;
	int r;

	if (snprintf(b->dir, sizeof(b->dir), "%s/bench/raw-state-%d",
		     b->su->cache_dir, getpid()) >= (int)sizeof(b->dir))
		return -ENAMETOOLONG;
	if (mkdir(b->dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	snprintf(b->state, sizeof(b->state), "%s/state", b->dir);
	if (pw && chown(b->dir, pw->pw_uid, pw->pw_gid) < 0)
		return -errno;
	r = confine_path(b->dir, CONFINE_WRITE);
	return r == -ENOPKG ? 0 : r;
}

int bench_raw_save(struct bench_raw *b)
{
	struct rawqemu_config c = config(b);
	struct rawqemu q = { .pid = 0 };
	uint64_t us;
	int r;

	c.monitor = true;
	r = state_dir(b);
	if (r < 0) {
		fprintf(stderr,
			"hostctl bench: raw QEMU's state folder '%s': %s\n",
			b->dir, strerror(-r));
		b->state[0] = '\0';
		return r;
	}
	r = rawqemu_start(&c, &q);
	if (r == 0)
		r = rawqemu_wait_hello(&q, hello_ms(b), &us);
	if (r == 0)
		r = rawqemu_save(&q, b->state, hello_ms(b));
	rawqemu_stop(&q);
	if (r < 0) {
		b->state[0] = '\0';
		if (r != -EIO)
			return said("save", 0, r);
		fprintf(stderr,
			"hostctl bench: raw QEMU save: QEMU failed or wrote no state to '%s'\n",
			b->dir);
		return r;
	}
	return 0;
}

int bench_raw_restore(const struct bench_raw *b, unsigned int i,
		      uint64_t *ret_us)
{
	struct rawqemu_config c = config(b);
	char boot_id[PROTO_BOOT_ID_MAX], *line = NULL;
	struct rawqemu q;
	size_t len;
	int r;

	if (!b->state[0])
		return -ENOENT;
	c.incoming = b->state;
	r = snapshot_greeting(boot_id, &line, &len);
	if (r == 0)
		r = rawqemu_start(&c, &q);
	else
		q = (struct rawqemu){
			.con_fd = -1, .chan_fd = -1, .ssh_fd = -1, .mon_fd = -1
		};
	/* The socket holds it until the guest reads it. */
	if (r == 0 && write(q.chan_fd, line, len) != (ssize_t)len)
		r = -EIO;
	if (r == 0)
		r = rawqemu_wait_hello(&q, hello_ms(b), ret_us);
	free(line);
	rawqemu_stop(&q);
	return r < 0 ? said("restore", i, r) : 0;
}

void bench_raw_free(struct bench_raw *b)
{
	if (b->state[0])
		unlink(b->state);
	if (b->dir[0])
		rmdir(b->dir);
	b->state[0] = b->dir[0] = '\0';
}

int bench_cold_build(const struct setup *su, uint64_t *ret_us, const char **why)
{
	struct json_object *cold, *secs;

	if (!su->manifest) {
		*why = "no cold build recorded (no manifest)";
		return -ENOENT;
	}
	if (!json_object_object_get_ex(su->manifest, "cold", &cold)) {
		*why = "no cold build recorded (the manifest predates \"cold\")";
		return -ENOENT;
	}
	if (!json_object_get_boolean(cold)) {
		*why = "no cold build recorded (this kernel's build was incremental or seeded)";
		return -ENOENT;
	}
	if (!json_object_object_get_ex(su->manifest, "build_seconds", &secs) ||
	    json_object_get_double(secs) <= 0) {
		*why = "no cold build recorded (no build_seconds)";
		return -ENOENT;
	}
	*ret_us = (uint64_t)(json_object_get_double(secs) * 1e6);
	*why = NULL;
	return 0;
}
