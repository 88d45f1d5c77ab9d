/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kbuild internals. The parsers (kconfig.c, series.c), the cache key (key.c),
 * the manifest (manifest.c) and the warning ledger (ledger.c) are pure and
 * unit-tested; spawn.c, util.c, tree.c, has.c, image.c (with imgtree.c and
 * hostfiles.c), and kbuild_run() (kbuild.c) with its stages (inputs.c,
 * cache.c, prepare.c, configure.c, make.c) touch the file system and run
 * programs.
 */
#ifndef VLALAB_KB_H
#define VLALAB_KB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include "kbuild.h"

/* ---- util.c ---- */
int kb_mkdir_p(const char *path, mode_t mode);
int kb_copy_file(const char *src, const char *dst);
/* snprintf into buf; -ENAMETOOLONG when it does not fit. */
int kb_path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
double kb_now(void);
/* Sorted names of the regular files in dir whose name ends with suffix. */
int kb_list_dir(const char *dir, const char *suffix, char ***ret_names,
		size_t *ret_n);
/* The same for the subfolders of dir (names not starting with '.'). */
int kb_list_subdirs(const char *dir, char ***ret_names, size_t *ret_n);
void kb_strv_free(char **v, size_t n);
/* Appends a copy of @s to the NULL-terminated @n strings of *v. */
int kb_strv_push(char ***v, size_t n, const char *s);
/* Grows the array *p to n elements of size bytes (at least one); false,
 * *p untouched, when out of memory. kb_grow(&v, n) for a typed v. */
bool kb_grow_array(void **p, size_t n, size_t size);
#define kb_grow(pp, n) kb_grow_array((void **)(pp), (n), sizeof(**(pp)))

/* ---- key.c ---- */
struct kb_blob {
	const char *name;
	const void *data;
	size_t len;
};

struct kb_key_input {
	/* The kernel line, hashed only when it is not the default (NULL or
	 * "6.1"), so that 6.1's keys stay what they were before lines. */
	const char *line;
	const char *source_version;
	const char *compiler;
	const char *flavour;
	struct kb_blob series;
	const struct kb_blob *patches;
	size_t npatches;
	const struct kb_blob *fragments;
	size_t nfragments;
	/* Patches of the series left out (--without-patch), hashed only when
	 * there are some, so that the usual keys stay what they were. */
	const char *const *without;
	size_t nwithout;
	/* kernel/evidence (what the manifest measures), hashed only when
	 * there is one. */
	struct kb_blob evidence;
	/* Our modules' files (extmod.c), hashed only when there are some. */
	const struct kb_blob *extmods;
	size_t nextmods;
};

int kb_sha256_hex(const void *data, size_t len, char ret_hex[65]);
int kb_sha256_file_hex(const char *path, char ret_hex[65]);
/* The build cache key: sha256 over every input, each framed by a tag and
 * its length so that no two input sets serialize alike. */
int kb_cache_key(const struct kb_key_input *in, char ret_hex[65]);

/* An incremental hash for image keys. */
struct kb_hash;
int kb_hash_new(struct kb_hash **ret);
int kb_hash_add(struct kb_hash *h, const char *tag, const void *data,
		size_t len);
int kb_hash_add_str(struct kb_hash *h, const char *tag, const char *s);
int kb_hash_final(struct kb_hash *h, char ret_hex[65]);
void kb_hash_free(struct kb_hash *h);

/* ---- line.c: the kernel lines (docs/kernel.md, "Lines") ---- */
struct kb_line {
	const char *name; /* "6.1" */
	const char *package; /* Debian's source package, for dpkg-query */
	const char *tarball; /* what the package installs */
};

/* The line named line (NULL: KBUILD_DEFAULT_LINE), or NULL if none is. */
const struct kb_line *kb_line_get(const char *line);
/* 6.1: the names it had before lines existed. */
bool kb_line_is_default(const struct kb_line *l);
/* The folders' and lock's name of a flavour on the line: "patched" on
 * the default line, "patched@6.12" on another. */
int kb_line_name(const struct kb_line *l, const char *flavour, char *buf,
		 size_t len);
/* The folder of the line's series file and own patches: kernel/patches
 * on the default line, kernel/patches/<line> on another. */
int kb_line_patches_dir(const struct kb_line *l, const char *kernel_dir,
			char *buf, size_t len);
