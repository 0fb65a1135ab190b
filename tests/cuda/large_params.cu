// Kernel parameters larger than the classic 4 KiB limit: CUDA 12.1+ allows
// up to 32764 bytes of parameters on Volta and later, and nvcc 13 targets
// sm_75. A 12 KiB struct passed by value (plus scalars after it) is read in
// full by a block, through <<<>>> and through cudaLaunchKernel. Exact.
#define TEST_NAME "large_params"
#include "common.h"

#define WORDS 3072 // 12 KiB

struct Huge {
    int w[WORDS];
};

__global__ void read_huge(Huge h, int tail, long long *out)
{
    __shared__ long long part[256];
    long long s = 0;
    for (int k = threadIdx.x; k < WORDS; k += blockDim.x)
        s += (long long)h.w[k] * (k % 7 + 1);
    part[threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) {
        long long t = 0;
        for (int k = 0; k < (int)blockDim.x; k++)
            t += part[k];
        out[0] = t;
        out[1] = tail;
        out[2] = h.w[WORDS - 1];
    }
}

int main()
{
    static Huge h;
    long long want = 0, out[3], *dout;
    int tail = -424242;

    for (int k = 0; k < WORDS; k++) {
        h.w[k] = k * 31 - 5000;
        want += (long long)h.w[k] * (k % 7 + 1);
    }
    CK(cudaMalloc(&dout, sizeof(out)));
    read_huge<<<1, 256>>>(h, tail, dout);
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
    expect_eq("weighted sum (<<<>>>)", 0, out[0], want);
    expect_eq("scalar after the struct", 0, out[1], tail);
    expect_eq("last word", 0, out[2], h.w[WORDS - 1]);

    h.w[100] += 1;
    want += 100 % 7 + 1;
    tail = 77;
    CK(cudaMemset(dout, 0, sizeof(out)));
    void *args[] = {&h, &tail, &dout};
    CK(cudaLaunchKernel((const void *)read_huge, dim3(1), dim3(256), args, 0, 0));
    CK_LAUNCH();
    CK(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
    expect_eq("weighted sum (cudaLaunchKernel)", 0, out[0], want);
    expect_eq("scalar after the struct (cudaLaunchKernel)", 0, out[1], tail);
    CK(cudaFree(dout));
    return finish();
}
