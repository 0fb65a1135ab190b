/*
 * Host-side helpers for the OpenCL variants of the workloads
 * (benchmarks/workloads/<name>/<name>_ocl.c, C11). Same conventions as wl.h:
 * `./<name>_ocl [test|small|paper]`, deterministic inputs, one line on stdout
 * ("PASS <name>_ocl <size>" or "FAIL <name>_ocl <size>: <why>"), exit 0 or 1.
 * The program takes the first platform and its first GPU (or any) device, so
 * under `ptxsim run` it gets ptxsim's ICD and elsewhere any OpenCL (e.g. PoCL).
 */
#ifndef PTXSIM_WORKLOADS_WL_OCL_H
#define PTXSIM_WORKLOADS_WL_OCL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef WL_NAME
#error "define WL_NAME before including wl_ocl.h"
#endif

enum wl_size { WL_TEST, WL_SMALL, WL_PAPER };

static const char *g_wl_size_name = "test";

static enum wl_size wl_parse_size(int argc, char **argv)
{
    const char *s = argc > 1 ? argv[1] : "test";

    g_wl_size_name = s;
    if (!strcmp(s, "test"))
        return WL_TEST;
    if (!strcmp(s, "small"))
        return WL_SMALL;
    if (!strcmp(s, "paper"))
        return WL_PAPER;
    fprintf(stderr, "usage: %s [test|small|paper]\n", argv[0]);
    exit(2);
}

#define WL_PICK(s, t, m, p) ((s) == WL_TEST ? (t) : (s) == WL_SMALL ? (m) : (p))

/* xorshift64*, the same sequence as wl.h's wl_rand for the same seed. */
typedef struct {
    uint64_t s;
} wl_rand;

static void wl_rand_init(wl_rand *r, uint64_t seed)
{
    r->s = seed * 0x9E3779B97F4A7C15ull + 1;
}

static uint64_t wl_rand_next(wl_rand *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return r->s * 0x2545F4914F6CDD1Dull;
}

static inline uint32_t wl_rand_below(wl_rand *r, uint32_t n)
{
    return (uint32_t)(wl_rand_next(r) % n);
}

static inline float wl_rand_unit(wl_rand *r)
{
    return (float)(wl_rand_next(r) >> 40) / (float)(1ull << 24);
}

static void wl_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void wl_fail(const char *fmt, ...)
{
    char buf[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    printf("FAIL %s %s: %s\n", WL_NAME, g_wl_size_name, buf);
    fflush(stdout);
    exit(1);
}

#define WL_CL(call)                                                                                \
    do {                                                                                           \
        cl_int wl_e_ = (call);                                                                     \
        if (wl_e_ != CL_SUCCESS)                                                                   \
            wl_fail("%s:%d: %s returned %d", __FILE__, __LINE__, #call, (int)wl_e_);             \
    } while (0)

struct wl_cl {
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_command_queue q;
    cl_program prog;
};

/* Sets up the first platform/device and builds `src`; a build failure prints the log. */
static void wl_cl_init(struct wl_cl *c, const char *src)
{
    cl_int e;
    char log[8192];

    WL_CL(clGetPlatformIDs(1, &c->platform, NULL));
    if (clGetDeviceIDs(c->platform, CL_DEVICE_TYPE_GPU, 1, &c->device, NULL) != CL_SUCCESS)
        WL_CL(clGetDeviceIDs(c->platform, CL_DEVICE_TYPE_ALL, 1, &c->device, NULL));
    c->ctx = clCreateContext(NULL, 1, &c->device, NULL, NULL, &e);
    WL_CL(e);
    c->q = clCreateCommandQueue(c->ctx, c->device, 0, &e);
    WL_CL(e);
    c->prog = clCreateProgramWithSource(c->ctx, 1, &src, NULL, &e);
    WL_CL(e);
    if (clBuildProgram(c->prog, 1, &c->device, "", NULL, NULL) != CL_SUCCESS) {
        clGetProgramBuildInfo(c->prog, c->device, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
        wl_fail("build failed: %.400s", log);
    }
}

static inline cl_kernel wl_cl_kernel(struct wl_cl *c, const char *name)
{
    cl_int e;
    cl_kernel k = clCreateKernel(c->prog, name, &e);

    WL_CL(e);
    return k;
}

static inline void wl_cl_fini(struct wl_cl *c)
{
    clReleaseProgram(c->prog);
    clReleaseCommandQueue(c->q);
    clReleaseContext(c->ctx);
}

static inline int wl_close(double got, double want, double rel, double abs_tol)
{
    return fabs(got - want) <= abs_tol + rel * fabs(want);
}

static inline int wl_pass(void)
{
    printf("PASS %s %s\n", WL_NAME, g_wl_size_name);
    return 0;
}

#endif
