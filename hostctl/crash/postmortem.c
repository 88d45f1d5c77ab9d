// SPDX-License-Identifier: GPL-2.0-only
/*
 * Post-mortem bundles. Every file name here is fixed or made from the VM's
 * label and a counter: nothing the guest sent names a file or a command.
 * The guest's console text is data only: copied into files, and its
 * call-trace frames parsed and resolved in-process (symbolize.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libvirt/libvirt.h>

#include "base/boundlog.h"
#include "crash/kmsg.h"
#include "crash/postmortem.h"
#include "crash/symbolize.h"
#include "results/rundir.h"

/* Events kept in a bundle: the tail of this VM's events. */
#define PM_EVENTS_MAX 200
/* Of events.jsonl, the last bytes read for them: all VMs' lines. */
#define PM_EVENTS_READ (4 << 20)

static const struct {
	const char *word;
	int format;
	const char *file;
} pm_formats[] = {
	{ "kdump-zlib", VIR_DOMAIN_CORE_DUMP_FORMAT_KDUMP_ZLIB,
	  RUNDIR_BUNDLE_KDUMP },
	{ "kdump-lzo", VIR_DOMAIN_CORE_DUMP_FORMAT_KDUMP_LZO,
	  RUNDIR_BUNDLE_KDUMP },
	{ "kdump-snappy", VIR_DOMAIN_CORE_DUMP_FORMAT_KDUMP_SNAPPY,
	  RUNDIR_BUNDLE_KDUMP },
	{ "elf", VIR_DOMAIN_CORE_DUMP_FORMAT_RAW, RUNDIR_BUNDLE_ELF },
};

static int pm_format_index(const char *word)
{
	for (size_t i = 0; i < sizeof(pm_formats) / sizeof(pm_formats[0]); i++)
		if (strcmp(pm_formats[i].word, word ? word : "kdump-zlib") == 0)
			return (int)i;
	return -EINVAL;
}

int pm_dump_format_check(const char *word)
{
	return pm_format_index(word) < 0 ? -EINVAL : 0;
}

static int pm_peek(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return vm_peek(ctx, addr, buf, len);
}

int pm_kmsg(const struct pm_opts *o, struct vm *vm, char **ret, size_t *ret_len)
{
	const char *slash = o->vmlinux ? strrchr(o->vmlinux, '/') : NULL;
	char map[4096];
	uint64_t sym;
	int r;

	if (!o->vmlinux)
		return -ENOENT;
	if (snprintf(map, sizeof(map), "%.*sSystem.map",
		     slash ? (int)(slash - o->vmlinux + 1) : 0,
		     o->vmlinux) >= (int)sizeof(map))
		return -ENAMETOOLONG;
	r = kmsg_map_symbol(map, "vmcoreinfo_data", &sym);
	if (r < 0)
		return r;
	return kmsg_read(pm_peek, vm, sym, ret, ret_len);
}

int pm_read_tail(const char *path, size_t max, char **ret, size_t *ret_len)
{
	struct stat st;
	size_t len;
	ssize_t n;
	char *buf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		close(fd);
		return -errno;
	}
	len = (size_t)st.st_size > max ? max : (size_t)st.st_size;
	buf = malloc(len + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	n = pread(fd, buf, len, st.st_size - len);
	close(fd);
	if (n < 0) {
		free(buf);
		return -EIO;
	}
	buf[n] = '\0';
	*ret = buf;
	*ret_len = n;
	return 0;
}

static int write_text(const char *dir, const char *name, const char *text,
		      size_t len)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	fwrite(text, 1, len, f);
	return fclose(f) == 0 ? 0 : -EIO;
}

/*
 * The last PM_EVENTS_MAX lines of VM @label in the run's events.jsonl,
 * found by the VM each line names (boundlog_vm_tag()): other VMs' lines
 * may come before, between and after them.
 */
static void copy_events(const struct pm_opts *o, const char *label,
			const char *dir)
{
	char path[PATH_MAX + 32], tag[64];
	char *buf, *out, *start, *p, *nl;
	size_t len, total = 0, seen = 0, olen = 0;
	int tlen;

	tlen = boundlog_vm_tag(tag, sizeof(tag), label);
	if (tlen < 0)
		return;
	snprintf(path, sizeof(path), "%s/" RUNDIR_EVENTS, o->run_dir);
	if (pm_read_tail(path, PM_EVENTS_READ, &buf, &len) < 0)
		return;
	out = malloc(len + 1);
	if (!out) {
		free(buf);
		return;
	}
	/* A tail read to its bound may start mid-line: that piece goes. */
	start = buf;
	if (len == PM_EVENTS_READ) {
		start = memchr(buf, '\n', len);
		start = start ? start + 1 : buf + len;
	}
	/* Twice over the whole lines: count this VM's, then copy the last. */
	for (int pass = 0; pass < 2; pass++) {
		for (p = start; p < buf + len; p = nl + 1) {
			nl = memchr(p, '\n', (size_t)(buf + len - p));
			if (!nl)
				break;
			if ((size_t)(nl - p) < (size_t)tlen ||
			    memcmp(p, tag, (size_t)tlen))
				continue;
			if (pass == 0) {
				total++;
			} else if (seen++ + PM_EVENTS_MAX >= total) {
				memcpy(out + olen, p, (size_t)(nl - p) + 1);
				olen += (size_t)(nl - p) + 1;
			}
		}
	}
	write_text(dir, RUNDIR_BUNDLE_EVENTS, out, olen);
	free(out);
	free(buf);
}

