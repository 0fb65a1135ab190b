// Tensor cores (wmma) and sm_80 features: cp.async via __pipeline_memcpy_async,
// cuda::memcpy_async with cuda::pipeline, bf16/tf32 wmma, __reduce_*_sync,
// L2 cache hints and redux. sm_80-only code is guarded with __CUDA_ARCH__.
#include <cuda_runtime.h>
#include <mma.h>
#include <cuda_pipeline.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

using namespace nvcuda;
namespace cg = cooperative_groups;

// 16x16x16 half-precision GEMM tile (sm_70+).
__global__ void wmma_half_gemm(const __half *A, const __half *B, float *C, int M, int N, int K)
{
    int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int warpN = blockIdx.y * blockDim.y + threadIdx.y;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        int ar = warpM * 16, bc = warpN * 16;
        if (ar < M && bc < N) {
            wmma::load_matrix_sync(a, A + ar * K + k, K);
            wmma::load_matrix_sync(b, B + bc * K + k, K);
            wmma::mma_sync(acc, a, b, acc);
        }
    }
    for (int t = 0; t < acc.num_elements; ++t) acc.x[t] *= 2.0f;
    if (warpM * 16 < M && warpN * 16 < N)
        wmma::store_matrix_sync(C + warpM * 16 * N + warpN * 16, acc, N, wmma::mem_row_major);
}

// 8x8x32 int8 -> int32 and 32x8x16 half -> half shapes.
__global__ void wmma_int8_and_shapes(const signed char *A, const signed char *B, int *C, const __half *H, __half *HO)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
    wmma::fill_fragment(c, 0);
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(C, c, 16, wmma::mem_col_major);
    wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::col_major> ha;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::row_major> hb;
    wmma::fragment<wmma::accumulator, 32, 8, 16, __half> hc;
    wmma::load_matrix_sync(ha, H, 32);
    wmma::load_matrix_sync(hb, H + 512, 8);
    wmma::fill_fragment(hc, __float2half(1.0f));
    wmma::mma_sync(hc, ha, hb, hc);
    wmma::store_matrix_sync(HO, hc, 8, wmma::mem_row_major);
}

#if __CUDA_ARCH__ >= 800
#define SM80 1
#endif

__global__ void wmma_sm80_types(const __nv_bfloat16 *A, const __nv_bfloat16 *B, const float *TA, const float *TB,
                                const double *DA, const double *DB, float *C, double *DC)
{
#ifdef SM80
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::mma_sync(c, a, b, c);
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> ta;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> tb;
    wmma::load_matrix_sync(ta, TA, 8);
    wmma::load_matrix_sync(tb, TB, 8);
    for (int t = 0; t < ta.num_elements; ++t) ta.x[t] = wmma::__float_to_tf32(ta.x[t]);
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> tc;
    wmma::fill_fragment(tc, 1.0f);
    wmma::mma_sync(tc, ta, tb, tc);
    wmma::store_matrix_sync(C, c, 16, wmma::mem_row_major);
    wmma::store_matrix_sync(C + 256, tc, 16, wmma::mem_col_major);
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> da;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> db;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> dc;
    wmma::fill_fragment(dc, 0.0);
    wmma::load_matrix_sync(da, DA, 4);
    wmma::load_matrix_sync(db, DB, 4);
    wmma::mma_sync(dc, da, db, dc);
    wmma::store_matrix_sync(DC, dc, 8, wmma::mem_row_major);
#else
    if (threadIdx.x == 0) C[0] = (float)A[0] + TA[0] + (float)DA[0];
#endif
}

