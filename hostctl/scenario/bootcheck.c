// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pure parts of a scenario's boots: the run request and kernel
 * command line of a boot, and the marker rule that ties boots together
 * (the token a guest reads back after a resume must be the one it set
 * before hibernating).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "scenario/bootcheck.h"

uint64_t boots_bound_ms(const struct scenario *s, size_t k)
{
	if (s->nboots)
		return s->boots[k].timeout_ms;
	return s->timeout_ms + (s->run_cleanup ? s->cleanup_timeout_ms : 0);
}

int boots_run_encode(const struct scenario *s, size_t k, char **ret_line,
		     size_t *ret_len)
{
	const struct scn_boot *b = s->nboots ? &s->boots[k] : NULL;
	/* A scenario with boots has no state_files or cleanup (scenario.c). */
	const struct proto_run run = {
		.scenario = s->name,
		.timeout_ms = b ? b->timeout_ms : s->timeout_ms,
		.step_timeout_ms = s->step_timeout_ms,
		.steps = b ? b->run_steps : s->run_steps,
		.state_files = s->run_state_files,
		.cleanup = s->run_cleanup,
		.cleanup_timeout_ms = s->cleanup_timeout_ms,
	};

	return proto_run_encode(&run, ret_line, ret_len);
}

const char *boots_end_name(enum scn_boot_end e)
{
	switch (e) {
	case SCN_END_POWEROFF:
		return "poweroff";
	case SCN_END_REBOOT:
		return "reboot";
	default:
		return "running";
	}
}

int boots_cmdline(const char *base, char *const *args, size_t nargs, char *buf,
		  size_t len)
{
	size_t at;
	int n;

	n = snprintf(buf, len, "%s", base);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	at = (size_t)n;
	for (size_t i = 0; i < nargs; i++) {
		n = snprintf(buf + at, len - at, " %s", args[i]);
		if (n < 0 || (size_t)n >= len - at)
			return -ENAMETOOLONG;
		at += (size_t)n;
	}
	return 0;
}

/* The 16 hex digits after "token " at the start of @got, or "". */
static void token_of(const char *got, char tok[17])
{
	tok[0] = '\0';
	if (!got || strncmp(got, "token ", 6) != 0 ||
	    strspn(got + 6, "0123456789abcdef") < 16)
		return;
	memcpy(tok, got + 6, 16);
	tok[16] = '\0';
}

ssize_t boots_check_markers(struct res_scenario *sc)
{
	char set[17] = "", tok[17], text[128];
	ssize_t set_at = -1, bad = -1;

	for (size_t i = 0; i < sc->nsteps; i++) {
		struct res_step *st = &sc->steps[i];

		if (!st->ran || strcmp(st->kind, "marker") != 0 ||
		    st->verdict != VERDICT_PASS)
			continue;
		token_of(st->got, tok);
		if (!*tok)
			continue;
		/* A set reports "... at uptime", a check "..., set at". */
		if (!strstr(st->got, ", set at ")) {
			memcpy(set, tok, sizeof(set));
			set_at = (ssize_t)i;
			continue;
		}
		if (!*set || strcmp(set, tok) == 0)
			continue;
		st->verdict = VERDICT_FAIL;
		snprintf(text, sizeof(text), "token %s (set by step %zd)", set,
			 set_at + 1);
		if (res_set_str(&st->expected, text) < 0 ||
		    res_set_str(
			    &st->reason,
			    "the marker read back is not the one set: another system") <
			    0)
			return (ssize_t)i;
		if (bad < 0)
			bad = (ssize_t)i;
	}
	return bad;
}
