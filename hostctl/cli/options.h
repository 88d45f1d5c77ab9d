/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The options that several verbs share, as data: one row each, with its
 * getopt row and its usage line, so that --cache is written once. A verb
 * names the shared options it takes and adds its own rows (whose values
 * are characters, below CLI_OPT_FIRST); cli_opts_table() makes
 * getopt_long's table of both (options.c).
 */
#ifndef VLALAB_CLI_OPTIONS_H
#define VLALAB_CLI_OPTIONS_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

enum cli_opt {
	CLI_OPT_END = 0, /* ends a list of ids */
	CLI_OPT_HELP = 'h',
	CLI_OPT_FIRST = 0x100,
	CLI_OPT_CACHE = CLI_OPT_FIRST,
	CLI_OPT_CONNECT,
	CLI_OPT_KERNEL_DIR,
	CLI_OPT_FLAVOUR,
	CLI_OPT_LINE,
	CLI_OPT_WITHOUT_PATCH,
	CLI_OPT_TREE,
	CLI_OPT_SERIES,
	CLI_OPT_RESULTS,
	CLI_OPT_SCENARIOS,
	CLI_OPT_OUTPUT,
	CLI_OPT_ACCEL,
	CLI_OPT_MACHINE,
	CLI_OPT_IMAGE,
	CLI_OPT_JUNIT,
	CLI_OPT_KCIDB,
	CLI_OPT_NO_RESTORE,
	CLI_OPT_HOSTS,
};

/* Rows of getopt_long's table a verb can have at most. */
#define CLI_OPTS_MAX 48

/*
 * getopt_long's table into @ret (CLI_OPTS_MAX rows): the shared options
 * @ids (a list ended by CLI_OPT_END), then the verb's own rows @own
 * (ended by a zero row; NULL: none), then the zero row.
 */
void cli_opts_table(const enum cli_opt *ids, const struct option *own,
		    struct option *ret);

/* The usage line of the shared option @id, on @f. */
void cli_opt_usage(FILE *f, enum cli_opt id);

#endif
