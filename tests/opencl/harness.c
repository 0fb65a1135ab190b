/* The test harness (harness.h). */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
    E(CL_INVALID_BINARY) E(CL_MISALIGNED_SUB_BUFFER_OFFSET) E(CL_MEM_COPY_OVERLAP)
    E(CL_INVALID_EVENT_WAIT_LIST) E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINK_PROGRAM_FAILURE)
    E(CL_INVALID_LINKER_OPTIONS) E(CL_INVALID_COMPILER_OPTIONS) E(CL_INVALID_EVENT)
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
    const char *want = getenv("OCL_PLATFORM"), *dev = getenv("OCL_DEVICE");
    /* OCL_DEVICE=cpu picks the platform's CPU device (ptxsim's PoCL-backed one), else the first */
    cl_device_type type = dev && !strcmp(dev, "cpu") ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_ALL;
    cl_int rc;

    h->plat = pick_platform(want && *want ? want : "ptxsim");
    h_check(clGetDeviceIDs(h->plat, type, 1, &h->dev, NULL), "clGetDeviceIDs");
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

int h_is_ptxsim(struct h_env *h)
{
    char name[256];

    h_check(clGetPlatformInfo(h->plat, CL_PLATFORM_NAME, sizeof(name), name, NULL), "name");
    return strstr(name, "ptxsim") != NULL;
}

int h_has_ext(struct h_env *h, const char *ext)
{
    static char exts[8192];

    h_check(clGetDeviceInfo(h->dev, CL_DEVICE_EXTENSIONS, sizeof(exts), exts, NULL), "exts");
    return strstr(exts, ext) != NULL;
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;

    if (fp && fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) > 0 && fseek(fp, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, fp) == (size_t)n) {
        *len = (size_t)n;
    } else {
        free(buf);
        buf = NULL;
    }
    if (fp)
        fclose(fp);
    return buf;
}

unsigned char *h_offline(const char *src, const char *args, int spirv, size_t *len)
{
    char dir[] = "/tmp/ocl-offline.XXXXXX", cmd[1024], path[256];
    unsigned char *out = NULL;
    FILE *fp;

    if (!mkdtemp(dir))
        return NULL;
    snprintf(path, sizeof(path), "%s/k.cl", dir);
    fp = fopen(path, "w");
    if (fp) {
        fputs(src, fp);
        fclose(fp);
    }
    snprintf(cmd, sizeof(cmd),
             "clang-14 -cl-std=CL1.2 -Xclang -finclude-default-header -emit-llvm %s -c -o %s/k.bc %s/k.cl >&2",
             args, dir, dir);
    if (spirv)
        snprintf(cmd + strlen(cmd), sizeof(cmd) - strlen(cmd),
                 " && llvm-spirv-14 %s/k.bc -o %s/k.spv >&2", dir, dir);
    if (system(cmd) == 0) {
        snprintf(path, sizeof(path), "%s/k.%s", dir, spirv ? "spv" : "bc");
        out = slurp(path, len);
    } else {
        fprintf(stderr, "offline compilation failed or a tool is missing: %s\n", cmd);
    }
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", dir);
    return out;
}
