/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Call traces to file:line, in-process. The console text comes from the
 * guest, so it is data only: each line is matched against a strict frame
 * grammar, and a frame that fits is resolved with elfutils' libdwfl against
 * the build's vmlinux and .ko files; every other byte is copied as it is.
 * Nothing here runs a program or hands guest text to an interpreter.
 * docs/crashes.md ("Post-mortem bundles") says what is resolved.
 */
#ifndef VLALAB_SYMBOLIZE_H
#define VLALAB_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The longest symbol and module names a frame may carry (the kernel's
 * KSYM_NAME_LEN is 512 in 6.1, MODULE_NAME_LEN 56 on 64-bit). */
#define SYM_NAME_MAX 511
#define SYM_MODULE_MAX 55
/* A line longer than this is copied, not parsed. */
#define SYM_LINE_MAX 4096
/* Frames resolved per call of sym_decode(); later ones are copied. */
#define SYM_FRAMES_MAX 4096
/* Inlined callers listed per frame, innermost first. */
#define SYM_INLINE_MAX 16

/*
 * One frame of a call-trace line, as the kernel prints it:
 *
 *   PREFIX [SEG:]NAME+0xOFF/0xSIZE [ [MODULE[ BUILDID]]]
 *
 * PREFIX is whatever comes before (a timestamp, "RIP: ", "? "), never
 * looked at; the frame is the last word before the optional module, after
 * a blank or at the line's start. NAME is 1 to SYM_NAME_MAX of
 * [A-Za-z0-9_.$], OFF and SIZE 1 to 16 hex digits, SEG 4 hex digits (a RIP:
 * line's code segment), MODULE 1 to SYM_MODULE_MAX of [A-Za-z0-9_-],
 * BUILDID 1 to 64 hex digits.
 */
struct sym_frame {
	size_t start, end; /* the frame's bytes in the line: [start, end) */
	char name[SYM_NAME_MAX + 1];
	uint64_t offset, size;
	char module[SYM_MODULE_MAX + 1]; /* "": vmlinux */
	bool exact; /* a RIP (SEG: given): the address itself, not a return */
};

/*
 * Parse one line (@len bytes, no '\n') against the grammar above. Pure.
 * Returns 0 and fills @ret, or -EINVAL when the line is not a frame.
 */
int sym_parse_frame(const char *line, size_t len, struct sym_frame *ret);

struct sym_stats {
	size_t frames; /* lines that fit the grammar */
	size_t located; /* of them, resolved to file:line */
	size_t symbol_only; /* found in a symbol table without line info */
	size_t unknown; /* no such symbol, module, or offset past its end */
};

struct sym_ctx;

/*
 * Open @vmlinux and, below @modules_dir (an INSTALL_MOD_PATH tree, or
 * NULL), the .ko files that frames name. A .ko without DWARF (the staged
 * modules are stripped) takes it from the .ko of the same name and GNU
 * build ID below the object tree, which is vmlinux's compilation directory
 * (DW_AT_comp_dir) unless sym_set_objdir() says otherwise. File names that
 * start with @strip + "/" (the source tree, or NULL), or else with the
 * object tree's, are shown relative to it. 0 or a negative errno
 * (-ENOENT: @vmlinux cannot be read; -EINVAL: it is not an ELF file
 * libdwfl takes).
 */
int sym_open(const char *vmlinux, const char *modules_dir, const char *strip,
	     struct sym_ctx **ret);
/* Look for whole .ko files below @dir instead. 0 or -ENOMEM. */
int sym_set_objdir(struct sym_ctx *c, const char *dir);
void sym_close(struct sym_ctx *c);

/*
 * Copy @text (@len bytes, console lines) to @out, with each frame that
 * resolves shown as "NAME+0xOFF/0xSIZE (file.c:123)" in its place and, for
 * code inlined there, one line "PREFIX INLINED (file.c:45) (inlined)" before
 * it per inlined function, innermost first. Lines that are not frames, and
 * frames that do not resolve, are copied byte for byte. Return addresses
 * (every frame but a RIP's) are looked up one byte back, so that the line
 * is the call's. Counts go to @ret_stats (may be NULL). 0 or -EIO (@out).
 */
int sym_decode(struct sym_ctx *c, const char *text, size_t len, FILE *out,
	       struct sym_stats *ret_stats);

#endif
