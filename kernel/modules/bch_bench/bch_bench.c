// SPDX-License-Identifier: GPL-2.0-only
/*
 * bch_bench: time the kernel's own BCH encoder, for before/after
 * comparisons of lib/bch.c (issue 15).
 *
 * It encodes BCH_BENCH_BYTES of a fixed pseudo-random pattern in 512-byte
 * blocks with bch_init(13, 4, 0, false), the parameters of the seed's
 * published table, and times the loop with ktime_get_ns(). Each read of
 * <debugfs>/bch_bench/encode runs the loop once and returns
 * "blocks N bytes N ns N\n". The module holds no copy of lib/bch: it calls
 * the exported bch_encode(), so it measures whatever the kernel was built
 * with.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bch.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/prandom.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#define BCH_BENCH_M 13
#define BCH_BENCH_T 4
#define BCH_BENCH_BLOCK 512
#define BCH_BENCH_BYTES (4 * 1024 * 1024)
#define BCH_BENCH_BLOCKS (BCH_BENCH_BYTES / BCH_BENCH_BLOCK)

static struct bch_control *bench_bch;
static u8 *bench_data;
static u8 *bench_ecc;
static struct dentry *bench_dir;
static DEFINE_MUTEX(bench_lock);

/* One pass over the data: the elapsed time in ns. */
static u64 bench_encode_all(void)
{
	u64 start, end;
	unsigned int i;

	start = ktime_get_ns();
	for (i = 0; i < BCH_BENCH_BLOCKS; i++) {
		memset(bench_ecc, 0, bench_bch->ecc_bytes);
		bch_encode(bench_bch, bench_data + i * BCH_BENCH_BLOCK,
			   BCH_BENCH_BLOCK, bench_ecc);
	}
	end = ktime_get_ns();
	return end - start;
}

static ssize_t bench_encode_read(struct file *file, char __user *ubuf,
				 size_t count, loff_t *ppos)
{
	char buf[96];
	int len;
	u64 ns;

	/* Only a read from the start runs the loop; the rest returns EOF. */
	if (*ppos)
		return 0;
	mutex_lock(&bench_lock);
	ns = bench_encode_all();
	mutex_unlock(&bench_lock);
	len = scnprintf(buf, sizeof(buf), "blocks %u bytes %u ns %llu\n",
			BCH_BENCH_BLOCKS, BCH_BENCH_BYTES, ns);
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations bench_encode_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = bench_encode_read,
	.llseek = default_llseek,
};

static int __init bch_bench_init(void)
{
	struct rnd_state rnd;

	bench_bch = bch_init(BCH_BENCH_M, BCH_BENCH_T, 0, false);
	if (!bench_bch)
		return -EINVAL;
	bench_data = vmalloc(BCH_BENCH_BYTES);
	bench_ecc = kzalloc(bench_bch->ecc_bytes, GFP_KERNEL);
	if (!bench_data || !bench_ecc)
		goto out_free;
	/* A fixed seed: every kernel encodes the same bytes. */
	prandom_seed_state(&rnd, 0x766c616c6162ULL);
	prandom_bytes_state(&rnd, bench_data, BCH_BENCH_BYTES);
	bench_dir = debugfs_create_dir("bch_bench", NULL);
	debugfs_create_file("encode", 0400, bench_dir, NULL,
			    &bench_encode_fops);
	pr_info("m=%d t=%d, %u blocks of %u bytes\n", BCH_BENCH_M,
		BCH_BENCH_T, BCH_BENCH_BLOCKS, BCH_BENCH_BLOCK);
	return 0;

out_free:
	kfree(bench_ecc);
	vfree(bench_data);
	bch_free(bench_bch);
	return -ENOMEM;
}

static void __exit bch_bench_exit(void)
{
	debugfs_remove_recursive(bench_dir);
	kfree(bench_ecc);
	vfree(bench_data);
	bch_free(bench_bch);
}

module_init(bch_bench_init);
module_exit(bch_bench_exit);

MODULE_DESCRIPTION("Time the kernel's BCH encoder over 4 MiB of 512-byte blocks");
MODULE_LICENSE("GPL");
