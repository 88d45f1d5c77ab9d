// SPDX-License-Identifier: GPL-2.0-only
/*
 * A VLAN or MDB dump against what a step expects (has, lacks, exactly),
 * and two dumps against each other (bridge_check). Pure: the unit tests
 * build the dumps by hand.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nl.h"

/* Append to a bounded text; what does not fit is dropped with "...". */
__attribute__((format(printf, 3, 4))) static void cat(char *buf, size_t size,
						      const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;
	int n;

	if (len + 4 >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size - len)
		strcpy(buf + size - 4, "...");
}

static const char *strs_get(struct json_object *a, size_t i)
{
	return json_object_get_string(json_object_array_get_idx(a, i));
}

static size_t strs_len(struct json_object *a)
{
	return a ? json_object_array_length(a) : 0;
}

/*
 * Check that every text of @a parses (as an MDB text with @mdb, else a
 * VLAN text; @short_form: a key or VID only). The first error goes to @got.
 */
static int parse_all(struct json_object *a, bool mdb, bool short_form,
		     char *got, size_t size)
{
	struct brspec_vlan v;
	struct brspec_mdb m;
	char err[256];
	int r;

	for (size_t i = 0; i < strs_len(a); i++) {
		r = mdb ? brspec_mdb_parse(strs_get(a, i), short_form, &m, err,
					   sizeof(err)) :
			  brspec_vlan_parse(strs_get(a, i), short_form, &v, err,
					    sizeof(err));
		if (r < 0) {
			snprintf(got, size, "%s", err);
			return -EINVAL;
		}
	}
	return 0;
}

/* ---- VLANs ---- */

static void vlan_flags(char *buf, size_t size, uint16_t vid, bool pvid,
		       bool untagged)
{
	snprintf(buf, size, "%u%s%s", vid, pvid ? " pvid" : "",
		 untagged ? " untagged" : "");
}

static const struct nl_vlan *vlan_find(const struct nl_vlans *d,
				       const char *dev, uint16_t vid)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].vid == vid && !strcmp(d->v[i].ifname, dev))
			return &d->v[i];
	return NULL;
}

/* "1 pvid untagged, 10" or "none". */
static void vlan_list(const struct nl_vlans *d, const char *dev, char *buf,
		      size_t size)
{
	char one[64];

	buf[0] = '\0';
	for (size_t i = 0; i < d->n; i++) {
		if (strcmp(d->v[i].ifname, dev))
			continue;
		vlan_flags(one, sizeof(one), d->v[i].vid, d->v[i].pvid,
			   d->v[i].untagged);
		cat(buf, size, "%s%s", buf[0] ? ", " : "", one);
	}
	if (!buf[0])
		snprintf(buf, size, "none");
}

int br_vlans_expect(const struct nl_vlans *dump, const char *dev,
		    struct json_object *has, struct json_object *lacks,
		    struct json_object *exactly, char *expected, char *got,
		    size_t size)
{
	char want[64], list[1024];
	struct brspec_vlan v;
	const struct nl_vlan *e;

	if (parse_all(has, false, false, got, size) < 0 ||
	    parse_all(lacks, false, true, got, size) < 0 ||
	    parse_all(exactly, false, false, got, size) < 0)
		return -EINVAL;
	vlan_list(dump, dev, list, sizeof(list));
	for (size_t i = 0; i < strs_len(has); i++) {
		brspec_vlan_parse(strs_get(has, i), false, &v, NULL, 0);
		e = vlan_find(dump, dev, v.vid);
		vlan_flags(want, sizeof(want), v.vid, v.pvid, v.untagged);
		if (e && e->pvid == v.pvid && e->untagged == v.untagged)
			continue;
		snprintf(expected, size, "%s vid %s", dev, want);
		snprintf(got, size, "%s VLANs: %s", dev, list);
		return 1;
	}
	for (size_t i = 0; i < strs_len(lacks); i++) {
		brspec_vlan_parse(strs_get(lacks, i), true, &v, NULL, 0);
		if (!vlan_find(dump, dev, v.vid))
			continue;
		snprintf(expected, size, "%s without vid %u", dev, v.vid);
		snprintf(got, size, "%s VLANs: %s", dev, list);
		return 1;
	}
	if (!exactly)
		return 0;
	{
		size_t n = 0, matched = 0;
		bool ok = true;

		for (size_t i = 0; i < dump->n; i++)
			n += !strcmp(dump->v[i].ifname, dev);
		for (size_t i = 0; i < strs_len(exactly); i++) {
			brspec_vlan_parse(strs_get(exactly, i), false, &v, NULL,
					  0);
			e = vlan_find(dump, dev, v.vid);
			if (e && e->pvid == v.pvid && e->untagged == v.untagged)
				matched++;
			else
				ok = false;
		}
		/* A VID given twice matches one entry twice: count entries. */
		if (ok && matched == n)
			return 0;
		snprintf(expected, size, "%s VLANs exactly: ", dev);
		for (size_t i = 0; i < strs_len(exactly); i++)
			cat(expected, size, "%s%s", i ? ", " : "",
			    strs_get(exactly, i));
		if (!strs_len(exactly))
			cat(expected, size, "none");
		snprintf(got, size, "%s VLANs: %s", dev, list);
		return 1;
	}
}

