// Page-locked host memory: cudaHostAlloc(cudaHostAllocMapped) accessed by a
// kernel through cudaHostGetDevicePointer (zero-copy: the kernel reads and
// writes host memory, the host sees the writes after synchronising, with no
// cudaMemcpy); cudaMallocHost memory used directly by a kernel through
// unified addressing and as the source/destination of cudaMemcpy;
// cudaHostGetFlags. Exact.
#define TEST_NAME "host_mapped"
#include "common.h"

__global__ void twice_plus(const int *in, int *out, int n, int add)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = in[i] * 2 + add;
}

int main()
{
    const int n = 3000;
    int *h_in, *h_out, *d_in, *d_out;
    unsigned flags = 0;

    CK(cudaSetDeviceFlags(cudaDeviceMapHost));
    CK(cudaHostAlloc(&h_in, n * sizeof(int), cudaHostAllocMapped));
    CK(cudaHostAlloc(&h_out, n * sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable));
    CK(cudaHostGetFlags(&flags, h_in));
    expect_true(flags & cudaHostAllocMapped, "cudaHostGetFlags lacks cudaHostAllocMapped");
    for (int i = 0; i < n; i++) {
        h_in[i] = i - 1234;
        h_out[i] = 0;
    }
    CK(cudaHostGetDevicePointer(&d_in, h_in, 0));
    CK(cudaHostGetDevicePointer(&d_out, h_out, 0));
    twice_plus<<<4, 128>>>(d_in, d_out, n, 7);
    CK_LAUNCH();
    for (int i = 0; i < n; i++)
        expect_eq("zero-copy", i, h_out[i], (i - 1234) * 2 + 7);

    // cudaMallocHost memory: by its host address (unified addressing).
    int *p_in, *p_out, *dev;
    CK(cudaMallocHost(&p_in, n * sizeof(int)));
    CK(cudaMallocHost(&p_out, n * sizeof(int)));
    CK(cudaMalloc(&dev, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        p_in[i] = 3 * i;
    twice_plus<<<2, 256>>>(p_in, p_out, n, -1);
    CK_LAUNCH();
    for (int i = 0; i < n; i++)
        expect_eq("pinned via UVA", i, p_out[i], 6 * i - 1);
    CK(cudaMemcpy(dev, p_in, n * sizeof(int), cudaMemcpyHostToDevice));
    twice_plus<<<2, 256>>>(dev, dev, n, 100);
    CK_LAUNCH();
    CK(cudaMemcpy(p_out, dev, n * sizeof(int), cudaMemcpyDefault));
    for (int i = 0; i < n; i++)
        expect_eq("pinned memcpy", i, p_out[i], 6 * i + 100);
    CK(cudaFreeHost(h_in));
    CK(cudaFreeHost(h_out));
    CK(cudaFreeHost(p_in));
    CK(cudaFreeHost(p_out));
    CK(cudaFree(dev));
    return finish();
}
