/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One guest's life, the same for every scenario: a label and a console
 * log per VM ("vm3", console-vm3.log), its domain, its start, the wait for
 * hello (or for a resumed guestd's first event), a run request and the
 * wait for its end, how the VM ended (guest_vm_end(), one decision for
 * every boot: hang, timeout, signal, protocol error, an expected
 * power-off, silence, death) and its reason, shutdown, bye and destroy, and
 * the boot's numbers. A guest owns its session with guestd and the files
 * that session writes: every accepted line in events.jsonl, and a line
 * that broke the protocol in protocol-error-<label>.txt.
 *
 * Which boot runs on which VM, and KVM or TCG, is run/'s (run-scenario.c,
 * shared-vm.c), which runs every guest through this file; what spans
 * several VMs of one scenario (its disks, a carried session, the marker
 * rule) is boots.c's. What a VM's end means for the verdict is
 * verdict_decide()'s (crash/verdict.c).
 */
#ifndef VLALAB_GUEST_H
#define VLALAB_GUEST_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/boundlog.h"
#include "vm/domain.h"
#include "vm/vmend.h"
#include "crash/incident.h"
#include "results/results.h"
#include "scenario/scenario.h"
#include "guest/session.h"

/* How long to wait for bye after shutdown before destroying anyway. */
#define GUEST_BYE_MS 2000
/*
 * The silence bound of a guest that is to power itself off or reset: it
 * may be writing a hibernation image, and sends nothing meanwhile.
 */
#define GUEST_SILENCE_STOPPING_MS 300000
/* The host's slack on top of a bound the guest keeps itself. */
#define GUEST_SLACK_MS 10000
/* Lines of console attached to a dead guest's reason. */
#define GUEST_CONSOLE_TAIL 25

/* Why a run boots no more VMs after a guest's end. */
#define GUEST_WHY_SIGNAL "interrupted by a signal"
#define GUEST_WHY_VERSION "the guest speaks another protocol version"
#define GUEST_WHY_WRITE "a result file could not be written"

struct cloud_image;
struct vm;
struct vm_host;
struct progress;

/* What a run measured, for the benchmark: the first 16 boots. */
struct guest_stats {
	unsigned int boots;
	uint64_t create_us[16], hello_us[16], teardown_us[16];
	/* Of those boots, the VMs restored from a saved image (snapshot.h):
	 * their create_us and hello_us count from the restore call. */
	unsigned int restored;
	/* Host time from sending a VM's first scenario to its scenario_end. */
	uint64_t run_us[16];
	/* From a scenario's end (its steps' end) to the next one's start on
	 * a fresh VM of the same lane (shared-vm.c): the first 16. */
	unsigned int gaps;
	uint64_t gap_us[16];
	/* Where each of those gaps went (shared-vm.c): when each stage of
	 * enum guest_gap_stage was done, from the scenario's end. */
	uint64_t gap_stage_us[16][8];
};

/*
 * The stages of a gap to a fresh VM (guest_stats.gap_stage_us[]), in
 * order; a stage a gap did not pass (a spare, a boot) stays 0.
 */
enum guest_gap_stage {
	GUEST_GAP_SCENARIO, /* the scenario judged and decided, its VM gone */
	GUEST_GAP_TEARDOWN, /* of which its VM's teardown (a duration) */
	GUEST_GAP_TAKE, /* its results written: the next one takes a VM */
	GUEST_GAP_PREPARED, /* its domain, the image's key and slot ready */
	GUEST_GAP_XML, /* the restore XML made from the saved image's */
	GUEST_GAP_CALL, /* (a duration) the restore call */
	GUEST_GAP_STARTED, /* restored, its streams open, resumed, greeted */
	GUEST_GAP_UP, /* its hello */
};

/* What every guest of a run shares. */
struct conattach;

