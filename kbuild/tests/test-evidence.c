// SPDX-License-Identifier: GPL-2.0-only
/* The evidence parsers: kernel/evidence, .su files, nm -S, GCC's warnings,
 * on text taken from the vla flavour's build of lib/bch.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kb.h"
#include "tap.h"

static const char su[] =
	"/c/trees/vla/lib/bch.c:241:6:bch_encode\t192\tdynamic\n"
	"/c/trees/vla/lib/bch.c:499:12:solve_linear_system.constprop.0.isra.0\t168\tstatic\n"
	"/c/trees/vla/lib/bch.c:1012:5:bch_decode\t264\tstatic\n";

static const char nm[] =
	"0000000000000000 00000000000009e4 T bch_encode\n"
	"0000000000000000 000000000000001a t bch_encode.cold\n"
	"0000000000000a00 0000000000000383 t solve_linear_system.constprop.0.isra.0\n"
	"0000000000001000 0000000000000100 T bch_encode_unaligned_x\n"
	"                 U kmalloc_trace\n"
	"0000000000000010 0000000000000010 D bch_encode\n";

static const char gcc[] =
	"/c/trees/vla/lib/bch.c: In function 'bch_encode':\n"
	"/c/trees/vla/lib/bch.c:247:9: warning: ISO C90 forbids variable length array 'r' [-Wvla]\n"
	"/c/trees/vla/lib/bch.c: In function 'solve_linear_system':\n"
	"/c/trees/vla/lib/bch.c:504:9: warning: ISO C90 forbids variable length array 'param' [-Wvla]\n"
	"/c/trees/vla/lib/bch.c:560:1: warning: the frame size of 4432 bytes is larger than 2048 bytes [-Wframe-larger-than=]\n"
	"/c/trees/vla/lib/bch.c: At top level:\n"
	"/c/trees/vla/lib/bch.c:9:1: warning: something else [-Wvla]\n"
	"/c/trees/vla/kernel/trace/ftrace.c: In function \xe2\x80\x98module_exists\xe2\x80\x99:\n"
	"/c/trees/vla/kernel/trace/ftrace.c:4326:9: warning: ISO C90 forbids array \xe2\x80\x98modname\xe2\x80\x99 whose size cannot be evaluated [-Wvla]\n";

int main(void)
{
	struct kb_evidence_spec s;
	char err[256], kind[32], syms[128];
	unsigned vla, frame;
	long b;

	ok(kb_evidence_spec_parse(
		   "evidence",
		   "# c\n\nfunction lib/bch.o bch_encode\n"
		   "function kernel/trace/ftrace.o module_exists\n"
		   "variant const lib/bch.o -DCONFIG_BCH_CONST_PARAMS -DCONFIG_BCH_CONST_M=13\n",
		   &s, err, sizeof(err)) == 0,
	   "a spec with functions and a variant parses");
	ok(s.nfn == 2 && !strcmp(s.fn[1].object, "kernel/trace/ftrace.o") &&
		   !strcmp(s.fn[1].function, "module_exists"),
	   "functions keep their object and name");
	ok(s.nvar == 1 && s.var[0].nflags == 2 &&
		   !strcmp(s.var[0].flags[1], "-DCONFIG_BCH_CONST_M=13"),
	   "a variant keeps its flags");
	kb_evidence_spec_free(&s);
	ok(kb_evidence_spec_parse("evidence", "function lib/bch.c bch_encode\n",
				  &s, err, sizeof(err)) == -EINVAL &&
		   strstr(err, "evidence:1:"),
	   "an object that is not a .o is an error naming the line");
	ok(kb_evidence_spec_parse("evidence", "\nfunction ../x.o f\n", &s, err,
				  sizeof(err)) == -EINVAL &&
		   strstr(err, "evidence:2:"),
	   "an object outside the tree is an error");
	ok(kb_evidence_spec_parse("evidence", "variant v lib/bch.o ;rm\n", &s,
				  err, sizeof(err)) == -EINVAL,
	   "a variant's flag must look like a flag");
	ok(kb_evidence_spec_parse("evidence", "variant build lib/bch.o -DX\n",
				  &s, err, sizeof(err)) == -EINVAL,
	   "a variant cannot take the build's name");

	ok(kb_su_parse(su, "bch_encode", &b, kind, sizeof(kind)) == 0 &&
		   b == 192 && !strcmp(kind, "dynamic"),
	   "the .su frame of a function and its kind");
	ok(kb_su_parse(su, "solve_linear_system", &b, kind, sizeof(kind)) ==
			   0 &&
		   b == 168 && !strcmp(kind, "static"),
	   "a function GCC only cloned is found by its clone");
	ok(kb_su_parse(su, "build_deg2_base", &b, kind, sizeof(kind)) ==
			   -ENOENT &&
		   b == -1,
	   "an inlined function has no frame");

	ok(kb_nm_code_size(nm, "bch_encode", &b, syms, sizeof(syms)) == 0 &&
		   b == 0x9e4 + 0x1a &&
		   !strcmp(syms, "bch_encode bch_encode.cold"),
	   "code size adds the cold part, not data or a longer name");
	ok(kb_nm_code_size(nm, "module_exists", &b, syms, sizeof(syms)) ==
			   -ENOENT &&
		   b == -1 && !syms[0],
	   "a function without a symbol has no code size");

	kb_warnings_in(gcc, "bch_encode", &vla, &frame);
	ok(vla == 1 && frame == 0, "the -Wvla warning in bch_encode");
	kb_warnings_in(gcc, "solve_linear_system", &vla, &frame);
	ok(vla == 1 && frame == 1,
	   "-Wvla and -Wframe-larger-than in solve_linear_system, not the top-level one");
	kb_warnings_in(gcc, "module_exists", &vla, &frame);
	ok(vla == 1 && frame == 0, "GCC's UTF-8 quotes around the name");
	kb_warnings_in(gcc, "bch_decode", &vla, &frame);
	ok(vla == 0 && frame == 0, "none in a function not named");
	return tap_done();
}
