// SPDX-License-Identifier: GPL-2.0-only
/* A live VM by name, and an SSH session to it (sshvm.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "kbuild.h"
#include "live/sshc.h"
#include "live/sshvm.h"
#include "vm/vmstate.h"

int sshvm_resolve(const char *verb, const char *cache, const char *name,
		  char *dir, size_t dirlen, struct vmstate *ret)
{
	char vms[PATH_MAX + 8];
	int r;

	r = cache ? (snprintf(dir, dirlen, "%s", cache) >= (int)dirlen ?
			     -ENAMETOOLONG :
			     0) :
		    kbuild_cache_dir(dir, dirlen);
	if (r < 0) {
		fprintf(stderr, "hostctl %s: cache directory: %s\n", verb,
			strerror(-r));
		return r;
	}
	snprintf(vms, sizeof(vms), "%s/vms", dir);
	r = vmstate_resolve(vms, name, ret);
	if (r == -ENOENT) {
		fprintf(stderr,
			"hostctl %s: no live VM named '%s' (see 'hostctl ls')\n",
			verb, name);
		return r;
	}
	if (r == -EEXIST) {
		fprintf(stderr,
			"hostctl %s: several live VMs are labelled '%s'; name one by its domain (see 'hostctl ls')\n",
			verb, name);
		return r;
	}
	if (r < 0)
		fprintf(stderr, "hostctl %s: reading '%s': %s\n", verb, vms,
			strerror(-r));
	return r;
}

int sshvm_connect(const char *verb, const char *cache, const char *name,
		  struct sshc **ret)
{
	char dir[PATH_MAX], priv[PATH_MAX], pub[PATH_MAX];
	char err[PATH_MAX * 2 + 256];
	struct vmstate v;
	int r;

	r = sshvm_resolve(verb, cache, name, dir, sizeof(dir), &v);
	if (r < 0)
		return r;
	r = sshc_client_key(dir, priv, sizeof(priv), pub, sizeof(pub), err,
			    sizeof(err));
	if (r == 0)
		r = sshc_connect(v.socket, verb, v.host_key, priv, ret, err,
				 sizeof(err));
	if (r == -EBUSY)
		fprintf(stderr,
			"hostctl %s: VM '%s' is in use by another SSH session%s%s%s; try again when it ends\n",
			verb, name, err[0] ? " (" : "", err, err[0] ? ")" : "");
	else if (r < 0)
		fprintf(stderr, "hostctl %s: %s: %s\n", verb, v.label, err);
	return r;
}