struct guest_env {
	struct vm_host *host;
	/* Its name in results: the URI, or "embedded" (run/hosts.h); NULL:
	 * no host line in events.jsonl. */
	const char *host_name;
	enum domain_accel accel; /* the runner may fall back to TCG */
	bool icount; /* under TCG, VMs count instructions (domain.h) */
	const char *run_dir;
	const char *run_id;
	const char *kernel, *initrd;
	const char *cmdline; /* NULL: domain_default_cmdline */
	const char *firmware; /* or NULL */
	const char *machine; /* "pc" or "q35"; NULL: DOMAIN_MACHINE_DEFAULT */
	/* The SSH port (docs/repro.md): the live VMs' state directory and
	 * the image's pinned host key; NULL: no SSH port. */
	const char *vms_dir;
	const char *ssh_host_key;
	const struct owner *owner; /* each domain's mark (owner.h), or NULL */
	/* The cloud image's files (cloud.h), or NULL when no VM boots it;
	 * keep_overlays: leave each VM's overlay in the run directory. */
	const struct cloud_image *cloud;
	bool keep_overlays;
	struct boundlog *events; /* events.jsonl, or NULL */
	uint64_t console_max; /* bytes of a console log, at most */
	struct progress *progress;
	/* Each "output" event accepted (an exec step's), or NULL. */
	void (*output)(void *data, const struct proto_output *o);
	void *output_data;
	unsigned int vmno; /* VMs named so far: labels are vm1, vm2, ... */
	/* VM_SILENCE_MS times this for a running guest (runner_opts'
	 * boot_scale: a KASAN guest runs several times slower); 0: 1. */
	unsigned int silence_scale;
	/*
	 * The first result file that could not be written ("writing
	 * 'PATH': REASON"), and its negative errno; 0 while none failed
	 * (guest_write_failed()). The run stops then.
	 */
	int write_err;
	char write_what[PATH_MAX + 160];
};

struct guest {
	struct guest_env *env;
	/* Its lines' log in events.jsonl (env->events, or a lane's own of
	 * the same file: boundlog_open_more()), or NULL. */
	struct boundlog *events;
	/* This scenario's kmsg records that never came (results.h). */
	uint64_t kmsg_dropped;
	struct vm *vm; /* NULL between VMs */
	struct session sess;
	/* Crashes (judge.h): this guest's step timeline, and when the open
	 * step began on the host's clock. */
	struct incident_timeline tl;
	uint64_t step_t0_us;
	/* The kmsg sequence number that should come next (kmsg_seen: one
	 * came since hello), for the count of records dropped. */
	uint64_t kmsg_next;
	bool kmsg_seen;
	/*
	 * The line being read is a hello or a step_begin, and gets an ack
	 * with its t_us (docs/protocol.md, "Acknowledgements").
	 */
	bool ack_due;
	uint64_t ack_t_us;
	/*
	 * When the session runs slices of one scenario's steps (a scenario
	 * with boots, one view per boot), that scenario: the timeline then
	 * gets its step numbers rather than the slice's. NULL: the session's
	 * scenarios are whole.
	 */
	const struct res_scenario *whole;
	bool show_steps; /* each step_begin on the progress line */
	/* How this VM's boot is to end, its silence bound (guest_start()). */
	enum scn_boot_end end;
	uint64_t silence_ms;
	/*
	 * A hang the host saw in the last wait (guest_wait_run(),
	 * guest_ended()), or NULL; and that wait's bound.
	 */
	const char *hang;
	char hang_buf[256];
	uint64_t wait_ms;
	struct guest_stats *stats; /* NULL: not measured */
	char label[32]; /* "vm3" */
	char name[128]; /* the domain's, unique per run */
	char console[PATH_MAX];
	char ssh_sock[108]; /* the SSH port's host end, or "" */
	/*
	 * The next VM boots the cloud image (set before guest_name()): its
	 * overlay in the run directory (cloud-<label>.qcow2, made by
	 * guest_name()'s caller through guest_cloud_overlay()), its disks and
	 * command line.
	 */
	bool cloud;
	/* The next VM has a NIC that reaches nothing (domain_config.nic), for
	 * a scenario with "nic": true; set before guest_domain(). */
	bool nic;
	/*
	 * The next VM is restored from this saved image (snapshot.h) of the
	 * domain @restore_name, and told so (guest_start()); NULL: it boots.
	 */
	const char *restore, *restore_name;
	char overlay[PATH_MAX];
	struct domain_disk cloud_disks[3];
	char cloud_cmdline[512];
	/*
	 * The console log (a stream boundlog, fed by vm.c's on_console),
	 * open while the VM lives; and its cut bytes not yet taken
	 * (guest_console_cut()): of the open log, those taken already; of
	 * closed ones, those not taken yet.
	 */
	struct boundlog con;
	bool con_open;
	struct conattach *ca; /* hostctl console's socket, or NULL */
	uint64_t con_cut_taken, con_cut_pending;
};

/* @g with no VM yet, in @env. */
void guest_init(struct guest *g, struct guest_env *env);

/*
 * Writing the result file @path failed with @err: keep the first such
 * failure in @env (write_err, write_what) and make every wait on a VM
 * end (vm_interrupt()), so that the run stops and tears its VMs down.
 */
void guest_write_failed(struct guest_env *env, const char *path, int err);
/*
 * The console bytes cut from @g's console logs since the last call: a
 * scenario's share (summary.json's console_cut_bytes). The shares of one
 * VM add up to what its log's mark says at its end.
 */
uint64_t guest_console_cut(struct guest *g);

