/*
 * OpenCL C, SPIR and SPIR-V to PTX through clang 14 and llvm-spirv-14 (both
 * subprocesses) and the LLVM 14 C API. See clc.h for the routes and
 * docs/opencl.md for the options accepted. This file holds the public entry
 * points; the jobs are in clc_proc.c (subprocesses and temporary files),
 * clc_lower.c (LLVM lowering, SPIR retargeting) and clc_args.c (kernel
 * argument metadata), declared in clc_int.h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkdtemp, nftw */
#endif
#include "frontend/clc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "common/err.h"
#include "config.h"
#include "frontend/clc_int.h"

/* ---- public entry points ------------------------------------------------ */

bool clc_is_bitcode(const void *bin, size_t len)
{
    static const unsigned char raw[4] = {'B', 'C', 0xc0, 0xde}, wrap[4] = {0xde, 0xc0, 0x17, 0x0b};

    return len >= 4 && (!memcmp(bin, raw, 4) || !memcmp(bin, wrap, 4));
}

bool clc_is_spirv(const void *il, size_t len)
{
    static const unsigned char le[4] = {0x03, 0x02, 0x23, 0x07}, be[4] = {0x07, 0x23, 0x02, 0x03};

    return len >= 20 && len % 4 == 0 && (!memcmp(il, le, 4) || !memcmp(il, be, 4));
}

int clc_check_bitcode(const void *bc, size_t len, struct ps_err *err)
{
    char diag[PS_ERR_MSG_MAX / 2];
    LLVMContextRef ctx = clc_context_new(diag);
    LLVMModuleRef m = NULL;
    int rc = clc_parse_bitcode(ctx, bc, len, "program binary", &m, err);
    const char *triple = m ? LLVMGetTarget(m) : "";

    if (!rc && !clc_has_prefix(triple, "nvptx64") && !clc_has_prefix(triple, "spir64"))
        rc = ps_err_set(err, PS_EINVAL, "LLVM module for '%s' (want spir64 or nvptx64)", triple);
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return rc;
}

int clc_compile(const char *src, size_t len, const char *options, char **ptx, char **log,
                struct clc_arg_table **args, struct ps_err *err)
{
    struct clc_tmp t;
    char diag[PS_ERR_MSG_MAX / 2];
    LLVMContextRef ctx;
    LLVMModuleRef m = NULL;
    int rc;

    *ptx = NULL;
    if (log)
        *log = NULL;
    if (args)
        *args = NULL;
    rc = clc_tmp_create(&t, err);
    if (!rc)
        rc = clc_write_file(t.src, src, len, err);
    if (!rc)
        rc = clc_compile_source(&t, options, log, err);
    if (rc) {
        clc_tmp_cleanup(&t);
        return rc;
    }
    ctx = clc_context_new(diag);
    rc = clc_load_bitcode(ctx, t.bc, &m, err);
    if (!rc && args)
        rc = clc_read_arg_table(ctx, m, args, err);
    if (!rc)
        rc = clc_lower_module(ctx, m, false, ptx, err);
    if (rc && args) {
        clc_arg_table_destroy(*args);
        *args = NULL;
    }
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    clc_tmp_cleanup(&t);
    return rc;
}

int clc_compile_object(const char *src, size_t len, const char *options,
                       const struct clc_header *headers, size_t nheaders, void **bc, size_t *bc_len,
                       char **log, struct ps_err *err)
{
    struct clc_tmp t;
    int rc;

    *bc = NULL;
    if (log)
        *log = NULL;
    rc = clc_tmp_create(&t, err);
    if (rc)
        return rc;
    rc = clc_write_headers(&t, headers, nheaders, err);
    if (!rc)
        rc = clc_write_file(t.src, src, len, err);
    if (!rc)
        rc = clc_compile_source(&t, options, log, err);
    if (!rc && !(*bc = clc_read_all(t.bc, bc_len)))
        rc = ps_err_set(err, PS_EIO, "cannot read %s", t.bc);
    clc_tmp_cleanup(&t);
    return rc;
}

int clc_link_objects(const void *const *bcs, const size_t *lens, size_t n, void **out,
                     size_t *out_len, struct ps_err *err)
{
    char diag[PS_ERR_MSG_MAX / 2];
    LLVMContextRef ctx = clc_context_new(diag);
    LLVMModuleRef m = NULL;
    LLVMMemoryBufferRef buf;
    int rc = n ? 0 : ps_err_set(err, PS_EINVAL, "nothing to link");

    *out = NULL;
    for (size_t i = 0; !rc && i < n; i++) {
        LLVMModuleRef cur = NULL;

        rc = clc_parse_bitcode(ctx, bcs[i], lens[i], "program binary", &cur, err);
        if (!rc)
            rc = clc_retarget(ctx, &cur, err);
        if (rc && cur)
            LLVMDisposeModule(cur);
        else if (!rc && !m)
            m = cur;
        else if (!rc && LLVMLinkModules2(m, cur)) /* takes cur */
            rc = ps_err_set(err, PS_EPARSE, "link failed: %s", *diag ? diag : "?");
    }
    if (!rc) {
        buf = LLVMWriteBitcodeToMemoryBuffer(m);
        *out_len = LLVMGetBufferSize(buf);
        *out = malloc(*out_len);
        if (*out)
            memcpy(*out, LLVMGetBufferStart(buf), *out_len);
        else
            rc = ps_err_set(err, PS_ENOMEM, "out of memory");
        LLVMDisposeMemoryBuffer(buf);
    }
    if (m)
        LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return rc;
}

int clc_lower_bitcode(const void *bc, size_t len, char **ptx, struct clc_arg_table **args,
                      struct ps_err *err)
{
    char diag[PS_ERR_MSG_MAX / 2];
    LLVMContextRef ctx = clc_context_new(diag);
    int rc;

    *ptx = NULL;
    if (args)
        *args = NULL;
    rc = clc_lower_bitcode_in(ctx, diag, bc, len, ptx, args, err);
    LLVMContextDispose(ctx);
    return rc;
}

int clc_lower_spirv(const void *il, size_t len, char **ptx, char **log, struct ps_err *err)
{
    char diag[PS_ERR_MSG_MAX / 2], *bc;
    struct clc_tmp t;
    LLVMContextRef ctx;
    size_t bc_len = 0;
    int rc;

    *ptx = NULL;
    if (log)
        *log = NULL;
    rc = clc_tmp_create(&t, err);
    if (rc)
        return rc;
    rc = clc_write_file(t.spv, il, len, err);
    if (!rc)
        rc = clc_translate_spirv(&t, log, err);
    bc = rc ? NULL : clc_read_all(t.bc, &bc_len);
    clc_tmp_cleanup(&t);
    if (rc || !bc)
        return rc ? rc : ps_err_set(err, PS_EIO, "cannot read the translated SPIR-V");
    ctx = clc_context_new(diag);
    rc = clc_lower_bitcode_in(ctx, diag, bc, bc_len, ptx, NULL, err);
    LLVMContextDispose(ctx);
    free(bc);
    return rc;
}
