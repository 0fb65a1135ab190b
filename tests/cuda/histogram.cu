// Histogram: per-block privatised histograms in shared memory (atomicAdd on
// shared words, heavy contention because the input is skewed), merged into
// the global histogram with global atomicAdd; a second kernel with 8-bit
// input read four bytes at a time through uchar4; and a 1024-bin variant
// whose bins are zeroed and merged in a loop over the block. Exact.
#define TEST_NAME "histogram"
#include "common.h"

#define BINS 64
#define BIGBINS 1024

__global__ void hist_shared(const int *in, int n, unsigned *hist)
{
    __shared__ unsigned s[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        s[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&s[in[i] % BINS], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (s[b])
            atomicAdd(&hist[b], s[b]);
}

__global__ void hist_bytes(const uchar4 *in, int n4, unsigned *hist)
{
    __shared__ unsigned s[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        s[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        uchar4 v = in[i];
        atomicAdd(&s[v.x], 1u);
        atomicAdd(&s[v.y], 1u);
        atomicAdd(&s[v.z], 1u);
        atomicAdd(&s[v.w], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x)
        atomicAdd(&hist[b], s[b]);
}

__global__ void hist_big(const int *in, int n, unsigned *hist)
{
    __shared__ unsigned s[BIGBINS];
    for (int b = threadIdx.x; b < BIGBINS; b += blockDim.x)
        s[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&s[(unsigned)in[i] % BIGBINS], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BIGBINS; b += blockDim.x)
        atomicAdd(&hist[b], s[b]);
}

int main()
{
    const int n = 40000, nbytes = 4 * 8000;
    int *in = new int[n], *din;
    unsigned char *bytes = new unsigned char[nbytes];
    unsigned hist[BINS], bh[256], big[BIGBINS], *dhist, *dbh, *dbig;
    uchar4 *dbytes;
    uint32_t seed = 6;

    for (int i = 0; i < n; i++) {
        uint32_t r = rng_next(&seed);
        in[i] = (r % 4 == 0) ? (int)(r % 100000) : (int)(r % 7); // skewed to bins 0..6
    }
    for (int i = 0; i < nbytes; i++)
        bytes[i] = (unsigned char)(rng_next(&seed) % 3 == 0 ? 'e' : rng_next(&seed));
    CK(cudaMalloc(&din, n * sizeof(int)));
    CK(cudaMalloc(&dbytes, nbytes));
    CK(cudaMalloc(&dhist, sizeof(hist)));
    CK(cudaMalloc(&dbh, sizeof(bh)));
    CK(cudaMalloc(&dbig, sizeof(big)));
    CK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dbytes, bytes, nbytes, cudaMemcpyHostToDevice));
    CK(cudaMemset(dhist, 0, sizeof(hist)));
    CK(cudaMemset(dbh, 0, sizeof(bh)));
    CK(cudaMemset(dbig, 0, sizeof(big)));
    hist_shared<<<16, 256>>>(din, n, dhist);
    hist_bytes<<<8, 128>>>(dbytes, nbytes / 4, dbh);
    hist_big<<<4, 512>>>(din, n, dbig);
    CK_LAUNCH();
    CK(cudaMemcpy(hist, dhist, sizeof(hist), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(bh, dbh, sizeof(bh), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(big, dbig, sizeof(big), cudaMemcpyDeviceToHost));

    unsigned want[BINS] = {0}, wb[256] = {0}, wbig[BIGBINS] = {0};
    for (int i = 0; i < n; i++) {
        want[in[i] % BINS]++;
        wbig[(unsigned)in[i] % BIGBINS]++;
    }
    for (int i = 0; i < nbytes; i++)
        wb[bytes[i]]++;
    for (int b = 0; b < BINS; b++)
        expect_equ("hist", b, hist[b], want[b]);
    for (int b = 0; b < 256; b++)
        expect_equ("byte hist", b, bh[b], wb[b]);
    for (int b = 0; b < BIGBINS; b++)
        expect_equ("1024-bin hist", b, big[b], wbig[b]);
    CK(cudaFree(din));
    CK(cudaFree(dbytes));
    CK(cudaFree(dhist));
    CK(cudaFree(dbh));
    CK(cudaFree(dbig));
    delete[] in;
    delete[] bytes;
    return finish();
}