/* Free what @g holds; its VM must be gone (guest_stop()). */
void guest_fini(struct guest *g);

/*
 * A new session for the next VM: nothing carried over. The timeline
 * starts anew at the new guest's hello.
 */
void guest_fresh(struct guest *g);
/*
 * Keep the session (session_carry()) and the timeline for the next VM,
 * which may resume the guest that just powered itself off.
 */
void guest_carry(struct guest *g);

/* Name the next VM: the run's next label, domain name and console log. */
void guest_name(struct guest *g);
/*
 * Fill what every guest's domain shares: name, accelerator, kernel,
 * initrd, command line, console log and firmware. The caller adds memory,
 * machine and disks, or another command line.
 */
void guest_domain(struct guest *g, struct domain_config *dc);
/*
 * For a VM of the cloud image (g->cloud), named last: its overlay on the
 * image. 0, or a negative errno with the reason in @err.
 */
int guest_cloud_overlay(struct guest *g, char *err, size_t errlen);

/*
 * Start the VM named last with the domain @xml, its boot expected to end
 * as @end says, after showing "[label accel] @what" on the progress
 * line. Returns 0, or a negative errno with libvirt's message in @err.
 */
int guest_start(struct guest *g, const char *xml, enum scn_boot_end end,
		const char *what, char *err, size_t errlen);

/*
 * Wait up to @timeout_ms for the guest to be up: its hello, or for a
 * carried session the first event, which says whether it resumed.
 * Counts the boot in @g->stats. vm_wait()'s return.
 */
int guest_wait_up(struct guest *g, uint64_t timeout_ms);

/*
 * Send the run request of boot @k of @s (boots_run_encode()) and expect
 * its events into @view (session_expect()). Returns 0, or a negative
 * errno: from encoding it (the session is then as it was) or from sending
 * it.
 */
int guest_send_run(struct guest *g, const struct scenario *s, size_t k,
		   struct res_scenario *view);

/*
 * Wait up to @bound_ms for the view sent last (guest_send_run()) to end.
 * guestd bounds each step itself, so a step open past its timeout_ms
 * (@steps: the view's steps as the scenario declares them) and the host's
 * slack means the guest hangs: the wait then returns 0 with g->hang set
 * and the view still running. Otherwise vm_wait()'s return.
 */
int guest_wait_run(struct guest *g, const struct scn_step *steps,
		   uint64_t bound_ms);

/*
 * How @g's VM ended, from the wait on it that returned @r (VM_END_NOW:
 * as it stands): vm_end_of() with the hang the host saw and the end its
 * boot expects. The one decision for every boot.
 */
enum vm_end guest_vm_end(struct guest *g, int r);

/* What the end of a guest's VM means for the view it ran (guest_ended()). */
struct guest_end {
	/* How it ended (guest_vm_end()); a stop as its boot expects
	 * (vm_end_stopped()) means: go on. */
	enum vm_end end;
	/* The reason: @reason (malloc'd, with the console tail where it
	 * helps), or @what when that could not be allocated. */
	char what[PROTO_TEXT_MAX + 256];
	char *reason;
	/* Why the run can boot no more VMs (GUEST_WHY_*), or NULL. */
	const char *stop;
};

/*
 * What a wait for @view says: @r is the return of guest_wait_run() or of
 * guest_wait_up() (@view NULL: none was sent). Returns false when @view
 * simply ended (0 and no hang). Otherwise the VM ended or must:
 * ret->end says how (a hang, the host's bound, a signal, a protocol
 * error, the stop boot @boot expects, silence, or death), the step open
 * in @view takes that end's verdict (verdict_of_end()), and ret->reason
 * says why; free it.
 */
bool guest_ended(struct guest *g, int r, size_t boot, struct res_scenario *view,
		 struct guest_end *ret);

/*
 * End the VM: with @ask, a guest that is not dead is asked to shut down
 * and gets GUEST_BYE_MS for its bye; then the domain is destroyed, and
 * the time that took goes into @g->stats. No VM is fine.
 */
void guest_stop(struct guest *g, bool ask);
/* Destroy the VM without asking (it failed to come up). */
void guest_destroy(struct guest *g);

/*
 * The host's bound for something the guest bounds by @ms itself (a run
 * request's timeout_ms, a step's): @ms plus GUEST_SLACK_MS, plus half
 * of @ms again under TCG.
 */
uint64_t guest_host_bound(const struct guest *g, uint64_t ms);

/*
 * "@what[: <crash title>]\nconsole (last N lines of @console):\n<tail>"
 * in a malloc'd string, or NULL on ENOMEM: a dead or hung guest's reason,
 * with the title the console classifier (report.c) gives its crash.
 */
char *guest_console_reason(const char *what, const char *console);

#endif
