// SPDX-License-Identifier: GPL-2.0-only
/*
 * Guests through libvirt. Everything is driven by libvirt's default event
 * loop: the channel stream's readable/writable callbacks, the domain
 * lifecycle callback and a periodic tick that lets vm_wait() check its
 * deadlines. Nothing here prints; errors go back with libvirt's message.
 * This file holds the connection, a guest's start and end and its
 * lifecycle events; the QEMU watchdog is watchdog.c's, the loop
 * vm-loop.c's, the channel and the console streams vm-stream.c's, the
 * waits vm-wait.c's (vm-priv.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "vm/owner.h"
#include "proto.h"
#include "vm/reap.h"
#include "vm/uri.h"
#include "vm/vm.h"
#include "vm/vm-priv.h"

/* How long QEMU may take to exit on SIGTERM before libvirt's destroy
 * takes over (vm_destroy()). */
#define VM_QEMU_END_MS 2000

/*
 * The pid of domain @name's QEMU, from the embedded driver's pid file; 0
 * when there is none (another driver, a remote connection).
 */
static pid_t qemu_pid(const struct vm_host *h, const char *name)
{
	char path[PATH_MAX + 160];
	FILE *f;
	int pid = 0, r;

	if (!*h->embed_root)
		return 0;
	snprintf(path, sizeof(path), "%s/run/qemu/%s.pid", h->embed_root, name);
	f = fopen(path, "re");
	if (!f)
		return 0;
	r = fscanf(f, "%d", &pid);
	fclose(f);
	return r == 1 && pid > 1 ? pid : 0;
}

/*
 * Adopt the QEMU @pid (qemu_pid()): a pidfd, for the watchdog. reap.c
 * reaps it when it exits.
 */
static int adopt_qemu(pid_t pid)
{
	int pidfd;

	if (pid <= 1)
		return -1;
	pidfd = pidfd_open(pid, 0);
	if (pidfd < 0)
		return -1;
	/* Only a child of ours can be reaped: else leave it to libvirt. */
	{
		siginfo_t si = { 0 };

		if (waitid(P_PIDFD, pidfd, &si, WEXITED | WNOHANG | WNOWAIT) <
		    0) {
			close(pidfd);
			return -1;
		}
	}
	vm_watchdog_add(pidfd);
	return pidfd;
}

/* libvirt prints every error to stderr unless told otherwise. */
static void quiet_errors(void *userdata, virErrorPtr e)
{
}

static const char *stopped_detail(int detail)
{
	switch (detail) {
	case VIR_DOMAIN_EVENT_STOPPED_SHUTDOWN:
		return "the guest shut down";
	case VIR_DOMAIN_EVENT_STOPPED_DESTROYED:
		return "destroyed";
	case VIR_DOMAIN_EVENT_STOPPED_CRASHED:
		return "the guest crashed";
	case VIR_DOMAIN_EVENT_STOPPED_FAILED:
		return "QEMU failed";
	default:
		return "stopped";
	}
}

static int lifecycle_cb(virConnectPtr conn, virDomainPtr dom, int event,
			int detail, void *opaque)
{
	struct vm_host *h = opaque;
	const char *name = virDomainGetName(dom);

	for (struct vm *vm = h->vms; vm; vm = vm->next) {
		if (!name || strcmp(vm->name, name) != 0)
			continue;
		if (vm->await_start) {
			vm->await_start = event != VIR_DOMAIN_EVENT_STARTED;
			continue;
		}
		/*
		 * What the guest wrote before it crashed or stopped is in the
		 * channel's socket already, and this event may come before
		 * the callback that reads it: read it now, or its last events
		 * (the step that provoked a panic) are lost.
		 */
		if (!vm->dead && vm->st_cb &&
		    (event == VIR_DOMAIN_EVENT_CRASHED ||
		     event == VIR_DOMAIN_EVENT_STOPPED))
			vm_channel_read(vm, VM_DEATH_BYTES);
		if (event == VIR_DOMAIN_EVENT_CRASHED) {
			vm->panicked = true;
			vm_die(vm, "the guest panicked (pvpanic)");
		} else if (event == VIR_DOMAIN_EVENT_STOPPED) {
			/* The channel may have closed a moment before. */
			vm->stopped = true;
			vm->guest_stopped |= detail ==
					     VIR_DOMAIN_EVENT_STOPPED_SHUTDOWN;
			vm_die(vm, "the domain stopped: %s",
			       stopped_detail(detail));
		}
	}
	return 0;
}

