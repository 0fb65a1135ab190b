// WORKLOAD: nw | low-parallelism | Needleman-Wunsch global alignment scores by anti-diagonal waves of 16x16 tiles: one launch per tile diagonal, 1..n/16 CTAs of 16 threads each, shared-memory wavefront with a barrier per step, little cache reuse
//
// Score matrix S of (n+1) x (n+1) ints: S[i][0] = -i p, S[0][j] = -j p and
//   S[i][j] = max(S[i-1][j-1] + ref[i][j], S[i-1][j] - p, S[i][j-1] - p)
// with ref[i][j] = sim(a_i, b_j) precomputed on the host (a random symmetric 24 x 24
// similarity table over random sequences) and gap penalty p = 10. The matrix is cut
// into 16 x 16 tiles; launch d computes the tiles with bx + by = d (so the number of
// CTAs grows from 1 to n/16 and shrinks back). A CTA of 16 threads stages its tile's
// ref values and the row above / column left of it in shared memory, sweeps the tile's
// 31 anti-diagonals with a __syncthreads() after each, and writes the tile back.
// Check (exact): the whole score matrix against the host dynamic program.
#define WL_NAME "nw"
#include "wl.h"

#define T 16
#define PENALTY 10
#define ALPHABET 24

__global__ void nw_diagonal(int *score, const int *__restrict__ ref, int n, int nb, int d)
{
    __shared__ int s[T + 1][T + 1];
    __shared__ int r[T][T];
    int tx = threadIdx.x;
    int by0 = d < nb ? 0 : d - nb + 1;
    int by = by0 + blockIdx.x, bx = d - by;
    int w = n + 1;
    int r0 = by * T + 1, c0 = bx * T + 1; // first row/column of the tile

    for (int ty = 0; ty < T; ty++)
        r[ty][tx] = ref[(r0 + ty) * w + c0 + tx];
    s[0][tx + 1] = score[(r0 - 1) * w + c0 + tx];
    s[tx + 1][0] = score[(r0 + tx) * w + c0 - 1];
    if (tx == 0)
        s[0][0] = score[(r0 - 1) * w + c0 - 1];
    __syncthreads();

    for (int k = 0; k < 2 * T - 1; k++) {
        int i = tx + 1, j = k - tx + 1;
        if (j >= 1 && j <= T) {
            int m = s[i - 1][j - 1] + r[i - 1][j - 1];
            m = max(m, s[i - 1][j] - PENALTY);
            m = max(m, s[i][j - 1] - PENALTY);
            s[i][j] = m;
        }
        __syncthreads();
    }
    for (int ty = 0; ty < T; ty++)
        score[(r0 + ty) * w + c0 + tx] = s[ty + 1][tx + 1];
}

int main(int argc, char **argv)
{
    wl_size sz = wl_parse_size(argc, argv);
    int n = wl_pick(sz, 192, 1024, 4096);
    int nb = n / T, w = n + 1;
    size_t cells = (size_t)w * w;
    wl_rand rng(0x4E57);
    int sim[ALPHABET][ALPHABET];

    for (int a = 0; a < ALPHABET; a++)
        for (int b = 0; b <= a; b++)
            sim[a][b] = sim[b][a] = a == b ? 4 + (int)rng.below(8) : (int)rng.below(9) - 4;
    int *seqa = (int *)malloc(w * sizeof(int)), *seqb = (int *)malloc(w * sizeof(int));
    for (int i = 1; i <= n; i++)
        seqa[i] = rng.below(ALPHABET);
    for (int j = 1; j <= n; j++)
        seqb[j] = rng.below(ALPHABET);
    int *ref = (int *)calloc(cells, sizeof(int)), *want = (int *)malloc(cells * sizeof(int));
    int *got = (int *)malloc(cells * sizeof(int));
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++)
            ref[(size_t)i * w + j] = sim[seqa[i]][seqb[j]];
    // Borders (the device reads them; the interior is computed).
    memset(want, 0, cells * sizeof(int));
    for (int i = 0; i <= n; i++) {
        want[(size_t)i * w] = -i * PENALTY;
        want[i] = -i * PENALTY;
    }

    int *dscore, *dref;
    WL_CK(cudaMalloc(&dscore, cells * sizeof(int)));
    WL_CK(cudaMalloc(&dref, cells * sizeof(int)));
    WL_CK(cudaMemcpy(dscore, want, cells * sizeof(int), cudaMemcpyHostToDevice));
    WL_CK(cudaMemcpy(dref, ref, cells * sizeof(int), cudaMemcpyHostToDevice));
    for (int d = 0; d < 2 * nb - 1; d++) {
        int tiles = d < nb ? d + 1 : 2 * nb - 1 - d;
        nw_diagonal<<<tiles, T>>>(dscore, dref, n, nb, d);
        WL_CK(cudaGetLastError());
    }
    WL_LAUNCH_CK();
    WL_CK(cudaMemcpy(got, dscore, cells * sizeof(int), cudaMemcpyDeviceToHost));

    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= n; j++) {
            size_t c = (size_t)i * w + j;
            int m = want[c - w - 1] + ref[c];
            m = m > want[c - w] - PENALTY ? m : want[c - w] - PENALTY;
            m = m > want[c - 1] - PENALTY ? m : want[c - 1] - PENALTY;
            want[c] = m;
        }
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= n; j++)
            if (got[(size_t)i * w + j] != want[(size_t)i * w + j])
                wl_fail("S[%d][%d] = %d, want %d", i, j, got[(size_t)i * w + j], want[(size_t)i * w + j]);
    cudaFree(dscore);
    cudaFree(dref);
    free(seqa);
    free(seqb);
    free(ref);
    free(want);
    free(got);
    return wl_pass();
}
