// SPDX-License-Identifier: GPL-2.0-only
/*
 * Call traces to file:line with elfutils' libdwfl (symbolize.h). The guest
 * wrote every byte of the text: a frame's name is only ever compared with
 * the names of the build's own symbol tables, its module name with the
 * names of the .ko files found below the build's modules folder, and its
 * offset is a number. No guest byte names a file, reaches a shell or an
 * interpreter; lines that are not frames are copied as data.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>

#include "crash/symbolize.h"

/* Below a folder: how deep to look, and how many .ko to list. */
#define SYM_WALK_DEPTH 12
#define SYM_KO_MAX 20000

/* A function symbol of a module, for lookup by name. */
struct sym_ent {
	const char *name; /* in libdwfl's copy of the string table */
	uint64_t addr, size;
	bool func; /* STT_FUNC, else STT_NOTYPE (an assembly label) */
};

struct sym_mod {
	struct sym_ctx *ctx;
	char name[SYM_MODULE_MAX + 1]; /* '-' written as '_'; "" for vmlinux */
	char *path; /* the .ko file; NULL for vmlinux */
	Dwfl_Module *mod; /* NULL until reported */
	bool tried; /* reported (or failed to be) already */
	struct sym_ent *v; /* sorted by name; NULL until first used */
	size_t n;
	bool indexed;
};

/* .ko files found below a folder, by module name. */
struct sym_kos {
	struct sym_mod *v;
	size_t n, cap;
	bool walked;
};

struct sym_ctx {
	Dwfl *dwfl;
	char *strip; /* without a trailing '/', or NULL */
	char *modules_dir;
	struct sym_mod kernel;
	struct sym_kos kos; /* below modules_dir */
	struct sym_kos objs; /* below the object tree vmlinux was built in */
	const char *objdir; /* that tree, in vmlinux's DWARF; NULL: unknown */
	bool objdir_tried;
	char *objdir_set; /* sym_set_objdir()'s */
};

/* ---- the frame grammar: pure ---- */

static bool is_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

static bool is_hex(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') ||
	       (ch >= 'A' && ch <= 'F');
}

static bool is_alnum(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
	       (ch >= 'A' && ch <= 'Z');
}

static bool is_sym_char(char ch)
{
	return is_alnum(ch) || ch == '_' || ch == '.' || ch == '$';
}

static bool is_mod_char(char ch)
{
	return is_alnum(ch) || ch == '_' || ch == '-';
}

/* "0x" and 1 to 16 hex digits at @s (up to @e) into @ret; the end or NULL. */
static const char *parse_hex(const char *s, const char *e, uint64_t *ret)
{
	uint64_t v = 0;
	size_t n = 0;

	if (e - s < 3 || s[0] != '0' || s[1] != 'x')
		return NULL;
	for (s += 2; s < e && is_hex(*s); s++, n++) {
		if (n == 16)
			return NULL;
		v = v << 4 |
		    (uint64_t)(*s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10);
	}
	if (n == 0)
		return NULL;
	*ret = v;
	return s;
}

/* "MODULE" or "MODULE BUILDID", the inside of a frame's brackets. */
static int parse_module(const char *s, size_t len, char *ret)
{
	size_t n = 0, id = 0;

	while (n < len && is_mod_char(s[n]))
		n++;
	if (n == 0 || n > SYM_MODULE_MAX)
		return -EINVAL;
	if (n < len) {
		if (s[n] != ' ')
			return -EINVAL;
		for (id = n + 1; id < len && is_hex(s[id]); id++)
			;
		if (id != len || id == n + 1 || id - n - 1 > 64)
			return -EINVAL;
	}
	memcpy(ret, s, n);
	ret[n] = '\0';
	return 0;
}

