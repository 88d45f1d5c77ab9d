// SPDX-License-Identifier: GPL-2.0-only
/*
 * Parsing the VLAN and MDB entry texts of brspec.h. Pure: no I/O.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "brspec.h"

#define BRSPEC_TEXT_MAX 256
#define BRSPEC_WORDS_MAX 8

/* "xx:xx:xx:xx:xx:xx", hex digits only (sscanf would take "0x"). */
static bool is_mac(const char *s)
{
	if (strlen(s) != 17)
		return false;
	for (int i = 0; i < 17; i++)
		if (i % 3 == 2 ? s[i] != ':' : !isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

int brspec_group_parse(const char *s, struct brspec_group *ret)
{
	struct brspec_group g = { 0 };

	if (inet_pton(AF_INET, s, g.addr) == 1) {
		g.proto = 0x0800;
	} else if (inet_pton(AF_INET6, s, g.addr) == 1) {
		g.proto = 0x86dd;
	} else if (is_mac(s)) {
		for (int i = 0; i < 6; i++)
			g.addr[i] = (uint8_t)strtoul(s + 3 * i, NULL, 16);
	} else {
		return -EINVAL;
	}
	*ret = g;
	return 0;
}

void brspec_group_fmt(const struct brspec_group *g, char *buf, size_t size)
{
	const uint8_t *a = g->addr;

	if (g->proto == 0x0800 && inet_ntop(AF_INET, a, buf, size))
		return;
	if (g->proto == 0x86dd && inet_ntop(AF_INET6, a, buf, size))
		return;
	if (g->proto == 0) {
		snprintf(buf, size, "%02x:%02x:%02x:%02x:%02x:%02x", a[0], a[1],
			 a[2], a[3], a[4], a[5]);
		return;
	}
	snprintf(buf, size, "(protocol 0x%04x)", g->proto);
}

bool brspec_group_eq(const struct brspec_group *a, const struct brspec_group *b)
{
	return a->proto == b->proto &&
	       !memcmp(a->addr, b->addr, sizeof(a->addr));
}

/* Split a copy of @s at blanks; returns the word count or -E2BIG. */
static int split(const char *s, char *copy, char **words)
{
	int n = 0;

	if (strlen(s) >= BRSPEC_TEXT_MAX)
		return -E2BIG;
	strcpy(copy, s);
	for (char *save = NULL, *w = strtok_r(copy, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		if (n == BRSPEC_WORDS_MAX)
			return -E2BIG;
		words[n++] = w;
	}
	return n;
}

/* A VID: decimal, 0..4095 (the kernel judges 0 and 4095 itself). */
static int parse_vid(const char *s, uint16_t *ret)
{
	char *end;
	long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v > BRSPEC_VID_MAX)
		return -EINVAL;
	*ret = (uint16_t)v;
	return 0;
}

int brspec_vlan_parse(const char *s, bool vid_only, struct brspec_vlan *ret,
		      char *err, size_t errlen)
{
	struct brspec_vlan v = { 0 };
	char copy[BRSPEC_TEXT_MAX], *w[BRSPEC_WORDS_MAX];
	int n = split(s, copy, w);

	if (n < 0) {
		snprintf(err, errlen, "VLAN '%.64s' is too long", s);
		return -EINVAL;
	}
	if (n == 0 || parse_vid(w[0], &v.vid) < 0) {
		snprintf(err, errlen,
			 "VLAN '%.64s' must start with a VID 0..%d", s,
			 BRSPEC_VID_MAX);
		return -EINVAL;
	}
	for (int i = 1; i < n; i++) {
		bool *flag = NULL;

		if (!vid_only && !strcmp(w[i], "pvid"))
			flag = &v.pvid;
		else if (!vid_only && !strcmp(w[i], "untagged"))
			flag = &v.untagged;
		if (!flag || *flag) {
			snprintf(err, errlen,
				 "VLAN '%.64s': unexpected '%s' (want %s)", s,
				 w[i],
				 vid_only ? "a VID only" :
					    "VID [pvid] [untagged]");
			return -EINVAL;
		}
		*flag = true;
	}
	*ret = v;
	return 0;
}

int brspec_mdb_parse(const char *s, bool key_only, struct brspec_mdb *ret,
		     char *err, size_t errlen)
{
	struct brspec_mdb m = { .permanent = -1, .offload = -1 };
	char copy[BRSPEC_TEXT_MAX], *w[BRSPEC_WORDS_MAX];
	const char *want =
		key_only ?
			"PORT GROUP [vid N]" :
			"PORT GROUP [vid N] [permanent|temp] [offload|no_offload]";
	bool vid_seen = false;
	int n = split(s, copy, w);

	if (n < 2 || strlen(w[0]) >= BRSPEC_IFNAME_MAX) {
		snprintf(err, errlen, "MDB entry '%.64s' must be %s", s, want);
		return -EINVAL;
	}
	strcpy(m.port, w[0]);
	if (brspec_group_parse(w[1], &m.group) < 0) {
		snprintf(
			err, errlen,
			"MDB entry '%.64s': '%s' is no IPv4, IPv6 or MAC group",
			s, w[1]);
		return -EINVAL;
	}
	for (int i = 2; i < n; i++) {
		int *flag = NULL, val = 1;

		if (!strcmp(w[i], "vid") && !vid_seen && i + 1 < n &&
		    parse_vid(w[i + 1], &m.vid) == 0) {
			vid_seen = true;
			i++;
			continue;
		}
		if (!key_only &&
		    (!strcmp(w[i], "permanent") || !strcmp(w[i], "temp"))) {
			flag = &m.permanent;
			val = w[i][0] == 'p';
		} else if (!key_only && (!strcmp(w[i], "offload") ||
					 !strcmp(w[i], "no_offload"))) {
			flag = &m.offload;
			val = w[i][0] == 'o';
		}
		if (!flag || *flag != -1) {
			snprintf(err, errlen,
				 "MDB entry '%.64s': unexpected '%s' (want %s)",
				 s, w[i], want);
			return -EINVAL;
		}
		*flag = val;
	}
	*ret = m;
	return 0;
}
