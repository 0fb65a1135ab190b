// WORKLOAD: knn | irregular | brute-force k-nearest neighbours: each thread re-reads its point-major query row against every reference (shared by all warps), sorted top-k in local memory with data-dependent insertion
//
// Stands in for Rodinia NN / k-NN style searches (Ctrl-C and DYNCTA NN). Q queries and R reference
// points with D coordinates (runtime D), both point-major. Thread q scans the reference set in
// order; for each reference it recomputes the squared distance reading its query row again (private
// lines reused R times: the intra-thread locality a small L1 loses to other warps), the reference's
// coordinates being the same address for the whole warp and for every warp (inter-warp reuse), and
// inserts it into its K-entry sorted list (dynamically indexed, so in local memory) when it beats the
// current k-th. The check recomputes, in double, the distances of the K references each query
// returned and compares the sorted list with the host's K smallest: equal within 1e-5 relative,
// and the K indices must be distinct (the device may round differently and so swap near-ties).
#define WL_NAME "knn"
#include "wl.h"
#include <algorithm>

#define K 8

__global__ void knn_scan(const float *qry, const float *ref, int nq, int nr, int dim, int *out)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;

    if (q >= nq)
        return;
    float bd[K];
    int bi[K];
    for (int j = 0; j < K; j++) {
        bd[j] = 3.4e38f;
        bi[j] = -1;
    }
    for (int r = 0; r < nr; r++) {
        float d = 0.0f;
        for (int k = 0; k < dim; k++) {
            float t = qry[(size_t)q * dim + k] - ref[(size_t)r * dim + k];
            d += t * t;
        }
        if (d < bd[K - 1]) {
            int j = K - 1;
            while (j > 0 && bd[j - 1] > d) {
                bd[j] = bd[j - 1];
                bi[j] = bi[j - 1];
                j--;
            }
            bd[j] = d;
            bi[j] = r;
        }
    }
    for (int j = 0; j < K; j++)
        out[(size_t)q * K + j] = bi[j];
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    const int nq = wl_pick(sz, 1024, 7680, 65536);
    const int nr = wl_pick(sz, 64, 56, 1024);
    const int dim = 16;
    wl_rand r(0x4A4A);

    float *qry = (float *)malloc((size_t)nq * dim * sizeof(float));
    float *ref = (float *)malloc((size_t)nr * dim * sizeof(float));
    for (size_t i = 0; i < (size_t)nr * dim; i++)
        ref[i] = r.unit();
    for (size_t i = 0; i < (size_t)nq * dim; i++)
        qry[i] = r.unit();

    float *d_q, *d_r;
    int *d_out;
    WL_CK(cudaMalloc(&d_q, (size_t)nq * dim * sizeof(float)));
    WL_CK(cudaMalloc(&d_r, (size_t)nr * dim * sizeof(float)));
    WL_CK(cudaMalloc(&d_out, (size_t)nq * K * sizeof(int)));
    WL_CK(cudaMemcpy(d_q, qry, (size_t)nq * dim * sizeof(float), cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(d_r, ref, (size_t)nr * dim * sizeof(float), cudaMemcpyHostToDevice));

    const int bs = 128;
    knn_scan<<<(nq + bs - 1) / bs, bs>>>(d_q, d_r, nq, nr, dim, d_out);
    WL_LAUNCH_CK();
    int *out = (int *)malloc((size_t)nq * K * sizeof(int));
    WL_CK(cudaMemcpy(out, d_out, (size_t)nq * K * sizeof(int), cudaMemcpyDeviceToHost));

    double *all = (double *)malloc(nr * sizeof(double));
    for (int q = 0; q < nq; q++) {
        for (int i = 0; i < nr; i++) {
            double d = 0;
            for (int k = 0; k < dim; k++) {
                double t = (double)qry[(size_t)q * dim + k] - (double)ref[(size_t)i * dim + k];
                d += t * t;
            }
            all[i] = d;
        }
        double got[K];
        for (int j = 0; j < K; j++) {
            int i = out[(size_t)q * K + j];
            if (i < 0 || i >= nr)
                wl_fail("query %d: neighbour %d is %d", q, j, i);
            for (int l = 0; l < j; l++)
                if (out[(size_t)q * K + l] == i)
                    wl_fail("query %d: neighbour %d repeated", q, i);
            got[j] = all[i];
        }
        std::sort(got, got + K);
        std::partial_sort(all, all + K, all + nr);
        for (int j = 0; j < K; j++)
            if (!wl_close(got[j], all[j], 1e-5, 1e-7))
                wl_fail("query %d: neighbour %d at %.9g, want %.9g", q, j, got[j], all[j]);
    }
    fprintf(stderr, "knn: %d queries, %d references, %d dims, k = %d\n", nq, nr, dim, K);
    return wl_pass();
}