int sym_parse_frame(const char *line, size_t len, struct sym_frame *ret)
{
	struct sym_frame f = { 0 };
	const char *p, *e, *name;
	size_t end = len, start;

	if (len > SYM_LINE_MAX)
		return -EINVAL;
	while (end > 0 && (is_blank(line[end - 1]) || line[end - 1] == '\r'))
		end--;
	/* A module: " [name]" or " [name buildid]" at the end. */
	if (end > 0 && line[end - 1] == ']') {
		size_t b = end - 1;

		while (b > 0 && line[b - 1] != '[' && end - b <= 128)
			b--;
		if (b == 0 || line[b - 1] != '[' ||
		    parse_module(line + b, end - 1 - b, f.module) < 0)
			return -EINVAL;
		b--;
		if (b == 0 || !is_blank(line[b - 1]))
			return -EINVAL;
		end = b;
		while (end > 0 && is_blank(line[end - 1]))
			end--;
	}
	/* The frame: the last word, after a blank or at the start. */
	start = end;
	while (start > 0 && !is_blank(line[start - 1]) && end - start <= 600)
		start--;
	if (start == end || (start > 0 && !is_blank(line[start - 1])))
		return -EINVAL;
	p = line + start;
	e = line + end;
	if (e - p > 5 && is_hex(p[0]) && is_hex(p[1]) && is_hex(p[2]) &&
	    is_hex(p[3]) && p[4] == ':') {
		f.exact = true;
		p += 5;
	}
	for (name = p; p < e && is_sym_char(*p); p++)
		;
	if (p == name || (size_t)(p - name) > SYM_NAME_MAX || p == e ||
	    *p != '+')
		return -EINVAL;
	memcpy(f.name, name, (size_t)(p - name));
	f.name[p - name] = '\0';
	p = parse_hex(p + 1, e, &f.offset);
	if (!p || p == e || *p != '/')
		return -EINVAL;
	p = parse_hex(p + 1, e, &f.size);
	if (!p || p != e)
		return -EINVAL;
	f.start = start;
	f.end = end;
	*ret = f;
	return 0;
}

/* ---- libdwfl ---- */

static int ent_cmp(const void *a, const void *b)
{
	const struct sym_ent *x = a, *y = b;
	int r = strcmp(x->name, y->name);

	if (r)
		return r;
	if (x->func != y->func)
		return (int)y->func - (int)x->func;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

/* The module's function symbols, sorted by name (functions first, then
 * by address, so that a name's first is always the same), once. */
static int index_module(struct sym_mod *m)
{
	int n;

	if (m->indexed)
		return m->v ? 0 : -ENOENT;
	m->indexed = true;
	n = dwfl_module_getsymtab(m->mod);
	if (n <= 0)
		return -ENOENT;
	m->v = calloc((size_t)n, sizeof(*m->v));
	if (!m->v)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		const char *name;
		GElf_Addr addr;
		GElf_Word shndx;
		GElf_Sym sym;
		int type;

		name = dwfl_module_getsym_info(m->mod, i, &sym, &addr, &shndx,
					       NULL, NULL);
		type = GELF_ST_TYPE(sym.st_info);
		if (!name || !*name || shndx == SHN_UNDEF || shndx == SHN_ABS ||
		    (type != STT_FUNC && type != STT_NOTYPE))
			continue;
		m->v[m->n++] = (struct sym_ent){ .name = name,
						 .addr = addr,
						 .size = sym.st_size,
						 .func = type == STT_FUNC };
	}
	qsort(m->v, m->n, sizeof(*m->v), ent_cmp);
	return 0;
}

/*
 * The symbol @name of @m: a function of size @size when there is one (a
 * static function's name may be in several files), else the first
 * function, else the first label.
 */
static const struct sym_ent *lookup(struct sym_mod *m, const char *name,
				    uint64_t size)
{
	const struct sym_ent *hit;
	size_t lo = 0, hi;

	if (index_module(m) < 0)
		return NULL;
	hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(m->v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == m->n || strcmp(m->v[lo].name, name) != 0)
		return NULL;
	hit = &m->v[lo];
	for (size_t i = lo; i < m->n && strcmp(m->v[i].name, name) == 0; i++)
		if (m->v[i].func && m->v[i].size == size)
			return &m->v[i];
	return hit;
}

static bool ko_name(const char *file, char *ret)
{
	static const char *const ext[] = { ".ko", ".ko.xz", ".ko.gz",
					   ".ko.zst" };
	size_t len = strlen(file);

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		size_t el = strlen(ext[i]), n;

		if (len <= el || strcmp(file + len - el, ext[i]) != 0)
			continue;
		n = len - el;
		if (n > SYM_MODULE_MAX)
			return false;
		for (size_t j = 0; j < n; j++)
			ret[j] = file[j] == '-' ? '_' : file[j];
		ret[n] = '\0';
		return true;
	}
	return false;
}