/* Where a patch of a line's series is read: patches_dir/name, or when
 * there is none and shared_dir is not NULL (another line's: the patches
 * both lines take), shared_dir/name. */
int kb_line_patch_path(const char *patches_dir, const char *shared_dir,
		       const char *name, char *buf, size_t len);

/* ---- flavour.c: what a flavour is ---- */
/* patched and vanilla: the flavours without a folder of kernel/flavours/. */
bool kb_flavour_is_builtin(const char *f);

/* ---- extmod.c: kernel/modules/<name>/, built with M= ---- */
#define KB_EXTMOD_FILE_MAX (1024 * 1024)
#define KB_EXTMOD_STAGE "vlalab-modules" /* below the object tree */

struct kb_extmods {
	char **dirs; /* the modules' folder names, sorted */
	size_t ndirs;
	struct kb_blob *files; /* "<dir>/<file>", malloc'd name and data */
	size_t nfiles;
};

/* Reads kernel_dir/modules/ (none: no modules), the modules that flavour
 * builds: those without a `flavours` file and those whose file names it.
 * 0, -EINVAL with err set ("FILE:LINE: reason") for a bad `flavours` file,
 * or -errno. */
int kb_extmods_read(const char *kernel_dir, const char *flavour,
		    struct kb_extmods *ret, char *err, size_t errlen);
void kb_extmods_free(struct kb_extmods *m);
/* Writes the modules' files afresh below root/<dir>/. 0 or -errno. */
int kb_extmods_stage(const struct kb_extmods *m, const char *root);

/* ---- kconfig.c: .config, fragments, Kconfig, verification ---- */
enum kb_cfg_line {
	KB_CFG_OTHER, /* blank or a plain comment */
	KB_CFG_SET, /* CONFIG_X=v */
	KB_CFG_UNSET, /* # CONFIG_X is not set */
};

#define KB_SYM_MAX 128
#define KB_VAL_MAX 512

/* Classifies one line (no newline). For SET and UNSET, fills name (without
 * CONFIG_) and value ("n" for UNSET). -EINVAL for a line that looks like an
 * assignment but is malformed. */
int kb_config_line(const char *line, char name[KB_SYM_MAX],
		   char value[KB_VAL_MAX]);

struct kb_config_entry {
	char *name;
	char *value;
};

struct kb_config {
	struct kb_config_entry *v;
	size_t n;
};

/* A .config: last assignment of a name wins. */
int kb_config_parse(const char *text, struct kb_config *ret);
/* Value of name ("y", "m", "n" for is-not-set, a string with quotes...), NULL if absent. */
const char *kb_config_get(const struct kb_config *c, const char *name);
void kb_config_free(struct kb_config *c);

struct kb_want {
	char *name;
	char *value; /* "n" for "# CONFIG_X is not set" */
	unsigned line;
};

struct kb_fragment {
	char *file; /* as shown in messages: "configs/base.config" */
	struct kb_want *v;
	size_t n;
};

/* Parses a fragment. A malformed line fails with -EINVAL and *ret_line. */
int kb_fragment_parse(const char *file, const char *text,
		      struct kb_fragment *ret, unsigned *ret_line);
void kb_fragment_free(struct kb_fragment *f);

struct kb_mismatch {
	const char *file;
	unsigned line;
	const char *name;
	const char *want;
	const char *
		got; /* "n" when not set, "(absent)" when not in .config at all */
};

/* Every wanted value against the final config; mismatches in fragment and
 * line order. *ret is NULL when all match. */
int kb_config_verify(const struct kb_fragment *frags, size_t nfrags,
		     const struct kb_config *cfg, struct kb_mismatch **ret,
		     size_t *ret_n);

struct kb_kdep {
	char *file;
	unsigned line;
	char *kind; /* "depends on", "if" (enclosing block), "menu depends on" */
	char *expr;
};

struct kb_ksym {
	char *file; /* where "config NAME" is */
	unsigned line;
	bool has_prompt;
	struct kb_kdep *deps;
	size_t ndeps;
};

struct kb_ksyms {
	struct kb_ksym *v;
	size_t n;
};

/* Finds every definition of `config name` (or menuconfig) in one Kconfig
 * file's text and appends it, with its depends-on lines and the enclosing
 * if/menu conditions, to ret. */
