/*
 * An NVRTC program on ptxsim: the device's compute capability chooses the
 * compilation target (CUDA 13's NVRTC refuses anything below sm_75, so the
 * device must report one it accepts), NVRTC from the installed toolkit compiles
 * a kernel string to PTX, and the driver API loads and launches it. The result
 * is checked against a host reference.
 */
#include <math.h>
#include <string.h>

#include <nvrtc.h>

#include "drv_common.h"

#define N 4096

static const char source[] =
    "extern \"C\" __global__ void scale(float *x, const float *y, float s, int n)\n"
    "{\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (i < n)\n"
    "        x[i] = s * x[i] + sqrtf(y[i]);\n"
    "}\n";

#define NVRTC_CHECK(call)                                                                          \
    do {                                                                                           \
        nvrtcResult r_ = (call);                                                                   \
        if (r_ != NVRTC_SUCCESS) {                                                                 \
            printf("FAIL nvrtc_scale: line %d: %s: %s\n", __LINE__, #call,                         \
                   nvrtcGetErrorString(r_));                                                       \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

/* Compiles source for compute_<major><minor> and returns its PTX (malloc'd). */
static char *compile(int major, int minor)
{
    nvrtcProgram prog;
    char arch[64], *ptx;
    size_t size;
    const char *opts[] = {arch, "--fmad=false"};

    snprintf(arch, sizeof(arch), "--gpu-architecture=compute_%d%d", major, minor);
    NVRTC_CHECK(nvrtcCreateProgram(&prog, source, "scale.cu", 0, NULL, NULL));
    if (nvrtcCompileProgram(prog, 2, opts) != NVRTC_SUCCESS) {
        char log[4096] = "";

        nvrtcGetProgramLog(prog, log);
        printf("FAIL nvrtc_scale: NVRTC refused %s: %s\n", arch, log);
        exit(1);
    }
    NVRTC_CHECK(nvrtcGetPTXSize(prog, &size));
    ptx = malloc(size);
    EXPECT(ptx != NULL);
    NVRTC_CHECK(nvrtcGetPTX(prog, ptx));
    NVRTC_CHECK(nvrtcDestroyProgram(&prog));
    return ptx;
}

int main(void)
{
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod;
    CUfunction f;
    CUdeviceptr dx, dy;
    int major = 0, minor = 0, n = N;
    float x[N], y[N], out[N], s = 0.5f;
    char *ptx;

    g_test_name = "nvrtc_scale";
    CHECK(cuInit(0));
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    ptx = compile(major, minor);
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    CHECK(cuModuleLoadDataEx(&mod, ptx, 0, NULL, NULL));
    CHECK(cuModuleGetFunction(&f, mod, "scale"));
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.25f;
        y[i] = (float)(i % 97);
    }
    CHECK(cuMemAlloc(&dx, sizeof(x)));
    CHECK(cuMemAlloc(&dy, sizeof(y)));
    CHECK(cuMemcpyHtoD(dx, x, sizeof(x)));
    CHECK(cuMemcpyHtoD(dy, y, sizeof(y)));
    void *args[] = {&dx, &dy, &s, &n};
    CHECK(cuLaunchKernel(f, N / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
    CHECK(cuCtxSynchronize());
    CHECK(cuMemcpyDtoH(out, dx, sizeof(out)));
    for (int i = 0; i < N; i++) {
        float want = s * x[i] + sqrtf(y[i]);

        if (out[i] != want) {
            printf("FAIL nvrtc_scale: x[%d] = %g, want %g\n", i, out[i], want);
            return 1;
        }
    }
    CHECK(cuMemFree(dx));
    CHECK(cuMemFree(dy));
    CHECK(cuModuleUnload(mod));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    free(ptx);
    printf("PASS nvrtc_scale (compute_%d%d)\n", major, minor);
    return 0;
}
