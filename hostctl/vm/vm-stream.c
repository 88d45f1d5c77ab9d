// SPDX-License-Identifier: GPL-2.0-only
/*
 * A guest's two streams (vm.h): the virtio-serial channel, whose lines go
 * to the owner's on_line hook and to which vm_send() writes, and the
 * serial console, whose bytes go to its on_console hook. Both are read in
 * their stream callbacks on libvirt's loop, a bounded amount per turn.
 * And a VM's death (vm_die()), which reads what its console holds.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvirt/libvirt.h>
#include <libvirt/virterror.h>

#include "proto.h"
#include "vm/vm.h"
#include "vm/vm-priv.h"

void vm_die(struct vm *vm, const char *fmt, ...)
{
	va_list ap;

	if (vm->dead)
		return;
	vm->dead = true;
	va_start(ap, fmt);
	vsnprintf(vm->dead_reason, sizeof(vm->dead_reason), fmt, ap);
	va_end(ap);
	if (vm->st_cb)
		virStreamEventUpdateCallback(vm->st, 0);
	/*
	 * What the console holds now is the death's evidence: read it and
	 * end its last line before anyone judges. The stream stays open:
	 * a guest that hangs may still print, up to its destruction.
	 */
	vm_console_read(vm);
	vm->on_console(vm->userdata, NULL, 0);
}

static int line_cb(const char *line, size_t len, void *userdata)
{
	struct vm *vm = userdata;
	char why[PROTO_TEXT_MAX];
	int r;

	why[0] = '\0';
	r = vm->on_line(vm->userdata, line, len, why, sizeof(why));
	if (r < 0) {
		vm->proto_error = r;
		vm_die(vm, "protocol error: %s", why);
		return r;
	}
	if (r > 0 && !vm->up) {
		vm->up = true;
		vm->t_hello_us = vm_now_us();
	}
	return 0;
}

static void flush_out(struct vm *vm)
{
	while (vm->out_off < vm->out_len) {
		int n = virStreamSend(vm->st, vm->out + vm->out_off,
				      vm->out_len - vm->out_off);

		if (n == -2)
			break;
		if (n < 0) {
			vm_die(vm, "writing to the channel failed: %s",
			       virGetLastErrorMessage());
			return;
		}
		vm->out_off += n;
	}
	if (vm->out_off == vm->out_len) {
		vm->out_off = vm->out_len = 0;
		virStreamEventUpdateCallback(vm->st,
					     VIR_STREAM_EVENT_READABLE |
						     VIR_STREAM_EVENT_ERROR |
						     VIR_STREAM_EVENT_HANGUP);
	} else {
		virStreamEventUpdateCallback(vm->st,
					     VIR_STREAM_EVENT_READABLE |
						     VIR_STREAM_EVENT_WRITABLE |
						     VIR_STREAM_EVENT_ERROR |
						     VIR_STREAM_EVENT_HANGUP);
	}
}

/*
 * Read at most @budget bytes of the guest's channel, handing its lines to
 * the owner: 1 when it is empty for now, 0 when the budget ran out first,
 * -1 when it ended, failed or broke the protocol (the VM is dead then).
 */
int vm_channel_read(struct vm *vm, size_t budget)
{
	char buf[16384];

	while (budget && !vm->dead) {
		int n, r;

		n = virStreamRecv(vm->st, buf,
				  budget < sizeof(buf) ? budget : sizeof(buf));
		if (n == -2)
			return 1;
		if (n == 0) {
			vm->st_eof = true;
			vm_die(vm, "the guest's channel closed");
			return -1;
		}
		if (n < 0) {
			vm->st_eof = true;
			vm_die(vm, "reading the channel failed: %s",
			       virGetLastErrorMessage());
			return -1;
		}
		budget -= (size_t)n;
		vm->last_rx_us = vm_now_us();
		r = proto_linebuf_feed(&vm->lb, buf, n, line_cb, vm);
		if (r == -E2BIG) {
			char reason[128], why[PROTO_TEXT_MAX];

			snprintf(reason, sizeof(reason),
				 "a line longer than %d bytes",
				 PROTO_LINE_MAX - 1);
			snprintf(why, sizeof(why), "%s", reason);
			if (vm->on_bad_line)
				vm->on_bad_line(vm->userdata, vm->lb.buf,
						vm->lb.len, reason, why,
						sizeof(why));
			vm->proto_error = r;
			vm_die(vm, "protocol error: %s", why);
		}
		if (r < 0)
			return -1;
	}
	return vm->dead ? -1 : 0;
}

/*
 * The channel is readable: at most VM_TURN_BYTES of it this turn, and its
 * end or hang-up only once all it held was read.
 */