int kb_kconfig_scan(const char *file, const char *text, const char *name,
		    struct kb_ksyms *ret);
void kb_ksyms_free(struct kb_ksyms *s);
/* Writes "A=y B=n" for the symbols in a Kconfig expression, valued from cfg. */
void kb_expr_values(const char *expr, const struct kb_config *cfg, char *buf,
		    size_t len);

/* ---- imgtree.c: the folders an image takes whole ---- */
struct kb_img_entry {
	char *rel; /* below the walked root, starting with '/' */
	char type; /* 'd', 'f' or 'l' */
	unsigned mode;
	char *target; /* symlink target */
	char *src; /* file on the host */
};

struct kb_img_tree {
	struct kb_img_entry *v;
	size_t n;
};

/* Lists root's contents sorted by path (parents before children); with
 * @modules, the staged modules' build and source links are left out. A
 * name with whitespace, which the spec format cannot carry, is -EINVAL. */
int kb_img_tree_read(const char *root, bool modules, struct kb_img_tree *ret);
void kb_img_tree_free(struct kb_img_tree *t);
/* Adds @t to the image key after @tag: each path, type and mode, a link's
 * target, a file's sha256. */
int kb_img_tree_hash(struct kb_hash *h, const char *tag,
		     const struct kb_img_tree *t);
/* The gen_init_cpio spec lines of @t, each path below @prefix. */
void kb_img_tree_spec(FILE *f, const char *prefix, const struct kb_img_tree *t);
/* A name the spec format cannot carry: it has a blank or a line break. */
bool kb_img_bad_name(const char *s);

/* ---- hostfiles.c: host programs in an image, with their libraries ---- */
/* Host files in the image: programs and their libraries, by guest path. */
struct kb_img_hostfiles {
	char **guest;
	char **src; /* the host file, symlinks resolved */
	size_t n;
};

/* Each program and its libraries, and guestd's libraries when @guestd is
 * set (guestd itself goes to /sbin/guestd in the spec). */
int kb_img_hostfiles_read(const struct kbuild_image_program *v, size_t n,
			  const char *guestd, struct kb_img_hostfiles *ret,
			  char *err, size_t errlen);
bool kb_img_hostfiles_has(const struct kb_img_hostfiles *h, const char *guest);
void kb_img_hostfiles_free(struct kb_img_hostfiles *h);
/* The files a dynamic program loads, from `ldd PROGRAM` output: the ELF
 * interpreter and every library, each as the absolute path the loader
 * resolved, in ldd's order, without the vDSO. "not a dynamic executable"
 * (a static program) is an empty list; a library "not found" or a line of
 * another shape is -EINVAL with err saying which. */
int kb_ldd_parse(const char *text, char ***ret_paths, size_t *ret_n, char *err,
		 size_t errlen);
/* Runs ldd on a trusted host program (an argv array, no shell) and parses
 * its output as above. */
int kb_program_libs(const char *program, char ***ret_paths, size_t *ret_n,
		    char *err, size_t errlen);

/* ---- series.c ---- */
struct kb_series_entry {
	char *name;
	unsigned line;
};

struct kb_series {
	struct kb_series_entry *v;
	size_t n;
};

/* One patch file name a line; '#' starts a comment line, blanks are
 * skipped. A name with '/' or whitespace, starting with '.', or listed
 * twice is an error: -EINVAL, with a message in err naming file:line. */
int kb_series_parse(const char *file, const char *text, struct kb_series *ret,
		    char *err, size_t errlen);
/* Checks the series against the *.patch files present in the folder: a
 * listed file that is missing or an unlisted .patch file is -EINVAL. */
int kb_series_check(const char *file, const struct kb_series *s,
		    char *const *present, size_t npresent, char *err,
		    size_t errlen);
/* The same for another line's series (docs/kernel.md, "Lines"): a listed
 * file may also be one of shared (kernel/patches/, what 6.1 takes too),
 * which need not all be listed. */
int kb_series_check_shared(const char *file, const struct kb_series *s,
			   char *const *present, size_t npresent,
			   char *const *shared, size_t nshared, char *err,
			   size_t errlen);
void kb_series_free(struct kb_series *s);
/* Leaves names out of s: each is a patch's file name or a prefix of exactly
 * one ("0001"); a repeat is harmless. The left-out names, in series order,
 * move to *ret_removed (an array the caller frees, with its strings). A
 * name that matches no patch or several is -EINVAL with err saying so and
 * listing the series; s is then unchanged. */
