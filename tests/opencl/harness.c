/* The test harness (harness.h). */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *h_err_name(cl_int rc)
{
    static char buf[32];

    switch (rc) {
#define E(x) case x: return #x;
    E(CL_SUCCESS) E(CL_INVALID_OPERATION) E(CL_INVALID_VALUE) E(CL_BUILD_PROGRAM_FAILURE)
    E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_ARG_VALUE) E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_WORK_GROUP_SIZE)
    E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_BUFFER_SIZE)
    E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) E(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    E(CL_INVALID_WORK_DIMENSION) E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_HOST_PTR)
    E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_CONTEXT) E(CL_INVALID_COMMAND_QUEUE)
    E(CL_INVALID_BUILD_OPTIONS) E(CL_OUT_OF_RESOURCES) E(CL_INVALID_KERNEL)
#undef E
    default:
        snprintf(buf, sizeof(buf), "error %d", rc);
        return buf;
    }
}

void h_check(cl_int rc, const char *what)
{
    if (rc != CL_SUCCESS) {
        fprintf(stderr, "%s failed: %s\n", what, h_err_name(rc));
        exit(2);
    }
}

static cl_platform_id pick_platform(const char *want)
{
    cl_platform_id ps[16];
    cl_uint n = 0;
    char name[256];

    h_check(clGetPlatformIDs(16, ps, &n), "clGetPlatformIDs");
    for (cl_uint i = 0; i < n && i < 16; i++) {
        h_check(clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof(name), name, NULL),
                "clGetPlatformInfo");
        if (strstr(name, want))
            return ps[i];
    }
    fprintf(stderr, "no OpenCL platform named like '%s' (%u platforms)\n", want, n);
    exit(2);
}

void h_init(struct h_env *h)
{
    const char *want = getenv("OCL_PLATFORM");
    cl_int rc;

    h->plat = pick_platform(want && *want ? want : "ptxsim");
    h_check(clGetDeviceIDs(h->plat, CL_DEVICE_TYPE_ALL, 1, &h->dev, NULL), "clGetDeviceIDs");
    h->ctx = clCreateContext(NULL, 1, &h->dev, NULL, NULL, &rc);
    h_check(rc, "clCreateContext");
    h->q = clCreateCommandQueue(h->ctx, h->dev, CL_QUEUE_PROFILING_ENABLE, &rc);
    h_check(rc, "clCreateCommandQueue");
}

void h_done(struct h_env *h)
{
    h_check(clFinish(h->q), "clFinish");
    h_check(clReleaseCommandQueue(h->q), "clReleaseCommandQueue");
    h_check(clReleaseContext(h->ctx), "clReleaseContext");
}

cl_program h_build(struct h_env *h, const char *src, const char *options)
{
    static char log[65536];
    cl_int rc;
    cl_program p = clCreateProgramWithSource(h->ctx, 1, &src, NULL, &rc);

    h_check(rc, "clCreateProgramWithSource");
    rc = clBuildProgram(p, 1, &h->dev, options, NULL, NULL);
    if (rc != CL_SUCCESS) {
        clGetProgramBuildInfo(p, h->dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
        fprintf(stderr, "clBuildProgram failed: %s\n%s\n", h_err_name(rc), log);
        exit(2);
    }
    return p;
}

cl_kernel h_kernel(cl_program p, const char *name)
{
    cl_int rc;
    cl_kernel k = clCreateKernel(p, name, &rc);

    h_check(rc, "clCreateKernel");
    return k;
}

cl_mem h_buffer(struct h_env *h, cl_mem_flags flags, size_t size, void *host)
{
    cl_int rc;
    cl_mem m = clCreateBuffer(h->ctx, flags, size, host, &rc);

    h_check(rc, "clCreateBuffer");
    return m;
}

void h_read(struct h_env *h, cl_mem m, size_t size, void *host)
{
    h_check(clEnqueueReadBuffer(h->q, m, CL_TRUE, 0, size, host, 0, NULL, NULL),
            "clEnqueueReadBuffer");
}

void h_out_i(const char *tag, long long v)
{
    printf("I %s %lld\n", tag, v);
}

void h_out_f(const char *tag, float v, int ulp)
{
    unsigned int bits;

    memcpy(&bits, &v, sizeof(bits));
    printf("F %s %d %08x\n", tag, ulp, bits);
}

void h_out_chk(const char *tag, int cond)
{
    printf("I chk_%s %d\n", tag, cond ? 1 : 0);
    if (!cond)
        fprintf(stderr, "check failed: %s\n", tag);
}
