/*
 * Static instruction counts of OpenCL C kernels in the CMP taxonomy of
 * HeteroPDP (docs/heteropdp.md, "Features"), from the kernel's LLVM IR as
 * clang 14 emits it at -O2 (clc_compile_object's module, before libclc is
 * linked, so built-in calls count once each).
 *
 * The vector/scalar rule: CPU OpenCL devices (Intel's, PoCL's) vectorise a
 * kernel across work-items, which the kernel's own loops (data-dependent or
 * long trip counts, calls) usually defeat. So an instruction outside the
 * kernel's loops is "vector"; one inside a loop is "scalar" unless its own
 * type is an LLVM vector (for a store: the stored value's), as OpenCL vector
 * types (float4) are.
 * MEM = load and store; BRANCH = br, switch, indirectbr; ATOMIC = atomicrmw,
 * cmpxchg, fence and calls to functions whose name contains "atom"; ALU =
 * every other instruction except phi, alloca, ret, unreachable and debug
 * intrinsics. Each instruction counts once per trip of the loops around it:
 * a back edge closes a loop, whose trip count comes from its exit icmp
 * against a constant C: |C - start| / |step| for a counter `add phi, step`
 * with a constant start, else C; else 16; at most 4096; loops are the
 * natural loops of back edges (to a block that dominates the branch). A call
 * to a transcendental built-in (sin, cos, tan, exp, log, pow, erf, cbrt,
 * hypot, gamma) counts as 20 ALU instructions.
 */
#ifndef PTXSIM_FRONTEND_CLC_FEATURES_H
#define PTXSIM_FRONTEND_CLC_FEATURES_H

#include <stddef.h>

struct ps_err;

enum clc_feat {
    CLC_F_SALU,
    CLC_F_SMEM,
    CLC_F_VALU,
    CLC_F_VMEM,
    CLC_F_BRANCH,
    CLC_F_ATOMIC,
    CLC_F_N
};

/*
 * Counts the n kernels named in kernels of OpenCL C source src (build
 * options as clc_compile), compiled once, into out[i]. Returns 0, PS_EPARSE
 * (does not compile), PS_ENOTFOUND (a kernel is missing) or an environment
 * error.
 */
int clc_kernel_features(const char *src, size_t len, const char *options,
                        const char *const *kernels, size_t n, double (*out)[CLC_F_N],
                        struct ps_err *err);

#endif
