/*
 * The CPU device (cpu.h): loading PoCL, the device object, its queries, and
 * the PoCL context, queue and programs behind a ptxsim context.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/opencl/cpu.h"
#include "runtime/opencl/cpu_pocl.h"

static struct _cl_device_id the_cpu = {&ocl_dispatch, OCL_MAGIC_DEVICE, 1};
static struct ocl_pocl g_pocl;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static bool g_ok;
static uint64_t g_migrated;

static void pocl_load(void)
{
    const char *off = getenv("PTXSIM_OCL_CPU"), *lib = getenv("PTXSIM_POCL_LIB");
    cl_int(CL_API_CALL * get)(cl_uint, cl_platform_id *, cl_uint *);
    void *(CL_API_CALL * ext)(const char *);
    cl_uint n = 0;

    if (off && !strcmp(off, "0"))
        return;
    g_pocl.lib = dlopen(lib && *lib ? lib : "libpocl.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!g_pocl.lib)
        return;
    /* As ocl-icd finds it: through the library's clGetExtensionFunctionAddress (PoCL
     * exports its ICD entry only under a prefixed name). */
    *(void **)&ext = dlsym(g_pocl.lib, "clGetExtensionFunctionAddress");
    *(void **)&get = ext ? ext("clIcdGetPlatformIDsKHR") : NULL;
    if (!get || get(1, &g_pocl.plat, &n) != CL_SUCCESS || n == 0)
        return;
    g_pocl.d = *(const cl_icd_dispatch *const *)g_pocl.plat;
    g_ok = g_pocl.d->clGetDeviceIDs(g_pocl.plat, CL_DEVICE_TYPE_CPU, 1, &g_pocl.dev, NULL) ==
           CL_SUCCESS;
}

const struct ocl_pocl *ocl_pocl(void)
{
    pthread_once(&g_once, pocl_load);
    return g_ok ? &g_pocl : NULL;
}

cl_device_id ocl_cpu_device(void)
{
    return ocl_pocl() ? &the_cpu : NULL;
}

void ocl_cpu_migrated(uint64_t bytes)
{
    __atomic_add_fetch(&g_migrated, bytes, __ATOMIC_SEQ_CST);
}

uint64_t ocl_cpu_migrated_bytes(void)
{
    return __atomic_load_n(&g_migrated, __ATOMIC_SEQ_CST);
}

cl_int ocl_cpu_context(cl_context c, struct ocl_cpu_ctx **out)
{
    const struct ocl_pocl *p = ocl_pocl();
    struct ocl_cpu_ctx *cc = c->cpu;
    cl_int rc;

    if (!p)
        return CL_DEVICE_NOT_AVAILABLE;
    if (!cc) {
        if (!(cc = calloc(1, sizeof(*cc))))
            return CL_OUT_OF_HOST_MEMORY;
        cc->ctx = p->d->clCreateContext(NULL, 1, &p->dev, NULL, NULL, &rc);
        if (rc == CL_SUCCESS)
            cc->q = p->d->clCreateCommandQueue(cc->ctx, p->dev, CL_QUEUE_PROFILING_ENABLE, &rc);
        if (rc != CL_SUCCESS) {
            if (cc->ctx)
                p->d->clReleaseContext(cc->ctx);
            free(cc);
            return rc;
        }
        c->cpu = cc;
    }
    *out = cc;
    return CL_SUCCESS;
}

void ocl_cpu_context_free(cl_context c)
{
    struct ocl_cpu_ctx *cc = c->cpu;

    if (!cc)
        return;
    g_pocl.d->clReleaseCommandQueue(cc->q);
    g_pocl.d->clReleaseContext(cc->ctx);
    free(cc);
    c->cpu = NULL;
}

void ocl_cpu_program_free(cl_program p)
{
    if (p->cpu)
        g_pocl.d->clReleaseProgram((cl_program)p->cpu);
    p->cpu = NULL;
}

/* Builds p's source for PoCL once (under the context's lock); the build log goes to the notify. */
cl_int ocl_cpu_program(cl_program p, struct ocl_cpu_ctx *cc, cl_program *out)
{
    const struct ocl_pocl *pl = ocl_pocl();
    const char *src = p->source;
    cl_program cp;
    cl_int rc;

    if (p->cpu) {
        *out = p->cpu;
        return CL_SUCCESS;
    }
    if (p->kind != OCL_PROG_SOURCE || !src) {
        ocl_notify(p->ctx, "not supported: running a program made from a binary or IL on the "
                           "CPU device (only OpenCL C source programs run there)");
        return CL_INVALID_PROGRAM_EXECUTABLE;
    }
    cp = pl->d->clCreateProgramWithSource(cc->ctx, 1, &src, NULL, &rc);
    if (rc != CL_SUCCESS)
        return rc;
    rc = pl->d->clBuildProgram(cp, 1, &pl->dev, p->options ? p->options : "", NULL, NULL);
    if (rc != CL_SUCCESS) {
        char log[4096] = "";
        pl->d->clGetProgramBuildInfo(cp, pl->dev, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
        ocl_notify(p->ctx, "CPU device (PoCL) build failed: %s", log);
        pl->d->clReleaseProgram(cp);
        return CL_INVALID_PROGRAM_EXECUTABLE;
    }
    p->cpu = cp;
    *out = cp;
    return CL_SUCCESS;
}
