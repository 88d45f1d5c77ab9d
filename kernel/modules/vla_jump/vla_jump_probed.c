// SPDX-License-Identifier: GPL-2.0-only
/*
 * vla_jump_probed: vla_jump.c compiled with -fstack-clash-protection (see
 * Kbuild), so that GCC touches every page the VLA moves the stack pointer
 * over. Its debugfs folder is vla_jump_probed, after KBUILD_MODNAME.
 */
#include "vla_jump.c"
