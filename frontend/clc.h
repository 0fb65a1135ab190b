/*
 * OpenCL C, SPIR and SPIR-V to PTX, for ptxsim's OpenCL platform.
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
 *
 * SPIR-V goes through the translator llvm-spirv-14 -r (found at run time:
 * $PTXSIM_LLVM_SPIRV, else llvm-spirv-14 or llvm-spirv on PATH, else
 * /usr/bin/llvm-spirv-14) with OpenCL 1.2 built-in names, which libclc
 * defines. SPIR (spir64 LLVM bitcode, also the translator's output) is
 * retargeted to nvptx64: triple and data layout, __constant from address
 * space 2 to NVPTX's 4, the spir_func calling convention dropped, kernels
 * annotated for the NVPTX backend. Both then take the OpenCL C route from
 * the libclc link on.
 */
#ifndef PTXSIM_FRONTEND_CLC_H
#define PTXSIM_FRONTEND_CLC_H

#include <stdbool.h>
#include <stddef.h>

struct ps_err;

#define CLC_GLOBAL_OFFSET_SYM "__ptxsim_global_offset"

/*
 * One kernel argument as clang 14 describes it in the kernel's function
 * metadata (kernel_arg_addr_space, _access_qual, _type, _type_qual, _name),
 * for clGetKernelArgInfo. The address space uses the OpenCL numbering of
 * that metadata, not the IR's: 0 private, 1 global, 2 constant, 3 local.
 */
struct clc_arg_info {
    unsigned addr_space;
    char *access;    /* "none", "read_only", "write_only" or "read_write" */
    char *type;      /* the declared type name, typedefs kept ("float4*", "myfloat") */
    char *type_qual; /* blank-separated "const", "restrict", "volatile"; may be empty */
    char *name;
};

struct clc_kernel_args {
    char *kernel;
    unsigned nargs;
    struct clc_arg_info *args;
};

/*
 * The argument descriptions of a module's kernels. Only kernels whose
 * metadata names their arguments are listed: clang writes kernel_arg_name
 * only under -cl-kernel-arg-info, which is the option OpenCL 1.2 (5.7.3)
 * asks for before clGetKernelArgInfo answers.
 */
struct clc_arg_table {
    size_t n;
    struct clc_kernel_args *k;
};

/* Frees t and everything in it; NULL is fine. */
void clc_arg_table_destroy(struct clc_arg_table *t);
/* The kernel named kernel, or NULL (also when t is NULL). */
const struct clc_kernel_args *clc_arg_table_find(const struct clc_arg_table *t, const char *kernel);

/*
 * Compiles OpenCL C source (len bytes) with the build options of
 * clBuildProgram (-D, -I, -cl-std=, -cl-fast-relaxed-math, -cl-mad-enable,
 * -w, -Werror and the other -cl-* flags are passed to clang; unknown options
 * are rejected with PS_EINVAL). On success *ptx is the PTX text (owned by the
 * caller, NUL-terminated). *log always receives clang's diagnostics (owned by
 * the caller, possibly empty) when log is non-NULL. Returns 0, PS_EPARSE
 * when the source does not compile (the log says why, with line:column),
 * PS_EINVAL for bad options, PS_EIO/PS_ENOMEM for environment failures.
 * When args is non-NULL, *args receives the kernels' argument descriptions
 * (owned by the caller; NULL when no kernel has any, i.e. without
 * -cl-kernel-arg-info), read from clang's module before it is lowered.
 */
int clc_compile(const char *src, size_t len, const char *options, char **ptx, char **log,
                struct clc_arg_table **args, struct ps_err *err);

/* An embedded header of clCompileProgram: source for #include "name". */
struct clc_header {
    const char *name; /* relative path, no ".." */
    const char *src;
    size_t len;
};

/*
 * clCompileProgram: OpenCL C source to nvptx64 LLVM bitcode (*bc, *bc_len;
 * owned by the caller), with the headers visible to #include. Options and
 * errors as clc_compile; a bad header name is PS_EINVAL.
 */
int clc_compile_object(const char *src, size_t len, const char *options,
                       const struct clc_header *headers, size_t nheaders, void **bc,
                       size_t *bc_len, char **log, struct ps_err *err);

/*
 * clLinkProgram: links n bitcode modules (nvptx64 or spir64) into one
 * nvptx64 module, *out (owned by the caller). Returns 0, PS_EPARSE for a
 * module that does not parse or a conflict (err says which symbol),
 * PS_EINVAL for another target.
 */
int clc_link_objects(const void *const *bcs, const size_t *lens, size_t n, void **out,
                     size_t *out_len, struct ps_err *err);

/* Whether bin starts like LLVM bitcode (raw or wrapped) or like a SPIR-V module. */
bool clc_is_bitcode(const void *bin, size_t len);
bool clc_is_spirv(const void *il, size_t len);

/* 0 when bc parses as a spir64 or nvptx64 module; PS_EPARSE or PS_EINVAL otherwise. */
int clc_check_bitcode(const void *bc, size_t len, struct ps_err *err);

/*
 * LLVM bitcode (spir64, retargeted, or nvptx64) to PTX (*ptx, owned by the
 * caller). Returns 0, PS_EPARSE, PS_EINVAL (another target) or PS_ENOTSUP
 * (a called function neither the module nor libclc defines). args as for
 * clc_compile (clLinkProgram's output keeps its objects' metadata).
 */
int clc_lower_bitcode(const void *bc, size_t len, char **ptx, struct clc_arg_table **args,
                      struct ps_err *err);

/*
 * SPIR-V to PTX through llvm-spirv and clc_lower_bitcode. *log receives the
 * translator's messages when it printed any (owned by the caller). Returns
 * 0, PS_ENOTSUP when the translator is missing (the message names it) or the
 * module calls what libclc lacks, PS_EPARSE when translation fails.
 */
int clc_lower_spirv(const void *il, size_t len, char **ptx, char **log, struct ps_err *err);

#endif
