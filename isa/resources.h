/*
 * Per-kernel resource usage as PTX states it: parameter bytes, declared
 * registers, and the shared, local and constant memory a kernel can reach
 * (its own declarations plus module variables referenced by it or by the
 * functions it calls). Occupancy calculations and `ptxsim ptx` read this.
 */
#ifndef PTXSIM_ISA_RESOURCES_H
#define PTXSIM_ISA_RESOURCES_H

#include <stdbool.h>
#include <stdint.h>

#include "isa/types.h"

struct isa_module;

struct isa_resources {
    uint64_t param_bytes;
    uint32_t regs_by_type[ISA_TYPE_COUNT]; /* declared register slots per enum isa_type */
    uint32_t regs32;           /* 32-bit register words (64-bit counts 2, .pred 0) */
    uint64_t shared_bytes;     /* static shared memory */
    bool dynamic_shared;       /* references an .extern .shared array */
    uint64_t local_bytes;      /* .local declarations (stack depot) */
    uint64_t const_bytes;      /* .const variables reached */
    uint64_t global_bytes;     /* module .global variables reached */
    uint32_t ninstrs;          /* static instructions in the kernel and its callees */
    uint32_t ncallees;
    bool recursive;
};

/*
 * Fills r for function fidx of m. Registers and locals of callees are
 * summed (an upper bound, as no stack reuse is assumed). Returns 0 or
 * PS_ENOMEM.
 */
int isa_resources_of(const struct isa_module *m, uint32_t fidx, struct isa_resources *r);

#endif