/*
 * stack.txt: @raw with its call-trace frames resolved in-process against
 * the build's vmlinux and the .ko files of its modules/ folder beside it
 * (symbolize.h); what came of it goes to @note. The guest's text is only
 * ever data here: parsed by a strict grammar, compared, copied.
 */
static void decode_stack(const struct pm_opts *o, const char *dir,
			 const char *raw, char *note, size_t len)
{
	char path[2 * PATH_MAX], mods[2 * PATH_MAX];
	struct sym_ctx *c = NULL;
	struct sym_stats st;
	const char *slash;
	FILE *f;
	int r;

	slash = strrchr(o->vmlinux, '/');
	if (slash)
		snprintf(mods, sizeof(mods), "%.*s/modules",
			 (int)(slash - o->vmlinux), o->vmlinux);
	else
		snprintf(mods, sizeof(mods), "modules");
	r = sym_open(o->vmlinux, mods, o->tree, &c);
	if (r < 0) {
		snprintf(note, len,
			 "no " RUNDIR_BUNDLE_STACK ": vmlinux '%s': %s\n",
			 o->vmlinux,
			 r == -EINVAL ? "not an ELF file" : strerror(-r));
		return;
	}
	snprintf(path, sizeof(path), "%s/" RUNDIR_BUNDLE_STACK, dir);
	f = fopen(path, "we");
	if (!f) {
		snprintf(note, len,
			 "no " RUNDIR_BUNDLE_STACK ": '%.2048s': %s\n", path,
			 strerror(errno));
		sym_close(c);
		return;
	}
	r = sym_decode(c, raw, strlen(raw), f, &st);
	if (fclose(f) != 0 || r < 0)
		snprintf(note, len,
			 RUNDIR_BUNDLE_STACK ": '%.2048s': write error\n",
			 path);
	else
		snprintf(note, len,
			 RUNDIR_BUNDLE_STACK
			 ": %zu frames: %zu with file:line, "
			 "%zu with a symbol only, %zu not found\n",
			 st.frames, st.located, st.symbol_only, st.unknown);
	sym_close(c);
}

/* Dump the guest into @dir; what happened goes to @note. */
static void dump_guest(const struct pm_opts *o, struct vm *vm, const char *dir,
		       char *note, size_t len)
{
	int fi = pm_format_index(o->dump_format);
	char path[2 * PATH_MAX], err[1024];
	uint64_t cap = o->dump_max_mb << 20;
	struct stat st;
	int r;

	if (!o->dump_max_mb) {
		snprintf(note, len, "no dump: --dump-max-mb 0\n");
		return;
	}
	if (fi < 0)
		fi = 0;
	/* An ELF dump holds every page: it cannot fit a smaller cap. */
	if (pm_formats[fi].format == VIR_DOMAIN_CORE_DUMP_FORMAT_RAW &&
	    o->memory_mib > o->dump_max_mb) {
		snprintf(note, len,
			 "no dump: an ELF dump of %" PRIu64
			 " MiB of guest memory is over --dump-max-mb %" PRIu64
			 "; use --dump-format kdump-zlib or a larger cap\n",
			 o->memory_mib, o->dump_max_mb);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, pm_formats[fi].file);
	r = vm_dump(vm, path, pm_formats[fi].format, err, sizeof(err));
	if (r < 0) {
		unlink(path);
		snprintf(note, len, "no dump: %s\n", err);
		return;
	}
	if (stat(path, &st) == 0 && (uint64_t)st.st_size > cap) {
		unlink(path);
		snprintf(note, len,
			 "dump removed: %jd MiB is over --dump-max-mb %" PRIu64
			 "\n",
			 (intmax_t)(st.st_size >> 20), o->dump_max_mb);
		return;
	}
	snprintf(note, len,
		 "%s: %s, %jd MiB (memory only)\n"
		 "open it with: crash %s %s\n"
		 "          or: drgn -c %s -s %s\n",
		 pm_formats[fi].file, pm_formats[fi].word,
		 (intmax_t)(st.st_size >> 20),
		 o->vmlinux ? o->vmlinux : "VMLINUX", pm_formats[fi].file,
		 pm_formats[fi].file, o->vmlinux ? o->vmlinux : "VMLINUX");
}

int pm_bundle(const struct pm_opts *o, struct vm *vm, const char *label,
	      unsigned int seq, const char *console, const char *reports,
	      const char *raw, char *ret_rel, size_t len)
{
	char dir[PATH_MAX + 64], note[2048], more[PATH_MAX + 128] = "";
	size_t clen;
	char *buf;

	snprintf(ret_rel, len, RUNDIR_BUNDLE, label, seq);
	snprintf(dir, sizeof(dir), "%s/%s", o->run_dir, ret_rel);
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (pm_read_tail(console, 64 << 20, &buf, &clen) == 0) {
		write_text(dir, RUNDIR_BUNDLE_CONSOLE, buf, clen);
		free(buf);
	}
	write_text(dir, RUNDIR_BUNDLE_REPORTS, reports, strlen(reports));
	write_text(dir, RUNDIR_BUNDLE_REPORTS_RAW, raw, strlen(raw));
	copy_events(o, label, dir);
	dump_guest(o, vm, dir, note, sizeof(note));
	if (!o->vmlinux)
		snprintf(more, sizeof(more),
			 "no " RUNDIR_BUNDLE_STACK ": no vmlinux known\n");
	else
		decode_stack(o, dir, raw, more, sizeof(more));
	strncat(note, more, sizeof(note) - strlen(note) - 1);
	write_text(dir, RUNDIR_BUNDLE_DUMP_NOTE, note, strlen(note));
	return 0;
}
