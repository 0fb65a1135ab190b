// ptxsim exec test: 64-bin histogram of in[i] % 64, grid-stride, per-CTA shared
// bins merged into the global ones with atomics.
#define NBINS 64

extern "C" __global__ void histogram(const unsigned *in, unsigned *bins, int n)
{
    __shared__ unsigned sb[NBINS];

    for (int i = threadIdx.x; i < NBINS; i += blockDim.x)
        sb[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&sb[in[i] % NBINS], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < NBINS; i += blockDim.x)
        atomicAdd(&bins[i], sb[i]);
}
