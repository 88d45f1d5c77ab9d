/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What is written from the verb table (main.c's) and each verb's option
 * rows (struct verb, cli/verbs.h), so that it cannot drift from them: the
 * verb listing of `hostctl help`, the bash completion script and the man
 * page, which the build generates by running hostctl and installs
 * (hostctl/meson.build).
 */
#ifndef VLALAB_CLI_DOCGEN_H
#define VLALAB_CLI_DOCGEN_H

#include <stddef.h>
#include <stdio.h>

#include "cli/verbs.h"

/* The verbs' lines of `hostctl help`: name, arguments, summary, aligned;
 * an arguments column too wide puts its summary on the next line. */
void cli_verb_list(FILE *f, const struct verb *const *verbs, size_t n);

/* The bash completion script (`hostctl completion bash`): the verbs,
 * each verb's long options, and file names after an option that takes
 * an argument. 0, or -errno when @f could not be written. */
int cli_completion_bash(FILE *f, const struct verb *const *verbs, size_t n);

/* hostctl.1 in troff (`hostctl --man`): the verbs, each with its help
 * text (its --help, run in this process), exit codes and environment.
 * 0, or -errno. */
int cli_man_page(FILE *f, const struct verb *const *verbs, size_t n,
		 const char *version);

#endif
