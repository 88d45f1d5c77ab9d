// SPDX-License-Identifier: GPL-2.0-only
/*
 * Our modules (extmod.c) in a scratch kernel folder: a module with a
 * `flavours` file is read only for the flavours it names, and a bad file
 * is an error naming its line.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "kb.h"
#include "tap.h"
#include "tfile.h"

static char tmp[64];

/* The modules flavour reads, as "dir,dir" and their file count. */
static int read_for(const char *flavour, char *names, size_t len,
		    size_t *ret_files, char *err, size_t errlen)
{
	struct kb_extmods m;
	size_t n = 0;
	int r;

	names[0] = '\0';
	err[0] = '\0';
	r = kb_extmods_read(tmp, flavour, &m, err, errlen);
	if (r < 0)
		return r;
	for (size_t i = 0; i < m.ndirs; i++)
		n += snprintf(names + n, len - n, "%s%s", i ? "," : "",
			      m.dirs[i]);
	*ret_files = m.nfiles;
	kb_extmods_free(&m);
	return 0;
}

int main(void)
{
	char names[256], err[PATH_MAX + 256];
	size_t files = 0;

	snprintf(tmp, sizeof(tmp), "/tmp/vlalab-extmod-XXXXXX");
	if (!mkdtemp(tmp)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	tfile_put(tmp, "flavours/vla/vla.config", "CONFIG_VMAP_STACK=y\n");
	tfile_put(tmp, "modules/all/Kbuild", "obj-m += all.o\n");
	tfile_put(tmp, "modules/all/all.c", "int x;\n");
	tfile_put(tmp, "modules/only/Kbuild", "obj-m += only.o\n");
	tfile_put(tmp, "modules/only/only.c", "int y;\n");
	tfile_put(tmp, "modules/only/flavours",
		  "# the vla flavour only\n\n  vla\n");

	ok(read_for("patched", names, sizeof(names), &files, err,
		    sizeof(err)) == 0,
	   "patched reads its modules");
	is_str(names, "all", "a module with a flavours file is left out");
	is_int(files, 2, "and its files are not read (not in the key)");
	ok(read_for("vla", names, sizeof(names), &files, err, sizeof(err)) == 0,
	   "vla reads its modules");
	is_str(names, "all,only", "a module whose flavours name it is in");
	is_int(files, 5, "with all its files, the flavours file too");

	tfile_put(tmp, "modules/only/flavours", "vla\nvlaa\n");
	is_int(read_for("vla", names, sizeof(names), &files, err, sizeof(err)),
	       -EINVAL, "an unknown flavour is an error");
	okf(strstr(err, "modules/only/flavours:2: unknown flavour 'vlaa'"),
	    "naming the file and line: %s", err);
	tfile_put(tmp, "modules/only/flavours", "vla patched\n");
	is_int(read_for("vla", names, sizeof(names), &files, err, sizeof(err)),
	       -EINVAL, "two names on a line are an error");
	okf(strstr(err, "modules/only/flavours:1: one flavour a line"),
	    "naming the file and line: %s", err);

	kb_rm_rf(tmp);
	return tap_done();
}