/* ---- MDB ---- */

static bool mdb_key_eq(const struct nl_mdb *e, const char *dev,
		       const struct brspec_mdb *m)
{
	return !strcmp(e->bridge_name, dev) && !strcmp(e->port_name, m->port) &&
	       e->vid == m->vid && brspec_group_eq(&e->group, &m->group);
}

static bool mdb_flags_ok(const struct nl_mdb *e, const struct brspec_mdb *m)
{
	return (m->permanent < 0 || e->permanent == m->permanent) &&
	       (m->offload < 0 || e->offload == m->offload);
}

static const struct nl_mdb *mdb_find(const struct nl_mdbs *d, const char *dev,
				     const struct brspec_mdb *m)
{
	for (size_t i = 0; i < d->n; i++)
		if (mdb_key_eq(&d->v[i], dev, m))
			return &d->v[i];
	return NULL;
}

/* The entries of bridge @dev without the bridge's name: "lan1 ... , ..." */
static void mdb_list(const struct nl_mdbs *d, const char *dev, char *buf,
		     size_t size)
{
	char one[128];
	size_t skip = strlen(dev) + 1;

	buf[0] = '\0';
	for (size_t i = 0; i < d->n; i++) {
		if (strcmp(d->v[i].bridge_name, dev))
			continue;
		nl_mdb_fmt(&d->v[i], one, sizeof(one));
		cat(buf, size, "%s%s", buf[0] ? ", " : "",
		    strlen(one) > skip ? one + skip : one);
	}
	if (!buf[0])
		snprintf(buf, size, "none");
}

int br_mdbs_expect(const struct nl_mdbs *dump, const char *dev,
		   struct json_object *has, struct json_object *lacks,
		   struct json_object *exactly, char *expected, char *got,
		   size_t size)
{
	const struct nl_mdb *e;
	struct brspec_mdb m;
	char list[2048];

	if (parse_all(has, true, false, got, size) < 0 ||
	    parse_all(lacks, true, true, got, size) < 0 ||
	    parse_all(exactly, true, false, got, size) < 0)
		return -EINVAL;
	mdb_list(dump, dev, list, sizeof(list));
	for (size_t i = 0; i < strs_len(has); i++) {
		brspec_mdb_parse(strs_get(has, i), false, &m, NULL, 0);
		e = mdb_find(dump, dev, &m);
		if (e && mdb_flags_ok(e, &m))
			continue;
		snprintf(expected, size, "%s MDB entry %s", dev,
			 strs_get(has, i));
		snprintf(got, size, "%s MDB: %s", dev, list);
		return 1;
	}
	for (size_t i = 0; i < strs_len(lacks); i++) {
		brspec_mdb_parse(strs_get(lacks, i), true, &m, NULL, 0);
		if (!mdb_find(dump, dev, &m))
			continue;
		snprintf(expected, size, "%s MDB without %s", dev,
			 strs_get(lacks, i));
		snprintf(got, size, "%s MDB: %s", dev, list);
		return 1;
	}
	if (!exactly)
		return 0;
	{
		size_t n = 0, matched = 0;
		bool ok = true, host = false;

		/*
		 * The bridge's own joins (port = the bridge: ff02::6a and the
		 * like, once IPv6 is up on it) count only when a text names
		 * the bridge as port: they come and go with the stack.
		 */
		for (size_t i = 0; i < strs_len(exactly); i++) {
			brspec_mdb_parse(strs_get(exactly, i), false, &m, NULL,
					 0);
			host |= !strcmp(m.port, dev);
		}
		for (size_t i = 0; i < dump->n; i++)
			n += !strcmp(dump->v[i].bridge_name, dev) &&
			     (host || strcmp(dump->v[i].port_name, dev));
		for (size_t i = 0; i < strs_len(exactly); i++) {
			brspec_mdb_parse(strs_get(exactly, i), false, &m, NULL,
					 0);
			e = mdb_find(dump, dev, &m);
			if (e && mdb_flags_ok(e, &m))
				matched++;
			else
				ok = false;
		}
		if (ok && matched == n)
			return 0;
		snprintf(expected, size, "%s MDB exactly: ", dev);
		for (size_t i = 0; i < strs_len(exactly); i++)
			cat(expected, size, "%s%s", i ? ", " : "",
			    strs_get(exactly, i));
		if (!strs_len(exactly))
			cat(expected, size, "none");
		snprintf(got, size, "%s MDB: %s", dev, list);
		return 1;
	}
}

