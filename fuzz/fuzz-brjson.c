// SPDX-License-Identifier: GPL-2.0-only
/*
 * guestd's reader of iproute2's `bridge -j vlan show` and `bridge -j mdb
 * show` on any text: it reads a sorted list or says why not, and what it
 * reads formats within bounds and compares equal to itself.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "guestd.h"
#include "nl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nl_vlans vl;
	struct nl_mdbs ml;
	char err[256], text[256], *s;

	s = malloc(size + 1);
	assert(s);
	memcpy(s, data, size);
	s[size] = '\0';

	if (brjson_vlans(s, &vl, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < vl.n; i++) {
			assert(i == 0 ||
			       nl_vlan_key_cmp(&vl.v[i - 1], &vl.v[i]) <= 0);
			nl_vlan_fmt(&vl.v[i], text, sizeof(text));
		}
		assert(br_vlans_diff(&vl, &vl, "a", "b", text, sizeof(text)) ==
		       0);
		nl_vlans_free(&vl);
	} else {
		assert(err[0]);
	}
	if (brjson_mdbs(s, &ml, err, sizeof(err)) == 0) {
		for (size_t i = 0; i < ml.n; i++) {
			assert(i == 0 ||
			       nl_mdb_key_cmp(&ml.v[i - 1], &ml.v[i]) <= 0);
			nl_mdb_fmt(&ml.v[i], text, sizeof(text));
		}
		assert(br_mdbs_diff(&ml, &ml, "a", "b", text, sizeof(text)) ==
		       0);
		nl_mdbs_free(&ml);
	} else {
		assert(err[0]);
	}
	free(s);
	return 0;
}
