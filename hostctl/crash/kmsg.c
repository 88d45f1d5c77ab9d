// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel log of a stopped guest, read from its memory (kmsg.h). The
 * walk is the one of the kernel's printk_ringbuffer.c (5.10 and later):
 * the descriptors from tail_id to head_id, each committed or finalized
 * one's text block in the data ring. Every offset and size comes from
 * VMCOREINFO, so 6.1 and 6.12 (whose prb_desc_ring grew a field) read the
 * same way. Everything read is the guest's: each size is bounded, each
 * index masked, and the walk takes at most one step per descriptor.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash/kmsg.h"

#define VMCOREINFO_BYTES 4096
#define KMSG_DESC_BITS_MAX 20
#define KMSG_STRUCT_MAX 1024
#define DESC_FLAGS_SHIFT 62
#define DESC_ID_MASK ((UINT64_C(1) << DESC_FLAGS_SHIFT) - 1)
#define DESC_COMMITTED 1
#define DESC_FINALIZED 2

/* What the walk needs from VMCOREINFO. */
struct layout {
	uint64_t prb;
	uint64_t off_desc_ring, off_text_ring;
	uint64_t off_count_bits, off_descs, off_infos, off_head, off_tail;
	uint64_t size_desc, off_state, off_text_lpos, off_begin, off_next;
	uint64_t size_info, off_ts, off_text_len;
	uint64_t off_size_bits, off_data;
};

int kmsg_map_symbol(const char *path, const char *name, uint64_t *ret)
{
	FILE *f = fopen(path, "re");
	char line[512];
	int r = -ENOENT;

	if (!f)
		return -errno;
	while (r == -ENOENT && fgets(line, sizeof(line), f)) {
		char sym[256], type;
		uint64_t addr;

		if (sscanf(line, "%" SCNx64 " %c %255s", &addr, &type, sym) ==
			    3 &&
		    strcmp(sym, name) == 0) {
			*ret = addr;
			r = 0;
		}
	}
	if (r == -ENOENT && ferror(f))
		r = -EIO;
	fclose(f);
	return r;
}

/* The value of "@key=" in VMCOREINFO @info, hexadecimal for SYMBOL(). */
static bool info_value(const char *info, const char *key, uint64_t *v)
{
	size_t n = strlen(key);

	for (const char *l = info; l; l = strchr(l, '\n')) {
		char *end;

		if (*l == '\n')
			l++;
		if (strncmp(l, key, n) != 0 || l[n] != '=')
			continue;
		*v = strtoull(l + n + 1, &end,
			      strncmp(key, "SYMBOL(", 7) ? 10 : 16);
		return end != l + n + 1;
	}
	return false;
}

static int parse_layout(const char *info, struct layout *L)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
#define K(k, f) { k, offsetof(struct layout, f) }
		K("SYMBOL(prb)", prb),
		K("OFFSET(printk_ringbuffer.desc_ring)", off_desc_ring),
		K("OFFSET(printk_ringbuffer.text_data_ring)", off_text_ring),
		K("OFFSET(prb_desc_ring.count_bits)", off_count_bits),
		K("OFFSET(prb_desc_ring.descs)", off_descs),
		K("OFFSET(prb_desc_ring.infos)", off_infos),
		K("OFFSET(prb_desc_ring.head_id)", off_head),
		K("OFFSET(prb_desc_ring.tail_id)", off_tail),
		K("SIZE(prb_desc)", size_desc),
		K("OFFSET(prb_desc.state_var)", off_state),
		K("OFFSET(prb_desc.text_blk_lpos)", off_text_lpos),
		K("OFFSET(prb_data_blk_lpos.begin)", off_begin),
		K("OFFSET(prb_data_blk_lpos.next)", off_next),
		K("SIZE(printk_info)", size_info),
		K("OFFSET(printk_info.ts_nsec)", off_ts),
		K("OFFSET(printk_info.text_len)", off_text_len),
		K("OFFSET(prb_data_ring.size_bits)", off_size_bits),
		K("OFFSET(prb_data_ring.data)", off_data),
#undef K
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		uint64_t *v = (uint64_t *)((char *)L + keys[i].off);

		if (!info_value(info, keys[i].key, v))
			return -EPROTO;
		if (i > 0 && *v > KMSG_STRUCT_MAX)
			return -EPROTO;
	}
	if (L->off_state + 8 > L->size_desc ||
	    L->off_text_lpos + L->off_next + 8 > L->size_desc ||
	    L->off_text_lpos + L->off_begin + 8 > L->size_desc ||
	    L->off_ts + 8 > L->size_info || L->off_text_len + 2 > L->size_info)
		return -EPROTO;
	return 0;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Read @len bytes at @addr into a new buffer. */
static int read_new(kmsg_read_fn read, void *ctx, uint64_t addr, size_t len,
		    unsigned char **ret)
{
	unsigned char *b = malloc(len ? len : 1);
	int r;

	if (!b)
		return -ENOMEM;
	r = read(ctx, addr, b, len);
	if (r < 0) {
		free(b);
		return -EIO;
	}
	*ret = b;
	return 0;
}

struct ring {
	unsigned char *descs, *infos, *data;
	uint64_t ndesc, dsize, head, tail;
	unsigned int size_bits;
};

/* The text of a block at [@begin, @next) of the data ring, as get_data(). */
static const unsigned char *block(const struct ring *g, uint64_t begin,
				  uint64_t next, size_t *len)
{
	uint64_t size;
	const unsigned char *db;

	if ((begin & 1) || (next & 1))
		return NULL; /* data-less: no text */
	if ((begin >> g->size_bits) == ((next - 1) >> g->size_bits) &&
	    begin < next) {
		db = g->data + (begin & (g->dsize - 1));
		size = next - begin;
	} else if (((begin + g->dsize) >> g->size_bits) ==
		   ((next - 1) >> g->size_bits)) {
		db = g->data;
		size = next & (g->dsize - 1);
	} else {
		return NULL;
	}
	if (size < 8 || (size_t)(db - g->data) + size > g->dsize)
		return NULL;
	*len = size - 8;
	return db + 8; /* after the block's id */
}