/* ---- two dumps ---- */

/* Key first, then the flags. */
static int vlan_cmp(const struct nl_vlan *a, const struct nl_vlan *b)
{
	int r = nl_vlan_key_cmp(a, b);

	if (r)
		return r;
	return (a->pvid - b->pvid) * 2 + (a->untagged - b->untagged);
}

int br_vlans_diff(const struct nl_vlans *a, const struct nl_vlans *b,
		  const char *a_name, const char *b_name, char *diff,
		  size_t size)
{
	char x[96], y[96];
	size_t i = 0, j = 0;

	while (i < a->n || j < b->n) {
		int c = i == a->n ? 1 :
			j == b->n ? -1 :
				    vlan_cmp(&a->v[i], &b->v[j]);

		if (c == 0) {
			i++;
			j++;
			continue;
		}
		if (i < a->n && j < b->n &&
		    !nl_vlan_key_cmp(&a->v[i], &b->v[j])) {
			nl_vlan_fmt(&a->v[i], x, sizeof(x));
			nl_vlan_fmt(&b->v[j], y, sizeof(y));
			snprintf(diff, size, "%s has '%s', %s has '%s'", a_name,
				 x, b_name, y);
		} else if (c < 0) {
			nl_vlan_fmt(&a->v[i], x, sizeof(x));
			snprintf(diff, size, "%s has '%s', %s does not", a_name,
				 x, b_name);
		} else {
			nl_vlan_fmt(&b->v[j], y, sizeof(y));
			snprintf(diff, size, "%s has '%s', %s does not", b_name,
				 y, a_name);
		}
		return 1;
	}
	return 0;
}

/*
 * The bridge's own joins (port = the bridge: ff02::6a once IPv6 is up on
 * it) come and go with the stack, as mdb_expect says: one can appear
 * between guestd's dump and `bridge -j mdb show`, so neither side's count.
 */
static bool own_join(const struct nl_mdb *e)
{
	return !strcmp(e->port_name, e->bridge_name);
}

int br_mdbs_diff(const struct nl_mdbs *a, const struct nl_mdbs *b,
		 const char *a_name, const char *b_name, char *diff,
		 size_t size)
{
	char x[160], y[160];
	size_t i = 0, j = 0;
	int c;

	for (;;) {
		while (i < a->n && own_join(&a->v[i]))
			i++;
		while (j < b->n && own_join(&b->v[j]))
			j++;
		if (i == a->n && j == b->n)
			break;
		c = i == a->n ? 1 :
		    j == b->n ? -1 :
				nl_mdb_key_cmp(&a->v[i], &b->v[j]);

		if (c == 0 && a->v[i].permanent == b->v[j].permanent &&
		    a->v[i].offload == b->v[j].offload) {
			i++;
			j++;
			continue;
		}
		if (c == 0) {
			nl_mdb_fmt(&a->v[i], x, sizeof(x));
			nl_mdb_fmt(&b->v[j], y, sizeof(y));
			snprintf(diff, size, "%s has '%s', %s has '%s'", a_name,
				 x, b_name, y);
		} else if (c < 0) {
			nl_mdb_fmt(&a->v[i], x, sizeof(x));
			snprintf(diff, size, "%s has '%s', %s does not", a_name,
				 x, b_name);
		} else {
			nl_mdb_fmt(&b->v[j], y, sizeof(y));
			snprintf(diff, size, "%s has '%s', %s does not", b_name,
				 y, a_name);
		}
		return 1;
	}
	return 0;
}
