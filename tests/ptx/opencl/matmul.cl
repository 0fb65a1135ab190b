// Matrix multiply with local-memory tiles, plus naive and vectorised variants.
#define TS 16

__kernel void matmul_naive(__global const float *A, __global const float *B, __global float *C, int M, int N, int K)
{
    int row = get_global_id(1), col = get_global_id(0);
    if (row >= M || col >= N) return;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc = mad(A[row * K + k], B[k * N + col], acc);
    C[row * N + col] = acc;
}

__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void matmul_tiled(__global const float *A, __global const float *B, __global float *C, int M, int N, int K)
{
    __local float As[TS][TS];
    __local float Bs[TS][TS];
    int lr = get_local_id(1), lc = get_local_id(0);
    int row = get_group_id(1) * TS + lr, col = get_group_id(0) * TS + lc;
    float acc = 0.0f;
    int tiles = (K + TS - 1) / TS;
    for (int t = 0; t < tiles; ++t) {
        int ak = t * TS + lc, bk = t * TS + lr;
        As[lr][lc] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[lr][lc] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
        for (int k = 0; k < TS; ++k) acc = fma(As[lr][k], Bs[k][lc], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N) C[row * N + col] = acc;
}

__kernel void matmul_float4(__global const float4 *A, __global const float *B, __global float *C, int M, int N, int K4)
{
    int row = get_global_id(1), col = get_global_id(0);
    if (row >= M || col >= N) return;
    float4 acc = (float4)(0.0f);
    for (int k = 0; k < K4; ++k) {
        float4 b = (float4)(B[(4 * k) * N + col], B[(4 * k + 1) * N + col], B[(4 * k + 2) * N + col], B[(4 * k + 3) * N + col]);
        acc = fma(A[row * K4 + k], b, acc);
    }
    C[row * N + col] = acc.x + acc.y + acc.z + acc.w;
}

__kernel void matmul_double(__global const double *A, __global const double *B, __global double *C, int n)
{
    int row = get_global_id(1), col = get_global_id(0);
    if (row >= n || col >= n) return;
    double acc = 0.0;
    for (int k = 0; k < n; ++k) acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
}
