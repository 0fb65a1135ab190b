/*
 * Internal to the OpenCL front end (frontend/clc*.c, built with $(LLVM_CFLAGS)): the
 * jobs behind clc.h's entry points. clc.c calls them; clc_lower.c calls clc_proc.c
 * (reading files), clc_images.c and clc_args.c; those call no other clc file.
 */
#ifndef PTXSIM_FRONTEND_CLC_INT_H
#define PTXSIM_FRONTEND_CLC_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "frontend/clc.h"

struct ps_err;

/* Whether s starts with p. */
static inline bool clc_has_prefix(const char *s, const char *p)
{
    return !strncmp(s, p, strlen(p));
}

/* ---- clc_proc.c: subprocesses and the temporary directory of one compilation ---- */

struct clc_tmp {
    char dir[64];
    char src[96], bc[96], log[96], spv[96];
};

/* A whole file, NUL-terminated (malloc'd; *len without the NUL when len is given), or NULL. */
char *clc_read_all(const char *path, size_t *len);
int clc_write_file(const char *path, const void *data, size_t len, struct ps_err *err);
/* A fresh private directory and the names of the files in it. */
int clc_tmp_create(struct clc_tmp *t, struct ps_err *err);
/* Removes the directory and everything in it (header files may add subdirectories). */
void clc_tmp_cleanup(struct clc_tmp *t);
/* Writes each header as dir/NAME (creating NAME's directories) for #include "NAME". */
int clc_write_headers(struct clc_tmp *t, const struct clc_header *h, size_t n, struct ps_err *err);
/* clang: t->src (OpenCL C) -> bitcode in t->bc; its diagnostics in *log. */
int clc_compile_source(struct clc_tmp *t, const char *options, char **log, struct ps_err *err);
/* llvm-spirv -r: t->spv -> t->bc, with OpenCL 1.2 built-in names (what libclc defines). */
int clc_translate_spirv(struct clc_tmp *t, char **log, struct ps_err *err);

/* ---- clc_lower.c: LLVM lowering ---- */

/* A context whose first diagnostic goes into diag (a caller buffer) instead of stderr. */
LLVMContextRef clc_context_new(char *diag);
/* Parses bitcode (the bytes are copied) into *m. */
int clc_parse_bitcode(LLVMContextRef ctx, const void *bc, size_t len, const char *what,
                      LLVMModuleRef *m, struct ps_err *err);
int clc_load_bitcode(LLVMContextRef ctx, const char *path, LLVMModuleRef *m, struct ps_err *err);
/* An nvptx64 module to PTX: builtins, internalising, O2, emission. */
int clc_lower_module(LLVMContextRef ctx, LLVMModuleRef m, bool check, char **ptx,
                     struct ps_err *err);
/* Makes *m an nvptx64 module: spir64 is retargeted, nvptx64 kept, others refused. */
int clc_retarget(LLVMContextRef ctx, LLVMModuleRef *m, struct ps_err *err);
/* Parsed, retargeted and lowered, with the context's first error on failure. */
int clc_lower_bitcode_in(LLVMContextRef ctx, const char *diag, const void *bc, size_t len,
                         char **ptx, struct clc_arg_table **args, struct ps_err *err);

/* ---- clc_images.c: OpenCL image built-ins and constant samplers to inline PTX ---- */

int clc_lower_images(LLVMContextRef ctx, LLVMModuleRef m, struct ps_err *err);

/* ---- clc_args.c: kernel argument metadata ---- */

/* The argument descriptions of m's kernels into *out (NULL when none has any). */
int clc_read_arg_table(LLVMContextRef ctx, LLVMModuleRef m, struct clc_arg_table **out,
                       struct ps_err *err);

#endif
