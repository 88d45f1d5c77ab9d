// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbuild_has_module_param(): a module's parameters from the .modinfo
 * section of a .ko that this test writes (a minimal ELF64 object), or from
 * modules.builtin.modinfo; and the damaged files it must refuse.
 */
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kb.h"
#include "kbuild.h"
#include "tap.h"

static char tmp[64];

static const char shstrtab[] = "\0.modinfo\0.shstrtab";
static const char modinfo[] = "license=GPL\0parm=cross_chip:Bind the tree\0"
			      "parmtype=cross_chip:bool\0parmtype=x:int";

/* Header, .modinfo, .shstrtab, then three section headers (null first). */
static size_t make_ko(char *buf, size_t size)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	size_t info_off = sizeof(*eh), str_off = info_off + sizeof(modinfo);
	size_t sh_off = (str_off + sizeof(shstrtab) + 7) & ~(size_t)7;
	Elf64_Shdr *sh = (Elf64_Shdr *)(buf + sh_off);

	memset(buf, 0, size);
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_REL;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_ehsize = sizeof(*eh);
	eh->e_shoff = sh_off;
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = 3;
	eh->e_shstrndx = 2;
	memcpy(buf + info_off, modinfo, sizeof(modinfo));
	memcpy(buf + str_off, shstrtab, sizeof(shstrtab));
	sh[1].sh_name = 1;
	sh[1].sh_type = SHT_PROGBITS;
	sh[1].sh_offset = info_off;
	sh[1].sh_size = sizeof(modinfo);
	sh[2].sh_name = 10;
	sh[2].sh_type = SHT_STRTAB;
	sh[2].sh_offset = str_off;
	sh[2].sh_size = sizeof(shstrtab);
	return sh_off + 3 * sizeof(Elf64_Shdr);
}

static void put(const char *name, const void *data, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmp, name);
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

static void param(const char *mod, const char *p, int want, const char *what)
{
	char err[512] = "";
	int r = kbuild_has_module_param(tmp, mod, p, err, sizeof(err));

	okf(r == want && (want < 0) == (err[0] != '\0'), "%s: got %d (%s)",
	    what, r, err);
}

int main(void)
{
	static char ko[4096];
	size_t len = make_ko(ko, sizeof(ko));
	static const char builtin[] = "dsa_core.parmtype=debug:int\0"
				      "other.parmtype=cross_chip:bool";
	char path[PATH_MAX];
	Elf64_Ehdr *eh = (Elf64_Ehdr *)ko;

	snprintf(tmp, sizeof(tmp), "/tmp/kbuild-test-modinfo-XXXXXX");
	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/kernel", tmp);
	mkdir(path, 0755);
	put("modules.dep", "kernel/dsa_loop.ko:\nkernel/xz_mod.ko.xz:\n", 40);
	put("kernel/dsa_loop.ko", ko, len);

	param("dsa_loop", "cross_chip", 1, "a parameter of the .ko");
	param("dsa-loop", "x", 1, "module names compare with '-' as '_'");
	param("dsa_loop", "cross", 0, "a prefix of a parameter is not one");
	param("dsa_loop", "license", 0,
	      "other modinfo keys are not parameters");
	param("xz_mod", "p", -EOPNOTSUPP, "a compressed .ko is refused");
	param("nothere", "p", -ENOENT,
	      "a module in neither list, without modules.builtin.modinfo");

	put("modules.builtin.modinfo", builtin, sizeof(builtin));
	param("dsa_core", "debug", 1, "a built-in module's parameter");
	param("dsa_core", "cross_chip", 0,
	      "another built-in module's parameter is not this one's");

	eh->e_shoff = len - 8;
	put("kernel/dsa_loop.ko", ko, len);
	param("dsa_loop", "cross_chip", -ENOEXEC,
	      "section headers past the end of the file");
	make_ko(ko, sizeof(ko));
	((Elf64_Shdr *)(ko + eh->e_shoff))[1].sh_size = 1u << 20;
	put("kernel/dsa_loop.ko", ko, len);
	param("dsa_loop", "cross_chip", -ENOEXEC,
	      ".modinfo larger than the file");
	make_ko(ko, sizeof(ko));
	((Elf64_Shdr *)(ko + eh->e_shoff))[1].sh_name = 4000;
	put("kernel/dsa_loop.ko", ko, len);
	param("dsa_loop", "cross_chip", -ENOEXEC,
	      "a section name outside .shstrtab: no .modinfo");
	put("kernel/dsa_loop.ko", "not an ELF file", 15);
	param("dsa_loop", "cross_chip", -ENOEXEC, "not an ELF file");
	kb_rm_rf(tmp);
	return tap_done();
}