static void tick_cb(int timer, void *opaque)
{
}

static const char *close_reason(int reason)
{
	switch (reason) {
	case VIR_CONNECT_CLOSE_REASON_EOF:
		return "the daemon closed it (it died or restarted)";
	case VIR_CONNECT_CLOSE_REASON_KEEPALIVE:
		return "the daemon answered no keepalive";
	case VIR_CONNECT_CLOSE_REASON_CLIENT:
		return "closed by hostctl";
	default:
		return "an I/O error";
	}
}

/*
 * The connection to the daemon closed: it died, answered no keepalive
 * (VM_KEEPALIVE_S), or the link failed. Its guests are lost: each VM
 * of the host ends now (vm_lost()), rather than when its wait runs out,
 * and vm_host_alive() is false from now on.
 */
static void close_cb(virConnectPtr conn, int reason, void *opaque)
{
	struct vm_host *h = opaque;

	(void)conn;
	for (struct vm *vm = h->vms; vm; vm = vm->next) {
		vm->lost = !vm->dead;
		vm_die(vm, "the connection to the libvirt host closed: %s",
		       close_reason(reason));
	}
}

/*
 * Through a daemon, a host that dies is seen at once: its connection's
 * close callback, and libvirt's keepalive for one that stops answering
 * (hung, or a network between). The embedded driver has neither: its
 * QEMUs are hostctl's children. 0, or -EIO with libvirt's message.
 */
static int watch_connection(struct vm_host *h, char *err, size_t errlen)
{
	if (*h->embed_root)
		return 0;
	if (virConnectRegisterCloseCallback(h->conn, close_cb, h, NULL) < 0) {
		vm_set_err(err, errlen, "registering the close callback");
		return -EIO;
	}
	h->close_cb = true;
	/* A driver without a daemon (test:///) has no keepalive. */
	if (virConnectSetKeepAlive(h->conn, VM_KEEPALIVE_S,
				   VM_KEEPALIVE_COUNT) < 0 &&
	    virGetLastErrorCode() != VIR_ERR_NO_SUPPORT) {
		vm_set_err(err, errlen, "starting libvirt's keepalive");
		return -EIO;
	}
	return 0;
}

/*
 * libvirt (9.0) keeps, beside each QEMU's cached capabilities, the host's
 * CPUID as the connecting thread read it when the driver started, and
 * probes QEMU again whenever that differs. It includes the APIC ID of the
 * CPU the thread ran on, so a process that started on another core found
 * the cache outdated ("host cpuid changed") and probed again: every
 * other run on two cores. Open from the same CPU every time, the lowest
 * this process may use, then give every thread back the CPUs it had
 * (libvirt's threads, created meanwhile, inherited the one).
 */
static virConnectPtr connect_pinned(const char *uri)
{
	cpu_set_t all, one, cur;
	virConnectPtr conn;
	struct dirent *e;
	int cpu = -1;
	DIR *d;

	if (sched_getaffinity(0, sizeof(all), &all) < 0)
		return virConnectOpen(uri);
	for (int i = 0; i < CPU_SETSIZE && cpu < 0; i++)
		if (CPU_ISSET(i, &all))
			cpu = i;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (CPU_EQUAL(&one, &all) ||
	    sched_setaffinity(0, sizeof(one), &one) < 0)
		return virConnectOpen(uri);
	conn = virConnectOpen(uri);
	d = opendir("/proc/self/task");
	while (d && (e = readdir(d))) {
		pid_t tid = atoi(e->d_name);

		if (tid > 0 && sched_getaffinity(tid, sizeof(cur), &cur) == 0 &&
		    CPU_EQUAL(&cur, &one))
			sched_setaffinity(tid, sizeof(all), &all);
	}
	if (d)
		closedir(d);
	sched_setaffinity(0, sizeof(all), &all);
	return conn;
}

/*
 * Have libvirt look up (and, when its cache is outdated, probe) every
 * QEMU binary now, rather than in the middle of a guest's start; how
 * long a probe took, or 0 when the cache served.
 */