int kb_series_without(struct kb_series *s, const char *const *names, size_t n,
		      char ***ret_removed, size_t *ret_nremoved, char *err,
		      size_t errlen);
/* Length of the common prefix of two applied lists (same names and sha256). */
size_t kb_series_common_prefix(char *const *names_a, char *const *sums_a,
			       size_t na, char *const *names_b,
			       char *const *sums_b, size_t nb);

/* ---- manifest.c ---- */
struct kb_manifest_item {
	char *name;
	char sha256[65];
};

struct kb_manifest {
	char *line; /* the kernel line; an older manifest's NULL is 6.1 */
	char *source_version;
	char *compiler;
	char *flavour;
	char key[65];
	char release[65];
	struct kb_manifest_item *patches;
	size_t npatches;
	struct kb_manifest_item *fragments;
	size_t nfragments;
	char **without; /* patches of the series left out of this build */
	size_t nwithout;
	double build_seconds;
	int64_t timestamp; /* Unix seconds, UTC */
	bool incremental; /* the object tree held an earlier build */
	/* Neither incremental nor seeded: every object compiled from
	 * nothing, the build_seconds hostctl bench reports. */
	bool cold;
	char *seeded_from; /* NULL, or the flavour whose trees this one's
			    * first build started from (seed.c) */
	double seed_seconds; /* the copy's time, when seeded */
	struct kb_evidence *evidence; /* kernel/evidence's functions */
	size_t nevidence;
	unsigned warn_vla; /* -Wvla warnings of every object (the ledger) */
	unsigned warn_frame; /* -Wframe-larger-than warnings of every object */
	bool warn_complete; /* the ledger covers every object */
	unsigned log_vla; /* the same, in this build's log only */
	unsigned log_frame;
	/* A user's tree (kbuild_opts.tree), or NULL. */
	char *tree_path;
	char *tree_id; /* kb_usertree_id() */
	bool tree_series; /* our series applied on a copy */
	/* Fragment lines whose option did not make it into a user's tree's
	 * .config, with why: "configs/edac.config:4: CONFIG_X=y: not in
	 * this tree's Kconfig" or "...: got n" ("missing_options"). */
	char **absent;
	size_t nabsent;
	/* A kernel built elsewhere (kbuild_external()), or NULL. */
	char *ext_bzimage; /* the path the user gave, made absolute */
	char ext_sha256[65]; /* of the bzImage */
	char *ext_modules; /* the modules folder given */
	char *ext_config; /* where the config came from */
	char *ext_version; /* the bzImage's version string */
};

/* Pretty JSON, '/' not escaped; *ret is malloc'ed. */
int kb_manifest_to_json(const struct kb_manifest *m, char **ret);
int kb_manifest_parse(const char *text, struct kb_manifest *ret);
void kb_manifest_free(struct kb_manifest *m);

/* ---- has.c: what a build has (kbuild_has_config() and the module
 * look-ups are in kbuild.h) ---- */
/*
 * The path of @module in the module list @text (modules.dep or
 * modules.builtin: one "dir/name.ko[.xz]" path at the start of each line),
 * *ret_len bytes long and not NUL-terminated; NULL when it has none.
 */
const char *kb_modlist_find(const char *text, const char *module,
			    size_t *ret_len);

/* ---- ledger.c: the warnings of a build ---- */
/* Counts compiler warning lines tagged [-Wvla] and [-Wframe-larger-than=]. */
void kb_count_warnings(const char *log, size_t len, unsigned *ret_vla,
		       unsigned *ret_frame);

/* The warning ledger, obj/<flavour>/.vlalab-warnings: per object, the
 * -Wvla and -Wframe-larger-than warnings of its last compilation, so an
 * incremental build still reports the whole kernel's counts. complete is
 * false when the object tree held objects compiled before the ledger. */
struct kb_ledger_entry {
	char *obj;
	unsigned vla;
	unsigned frame;
};

struct kb_ledger {
	struct kb_ledger_entry *v;
	size_t n;
	bool complete;
};

