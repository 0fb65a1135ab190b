// Tiled matrix multiply C = A * B with 16x16 shared-memory tiles, 2D grid and
// sizes that are not multiples of the tile (ragged edges), in float and
// double. Entries are small integers, so every product and partial sum is
// exact and the result must match the host bit for bit.
#define TEST_NAME "matmul_tiled"
#include "common.h"

#define TILE 16

template <typename T> __global__ void matmul(const T *A, const T *B, T *C, int M, int K, int N)
{
    __shared__ T As[TILE][TILE];
    __shared__ T Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    T acc = 0;

    for (int k0 = 0; k0 < K; k0 += TILE) {
        int ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = row < M && ka < K ? A[row * K + ka] : T(0);
        Bs[threadIdx.y][threadIdx.x] = kb < K && col < N ? B[kb * N + col] : T(0);
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

template <typename T> static void run(int M, int K, int N, const char *what)
{
    T *A = new T[M * K], *B = new T[K * N], *C = new T[M * N];
    T *dA, *dB, *dC;

    for (int i = 0; i < M * K; i++)
        A[i] = T((i * 7) % 11 - 5);
    for (int i = 0; i < K * N; i++)
        B[i] = T((i * 5) % 13 - 6);
    CK(cudaMalloc(&dA, M * K * sizeof(T)));
    CK(cudaMalloc(&dB, K * N * sizeof(T)));
    CK(cudaMalloc(&dC, M * N * sizeof(T)));
    CK(cudaMemcpy(dA, A, M * K * sizeof(T), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, B, K * N * sizeof(T), cudaMemcpyHostToDevice));
    CK(cudaMemset(dC, 0xff, M * N * sizeof(T)));
    dim3 block(TILE, TILE), grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
    matmul<T><<<grid, block>>>(dA, dB, dC, M, K, N);
    CK_LAUNCH();
    CK(cudaMemcpy(C, dC, M * N * sizeof(T), cudaMemcpyDeviceToHost));
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            T want = 0;
            for (int k = 0; k < K; k++)
                want += A[i * K + k] * B[k * N + j];
            expect_bits(what, i * N + j, (double)C[i * N + j], (double)want);
        }
    CK(cudaFree(dA));
    CK(cudaFree(dB));
    CK(cudaFree(dC));
    delete[] A;
    delete[] B;
    delete[] C;
}

int main()
{
    run<float>(70, 45, 53, "C_f32");
    run<float>(32, 32, 32, "C_f32_square");
    run<double>(37, 70, 19, "C_f64");
    return finish();
}
