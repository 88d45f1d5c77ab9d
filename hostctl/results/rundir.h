/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The layout of a run directory, in one place: the name of every file a
 * run leaves there (docs/protocol.md, "Files in the run directory"; the
 * bundles' files in docs/crashes.md, "Post-mortem bundles"), the link to
 * the newest run beside the runs, and the label that names a run's VMs
 * in those names and in events.jsonl ("vm1", "vm2", ...). A name with a
 * conversion is a printf format, to be put after "%s/" in a path:
 * snprintf(path, len, "%s/" RUNDIR_CONSOLE, run_dir, label).
 */
#ifndef VLALAB_HOSTCTL_RUNDIR_H
#define VLALAB_HOSTCTL_RUNDIR_H

#include <stddef.h>

/* The run's own files. */
#define RUNDIR_EVENTS "events.jsonl"
#define RUNDIR_SUMMARY "summary.json"
#define RUNDIR_KTAP "results.ktap"

/* A VM's files, by its label (%s). */
#define RUNDIR_CONSOLE "console-%s.log"
#define RUNDIR_PROTO_ERROR "protocol-error-%s.txt"
#define RUNDIR_CLOUD_OVERLAY "cloud-%s.qcow2"

/* The cloud image's seed disk, one per run. */
#define RUNDIR_CLOUD_SEED "cloud-seed.img"
/*
 * A scenario's disk (hostctl run --keep leaves it): its slug, a suffix
 * ("" or a boot's extra disk's), its format's extension.
 */
#define RUNDIR_DISK "disk-%s%s.%s"

/*
 * A post-mortem bundle, a folder: the VM's label (%s) and the bundle's
 * number in the run (%u); and the files in it.
 */
#define RUNDIR_BUNDLE "bundle-%s-%u"
#define RUNDIR_BUNDLE_CONSOLE "console.log"
#define RUNDIR_BUNDLE_REPORTS "reports.txt"
#define RUNDIR_BUNDLE_REPORTS_RAW "reports-raw.txt"
#define RUNDIR_BUNDLE_EVENTS RUNDIR_EVENTS
#define RUNDIR_BUNDLE_STACK "stack.txt"
#define RUNDIR_BUNDLE_KDUMP "vmcore.kdump"
#define RUNDIR_BUNDLE_ELF "vmcore.elf"
#define RUNDIR_BUNDLE_DUMP_NOTE "dump.txt"

/* A --repeat run's round K (%u, from 1), a run directory of its own. */
#define RUNDIR_ROUND "round-%u"

/*
 * Beside the runs, in the results folder: the link to the newest run,
 * and its temporary name (%d: hostctl's pid) while it is replaced.
 */
#define RUNDIR_LATEST "latest"
#define RUNDIR_LATEST_TMP ".latest-%d"

/*
 * The label of a run's VM number @vmno into @buf: "vm" and the number in
 * decimal. 0, or -ENAMETOOLONG when it did not fit (@buf holds what did).
 */
int rundir_vm_label(char *buf, size_t len, unsigned int vmno);
/*
 * The VM number of @label, the inverse of rundir_vm_label(): 0 with
 * *@ret_vmno set, or -EINVAL when @label is not one it makes ("vm", no
 * digits, a sign, a leading zero, anything after the digits, a number
 * over UINT_MAX). A label that parses is safe in a file name and a URL.
 */
int rundir_vm_parse(const char *label, unsigned int *ret_vmno);

#endif
