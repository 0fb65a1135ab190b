/*
 * Programs: OpenCL C source, SPIR-V (clCreateProgramWithIL), or a binary that
 * is PTX text or LLVM bitcode (nvptx64, or spir64 SPIR 1.2), lowered to PTX
 * by frontend/clc (clang 14, llvm-spirv-14 and the LLVM 14 C API; clc.h).
 * The binary of a built program is its PTX; that of a compiled object or
 * library (program_link.c) its nvptx64 bitcode. The engine module is loaded
 * into the context's device when the build succeeds.
 */
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>

#include "common/err.h"
#include "frontend/clc.h"
#include "runtime/opencl/cpu.h"
#include "runtime/opencl/hpdp.h"
#include "runtime/opencl/ocl.h"

#include <CL/cl_ext.h>

cl_program ocl_program_new(cl_context c, enum ocl_prog_kind kind, cl_int *rc)
{
    cl_program p = calloc(1, sizeof(*p));

    if (!p) {
        *rc = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    p->dispatch = &ocl_dispatch;
    p->magic = OCL_MAGIC_PROGRAM;
    ocl_registry_add(p);
    p->refs = 1;
    p->ctx = c;
    p->kind = kind;
    p->status = CL_BUILD_NONE;
    p->btype = CL_PROGRAM_BINARY_TYPE_NONE;
    clRetainContext(c);
    *rc = CL_SUCCESS;
    return p;
}

/* Concatenates the strings (lengths 0 mean NUL-terminated). */
static char *join_sources(cl_uint n, const char **strings, const size_t *lengths)
{
    size_t total = 0, at = 0;
    char *s;

    for (cl_uint i = 0; i < n; i++)
        total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    s = malloc(total + 1);
    for (cl_uint i = 0; s && i < n; i++) {
        size_t len = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);

        memcpy(s + at, strings[i], len);
        at += len;
    }
    if (s)
        s[at] = '\0';
    return s;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context c, cl_uint n,
                                                              const char **strings,
                                                              const size_t *lengths,
                                                              cl_int *errcode)
{
    cl_program p = NULL;
    cl_int rc = CL_SUCCESS;

    if (!ocl_valid(c, OCL_MAGIC_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if (!n || !strings)
        rc = CL_INVALID_VALUE;
    for (cl_uint i = 0; rc == CL_SUCCESS && i < n; i++)
        if (!strings[i])
            rc = CL_INVALID_VALUE;
    if (rc == CL_SUCCESS)
        p = ocl_program_new(c, OCL_PROG_SOURCE, &rc);
    if (p && !(p->source = join_sources(n, strings, lengths))) {
        clReleaseProgram(p);
        p = NULL;
        rc = CL_OUT_OF_HOST_MEMORY;
    }
    if (errcode)
        *errcode = rc;
    return p;
}

/* Keeps a copy of the bitcode or SPIR-V given in p->bin. */
static cl_int keep_bin(cl_program p, const void *bin, size_t len)
{
    p->bin = malloc(len);
    if (!p->bin)
        return CL_OUT_OF_HOST_MEMORY;
    memcpy(p->bin, bin, len);
    p->bin_len = len;
    return CL_SUCCESS;
}

/* A binary is LLVM bitcode for spir64/nvptx64, or PTX text with an entry. */
static cl_int binary_program(cl_context c, const unsigned char *bin, size_t len, cl_program *out)
{
    bool bc = clc_is_bitcode(bin, len);
    cl_program p = ocl_program_new(c, bc ? OCL_PROG_LLVM : OCL_PROG_PTX, &(cl_int){0});
    struct ps_err err;
    cl_int rc = CL_SUCCESS;

    ps_err_clear(&err);
    if (!p)
        return CL_OUT_OF_HOST_MEMORY;
    if (bc && clc_check_bitcode(bin, len, &err))
        rc = CL_INVALID_BINARY;
    else if (bc)
        rc = keep_bin(p, bin, len);
    else if (!(p->ptx = strndup((const char *)bin, len)))
        rc = CL_OUT_OF_HOST_MEMORY;
    else if (!strstr(p->ptx, ".entry"))
        rc = CL_INVALID_BINARY;
    if (rc == CL_INVALID_BINARY && err.code)
        ocl_notify(c, "clCreateProgramWithBinary: %s", err.msg);
    p->btype = bc ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT : CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    if (rc) {
        clReleaseProgram(p);
        p = NULL;
    }
    *out = p;
    return rc;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(cl_context c, cl_uint n,
                                                              const cl_device_id *devices,
                                                              const size_t *lengths,
                                                              const unsigned char **binaries,
                                                              cl_int *status, cl_int *errcode)
{
    cl_program p = NULL;
    cl_int rc = CL_SUCCESS;

    if (!ocl_valid(c, OCL_MAGIC_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if (n != 1 || !devices || !lengths || !binaries)
        rc = CL_INVALID_VALUE;
    else if (!ocl_device_ok(devices[0]))
        rc = CL_INVALID_DEVICE;
    else if (!binaries[0] || !lengths[0])
        rc = CL_INVALID_VALUE;
    if (rc == CL_SUCCESS)
        rc = binary_program(c, binaries[0], lengths[0], &p);
    if (status)
        status[0] = rc == CL_INVALID_BINARY ? CL_INVALID_BINARY : CL_SUCCESS;
    if (errcode)
        *errcode = rc;
    return p;
}

cl_program CL_API_CALL ocl_create_program_with_il(cl_context c, const void *il, size_t len,
                                                  cl_int *errcode)
{
    cl_program p = NULL;
    cl_int rc = CL_SUCCESS;

    if (!ocl_valid(c, OCL_MAGIC_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if (!il || !len || !clc_is_spirv(il, len))
        rc = CL_INVALID_VALUE; /* OpenCL 2.1: not well-formed intermediate language */
    if (rc == CL_SUCCESS)
        p = ocl_program_new(c, OCL_PROG_SPIRV, &rc);
    if (p && (rc = keep_bin(p, il, len)) != CL_SUCCESS) {
        clReleaseProgram(p);
        p = NULL;
    }
    if (errcode)
        *errcode = rc;
    return p;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context c, cl_uint n,
                                                                      const cl_device_id *d,
                                                                      const char *names,
                                                                      cl_int *errcode)
{
    (void)n, (void)d, (void)names;
    if (errcode)
        *errcode = ocl_valid(c, OCL_MAGIC_CONTEXT) ? CL_INVALID_VALUE : CL_INVALID_CONTEXT;
    return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program p)
{
    if (!ocl_valid(p, OCL_MAGIC_PROGRAM))
        return CL_INVALID_PROGRAM;
    __atomic_add_fetch(&p->refs, 1, __ATOMIC_SEQ_CST);
    return CL_SUCCESS;
}

static void unload(cl_program p)
{
    clc_arg_table_destroy(p->args);
    p->args = NULL;
    if (!p->mod)
        return;
    pthread_mutex_lock(&p->ctx->lock);
    ptxsim_module_unload(p->mod);
    pthread_mutex_unlock(&p->ctx->lock);
    p->mod = NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program p)
{
    if (!ocl_valid(p, OCL_MAGIC_PROGRAM))
        return CL_INVALID_PROGRAM;
    if (__atomic_sub_fetch(&p->refs, 1, __ATOMIC_SEQ_CST))
        return CL_SUCCESS;
    unload(p);
    ocl_cpu_program_free(p);
    ocl_hpdp_program_free(p);
    clReleaseContext(p->ctx);
    free(p->source);
    free(p->ptx);
    free(p->bin);
    free(p->log);
    free(p->options);
    ocl_retire(p);
    return CL_SUCCESS;
}

void ocl_program_log(cl_program p, const char *msg)
{
    size_t have = p->log ? strlen(p->log) : 0;
    char *n = realloc(p->log, have + strlen(msg) + 2);

    if (n) {
        sprintf(n + have, "%s\n", msg);
        p->log = n;
    }
}

/* clc's failure as a build status, with its message in the log. */
static cl_int build_failed(cl_program p, int rc, const struct ps_err *err)
{
    if (rc == PS_EINVAL && p->kind == OCL_PROG_SOURCE) {
        ocl_program_log(p, err->msg);
        return CL_INVALID_BUILD_OPTIONS;
    }
    if (rc != PS_EPARSE || !p->log || !*p->log || p->kind != OCL_PROG_SOURCE)
        ocl_program_log(p, err->msg);
    return CL_BUILD_PROGRAM_FAILURE;
}

/* Source, SPIR-V or bitcode to p->ptx (PTX binaries have it already). */
static cl_int build_ptx(cl_program p, const char *options)
{
    struct ps_err err;
    int rc = 0;

    ps_err_clear(&err);
    if (p->kind == OCL_PROG_PTX)
        return CL_SUCCESS;
    free(p->ptx);
    p->ptx = NULL;
    ocl_compiler_lock();
    if (p->kind == OCL_PROG_SOURCE)
        rc = clc_compile(p->source, strlen(p->source), options, &p->ptx, &p->log, &p->args, &err);
    else if (p->kind == OCL_PROG_SPIRV)
        rc = clc_lower_spirv(p->bin, p->bin_len, &p->ptx, &p->log, &err);
    else /* OpenCL 1.2 (5.7.3): no argument info for programs from binaries */
        rc = clc_lower_bitcode(p->bin, p->bin_len, &p->ptx, NULL, &err);
    ocl_compiler_unlock();
    return rc ? build_failed(p, rc, &err) : CL_SUCCESS;
}

cl_int ocl_program_load(cl_program p)
{
    const struct ps_err *e;
    cl_int rc = CL_SUCCESS;

    pthread_mutex_lock(&p->ctx->lock);
    if (ptxsim_module_load(p->ctx->dev, p->ptx, strlen(p->ptx), "program.ptx", &p->mod)) {
        e = ptxsim_last_error_info(p->ctx->dev);
        ocl_program_log(p, e ? e->msg : "cannot load the PTX");
        p->mod = NULL;
        rc = CL_BUILD_PROGRAM_FAILURE;
    }
    pthread_mutex_unlock(&p->ctx->lock);
    return rc;
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program p, cl_uint n, const cl_device_id *d,
                                               const char *options,
                                               void(CL_CALLBACK *notify)(cl_program, void *),
                                               void *data)
{
    cl_int rc = CL_SUCCESS;

    if (!ocl_valid(p, OCL_MAGIC_PROGRAM))
        return CL_INVALID_PROGRAM;
    if ((n > 0) != (d != NULL) || (!notify && data))
        return CL_INVALID_VALUE;
    for (cl_uint i = 0; i < n; i++)
        if (!ocl_device_ok(d[i]))
            return CL_INVALID_DEVICE;
    if (p->kernels)
        return CL_INVALID_OPERATION;
    free(p->log);
    free(p->options);
    p->log = NULL;
    p->options = strdup(options ? options : "");
    unload(p);
    rc = build_ptx(p, options);
    if (rc == CL_SUCCESS)
        rc = ocl_program_load(p);
    p->status = rc == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    if (!p->log)
        p->log = strdup("");
    if (notify)
        notify(p, data);
    return rc;
}

void ocl_program_reset(cl_program p)
{
    unload(p);
    ocl_cpu_program_free(p);
    ocl_hpdp_program_free(p);
    free(p->ptx);
    p->ptx = NULL;
    free(p->log);
    p->log = NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void)
{
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id pl)
{
    return pl == ocl_platform() ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

/* CL_PROGRAM_KERNEL_NAMES: the kernels separated by ';'. */
static cl_int kernel_names(cl_program p, size_t size, void *value, size_t *size_ret)
{
    uint32_t n = ptxsim_module_kernel_count(p->mod);
    size_t total = 1;
    char *s;
    cl_int rc;

    for (uint32_t i = 0; i < n; i++)
        total += strlen(ptxsim_module_kernel_name(p->mod, i)) + 1;
    s = calloc(1, total);
    if (!s)
        return CL_OUT_OF_HOST_MEMORY;
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            strcat(s, ";");
        strcat(s, ptxsim_module_kernel_name(p->mod, i));
    }
    rc = ocl_info_str(s, size, value, size_ret);
    free(s);
    return rc;
}

/* The binary: PTX once built, else the compiled object's or library's bitcode. */
static cl_int binary_info(cl_program p, cl_program_info name, size_t size, void *value,
                          size_t *size_ret)
{
    bool ptx = p->ptx && (p->mod || p->kind == OCL_PROG_PTX);
    const void *bin = ptx ? p->ptx : p->kind != OCL_PROG_SPIRV ? p->bin : NULL;
    size_t len = ptx ? strlen(p->ptx) + 1 : bin ? p->bin_len : 0;
    unsigned char **out = value;

    if (name == CL_PROGRAM_BINARY_SIZES)
        return ocl_info(&len, sizeof(len), size, value, size_ret);
    if (value && size < sizeof(*out))
        return CL_INVALID_VALUE;
    if (value && out[0] && len)
        memcpy(out[0], bin, len);
    if (size_ret)
        *size_ret = sizeof(*out);
    return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program p, cl_program_info name, size_t size,
                                                 void *value, size_t *size_ret)
{
    cl_device_id d = ocl_device();
    cl_uint u;
    size_t nk;

    if (!ocl_valid(p, OCL_MAGIC_PROGRAM))
        return CL_INVALID_PROGRAM;
    switch (name) {
    case CL_PROGRAM_REFERENCE_COUNT:
        u = p->refs;
        return ocl_info(&u, sizeof(u), size, value, size_ret);
    case CL_PROGRAM_CONTEXT:
        return ocl_info(&p->ctx, sizeof(p->ctx), size, value, size_ret);
    case CL_PROGRAM_NUM_DEVICES:
        u = 1;
        return ocl_info(&u, sizeof(u), size, value, size_ret);
    case CL_PROGRAM_DEVICES:
        return ocl_info(&d, sizeof(d), size, value, size_ret);
    case CL_PROGRAM_SOURCE:
        return ocl_info_str(p->source ? p->source : "", size, value, size_ret);
    case CL_PROGRAM_BINARY_SIZES:
    case CL_PROGRAM_BINARIES:
        return binary_info(p, name, size, value, size_ret);
    case CL_PROGRAM_IL_KHR:
        return p->kind == OCL_PROG_SPIRV ? ocl_info(p->bin, p->bin_len, size, value, size_ret)
                                         : ocl_info(NULL, 0, size, value, size_ret);
    case CL_PROGRAM_NUM_KERNELS:
        if (!p->mod)
            return CL_INVALID_PROGRAM_EXECUTABLE;
        nk = ptxsim_module_kernel_count(p->mod);
        return ocl_info(&nk, sizeof(nk), size, value, size_ret);
    case CL_PROGRAM_KERNEL_NAMES:
        return p->mod ? kernel_names(p, size, value, size_ret) : CL_INVALID_PROGRAM_EXECUTABLE;
    default:
        return CL_INVALID_VALUE;
    }
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program p, cl_device_id d,
                                                      cl_program_build_info name, size_t size,
                                                      void *value, size_t *size_ret)
{
    cl_program_binary_type bt;

    if (!ocl_valid(p, OCL_MAGIC_PROGRAM))
        return CL_INVALID_PROGRAM;
    if (!ocl_device_ok(d))
        return CL_INVALID_DEVICE;
    switch (name) {
    case CL_PROGRAM_BUILD_STATUS:
        return ocl_info(&p->status, sizeof(p->status), size, value, size_ret);
    case CL_PROGRAM_BUILD_OPTIONS:
        return ocl_info_str(p->options ? p->options : "", size, value, size_ret);
    case CL_PROGRAM_BUILD_LOG:
        return ocl_info_str(p->log ? p->log : "", size, value, size_ret);
    case CL_PROGRAM_BINARY_TYPE:
        bt = p->mod ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE : p->btype;
        return ocl_info(&bt, sizeof(bt), size, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}