/* List the .ko files below @dfd (@path), @depth levels deep at most. */
static void walk(struct sym_kos *l, int dfd, const char *path, int depth)
{
	struct dirent *de;
	DIR *d;

	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return;
	}
	while ((de = readdir(d)) && l->n < SYM_KO_MAX) {
		char name[SYM_MODULE_MAX + 1], *sub;
		struct sym_mod *n;
		struct stat st;
		int fd;

		if (de->d_name[0] == '.' ||
		    fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (asprintf(&sub, "%s/%s", path, de->d_name) < 0)
			break;
		if (S_ISDIR(st.st_mode) && depth > 0) {
			fd = openat(dirfd(d), de->d_name,
				    O_RDONLY | O_DIRECTORY | O_CLOEXEC);
			if (fd >= 0)
				walk(l, fd, sub, depth - 1);
		} else if (S_ISREG(st.st_mode) && ko_name(de->d_name, name)) {
			if (l->n == l->cap) {
				size_t cap = l->cap ? 2 * l->cap : 64;

				n = realloc(l->v, cap * sizeof(*n));
				if (!n) {
					free(sub);
					break;
				}
				l->v = n;
				l->cap = cap;
			}
			n = &l->v[l->n++];
			*n = (struct sym_mod){ .path = sub };
			memcpy(n->name, name, sizeof(name));
			continue;
		}
		free(sub);
	}
	closedir(d);
}

/* List the .ko files below @dir into @l, once. */
static void walk_once(struct sym_kos *l, const char *dir)
{
	int fd;

	if (l->walked || !dir)
		return;
	l->walked = true;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0)
		walk(l, fd, dir, SYM_WALK_DEPTH);
}

/* The object tree vmlinux was built in: its first unit's DW_AT_comp_dir. */
static const char *objdir(struct sym_ctx *c)
{
	Dwarf_Attribute attr;
	Dwarf_Addr bias;
	const char *dir;
	Dwarf_Die *cu;

	if (c->objdir_tried)
		return c->objdir;
	c->objdir_tried = true;
	cu = dwfl_module_nextcu(c->kernel.mod, NULL, &bias);
	dir = cu ? dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr)) :
		   NULL;
	if (dir && dir[0] == '/' && dir[1])
		c->objdir = dir;
	return c->objdir;
}

/* Whether the ELF file @path has the GNU build ID @id (@len bytes). */
static bool same_build_id(const char *path, const void *id, int len)
{
	const void *other;
	bool same = false;
	ssize_t n;
	Elf *elf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf) {
		n = dwelf_elf_gnu_build_id(elf, &other);
		same = n > 0 && n == len && memcmp(other, id, (size_t)len) == 0;
		elf_end(elf);
	}
	close(fd);
	return same;
}

/*
 * The modules are staged stripped of their DWARF (INSTALL_MOD_STRIP=1);
 * the object tree they were built in keeps them whole. That tree is the
 * compilation directory of vmlinux's DWARF, and a .ko of the same name
 * there is taken only when its build ID is the staged file's: a tree
 * rebuilt since has other IDs. libdwfl calls this when a module's own
 * file has no DWARF; @userdata holds our struct sym_mod.
 */
static int obj_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			 Dwarf_Addr base, const char *file_name,
			 const char *debuglink_file, GElf_Word debuglink_crc,
			 char **debuginfo_file_name)
{
	struct sym_mod *m = *userdata;
	const unsigned char *id;
	struct sym_ctx *c;
	GElf_Addr vaddr;
	int len, fd;

	(void)modname, (void)base, (void)file_name;
	(void)debuglink_file, (void)debuglink_crc;
	if (!m || !m->path)
		return -1;
	c = m->ctx;
	len = dwfl_module_build_id(mod, &id, &vaddr);
	if (len <= 0)
		return -1;
	walk_once(&c->objs, objdir(c));
	for (size_t i = 0; i < c->objs.n; i++) {
		const char *path = c->objs.v[i].path;

		if (strcmp(c->objs.v[i].name, m->name) != 0 ||
		    !same_build_id(path, id, len))
			continue;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		*debuginfo_file_name = strdup(path);
		return fd;
	}
	return -1;
}

