// SPDX-License-Identifier: GPL-2.0-only
/*
 * make in a build's object tree: the kernel's targets, our modules built
 * with M= and installed beside the tree's, a failure's last log lines,
 * and the warning ledger each build's log is folded into.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "kb.h"

#define TAIL_LINES 30

int kb_make(const char *tree, const char *obj, int jobs, char *const *targets,
	    int log_fd, struct kb_progress *p)
{
	char objarg[PATH_MAX + 4], jarg[32];
	char *argv[16];
	int n = 0, r;

	r = kb_path(objarg, sizeof(objarg), "O=%s", obj);
	if (r < 0)
		return r;
	snprintf(jarg, sizeof(jarg), "-j%d", jobs);
	argv[n++] = "make";
	argv[n++] = "-C";
	argv[n++] = (char *)tree;
	argv[n++] = objarg;
	argv[n++] = "ARCH=x86_64";
	argv[n++] = jarg;
	/* A recipe's output stays together: warnings follow their CC line. */
	argv[n++] = "-Otarget";
	for (; *targets && n < 15; targets++)
		argv[n++] = *targets;
	argv[n] = NULL;
	return kb_run_logged(argv, NULL, log_fd, p, NULL);
}

/*
 * Builds each of our modules (kernel/modules/<name>/) with M= against the
 * kernel in obj, and installs it into modpath as modules_install did the
 * tree's (lib/modules/<release>/extra/, modules.dep updated), so that
 * modprobe and a scenario's requires find it like any other.
 */
int kb_make_extmods(const char *tree, const char *obj,
		    const struct kb_extmods *m, const char *modpath, int jobs,
		    int log_fd, struct kb_progress *p)
{
	char root[PATH_MAX], marg[PATH_MAX + 4], iarg[PATH_MAX + 32];
	int r;

	if (!m->ndirs)
		return 0;
	kb_progress_stage(p, "building kernel/modules");
	r = kb_path(root, sizeof(root), "%s/%s", obj, KB_EXTMOD_STAGE);
	if (r == 0)
		r = kb_extmods_stage(m, root);
	if (r == 0)
		r = kb_path(iarg, sizeof(iarg), "INSTALL_MOD_PATH=%s", modpath);
	for (size_t i = 0; r == 0 && i < m->ndirs; i++) {
		r = kb_path(marg, sizeof(marg), "M=%s/%s", root, m->dirs[i]);
		if (r == 0)
			r = kb_make(tree, obj, jobs,
				    (char *[]){ marg, "modules", NULL }, log_fd,
				    NULL);
		if (r == 0)
			r = kb_make(tree, obj, jobs,
				    (char *[]){ marg, iarg,
						"INSTALL_MOD_STRIP=1",
						"modules_install", NULL },
				    log_fd, NULL);
	}
	return r;
}

void kb_make_failure(struct kb_progress *p, const char *what,
		     const char *log_path)
{
	kb_msg(p, "kbuild: %s failed; full log: %s; last %d lines:", what,
	       log_path, TAIL_LINES);
	kb_print_tail(p->out, log_path, TAIL_LINES);
	fflush(p->out);
}

/* Folds this build's log into obj/.vlalab-warnings, also after a failed
 * make: what it compiled will not be compiled again. */
int kb_make_ledger(const char *obj, const char *log_path, bool incremental,
		   struct kb_warnings *ret)
{
	struct kb_ledger l = { .complete = !incremental };
	char path[PATH_MAX], *text = NULL, *log = NULL, *out = NULL;
	size_t loglen = 0;
	int r;

	r = kb_path(path, sizeof(path), "%s/.vlalab-warnings", obj);
	if (r < 0)
		return r;
	if (fileio_read(path, FILEIO_ALL, &text, NULL, NULL) == 0 &&
	    kb_ledger_parse(text, &l) < 0)
		l = (struct kb_ledger){ .complete = false };
	r = fileio_read(log_path, FILEIO_ALL, &log, &loglen, NULL);
	if (r == 0)
		r = kb_ledger_update(&l, log, loglen);
	if (r == 0)
		r = kb_ledger_to_text(&l, &out);
	if (r == 0)
		r = fileio_write_atomic(path, out, strlen(out));
	if (r == 0 && ret) {
		kb_ledger_totals(&l, &ret->vla, &ret->frame);
		ret->complete = l.complete;
		kb_count_warnings(log, loglen, &ret->log_vla, &ret->log_frame);
	}
	kb_ledger_free(&l);
	free(text);
	free(log);
	free(out);
	return r;
}
