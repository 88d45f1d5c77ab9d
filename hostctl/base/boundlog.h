/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A bounded log of whole lines from an untrusted guest. The file is cut
 * into parts (events.jsonl: one part per scenario); of each part it keeps
 * the first lines up to the head's bound, on disk as they come, and a
 * rolling tail of the last lines in memory, written when the part ends
 * after a line that says how many bytes were cut. hostctl's memory and
 * the file's size thus stay bounded whatever the guest sends.
 *
 * A stream log (boundlog_open_stream(): a VM's console) is one part fed
 * with bytes rather than lines, and is always current on disk: once its
 * head (half the bound) is full, each line also goes to the file after the
 * head, and when that tail on disk outgrows half the bound, the file is
 * cut back to its head and gets the mark and the in-memory tail (a
 * quarter of the bound) again. The file thus never exceeds the bound (and
 * the mark's line), readers may read it at any time, and what it says was
 * cut is exact after each rewrite and at the end.
 *
 * A write that fails (a full disk: ENOSPC, a file size limit: EFBIG) is
 * kept (boundlog_error()), every later call fails with it, and the file is
 * cut back to its last complete line: no line is ever half there.
 */
#ifndef VLALAB_HOSTCTL_BOUNDLOG_H
#define VLALAB_HOSTCTL_BOUNDLOG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* How the cut is marked in the file. */
enum boundlog_mark {
	/* {"vm":"vmN","host":"cut","bytes":N}: a host line, which readers
	 * of events.jsonl skip as they skip every line without "ev"; the
	 * VM is the one boundlog_vm_line() named last ("vm" left out
	 * when none was). */
	BOUNDLOG_MARK_JSON,
	/* [vlalab: N bytes cut] */
	BOUNDLOG_MARK_TEXT,
};

/* The default bound of one part, in MiB (hostctl run --events-max-mb). */
#define BOUNDLOG_MAX_MB_DEFAULT 64
#define BOUNDLOG_MAX_MB_MAX 65536
/* Of a part's bound, the tail takes a quarter (held in memory). */
#define BOUNDLOG_TAIL_SHARE 4
/* A stream's line longer than this is split (the pieces are lines). */
#define BOUNDLOG_STREAM_LINE 4096
/* The smallest bound of a stream log. */
#define BOUNDLOG_STREAM_MIN (16 * BOUNDLOG_STREAM_LINE)

/* A VM's label in events.jsonl ("vm12"), with its NUL, at most. */
#define BOUNDLOG_VM_MAX 32

struct boundlog {
	int fd;
	char path[PATH_MAX];
	enum boundlog_mark mark;
	uint64_t head_max, tail_max; /* bytes of a part: on disk, in memory */
	uint64_t head; /* bytes of this part written so far */
	uint64_t cut; /* bytes of this part left out so far */
	char *ring; /* the tail: tail_max bytes, allocated when needed */
	size_t ring_start, ring_len;
	off_t size; /* bytes written to the file */
	off_t good; /* its size after its last complete line */
	int err; /* the first write error, or 0 */
	/* A stream log: the head's end in the file, the tail's bytes on
	 * disk after it, the cut its mark on disk says, the line so far. */
	bool stream, tailing;
	off_t head_end;
	uint64_t disk_tail, disk_cut;
	size_t pend_len;
	char pend[BOUNDLOG_STREAM_LINE];
	/*
	 * Where the file's last whole line ends, whoever wrote it: &good,
	 * or with another log on the file (boundlog_open_more()) the first
	 * log's shared_good, which both update after each line.
	 */
	off_t *good_at, shared_good;
	/* The VM boundlog_vm_line() named last, for the JSON mark, or "". */
	char vm[BOUNDLOG_VM_MAX];
};

/*
 * Create (truncate) @path as a log whose parts keep at most @max bytes
 * each (@max >= 4096). 0, or the negative errno of open(2).
 */
int boundlog_open(struct boundlog *b, const char *path, uint64_t max,
		  enum boundlog_mark mark);

/*
 * A second log of @first's file, with its own parts (its lines are
 * appended as they come, in any order with @first's): each lane of
 * hostctl run -j has its own in events.jsonl. A failed write still cuts
 * the file back to its last whole line, whichever log wrote that.
 * 0, or the negative errno of open(2).
 */
int boundlog_open_more(struct boundlog *b, struct boundlog *first);

/*
 * Create (truncate) @path as a stream log of one part of at most @max
 * bytes (@max >= BOUNDLOG_STREAM_MIN), marked in text. 0, or the
 * negative errno of open(2).
 */
int boundlog_open_stream(struct boundlog *b, const char *path, uint64_t max);

/*
 * Append @len bytes of a stream log: each line as it ends (a '\n', or
 * BOUNDLOG_STREAM_LINE bytes without one). 0, or the kept write error.
 */
int boundlog_bytes(struct boundlog *b, const char *buf, size_t len);

/*
 * Write a stream log's unfinished line as a line (its source ended, or
 * readers are about to read). 0, or the kept write error.
 */
int boundlog_flush(struct boundlog *b);

/* The bytes the current part has left out so far. */
uint64_t boundlog_cut(const struct boundlog *b);

/*
 * Append @line (@len bytes, without its '\n') and a '\n' to the current
 * part, or to its tail when its head is full. 0, or the kept write error.
 */
int boundlog_line(struct boundlog *b, const char *line, size_t len);

/*
 * The start of every events.jsonl line of VM @vm (a label such as "vm3",
 * of at most BOUNDLOG_VM_MAX - 1 bytes of [a-z0-9]): {"vm":"vm3", into
 * @buf. Its length, or -ENAMETOOLONG when @buf is too small.
 */
int boundlog_vm_tag(char *buf, size_t len, const char *vm);

/*
 * boundlog_line() of the JSON object @line (@len bytes, possibly with
 * white space before its '{'; a guest's line that the protocol's decoder
 * accepted, which has no "vm" member) with "vm":@vm as its first member:
 * every line of events.jsonl names its VM, so that the lines of several
 * VMs at once stay apart. 0, -EINVAL when @line is not an object, -ENOMEM,
 * or the kept write error.
 */
int boundlog_vm_line(struct boundlog *b, const char *vm, const char *line,
		     size_t len);

/*
 * End the current part: write the cut mark, if anything was cut, and the
 * tail; the next line starts a new part. @ret_cut, when not NULL, gets
 * the bytes the part left out (also on an error). 0, or the kept error.
 */
int boundlog_part_end(struct boundlog *b, uint64_t *ret_cut);

/* The kept write error, or 0. */
int boundlog_error(const struct boundlog *b);

/* End the part and close the file. 0, or the kept (or close's) error. */
int boundlog_close(struct boundlog *b);

#endif