/* The module a frame names, reported to libdwfl on first use; or NULL. */
static struct sym_mod *module_get(struct sym_ctx *c, const char *module)
{
	char name[SYM_MODULE_MAX + 1];
	struct sym_mod *m = NULL;
	void **userdata;
	size_t i;

	if (!*module)
		return &c->kernel;
	walk_once(&c->kos, c->modules_dir);
	for (i = 0; module[i]; i++)
		name[i] = module[i] == '-' ? '_' : module[i];
	name[i] = '\0';
	for (i = 0; i < c->kos.n && !m; i++)
		if (strcmp(c->kos.v[i].name, name) == 0)
			m = &c->kos.v[i];
	if (!m)
		return NULL;
	if (!m->tried) {
		m->tried = true;
		m->ctx = c;
		dwfl_report_begin_add(c->dwfl);
		m->mod = dwfl_report_offline(c->dwfl, m->name, m->path, -1);
		dwfl_report_end(c->dwfl, NULL, NULL);
		if (m->mod && dwfl_module_info(m->mod, &userdata, NULL, NULL,
					       NULL, NULL, NULL, NULL))
			*userdata = m;
	}
	return m->mod ? m : NULL;
}

/* Only the build's own files: no debuginfo path, no debuginfod. */
static const Dwfl_Callbacks sym_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = obj_debuginfo,
	.section_address = dwfl_offline_section_address,
};

int sym_open(const char *vmlinux, const char *modules_dir, const char *strip,
	     struct sym_ctx **ret)
{
	struct sym_ctx *c;
	size_t len;

	if (access(vmlinux, R_OK) < 0)
		return -errno;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	if (strip) {
		len = strlen(strip);
		while (len > 1 && strip[len - 1] == '/')
			len--;
		c->strip = strndup(strip, len);
	}
	c->modules_dir = modules_dir ? strdup(modules_dir) : NULL;
	c->dwfl = dwfl_begin(&sym_callbacks);
	if ((strip && !c->strip) || (modules_dir && !c->modules_dir) ||
	    !c->dwfl) {
		sym_close(c);
		return -ENOMEM;
	}
	dwfl_report_begin(c->dwfl);
	c->kernel.mod = dwfl_report_offline(c->dwfl, "kernel", vmlinux, -1);
	dwfl_report_end(c->dwfl, NULL, NULL);
	c->kernel.tried = true;
	if (!c->kernel.mod) {
		sym_close(c);
		return -EINVAL;
	}
	*ret = c;
	return 0;
}

int sym_set_objdir(struct sym_ctx *c, const char *dir)
{
	char *d = strdup(dir);

	if (!d)
		return -ENOMEM;
	free(c->objdir_set);
	c->objdir_set = d;
	c->objdir = d;
	c->objdir_tried = true;
	return 0;
}

void sym_close(struct sym_ctx *c)
{
	if (!c)
		return;
	if (c->dwfl)
		dwfl_end(c->dwfl);
	free(c->kernel.v);
	for (size_t i = 0; i < c->kos.n; i++) {
		free(c->kos.v[i].path);
		free(c->kos.v[i].v);
	}
	free(c->kos.v);
	for (size_t i = 0; i < c->objs.n; i++)
		free(c->objs.v[i].path);
	free(c->objs.v);
	free(c->modules_dir);
	free(c->strip);
	free(c->objdir_set);
	free(c);
}

/* A place in the source: @file may be NULL ("??"). */
struct sym_src {
	const char *func; /* for an inlined function */
	const char *file;
	int line;
};

struct sym_where {
	struct sym_src loc; /* where the frame's own function is */
	struct sym_src inl[SYM_INLINE_MAX]; /* what was inlined there */
	size_t ninl;
};