// cp.async through the pipeline primitives (falls back to synchronous copies before sm_80).
__global__ void pipeline_copy(const float4 *in, float4 *out, int n)
{
    __shared__ float4 stage[2][128];
    int base = blockIdx.x * 256;
    for (int s = 0; s < 2; ++s) {
        int g = base + s * 128 + threadIdx.x;
        if (g < n) __pipeline_memcpy_async(&stage[s][threadIdx.x], &in[g], sizeof(float4));
        __pipeline_commit();
    }
    __pipeline_wait_prior(1);
    __syncthreads();
    int g0 = base + threadIdx.x;
    if (g0 < n) out[g0] = stage[0][(threadIdx.x + 1) & 127];
    __pipeline_wait_prior(0);
    __syncthreads();
    int g1 = base + 128 + threadIdx.x;
    if (g1 < n) out[g1] = stage[1][127 - threadIdx.x];
}

__global__ void cg_memcpy_async(const int *in, int *out, int n)
{
    extern __shared__ int smem[];
    cg::thread_block block = cg::this_thread_block();
    int base = blockIdx.x * blockDim.x;
    int cnt = min((int)blockDim.x, n - base);
    cg::memcpy_async(block, smem, in + base, sizeof(int) * cnt);
    cg::wait(block);
    if ((int)threadIdx.x < cnt) out[base + threadIdx.x] = smem[cnt - 1 - threadIdx.x] * 2;
}

__global__ void sm80_misc(const unsigned *in, unsigned *out, float *f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = i < n ? in[i] : 0u;
#ifdef SM80
    unsigned s = __reduce_add_sync(0xffffffffu, v);
    unsigned m = __reduce_max_sync(0xffffffffu, v);
    unsigned o = __reduce_or_sync(0xffffffffu, v);
    int mi = __reduce_min_sync(0xffffffffu, (int)v);
    unsigned long long pol;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
    float x;
    asm volatile("ld.global.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(x) : "l"(f + i), "l"(pol));
    asm volatile("st.global.L1::no_allocate.f32 [%0], %1;" :: "l"(f + i), "f"(x * 2.0f));
    __half2 h = __floats2half2_rn(x, 1.0f);
    __half2 mx = __hmax2_nan(h, __float2half2_rn(0.0f));
    float ff = __low2float(__hfma2_relu(mx, h, h));
    if (i < n) out[i] = s + m + o + (unsigned)mi + (unsigned)ff;
#else
    if (i < n) out[i] = v + (unsigned)f[i];
#endif
}

// Raw mma.sync / ldmatrix / cp.async through inline PTX (sm_80).
__global__ void raw_mma_ldmatrix(const __half *A, const __half *B, float *C)
{
    __shared__ __align__(16) __half sA[16 * 16];
    __shared__ __align__(16) __half sB[16 * 8];
    int lane = threadIdx.x & 31;
    for (int k = lane; k < 256; k += 32) sA[k] = A[k];
    for (int k = lane; k < 128; k += 32) sB[k] = B[k];
    __syncwarp();
#ifdef SM80
    unsigned a0, a1, a2, a3, b0, b1;
    unsigned sa = (unsigned)__cvta_generic_to_shared(&sA[(lane & 15) * 16 + (lane >> 4) * 8]);
    unsigned sb = (unsigned)__cvta_generic_to_shared(&sB[(lane & 15) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(a0), "=r"(a1), "=r"(a2), "=r"(a3) : "r"(sa));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(b0), "=r"(b1) : "r"(sb));
    float d0 = 0.f, d1 = 0.f, d2 = 0.f, d3 = 0.f;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
                 "{%0, %1, %2, %3};"
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    C[lane * 4 + 0] = d0;
    C[lane * 4 + 1] = d1;
    C[lane * 4 + 2] = d2;
    C[lane * 4 + 3] = d3;
    __shared__ __align__(16) float buf[32 * 4];
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"((unsigned)__cvta_generic_to_shared(&buf[lane * 4])),
                 "l"(C + lane * 4));
    asm volatile("cp.async.commit_group;");
    asm volatile("cp.async.wait_all;");
    C[128 + lane] = buf[(lane * 5) & 127];
#else
    C[lane] = __half2float(sA[lane]) * __half2float(sB[lane]);
#endif
}
