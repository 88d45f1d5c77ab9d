// SPDX-License-Identifier: GPL-2.0-only
/*
 * iproute2's `bridge -j vlan show` and `bridge -j mdb show` output, read
 * into the same lists guestd's own dumps give, so bridge_check can compare
 * the two. Pure. The output looks like
 *
 *   [{"ifname":"lan1","vlans":[{"vlan":1,"flags":["PVID","Egress Untagged"]},
 *                              {"vlan":10,"vlanEnd":12}]}]
 *   [{"mdb":[{"index":5,"dev":"br0","port":"lan1","grp":"239.1.1.1",
 *             "state":"permanent","flags":["offload"],"vid":10}],"router":{}}]
 *
 * Keys iproute2 may add (timer, src, filter_mode, protocol) are ignored.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nl.h"

static struct json_object *get(struct json_object *o, const char *key,
			       enum json_type type)
{
	struct json_object *v;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, type))
		return NULL;
	return v;
}

static bool has_flag(struct json_object *o, const char *flag)
{
	struct json_object *flags = get(o, "flags", json_type_array);

	for (size_t i = 0; flags && i < json_object_array_length(flags); i++) {
		struct json_object *f = json_object_array_get_idx(flags, i);

		if (json_object_is_type(f, json_type_string) &&
		    !strcmp(json_object_get_string(f), flag))
			return true;
	}
	return false;
}

/* A short string field into @buf; false when absent or too long. */
static bool get_name(struct json_object *o, const char *key, char *buf,
		     size_t size)
{
	struct json_object *v = get(o, key, json_type_string);

	if (!v || (size_t)json_object_get_string_len(v) >= size)
		return false;
	snprintf(buf, size, "%s", json_object_get_string(v));
	return true;
}

static struct json_object *parse_array(const char *text, char *err,
				       size_t errlen)
{
	struct json_object *doc = json_tokener_parse(text);

	if (!doc || !json_object_is_type(doc, json_type_array)) {
		snprintf(err, errlen, "not a JSON array");
		json_object_put(doc);
		return NULL;
	}
	return doc;
}

static int vlans_of(struct json_object *port, struct nl_vlans *l, char *err,
		    size_t errlen)
{
	struct json_object *vlans = get(port, "vlans", json_type_array);
	struct nl_vlan e = { 0 };
	int r;

	if (!get_name(port, "ifname", e.ifname, sizeof(e.ifname)) || !vlans) {
		snprintf(err, errlen, "an entry without ifname or vlans");
		return -EINVAL;
	}
	for (size_t i = 0; i < json_object_array_length(vlans); i++) {
		struct json_object *v = json_object_array_get_idx(vlans, i);
		struct json_object *vid = get(v, "vlan", json_type_int);
		struct json_object *end = get(v, "vlanEnd", json_type_int);
		int64_t first, last;

		if (!vid) {
			snprintf(err, errlen, "%s: a VLAN without \"vlan\"",
				 e.ifname);
			return -EINVAL;
		}
		first = json_object_get_int64(vid);
		last = end ? json_object_get_int64(end) : first;
		if (first < 0 || last > 0xffff || last < first) {
			snprintf(err, errlen, "%s: bad VLAN %lld-%lld",
				 e.ifname, (long long)first, (long long)last);
			return -EINVAL;
		}
		e.pvid = has_flag(v, "PVID");
		e.untagged = has_flag(v, "Egress Untagged");
		for (int64_t vv = first; vv <= last; vv++) {
			e.vid = (uint16_t)vv;
			r = nl_vlans_add(l, &e);
			if (r < 0) {
				snprintf(err, errlen, "more than %d VLANs",
					 NL_DUMP_MAX);
				return r;
			}
		}
	}
	return 0;
}

int brjson_vlans(const char *text, struct nl_vlans *ret, char *err,
		 size_t errlen)
{
	struct json_object *doc = parse_array(text, err, errlen);
	struct nl_vlans l = { 0 };
	int r = 0;

	if (!doc)
		return -EINVAL;
	for (size_t i = 0; r == 0 && i < json_object_array_length(doc); i++)
		r = vlans_of(json_object_array_get_idx(doc, i), &l, err,
			     errlen);
	json_object_put(doc);
	if (r < 0) {
		nl_vlans_free(&l);
		return -EINVAL;
	}
	nl_vlans_sort(&l);
	*ret = l;
	return 0;
}

static int mdb_of(struct json_object *o, struct nl_mdbs *l, char *err,
		  size_t errlen)
{
	struct json_object *vid = get(o, "vid", json_type_int);
	struct nl_mdb e = { 0 };
	char grp[64], state[16];

	if (!get_name(o, "dev", e.bridge_name, sizeof(e.bridge_name)) ||
	    !get_name(o, "port", e.port_name, sizeof(e.port_name)) ||
	    !get_name(o, "grp", grp, sizeof(grp)) ||
	    !get_name(o, "state", state, sizeof(state))) {
		snprintf(err, errlen,
			 "an MDB entry without dev, port, grp or state");
		return -EINVAL;
	}
	if (brspec_group_parse(grp, &e.group) < 0) {
		snprintf(err, errlen, "MDB group '%s' is no address", grp);
		return -EINVAL;
	}
	if (vid && (json_object_get_int64(vid) < 0 ||
		    json_object_get_int64(vid) > 0xffff)) {
		snprintf(err, errlen, "MDB entry %s: bad vid", grp);
		return -EINVAL;
	}
	e.vid = vid ? (uint16_t)json_object_get_int64(vid) : 0;
	e.permanent = !strcmp(state, "permanent");
	e.offload = has_flag(o, "offload");
	if (nl_mdbs_add(l, &e) < 0) {
		snprintf(err, errlen, "more than %d MDB entries", NL_DUMP_MAX);
		return -E2BIG;
	}
	return 0;
}

int brjson_mdbs(const char *text, struct nl_mdbs *ret, char *err, size_t errlen)
{
	struct json_object *doc = parse_array(text, err, errlen);
	struct nl_mdbs l = { 0 };
	int r = 0;

	if (!doc)
		return -EINVAL;
	for (size_t i = 0; r == 0 && i < json_object_array_length(doc); i++) {
		struct json_object *mdb = get(json_object_array_get_idx(doc, i),
					      "mdb", json_type_array);

		for (size_t j = 0;
		     r == 0 && mdb && j < json_object_array_length(mdb); j++)
			r = mdb_of(json_object_array_get_idx(mdb, j), &l, err,
				   errlen);
	}
	json_object_put(doc);
	if (r < 0) {
		nl_mdbs_free(&l);
		return -EINVAL;
	}
	nl_mdbs_sort(&l);
	*ret = l;
	return 0;
}
