// Shared-memory tree reductions (sequential addressing, __syncthreads between
// levels, two loads per thread): an int sum and min/max, and a float sum whose
// per-block result is compared exactly against a host emulation of the same
// addition order.
#define TEST_NAME "reduce_shared"
#include "common.h"

#define BLOCK 256

__global__ void reduce_int(const int *in, int n, int *sum, int *mn, int *mx)
{
    __shared__ int s_sum[BLOCK], s_min[BLOCK], s_max[BLOCK];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * (2 * BLOCK) + t;
    int a = i < (unsigned)n ? in[i] : 0;
    int b = i + BLOCK < (unsigned)n ? in[i + BLOCK] : 0;
    int amin = i < (unsigned)n ? a : INT_MAX, bmin = i + BLOCK < (unsigned)n ? b : INT_MAX;
    int amax = i < (unsigned)n ? a : INT_MIN, bmax = i + BLOCK < (unsigned)n ? b : INT_MIN;

    s_sum[t] = a + b;
    s_min[t] = min(amin, bmin);
    s_max[t] = max(amax, bmax);
    __syncthreads();
    for (unsigned s = BLOCK / 2; s > 0; s >>= 1) {
        if (t < s) {
            s_sum[t] += s_sum[t + s];
            s_min[t] = min(s_min[t], s_min[t + s]);
            s_max[t] = max(s_max[t], s_max[t + s]);
        }
        __syncthreads();
    }
    if (t == 0) {
        sum[blockIdx.x] = s_sum[0];
        mn[blockIdx.x] = s_min[0];
        mx[blockIdx.x] = s_max[0];
    }
}

__global__ void reduce_float(const float *in, int n, float *out)
{
    __shared__ float s[BLOCK];
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * (2 * BLOCK) + t;
    float a = i < (unsigned)n ? in[i] : 0.0f;

    if (i + BLOCK < (unsigned)n)
        a += in[i + BLOCK];
    s[t] = a;
    __syncthreads();
    for (unsigned k = BLOCK / 2; k > 0; k >>= 1) {
        if (t < k)
            s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// The same additions in the same order as reduce_float, for one block.
static float host_block_sum(const float *in, int n, int block)
{
    float s[BLOCK];

    for (int t = 0; t < BLOCK; t++) {
        int i = block * 2 * BLOCK + t;
        float a = i < n ? in[i] : 0.0f;
        if (i + BLOCK < n)
            a += in[i + BLOCK];
        s[t] = a;
    }
    for (int k = BLOCK / 2; k > 0; k >>= 1)
        for (int t = 0; t < k; t++)
            s[t] += s[t + k];
    return s[0];
}

int main()
{
    const int n = 50000, blocks = (n + 2 * BLOCK - 1) / (2 * BLOCK);
    int *in = new int[n], *sum = new int[blocks], *mn = new int[blocks], *mx = new int[blocks];
    float *fin = new float[n], *fout = new float[blocks];
    int *din, *dsum, *dmin, *dmax;
    float *dfin, *dfout;
    uint32_t seed = 777;

    for (int i = 0; i < n; i++) {
        in[i] = (int)(rng_next(&seed) % 2000001) - 1000000;
        fin[i] = (float)(rng_next(&seed) % 100000) / 997.0f - 50.0f;
    }
    CK(cudaMalloc(&din, n * sizeof(int)));
    CK(cudaMalloc(&dfin, n * sizeof(float)));
    CK(cudaMalloc(&dsum, blocks * sizeof(int)));
    CK(cudaMalloc(&dmin, blocks * sizeof(int)));
    CK(cudaMalloc(&dmax, blocks * sizeof(int)));
    CK(cudaMalloc(&dfout, blocks * sizeof(float)));
    CK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dfin, fin, n * sizeof(float), cudaMemcpyHostToDevice));
    reduce_int<<<blocks, BLOCK>>>(din, n, dsum, dmin, dmax);
    reduce_float<<<blocks, BLOCK>>>(dfin, n, dfout);
    CK_LAUNCH();
    CK(cudaMemcpy(sum, dsum, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(mn, dmin, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(mx, dmax, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(fout, dfout, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    long long total = 0, want_total = 0;
    for (int b = 0; b < blocks; b++) {
        long long s = 0;
        int lo = INT_MAX, hi = INT_MIN;
        for (int i = b * 2 * BLOCK; i < n && i < (b + 1) * 2 * BLOCK; i++) {
            s += in[i];
            lo = in[i] < lo ? in[i] : lo;
            hi = in[i] > hi ? in[i] : hi;
        }
        expect_eq("sum", b, sum[b], s);
        expect_eq("min", b, mn[b], lo);
        expect_eq("max", b, mx[b], hi);
        expect_bitsf("fsum", b, fout[b], host_block_sum(fin, n, b));
        total += sum[b];
        want_total += s;
    }
    expect_eq("total", 0, total, want_total);
    CK(cudaFree(din));
    CK(cudaFree(dfin));
    CK(cudaFree(dsum));
    CK(cudaFree(dmin));
    CK(cudaFree(dmax));
    CK(cudaFree(dfout));
    delete[] in;
    delete[] sum;
    delete[] mn;
    delete[] mx;
    delete[] fin;
    delete[] fout;
    return finish();
}
