// Timing microbenchmark: shared-memory bank conflicts. bank<S> has every
// lane of a warp access word lane*S of its warp's region, in every shared
// access it makes (stores and loads alike), so each shared instruction has
// the same conflict degree. tests/timing/run.sh compares
// other.shmem_cycles / other.shmem_accesses of each kernel with the degree
// it computes from -gpgpu_shmem_num_banks and -gpgpu_shmem_warp_parts.
#include <cstdio>

#define WARPS 4
#define REPS 16

template <int S>
__global__ void bank(float *out)
{
    __shared__ float buf[WARPS * 32 * S];
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    volatile float *p = buf + w * 32 * S + lane * S;
    *p = (float)threadIdx.x;
    float acc = 0;
#pragma unroll 1
    for (int r = 0; r < REPS; r++)
        acc += *p; // volatile: one ld.shared per iteration
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int S>
static bool run(float *d, float *h)
{
    bank<S><<<1, WARPS * 32>>>(d);
    if (cudaDeviceSynchronize() != cudaSuccess)
        return false;
    cudaMemcpy(h, d, WARPS * 32 * sizeof(float), cudaMemcpyDeviceToHost);
    for (int t = 0; t < WARPS * 32; t++)
        if (h[t] != (float)(REPS * t))
            return false;
    printf("stride %d: ok\n", S);
    return true;
}

int main()
{
    float *d, h[WARPS * 32];
    cudaMalloc(&d, sizeof(h));
    if (!run<1>(d, h) || !run<2>(d, h) || !run<3>(d, h) || !run<16>(d, h) || !run<32>(d, h)) {
        printf("FAIL shmem_bank\n");
        return 1;
    }
    printf("PASS shmem_bank\n");
    return 0;
}
