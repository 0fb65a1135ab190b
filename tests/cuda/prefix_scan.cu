// Prefix scan: work-efficient (Blelloch up-sweep/down-sweep) exclusive scan
// of 512 elements per block in shared memory with bank-conflict-free padding,
// block totals scanned by a second launch and added back by a third (three
// phases for an array of any length), and an inclusive float scan of
// integer-valued floats (exact). Checked against a sequential host scan.
#define TEST_NAME "prefix_scan"
#include "common.h"

#define THREADS 256
#define ELEMS (2 * THREADS)
#define PAD(i) ((i) + ((i) >> 5))

template <typename T> __global__ void scan_block(const T *in, T *out, T *sums, int n)
{
    __shared__ T s[PAD(ELEMS) + 1];
    int t = threadIdx.x, base = blockIdx.x * ELEMS;
    int a = t, b = t + THREADS;

    s[PAD(a)] = base + a < n ? in[base + a] : T(0);
    s[PAD(b)] = base + b < n ? in[base + b] : T(0);
    int off = 1;
    for (int d = ELEMS >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            s[PAD(bi)] += s[PAD(ai)];
        }
        off <<= 1;
    }
    if (t == 0) {
        if (sums)
            sums[blockIdx.x] = s[PAD(ELEMS - 1)];
        s[PAD(ELEMS - 1)] = 0;
    }
    for (int d = 1; d < ELEMS; d <<= 1) {
        off >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = off * (2 * t + 1) - 1, bi = off * (2 * t + 2) - 1;
            T x = s[PAD(ai)];
            s[PAD(ai)] = s[PAD(bi)];
            s[PAD(bi)] += x;
        }
    }
    __syncthreads();
    if (base + a < n)
        out[base + a] = s[PAD(a)];
    if (base + b < n)
        out[base + b] = s[PAD(b)];
}

template <typename T> __global__ void add_offsets(T *out, const T *offsets, int n)
{
    int i = blockIdx.x * ELEMS + threadIdx.x;
    T o = offsets[blockIdx.x];
    if (i < n)
        out[i] += o;
    if (i + THREADS < n)
        out[i + THREADS] += o;
}

// Exclusive scan of n <= ELEMS * ELEMS elements.
template <typename T> static void scan(const T *din, T *dout, int n)
{
    int blocks = (n + ELEMS - 1) / ELEMS;
    T *sums, *offsets;
    CK(cudaMalloc(&sums, blocks * sizeof(T)));
    CK(cudaMalloc(&offsets, blocks * sizeof(T)));
    scan_block<T><<<blocks, THREADS>>>(din, dout, sums, n);
    scan_block<T><<<1, THREADS>>>(sums, offsets, (T *)NULL, blocks);
    add_offsets<T><<<blocks, THREADS>>>(dout, offsets, n);
    CK_LAUNCH();
    CK(cudaFree(sums));
    CK(cudaFree(offsets));
}

int main()
{
    const int sizes[] = {1, 511, 512, 513, 60000};
    uint32_t seed = 42;
    for (int n : sizes) {
        int *in = new int[n], *out = new int[n], *din, *dout;
        float *fin = new float[n], *fout = new float[n], *dfin, *dfout;
        for (int i = 0; i < n; i++) {
            in[i] = (int)(rng_next(&seed) % 201) - 100;
            fin[i] = (float)(rng_next(&seed) % 17);
        }
        CK(cudaMalloc(&din, n * sizeof(int)));
        CK(cudaMalloc(&dout, n * sizeof(int)));
        CK(cudaMalloc(&dfin, n * sizeof(float)));
        CK(cudaMalloc(&dfout, n * sizeof(float)));
        CK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(dfin, fin, n * sizeof(float), cudaMemcpyHostToDevice));
        scan<int>(din, dout, n);
        scan<float>(dfin, dfout, n);
        CK(cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(fout, dfout, n * sizeof(float), cudaMemcpyDeviceToHost));
        int s = 0;
        float fs = 0.0f;
        for (int i = 0; i < n; i++) {
            expect_eq("exclusive int scan", i, out[i], s);
            fs += fin[i];
            // inclusive = exclusive + own element; all sums < 2^24: exact
            expect_bitsf("inclusive float scan", i, fout[i] + fin[i], fs);
            s += in[i];
        }
        CK(cudaFree(din));
        CK(cudaFree(dout));
        CK(cudaFree(dfin));
        CK(cudaFree(dfout));
        delete[] in;
        delete[] out;
        delete[] fin;
        delete[] fout;
    }
    return finish();
}
