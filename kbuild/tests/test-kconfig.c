// SPDX-License-Identifier: GPL-2.0-only
/* .config, fragment and Kconfig parsers, and the verification logic. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kb.h"
#include "tap.h"

static void test_lines(void)
{
	char name[KB_SYM_MAX], val[KB_VAL_MAX];

	okf(kb_config_line("CONFIG_FOO=y", name, val) == KB_CFG_SET && !strcmp(name, "FOO") &&
		    !strcmp(val, "y"),
	    "CONFIG_FOO=y");
	okf(kb_config_line("CONFIG_NR_CPUS=64  ", name, val) == KB_CFG_SET && !strcmp(val, "64"),
	    "a number, trailing blanks dropped");
	okf(kb_config_line("CONFIG_CMDLINE=\"a b=c\"", name, val) == KB_CFG_SET && !strcmp(val, "\"a b=c\""),
	    "a quoted string keeps its quotes");
	okf(kb_config_line("# CONFIG_BAR is not set", name, val) == KB_CFG_UNSET && !strcmp(name, "BAR") &&
		    !strcmp(val, "n"),
	    "# CONFIG_BAR is not set");
	okf(kb_config_line("# Seed 002: bridge VLAN", name, val) == KB_CFG_OTHER, "a plain comment");
	okf(kb_config_line("# CONFIG_BAR is set", name, val) == KB_CFG_OTHER, "a comment that is not an unset");
	okf(kb_config_line("", name, val) == KB_CFG_OTHER, "a blank line");
	okf(kb_config_line("   \t", name, val) == KB_CFG_OTHER, "a line of blanks");
	okf(kb_config_line("FOO=y", name, val) == -EINVAL, "no CONFIG_ prefix is malformed");
	okf(kb_config_line("CONFIG_FOO", name, val) == -EINVAL, "no '=' is malformed");
	okf(kb_config_line("CONFIG_FOO=", name, val) == -EINVAL, "no value is malformed");
	okf(kb_config_line("CONFIG_=y", name, val) == -EINVAL, "no name is malformed");
	okf(kb_config_line("CONFIG_FOO BAR=y", name, val) == -EINVAL, "a blank in the name is malformed");
}

static const char dotconfig[] =
	"#\n"
	"# Automatically generated file; DO NOT EDIT.\n"
	"#\n"
	"CONFIG_CC_VERSION_TEXT=\"gcc (Debian 12.2.0-14+deb12u1) 12.2.0\"\n"
	"CONFIG_BRIDGE=y\n"
	"# CONFIG_VLAN_8021Q is not set\n"
	"CONFIG_NET_DSA_LOOP=m\n"
	"CONFIG_NR_CPUS=64\n"
	"CONFIG_LATE=n\n"
	"CONFIG_NR_CPUS=8\n";

static void test_dotconfig(void)
{
	struct kb_config c;

	okf(kb_config_parse(dotconfig, &c) == 0, ".config parses");
	okf(kb_config_get(&c, "BRIDGE") && !strcmp(kb_config_get(&c, "BRIDGE"), "y"), "BRIDGE=y");
	okf(kb_config_get(&c, "VLAN_8021Q") && !strcmp(kb_config_get(&c, "VLAN_8021Q"), "n"),
	    "an unset option reads as n");
	okf(!strcmp(kb_config_get(&c, "NET_DSA_LOOP"), "m"), "a module");
	okf(!strcmp(kb_config_get(&c, "NR_CPUS"), "8"), "the last assignment wins");
	okf(kb_config_get(&c, "MISSING") == NULL, "an absent option is NULL");
	okf(c.n == 6, "six distinct options (got %zu)", c.n);
	kb_config_free(&c);
}

static const char frag_text[] =
	"# Seed 002: bridge VLAN\n"
	"CONFIG_BRIDGE=y\n"
	"\n"
	"CONFIG_BRIDGE_VLAN_FILTERING=y\n"
	"# CONFIG_NET_DSA_LOOP is not set\n"
	"CONFIG_NR_CPUS=8\n"
	"CONFIG_LATE=n\n"
	"CONFIG_ABSENT_OFF=n\n"
	"CONFIG_ABSENT_ON=y\n";

static void test_fragment_and_verify(void)
{
	struct kb_fragment f;
	struct kb_config c;
	struct kb_mismatch *mm = NULL;
	size_t n = 0;
	unsigned line = 0;

	okf(kb_fragment_parse("configs/dsa.config", frag_text, &f, &line) == 0, "fragment parses");
	okf(f.n == 7, "seven wanted options (got %zu)", f.n);
	okf(f.n >= 2 && f.v[1].line == 4 && !strcmp(f.v[1].name, "BRIDGE_VLAN_FILTERING"),
	    "line numbers count comments and blanks");
	okf(kb_config_parse(dotconfig, &c) == 0, ".config parses");
	okf(kb_config_verify(&f, 1, &c, &mm, &n) == 0, "verification runs");
	okf(n == 3, "three mismatches (got %zu)", n);
	if (n == 3) {
		okf(!strcmp(mm[0].name, "BRIDGE_VLAN_FILTERING") && !strcmp(mm[0].want, "y") &&
			    !strcmp(mm[0].got, "(absent)") && mm[0].line == 4 &&
			    !strcmp(mm[0].file, "configs/dsa.config"),
		    "a dropped option: name, want, got, file:line");
		okf(!strcmp(mm[1].name, "NET_DSA_LOOP") && !strcmp(mm[1].want, "n") && !strcmp(mm[1].got, "m"),
		    "an option wanted off but on");
		okf(!strcmp(mm[2].name, "ABSENT_ON"), "an absent option wanted on");
	}
	free(mm);
	kb_fragment_free(&f);

	okf(kb_fragment_parse("configs/bad.config", "CONFIG_A=y\nthis is junk\n", &f, &line) == -EINVAL &&
		    line == 2,
	    "a malformed fragment line is reported with its number");

	/* Everything wanted is there: no mismatch. */
	okf(kb_fragment_parse("configs/ok.config", "CONFIG_BRIDGE=y\n# CONFIG_VLAN_8021Q is not set\n", &f,
			      &line) == 0,
	    "a satisfied fragment parses");
	mm = NULL;
	okf(kb_config_verify(&f, 1, &c, &mm, &n) == 0 && n == 0 && mm == NULL, "a satisfied fragment verifies");
	kb_fragment_free(&f);
	kb_config_free(&c);
}

