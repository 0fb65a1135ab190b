// Bitonic sort: (1) a global-memory sort of 2^12 keys with one launch per
// (k, j) stage; (2) a shared-memory sort of 1024 key/value pairs per block
// inside one launch with __syncthreads between stages; (3) descending order
// with duplicates. Results must equal std::sort; the values carried with the
// keys must stay a permutation matching their keys.
#define TEST_NAME "bitonic_sort"
#include "common.h"
#include <algorithm>

__global__ void bitonic_step(unsigned *a, int n, int j, int k, bool desc)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int p = i ^ j;
    if (i >= n || p <= i)
        return;
    bool up = ((i & k) == 0) != desc;
    unsigned x = a[i], y = a[p];
    if ((x > y) == up) {
        a[i] = y;
        a[p] = x;
    }
}

#define SB 1024
__global__ void bitonic_shared(int *keys, int *vals)
{
    __shared__ int sk[SB], sv[SB];
    int t = threadIdx.x, base = blockIdx.x * SB;
    sk[t] = keys[base + t];
    sv[t] = vals[base + t];
    sk[t + SB / 2] = keys[base + t + SB / 2];
    sv[t + SB / 2] = vals[base + t + SB / 2];
    for (int k = 2; k <= SB; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            __syncthreads();
            // thread t handles the pair (i, i ^ j) with i having bit j clear
            int i = 2 * t - (t & (j - 1));
            int p = i + j;
            bool up = (i & k) == 0;
            if ((sk[i] > sk[p]) == up) {
                int x = sk[i];
                sk[i] = sk[p];
                sk[p] = x;
                x = sv[i];
                sv[i] = sv[p];
                sv[p] = x;
            }
        }
    __syncthreads();
    keys[base + t] = sk[t];
    vals[base + t] = sv[t];
    keys[base + t + SB / 2] = sk[t + SB / 2];
    vals[base + t + SB / 2] = sv[t + SB / 2];
}

static void global_sort(unsigned *h, int n, bool desc, const char *what)
{
    unsigned *d, *want = new unsigned[n];
    std::copy(h, h + n, want);
    if (desc)
        std::sort(want, want + n, [](unsigned a, unsigned b) { return a > b; });
    else
        std::sort(want, want + n);
    CK(cudaMalloc(&d, n * sizeof(unsigned)));
    CK(cudaMemcpy(d, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
    for (int k = 2; k <= n; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1)
            bitonic_step<<<(n + 255) / 256, 256>>>(d, n, j, k, desc);
    CK_LAUNCH();
    CK(cudaMemcpy(h, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        expect_equ(what, i, h[i], want[i]);
    CK(cudaFree(d));
    delete[] want;
}

int main()
{
    const int n = 1 << 12;
    unsigned *h = new unsigned[n];
    uint32_t seed = 1234;

    for (int i = 0; i < n; i++)
        h[i] = rng_next(&seed);
    global_sort(h, n, false, "global ascending");
    for (int i = 0; i < n; i++)
        h[i] = rng_next(&seed) % 50; // many duplicates
    global_sort(h, n, true, "global descending");

    const int blocks = 3, m = blocks * SB;
    int *keys = new int[m], *vals = new int[m], *dk, *dv;
    for (int i = 0; i < m; i++) {
        keys[i] = (int)(rng_next(&seed) % 100000) - 50000;
        vals[i] = i;
    }
    int *orig = new int[m];
    std::copy(keys, keys + m, orig);
    CK(cudaMalloc(&dk, m * sizeof(int)));
    CK(cudaMalloc(&dv, m * sizeof(int)));
    CK(cudaMemcpy(dk, keys, m * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dv, vals, m * sizeof(int), cudaMemcpyHostToDevice));
    bitonic_shared<<<blocks, SB / 2>>>(dk, dv);
    CK_LAUNCH();
    CK(cudaMemcpy(keys, dk, m * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(vals, dv, m * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; b++) {
        int *want = new int[SB];
        std::copy(orig + b * SB, orig + (b + 1) * SB, want);
        std::sort(want, want + SB);
        bool *used = new bool[SB]();
        for (int i = 0; i < SB; i++) {
            int g = b * SB + i, v = vals[g];
            expect_eq("shared sort key", g, keys[g], want[i]);
            if (v < b * SB || v >= (b + 1) * SB || used[v - b * SB] || orig[v] != keys[g])
                fail("shared sort value[%d] = %d does not carry key %d", g, v, keys[g]);
            else
                used[v - b * SB] = true;
        }
        delete[] want;
        delete[] used;
    }
    CK(cudaFree(dk));
    CK(cudaFree(dv));
    delete[] h;
    delete[] keys;
    delete[] vals;
    delete[] orig;
    return finish();
}