int kb_ledger_parse(const char *text, struct kb_ledger *ret);
int kb_ledger_to_text(const struct kb_ledger *l, char **ret);
/* Each object compiled in the log (make -Otarget output) gets this log's counts. */
int kb_ledger_update(struct kb_ledger *l, const char *log, size_t len);
void kb_ledger_totals(const struct kb_ledger *l, unsigned *ret_vla,
		      unsigned *ret_frame);
void kb_ledger_free(struct kb_ledger *l);

/* ---- spawn.c ---- */
struct kb_progress {
	FILE *out;
	bool enabled;
	bool tty;
	bool line_open; /* a TTY line is showing and needs \n before other text */
	double start;
	double last;
	char stage[64];
	char action[256];
};

void kb_progress_init(struct kb_progress *p, FILE *out, bool enabled);
void kb_progress_stage(struct kb_progress *p, const char *stage);
void kb_progress_action(struct kb_progress *p, const char *action);
void kb_progress_done(struct kb_progress *p);
/* Prints a message line to p->out, first ending any progress line. */
void kb_msg(struct kb_progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Runs argv in cwd with stdout and stderr appended to log_fd; when p is
 * given, make's "  CC  path" lines become progress actions. Returns 0, or
 * -EIO when the program exits non-zero (*ret_status then holds the wait
 * status), or another -errno when it cannot run. */
int kb_run_logged(char *const argv[], const char *cwd, int log_fd,
		  struct kb_progress *p, int *ret_status);
/* Runs argv and captures its stdout (first len-1 bytes, trailing newline
 * trimmed); stderr goes to /dev/null. */
int kb_run_capture(char *const argv[], const char *cwd, char *buf, size_t len);
/* The same with stderr captured too. */
int kb_run_output(char *const argv[], const char *cwd, char *buf, size_t len);
/* Spawns argv with the given fds (-1: /dev/null) in cwd; LC_ALL=C. */
int kb_spawn(char *const argv[], const char *cwd, int in_fd, int out_fd,
	     int err_fd, pid_t *ret_pid);
/* Waits for pid; 0 when it exited 0, -EIO otherwise (*ret_status set). */
int kb_wait(pid_t pid, int *ret_status);
/* rm -rf -- path, through kb_spawn(): 0 or a negative errno. */
int kb_rm_rf(const char *path);
/* Prints the last n lines of a file to out, each indented. */
void kb_print_tail(FILE *out, const char *path, unsigned n);

/* ---- tree.c ---- */
struct kb_tree_opts {
	const char *cache_dir;
	const char *flavour;
	const char *tarball;
	const char *source_version;
	const char *patches_dir;
	/* Another line's: the patches its series shares with 6.1's
	 * (kb_line_patch_path()); NULL on 6.1. */
	const char *shared_dir;
	/* A name with a '/' (a flavour's "flavours/<name>/<file>") is a path
	 * below kernel_dir; any other name is a file of patches_dir. */
	const char *kernel_dir;
	const struct kb_series *series; /* what to apply, in order */
	int log_fd;
	struct kb_progress *p;
	FILE *msg;
};

/* Makes trees/<flavour> hold the tarball's source with exactly the series
 * applied. Each unpacking writes a new .vlalab/tree-id: an object tree
 * built from another id must be wiped, as unpacked files carry old mtimes. */
int kb_tree_prepare(const struct kb_tree_opts *o, char *tree, size_t treelen);

/* Applies one patch file to tree with git apply; when it does not apply,
 * prints failed, then why (git's message and the rejected hunks), to o->p
 * and leaves the tree as it was. */
int kb_tree_apply(const struct kb_tree_opts *o, const char *tree,
		  const char *patch, const char *failed);

/* ---- usertree.c: a user's kernel tree (kbuild_opts.tree) ---- */
/* A hash over the sorted "path size mtime" of every file below dir. */
int kb_files_id(const char *dir, char ret_hex[65]);
/* What names a user's tree in the key: for a git checkout "git:<commit>"
 * (a checkout with changes to tracked files is -EBUSY: commit or stash
 * them), for any other folder "files:<sha256>" over each file's path,
 * size and mtime (not its content: a kernel tree is 1.3 GB). err says why
 * on failure. */
int kb_usertree_id(const char *tree, char *buf, size_t len, char *err,
		   size_t errlen);
/* Whether an object tree built from from_tree can serve tree: every file
 * of tree is either the same as from_tree's (size and mtime) or newer
 * than the newest file of from_obj, so make sees each difference, and
 * most files are the same (else the copy buys nothing). 1 or 0 (with err
 * saying why not), or -errno. */
int kb_usertree_seedable(const char *tree, const char *from_tree,
			 const char *from_obj, char *err, size_t errlen);
/* A private copy of tree at copy (a git clone --shared checked out at the
 * same commit, or cp -a for another folder), kept across calls so that
 * mtimes, and so the object tree, stay valid: the user's tree is never
 * written. */
int kb_usertree_copy(const char *tree, const char *id, const char *copy,
		     int log_fd);

/* ---- ikconfig.c: a kernel built elsewhere (pure) ---- */
#define KB_BZIMAGE_MAX (256u << 20)
#define KB_IKCONFIG_MAX (8u << 20)
#define KB_VMLINUX_MAX (1024u << 20)
/* The release ("6.1.192") from a bzImage's setup header. -EINVAL, with
 * err saying why, when it is not a bzImage or names none. */
int kb_bzimage_release(const unsigned char *img, size_t len, char *buf,
		       size_t buflen, char *err, size_t errlen);
/* The compressed kernel inside a bzImage (a pointer into img).
 * -EOPNOTSUPP when it is not gzip (err names the format). */
int kb_bzimage_payload(const unsigned char *img, size_t len,
		       const unsigned char **ret, size_t *ret_len, char *err,
		       size_t errlen);
/* One gzip stream, at most max bytes out (-EFBIG beyond), NUL-terminated. */
int kb_gunzip(const unsigned char *in, size_t len, size_t max, char **ret,
	      size_t *ret_len);
/* The .config embedded by IKCONFIG in data (vmlinux or configs.ko).
 * -ENOENT without the IKCFG_ST marker, -EBADMSG when what follows is not
 * a gzip'd .config. */
int kb_ikconfig_find(const unsigned char *data, size_t len, char **ret_text,
		     size_t *ret_len);

/* ---- evidence.c: code and stack evidence per function ---- */
/* The variant every build has: the object as the build compiled it. */
#define KB_EVIDENCE_BUILD "build"

struct kb_evidence_fn {
	char *object; /* "lib/bch.o", relative to the object tree */
	char *function;
};

struct kb_evidence_variant {
	char *name;
	char *object;
	char **flags; /* added to the recorded compile command */
	size_t nflags;
};

/* kernel/evidence: "function OBJECT.o NAME" and "variant NAME OBJECT.o
 * -FLAG...", '#' comments. */
struct kb_evidence_spec {
	struct kb_evidence_fn *fn;
	size_t nfn;
	struct kb_evidence_variant *var;
	size_t nvar;
};

/* One function in one variant. -1: not found (inlined everywhere, or the
 * object has no such function). */
struct kb_evidence {
	char *object;
	char *function;
	char *variant;
	char *symbols; /* the symbols counted, "fn fn.cold"; "" when none */
	long code_bytes; /* the sum of their st_size (nm -S) */
	long frame_bytes; /* -fstack-usage */
	char *frame_kind; /* "static", "dynamic", "dynamic,bounded" */
	unsigned vla_warnings; /* -Wvla in the function */
	unsigned frame_warnings; /* -Wframe-larger-than= in the function */
};

/* A bad line is -EINVAL with err naming file:line. */
int kb_evidence_spec_parse(const char *file, const char *text,
			   struct kb_evidence_spec *ret, char *err,
			   size_t errlen);
void kb_evidence_spec_free(struct kb_evidence_spec *s);
/* The frame of fn (or, when it was only cloned, of its first clone) in a
 * .su file's text; -ENOENT when it has none. */
int kb_su_parse(const char *text, const char *fn, long *ret_bytes, char *kind,
		size_t kindlen);
/* The code size of fn and its parts (fn.cold, fn.constprop.0) in `nm -S`
 * output; symbols lists them. -ENOENT when there is none. */
int kb_nm_code_size(const char *text, const char *fn, long *ret_bytes,
		    char *symbols, size_t symlen);
/* -Wvla and -Wframe-larger-than= warnings in fn, by GCC's "In function"
 * lines. */
void kb_warnings_in(const char *text, const char *fn, unsigned *ret_vla,
		    unsigned *ret_frame);
/* Compiles each object of spec again in objdir's recorded command with
 * -fstack-usage (and each variant's flags), into dir/<variant>/, and
 * measures each function. An object the build does not have is skipped. */
int kb_evidence_collect(const char *objdir, const char *dir,
			const struct kb_evidence_spec *spec,
			struct kb_evidence **ret, size_t *ret_n);
void kb_evidence_free(struct kb_evidence *v, size_t n);

/* ---- seed.c ---- */
/* Copies trees/<from> and obj/<from> to trees/<to> and obj/<to>, and
 * rewrites the copied object tree's records (.cmd and .d files) to name
 * the new paths, so that a first build of <to> compiles only what differs
 * from <from>. -EEXIST when <to> has either tree already; -ENOENT when
 * <from> has no object tree built from its tree. On any other failure
 * nothing of <to> is left. *ret_files: the records rewritten. */
int kb_seed_flavour(const char *cache, const char *from, const char *to,
		    int log_fd, unsigned *ret_files);

/* The same for an object tree alone: copies from_obj (built from the
 * source at from_tree) to to_obj and rewrites its records to name to_tree
 * and to_obj (a user's tree, usertree.c). -EEXIST when to_obj exists. */
int kb_seed_obj(const char *from_tree, const char *from_obj,
		const char *to_tree, const char *to_obj, int log_fd,
		unsigned *ret_files);

/* Upstream version in a tree's top Makefile, "6.1.192". */
int kb_tree_makefile_version(const char *tree, char *buf, size_t len);

/* ---- uses.c ---- */
/* kbuild_cache_use(), saying why to p when it fails. */
int kb_cache_use(struct kb_progress *p, const char *cache, const char *kind,
		 const char *key);

/* ---- inputs.c: what a build is made of, and its key ---- */
/* The key's flavour for a user's tree (kbuild_opts.tree), with and
 * without our series; never a folder of kernel/flavours/. */
#define KB_TREE_FLAVOUR "tree"
#define KB_TREE_SERIES_FLAVOUR "tree+series"

/* Everything the key and the manifest are made of. */
struct kb_inputs {
	const struct kb_line *line;
	char source_version[128];
	char compiler[256];
	char *series_text;
	size_t series_len;
	struct kb_series series; /* without the left-out patches */
	char **without; /* the left-out patches' full names */
	size_t nwithout;
	char **patch_data;
	size_t *patch_len;
	/* configs/: base.config first, then by name; then the flavour's
	 * own, named flavours/<flavour>/<file> */
	char **frag_names;
	char **frag_paths; /* where each was read, for merge_config.sh */
	char **frag_data;
	size_t *frag_len;
	size_t nfrags;
	struct kb_fragment *frags;
	char *evidence_text; /* kernel/evidence, NULL without one */
	size_t evidence_len;
	struct kb_evidence_spec evidence;
	/* modules/: our out-of-tree modules, built against the kernel */
	struct kb_extmods extmods;
};

/* The source's version for the key: the package's (dpkg-query) for the
 * line's packaged tarball, else "tarball:<size>:<mtime>". */
int kb_source_version(const char *tarball, const struct kb_line *l, char *buf,
		      size_t len);
/* Reads the inputs of flavour on line l from kernel_dir into in (its
 * line, source_version and compiler set by the caller), less
 * opts->without; says why to p when it fails. */
int kb_inputs_read(const char *kernel_dir, const struct kb_line *l,
		   const char *flavour, const struct kbuild_opts *opts,
		   struct kb_inputs *in, struct kb_progress *p);
/* The cache key of in for flavour (kb_cache_key()). */
int kb_inputs_key(const struct kb_inputs *in, const char *flavour,
		  char key[65]);
void kb_inputs_free(struct kb_inputs *in);

/* ---- make.c: make in the object tree, and the warning ledger ---- */
/* make -C tree O=obj ARCH=x86_64 -jN -Otarget with targets (NULL-ended,
 * at most 8), its output appended to log_fd; with p, its progress. */
int kb_make(const char *tree, const char *obj, int jobs, char *const *targets,
	    int log_fd, struct kb_progress *p);
/* Builds our modules (kernel/modules/, m) with M= against the kernel in
 * obj and installs them into modpath, as modules_install did the tree's. */
int kb_make_extmods(const char *tree, const char *obj,
		    const struct kb_extmods *m, const char *modpath, int jobs,
		    int log_fd, struct kb_progress *p);
/* Says that what failed, where its full log is, and its last lines. */
void kb_make_failure(struct kb_progress *p, const char *what,
		     const char *log_path);

/* A build's compiler warnings ([-Wvla], [-Wframe-larger-than=]). */
struct kb_warnings {
	unsigned vla, frame; /* every object, from the ledger */
	bool complete;
	unsigned log_vla, log_frame; /* this build's log */
};

/* Folds the log at log_path into obj's warning ledger; the counts in
 * *ret when ret is not NULL. */
int kb_make_ledger(const char *obj, const char *log_path, bool incremental,
		   struct kb_warnings *ret);

/* ---- configure.c: the config, merged and verified ---- */
/* allnoconfig, merge_config.sh -m with every fragment of in, olddefconfig,
 * then the check that each requested value made it (-EINVAL, each one
 * explained to p, when one did not). With absent (a user's tree), the
 * options of fragments other than base.config that did not make it are
 * listed there as "file:line: CONFIG_X=v: why" instead. */
int kb_configure(const char *tree, const char *obj, const struct kb_inputs *in,
		 int jobs, int log_fd, const char *log_path,
		 struct kb_progress *p, char ***absent, size_t *nabsent);

/* ---- cache.c: the build cache ---- */
/* A cache hit: @dir/manifest.json exists and parses (its release in
 * @ret). No manifest, or a cut one, is a miss. */
bool kb_cache_hit(const char *dir, struct kbuild_result *ret);
/*
 * Commit a finished build in @obj to the cache folder @dir: copy the
 * artefacts (each atomically), sync the file system so that they and the
 * installed modules are on disk, then write @manifest (JSON, without its
 * newline) as @dir/manifest.json, atomically and last: a build cut short
 * by a full disk or a crash has no manifest, so it is never a hit.
 * Returns 0, or a negative errno with the path that failed in @ret_path.
 */
int kb_cache_commit(const char *obj, const char *dir, const char *manifest,
		    char *ret_path, size_t pathlen);
/* Takes the lock of a flavour's trees (cache/locks/<flavour>.lock),
 * waiting for another build of it; *ret_fd holds it. */
int kb_cache_lock(const char *cache, const char *flavour, struct kb_progress *p,
		  int *ret_fd);
/* The manifest of a build of in, as JSON in *ret (malloc'd): its
 * inputs' hashes, secs of make, the warnings w, what it was seeded from
 * (NULL: nothing) in seed_secs, the evidence, and from ut a user's
 * tree's path, id, series and absent options. */
int kb_cache_manifest(const char *flavour, const char *key, const char *release,
		      const struct kb_inputs *in, double secs, bool incremental,
		      const struct kb_warnings *w, const char *seeded_from,
		      double seed_secs, struct kb_evidence *ev, size_t nev,
		      const struct kb_manifest *ut, char **ret);

/* ---- prepare.c: the trees a build compiles in ---- */
/* The flavour a new flavour's trees are copied from. */
#define KB_SEED_FROM "patched"

/* Wipes the object tree obj when it was built from another unpacking of
 * tree, then records tree's id in it; *ret_incremental: obj has a
 * .config. */
int kb_prepare_obj(const char *tree, const char *obj, struct kb_progress *p,
		   bool *ret_incremental);
/* A flavour of our own (folders named flavour) with no tree yet starts
 * from a copy of from's (the patched flavour's name on the line), under
 * from's lock. *ret_secs: the copy's seconds, or -1 when it was not
 * seeded. */
int kb_prepare_seed(const char *cache, const char *from, const char *flavour,
		    int log_fd, struct kb_progress *p, double *ret_secs);
/* The same for a user's tree src whose object tree obj does not exist
 * yet: seeded from patched's when kb_usertree_seedable() says so, else
 * cold, saying why. */
int kb_prepare_seed_usertree(const char *cache, const char *src,
			     const char *obj, int log_fd, struct kb_progress *p,
			     double *ret_secs);
/* trees/<name> in cache: a copy of opts->tree at id with in's series
 * (from patches_dir) applied, its path in copy; left alone when its
 * record says it holds them already. */
int kb_prepare_copy(const struct kbuild_opts *opts, const char *cache,
		    const char *name, const char *id,
		    const struct kb_inputs *in, const char *patches_dir,
		    int log_fd, struct kb_progress *p, char *copy,
		    size_t copylen, const char *obj);

#endif
