/*
 * Programs: OpenCL C source built by frontend/clc (clang 14 + LLVM 14 C API,
 * see clc.h), or PTX text given as the program binary. The binary of a built
 * program is its PTX. The engine module is loaded into the context's device
 * when the build succeeds.
 */
#include <stdlib.h>
#include <string.h>

#include "common/err.h"
#include "frontend/clc.h"
#include "runtime/opencl/ocl.h"

static cl_program program_new(cl_context c, cl_int *rc)
{
    cl_program p = calloc(1, sizeof(*p));

    if (!p) {
        *rc = CL_OUT_OF_HOST_MEMORY;
        return NULL;
    }
    p->dispatch = &ocl_dispatch;
    p->magic = OCL_MAGIC_PROGRAM;
    p->refs = 1;
    p->ctx = c;
    p->status = CL_BUILD_NONE;
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
        p = program_new(c, &rc);
    if (p && !(p->source = join_sources(n, strings, lengths))) {
        clReleaseProgram(p);
        p = NULL;
        rc = CL_OUT_OF_HOST_MEMORY;
    }
    if (errcode)
        *errcode = rc;
    return p;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(
    cl_context c, cl_uint n, const cl_device_id *devices, const size_t *lengths,
    const unsigned char **binaries, cl_int *status, cl_int *errcode)
{
    cl_program p = NULL;
    cl_int rc = CL_SUCCESS;

    if (!ocl_valid(c, OCL_MAGIC_CONTEXT))
        rc = CL_INVALID_CONTEXT;
    else if (n != 1 || !devices || !lengths || !binaries)
        rc = CL_INVALID_VALUE;
    else if (devices[0] != ocl_device())
        rc = CL_INVALID_DEVICE;
    else if (!binaries[0] || !lengths[0])
        rc = CL_INVALID_VALUE;
    if (rc == CL_SUCCESS)
        p = program_new(c, &rc);
    if (p && !(p->ptx = strndup((const char *)binaries[0], lengths[0]))) {
        clReleaseProgram(p);
        p = NULL;
        rc = CL_OUT_OF_HOST_MEMORY;
    }
    if (p && !strstr(p->ptx, ".entry")) {
        clReleaseProgram(p);
        p = NULL;
        rc = CL_INVALID_BINARY;
    }
    if (status)
        status[0] = rc == CL_INVALID_BINARY ? CL_INVALID_BINARY : CL_SUCCESS;
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
    clReleaseContext(p->ctx);
    free(p->source);
    free(p->ptx);
    free(p->log);
    free(p->options);
    p->magic = 0;
    free(p);
    return CL_SUCCESS;
}

/* Appends a line to the build log. */
static void log_append(cl_program p, const char *msg)
{
    size_t have = p->log ? strlen(p->log) : 0;
    char *n = realloc(p->log, have + strlen(msg) + 2);

    if (n) {
        sprintf(n + have, "%s\n", msg);
        p->log = n;
    }
}

static cl_int build_source(cl_program p, const char *options)
{
    struct ps_err err;
    int rc;

    ps_err_clear(&err);
    free(p->ptx);
    p->ptx = NULL;
    rc = clc_compile(p->source, strlen(p->source), options, &p->ptx, &p->log, &err);
    if (rc == PS_EINVAL) {
        log_append(p, err.msg);
        return CL_INVALID_BUILD_OPTIONS;
    }
    if (rc) {
        if (rc != PS_EPARSE || !p->log || !*p->log)
            log_append(p, err.msg);
        return CL_BUILD_PROGRAM_FAILURE;
    }
    return CL_SUCCESS;
}

static cl_int load_module(cl_program p)
{
    const struct ps_err *e;
    cl_int rc = CL_SUCCESS;

    pthread_mutex_lock(&p->ctx->lock);
    if (ptxsim_module_load(p->ctx->dev, p->ptx, strlen(p->ptx), "program.ptx", &p->mod)) {
        e = ptxsim_last_error_info(p->ctx->dev);
        log_append(p, e ? e->msg : "cannot load the PTX");
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
        if (d[i] != ocl_device())
            return CL_INVALID_DEVICE;
    if (p->kernels)
        return CL_INVALID_OPERATION;
    free(p->log);
    free(p->options);
    p->log = NULL;
    p->options = strdup(options ? options : "");
    unload(p);
    if (p->source)
        rc = build_source(p, options);
    if (rc == CL_SUCCESS)
        rc = load_module(p);
    p->status = rc == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
    if (!p->log)
        p->log = strdup("");
    if (notify)
        notify(p, data);
    return rc;
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program p, cl_uint n, const cl_device_id *d,
                                                 const char *options, cl_uint nh,
                                                 const cl_program *headers, const char **names,
                                                 void(CL_CALLBACK *notify)(cl_program, void *),
                                                 void *data)
{
    (void)n, (void)d, (void)options, (void)nh, (void)headers, (void)names, (void)notify;
    (void)data;
    if (!ocl_valid(p, OCL_MAGIC_PROGRAM))
        return CL_INVALID_PROGRAM;
    ocl_notify(p->ctx, "clCompileProgram is not supported; use clBuildProgram");
    return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context c, cl_uint n, const cl_device_id *d,
                                                  const char *options, cl_uint np,
                                                  const cl_program *progs,
                                                  void(CL_CALLBACK *notify)(cl_program, void *),
                                                  void *data, cl_int *errcode)
{
    (void)n, (void)d, (void)options, (void)np, (void)progs, (void)notify, (void)data;
    if (ocl_valid(c, OCL_MAGIC_CONTEXT))
        ocl_notify(c, "clLinkProgram is not supported; use clBuildProgram");
    if (errcode)
        *errcode = ocl_valid(c, OCL_MAGIC_CONTEXT) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
    return NULL;
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

static cl_int binary_info(cl_program p, cl_program_info name, size_t size, void *value,
                          size_t *size_ret)
{
    size_t len = p->ptx ? strlen(p->ptx) + 1 : 0;
    unsigned char **out = value;

    if (name == CL_PROGRAM_BINARY_SIZES)
        return ocl_info(&len, sizeof(len), size, value, size_ret);
    if (value && size < sizeof(*out))
        return CL_INVALID_VALUE;
    if (value && out[0] && len)
        memcpy(out[0], p->ptx, len);
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
    if (d != ocl_device())
        return CL_INVALID_DEVICE;
    switch (name) {
    case CL_PROGRAM_BUILD_STATUS:
        return ocl_info(&p->status, sizeof(p->status), size, value, size_ret);
    case CL_PROGRAM_BUILD_OPTIONS:
        return ocl_info_str(p->options ? p->options : "", size, value, size_ret);
    case CL_PROGRAM_BUILD_LOG:
        return ocl_info_str(p->log ? p->log : "", size, value, size_ret);
    case CL_PROGRAM_BINARY_TYPE:
        bt = p->mod ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE : CL_PROGRAM_BINARY_TYPE_NONE;
        return ocl_info(&bt, sizeof(bt), size, value, size_ret);
    default:
        return CL_INVALID_VALUE;
    }
}
