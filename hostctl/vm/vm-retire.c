// SPDX-License-Identifier: GPL-2.0-only
/*
 * Domains whose QEMU is gone, handed to a thread of their own for
 * libvirt's virDomainDestroy() (vm-priv.h): the call cleans up after
 * QEMU, and waits meanwhile for libvirt's own stop path, which polls
 * QEMU's pid in 200 ms steps once the monitor has closed. Off the lane's
 * critical path, a fresh VM starts meanwhile. A domain's name stays busy
 * until its destroy has returned, so that no domain of the same name (a
 * slot of snapshot.h) starts while the old one's cleanup runs; the run
 * waits for every one at its end (vm_host_settle()) and hears of each
 * destroy that left its domain running.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm/vm.h"
#include "vm/vm-priv.h"

/* One domain being destroyed, in its host's list. */
struct vm_retiring {
	struct vm_retiring *next;
	pthread_t thread;
	virDomainPtr dom;
	char name[128];
	bool done; /* its destroy returned: joinable at once */
	char failed[PROTO_TEXT_MAX]; /* why its domain still runs, or "" */
};

static pthread_mutex_t retire_lock = PTHREAD_MUTEX_INITIALIZER;

static void *retire_thread(void *arg)
{
	struct vm_retiring *t = arg;
	char failed[PROTO_TEXT_MAX] = "";

	/* A domain that stopped meanwhile is "not running": not a failure. */
	if (virDomainDestroy(t->dom) < 0 && virDomainIsActive(t->dom) == 1)
		vm_set_err(failed, sizeof(failed), "destroying the domain");
	virDomainFree(t->dom);
	pthread_mutex_lock(&retire_lock);
	memcpy(t->failed, failed, sizeof(failed));
	t->done = true;
	pthread_mutex_unlock(&retire_lock);
	return NULL;
}

/*
 * Join the entries of @h's list that are done (all of them, waiting, with
 * @all), keeping the first failure in h->retire_failed.
 */
static void retire_join(struct vm_host *h, bool all)
{
	struct vm_retiring **pp = &h->retiring, *t;

	for (;;) {
		bool done;

		pthread_mutex_lock(&retire_lock);
		t = *pp;
		done = t && t->done;
		pthread_mutex_unlock(&retire_lock);
		if (!t)
			break;
		if (!done && !all) {
			pp = &t->next;
			continue;
		}
		pthread_join(t->thread, NULL);
		if (t->failed[0] && !h->retire_failed[0])
			snprintf(h->retire_failed, sizeof(h->retire_failed),
				 "%s: %s", t->name, t->failed);
		pthread_mutex_lock(&retire_lock);
		*pp = t->next;
		pthread_mutex_unlock(&retire_lock);
		free(t);
	}
}

int vm_retire(struct vm_host *h, virDomainPtr dom, const char *name)
{
	struct vm_retiring *t;
	int r;

	retire_join(h, false);
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->dom = dom;
	snprintf(t->name, sizeof(t->name), "%s", name);
	pthread_mutex_lock(&retire_lock);
	r = -pthread_create(&t->thread, NULL, retire_thread, t);
	if (r == 0) {
		t->next = h->retiring;
		h->retiring = t;
	}
	pthread_mutex_unlock(&retire_lock);
	if (r < 0)
		free(t);
	return r;
}

bool vm_retiring(struct vm_host *h, const char *name)
{
	bool busy = false;

	pthread_mutex_lock(&retire_lock);
	for (struct vm_retiring *t = h->retiring; t && !busy; t = t->next)
		busy = !t->done && !strcmp(t->name, name);
	pthread_mutex_unlock(&retire_lock);
	return busy;
}

int vm_host_settle(struct vm_host *h, char *err, size_t errlen)
{
	retire_join(h, true);
	if (!h->retire_failed[0])
		return 0;
	snprintf(err, errlen, "%s", h->retire_failed);
	h->retire_failed[0] = '\0';
	return -EIO;
}
