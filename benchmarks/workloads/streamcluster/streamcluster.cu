// WORKLOAD: streamcluster | irregular | facility-location gain (pgain): each thread re-reads its point-major coordinates for every candidate centre, weighted distances, shared-memory block reduction of savings
//
// Stands in for Rodinia Streamcluster's pgain kernel (CCWS STMCL moderately cache-sensitive,
// Ctrl-C SC). N points with D coordinates (runtime D, point-major [N][D] so a point is one or more
// 128-byte lines private to its thread), a weight and the cost of its current assignment. One launch
// evaluates C candidate centres: thread p computes w[p] * |x_p - x_c|^2 for each candidate c,
// re-reading its own coordinates each time (intra-thread reuse; the candidates' coordinates are
// shared by every thread), and where it is below cost[p] it adds the saving to c's gain and
// remembers the best candidate. The block sums each candidate's gains in shared memory (a fixed
// tree, so deterministic) and writes one partial per block. The host sums the partials, opens the
// candidate with the largest gain (updating costs and assignments), and picks the next batch.
// Checks per round: each candidate's gain within 1e-4 relative (+1e-3 absolute) of a double host
// sum (float vs double rounding, and points whose saving is ~0 may differ), and each point's best
// candidate within 1e-5 relative of the host's best distance.
#define WL_NAME "streamcluster"
#include "wl.h"

#define CMAX 8
#define BS 128

__global__ void sc_pgain(const float *coord, const float *__restrict__ weight,
                         const float *__restrict__ cost, const int *__restrict__ cand, int nc,
                         int n, int dim, float *block_gain, int *best)
{
    __shared__ float sg[CMAX][BS];
    int tid = threadIdx.x;
    int p = blockIdx.x * BS + tid;

    for (int c = 0; c < CMAX; c++)
        sg[c][tid] = 0.0f;
    if (p < n) {
        float w = weight[p], cp = cost[p], bestd = cp;
        int bi = -1;
        for (int c = 0; c < nc; c++) {
            const float *x = coord + (size_t)cand[c] * dim;
            float d = 0.0f;
            for (int k = 0; k < dim; k++) {
                float t = coord[(size_t)p * dim + k] - x[k];
                d += t * t;
            }
            d *= w;
            if (d < cp) {
                sg[c][tid] = cp - d;
                if (d < bestd) {
                    bestd = d;
                    bi = c;
                }
            }
        }
        best[p] = bi;
    }
    __syncthreads();
    for (int s = BS / 2; s > 0; s >>= 1) {
        if (tid < s)
            for (int c = 0; c < nc; c++)
                sg[c][tid] += sg[c][tid + s];
        __syncthreads();
    }
    if (tid < nc)
        block_gain[blockIdx.x * CMAX + tid] = sg[tid][0];
}

