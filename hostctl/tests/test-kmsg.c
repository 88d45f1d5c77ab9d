// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of hostctl/crash/kmsg.c on a synthetic guest memory laid out
 * as 6.12's printk ring buffer on x86_64: VMCOREINFO found through its
 * pointer, records in order with the console's prefix, a multi-line
 * record, a block that wraps to the start of the data ring, a reusable
 * and a stale descriptor left out, control bytes shown as '?', and the
 * refusals: a VMCOREINFO without a needed key, a ring too big, a failed
 * read. And the System.map lookup.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crash/kmsg.h"
#include "tap.h"

#define VCI_PTR 0xffffffff82000000ull
#define VCI_PAGE 0xffff888000100000ull
#define PRB_PTR 0xffffffff81000000ull
#define PRB 0xffffffff81001000ull
#define DESCS 0xffffffff81010000ull
#define INFOS 0xffffffff81020000ull
#define DATA 0xffffffff81030000ull

#define NDESC 4
#define DSIZE 64
#define SZ_DESC 24
#define SZ_INFO 88

struct region {
	uint64_t addr;
	unsigned char b[4096];
	size_t len;
};

struct mem {
	struct region r[7];
	int fail_at; /* the nth read fails, 0: none */
	int reads;
};

static int mem_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct mem *m = ctx;

	if (++m->reads == m->fail_at)
		return -EIO;
	for (size_t i = 0; i < sizeof(m->r) / sizeof(m->r[0]); i++) {
		struct region *r = &m->r[i];

		if (addr >= r->addr && addr + len <= r->addr + sizeof(r->b)) {
			memcpy(buf, r->b + (addr - r->addr), len);
			return 0;
		}
	}
	return -EFAULT;
}

static void put64(unsigned char *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static const char vmcoreinfo[] = "OSRELEASE=6.12.118\n"
				 "PAGESIZE=4096\n"
				 "SYMBOL(prb)=ffffffff81000000\n"
				 "SIZE(printk_ringbuffer)=88\n"
				 "OFFSET(printk_ringbuffer.desc_ring)=0\n"
				 "OFFSET(printk_ringbuffer.text_data_ring)=48\n"
				 "OFFSET(printk_ringbuffer.fail)=80\n"
				 "SIZE(prb_desc_ring)=48\n"
				 "OFFSET(prb_desc_ring.count_bits)=0\n"
				 "OFFSET(prb_desc_ring.descs)=8\n"
				 "OFFSET(prb_desc_ring.infos)=16\n"
				 "OFFSET(prb_desc_ring.head_id)=24\n"
				 "OFFSET(prb_desc_ring.tail_id)=32\n"
				 "SIZE(prb_desc)=24\n"
				 "OFFSET(prb_desc.state_var)=0\n"
				 "OFFSET(prb_desc.text_blk_lpos)=8\n"
				 "SIZE(prb_data_blk_lpos)=16\n"
				 "OFFSET(prb_data_blk_lpos.begin)=0\n"
				 "OFFSET(prb_data_blk_lpos.next)=8\n"
				 "SIZE(printk_info)=88\n"
				 "OFFSET(printk_info.seq)=0\n"
				 "OFFSET(printk_info.ts_nsec)=8\n"
				 "OFFSET(printk_info.text_len)=16\n"
				 "SIZE(prb_data_ring)=32\n"
				 "OFFSET(prb_data_ring.size_bits)=0\n"
				 "OFFSET(prb_data_ring.data)=8\n";

/* One record: descriptor @id in state @state, its text at [begin, next). */
static void rec(struct mem *m, uint64_t id, uint64_t state, uint64_t begin,
		uint64_t next, uint64_t ts, const char *text)
{
	unsigned char *d = m->r[4].b + (id % NDESC) * SZ_DESC;
	unsigned char *in = m->r[5].b + (id % NDESC) * SZ_INFO;
	uint16_t tl = (uint16_t)strlen(text);
	uint64_t at = begin / DSIZE == (next - 1) / DSIZE ? begin % DSIZE : 0;

	put64(d, id | state << 62);
	put64(d + 8, begin);
	put64(d + 16, next);
	put64(in + 8, ts);
	memcpy(in + 16, &tl, sizeof(tl));
	put64(m->r[6].b + at, id);
	memcpy(m->r[6].b + at + 8, text, tl);
}

static void build(struct mem *m, const char *info)
{
	const uint64_t addrs[] = { VCI_PTR, VCI_PAGE, PRB_PTR, PRB,
				   DESCS,   INFOS,    DATA };

	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < 7; i++)
		m->r[i].addr = addrs[i];
	put64(m->r[0].b, VCI_PAGE);
	memcpy(m->r[1].b, info, strlen(info));
	put64(m->r[2].b, PRB);
	m->r[3].b[0] = 2; /* count_bits: 4 descriptors */
	put64(m->r[3].b + 8, DESCS);
	put64(m->r[3].b + 16, INFOS);
	put64(m->r[3].b + 24, 8); /* head_id */
	put64(m->r[3].b + 32, 5); /* tail_id */
	m->r[3].b[48] = 6; /* size_bits: 64 bytes of data */
	put64(m->r[3].b + 56, DATA);
	/* ids 5..8 in slots 1, 2, 3, 0 */
	rec(m, 5, 2, 80, 96, 1000000000, "first");
	rec(m, 6, 2, 96, 120, 2500000000, "two\nlines");
	/* slot 3 still holds id 3, not 7: stale, left out */
	rec(m, 3, 2, 120, 128, 2600000000, "old");
	/* wraps: data at the start of the ring; committed, not final */
	rec(m, 8, 1, 120, 144, 3000001000, "wrap\001x");
}

