/*
 * OpenCL C to PTX, for ptxsim's OpenCL platform.
 *
 * clang 14 runs as a subprocess (PTXSIM_CLANG_PATH) and turns the source into
 * LLVM bitcode for nvptx64-nvidia-nvcl at -O2 (clang's -O0 marks functions
 * optnone, which leaves a local-memory depot in every kernel). The LLVM 14 C
 * API then links libclc's builtins (PTXSIM_LIBCLC_BC_PATH) and a small
 * prelude of ptxsim's own, runs the "default<O2>" pipeline and emits PTX for
 * an sm_20 NVPTX target machine.
 *
 * Global work offsets: libclc's nvptx get_global_id ignores them and leaves
 * get_global_offset undefined, so the prelude defines both over a module
 * variable CLC_GLOBAL_OFFSET_SYM (.global .u64 [3]) that the runtime fills
 * before each launch.
 */
#ifndef PTXSIM_FRONTEND_CLC_H
#define PTXSIM_FRONTEND_CLC_H

#include <stddef.h>

struct ps_err;

#define CLC_GLOBAL_OFFSET_SYM "__ptxsim_global_offset"

/*
 * Compiles OpenCL C source (len bytes) with the build options of
 * clBuildProgram (-D, -I, -cl-std=, -cl-fast-relaxed-math, -cl-mad-enable,
 * -w, -Werror and the other -cl-* flags are passed to clang; unknown options
 * are rejected with PS_EINVAL). On success *ptx is the PTX text (owned by the
 * caller, NUL-terminated). *log always receives clang's diagnostics (owned by
 * the caller, possibly empty) when log is non-NULL. Returns 0, PS_EPARSE
 * when the source does not compile (the log says why, with line:column),
 * PS_EINVAL for bad options, PS_EIO/PS_ENOMEM for environment failures.
 */
int clc_compile(const char *src, size_t len, const char *options, char **ptx, char **log,
                struct ps_err *err);

#endif