static const char kconfig_text[] =
	"# SPDX-License-Identifier: GPL-2.0\n"
	"config BRIDGE\n"
	"\ttristate \"802.1d Ethernet Bridging\"\n"
	"\tselect LLC\n"
	"\tselect STP\n"
	"\tdepends on IPV6 || IPV6=n\n"
	"\thelp\n"
	"\t  If you say Y here, then your Linux box will be able to act as an\n"
	"\t  Ethernet bridge.\n"
	"\n"
	"\t  config BRIDGE_VLAN_FILTERING is mentioned in help text\n"
	"\t  depends on NOTHING_IN_HELP\n"
	"\n"
	"if BRIDGE && NET\n"
	"menu \"Bridge options\"\n"
	"\tdepends on INET\n"
	"\n"
	"config BRIDGE_VLAN_FILTERING\n"
	"\tbool \"VLAN filtering\"\n"
	"\tdepends on BRIDGE\n"
	"\tdepends on VLAN_8021Q && \\\n"
	"\t\t   !COMPILE_TEST # a comment\n"
	"\tdefault n\n"
	"\n"
	"endmenu\n"
	"endif\n"
	"\n"
	"config IRQ_SIM\n"
	"\tbool\n"
	"\tselect IRQ_WORK\n"
	"\n"
	"config BRIDGE_VLAN_FILTERING_X\n"
	"\tbool \"not the same\"\n"
	"\tdepends on FOO\n";

static void test_kconfig(void)
{
	struct kb_ksyms s = { 0 };
	struct kb_config c;
	char vals[256];

	okf(kb_kconfig_scan("net/bridge/Kconfig", kconfig_text, "BRIDGE_VLAN_FILTERING", &s) == 0,
	    "Kconfig scan runs");
	okf(s.n == 1, "one definition found, help text and longer names skipped (got %zu)", s.n);
	if (s.n == 1) {
		const struct kb_ksym *k = &s.v[0];

		okf(k->line == 18 && !strcmp(k->file, "net/bridge/Kconfig"), "defined at line 18 (got %u)",
		    k->line);
		okf(k->has_prompt, "it has a prompt");
		okf(k->ndeps == 4, "if + menu depends + two depends on (got %zu)", k->ndeps);
		if (k->ndeps == 4) {
			okf(!strcmp(k->deps[0].kind, "if") && !strcmp(k->deps[0].expr, "BRIDGE && NET") &&
				    k->deps[0].line == 14,
			    "enclosing if, with its line");
			okf(!strcmp(k->deps[1].kind, "menu depends on") && !strcmp(k->deps[1].expr, "INET"),
			    "menu depends on");
			okf(!strcmp(k->deps[2].expr, "BRIDGE") && k->deps[2].line == 20, "first depends on");
			okf(!strcmp(k->deps[3].expr, "VLAN_8021Q &&  \t\t   !COMPILE_TEST") ||
				    strstr(k->deps[3].expr, "!COMPILE_TEST") != NULL,
			    "a continued depends on is joined, comment dropped: '%s'", k->deps[3].expr);
			okf(!strstr(k->deps[3].expr, "#"), "no comment in the expression");
		}
	}
	kb_ksyms_free(&s);

	okf(kb_kconfig_scan("lib/Kconfig", kconfig_text, "IRQ_SIM", &s) == 0 && s.n == 1 && !s.v[0].has_prompt &&
		    s.v[0].ndeps == 0,
	    "a symbol without a prompt and without depends on");
	kb_ksyms_free(&s);
	okf(kb_kconfig_scan("x/Kconfig", kconfig_text, "NOTHING_IN_HELP", &s) == 0 && s.n == 0,
	    "an unknown symbol is not found");
	kb_ksyms_free(&s);

	okf(kb_config_parse(dotconfig, &c) == 0, ".config parses");
	kb_expr_values("VLAN_8021Q && !COMPILE_TEST || BRIDGE=y && VLAN_8021Q && m", &c, vals, sizeof(vals));
	okf(!strcmp(vals, "VLAN_8021Q=n COMPILE_TEST=n BRIDGE=y"), "expression values: '%s'", vals);
	kb_config_free(&c);
}

int main(void)
{
	test_lines();
	test_dotconfig();
	test_fragment_and_verify();
	test_kconfig();
	return tap_done();
}
