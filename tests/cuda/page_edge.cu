// Device memory in pages (issue 16 item 2): a stencil whose first thread
// reads 1 KiB before its input buffer (the grid's edge) and discards the
// value runs as on a GPU, where memory is mapped in pages: the launch
// succeeds and the output is right. Under memcheck (the program runs itself
// again with PTXSIM_OPTIONS=ptxsim_memcheck=1, what `ptxsim run --memcheck`
// sets) the same launch fails with cudaErrorIllegalAddress. Exit 0 on
// success.
#define TEST_NAME "page_edge"
#include "common.h"
#include <string>
#include <sys/wait.h>
#include <unistd.h>

__global__ void stencil(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        volatile float halo = in[i - 256]; // 1 KiB before the buffer; never used
        (void)halo;
    }
    if (i < n)
        out[i] = 2.0f * in[i];
}

static cudaError_t run(float *out_host, int n)
{
    float *in, *out, *h = (float *)malloc(n * sizeof(float));

    for (int i = 0; i < n; i++)
        h[i] = (float)i;
    CK(cudaMalloc(&in, n * sizeof(float)));
    CK(cudaMalloc(&out, n * sizeof(float)));
    CK(cudaMemcpy(in, h, n * sizeof(float), cudaMemcpyHostToDevice));
    free(h);
    fflush(stdout);
    stencil<<<(n + 127) / 128, 128>>>(in, out, n);
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess)
        e = cudaMemcpy(out_host, out, n * sizeof(float), cudaMemcpyDeviceToHost);
    return e;
}

int main(int argc, char **argv)
{
    const int n = 1000;
    float out[1000];

    if (argc > 1 && !strcmp(argv[1], "memcheck")) // the child: the launch must fault
        return run(out, n) == cudaErrorIllegalAddress ? 3 : 4;
    cudaError_t e = run(out, n);
    if (e != cudaSuccess)
        fail("default mode: %s, want cudaSuccess", cudaGetErrorName(e));
    for (int i = 0; e == cudaSuccess && i < n; i++)
        expect_bitsf("out", i, out[i], 2.0f * (float)i);

    int status = 0;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        const char *had = getenv("PTXSIM_OPTIONS"); // keep the run's own -o options
        std::string opts = had && *had ? std::string(had) + "\nptxsim_memcheck=1" : "ptxsim_memcheck=1";
        setenv("PTXSIM_OPTIONS", opts.c_str(), 1);
        unsetenv("PTXSIM_STATS");
        execl("/proc/self/exe", argv[0], "memcheck", (char *)NULL);
        _exit(127);
    }
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 3)
        fail("under memcheck the child ended with status 0x%x, want exit 3 (the launch faulted)",
             status);
    return finish();
}
