// ptxsim exec test: grid-stride sum per CTA, reduced with warp shuffles and
// shared memory; out[blockIdx.x] is the sum of the elements the CTA visited.
extern "C" __global__ void reduce(const int *in, int *out, int n)
{
    __shared__ int warpsums[32];
    int sum = 0;
    int lane = threadIdx.x & 31, w = threadIdx.x >> 5;

    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    for (int o = 16; o > 0; o >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, o);
    if (lane == 0)
        warpsums[w] = sum;
    __syncthreads();
    if (w == 0) {
        sum = lane < (int)(blockDim.x + 31) / 32 ? warpsums[lane] : 0;
        for (int o = 16; o > 0; o >>= 1)
            sum += __shfl_xor_sync(0xffffffffu, sum, o);
        if (lane == 0)
            out[blockIdx.x] = sum;
    }
}