/* Follow the inlined functions at @pc outward, from the innermost. */
static void inline_chain(Dwfl_Module *mod, Dwarf_Addr pc, struct sym_where *w)
{
	Dwarf_Files *files = NULL;
	Dwarf_Die *scopes = NULL, *cu;
	Dwarf_Addr bias;
	size_t nfiles = 0;
	int n;

	cu = dwfl_module_addrdie(mod, pc, &bias);
	n = cu ? dwarf_getscopes(cu, pc - bias, &scopes) : 0;
	for (int i = 0; i < n && w->ninl < SYM_INLINE_MAX; i++) {
		Dwarf_Attribute attr;
		Dwarf_Word cf, cl;
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram)
			break;
		if (tag != DW_TAG_inlined_subroutine)
			continue;
		w->inl[w->ninl] = w->loc;
		w->inl[w->ninl++].func = dwarf_diename(&scopes[i]);
		/* Then we are at the call site, in the caller. */
		w->loc.file = NULL;
		w->loc.line = 0;
		if (dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file,
					       &attr),
				    &cf) != 0 ||
		    dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line,
					       &attr),
				    &cl) != 0)
			continue;
		if (!files && dwarf_getsrcfiles(cu, &files, &nfiles) != 0)
			files = NULL;
		if (files && cf < nfiles)
			w->loc.file = dwarf_filesrc(files, cf, NULL, NULL);
		w->loc.line = cl <= INT32_MAX ? (int)cl : 0;
	}
	free(scopes);
}

/* 1: file:line found; 0: the symbol only; -ENOENT: not found. */
static int resolve(struct sym_ctx *c, const struct sym_frame *f,
		   struct sym_where *w)
{
	const struct sym_ent *s;
	struct sym_mod *m;
	Dwfl_Line *line;
	Dwarf_Addr pc;

	*w = (struct sym_where){ 0 };
	m = module_get(c, f->module);
	if (!m || f->offset > f->size)
		return -ENOENT;
	s = lookup(m, f->name, f->size);
	if (!s || s->addr + f->offset < s->addr)
		return -ENOENT;
	pc = s->addr + f->offset;
	if (!f->exact && f->offset > 0)
		pc--;
	line = dwfl_module_getsrc(m->mod, pc);
	if (!line)
		return 0;
	w->loc.file = dwfl_lineinfo(line, NULL, &w->loc.line, NULL, NULL, NULL);
	if (!w->loc.file)
		return 0;
	inline_chain(m->mod, pc, w);
	return 1;
}

/* @file without the leading @dir + "/", when it has them. */
static const char *below(const char *file, const char *dir)
{
	size_t n = dir ? strlen(dir) : 0;

	if (n && strncmp(file, dir, n) == 0 && file[n] == '/')
		return file + n + 1;
	return file;
}

/* "(file:line)", the file relative to the source or the object tree. */
static void put_src(struct sym_ctx *c, const struct sym_src *s, FILE *out)
{
	const char *file = s->file ? s->file : "??";
	const char *rel = below(file, c->strip);

	if (rel == file)
		rel = below(file, objdir(c));
	fprintf(out, "(%s:%d)", rel, s->line);
}

int sym_decode(struct sym_ctx *c, const char *text, size_t len, FILE *out,
	       struct sym_stats *ret_stats)
{
	struct sym_stats st = { 0 };
	const char *p = text, *end = text + len;
	struct sym_where w;
	struct sym_frame f;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		size_t adv = nl ? n + 1 : n;
		int r;

		if (st.frames >= SYM_FRAMES_MAX ||
		    sym_parse_frame(p, n, &f) < 0) {
			fwrite(p, 1, adv, out);
			p += adv;
			continue;
		}
		st.frames++;
		r = resolve(c, &f, &w);
		if (r <= 0) {
			if (r == 0)
				st.symbol_only++;
			else
				st.unknown++;
			fwrite(p, 1, adv, out);
			p += adv;
			continue;
		}
		st.located++;
		for (size_t i = 0; i < w.ninl; i++) {
			fwrite(p, 1, f.start, out);
			fprintf(out, "%s ",
				w.inl[i].func ? w.inl[i].func : "??");
			put_src(c, &w.inl[i], out);
			fputs(" (inlined)\n", out);
		}
		fwrite(p, 1, f.end, out);
		fputc(' ', out);
		put_src(c, &w.loc, out);
		fwrite(p + f.end, 1, adv - f.end, out);
		p += adv;
	}
	if (ret_stats)
		*ret_stats = st;
	return ferror(out) ? -EIO : 0;
}
