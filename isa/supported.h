/*
 * Whether the engine implements every instruction of a function (checked once, when
 * a program loads; see isa/opcodes.def's execution classes).
 */
#ifndef PTXSIM_ISA_SUPPORTED_H
#define PTXSIM_ISA_SUPPORTED_H

#include "common/err.h"
#include "isa/module.h"

/* 0, or PS_ENOTSUP with err set at the first unsupported instruction's file:line:col. */
int isa_func_check_supported(const struct isa_module *m, const struct isa_func *f,
                             struct ps_err *err);

#endif