void vm_channel_cb(virStreamPtr st, int events, void *opaque)
{
	struct vm *vm = opaque;

	(void)st;
	if (vm->dead)
		return;
	if (events & VIR_STREAM_EVENT_WRITABLE)
		flush_out(vm);
	if (vm_channel_read(vm, VM_TURN_BYTES) == 1 &&
	    (events & (VIR_STREAM_EVENT_ERROR | VIR_STREAM_EVENT_HANGUP))) {
		vm->st_eof = true;
		vm_die(vm, "the guest's channel hung up");
	}
}

/* The console ended (QEMU went away): stop watching it. */
static void console_end(struct vm *vm)
{
	vm->con_eof = true;
	if (vm->con_cb)
		virStreamEventUpdateCallback(vm->con, 0);
	vm->on_console(vm->userdata, NULL, 0);
}

/*
 * Hand the owner what the console has now, without waiting, up to
 * VM_TURN_BYTES: a console that prints without end must not hold the
 * loop, nor a VM's death or destruction. True when that bound stopped it
 * (more may wait).
 */
bool vm_console_read(struct vm *vm)
{
	char buf[16384];
	size_t budget = VM_TURN_BYTES;

	while (vm->con && !vm->con_eof && budget) {
		int n = virStreamRecv(vm->con, buf,
				      budget < sizeof(buf) ? budget :
							     sizeof(buf));

		if (n == -2)
			break;
		if (n <= 0) {
			console_end(vm);
			break;
		}
		budget -= (size_t)n;
		vm->con_rx_us = vm_now_us();
		vm->on_console(vm->userdata, buf, (size_t)n);
	}
	return !budget;
}

static void console_cb(virStreamPtr st, int events, void *opaque)
{
	struct vm *vm = opaque;

	(void)st;
	/* A hang-up is read as one once all before it was. */
	if (vm_console_read(vm))
		return;
	if (!vm->con_eof &&
	    (events & (VIR_STREAM_EVENT_ERROR | VIR_STREAM_EVENT_HANGUP)))
		console_end(vm);
}

void vm_console_drain(struct vm *vm)
{
	uint64_t t0 = vm_now_us(), quiet_us = VM_CONSOLE_QUIET_MS * 1000;

	vm_console_read(vm);
	if (!vm->dead)
		return;
	/*
	 * A VM that died may have printed its last lines a moment before
	 * the event that says so, and they may not have reached the stream
	 * yet (a panicked guest's domain stays, paused: its console never
	 * ends). Read until it ends, or has been quiet for a while since
	 * now, within a bound.
	 */
	while (!vm->con_eof && !vm_interrupted &&
	       vm_now_us() - t0 < VM_CONSOLE_SETTLE_MS * 1000 &&
	       vm_now_us() - (vm->con_rx_us > t0 ? vm->con_rx_us : t0) <
		       quiet_us)
		if (vm_loop_step() < 0)
			break;
	vm_console_read(vm);
	if (!vm->con_eof)
		vm->on_console(vm->userdata, NULL, 0);
}

void vm_console_wait(struct vm *vm, uint64_t ms)
{
	uint64_t deadline = vm_now_us() + ms * 1000;

	while (!vm_interrupted && !vm->con_eof && vm_now_us() < deadline)
		if (vm_loop_step() < 0)
			break;
	vm_console_read(vm);
	if (vm->dead && !vm->con_eof)
		vm->on_console(vm->userdata, NULL, 0);
}

int vm_console_send(struct vm *vm, const char *buf, size_t len)
{
	int n;

	/* A few keystrokes: a console that cannot take them drops them. */
	if (!vm->con || vm->con_eof)
		return -EPIPE;
	n = virStreamSend(vm->con, buf, len);
	return n == -2 || n >= 0 ? 0 : -EIO;
}

/*
 * Open the serial console as a stream, while the domain is paused: the
 * guest cannot have printed anything yet.
 */
int vm_console_open(struct vm *vm, char *err, size_t errlen)
{
	virStreamPtr st = virStreamNew(vm->host->conn, VIR_STREAM_NONBLOCK);

	if (!st || virDomainOpenConsole(vm->dom, NULL, st, 0) < 0) {
		vm_set_err(err, errlen, "opening the serial console");
		if (st)
			virStreamFree(st);
		return -EIO;
	}
	vm->con = st;
	if (virStreamEventAddCallback(vm->con,
				      VIR_STREAM_EVENT_READABLE |
					      VIR_STREAM_EVENT_ERROR |
					      VIR_STREAM_EVENT_HANGUP,
				      console_cb, vm, NULL) < 0) {
		vm_set_err(err, errlen, "watching the serial console");
		return -EIO;
	}
	vm->con_cb = true;
	return 0;
}

int vm_send(struct vm *vm, const char *line, size_t len)
{
	char *out;

	if (vm->dead)
		return -EPIPE;
	out = realloc(vm->out, vm->out_len + len);
	if (!out)
		return -ENOMEM;
	memcpy(out + vm->out_len, line, len);
	vm->out = out;
	vm->out_len += len;
	flush_out(vm);
	return vm->dead ? -EPIPE : 0;
}
