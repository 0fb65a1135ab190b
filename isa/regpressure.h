/*
 * Register pressure: the most 32-bit register words a function keeps live at
 * once (callees included), the timing model's estimate of what ptxas would
 * allocate per thread.
 */
#ifndef PTXSIM_ISA_REGPRESSURE_H
#define PTXSIM_ISA_REGPRESSURE_H

#include <stdint.h>

struct isa_module;

/* Peak live 32-bit words of function fidx; UINT32_MAX when out of memory. */
uint32_t isa_reg_pressure(const struct isa_module *m, uint32_t fidx);

#endif