static uint64_t probe_now(struct vm_host *h, const char *uri)
{
	uint64_t before = uri_embed_caps_stamp(uri), t = vm_now_us();
	char *caps = virConnectGetCapabilities(h->conn);

	free(caps);
	if (uri_embed_caps_stamp(uri) == before)
		return 0;
	return (vm_now_us() - t) / 1000 ?: 1;
}

uint64_t vm_host_probe_ms(const struct vm_host *h)
{
	return h->probe_ms;
}

int vm_host_open(const char *uri, struct vm_host **ret, char *err,
		 size_t errlen)
{
	static bool registered;
	struct vm_host *h;

	virSetErrorFunc(NULL, quiet_errors);
	if (!registered) {
		struct rlimit nofile;

		/*
		 * Each VM that stops by itself keeps its channel's descriptor
		 * (see vm_destroy()): let a long run have as many as the
		 * hard limit allows rather than the usual soft 1024.
		 */
		if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 &&
		    nofile.rlim_cur < nofile.rlim_max) {
			nofile.rlim_cur = nofile.rlim_max;
			setrlimit(RLIMIT_NOFILE, &nofile);
		}
		if (virEventRegisterDefaultImpl() < 0) {
			vm_set_err(err, errlen, "registering the event loop");
			return -EIO;
		}
		registered = true;
	}
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->lifecycle_id = -1;
	h->remote = uri_remote(uri);
	if (uri_embed_root(uri, h->embed_root, sizeof(h->embed_root)) < 0)
		h->embed_root[0] = '\0';
	else {
		/* Failing that, PID 1 reaps them, later. */
		reap_start();
		vm_watchdog_start();
	}
	h->conn = *h->embed_root ? connect_pinned(uri) : virConnectOpen(uri);
	if (!h->conn) {
		virErrorPtr e = virGetLastError();
		/* An embedded driver's root is locked by the process using it. */
		bool busy = e && e->code == VIR_ERR_SYSTEM_ERROR &&
			    (e->int1 == EAGAIN || e->int1 == EWOULDBLOCK);

		vm_set_err(err, errlen, "connecting");
		free(h);
		return busy ? -EBUSY : -ECONNREFUSED;
	}
	h->lifecycle_id = virConnectDomainEventRegisterAny(
		h->conn, NULL, VIR_DOMAIN_EVENT_ID_LIFECYCLE,
		VIR_DOMAIN_EVENT_CALLBACK(lifecycle_cb), h, NULL);
	h->tick_id = virEventAddTimeout(VM_TICK_MS, tick_cb, NULL, NULL);
	if (h->lifecycle_id < 0 || h->tick_id < 0) {
		vm_set_err(err, errlen, "registering callbacks");
		vm_host_close(h);
		return -EIO;
	}
	if (watch_connection(h, err, errlen) < 0) {
		vm_host_close(h);
		return -EIO;
	}
	if (*h->embed_root)
		h->probe_ms = probe_now(h, uri);
	vm_loop_host = h;
	*ret = h;
	return 0;
}

int vm_reap_orphans(struct vm_host *h, const char *host,
		    void (*cb)(const char *name, const struct owner *o,
			       const char *failed, void *data),
		    void *data, char *err, size_t errlen)
{
	virDomainPtr *doms = NULL;
	int n, reaped = 0;

	if (h->embed_root[0])
		return 0;
	n = virConnectListAllDomains(h->conn, &doms, 0);
	if (n < 0) {
		vm_set_err(err, errlen, "listing the domains");
		return -EIO;
	}
	for (int i = 0; i < n; i++) {
		struct owner o;
		char *xml;

		/* No metadata in our namespace: not ours. */
		xml = virDomainGetMetadata(doms[i], VIR_DOMAIN_METADATA_ELEMENT,
					   OWNER_XMLNS, VIR_DOMAIN_AFFECT_LIVE);
		if (!xml)
			xml = virDomainGetMetadata(doms[i],
						   VIR_DOMAIN_METADATA_ELEMENT,
						   OWNER_XMLNS,
						   VIR_DOMAIN_AFFECT_CONFIG);
		if (xml && owner_parse(xml, &o) == 0 &&
		    owner_orphan(&o, host)) {
			bool ok = true;

			if (virDomainIsActive(doms[i]) == 1 &&
			    virDomainDestroy(doms[i]) < 0)
				ok = false;
			if (ok && virDomainIsPersistent(doms[i]) == 1 &&
			    virDomainUndefine(doms[i]) < 0)
				ok = false;
			cb(virDomainGetName(doms[i]), &o,
			   ok ? NULL : virGetLastErrorMessage(), data);
			reaped += ok;
		}
		free(xml);
		virDomainFree(doms[i]);
	}
	free(doms);
	return reaped;
}

