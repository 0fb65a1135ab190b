// Sampled simulation's integration test program (tests/sample/run.sh): a many-CTA kernel
// (1800 CTAs of 128 threads, 15 waves on a GTX 480) that streams an array, computes a
// per-element hash loop and counts buckets with global atomics, then a one-CTA kernel
// that is never sampled. The host checks every output word and every bucket count; the
// CTA ids feed the results, so a CTA that ran twice or not at all fails the check.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CTAS 1800
#define THREADS 128
#define N (CTAS * THREADS)
#define BUCKETS 64

__host__ __device__ static unsigned mix(unsigned x, unsigned rounds)
{
    for (unsigned i = 0; i < rounds; i++)
        x = x * 1664525u + 1013904223u + (x >> 13);
    return x;
}

__global__ void k_many(const unsigned *in, unsigned *out, unsigned *count)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = mix(in[i] ^ blockIdx.x, 24 + (i & 7));

    out[i] = v;
    atomicAdd(&count[v % BUCKETS], 1u);
}

__global__ void k_sum(const unsigned *count, unsigned *total)
{
    __shared__ unsigned s[BUCKETS];

    s[threadIdx.x] = count[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned t = 0;
        for (int b = 0; b < BUCKETS; b++)
            t += s[b];
        *total = t;
    }
}

int main()
{
    std::vector<unsigned> in(N), out(N), want(N), count(BUCKETS), wcount(BUCKETS, 0);
    unsigned *din, *dout, *dcount, *dtotal, total = 0;

    for (unsigned i = 0; i < N; i++)
        in[i] = i * 2654435761u;
    for (unsigned i = 0; i < N; i++) {
        want[i] = mix(in[i] ^ (i / THREADS), 24 + (i & 7));
        wcount[want[i] % BUCKETS]++;
    }
    cudaMalloc(&din, N * 4);
    cudaMalloc(&dout, N * 4);
    cudaMalloc(&dcount, BUCKETS * 4);
    cudaMalloc(&dtotal, 4);
    cudaMemcpy(din, in.data(), N * 4, cudaMemcpyHostToDevice);
    cudaMemset(dcount, 0, BUCKETS * 4);
    k_many<<<CTAS, THREADS>>>(din, dout, dcount);
    k_sum<<<1, BUCKETS>>>(dcount, dtotal);
    cudaMemcpy(out.data(), dout, N * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(count.data(), dcount, BUCKETS * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(&total, dtotal, 4, cudaMemcpyDeviceToHost);
    if (cudaGetLastError() != cudaSuccess) {
        printf("FAIL: CUDA error\n");
        return 1;
    }
    for (unsigned i = 0; i < N; i++)
        if (out[i] != want[i]) {
            printf("FAIL: out[%u] = %u, want %u\n", i, out[i], want[i]);
            return 1;
        }
    for (int b = 0; b < BUCKETS; b++)
        if (count[b] != wcount[b]) {
            printf("FAIL: bucket %d = %u, want %u\n", b, count[b], wcount[b]);
            return 1;
        }
    if (total != N) {
        printf("FAIL: total %u, want %u\n", total, N);
        return 1;
    }
    printf("PASS many_ctas: %d CTAs, checksum %u\n", CTAS, out[N - 1] ^ out[N / 2]);
    return 0;
}
