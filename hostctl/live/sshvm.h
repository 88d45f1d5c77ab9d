/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the verbs that reach a live VM share (exec, pull, console): the VM by name
 * through its state file (vmstate.h), then an SSH session to it with the
 * cache's client key. Verb-level: logs once, with context.
 */
#ifndef VLALAB_SSHVM_H
#define VLALAB_SSHVM_H

#include <stddef.h>

struct sshc;
struct vmstate;

/*
 * The live VM @name names (vmstate_resolve()), with the cache directory
 * (@cache, or the default when NULL) in @dir. 0, or a negative errno,
 * said on stderr.
 */
int sshvm_resolve(const char *verb, const char *cache, const char *name,
		  char *dir, size_t dirlen, struct vmstate *ret);

/* @cache: NULL for the default. Returns 0 or EXIT_SETUP-worthy -errno. */
int sshvm_connect(const char *verb, const char *cache, const char *name,
		  struct sshc **ret);

#endif
