// SPDX-License-Identifier: GPL-2.0-only
/* The VM label of a run directory (rundir.h). Pure. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "results/rundir.h"

#define RUNDIR_VM_PREFIX "vm"

int rundir_vm_label(char *buf, size_t len, unsigned int vmno)
{
	if (snprintf(buf, len, RUNDIR_VM_PREFIX "%u", vmno) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

int rundir_vm_parse(const char *label, unsigned int *ret_vmno)
{
	const size_t plen = strlen(RUNDIR_VM_PREFIX);
	unsigned long long n = 0;
	const char *p;

	if (!label || strncmp(label, RUNDIR_VM_PREFIX, plen) != 0)
		return -EINVAL;
	p = label + plen;
	/* Digits only, as %u writes them: no sign, space or leading 0. */
	if (*p < '0' || *p > '9' || (p[0] == '0' && p[1]))
		return -EINVAL;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		n = n * 10 + (unsigned int)(*p - '0');
		if (n > UINT_MAX)
			return -EINVAL;
	}
	*ret_vmno = (unsigned int)n;
	return 0;
}
