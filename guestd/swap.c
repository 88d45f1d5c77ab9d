// SPDX-License-Identifier: GPL-2.0-only
/*
 * Block devices for hibernation: the swap header mkswap writes (layout of
 * union swap_header in the kernel's include/linux/swap.h), its signature,
 * and a device's MAJ:MIN from sysfs. No udev in the guest, so names are
 * checked here and paths are built from them and nothing else.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guestd.h"

/* The info half of union swap_header (include/linux/swap.h). */
struct swap_info_v1 {
	char bootbits[1024];
	uint32_t version;
	uint32_t last_page;
	uint32_t nr_badpages;
	unsigned char sws_uuid[16];
	unsigned char sws_volume[16];
};

int swap_header_build(void *page, size_t page_size, uint64_t dev_bytes,
		      const uint8_t uuid[16])
{
	struct swap_info_v1 info;
	uint64_t pages;

	if (page_size < 4096 || page_size > 65536 ||
	    (page_size & (page_size - 1)))
		return -EINVAL;
	pages = dev_bytes / page_size;
	if (pages < 10)
		return -EINVAL;
	/* The header holds a 32-bit page index. */
	if (pages - 1 > UINT32_MAX)
		pages = (uint64_t)UINT32_MAX + 1;
	memset(page, 0, page_size);
	memset(&info, 0, sizeof(info));
	info.version = 1;
	info.last_page = (uint32_t)(pages - 1);
	info.nr_badpages = 0;
	memcpy(info.sws_uuid, uuid, sizeof(info.sws_uuid));
	memcpy(page, &info, sizeof(info));
	memcpy((char *)page + page_size - SWAP_SIG_LEN, "SWAPSPACE2",
	       SWAP_SIG_LEN);
	return 0;
}

void swap_signature(const void *page, size_t page_size, char *buf, size_t len)
{
	const char *sig = (const char *)page + page_size - SWAP_SIG_LEN;
	size_t n = SWAP_SIG_LEN;

	/* "S1SUSPEND" and friends are NUL-padded. */
	while (n > 0 && sig[n - 1] == '\0')
		n--;
	util_escape(buf, len, sig, n, 0);
}

bool swap_dev_name_ok(const char *name)
{
	return stepspec_device_name_ok(name);
}

int swap_dev_majmin(const char *sys_dir, const char *name, char *buf,
		    size_t len)
{
	char path[512];
	size_t n;
	char *text;
	int r;

	if (!swap_dev_name_ok(name))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/block/%s/dev", sys_dir, name);
	r = fileio_read(path, 64, &text, &n, NULL);
	if (r < 0)
		return r;
	while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == ' '))
		text[--n] = '\0';
	if (n == 0 || n >= len || strspn(text, "0123456789:") != n ||
	    !strchr(text, ':')) {
		free(text);
		return -EINVAL;
	}
	memcpy(buf, text, n + 1);
	free(text);
	return 0;
}
