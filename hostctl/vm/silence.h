/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The silence rule: when a guest that sends nothing hangs. guestd sends
 * a heartbeat every second, so a guest silent past its bound is frozen,
 * unless the host, not the guest, kept it from running: a starved TCG
 * vCPU thread cannot send its heartbeat either. So the silence counts
 * without the time QEMU's vCPU threads were runnable but waited for a
 * host CPU, their run_delay (/proc/PID/task/TID/schedstat's second
 * field), measured from the guest's last line on. vm_wait() (vm-wait.c)
 * applies the rule; vm-loop.c's stall rule (a loop not run for a second)
 * moves the last line's time on before it. Without QEMU's pid (a remote
 * connection) the silence is wall time, as before. Pure libc.
 */
#ifndef VLALAB_SILENCE_H
#define VLALAB_SILENCE_H

#include <stdbool.h>
#include <stdint.h>

/* QEMU's vCPU threads' summed run_delay at one moment. */
struct silence_sample {
	uint64_t delay_ns;
	unsigned int nvcpus; /* 0: no sample (no pid, no vCPU thread) */
};

/*
 * Whether a thread's name (/proc/.../comm) is a QEMU vCPU's, "CPU N/TCG"
 * or "CPU N/KVM" (libvirt names QEMU's threads: debug-threads=on).
 */
bool silence_is_vcpu(const char *comm);

/*
 * Sample the vCPU threads below @task_dir (/proc/PID/task) into @ret: 0,
 * or a negative errno (@ret is then no sample). A thread that ends
 * meanwhile is left out.
 */
int silence_sample_read(const char *task_dir, struct silence_sample *ret);

/*
 * How long, in µs, the vCPUs waited for the host between two samples,
 * per vCPU (their mean): 0 unless both are samples of the same vCPUs.
 */
uint64_t silence_starved_us(const struct silence_sample *from,
			    const struct silence_sample *to);

/*
 * The rule: a guest silent for @silence_us (wall time, as of the event
 * loop's last turn) whose vCPUs waited @starved_us of it for the host
 * hangs when the rest is over @limit_us. At most @limit_us of the wait
 * counts, so the bound at most doubles: a guest that hangs with its vCPU
 * spinning waits for the host as much as a healthy one, and is still
 * called hung within twice the bound however loaded the host.
 */
bool silence_over(uint64_t silence_us, uint64_t starved_us, uint64_t limit_us);

#endif
