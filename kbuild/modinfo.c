// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbuild_has_module_param(): whether a module of a build takes a parameter,
 * for a scenario's requires. A module's parameters are "parmtype=NAME:TYPE"
 * strings in the .modinfo section of its .ko (NUL-separated); a built-in
 * module's are in modules.builtin.modinfo, each prefixed "module.".
 */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "kb.h"
#include "kbuild.h"

/* .ko files are small; anything bigger is not one of ours. */
#define MODINFO_KO_MAX (64u << 20)

/* Whether the NUL-separated strings at @p (@len bytes) hold
 * "@prefix.parmtype=@param:" (@prefix NULL: no module prefix). */
static bool strings_have_param(const char *p, size_t len, const char *prefix,
			       const char *param)
{
	const char *end = p + len;

	while (p < end) {
		const char *nul = memchr(p, '\0', end - p);
		const char *s = p;
		size_t n;

		if (!nul)
			nul = end;
		p = nul + 1;
		if (prefix) {
			const char *dot = memchr(s, '.', nul - s);
			char *mod;
			bool eq;

			if (!dot)
				continue;
			mod = strndup(s, dot - s);
			if (!mod)
				continue;
			eq = kbuild_module_name_eq(mod, prefix);
			free(mod);
			if (!eq)
				continue;
			s = dot + 1;
		}
		if (strncmp(s, "parmtype=", 9) != 0)
			continue;
		s += 9;
		n = strlen(param);
		if ((size_t)(nul - s) > n && memcmp(s, param, n) == 0 &&
		    s[n] == ':')
			return true;
	}
	return false;
}

/* The .modinfo section of the ELF64 image @buf (@len bytes), bounds-checked. */
static int elf_modinfo(const char *buf, size_t len, const char **ret,
		       size_t *ret_len)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)buf;
	const Elf64_Shdr *sh, *strsh;

	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum == 0 ||
	    eh->e_shstrndx >= eh->e_shnum || eh->e_shoff > len ||
	    (len - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum)
		return -ENOEXEC;
	sh = (const Elf64_Shdr *)(buf + eh->e_shoff);
	strsh = &sh[eh->e_shstrndx];
	if (strsh->sh_offset > len || strsh->sh_size > len - strsh->sh_offset)
		return -ENOEXEC;
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const char *name = buf + strsh->sh_offset + sh[i].sh_name;

		if (sh[i].sh_name >= strsh->sh_size ||
		    strnlen(name, strsh->sh_size - sh[i].sh_name) ==
			    strsh->sh_size - sh[i].sh_name)
			continue;
		if (strcmp(name, ".modinfo") != 0)
			continue;
		if (sh[i].sh_offset > len ||
		    sh[i].sh_size > len - sh[i].sh_offset)
			return -ENOEXEC;
		*ret = buf + sh[i].sh_offset;
		*ret_len = sh[i].sh_size;
		return 0;
	}
	return -ENOEXEC;
}

static int read_list(const char *dir, const char *file, char **ret,
		     size_t *ret_len, char *path, size_t pathlen)
{
	if ((size_t)snprintf(path, pathlen, "%s/%s", dir, file) >= pathlen)
		return -ENAMETOOLONG;
	return fileio_read(path, MODINFO_KO_MAX, ret, ret_len, NULL);
}

int kbuild_has_module_param(const char *modules_dir, const char *name,
			    const char *param, char *err, size_t errlen)
{
	char path[4096], *text = NULL, *ko = NULL;
	const char *at, *info;
	size_t len, infolen;
	bool cut;
	int r;

	r = read_list(modules_dir, "modules.dep", &text, &len, path,
		      sizeof(path));
	if (r < 0)
		goto out;
	at = kb_modlist_find(text, name, &len);
	if (!at) {
		/* Built in: modules.builtin.modinfo, if the build has one. */
		free(text);
		text = NULL;
		r = read_list(modules_dir, "modules.builtin.modinfo", &text,
			      &len, path, sizeof(path));
		if (r == 0)
			r = strings_have_param(text, len, name, param);
		goto out;
	}
	if (len > 3 && memcmp(at + len - 3, ".ko", 3) != 0) {
		snprintf(path, sizeof(path), "%s/%.*s", modules_dir, (int)len,
			 at);
		r = -EOPNOTSUPP;
		goto out;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s/%.*s", modules_dir,
			     (int)len, at) >= sizeof(path)) {
		r = -ENAMETOOLONG;
		goto out;
	}
	r = fileio_read(path, MODINFO_KO_MAX, &ko, &len, &cut);
	if (r == 0 && cut)
		r = -EFBIG;
	if (r < 0)
		goto out;
	r = elf_modinfo(ko, len, &info, &infolen);
	if (r == 0)
		r = strings_have_param(info, infolen, NULL, param);
out:
	if (r < 0 && err && errlen)
		snprintf(err, errlen,
			 "cannot read the parameters of '%s' (%s): %s", name,
			 path, strerror(-r));
	free(text);
	free(ko);
	return r;
}
