// ptxsim exec test: C = A * B for n x n row-major matrices, 16x16 shared tiles
// (n need not be a multiple of the tile).
#define TILE 16

extern "C" __global__ void matmul(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE], Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int r = blockIdx.y * TILE + ty, c = blockIdx.x * TILE + tx;
    float acc = 0.0f;

    for (int k0 = 0; k0 < n; k0 += TILE) {
        As[ty][tx] = (r < n && k0 + tx < n) ? A[r * n + k0 + tx] : 0.0f;
        Bs[ty][tx] = (k0 + ty < n && c < n) ? B[(k0 + ty) * n + c] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (r < n && c < n)
        C[r * n + c] = acc;
}