void vm_host_close(struct vm_host *h)
{
	if (!h)
		return;
	while (h->vms)
		vm_destroy(h->vms);
	(void)vm_host_settle(h, NULL, 0);
	if (h->tick_id >= 0)
		virEventRemoveTimeout(h->tick_id);
	if (h->lifecycle_id >= 0)
		virConnectDomainEventDeregisterAny(h->conn, h->lifecycle_id);
	if (h->close_cb)
		virConnectUnregisterCloseCallback(h->conn, close_cb);
	pool_close(h);
	virConnectClose(h->conn);
	if (vm_loop_host == h)
		vm_loop_host = NULL;
	free(h);
}

bool vm_host_alive(struct vm_host *h)
{
	return virConnectIsAlive(h->conn) == 1;
}

int vm_host_hv_version(struct vm_host *h, char *buf, size_t len)
{
	unsigned long v;

	if (virConnectGetVersion(h->conn, &v) < 0)
		return -EIO;
	snprintf(buf, len, "%lu.%lu.%lu", v / 1000000, v / 1000 % 1000,
		 v % 1000);
	return 0;
}

/* A domain's start or restore, made off the loop (vm_offload()). */
struct start_call {
	virConnectPtr conn;
	const struct vm_params *p;
	virDomainPtr dom;
	char *err;
	size_t errlen;
};

static int start_call(void *arg)
{
	struct start_call *c = arg;
	const struct vm_params *p = c->p;

	/* Paused until the console is read: nothing of its boot is lost. */
	if (!p->restore)
		c->dom = virDomainCreateXML(c->conn, p->xml,
					    VIR_DOMAIN_START_PAUSED);
	else if (virDomainRestoreFlags(c->conn, p->restore, p->xml,
				       VIR_DOMAIN_SAVE_PAUSED) == 0)
		c->dom = virDomainLookupByName(c->conn, p->restore_name);
	if (!c->dom) {
		vm_set_err(c->err, c->errlen,
			   p->restore ? "restoring the domain" :
					"creating the domain");
		return -EIO;
	}
	return 0;
}

int vm_start(struct vm_host *h, const struct vm_params *p, struct vm **ret,
	     char *err, size_t errlen)
{
	struct start_call sc = {
		.conn = h->conn, .p = p, .err = err, .errlen = errlen
	};
	struct vm *vm;
	const char *name;
	int r;

	vm = calloc(1, sizeof(*vm));
	if (!vm)
		return -ENOMEM;
	if (proto_linebuf_init(&vm->lb) < 0) {
		free(vm);
		return -ENOMEM;
	}
	vm->host = h;
	vm->qemu_pidfd = -1;
	vm->silence_ms = VM_SILENCE_MS;
	vm->on_line = p->on_line;
	vm->on_bad_line = p->on_bad_line;
	vm->on_console = p->on_console;
	vm->userdata = p->userdata;
	vm->next = h->vms;
	h->vms = vm;

	/*
	 * The loop may turn during the call (vm_offload()): a restored
	 * domain's events find it by its name already, and an event of the
	 * slot's previous domain is not taken for its own (await_start).
	 */
	if (p->restore) {
		snprintf(vm->name, sizeof(vm->name), "%s", p->restore_name);
		vm->await_start = true;
	}
	vm->t_call_us = vm_now_us();
	r = vm_offload(start_call, &sc);
	vm->t_created_us = vm_now_us();
	vm->last_rx_us = vm->t_created_us;
	if (r < 0) {
		vm->name[0] = '\0';
		vm_destroy(vm);
		return r;
	}
	vm->dom = sc.dom;
	name = virDomainGetName(vm->dom);
	snprintf(vm->name, sizeof(vm->name), "%s", name ? name : "");
	vm->qemu_pid = qemu_pid(h, vm->name);
	vm->qemu_pidfd = adopt_qemu(vm->qemu_pid);
	vm->st = virStreamNew(h->conn, VIR_STREAM_NONBLOCK);
	if (!vm->st ||
	    virDomainOpenChannel(vm->dom, PROTO_PORT_NAME, vm->st, 0) < 0) {
		vm_set_err(err, errlen,
			   "opening the channel '" PROTO_PORT_NAME "'");
		vm_destroy(vm);
		return -EIO;
	}
	if (virStreamEventAddCallback(vm->st,
				      VIR_STREAM_EVENT_READABLE |
					      VIR_STREAM_EVENT_ERROR |
					      VIR_STREAM_EVENT_HANGUP,
				      vm_channel_cb, vm, NULL) < 0) {
		vm_set_err(err, errlen, "watching the channel");
		vm_destroy(vm);
		return -EIO;
	}
	vm->st_cb = true;
	if (vm_console_open(vm, err, errlen) < 0) {
		vm_destroy(vm);
		return -EIO;
	}
	if (virDomainResume(vm->dom) < 0) {
		vm_set_err(err, errlen, "starting the paused domain");
		vm_destroy(vm);
		return -EIO;
	}
	*ret = vm;
	return 0;
}

