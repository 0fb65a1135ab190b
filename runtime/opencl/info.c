/*
 * Leaf helpers every OpenCL file uses: copying a clGet*Info answer into the
 * caller's buffer, and telling a context's callback (or stderr) about a problem.
 * They call nothing else of the platform, so any file may use them without
 * making a circle of calls.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "runtime/opencl/ocl.h"

cl_int ocl_info(const void *src, size_t n, size_t size, void *value, size_t *size_ret)
{
    if (value && size < n)
        return CL_INVALID_VALUE;
    if (value && n)
        memcpy(value, src, n);
    if (size_ret)
        *size_ret = n;
    return CL_SUCCESS;
}

cl_int ocl_info_str(const char *s, size_t size, void *value, size_t *size_ret)
{
    return ocl_info(s, strlen(s) + 1, size, value, size_ret);
}

void ocl_notify(cl_context ctx, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (ctx && ctx->notify)
        ctx->notify(msg, NULL, 0, ctx->notify_data);
    else
        fprintf(stderr, "ptxsim opencl: %s\n", msg);
}