struct out {
	char *s;
	size_t len, cap;
	int err;
};

static void put(struct out *o, const char *p, size_t n)
{
	if (o->err)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		char *s;

		while (o->len + n + 1 > cap)
			cap *= 2;
		s = realloc(o->s, cap);
		if (!s) {
			o->err = -ENOMEM;
			return;
		}
		o->s = s;
		o->cap = cap;
	}
	memcpy(o->s + o->len, p, n);
	o->len += n;
	o->s[o->len] = '\0';
}

/* One record: each of its lines with the console's "[    1.234567] ". */
static void record(struct out *o, uint64_t ts_nsec, const unsigned char *t,
		   size_t n)
{
	char prefix[40];
	int pn = snprintf(prefix, sizeof(prefix),
			  "[%5" PRIu64 ".%06" PRIu64 "] ", ts_nsec / 1000000000,
			  ts_nsec % 1000000000 / 1000);
	size_t i = 0;

	for (;;) {
		put(o, prefix, (size_t)pn);
		for (; i < n && t[i] != '\n'; i++) {
			char c = (char)t[i];

			if ((t[i] < 0x20 && c != '\t') || t[i] == 0x7f)
				c = '?';
			put(o, &c, 1);
		}
		put(o, "\n", 1);
		/* past the '\n'; a last '\n' opens no empty line */
		if (i >= n || ++i >= n)
			break;
	}
}

static void walk(const struct layout *L, const struct ring *g, struct out *o)
{
	uint64_t id = g->tail;

	for (uint64_t step = 0; step < g->ndesc; step++) {
		const unsigned char *d =
			g->descs + (id & (g->ndesc - 1)) * L->size_desc;
		const unsigned char *in =
			g->infos + (id & (g->ndesc - 1)) * L->size_info;
		uint64_t sv = get64(d + L->off_state);
		unsigned int state = (unsigned int)(sv >> DESC_FLAGS_SHIFT);
		const unsigned char *t;
		uint16_t tl;
		size_t n;

		memcpy(&tl, in + L->off_text_len, sizeof(tl));
		if ((sv & DESC_ID_MASK) == id &&
		    (state == DESC_COMMITTED || state == DESC_FINALIZED) &&
		    (t = block(g, get64(d + L->off_text_lpos + L->off_begin),
			       get64(d + L->off_text_lpos + L->off_next), &n)))
			record(o, get64(in + L->off_ts), t, tl < n ? tl : n);
		if (id == g->head)
			break;
		id = (id + 1) & DESC_ID_MASK;
	}
}

static int read_ring(kmsg_read_fn read, void *ctx, const struct layout *L,
		     struct ring *g)
{
	unsigned char rb[2 * KMSG_STRUCT_MAX + 16];
	uint64_t dr = L->off_desc_ring, tr = L->off_text_ring;
	uint32_t cbits, sbits;
	uint64_t prb;
	int r;

	if (read(ctx, L->prb, &prb, sizeof(prb)) < 0 ||
	    read(ctx, prb, rb, sizeof(rb)) < 0)
		return -EIO;
	memcpy(&cbits, rb + dr + L->off_count_bits, sizeof(cbits));
	memcpy(&sbits, rb + tr + L->off_size_bits, sizeof(sbits));
	if (cbits > KMSG_DESC_BITS_MAX || sbits > KMSG_DATA_BITS_MAX ||
	    sbits < 3 ||
	    (UINT64_C(1) << cbits) * (L->size_desc + L->size_info) >
		    KMSG_DESCS_MAX)
		return -EPROTO;
	g->ndesc = UINT64_C(1) << cbits;
	g->dsize = UINT64_C(1) << sbits;
	g->size_bits = sbits;
	g->head = get64(rb + dr + L->off_head) & DESC_ID_MASK;
	g->tail = get64(rb + dr + L->off_tail) & DESC_ID_MASK;
	r = read_new(read, ctx, get64(rb + dr + L->off_descs),
		     g->ndesc * L->size_desc, &g->descs);
	if (!r)
		r = read_new(read, ctx, get64(rb + dr + L->off_infos),
			     g->ndesc * L->size_info, &g->infos);
	if (!r)
		r = read_new(read, ctx, get64(rb + tr + L->off_data), g->dsize,
			     &g->data);
	return r;
}

int kmsg_read(kmsg_read_fn read, void *ctx, uint64_t vmcoreinfo_data,
	      char **ret, size_t *ret_len)
{
	char info[VMCOREINFO_BYTES + 1];
	struct layout L;
	struct ring g = { 0 };
	struct out o = { 0 };
	uint64_t p;
	int r;

	if (read(ctx, vmcoreinfo_data, &p, sizeof(p)) < 0 ||
	    read(ctx, p, info, VMCOREINFO_BYTES) < 0)
		return -EIO;
	info[VMCOREINFO_BYTES] = '\0';
	r = parse_layout(info, &L);
	if (!r)
		r = read_ring(read, ctx, &L, &g);
	if (!r) {
		put(&o, "", 0);
		walk(&L, &g, &o);
		r = o.err;
	}
	free(g.descs);
	free(g.infos);
	free(g.data);
	if (r < 0) {
		free(o.s);
		return r;
	}
	*ret = o.s;
	*ret_len = o.len;
	return 0;
}