bool vm_dead(const struct vm *vm)
{
	return vm->dead;
}

const char *vm_dead_reason(const struct vm *vm)
{
	return vm->dead_reason;
}

int vm_proto_error(const struct vm *vm)
{
	return vm->proto_error;
}

uint64_t vm_create_us(const struct vm *vm)
{
	return vm->t_created_us - vm->t_call_us;
}

uint64_t vm_hello_us(const struct vm *vm)
{
	return vm->t_hello_us ? vm->t_hello_us - vm->t_call_us : 0;
}

bool vm_lost(const struct vm *vm)
{
	return vm->lost;
}

bool vm_panicked(const struct vm *vm)
{
	return vm->panicked;
}

bool vm_silent(const struct vm *vm)
{
	return vm->silent;
}

/* A memory dump, or a save (@path, no @format), made off the loop. */
struct dump_call {
	virDomainPtr dom;
	const char *path;
	int format;
	bool save;
	char *err;
	size_t errlen;
};

static int dump_call(void *arg)
{
	struct dump_call *c = arg;

	if (c->save ? virDomainSaveFlags(c->dom, c->path, NULL, 0) < 0 :
		      virDomainCoreDumpWithFormat(c->dom, c->path, c->format,
						  VIR_DUMP_MEMORY_ONLY) < 0) {
		vm_set_err(c->err, c->errlen,
			   c->save ? "saving the domain" :
				     "virDomainCoreDumpWithFormat");
		return -EIO;
	}
	return 0;
}

int vm_dump(struct vm *vm, const char *path, int format, char *err,
	    size_t errlen)
{
	struct dump_call dc = { .dom = vm->dom,
				.path = path,
				.format = format,
				.err = err,
				.errlen = errlen };

	if (!vm->dom || virDomainIsActive(vm->dom) != 1) {
		snprintf(err, errlen, "the domain is gone");
		return -ENODEV;
	}
	/* The daemon's file system is not ours: through its pool. */
	if (vm->host->remote)
		return pool_dump(vm, path, format, err, errlen);
	return vm_offload(dump_call, &dc);
}

int vm_peek(struct vm *vm, uint64_t addr, void *buf, size_t len)
{
	/* libvirt's remote protocol takes at most 64 KiB a call */
	const size_t chunk = 65536;

	if (!vm->dom || virDomainIsActive(vm->dom) != 1)
		return -ENODEV;
	for (size_t done = 0; done < len;) {
		size_t n = len - done < chunk ? len - done : chunk;

		if (virDomainMemoryPeek(vm->dom, addr + done, n,
					(char *)buf + done,
					VIR_MEMORY_VIRTUAL) < 0)
			return -EIO;
		done += n;
	}
	return 0;
}

int vm_save(struct vm *vm, const char *path, char *err, size_t errlen)
{
	struct dump_call dc = { .dom = vm->dom,
				.path = path,
				.save = true,
				.err = err,
				.errlen = errlen };

	if (!vm->dom) {
		snprintf(err, errlen, "saving the domain: no domain");
		return -EIO;
	}
	return vm_offload(dump_call, &dc);
}

