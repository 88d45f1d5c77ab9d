// SPDX-License-Identifier: GPL-2.0-only
/*
 * The state-leak audit. Before a scenario's first step and just before its
 * scenario_end, the supervisor snapshots what a scenario could leave behind
 * for the next one in the same guest: the kernel's taint flags, how many
 * WARNING and BUG lines the kernel has logged since boot, and the state
 * files the scenario declares ("state_files" in its run request), each as
 * its size, a hash and its first bytes. The snapshots go to the host as
 * "audit" and "audit_file" events; hostctl compares them
 * (hostctl/guest/audit.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guestd.h"

#define AUDIT_TAINTED "/proc/sys/kernel/tainted"

/*
 * The kernel log lines that count. They open the reports of
 * hostctl/crash/report.c: a WARN, and the BUG, oops, panic and sanitizer lines.
 */
enum audit_line audit_classify(const char *msg, size_t len)
{
	static const char *const bugs[] = {
		"BUG: ",
		"kernel BUG at ",
		"Oops: ",
		"general protection fault",
		"Kernel panic - not syncing",
		"UBSAN: ",
		"usercopy: ",
		"detected buffer overflow",
	};

	if (len >= 9 && memcmp(msg, "WARNING: ", 9) == 0)
		return AUDIT_LINE_WARN;
	for (size_t i = 0; i < ARRAY_SIZE(bugs); i++) {
		size_t n = strlen(bugs[i]);

		if (len >= n && memcmp(msg, bugs[i], n) == 0)
			return AUDIT_LINE_BUG;
	}
	return AUDIT_LINE_OTHER;
}

int audit_open(struct audit *a, const char *kmsg_path, const char *tainted_path)
{
	int r;

	memset(a, 0, sizeof(*a));
	a->tainted_path = tainted_path ? tainted_path : AUDIT_TAINTED;
	r = kmsg_reader_open(&a->rd, kmsg_path, false);
	a->have_kmsg = r == 0;
	return r;
}

void audit_close(struct audit *a)
{
	if (a->have_kmsg)
		kmsg_reader_close(&a->rd);
	a->have_kmsg = false;
}

/* Count the WARNING and BUG lines logged since the last call. */
static void audit_count(struct audit *a)
{
	struct kmsg_record rec;
	int r;

	if (!a->have_kmsg)
		return;
	while ((r = kmsg_reader_next(&a->rd, &rec)) > 0) {
		switch (audit_classify(rec.msg, rec.msg_len)) {
		case AUDIT_LINE_WARN:
			a->warns++;
			break;
		case AUDIT_LINE_BUG:
			a->bugs++;
			break;
		case AUDIT_LINE_OTHER:
			break;
		}
	}
	if (r < 0)
		audit_close(a);
}

/*
 * Read up to PROTO_AUDIT_READ_MAX bytes of a regular file without ever
 * blocking PID 1: O_NONBLOCK keeps a FIFO's open and a pipe-like tracefs
 * file (trace_pipe) from waiting, and anything but a regular file (sysfs,
 * procfs, debugfs and tracefs files are) is refused with EINVAL.
 * Returns 0 with a malloc'd buffer, or -errno.
 */
static int audit_read(const char *path, char **ret_buf, size_t *ret_len)
{
	size_t len = 0, max = PROTO_AUDIT_READ_MAX;
	struct stat st;
	char *buf;
	ssize_t n;
	int fd, r = 0;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	buf = malloc(max + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (len < max) {
		n = read(fd, buf + len, max - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			r = -errno;
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (r < 0) {
		free(buf);
		return r;
	}
	buf[len] = '\0';
	*ret_buf = buf;
	*ret_len = len;
	return 0;
}

void audit_file(const char *path, struct proto_audit_file *ret)
{
	size_t len = 0;
	char *buf = NULL;
	int r;

	snprintf(ret->path, sizeof(ret->path), "%s", path);
	r = audit_read(path, &buf, &len);
	if (r < 0) {
		snprintf(ret->err, sizeof(ret->err), "%s",
			 proto_errno_name(-r));
		ret->size = 0;
		snprintf(ret->hash, sizeof(ret->hash), "%016llx",
			 (unsigned long long)PROTO_FNV_INIT);
		ret->head[0] = '\0';
		return;
	}
	ret->err[0] = '\0';
	ret->size = len;
	snprintf(ret->hash, sizeof(ret->hash), "%016llx",
		 (unsigned long long)proto_fnv1a(PROTO_FNV_INIT, buf, len));
	util_escape(ret->head, sizeof(ret->head), buf, len,
		    sizeof(ret->head) - 32);
	free(buf);
}

void audit_snapshot(struct audit *a, const char *scenario, const char *phase,
		    struct json_object *files, audit_emit_fn emit, void *data)
{
	static struct proto_event ev;
	size_t n = files ? json_object_array_length(files) : 0;
	size_t len;
	char *buf;
	int r;

	if (n > PROTO_AUDIT_FILES_MAX)
		n = PROTO_AUDIT_FILES_MAX;
	audit_count(a);
	memset(&ev, 0, sizeof(ev));
	ev.type = PROTO_EV_AUDIT;
	snprintf(ev.u.audit.scenario, PROTO_NAME_MAX, "%s", scenario);
	snprintf(ev.u.audit.phase, PROTO_PHASE_MAX, "%s", phase);
	r = fileio_read(a->tainted_path, 64, &buf, &len, NULL);
	if (r == 0) {
		ev.u.audit.tainted = strtoull(buf, NULL, 10);
		free(buf);
	}
	ev.u.audit.warns = a->warns;
	ev.u.audit.bugs = a->bugs;
	ev.u.audit.nfiles = (uint32_t)n;
	emit(&ev, data);

	for (size_t i = 0; i < n; i++) {
		const char *path = json_object_get_string(
			json_object_array_get_idx(files, i));

		memset(&ev, 0, sizeof(ev));
		ev.type = PROTO_EV_AUDIT_FILE;
		snprintf(ev.u.audit_file.scenario, PROTO_NAME_MAX, "%s",
			 scenario);
		snprintf(ev.u.audit_file.phase, PROTO_PHASE_MAX, "%s", phase);
		audit_file(path ? path : "", &ev.u.audit_file);
		emit(&ev, data);
	}
}
