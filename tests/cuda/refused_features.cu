// Features ptxsim refuses (CUDA graphs, stream capture, IPC, cooperative
// launches, clusters, memory pools): each call returns cudaErrorNotSupported,
// which is not sticky, its message on stderr names the feature, and the
// program goes on: a kernel launched afterwards runs and gives the right
// results. The program reads its own stderr back (fd 2 is pointed at a
// temporary file around the refused calls).
#define TEST_NAME "refused_features"
#include "common.h"
#include <unistd.h>

__global__ void iota(int *o)
{
    o[threadIdx.x] = 3 * threadIdx.x + 1;
}

static void expect_refused(const char *what, cudaError_t e)
{
    if (e != cudaErrorNotSupported)
        fail("%s returned %s, want cudaErrorNotSupported", what, cudaGetErrorName(e));
    cudaError_t last = cudaGetLastError(); // the failed call's error, then cleared
    if (last != cudaErrorNotSupported)
        fail("cudaGetLastError after %s returned %s", what, cudaGetErrorName(last));
    if ((last = cudaGetLastError()) != cudaSuccess)
        fail("the error of %s is sticky: %s", what, cudaGetErrorName(last));
}

int main()
{
    int *d, h[64];
    CK(cudaMalloc(&d, sizeof(h)));

    fflush(stderr);
    int saved = dup(2);
    FILE *log = tmpfile();
    dup2(fileno(log), 2);

    cudaGraph_t g;
    expect_refused("cudaGraphCreate", cudaGraphCreate(&g, 0));
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    expect_refused("cudaStreamBeginCapture",
                   cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cudaIpcMemHandle_t ih;
    expect_refused("cudaIpcGetMemHandle", cudaIpcGetMemHandle(&ih, d));
    void *args[] = {&d};
    expect_refused("cudaLaunchCooperativeKernel",
                   cudaLaunchCooperativeKernel((const void *)iota, 1, 64, args, 0, 0));
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeCooperative;
    at[0].val.cooperative = 1;
    cfg.gridDim = dim3(1);
    cfg.blockDim = dim3(64);
    cfg.attrs = at;
    cfg.numAttrs = 1;
    expect_refused("cudaLaunchKernelExC (cooperative)",
                   cudaLaunchKernelExC(&cfg, (const void *)iota, args));
    cudaMemPool_t pool;
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    expect_refused("cudaMemPoolCreate", cudaMemPoolCreate(&pool, &props));

    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char text[4096] = "";
    rewind(log);
    text[fread(text, 1, sizeof(text) - 1, log)] = 0;
    fclose(log);
    // Each feature as the runtime names it, or, in a static-runtime build (NVIDIA's
    // runtime over ptxsim's libcuda.so.1), as the driver entry point it calls names it.
    const char *names[][2] = {
        {"(CUDA graphs)", NULL},
        {"(stream capture (CUDA graphs))", NULL},
        {"(inter-process communication (IPC))", NULL},
        {"cudaLaunchCooperativeKernel is not supported (cooperative launch",
         "cuLaunchCooperativeKernel is not supported (cooperative launch"},
        {"cudaLaunchKernelExC: cooperative launch",
         "cuLaunchKernelEx is not supported (cooperative launch"},
        {"(memory pools", NULL}};
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (!strstr(text, names[i][0]) && !(names[i][1] && strstr(text, names[i][1])))
            fail("stderr does not name the feature '%s': %s", names[i][0], text);

    // The program goes on: an ordinary launch works and gives the right results.
    iota<<<1, 64>>>(d);
    CK_LAUNCH();
    CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++)
        expect_eq("out", i, h[i], 3 * i + 1);
    CK(cudaStreamDestroy(s));
    CK(cudaFree(d));
    return finish();
}