static void test_walk(void)
{
	struct mem m;
	char *log = NULL;
	size_t len = 0;
	int r;

	build(&m, vmcoreinfo);
	r = kmsg_read(mem_read, &m, VCI_PTR, &log, &len);
	is_int(r, 0, "the ring is read");
	is_str(log ? log : "",
	       "[    1.000000] first\n"
	       "[    2.500000] two\n"
	       "[    2.500000] lines\n"
	       "[    3.000001] wrap?x\n",
	       "records in order, each line prefixed, stale and reusable out");
	is_int(len, log ? strlen(log) : 0, "its length");
	free(log);
	log = NULL;
	put64(m.r[4].b + SZ_DESC, 5 | 3ull << 62);
	r = kmsg_read(mem_read, &m, VCI_PTR, &log, &len);
	ok(r == 0 && log && strncmp(log, "[    2.500000] two\n", 19) == 0,
	   "a reusable descriptor is left out");
	free(log);
}

static void test_refusals(void)
{
	struct mem m;
	char *log = NULL, info[sizeof(vmcoreinfo)];
	size_t len = 0;

	memcpy(info, vmcoreinfo, sizeof(info));
	memcpy(strstr(info, "SIZE(prb_desc)="), "SIZE(prb_xxxx)=", 15);
	build(&m, info);
	is_int(kmsg_read(mem_read, &m, VCI_PTR, &log, &len), -EPROTO,
	       "a VMCOREINFO without SIZE(prb_desc)");
	build(&m, vmcoreinfo);
	m.r[3].b[48] = 30;
	is_int(kmsg_read(mem_read, &m, VCI_PTR, &log, &len), -EPROTO,
	       "a data ring of 1 GiB");
	build(&m, vmcoreinfo);
	m.r[3].b[48] = 200;
	is_int(kmsg_read(mem_read, &m, VCI_PTR, &log, &len), -EPROTO,
	       "size_bits past a shift's width");
	build(&m, vmcoreinfo);
	m.r[3].b[0] = 40;
	is_int(kmsg_read(mem_read, &m, VCI_PTR, &log, &len), -EPROTO,
	       "2^40 descriptors");
	build(&m, vmcoreinfo);
	m.r[3].b[0] = 20;
	is_int(kmsg_read(mem_read, &m, VCI_PTR, &log, &len), -EPROTO,
	       "2^20 descriptors of 112 bytes: past 64 MiB");
	for (int i = 1; i <= 7; i++) {
		build(&m, vmcoreinfo);
		m.fail_at = i;
		okf(kmsg_read(mem_read, &m, VCI_PTR, &log, &len) == -EIO,
		    "read %d fails: -EIO", i);
	}
}

static void test_map(void)
{
	char path[] = "/tmp/test-kmsg-XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	uint64_t a = 0;

	if (!f) {
		ok(0, "a temporary System.map");
		return;
	}
	fputs("ffffffff81000000 T _text\n"
	      "ffffffff8244f380 B vmcoreinfo_data\n"
	      "ffffffff8244f388 B vmcoreinfo_data_safecopy\n",
	      f);
	fclose(f);
	is_int(kmsg_map_symbol(path, "vmcoreinfo_data", &a), 0, "found");
	ok(a == 0xffffffff8244f380ull, "its address");
	is_int(kmsg_map_symbol(path, "vmcoreinfo", &a), -ENOENT,
	       "a prefix is not the symbol");
	unlink(path);
	is_int(kmsg_map_symbol(path, "x", &a), -ENOENT, "no file: -ENOENT");
}

int main(void)
{
	test_walk();
	test_refusals();
	test_map();
	return tap_done();
}
