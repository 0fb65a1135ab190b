// Honest stops (tests/stops/run.sh runs it): a launch that a cap stops must
// fail the way a GPU's killed kernel does, and a signal must leave truncated
// statistics behind.
//   honest_stop cap     - a long kernel under a cap: the launch itself
//                         succeeds, cudaDeviceSynchronize and every later call
//                         return cudaErrorLaunchTimeout; prints
//                         "PASS honest_stop cap" (exit 0) only then.
//   honest_stop nocap   - the same program with a short kernel runs clean and
//                         checks its results.
//   honest_stop kernel  - prints "ready", then launches a kernel that runs
//                         for minutes: the script sends a signal during it.
//   honest_stop host    - prints "ready", then sleeps in host code.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#include <unistd.h>

__global__ void spin(unsigned *out, int n)
{
    unsigned s = 0;
    for (int i = 0; i < n; i++)
        s += (unsigned)i ^ threadIdx.x;
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

static int cap()
{
    unsigned *d;
    cudaMalloc(&d, 4 * 64 * 128);
    spin<<<64, 128>>>(d, 100000);
    cudaError_t launch = cudaGetLastError(), sync = cudaDeviceSynchronize();
    cudaError_t later = cudaMemset(d, 0, 16);
    if (launch != cudaSuccess || sync != cudaErrorLaunchTimeout ||
        later != cudaErrorLaunchTimeout) {
        printf("FAIL honest_stop cap: launch %s, sync %s, later call %s\n",
               cudaGetErrorName(launch), cudaGetErrorName(sync), cudaGetErrorName(later));
        return 1;
    }
    printf("PASS honest_stop cap\n");
    return 0;
}

static int nocap()
{
    const int n = 50, threads = 4 * 128;
    unsigned *d, h[threads];
    cudaMalloc(&d, sizeof(h));
    spin<<<4, 128>>>(d, n);
    if (cudaDeviceSynchronize() != cudaSuccess ||
        cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost) != cudaSuccess) {
        printf("FAIL honest_stop nocap: %s\n", cudaGetErrorName(cudaGetLastError()));
        return 1;
    }
    for (int t = 0; t < threads; t++) {
        unsigned s = 0;
        for (int i = 0; i < n; i++)
            s += (unsigned)i ^ (unsigned)(t % 128);
        if (h[t] != s) {
            printf("FAIL honest_stop nocap: out[%d] = %u, want %u\n", t, h[t], s);
            return 1;
        }
    }
    printf("PASS honest_stop nocap\n");
    return 0;
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "";
    unsigned *d;

    if (!strcmp(what, "cap"))
        return cap();
    if (!strcmp(what, "nocap"))
        return nocap();
    cudaMalloc(&d, 4 * 64 * 128);
    spin<<<1, 32>>>(d, 10); // one finished kernel, so the statistics have something to show
    cudaDeviceSynchronize();
    printf("ready\n");
    fflush(stdout);
    if (!strcmp(what, "kernel")) {
        spin<<<64, 128>>>(d, 1 << 30);
        cudaDeviceSynchronize();
    } else {
        sleep(60);
    }
    printf("FAIL honest_stop %s: the signal did not stop the program\n", what);
    return 1;
}