int vm_pause(struct vm *vm, bool pause)
{
	if (vm->dead || !vm->dom || pause == vm->paused)
		return vm->dead ? -EPIPE : 0;
	if ((pause ? virDomainSuspend(vm->dom) : virDomainResume(vm->dom)) < 0)
		return -EIO;
	vm->paused = pause;
	/* Its silence counts from now. */
	if (!pause)
		vm->last_rx_us = vm_now_us();
	return 0;
}

bool vm_host_has(struct vm_host *h, const char *name)
{
	virDomainPtr d;
	bool active;

	/* Ours, perhaps being restored in a thread now (vm_offload()). */
	for (struct vm *vm = h->vms; vm; vm = vm->next)
		if (!strcmp(vm->name, name))
			return true;
	/* Not looked up: libvirt holds it while it polls QEMU's end. */
	if (vm_retiring(h, name))
		return true;
	d = virDomainLookupByName(h->conn, name);
	active = d && virDomainIsActive(d) == 1;

	if (d)
		virDomainFree(d);
	return active;
}

void vm_destroy(struct vm *vm)
{
	struct vm **pp;

	if (!vm)
		return;
	for (pp = &vm->host->vms; *pp; pp = &(*pp)->next) {
		if (*pp == vm) {
			*pp = vm->next;
			break;
		}
	}
	if (vm->con) {
		/* The last of the console, then its end, as for the channel. */
		vm_console_read(vm);
		if (!vm->con_eof)
			vm->on_console(vm->userdata, NULL, 0);
		if (vm->con_cb)
			virStreamEventRemoveCallback(vm->con);
		if (!vm->stopped && !vm->con_eof &&
		    (!vm->dom || virDomainIsActive(vm->dom) == 1))
			virStreamAbort(vm->con);
		virStreamFree(vm->con);
	}
	if (vm->st) {
		if (vm->st_cb)
			virStreamEventRemoveCallback(vm->st);
		/*
		 * libvirt's chardev code locks the stream, then the domain's
		 * chardev table when a stream is aborted; and the table, then
		 * the stream when it frees a domain object whose QEMU has
		 * exited (virChrdevFree()). Aborting while QEMU goes away
		 * deadlocks both threads (seen in vm_destroy() after a guest
		 * powered off). So abort only while the domain still runs,
		 * before destroying it; of a domain that stopped by itself,
		 * only drop our reference: the chardev table holds its own
		 * and drops it when libvirt frees the domain. That leaves the
		 * dead channel's socket open, one descriptor per such VM.
		 */
		if (!vm->stopped && !vm->st_eof &&
		    (!vm->dom || virDomainIsActive(vm->dom) == 1))
			virStreamAbort(vm->st);
		virStreamFree(vm->st);
	}
	/*
	 * libvirt stops QEMU (SIGTERM, then SIGKILL) and waits for it to
	 * go; reap.c makes that wait short. But libvirt looks whether QEMU
	 * is gone only every 200 ms after a SIGTERM (virProcessKillPainfully(),
	 * in destroy and in its own stop path once QEMU's monitor closed),
	 * while QEMU takes a few ms. So our child gets that SIGTERM from us,
	 * and we wait on its pidfd until it is gone (reap_end()); libvirt's
	 * cleanup then runs in the background (vm-retire.c), off the path
	 * to the next VM. A QEMU still there after the bound, or not ours
	 * (a remote host), gets libvirt's destroy here, as before.
	 */
	if (vm->dom) {
		bool gone = vm->qemu_pidfd >= 0 && !vm->stopped &&
			    virDomainIsActive(vm->dom) == 1 &&
			    reap_end(vm->qemu_pidfd, VM_QEMU_END_MS) == 0;

		if (!gone || vm_retire(vm->host, vm->dom, vm->name) < 0) {
			virDomainDestroy(vm->dom);
			virDomainFree(vm->dom);
		}
	}
	if (vm->name[0])
		pool_scratch_drop(vm->host, vm->name);
	if (vm->qemu_pidfd >= 0)
		close(vm->qemu_pidfd);
	proto_linebuf_free(&vm->lb);
	free(vm->out);
	free(vm);
}
