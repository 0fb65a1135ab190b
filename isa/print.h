/*
 * Representation back to PTX text. The output parses to an equal module
 * (isa_module_equal), which is how the front end's round trip is tested;
 * it is also what `ptxsim ptx --print` shows and what device-fault reports
 * quote for the faulting instruction.
 */
#ifndef PTXSIM_ISA_PRINT_H
#define PTXSIM_ISA_PRINT_H

#include <stdio.h>

struct isa_module;
struct isa_func;
struct isa_instr;

/* Writes the whole module. Returns 0, or PS_EIO when the stream reports an error. */
int isa_print_module(const struct isa_module *m, FILE *out);

/* Writes one instruction of f (no indentation, no newline). */
void isa_print_instr(const struct isa_module *m, const struct isa_func *f,
                     const struct isa_instr *in, FILE *out);

#endif
