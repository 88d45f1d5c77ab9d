/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The live VMs' state files, <cache>/vms/<domain>.json, one per VM that a
 * hostctl started with an SSH port: what another hostctl process needs to
 * reach it (hostctl exec, pull, ls). The owning hostctl writes the file
 * atomically once the VM runs and removes it when the VM goes; a file
 * whose owner died is stale and ignored.
 */
#ifndef VLALAB_VMSTATE_H
#define VLALAB_VMSTATE_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>
#include <sys/un.h>

struct vmstate {
	char domain[128]; /* vlalab-<run>-N */
	char label[32]; /* vm3 */
	char socket[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char host_key[PATH_MAX]; /* the pinned public key file */
	char run_dir[PATH_MAX];
	pid_t pid; /* the owning hostctl */
	/* Where its steps are: "" and 0 before the first step begins. */
	char scenario[128];
	unsigned step; /* the step begun last, from 1 */
	unsigned steps; /* the scenario's main steps */
};

int vmstate_write(const char *dir, const struct vmstate *v);
void vmstate_remove(const char *dir, const char *domain);
/* Parse one state file's JSON text; -EINVAL for a bad one. */
int vmstate_parse(const char *text, struct vmstate *ret);
/*
 * The live VM @name names: its domain name, or its label when one live VM
 * has it. -ENOENT when none, -EEXIST when the label is ambiguous.
 */
int vmstate_resolve(const char *dir, const char *name, struct vmstate *ret);
/* Every live VM, in *ret (malloc'd), *ret_n of them. */
int vmstate_list(const char *dir, struct vmstate **ret, size_t *ret_n);

#endif
