/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hostctl console VM (docs/repro.md): the run that owns a VM owns its
 * console stream (libvirt gives a domain's console to one stream at a
 * time), writes its log, and serves one attached user at a time on a unix
 * socket beside the VM's state file, <vms>/<domain>.con: what the console
 * prints goes to the log and to the user, what the user types goes to
 * the console. The log is thus complete whether or not anyone is
 * attached; a user too slow to read loses output, the log never does.
 */
#ifndef VLALAB_CONATTACH_H
#define VLALAB_CONATTACH_H

#include <stddef.h>

struct vm;
struct conattach;

/* The socket's path for @domain in @vms_dir. 0, or -ENAMETOOLONG. */
int conattach_path(const char *vms_dir, const char *domain, char *buf,
		   size_t len);

/*
 * Listen on @path for users of @vm's console, on libvirt's event loop.
 * 0, or a negative errno.
 */
int conattach_open(struct vm *vm, const char *path, struct conattach **ret);
/* Console output for the attached user, if any; dropped if it can't take it. */
void conattach_output(struct conattach *ca, const char *buf, size_t len);
/* Stop serving and remove the socket. NULL is fine. */
void conattach_close(struct conattach *ca);

/* The detach key: ^] (as telnet and virsh console). */
#define CONATTACH_DETACH 0x1d
/*
 * The server's first byte to a user: NUL, attached; or this text, for a
 * second user while one is attached.
 */
#define CONATTACH_BUSY "busy\n"

/*
 * The client: attach this terminal to the console served at @path, raw
 * (then say @hello on stderr), until ^] or the VM's end. 0 (detached),
 * 1 (the VM went away), or a negative errno with a message in @err:
 * -EBUSY when another user is attached.
 */
int conattach_client(const char *path, const char *hello, char *err,
		     size_t errlen);

#endif
