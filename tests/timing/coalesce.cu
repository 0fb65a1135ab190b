// Timing microbenchmark: coalesced versus strided global loads. gather<S>
// makes K loads per thread, lane l of a warp reading element
// (k * 32 + l) * S of its warp's region: S = 1 touches one 128-byte line
// per warp instruction, S = 32 one line per lane. Both kernels execute the
// same instructions; each ends with one coalesced store per warp.
// tests/timing/run.sh checks other.gmem_requests, l1d.accesses and cycles.
#include <cstdio>
#include <cstdlib>

#define K 8
#define THREADS 128
#define BLOCKS 8

template <int S>
__global__ void gather(const float *a, float *out)
{
    int gtid = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = gtid >> 5, lane = threadIdx.x & 31;
    const float *base = a + (size_t)warp * K * 32 * S + lane * S;
    float acc = 0;
#pragma unroll
    for (int k = 0; k < K; k++)
        acc += base[k * 32 * S];
    out[gtid] = acc;
}

template <int S>
static bool run(const float *d, float *o, const float *h, float *ho)
{
    const int nt = BLOCKS * THREADS;
    gather<S><<<BLOCKS, THREADS>>>(d, o);
    if (cudaDeviceSynchronize() != cudaSuccess)
        return false;
    cudaMemcpy(ho, o, nt * sizeof(float), cudaMemcpyDeviceToHost);
    for (int t = 0; t < nt; t++) {
        float e = 0;
        for (int k = 0; k < K; k++)
            e += h[(size_t)(t / 32) * K * 32 * S + (t % 32) * S + k * 32 * S];
        if (ho[t] != e)
            return false;
    }
    printf("stride %d: ok\n", S);
    return true;
}

int main()
{
    const size_t n = (size_t)BLOCKS * THREADS * K * 32;
    float *d, *o, *h = (float *)malloc(n * sizeof(float)), *ho = (float *)malloc(BLOCKS * THREADS * sizeof(float));
    for (size_t i = 0; i < n; i++)
        h[i] = (float)(i % 13);
    cudaMalloc(&d, n * sizeof(float));
    cudaMalloc(&o, BLOCKS * THREADS * sizeof(float));
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
    if (!run<1>(d, o, h, ho) || !run<32>(d, o, h, ho)) {
        printf("FAIL coalesce\n");
        return 1;
    }
    printf("PASS coalesce\n");
    return 0;
}