static double wdist(const float *co, int dim, int a, int b)
{
    double d = 0;
    for (int k = 0; k < dim; k++) {
        double t = (double)co[(size_t)a * dim + k] - (double)co[(size_t)b * dim + k];
        d += t * t;
    }
    return d;
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    const int n = wl_pick(sz, 1536, 6144, 65536);
    const int dim = wl_pick(sz, 32, 32, 64);
    const int rounds = wl_pick(sz, 2, 2, 8);
    const int nc = CMAX;
    wl_rand r(0x5C);

    // Points in loose clusters, weights in [1, 4].
    float *co = (float *)malloc((size_t)n * dim * sizeof(float));
    float *w = (float *)malloc(n * sizeof(float));
    const int nclus = 16;
    float *cc = (float *)malloc(nclus * dim * sizeof(float));
    for (int i = 0; i < nclus * dim; i++)
        cc[i] = r.range(0.0f, 1.0f);
    for (int p = 0; p < n; p++) {
        int c = (int)r.below(nclus);
        for (int k = 0; k < dim; k++)
            co[(size_t)p * dim + k] = cc[c * dim + k] + r.range(-0.15f, 0.15f);
        w[p] = (float)(1 + r.below(4));
    }
    // Start with one open centre, point 0.
    float *cost = (float *)malloc(n * sizeof(float));
    int *assign = (int *)malloc(n * sizeof(int));
    for (int p = 0; p < n; p++) {
        cost[p] = (float)(w[p] * wdist(co, dim, p, 0));
        assign[p] = 0;
    }

    const int nblocks = (n + BS - 1) / BS;
    float *d_co, *d_w, *d_cost, *d_bg;
    int *d_cand, *d_best;
    WL_CK(cudaMalloc(&d_co, (size_t)n * dim * sizeof(float)));
    WL_CK(cudaMalloc(&d_w, n * sizeof(float)));
    WL_CK(cudaMalloc(&d_cost, n * sizeof(float)));
    WL_CK(cudaMalloc(&d_cand, CMAX * sizeof(int)));
    WL_CK(cudaMalloc(&d_bg, nblocks * CMAX * sizeof(float)));
    WL_CK(cudaMalloc(&d_best, n * sizeof(int)));
    WL_CK(cudaMemcpy(d_co, co, (size_t)n * dim * sizeof(float), cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(d_w, w, n * sizeof(float), cudaMemcpyHostToDevice));

    float *bg = (float *)malloc(nblocks * CMAX * sizeof(float));
    int *best = (int *)malloc(n * sizeof(int));
    double *d = (double *)malloc((size_t)n * CMAX * sizeof(double));
    int opened = 0;
    for (int rd = 0; rd < rounds; rd++) {
        int cand[CMAX];
        for (int c = 0; c < nc; c++)
            cand[c] = (int)r.below(n);
        WL_CK(cudaMemcpy(d_cost, cost, n * sizeof(float), cudaMemcpyHostToDevice));
        WL_CK(cudaMemcpy(d_cand, cand, nc * sizeof(int), cudaMemcpyHostToDevice));
        sc_pgain<<<nblocks, BS>>>(d_co, d_w, d_cost, d_cand, nc, n, dim, d_bg, d_best);
        WL_LAUNCH_CK();
        WL_CK(cudaMemcpy(bg, d_bg, nblocks * CMAX * sizeof(float), cudaMemcpyDeviceToHost));
        WL_CK(cudaMemcpy(best, d_best, n * sizeof(int), cudaMemcpyDeviceToHost));

        double gain[CMAX] = {0}, want[CMAX] = {0};
        for (int b = 0; b < nblocks; b++)
            for (int c = 0; c < nc; c++)
                gain[c] += bg[b * CMAX + c];
        for (int p = 0; p < n; p++) {
            double bd = cost[p];
            int bi = -1;
            for (int c = 0; c < nc; c++) {
                double x = w[p] * wdist(co, dim, p, cand[c]);
                d[(size_t)p * CMAX + c] = x;
                if (x < cost[p])
                    want[c] += cost[p] - x;
                if (x < bd) {
                    bd = x;
                    bi = c;
                }
            }
            if (best[p] < -1 || best[p] >= nc)
                wl_fail("round %d: best[%d] = %d", rd, p, best[p]);
            if (best[p] == -1 ? !wl_close(bd, cost[p], 1e-5, 1e-6)
                              : !wl_close(d[(size_t)p * CMAX + best[p]], bd, 1e-5, 1e-6))
                wl_fail("round %d: point %d best candidate %d, host %d", rd, p, best[p], bi);
        }
        int open = 0;
        for (int c = 0; c < nc; c++) {
            if (!wl_close(gain[c], want[c], 1e-4, 1e-3))
                wl_fail("round %d: candidate %d gain %.9g, want %.9g", rd, c, gain[c], want[c]);
            if (want[c] > want[open])
                open = c;
        }
        if (want[open] > 0) { // open it: points it serves better move to it
            opened++;
            for (int p = 0; p < n; p++)
                if (d[(size_t)p * CMAX + open] < cost[p]) {
                    cost[p] = (float)d[(size_t)p * CMAX + open];
                    assign[p] = cand[open];
                }
        }
    }
    double total = 0;
    for (int p = 0; p < n; p++)
        total += cost[p];
    fprintf(stderr, "streamcluster: %d points x %d dims, %d rounds of %d candidates, %d opened, cost %.6g\n",
            n, dim, rounds, nc, opened, total);
    return wl_pass();
}
