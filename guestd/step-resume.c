// SPDX-License-Identifier: GPL-2.0-only
/*
 * resume: write a block device's MAJ:MIN to /sys/power/resume, which runs
 * the kernel's software_resume() at once. When that device holds a
 * hibernation image that the kernel accepts, the image replaces this
 * system and this step never returns here: the hibernated system goes on
 * instead. When the write returns, no image was restored: the step passes
 * and says so, so a scenario can show that none is left on the device.
 *
 * With "hold_snapshot", the step keeps /dev/snapshot open across the write.
 * That takes hibernation (hibernate_acquire()), so software_resume() finds
 * the image, cannot go on and gives the resume device back on its busy
 * path: the path on which 6.1.y released a device it had not claimed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guestd.h"

static int resume_run(struct step_ctx *ctx, struct json_object *step,
		      struct step_result *res)
{
	const char *dev = step_str(step, "device");
	const char *sys = ctx->env->sys_dir ? ctx->env->sys_dir : "/sys";
	const char *devdir = ctx->env->dev_dir ? ctx->env->dev_dir : "/dev";
	bool hold = step_bool(step, "hold_snapshot", false);
	char majmin[32], path[512], snap[512];
	int r, fd, sfd = -1;
	ssize_t n;

	if (!swap_dev_name_ok(dev)) {
		step_error(
			res,
			"device '%s' is not a block device name ([a-z0-9]{1,31})",
			dev);
		return 0;
	}
	r = swap_dev_majmin(sys, dev, majmin, sizeof(majmin));
	if (r < 0) {
		step_error(res, "no MAJ:MIN for '%s' under %s/block: %s", dev,
			   sys, util_errno_desc(-r));
		return 0;
	}
	if (hold) {
		snprintf(snap, sizeof(snap), "%s/snapshot", devdir);
		sfd = open(snap, O_RDONLY | O_CLOEXEC);
		if (sfd < 0) {
			step_errno_mismatch(res, 0, errno, "open");
			snprintf(res->reason, sizeof(res->reason),
				 "opening '%s' to hold it", snap);
			return 0;
		}
	}
	snprintf(path, sizeof(path), "%s/power/resume", sys);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		r = errno;
		if (sfd >= 0)
			close(sfd);
		step_errno_mismatch(res, 0, r, "open");
		snprintf(res->reason, sizeof(res->reason), "opening '%s'",
			 path);
		return 0;
	}
	n = write(fd, majmin, strlen(majmin));
	r = n < 0 ? errno : 0;
	close(fd);
	if (sfd >= 0)
		close(sfd);
	if (r) {
		step_errno_mismatch(res, 0, r, "write");
		snprintf(res->reason, sizeof(res->reason),
			 "writing '%s' to '%s'", majmin, path);
		return 0;
	}
	res->verdict = VERDICT_PASS;
	step_got(res, "wrote %s (%s) to %s%s; no image was restored", majmin,
		 dev, path, hold ? " holding /dev/snapshot" : "");
	return 0;
}

const struct step_ops step_resume = {
	.name = "resume",
	.run = resume_run,
};
