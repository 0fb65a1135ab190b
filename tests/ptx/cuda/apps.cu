// Small realistic application kernels: tiled SGEMM, Blelloch scan, bitonic
// sort, 3D stencil, histogram, n-body step, Mandelbrot, a switch-heavy
// interpreter, launch bounds and 2D/3D indexing.
#include <cuda_runtime.h>

#define TILE 16

__global__ void __launch_bounds__(TILE * TILE) sgemm_tiled(const float *A, const float *B, float *C, int M, int N, int K,
                                                          float alpha, float beta)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE + 1];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ak = t * TILE + threadIdx.x, bk = t * TILE + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

__global__ void blelloch_scan(int *data, int n)
{
    extern __shared__ int temp[];
    int tid = threadIdx.x;
    int offset = 1;
    temp[2 * tid] = 2 * tid < n ? data[2 * tid] : 0;
    temp[2 * tid + 1] = 2 * tid + 1 < n ? data[2 * tid + 1] : 0;
    int size = 2 * blockDim.x;
    for (int d = size >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (tid == 0) temp[size - 1] = 0;
    for (int d = 1; d < size; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    if (2 * tid < n) data[2 * tid] = temp[2 * tid];
    if (2 * tid + 1 < n) data[2 * tid + 1] = temp[2 * tid + 1];
}

__global__ void bitonic_step(unsigned *keys, int j, int k)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned ixj = i ^ j;
    if (ixj > i) {
        unsigned a = keys[i], b = keys[ixj];
        bool up = (i & k) == 0;
        if ((up && a > b) || (!up && a < b)) { keys[i] = b; keys[ixj] = a; }
    }
}

__global__ void stencil3d(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) return;
    size_t sx = 1, sy = nx, sz = (size_t)nx * ny;
    size_t c = z * sz + y * sy + x;
    out[c] = 0.4f * in[c] + 0.1f * (in[c - sx] + in[c + sx] + in[c - sy] + in[c + sy] + in[c - sz] + in[c + sz]);
}

__global__ void nbody_step(float4 *pos, float4 *vel, int n, float dt, float soft2)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 p = pos[i];
    float3 a = make_float3(0.f, 0.f, 0.f);
    for (int j = 0; j < n; ++j) {
        float4 q = pos[j];
        float3 d = make_float3(q.x - p.x, q.y - p.y, q.z - p.z);
        float r2 = d.x * d.x + d.y * d.y + d.z * d.z + soft2;
        float inv = rsqrtf(r2);
        float s = q.w * inv * inv * inv;
        a.x += d.x * s; a.y += d.y * s; a.z += d.z * s;
    }
    float4 v = vel[i];
    v.x += a.x * dt; v.y += a.y * dt; v.z += a.z * dt;
    vel[i] = v;
    pos[i] = make_float4(p.x + v.x * dt, p.y + v.y * dt, p.z + v.z * dt, p.w);
}

__global__ void mandelbrot(unsigned char *img, int w, int h, float x0, float y0, float scale, int maxit)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= w || py >= h) return;
    float cr = x0 + px * scale, ci = y0 + py * scale;
    float zr = 0.f, zi = 0.f;
    int it = 0;
    while (zr * zr + zi * zi < 4.0f && it < maxit) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++it;
    }
    img[py * w + px] = (unsigned char)(it * 255 / maxit);
}

enum Op { OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_NEG, OP_DUP, OP_SWAP, OP_JZ, OP_HALT };

__global__ void tiny_vm(const int *code, const int *args, int *results, int ncode, int nprog)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= nprog) return;
    int stack[16];
    int sp = 0, pc = 0, steps = 0;
    stack[sp++] = args[p];
    while (pc < ncode && steps++ < 256) {
        int ins = code[pc++];
        switch (ins & 15) {
        case OP_PUSH: stack[sp++ & 15] = ins >> 4; break;
        case OP_ADD: --sp; stack[(sp - 1) & 15] += stack[sp & 15]; break;
        case OP_SUB: --sp; stack[(sp - 1) & 15] -= stack[sp & 15]; break;
        case OP_MUL: --sp; stack[(sp - 1) & 15] *= stack[sp & 15]; break;
        case OP_DIV: --sp; stack[(sp - 1) & 15] /= (stack[sp & 15] | 1); break;
        case OP_NEG: stack[(sp - 1) & 15] = -stack[(sp - 1) & 15]; break;
        case OP_DUP: stack[sp & 15] = stack[(sp - 1) & 15]; ++sp; break;
        case OP_SWAP: { int t = stack[(sp - 1) & 15]; stack[(sp - 1) & 15] = stack[(sp - 2) & 15]; stack[(sp - 2) & 15] = t; } break;
        case OP_JZ: if (stack[(--sp) & 15] == 0) pc = ins >> 4; break;
        case OP_HALT: pc = ncode; break;
        default: break;
        }
    }
    results[p] = sp > 0 ? stack[(sp - 1) & 15] : 0;
}

__global__ void __launch_bounds__(256, 2) histogram256(const unsigned char *data, unsigned *hist, int n)
{
    __shared__ unsigned local[256];
    local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

__global__ void __maxnreg__(32) transpose(const float *in, float *out, int w, int h)
{
    __shared__ float tile[32][33];
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
