// WORKLOAD: spmv_csr | irregular | scalar CSR SpMV, one thread per row: power-law-ish row lengths (divergence, imbalance), uncoalesced per-thread row streams, gathers from x with a diagonal band plus hot columns
//
// Stands in for Parboil SPMV / Ctrl-C's CSR (DYNCTA type-M, Ctrl-C CS). An R x R matrix: row
// lengths are short for most rows and long for a few (70% in [2, 8], 25% in [9, 32], 5% in
// [33, 160]); a row's columns are 60% within +-B of the diagonal, 25% from a small hot set of
// columns (power-law popularity) and 15% uniform, sorted. Thread i computes y[i] = sum A[i][j] x[j]
// walking its own stretch of val[] and col[] (consecutive words, one line per thread: intra-thread
// spatial locality) and gathering x[col] (the band and hot set give inter-thread reuse). The check
// is against a double-precision host product: |got - want| <= 1e-5 * sum |A[i][j] x[j]| + 1e-6
// (the device sums in float, in order, maybe with fused multiply-adds).
#define WL_NAME "spmv_csr"
#include "wl.h"
#include <algorithm>

__global__ void spmv_csr_scalar(const int *__restrict__ rowp, const int *__restrict__ col,
                                const float *__restrict__ val, const float *__restrict__ x,
                                float *y, int nrows)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i >= nrows)
        return;
    float s = 0.0f;
    int end = rowp[i + 1];
    for (int j = rowp[i]; j < end; j++)
        s += val[j] * x[col[j]];
    y[i] = s;
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    const int n = wl_pick(sz, 6144, 36864, 1048576);
    const int band = wl_pick(sz, 256, 1024, 4096);
    const int hot = wl_pick(sz, 512, 2048, 8192);
    wl_rand r(0x5B3);

    int *rowp = (int *)malloc((n + 1) * sizeof(int));
    rowp[0] = 0;
    for (int i = 0; i < n; i++) {
        uint32_t b = r.below(100);
        int len = b < 70 ? 2 + (int)r.below(7) : b < 95 ? 9 + (int)r.below(24) : 33 + (int)r.below(128);
        rowp[i + 1] = rowp[i] + len;
    }
    int nnz = rowp[n];
    int *col = (int *)malloc(nnz * sizeof(int));
    float *val = (float *)malloc(nnz * sizeof(float));
    for (int i = 0; i < n; i++) {
        for (int j = rowp[i]; j < rowp[i + 1]; j++) {
            uint32_t b = r.below(100);
            int c;
            if (b < 60) {
                c = i + (int)r.below(2 * band + 1) - band;
                c = c < 0 ? c + n : c >= n ? c - n : c;
            } else if (b < 85) {
                float u = r.unit();
                c = (int)((float)hot * u * u * u) * 37 % n; // cubed: skewed towards the first hot columns
            } else {
                c = (int)r.below(n);
            }
            col[j] = c;
            val[j] = r.range(-1.0f, 1.0f);
        }
        std::sort(col + rowp[i], col + rowp[i + 1]);
    }
    float *x = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        x[i] = r.range(-1.0f, 1.0f);

    int *d_rowp, *d_col;
    float *d_val, *d_x, *d_y;
    WL_CK(cudaMalloc(&d_rowp, (n + 1) * sizeof(int)));
    WL_CK(cudaMalloc(&d_col, nnz * sizeof(int)));
    WL_CK(cudaMalloc(&d_val, nnz * sizeof(float)));
    WL_CK(cudaMalloc(&d_x, n * sizeof(float)));
    WL_CK(cudaMalloc(&d_y, n * sizeof(float)));
    WL_CK(cudaMemcpy(d_rowp, rowp, (n + 1) * sizeof(int), cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(d_col, col, nnz * sizeof(int), cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(d_val, val, nnz * sizeof(float), cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice));

    const int bs = 192;
    spmv_csr_scalar<<<(n + bs - 1) / bs, bs>>>(d_rowp, d_col, d_val, d_x, d_y, n);
    WL_LAUNCH_CK();
    float *y = (float *)malloc(n * sizeof(float));
    WL_CK(cudaMemcpy(y, d_y, n * sizeof(float), cudaMemcpyDeviceToHost));

    for (int i = 0; i < n; i++) {
        double s = 0, a = 0;
        for (int j = rowp[i]; j < rowp[i + 1]; j++) {
            s += (double)val[j] * (double)x[col[j]];
            a += fabs((double)val[j] * (double)x[col[j]]);
        }
        if (!wl_close(y[i], s, 0.0, 1e-5 * a + 1e-6))
            wl_fail("y[%d] = %.9g, want %.9g", i, y[i], s);
    }
    fprintf(stderr, "spmv_csr: %d rows, %d nonzeros\n", n, nnz);
    return wl_pass();
}
