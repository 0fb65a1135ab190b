// Dynamic parallelism (built with -rdc=true, so the device runtime's PTX is
// linked in): a kernel that launches a kernel is refused by name. The
// launch of the parent fails at the next synchronisation with
// cudaErrorNotSupported, the message on stderr names the feature, and the
// kernels before it ran normally.
#define TEST_NAME "dynamic_parallelism"
#include "common.h"
#include <unistd.h>

__global__ void child(int *o)
{
    o[threadIdx.x] = 2 * threadIdx.x;
}

__global__ void parent(int *o)
{
    if (threadIdx.x == 0)
        child<<<1, 32>>>(o);
}

__global__ void plain(int *o)
{
    o[threadIdx.x] = threadIdx.x + 1;
}

int main()
{
    int *d, h[32];
    CK(cudaMalloc(&d, sizeof(h)));
    plain<<<1, 32>>>(d);
    CK_LAUNCH();
    CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        expect_eq("plain", i, h[i], i + 1);

    fflush(stderr);
    int saved = dup(2);
    FILE *log = tmpfile();
    dup2(fileno(log), 2);
    parent<<<1, 32>>>(d);
    cudaError_t launch = cudaGetLastError(), sync = cudaDeviceSynchronize();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    char text[4096] = "";
    rewind(log);
    text[fread(text, 1, sizeof(text) - 1, log)] = 0;
    fclose(log);

    if (launch != cudaSuccess || sync != cudaErrorNotSupported)
        fail("parent: launch %s, synchronize %s; want cudaSuccess, cudaErrorNotSupported",
             cudaGetErrorName(launch), cudaGetErrorName(sync));
    if (!strstr(text, "dynamic parallelism") || !strstr(text, "is not supported"))
        fail("stderr does not name dynamic parallelism: %s", text);
    return finish();
}
