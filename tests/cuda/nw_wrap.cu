// Needleman-Wunsch global alignment scores in 16x16 tiles, computed wave by
// wave over the anti-diagonals of a tile in shared memory (a 17x17 tile with
// its top row and left column from the neighbours). Indexing the tile as
// tile[ty - m][m] makes nvcc compute shared addresses in 32-bit registers as
// base - 68*tid + 4*tid and then read them with offsets like [%r+68]: the
// register goes below zero and the hardware's 32-bit address wraps back
// into the tile. Checked against a host dynamic-programming reference.
#define TEST_NAME "nw_wrap"
#include "common.h"

#define B 16
#define PENALTY 10

__device__ __host__ static inline int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

// One wave of tiles: tile (bx, wave - bx) for blockIdx.x = bx.
__global__ void nw_tiles(int *score, const int *ref, int cols, int wave, int first)
{
    __shared__ int t[B + 1][B + 1];
    __shared__ int r[B][B];
    int bx = first + blockIdx.x, by = wave - bx, tx = threadIdx.x;
    int x0 = bx * B, y0 = by * B; // tile origin in the score matrix (row y0, column x0)

    for (int i = 0; i < B; i++)
        r[i][tx] = ref[(y0 + i + 1) * cols + x0 + tx + 1];
    t[tx + 1][0] = score[(y0 + tx + 1) * cols + x0];
    t[0][tx + 1] = score[y0 * cols + x0 + tx + 1];
    if (tx == 0)
        t[0][0] = score[y0 * cols + x0];
    __syncthreads();
    for (int m = 0; m < B; m++) { // upper-left triangle of the tile
        if (tx <= m) {
            int x = tx + 1, y = m - tx + 1;
            t[y][x] = max3(t[y - 1][x - 1] + r[y - 1][x - 1], t[y][x - 1] - PENALTY,
                           t[y - 1][x] - PENALTY);
        }
        __syncthreads();
    }
    for (int m = B - 2; m >= 0; m--) { // lower-right triangle
        if (tx <= m) {
            int x = tx + B - m, y = B - tx;
            t[y][x] = max3(t[y - 1][x - 1] + r[y - 1][x - 1], t[y][x - 1] - PENALTY,
                           t[y - 1][x] - PENALTY);
        }
        __syncthreads();
    }
    for (int i = 0; i < B; i++)
        score[(y0 + i + 1) * cols + x0 + tx + 1] = t[i + 1][tx + 1];
}

int main()
{
    const int n = 4 * B, cols = n + 1, cells = cols * cols, tiles = n / B;
    int *ref = new int[cells], *score = new int[cells], *want = new int[cells];
    int *dref, *dscore;
    uint32_t seed = 7;

    for (int i = 0; i < cells; i++) {
        seed = seed * 1664525u + 1013904223u;
        ref[i] = (int)(seed >> 27) - 16; // -16..15
        score[i] = 0;
    }
    for (int i = 0; i < cols; i++)
        score[i * cols] = score[i] = -i * PENALTY;
    memcpy(want, score, sizeof(int) * cells);
    for (int y = 1; y < cols; y++)
        for (int x = 1; x < cols; x++)
            want[y * cols + x] =
                max3(want[(y - 1) * cols + x - 1] + ref[y * cols + x],
                     want[y * cols + x - 1] - PENALTY, want[(y - 1) * cols + x] - PENALTY);

    CK(cudaMalloc(&dref, sizeof(int) * cells));
    CK(cudaMalloc(&dscore, sizeof(int) * cells));
    CK(cudaMemcpy(dref, ref, sizeof(int) * cells, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dscore, score, sizeof(int) * cells, cudaMemcpyHostToDevice));
    for (int wave = 0; wave < 2 * tiles - 1; wave++) {
        int first = wave < tiles ? 0 : wave - tiles + 1, last = wave < tiles ? wave : tiles - 1;
        nw_tiles<<<last - first + 1, B>>>(dscore, dref, cols, wave, first);
        CK_LAUNCH();
    }
    CK(cudaMemcpy(score, dscore, sizeof(int) * cells, cudaMemcpyDeviceToHost));
    for (int i = 0; i < cells; i++)
        expect_eq("score", i, score[i], want[i]);
    CK(cudaFree(dref));
    CK(cudaFree(dscore));
    delete[] ref;
    delete[] score;
    delete[] want;
    return finish();
}
