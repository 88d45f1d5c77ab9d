/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The short texts scenarios use for bridge VLAN and MDB entries, parsed the
 * same way by guestd (which acts on them) and by hostctl's validator (which
 * rejects a bad one before a guest boots). docs/scenarios.md has the syntax:
 *
 *   VLAN: "VID [pvid] [untagged]"                   e.g. "10 pvid untagged"
 *   MDB:  "PORT GROUP [vid N] [permanent|temp] [offload|no_offload]"
 *                                                   e.g. "lan1 239.1.1.1 vid 10 offload"
 *
 * GROUP is an IPv4 or IPv6 multicast address, or a MAC address (an L2 group).
 */
#ifndef VLALAB_BRSPEC_H
#define VLALAB_BRSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BRSPEC_IFNAME_MAX 16 /* IFNAMSIZ */
#define BRSPEC_VID_MAX 4095

/* A multicast group as the kernel's struct br_mdb_entry holds it. */
struct brspec_group {
	uint16_t proto; /* host order: 0x0800, 0x86dd, or 0 for L2 */
	uint8_t addr[16]; /* 4, 16 or 6 bytes used, the rest zero */
};

/*
 * "239.1.1.1", "ff0e::1" or "01:00:5e:01:02:03". Returns 0, or -EINVAL
 * for anything else.
 */
int brspec_group_parse(const char *s, struct brspec_group *ret);
/* The canonical text of @g (inet_ntop, or lower-case MAC). */
void brspec_group_fmt(const struct brspec_group *g, char *buf, size_t size);
bool brspec_group_eq(const struct brspec_group *a,
		     const struct brspec_group *b);

struct brspec_vlan {
	uint16_t vid;
	bool pvid;
	bool untagged;
};

/*
 * A VLAN text; with @vid_only nothing may follow the VID. Returns 0, or
 * -EINVAL with the reason in @err.
 */
int brspec_vlan_parse(const char *s, bool vid_only, struct brspec_vlan *ret,
		      char *err, size_t errlen);

struct brspec_mdb {
	char port[BRSPEC_IFNAME_MAX];
	struct brspec_group group;
	uint16_t vid; /* 0: no VLAN */
	int permanent; /* 1, 0, or -1 when not given */
	int offload; /* 1, 0, or -1 when not given */
};

/*
 * An MDB text; with @key_only only PORT GROUP [vid N] may be given.
 * Returns 0, or -EINVAL with the reason in @err.
 */
int brspec_mdb_parse(const char *s, bool key_only, struct brspec_mdb *ret,
		     char *err, size_t errlen);

#endif
