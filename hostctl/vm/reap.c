// SPDX-License-Identifier: GPL-2.0-only
/*
 * The processes hostctl adopts as a child subreaper, reaped at once
 * (reap.h says which ones, and why only those).
 */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vm/reap.h"

/*
 * While a child that is not ours to reap is a zombie, waitid() reports it
 * again at once: look again this often until its owner has waited for it.
 */
#define REAP_BUSY_MS 20
/* No child at all: nothing can be adopted before one is forked. */
#define REAP_IDLE_MS 200

int reap_stat_parse(const char *line, struct reap_stat *ret)
{
	const char *rp = strrchr(line, ')');
	struct reap_stat st = { 0 };
	int pid, ppid, pgrp, sid;
	char state;

	if (!rp || sscanf(line, "%d (", &pid) != 1 ||
	    sscanf(rp + 1, " %c %d %d %d", &state, &ppid, &pgrp, &sid) != 4)
		return -EINVAL;
	st.pid = pid;
	st.ppid = ppid;
	st.sid = sid;
	st.state = state;
	*ret = st;
	return 0;
}

bool reap_adopted(const struct reap_stat *st, pid_t self, pid_t self_sid)
{
	return st->state == 'Z' && st->ppid == self && st->sid != self_sid &&
	       st->sid != st->pid;
}

static int read_stat(const char *pid, struct reap_stat *ret)
{
	char path[64], line[512];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	ok = fgets(line, sizeof(line), f) != NULL;
	fclose(f);
	return ok ? reap_stat_parse(line, ret) : -EIO;
}

/* Reap every adopted zombie among this process's children; how many. */
static unsigned int reap_all(pid_t self, pid_t self_sid)
{
	unsigned int n = 0;
	struct dirent *e;
	DIR *d;

	d = opendir("/proc");
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		struct reap_stat st;
		siginfo_t si;

		if (e->d_name[0] < '1' || e->d_name[0] > '9' ||
		    read_stat(e->d_name, &st) < 0 ||
		    !reap_adopted(&st, self, self_sid))
			continue;
		if (waitid(P_PID, (id_t)st.pid, &si, WEXITED | WNOHANG) == 0)
			n++;
	}
	closedir(d);
	return n;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static void *reaper(void *arg)
{
	pid_t self = getpid(), self_sid = getsid(0);

	(void)arg;
	for (;;) {
		siginfo_t si = { 0 };
		char pid[16];
		struct reap_stat st;

		/* Until a child exits; WNOWAIT leaves it to be waited for. */
		if (waitid(P_ALL, 0, &si, WEXITED | WNOWAIT) < 0) {
			if (errno != EINTR)
				sleep_ms(REAP_IDLE_MS);
			continue;
		}
		snprintf(pid, sizeof(pid), "%d", (int)si.si_pid);
		if (read_stat(pid, &st) == 0 &&
		    reap_adopted(&st, self, self_sid)) {
			waitid(P_PID, (id_t)st.pid, &si, WEXITED | WNOHANG);
			continue;
		}
		/*
		 * The first zombie is someone else's: an adopted one may
		 * wait behind it, and waitid() can't show which.
		 */
		if (reap_all(self, self_sid) == 0)
			sleep_ms(REAP_BUSY_MS);
	}
	return NULL;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int reap_end(int pidfd, uint64_t timeout_ms)
{
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
	uint64_t end = now_ms() + timeout_ms, t;
	siginfo_t si;
	int r;

	/* A process that exited (a zombie) takes the signal as well. */
	if (pidfd_send_signal(pidfd, SIGTERM, NULL, 0) < 0 && errno != ESRCH)
		return -errno;
	/* The pidfd is readable once it has exited. */
	do {
		t = now_ms();
		r = poll(&pfd, 1, t >= end ? 0 : (int)(end - t));
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return -errno;
	if (r == 0)
		return -ETIMEDOUT;
	/* Exited: reaped now, here or by the reaper (ECHILD). */
	if (waitid(P_PIDFD, (id_t)pidfd, &si, WEXITED | WNOHANG) < 0 &&
	    errno != ECHILD)
		return -errno;
	return 0;
}

int reap_start(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static bool started;
	pthread_attr_t attr;
	pthread_t thread;
	int r = 0;

	pthread_mutex_lock(&lock);
	if (started)
		goto out;
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
		r = -errno;
		goto out;
	}
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	r = -pthread_create(&thread, &attr, reaper, NULL);
	pthread_attr_destroy(&attr);
	/* No reaper: better PID 1's late reaping than none. */
	if (r < 0)
		prctl(PR_SET_CHILD_SUBREAPER, 0);
	started = r == 0;
out:
	pthread_mutex_unlock(&lock);
	return r;
}
