// WORKLOAD: sgemm | compute | dense SGEMM C = A*B with 16x16 shared-memory tiles: high arithmetic intensity, regular loads, barriers every tile
//
// C (M x N) = A (M x K) * B (K x N), row-major, M = N = K = n (a multiple of 16).
// Each 16x16 CTA computes a 16x16 tile of C; per step it stages a 16x16 tile of A and
// of B in shared memory, synchronises, and accumulates 16 multiply-adds per thread.
// Check: host double-precision product; each element must satisfy
//   |got - want| <= 1e-5 * sum_k |a_ik * b_kj| + 1e-6
// (float accumulation error grows like sqrt(K) * 2^-24 relative to that sum; the bound
// leaves a wide margin for the device's fused multiply-adds and summation order).
#define WL_NAME "sgemm"
#include "wl.h"

#define TILE 16

__global__ void sgemm_tiled(const float *__restrict__ a, const float *__restrict__ b, float *c, int n)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;

    for (int k0 = 0; k0 < n; k0 += TILE) {
        as[ty][tx] = a[row * n + k0 + tx];
        bs[ty][tx] = b[(k0 + ty) * n + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            acc += as[ty][k] * bs[k][tx];
        __syncthreads();
    }
    c[row * n + col] = acc;
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    int n = wl_pick(sz, 96, 256, 1024);
    size_t elems = (size_t)n * n;
    float *ha = (float *)malloc(elems * sizeof(float));
    float *hb = (float *)malloc(elems * sizeof(float));
    float *hc = (float *)malloc(elems * sizeof(float));
    wl_rand r(0x5E3A);

    for (size_t i = 0; i < elems; i++)
        ha[i] = r.range(-1.0f, 1.0f);
    for (size_t i = 0; i < elems; i++)
        hb[i] = r.range(-1.0f, 1.0f);

    float *da, *db, *dc;
    WL_CK(cudaMalloc(&da, elems * sizeof(float)));
    WL_CK(cudaMalloc(&db, elems * sizeof(float)));
    WL_CK(cudaMalloc(&dc, elems * sizeof(float)));
    WL_CK(cudaMemcpy(da, ha, elems * sizeof(float), cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(db, hb, elems * sizeof(float), cudaMemcpyHostToDevice));
    dim3 block(TILE, TILE), grid(n / TILE, n / TILE);
    sgemm_tiled<<<grid, block>>>(da, db, dc, n);
    WL_LAUNCH_CK();
    WL_CK(cudaMemcpy(hc, dc, elems * sizeof(float), cudaMemcpyDeviceToHost));

    // Host reference in double, row by row (i-k-j order for cache friendliness).
    double *want = (double *)calloc((size_t)n, sizeof(double));
    double *mag = (double *)calloc((size_t)n, sizeof(double));
    for (int i = 0; i < n; i++) {
        memset(want, 0, n * sizeof(double));
        memset(mag, 0, n * sizeof(double));
        for (int k = 0; k < n; k++) {
            double aik = ha[(size_t)i * n + k];
            const float *brow = hb + (size_t)k * n;
            for (int j = 0; j < n; j++) {
                double p = aik * brow[j];
                want[j] += p;
                mag[j] += fabs(p);
            }
        }
        for (int j = 0; j < n; j++) {
            double got = hc[(size_t)i * n + j];
            if (!(fabs(got - want[j]) <= 1e-5 * mag[j] + 1e-6))
                wl_fail("C[%d][%d] = %.7g, want %.7g", i, j, got, want[j]);
        }
    }
    free(want);
    free(mag);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    free(ha);
    free(hb);
    free(hc);
    return wl_pass();
}
